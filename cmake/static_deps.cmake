# static_deps.cmake - programs (the gpucal binary, the tests) link GSL and
# libyaml statically when their archives are installed: one CLI call then
# maps three shared objects fewer and resolves none of their symbols at
# start (about 0.4 ms of the 3 ms an end-to-end prediction may take,
# issue 17). The shared library libgpucal.so keeps the shared ones.
# GPUCAL_STATIC_DEPS=OFF links everything shared.
option(GPUCAL_STATIC_DEPS "link GSL and libyaml statically into programs when possible" ON)

include(CheckCSourceCompiles)

# gc_static_dep(TARGET libdir symbol names...): TARGET (a PkgConfig:: imported
# target) links lib<name>.a from libdir into executables when they all exist
# and a program calling symbol links with them (an archive built without
# -fPIC/-fPIE cannot go into a PIE: then the shared libraries stay)
function(gc_static_dep target libdir symbol)
  if(NOT GPUCAL_STATIC_DEPS OR NOT TARGET ${target})
    return()
  endif()
  set(archives)
  foreach(name ${ARGN})
    set(a ${libdir}/lib${name}.a)
    if(NOT EXISTS ${a})
      return()
    endif()
    list(APPEND archives ${a})
  endforeach()
  set(CMAKE_REQUIRED_LIBRARIES ${archives} m)
  set(CMAKE_REQUIRED_QUIET ON)
  check_c_source_compiles("char ${symbol}(void); int main(void) { return ${symbol}() != 0; }"
                          GC_STATIC_${symbol})
  if(NOT GC_STATIC_${symbol})
    return()
  endif()
  get_target_property(shared ${target} INTERFACE_LINK_LIBRARIES)
  set_property(TARGET ${target} PROPERTY INTERFACE_LINK_LIBRARIES
    "$<IF:$<STREQUAL:$<TARGET_PROPERTY:TYPE>,EXECUTABLE>,${archives};m,${shared}>")
endfunction()

gc_static_dep(PkgConfig::GSL "${GSL_LIBDIR}" gsl_vector_alloc gsl gslcblas)
gc_static_dep(PkgConfig::YAML "${YAML_LIBDIR}" yaml_parser_initialize yaml)

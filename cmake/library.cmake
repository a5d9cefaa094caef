# library.cmake - the gpucal library (issue 17): libgpucal.so and libgpucal.a
# from the lib box with the boxes it stands on (util, arch, model/predict),
# the public header include/gpucal/gpucal.h, gpucal.pc, and `cmake --install`
# of the binaries, the library, the shipped arch files and the Python module.
# Only gpucal_* symbols are exported from the shared library.
include(GNUInstallDirs)

set(GC_LIB_SRC)
foreach(dir util arch model/predict lib)
  file(GLOB s CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/${dir}/*.c)
  list(APPEND GC_LIB_SRC ${s})
endforeach()
add_library(gc_libobj OBJECT ${GC_LIB_SRC})
set_target_properties(gc_libobj PROPERTIES POSITION_INDEPENDENT_CODE ON C_VISIBILITY_PRESET hidden)
target_compile_options(gc_libobj PRIVATE ${GC_WARN})
target_include_directories(gc_libobj PRIVATE ${CMAKE_SOURCE_DIR})
target_link_libraries(gc_libobj PRIVATE PkgConfig::YAML)

find_package(Threads REQUIRED)
add_library(gpucal_shared SHARED $<TARGET_OBJECTS:gc_libobj>)
set_target_properties(gpucal_shared PROPERTIES OUTPUT_NAME gpucal VERSION ${PROJECT_VERSION}
                      SOVERSION ${PROJECT_VERSION_MAJOR})
target_link_libraries(gpucal_shared PRIVATE PkgConfig::YAML m Threads::Threads)
add_library(gpucal_static STATIC $<TARGET_OBJECTS:gc_libobj>)
set_target_properties(gpucal_static PROPERTIES OUTPUT_NAME gpucal)

set(GC_PC_PREFIX "\${pcfiledir}/../..")
if(CMAKE_INSTALL_LIBDIR MATCHES "/")
  set(GC_PC_PREFIX "\${pcfiledir}/../../..")
endif()
configure_file(${CMAKE_SOURCE_DIR}/cmake/gpucal.pc.in ${CMAKE_BINARY_DIR}/gpucal.pc @ONLY)

# Python: where the system python3 looks under the prefix (Debian:
# <prefix>/lib/python3.X/dist-packages, /usr/lib/python3/dist-packages;
# elsewhere the posix_prefix scheme's site-packages)
find_program(GC_PYTHON3 python3 PATHS /usr/bin NO_DEFAULT_PATH)
find_program(GC_PYTHON3 python3)
set(GC_PY_DIR "")
if(GC_PYTHON3)
  execute_process(
    COMMAND ${GC_PYTHON3} -c "import sys, sysconfig
v = '%d.%d' % sys.version_info[:2]
if 'deb_system' in sysconfig.get_scheme_names():
    print('lib/python3/dist-packages' if sys.argv[1] == '/usr' else 'lib/python%s/dist-packages' % v)
else:
    print(sysconfig.get_path('purelib', 'posix_prefix', vars={'base': '', 'platbase': ''}).lstrip('/'))"
            ${CMAKE_INSTALL_PREFIX}
    OUTPUT_VARIABLE GC_PY_DIR OUTPUT_STRIP_TRAILING_WHITESPACE)
endif()
set(GPUCAL_PYTHON_DIR "${GC_PY_DIR}" CACHE STRING "Python module folder under the prefix")

install(TARGETS gpucal RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS gpucal_shared gpucal_static
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES ${CMAKE_SOURCE_DIR}/include/gpucal/gpucal.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/gpucal)
install(FILES ${CMAKE_BINARY_DIR}/gpucal.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
file(GLOB GC_ARCH_YAML ${CMAKE_SOURCE_DIR}/arch/*.yaml)
install(FILES ${GC_ARCH_YAML} DESTINATION ${CMAKE_INSTALL_DATADIR}/gpucal/arch)
if(GPUCAL_PYTHON_DIR)
  install(FILES ${CMAKE_SOURCE_DIR}/python/gpucal/__init__.py
          DESTINATION ${GPUCAL_PYTHON_DIR}/gpucal)
endif()

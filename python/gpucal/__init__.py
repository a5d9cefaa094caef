"""gpucal: predict a GPU kernel's time on an architecture, from Python.

A thin ctypes layer over the shared library libgpucal.so (include/gpucal/gpucal.h);
nothing to compile. Results are the dicts `gpucal predict --format json` prints.

    import gpucal
    r = gpucal.predict("gemm", arch="hopper-h100", m=4096, n=4096, k=4096, dtype="f16")
    r["time_us"], r["bound"]
    gpucal.predict(kernel="k.yaml", arch="ada-rtx4090")
    gpucal.predict_many([{"template": "gemm", "m": 128, ...}, ...])
    gpucal.arch("hopper-h100")["sm"]

The library is found beside this module's install prefix (lib/, lib/<triplet>/),
else through $GPUCAL_LIB (a path to libgpucal.so), else on the loader's path.
Arch names are looked up by the library (share/gpucal/arch of the prefix, or
$GPUCAL_ARCH_DIR). Archs are loaded once per process and kept.
"""
import ctypes
import ctypes.util
import glob
import json
import os

__all__ = ["predict", "predict_many", "arch", "templates", "GpucalError"]


class GpucalError(Exception):
    """A request gpucal refused: the message says what is wrong and how to fix it."""


def _find_library():
    env = os.environ.get("GPUCAL_LIB")
    if env:
        return env
    here = os.path.dirname(os.path.abspath(__file__))
    d = here
    for _ in range(6):  # <prefix>/lib/python3.X/site-packages/gpucal -> <prefix>
        d = os.path.dirname(d)
        for pat in ("lib/libgpucal.so*", "lib/*/libgpucal.so*", "lib64/libgpucal.so*"):
            hits = sorted(glob.glob(os.path.join(d, pat)))
            if hits:
                return hits[0]
    found = ctypes.util.find_library("gpucal")
    if found:
        return found
    raise OSError("libgpucal.so not found: install gpucal (cmake --install) or set GPUCAL_LIB")


_lib = ctypes.CDLL(_find_library())


class _Error(ctypes.Structure):
    _fields_ = [("code", ctypes.c_int), ("message", ctypes.c_char * 1024)]


_lib.gpucal_predict_json.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p),
                                     ctypes.POINTER(_Error)]
_lib.gpucal_predict_json.restype = ctypes.c_int
_lib.gpucal_arch_load.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.c_char_p,
                                  ctypes.POINTER(_Error)]
_lib.gpucal_arch_load.restype = ctypes.c_int
_lib.gpucal_arch_json.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p),
                                  ctypes.POINTER(_Error)]
_lib.gpucal_arch_json.restype = ctypes.c_int
_lib.gpucal_arch_free.argtypes = [ctypes.c_void_p]
_lib.gpucal_free.argtypes = [ctypes.c_void_p]
_lib.gpucal_template_name.argtypes = [ctypes.c_int]
_lib.gpucal_template_name.restype = ctypes.c_char_p


def _take_string(ptr):
    try:
        return ctypes.string_at(ptr.value).decode() if ptr.value else ""
    finally:
        _lib.gpucal_free(ptr)


def _answers(request):
    """One request dict -> the library's answers (one dict per arch)."""
    out = ctypes.c_void_p()
    err = _Error()
    _lib.gpucal_predict_json(json.dumps(request).encode(), ctypes.byref(out), ctypes.byref(err))
    return [json.loads(line) for line in _take_string(out).splitlines() if line]


def _request(template, kernel, arch, options):
    if (template is None) == (kernel is None):
        raise GpucalError("give a template name or kernel=PATH (one of them)")
    req = {"template": template} if template is not None else {"kernel": os.fspath(kernel)}
    if arch is not None:
        req["arch"] = arch if isinstance(arch, str) else ",".join(arch)
    for key, value in options.items():
        if key not in ("clock_mhz", "period_us"):
            key = key.replace("_", "-")  # head_dim= -> --head-dim
        req[key] = value
    return req


def predict(template=None, kernel=None, arch=None, **options):
    """Predict a template (gemm, stream, attention, softmax, layernorm, rowsum,
    elementwise, transpose, conv2d) with its options, or kernel=PATH (a
    gpucal-kernel/1 description), on arch (a name, a path, or a list: then a
    list of results). Options are the CLI's long options (head_dim= for
    --head-dim; clock_mhz= for --clock, period_us= for --period-us). Raises
    GpucalError on a bad request."""
    req = _request(template, kernel, arch, options)
    res = _answers(req)
    for r in res:
        if "error" in r:
            raise GpucalError(r["error"])
    return res if arch is not None and not isinstance(arch, str) else res[0]


def predict_many(requests):
    """Predict a list of requests (dicts as lines of `gpucal predict --batch`:
    {"template": "gemm", "m": ..., "arch": ...} or {"kernel": PATH, "arch": ...}).
    Returns one dict per request and arch, in order; a bad request gives
    {"error": "..."} and the others go on."""
    out = []
    for req in requests:
        out.extend(_answers(req))
    return out


def arch(name):
    """The arch file name (shipped name or path) as a dict (`gpucal arch show NAME --format json`)."""
    handle = ctypes.c_void_p()
    err = _Error()
    if _lib.gpucal_arch_load(ctypes.byref(handle), name.encode(), ctypes.byref(err)):
        raise GpucalError(err.message.decode())
    try:
        out = ctypes.c_void_p()
        if _lib.gpucal_arch_json(handle, ctypes.byref(out), ctypes.byref(err)):
            raise GpucalError(err.message.decode())
        return json.loads(_take_string(out))
    finally:
        _lib.gpucal_arch_free(handle)


def templates():
    """Names of the templates gpucal predicts."""
    names, i = [], 0
    while True:
        n = _lib.gpucal_template_name(i)
        if n is None:
            return names
        names.append(n.decode())
        i += 1

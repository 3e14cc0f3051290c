"""ctypes declarations of include/gjkbatch.h and the loading of libgjkbatch.

Private: the public names are in gjkbatch/__init__.py. Every structure here
mirrors the header field for field; ctypes lays them out with the platform's
C alignment rules, as the compiler does.
"""

import ctypes
import ctypes.util
import os

# Array fields and arguments are void pointers: a numpy array's address is a
# plain int, which a void pointer field takes without a cast (fewer Python
# steps per call). The alias names keep the C element type visible.
c_u8p = c_u32p = c_f32p = c_f64p = ctypes.c_void_p

MAX_CONTACTS = 4
KIND_COUNT = 6
BACKEND_COUNT = 7
DEFAULT_MAX_ITERATIONS = 64
REFERENCE_MAX_ITERATIONS = 256
DEFAULT_TOLERANCE = 1e-6
MAX_COORD = 1e15
BODY_STATIC = 1

# gjkb_error codes
OK, ERR_NULL, ERR_RANGE, ERR_KIND, ERR_ARGUMENT, ERR_MEMORY, ERR_UNSUPPORTED = range(7)


class Bodies_c(ctypes.Structure):
    _fields_ = [("count", ctypes.c_uint32), ("kind", c_u8p),
                ("px", c_f64p), ("py", c_f64p), ("pz", c_f64p),
                ("qw", c_f32p), ("qx", c_f32p), ("qy", c_f32p), ("qz", c_f32p),
                ("sx", c_f32p), ("sy", c_f32p), ("sz", c_f32p),
                ("margin", c_f32p), ("hull", c_u32p)]


class Pairs_c(ctypes.Structure):
    _fields_ = [("count", ctypes.c_uint32), ("a", c_u32p), ("b", c_u32p)]


class Query_c(ctypes.Structure):
    _fields_ = [("mode", ctypes.c_int), ("max_iterations", ctypes.c_uint32),
                ("tolerance", ctypes.c_double), ("max_distance", ctypes.c_double),
                ("warm_x", c_f64p), ("warm_y", c_f64p), ("warm_z", c_f64p)]


class Manifolds_c(ctypes.Structure):
    _fields_ = [("count", c_u8p),
                ("ax", c_f64p), ("ay", c_f64p), ("az", c_f64p),
                ("bx", c_f64p), ("by", c_f64p), ("bz", c_f64p),
                ("separation", c_f64p), ("feature", c_u32p)]


class Results_c(ctypes.Structure):
    _fields_ = [("status", c_u8p), ("distance", c_f64p),
                ("ax", c_f64p), ("ay", c_f64p), ("az", c_f64p),
                ("bx", c_f64p), ("by", c_f64p), ("bz", c_f64p),
                ("nx", c_f64p), ("ny", c_f64p), ("nz", c_f64p),
                ("iterations", c_u32p), ("manifold", Manifolds_c)]


class Config_c(ctypes.Structure):
    _fields_ = [("backend", ctypes.c_int), ("reserve_pairs", ctypes.c_uint32)]


class HullInfo_c(ctypes.Structure):
    _fields_ = [("points", ctypes.c_uint32), ("vertices", ctypes.c_uint32),
                ("faces", ctypes.c_uint32), ("edges", ctypes.c_uint32), ("valid", ctypes.c_int)]


class Stats_c(ctypes.Structure):
    _fields_ = [("width", ctypes.c_uint32), ("pairs", ctypes.c_uint64),
                ("bundle_steps", ctypes.c_uint64), ("lane_steps", ctypes.c_uint64),
                ("refined", ctypes.c_uint64)]


class Shape_c(ctypes.Structure):
    _fields_ = [("kind", ctypes.c_int), ("size", ctypes.c_float * 3), ("margin", ctypes.c_float),
                ("hull", ctypes.c_uint32), ("pos", ctypes.c_double * 3), ("rot", ctypes.c_float * 4)]


class Contact_c(ctypes.Structure):
    _fields_ = [("a", ctypes.c_double * 3), ("b", ctypes.c_double * 3),
                ("separation", ctypes.c_double), ("feature", ctypes.c_uint32)]


class Result_c(ctypes.Structure):
    _fields_ = [("status", ctypes.c_int), ("iterations", ctypes.c_uint32), ("distance", ctypes.c_double),
                ("a", ctypes.c_double * 3), ("b", ctypes.c_double * 3), ("n", ctypes.c_double * 3),
                ("contact_count", ctypes.c_uint32), ("contacts", Contact_c * MAX_CONTACTS)]


class Aabbs_c(ctypes.Structure):
    _fields_ = [("count", ctypes.c_uint32),
                ("min_x", c_f32p), ("min_y", c_f32p), ("min_z", c_f32p),
                ("max_x", c_f32p), ("max_y", c_f32p), ("max_z", c_f32p)]


PairFilter_c = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_uint32, ctypes.c_uint32)


class BroadphaseOptions_c(ctypes.Structure):
    _fields_ = [("flags", c_u8p), ("filter", PairFilter_c), ("user", ctypes.c_void_p)]


class Frame_c(ctypes.Structure):
    # gjkb_frame field for field: the library writes all of it
    _fields_ = [("pairs", Pairs_c), ("results", Results_c), ("hits", ctypes.c_uint32),
                ("seconds", ctypes.c_double * 4), ("warm", ctypes.c_uint32),
                ("last_feature", ctypes.POINTER(ctypes.c_uint32)), ("cache_seconds", ctypes.c_double),
                ("warm_x", ctypes.POINTER(ctypes.c_double)), ("warm_y", ctypes.POINTER(ctypes.c_double)),
                ("warm_z", ctypes.POINTER(ctypes.c_double))]


def _candidates():
    """Where libgjkbatch may be, first match wins."""
    env = os.environ.get("GJKBATCH_LIBRARY")
    if env:
        return [env]
    found = []
    try:
        # Written by CMake: the build tree's library, or the installed one
        # relative to this package (so an installed prefix can move).
        from . import _libpath
        path = _libpath.LIBRARY
        if not os.path.isabs(path):
            path = os.path.normpath(os.path.join(os.path.dirname(__file__), path))
        found.append(path)
    except ImportError:
        pass
    name = ctypes.util.find_library("gjkbatch")
    found.append(name or "libgjkbatch.so.0")
    return found


def _load():
    errors = []
    for path in _candidates():
        try:
            # CDLL (not PyDLL): every call releases the GIL while C runs.
            return ctypes.CDLL(path), path
        except OSError as e:
            errors.append("%s: %s" % (path, e))
    raise ImportError("gjkbatch: cannot load libgjkbatch (set GJKBATCH_LIBRARY to its path); tried "
                      + "; ".join(errors))


lib, library_path = _load()


def _decl(name, restype, *argtypes):
    f = getattr(lib, name)
    f.restype = restype
    f.argtypes = argtypes
    return f


_P = ctypes.POINTER
ctx_p = ctypes.c_void_p
create = _decl("gjkb_create", ctypes.c_int, _P(Config_c), _P(ctx_p))
destroy = _decl("gjkb_destroy", None, ctx_p)
context_backend = _decl("gjkb_context_backend", ctypes.c_int, ctx_p)
backend_name = _decl("gjkb_backend_name", ctypes.c_char_p, ctypes.c_int)
backend_parse = _decl("gjkb_backend_parse", ctypes.c_int, ctypes.c_char_p, _P(ctypes.c_int))
backend_available = _decl("gjkb_backend_available", ctypes.c_int, ctypes.c_int)
hull_add = _decl("gjkb_hull_add", ctypes.c_int, ctx_p, c_f32p, ctypes.c_uint32, _P(ctypes.c_uint32))
hull_count = _decl("gjkb_hull_count", ctypes.c_uint32, ctx_p)
hull_info_get = _decl("gjkb_hull_info_get", ctypes.c_int, ctx_p, ctypes.c_uint32, _P(HullInfo_c))
query_batch = _decl("gjkb_query_batch", ctypes.c_int, ctx_p, _P(Bodies_c), _P(Pairs_c),
                    _P(Query_c), _P(Results_c))
stats_get = _decl("gjkb_stats_get", ctypes.c_int, ctx_p, _P(Stats_c))
stats_reset = _decl("gjkb_stats_reset", None, ctx_p)
query_pair = _decl("gjkb_query_pair", ctypes.c_int, ctx_p, _P(Shape_c), _P(Shape_c),
                   _P(Query_c), _P(Result_c))
bounds = _decl("gjkb_bounds", ctypes.c_int, ctx_p, _P(Bodies_c), _P(Aabbs_c))
find_pairs = _decl("gjkb_find_pairs", ctypes.c_int, ctx_p, _P(Aabbs_c), _P(BroadphaseOptions_c),
                   _P(Pairs_c))
step = _decl("gjkb_step", ctypes.c_int, ctx_p, _P(Bodies_c), _P(BroadphaseOptions_c),
             _P(Query_c), _P(Frame_c))
set_threads = _decl("gjkb_set_threads", ctypes.c_int, ctx_p, ctypes.c_int)
get_threads = _decl("gjkb_get_threads", ctypes.c_int, ctx_p)
set_pair_cache = _decl("gjkb_set_pair_cache", ctypes.c_int, ctx_p, ctypes.c_int)
get_pair_cache = _decl("gjkb_get_pair_cache", ctypes.c_int, ctx_p)
pair_cache_reset = _decl("gjkb_pair_cache_reset", None, ctx_p)
last_error = _decl("gjkb_last_error", ctypes.c_char_p, ctx_p)
error_string = _decl("gjkb_error_string", ctypes.c_char_p, ctypes.c_int)
status_name = _decl("gjkb_status_name", ctypes.c_char_p, ctypes.c_int)
kind_name = _decl("gjkb_kind_name", ctypes.c_char_p, ctypes.c_int)
kind_parse = _decl("gjkb_kind_parse", ctypes.c_int, ctypes.c_char_p, _P(ctypes.c_int))

"""The Python face of gjkbatch: contexts, bodies, queries, results.

Arrays cross into C by address, never by copy, when they already have the
dtype and memory layout the C API reads (see Bodies); everything else is
converted once, where it is given.
"""

import atexit
import contextlib
import ctypes
import threading
import weakref
from collections import namedtuple

import numpy as np

from . import _lib

__all__ = [
    "Error", "ArgumentError", "Context", "Bodies", "Result", "Manifold", "Aabbs", "Frame",
    "PairResult", "Contact", "HullInfo", "STATUS", "KINDS", "BACKENDS", "MODES",
    "SEPARATED", "OVERLAP", "LIMIT", "INVALID", "MAX_CONTACTS", "BODY_STATIC",
    "kind_name", "status_name", "backends",
]

MAX_CONTACTS = _lib.MAX_CONTACTS
BODY_STATIC = _lib.BODY_STATIC
#: Per-pair status codes (gjkb_status).
SEPARATED, OVERLAP, LIMIT, INVALID = 0, 1, 2, 3
#: Status names by code: ``STATUS[result.status[i]]`` (gjkb_status_name).
STATUS = tuple(_lib.status_name(i).decode() for i in range(4))
#: Shape kind names by code (gjkb_kind_name): sphere, capsule, box, cylinder, cone, hull.
KINDS = tuple(_lib.kind_name(i).decode() for i in range(_lib.KIND_COUNT))
#: Backend names by gjkb_backend value, "auto" first.
BACKENDS = tuple(_lib.backend_name(i).decode() for i in range(_lib.BACKEND_COUNT))
#: Query modes by gjkb_mode value.
MODES = ("hit", "distance", "contact")
_MODE_CODE = {m: i for i, m in enumerate(MODES)}
_KIND_CODE = {k: i for i, k in enumerate(KINDS)}


def kind_name(kind):
    """The name of a shape kind code ("sphere", ..., "hull"; "?" out of range)."""
    k = int(kind)
    return _lib.kind_name(k if 0 <= k < 256 else 255).decode()


def status_name(status):
    """The name of a status code ("separated", "overlap", "limit", "invalid"; "?" otherwise)."""
    s = int(status)
    return _lib.status_name(s if 0 <= s < 256 else 255).decode()


def backends():
    """Names of the backends this build and CPU can run (besides "auto")."""
    return [BACKENDS[i] for i in range(1, _lib.BACKEND_COUNT) if _lib.backend_available(i)]


# Contexts still open at exit are destroyed before the interpreter tears
# down (a garbage collection during finalization may otherwise run a
# context's __del__ after the modules it needs are gone).
_open_contexts = weakref.WeakSet()


@atexit.register
def _close_open_contexts():
    for ctx in list(_open_contexts):
        try:
            ctx.close()
        except Exception:
            pass


class Error(Exception):
    """A failed library call. ``code`` is the gjkb_error value, ``str(e)`` the
    library's message (gjkb_last_error, else gjkb_error_string)."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


class ArgumentError(Error, ValueError):
    """A bad argument the library refused (a NULL array, an index or hull id
    out of range, an unknown kind or mode, any other bad argument). Also a
    ValueError, as the checks this package makes itself raise."""


_ARGUMENT_CODES = (_lib.ERR_NULL, _lib.ERR_RANGE, _lib.ERR_KIND, _lib.ERR_ARGUMENT)


def _raise(code, message):
    if not message:
        message = _lib.error_string(code).decode()
    if code == _lib.ERR_MEMORY:
        raise MemoryError(message)
    raise (ArgumentError if code in _ARGUMENT_CODES else Error)(code, message)


# ---- array conversion ------------------------------------------------------

def _asarray(value, name, dtype):
    try:
        return np.asarray(value, dtype=dtype)
    except (TypeError, ValueError, OverflowError) as e:
        raise ValueError("%s: cannot convert to %s array: %s" % (name, np.dtype(dtype).name, e)) from None


def _columns(value, name, n, width, dtype):
    """An (n, width) array of dtype whose columns are each contiguous (the
    SoA the C API reads). Returns (array, copied)."""
    arr = value if isinstance(value, np.ndarray) and value.dtype == dtype else _asarray(value, name, dtype)
    if arr.ndim != 2 or arr.shape[1] != width or (n is not None and arr.shape[0] != n):
        want = "(%s, %d)" % ("n" if n is None else n, width)
        raise ValueError("%s: expected shape %s, got %s" % (name, want, arr.shape))
    if arr.flags.f_contiguous:
        return arr, arr is not value
    return np.asfortranarray(arr), True


def _integers(value, name, n, dtype, limit, what):
    """A 1-D contiguous array of unsigned dtype with every value < limit.
    Floats must be whole numbers; NaN, negatives and values >= limit raise
    ValueError naming the argument. Returns (array, copied)."""
    if isinstance(value, np.ndarray) and value.dtype == dtype:
        arr = value
    else:
        arr = np.asarray(value)
        if arr.dtype.kind == "f":
            if arr.size and not np.all(np.isfinite(arr)):
                raise ValueError("%s: NaN or infinite value in an index array" % name)
            if arr.size and np.any(arr != np.floor(arr)):
                raise ValueError("%s: non-integer value in an index array" % name)
        elif arr.dtype.kind not in "iub":
            raise ValueError("%s: expected integers, got dtype %s" % (name, arr.dtype))
        if arr.size and arr.min() < 0:
            raise ValueError("%s: negative value %d" % (name, arr.min()))
        if limit is None:   # what the target dtype holds, so nothing wraps
            limit = int(np.iinfo(dtype).max) + 1
    if arr.ndim != 1 or (n is not None and arr.shape[0] != n):
        want = "(%s,)" % ("n" if n is None else n)
        raise ValueError("%s: expected shape %s, got %s" % (name, want, arr.shape))
    if limit is not None and arr.size:
        top = arr.max()
        if top >= limit:
            raise ValueError("%s: %s %d out of range (there are %d)" % (name, what, top, limit))
    if arr.dtype != dtype or not arr.flags.c_contiguous:
        return np.ascontiguousarray(arr, dtype=dtype), True
    return arr, arr is not value


_U32 = np.dtype(np.uint32)


def _index(value, name, m, n):
    """Body indices as uint32 for the library: a uint32 contiguous array as
    it is (the library checks its range), anything else converted and
    checked against n bodies here."""
    if value.__class__ is np.ndarray and value.dtype is _U32 and value.ndim == 1 and value.flags.c_contiguous:
        if m is not None and value.shape[0] != m:
            raise ValueError("%s: expected shape (%d,), got %s" % (name, m, value.shape))
        return value
    return _integers(value, name, m, np.uint32, n, "body index")[0]


def _vector(value, name, n, dtype):
    """A 1-D contiguous array of n dtype values; a scalar fills all n."""
    arr = value if isinstance(value, np.ndarray) and value.dtype == dtype else _asarray(value, name, dtype)
    if arr.ndim == 0:
        return np.full(n, arr, dtype=dtype), True
    if arr.shape != (n,):
        raise ValueError("%s: expected shape (%d,), got %s" % (name, n, arr.shape))
    if arr.flags.c_contiguous:
        return arr, arr is not value
    return np.ascontiguousarray(arr), True


def _addr(arr):
    return arr.__array_interface__["data"][0]


def _col(arr, k):
    """Address of column k of an F-ordered (n, w) array."""
    return _addr(arr) + k * arr.strides[1]


def _limit(value, name):
    """A number >= 0 where +inf means "no limit" (NaN refused)."""
    try:
        if float(value) == np.inf:
            return np.inf
    except (TypeError, ValueError):
        pass   # _finite words the error
    return _finite(value, name)


def _finite(value, name, lo=0.0):
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise ValueError("%s: expected a number, got %r" % (name, value)) from None
    if not np.isfinite(v) or v < lo:
        raise ValueError("%s: expected a finite number >= %g, got %r" % (name, lo, value))
    return v


class _Fixed:
    """Attributes set once: the library holds the addresses of these
    arrays, so rebinding one (and freeing the old array) must not happen.
    Write into the arrays instead."""

    __slots__ = ()

    def __setattr__(self, name, value):
        if hasattr(self, name):
            raise AttributeError("%s.%s cannot be rebound: the library reads its array by address "
                                 "(write into it instead, e.g. x.%s[...] = values)"
                                 % (type(self).__name__, name, name))
        object.__setattr__(self, name, value)

    def __delattr__(self, name):
        raise AttributeError("%s.%s cannot be deleted" % (type(self).__name__, name))


# ---- bodies ------------------------------------------------------------------

class Bodies(_Fixed):
    """Bodies as the C API reads them (gjkb_bodies), n of them.

    Arguments (anything ``numpy.asarray`` takes):
      kind    (n,) kind codes (uint8), a kind name for all ("box"), or a
              sequence of names; codes must be < 6.
      pos     (n, 3) float64 world positions.
      quat    (n, 4) float32 rotations, w, x, y, z (normalized by the
              library); None: identity.
      size    (n, 3) float32 sizes (meaning per kind: gjkbatch.h); None: zeros.
      margin  (n,) float32 rounding radii, a scalar for all, or None.
      hull    (n,) uint32 hull ids (Context.add_hull) for hull bodies, or None.

    No copy is made of an array that already has the C API's dtype and
    layout: kind, margin and hull 1-D C-contiguous; pos, quat and size with
    each column contiguous, that is an (n, k) array in Fortran order, such
    as ``np.asfortranarray(x)`` or the transpose of a C-ordered (k, n)
    array. Then the library reads the caller's memory, and writing into
    the array changes the next query. Anything else (another dtype, a
    row-major (n, 3) array, lists) is converted once, here; ``copied``
    names the arguments that were. The attributes (kind, pos, quat, size,
    margin, hull) are the arrays the library reads: writing into them
    (``bodies.pos[:] = ...``) moves the bodies without a new Bodies.

    Geometry is not checked here: as in C, a NaN, a negative size or a zero
    quaternion makes each pair using the body answer INVALID (``check()``
    raises instead).
    """

    __slots__ = ("count", "kind", "pos", "quat", "size", "margin", "hull", "copied", "_c", "__weakref__")

    def __init__(self, kind, pos, quat=None, size=None, margin=None, hull=None):
        copied = []
        if isinstance(pos, np.ndarray) and pos.dtype == np.float64 and pos.ndim == 2:
            n = pos.shape[0]
        else:
            n = _asarray(pos, "pos", np.float64).shape[0] if np.ndim(pos) >= 1 else -1
        if n < 0:
            raise ValueError("pos: expected shape (n, 3), got a scalar")
        if n > 0x7FFFFFFF:
            raise ValueError("pos: at most 2**31 - 1 bodies")
        self.count = n
        self.kind = self._kinds(kind, n, copied)
        self.pos, c = _columns(pos, "pos", n, 3, np.float64)
        if c:
            copied.append("pos")
        if quat is None:
            identity = np.zeros((n, 4), dtype=np.float32, order="F")
            identity[:, 0] = 1
            self.quat = identity
        else:
            self.quat, c = _columns(quat, "quat", n, 4, np.float32)
            if c:
                copied.append("quat")
        if size is None:
            self.size = np.zeros((n, 3), dtype=np.float32, order="F")
        else:
            self.size, c = _columns(size, "size", n, 3, np.float32)
            if c:
                copied.append("size")
        margin_arr = hull_arr = None
        if margin is not None:
            margin_arr, c = _vector(margin, "margin", n, np.float32)
            if c:
                copied.append("margin")
        if hull is not None:
            hull_arr, c = _integers(hull, "hull", n, np.uint32, None, "hull id")
            if c:
                copied.append("hull")
        self.margin, self.hull = margin_arr, hull_arr
        self.copied = tuple(copied)
        b = _lib.Bodies_c()
        b.count = n
        b.kind = _addr(self.kind)
        b.px, b.py, b.pz = (_col(self.pos, k) for k in range(3))
        b.qw, b.qx, b.qy, b.qz = (_col(self.quat, k) for k in range(4))
        b.sx, b.sy, b.sz = (_col(self.size, k) for k in range(3))
        b.margin = None if self.margin is None else _addr(self.margin)
        b.hull = None if self.hull is None else _addr(self.hull)
        self._c = b

    @staticmethod
    def _kinds(kind, n, copied):
        if isinstance(kind, np.ndarray) and kind.dtype.kind in "US":
            kind = kind.astype(str).tolist()   # an array of names: as a list of them
        if not isinstance(kind, np.ndarray):
            if isinstance(kind, str):
                kind = [kind] * n
            elif np.ndim(kind) == 0:
                kind = _integers([kind], "kind", 1, np.uint8, _lib.KIND_COUNT, "kind code")[0].repeat(n)
            if len(kind) and isinstance(kind[0], str):
                try:
                    kind = np.array([_KIND_CODE[k] for k in kind], dtype=np.uint8)
                except KeyError as e:
                    raise ValueError("kind: unknown kind name %s (%s)" % (e, ", ".join(KINDS))) from None
            copied.append("kind")
        arr, c = _integers(kind, "kind", n, np.uint8, _lib.KIND_COUNT, "kind code")
        if c and "kind" not in copied:
            copied.append("kind")
        return arr

    def __len__(self):
        return self.count

    def __repr__(self):
        return "<gjkbatch.Bodies n=%d copied=%s>" % (self.count, list(self.copied))

    def check(self):
        """Raises ValueError naming the argument and the first body whose
        geometry the library would answer INVALID for (non-finite values,
        negative sizes or margins, magnitudes above 1e15, a zero
        quaternion); returns self otherwise. (A pair can also be invalid
        for its two positions' offset above 1e15: a pair's property.)"""
        def first(bad, name, what):
            rows = np.flatnonzero(bad)
            if rows.size:
                raise ValueError("%s: body %d has %s" % (name, rows[0], what))

        def usable(x, lo):
            return np.isfinite(x) & (x >= lo) & (np.abs(x) <= _lib.MAX_COORD)
        first(~np.isfinite(self.pos).all(axis=1), "pos", "a NaN or infinite coordinate")
        first(~usable(self.quat, -np.inf).all(axis=1), "quat", "a NaN, infinite or too large component")
        first((self.quat.astype(np.float32) ** 2).sum(axis=1) < 1e-30, "quat", "a zero quaternion")
        first(~usable(self.size, 0).all(axis=1), "size", "a negative, non-finite or too large size")
        if self.margin is not None:
            first(~usable(self.margin, 0), "margin", "a negative, non-finite or too large margin")
        return self

    def _shape_c(self, i):
        """Body i as a gjkb_shape (for Context.query_pair)."""
        s = _lib.Shape_c()
        s.kind = int(self.kind[i])
        s.size[:] = self.size[i].tolist()
        s.margin = 0.0 if self.margin is None else float(self.margin[i])
        s.hull = 0 if self.hull is None else int(self.hull[i])
        s.pos[:] = self.pos[i].tolist()
        s.rot[:] = self.quat[i].tolist()
        return s


# ---- results -------------------------------------------------------------------

def _points(m, k=None):
    """(m, 3) or (m, k, 3) float64 whose x, y, z are each contiguous, and their addresses."""
    base = np.empty((3, m) if k is None else (3, m, k), dtype=np.float64)
    view = np.moveaxis(base, 0, -1)
    return view, [_addr(base[c]) for c in range(3)]


class Manifold(_Fixed):
    """Contact manifolds (gjkb_manifolds), MAX_CONTACTS slots per pair.

    count (m,) uint8 points per pair; a, b (m, 4, 3) float64 points on A
    and on B; separation (m, 4) float64; feature (m, 4) uint32 packed
    feature keys. Slots from count[i] on are NaN (feature 0).
    """

    __slots__ = ("count", "a", "b", "separation", "feature")

    def __init__(self, m, c):
        self.count = np.zeros(m, dtype=np.uint8)
        self.a, pa = _points(m, MAX_CONTACTS)
        self.b, pb = _points(m, MAX_CONTACTS)
        self.separation = np.empty((m, MAX_CONTACTS), dtype=np.float64)
        self.feature = np.zeros((m, MAX_CONTACTS), dtype=np.uint32)
        c.count = _addr(self.count)
        c.ax, c.ay, c.az = pa
        c.bx, c.by, c.bz = pb
        c.separation = _addr(self.separation)
        c.feature = _addr(self.feature)

    def __repr__(self):
        return "<gjkbatch.Manifold pairs=%d points=%d>" % (self.count.size, int(self.count.sum()))


class Result(_Fixed):
    """Answers of one query, one entry per pair (gjkb_results).

    status      (m,) uint8 gjkb_status codes (STATUS names them)
    distance    (m,) float64
    a, b        (m, 3) float64 witness points on A and B (None in hit mode)
    n           (m, 3) float64 unit axis from A to B (None in hit mode)
    iterations  (m,) uint32
    manifold    Manifold (contact mode), else None; ``contacts`` is the same

    The meaning of every value per mode is gjkbatch.h's. ``Result(m, mode)``
    allocates one for m pairs, to pass as ``out=`` to Context.query again
    and again (no allocation per call); a, b and n keep x, y and z each
    contiguous, as C writes them.
    """

    __slots__ = ("count", "mode", "status", "distance", "a", "b", "n", "iterations", "manifold", "_c",
                 "__weakref__")

    def __init__(self, count, mode="distance"):
        if mode not in _MODE_CODE:
            raise ValueError("mode: expected one of %s, got %r" % (", ".join(MODES), mode))
        m = int(count)
        if m < 0:
            raise ValueError("count: expected >= 0, got %d" % m)
        self.count, self.mode = m, mode
        c = _lib.Results_c()
        self.status = np.zeros(m, dtype=np.uint8)
        self.distance = np.empty(m, dtype=np.float64)
        self.iterations = np.zeros(m, dtype=np.uint32)
        c.status, c.distance, c.iterations = _addr(self.status), _addr(self.distance), _addr(self.iterations)
        pa = pb = pn = manifold = None
        if mode != "hit":
            pa, (c.ax, c.ay, c.az) = _points(m)
            pb, (c.bx, c.by, c.bz) = _points(m)
            pn, (c.nx, c.ny, c.nz) = _points(m)
        if mode == "contact":
            manifold = Manifold(m, c.manifold)
        self.a, self.b, self.n, self.manifold = pa, pb, pn, manifold
        self._c = c

    @property
    def contacts(self):
        """The manifold (contact mode), as ``manifold``."""
        return self.manifold

    def __len__(self):
        return self.count

    def __repr__(self):
        counts = np.bincount(self.status, minlength=4)[:4]
        return "<gjkbatch.Result %s pairs=%d %s>" % (
            self.mode, self.count, " ".join("%s=%d" % (STATUS[i], counts[i]) for i in range(4)))


Contact = namedtuple("Contact", "a b separation feature")
Contact.__doc__ = "One manifold point of a pair (gjkb_contact): points on A and B, separation, feature key."
PairResult = namedtuple("PairResult", "status distance a b n iterations contacts")
PairResult.__doc__ = ("One pair's answer from the reference (gjkb_result): status code, distance, "
                      "a, b, n as 3-tuples, iterations and a list of Contact (contact mode).")
HullInfo = namedtuple("HullInfo", "points vertices faces edges valid")
HullInfo.__doc__ = "What registration made of a hull (gjkb_hull_info): input points, vertices, faces, edges, valid."


class Aabbs(_Fixed):
    """Axis-aligned boxes of n bodies (gjkb_aabbs): min and max, (n, 3)
    float32 each with x, y, z contiguous, rounded outward."""

    __slots__ = ("count", "min", "max", "_c")

    def __init__(self, lo, hi=None):
        if hi is None:   # an empty set for n bodies, filled by Context.bounds
            n = int(lo)
            lo = np.empty((n, 3), dtype=np.float32, order="F")
            hi = np.empty((n, 3), dtype=np.float32, order="F")
        self.min, _ = _columns(lo, "min", None, 3, np.float32)
        self.max, _ = _columns(hi, "max", self.min.shape[0], 3, np.float32)
        self.count = self.min.shape[0]
        c = _lib.Aabbs_c()
        c.count = self.count
        c.min_x, c.min_y, c.min_z = (_col(self.min, k) for k in range(3))
        c.max_x, c.max_y, c.max_z = (_col(self.max, k) for k in range(3))
        self._c = c

    def __len__(self):
        return self.count


class Frame:
    """One gjkb_step: candidate pairs ``a``, ``b`` (uint32), their ``result``
    (a Result: in hit mode a, b and n are None), ``hits`` (pairs that
    overlap), ``warm`` (pairs the pair cache warm-started) and ``seconds``
    (dict: bounds, sort, sweep, narrowphase, cache). The arrays are copies:
    the context's own are reused by its next call."""

    __slots__ = ("a", "b", "result", "hits", "warm", "seconds")

    def __repr__(self):
        return "<gjkbatch.Frame pairs=%d hits=%d>" % (self.a.size, self.hits)


def _view(addr, shape, dtype):
    """A numpy view of memory the context owns (copy it before the
    context's next call reuses it)."""
    count = int(np.prod(shape))
    if not addr or count == 0:
        return np.zeros(shape, dtype=dtype)
    buf = (np.ctypeslib.as_ctypes_type(np.dtype(dtype)) * count).from_address(addr)
    return np.ctypeslib.as_array(buf).reshape(shape)


# ---- context -----------------------------------------------------------------------

class Context:
    """A gjkbatch context: the backend, the hull registry, scratch and threads.

    ``Context(backend="auto", threads=1, reserve_pairs=0)``: backend is a
    name of BACKENDS ("auto": the GJKB_BACKEND environment variable, else
    the widest this CPU runs); threads is how many threads the wide
    backends use per call (OpenMP). A context serves one call at a time:
    a call from a second Python thread while one runs raises RuntimeError
    (use one context per thread). The library's calls release the GIL.
    """

    def __init__(self, backend="auto", threads=1, reserve_pairs=0):
        code = ctypes.c_int()
        if not isinstance(backend, str) or _lib.backend_parse(backend.encode(), code) != _lib.OK:
            raise ValueError("backend: unknown backend %r (%s)" % (backend, ", ".join(BACKENDS)))
        cfg = _lib.Config_c(code.value, int(reserve_pairs))
        ptr = _lib.ctx_p()
        self._ptr = None
        err = _lib.create(cfg, ptr)
        if err != _lib.OK:
            _raise(err, "backend '%s': %s" % (backend, _lib.error_string(err).decode()))
        self._ptr = ptr.value
        _open_contexts.add(self)
        self._lock = threading.Lock()
        # Reused per call (the lock makes that safe): fewer objects per query.
        self._pairs = _lib.Pairs_c()
        self._query = _lib.Query_c()
        self._query_key = None
        self._keep = None
        self.threads = threads

    def close(self):
        """Destroys the context now (also done when it is garbage collected)."""
        lock = getattr(self, "_lock", None)
        if lock is None:   # __init__ failed before the context existed
            return
        with lock:         # never under a call another thread is making
            ptr, self._ptr = self._ptr, None
            if ptr:
                _lib.destroy(ptr)

    def __del__(self):
        try:
            self.close()
        except Exception:   # at interpreter exit the library may be gone already
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _enter(self):
        if not self._ptr:
            raise ValueError("context is closed")
        if not self._lock.acquire(blocking=False):
            raise RuntimeError("gjkbatch.Context is in use by another thread (use one context per thread)")

    def _live(self):
        """The context's pointer, for calls that only read it."""
        if not self._ptr:
            raise ValueError("context is closed")
        return self._ptr

    @contextlib.contextmanager
    def _held(self):
        """The pointer, held against other threads' calls (for calls that
        change the context, outside the hot paths)."""
        self._enter()
        try:
            yield self._ptr
        finally:
            self._lock.release()

    def _check(self, err):
        if err != _lib.OK:
            _raise(err, _lib.last_error(self._ptr).decode())

    @property
    def backend(self):
        """The name of the backend the context runs ("avx2", "reference", ...)."""
        return BACKENDS[_lib.context_backend(self._live())]

    @property
    def threads(self):
        """Threads the wide backends use per call (gjkb_set_threads); settable."""
        return _lib.get_threads(self._live())

    @threads.setter
    def threads(self, n):
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or not 0 <= n <= 1024:
            raise ValueError("threads: expected an integer 0..1024, got %r" % (n,))
        with self._held() as ptr:
            self._check(_lib.set_threads(ptr, int(n)))

    # -- hulls
    def add_hull(self, points):
        """Registers a convex hull given by its points ((k, 3) float32, x, y,
        z per row; converted when not C-ordered float32) and returns its id.
        Non-finite points or k == 0 register a hull whose pairs answer
        INVALID, as in C."""
        pts = _asarray(points, "points", np.float32)
        if pts.size == 0:
            pts = pts.reshape(0, 3)
        if pts.ndim != 2 or pts.shape[1] != 3:
            raise ValueError("points: expected shape (k, 3), got %s" % (pts.shape,))
        pts = np.ascontiguousarray(pts)
        hid = ctypes.c_uint32()
        self._enter()
        try:
            self._check(_lib.hull_add(self._ptr, _addr(pts) if pts.size else None, pts.shape[0], hid))
        finally:
            self._lock.release()
        return hid.value

    @property
    def hull_count(self):
        """Hulls registered so far (ids 0 .. hull_count - 1)."""
        return _lib.hull_count(self._live())

    def hull_info(self, hull_id):
        """What registration made of hull ``hull_id`` (a HullInfo)."""
        info = _lib.HullInfo_c()
        if not 0 <= int(hull_id) < 2 ** 32:
            raise ValueError("hull_id: out of range: %r" % (hull_id,))
        self._check(_lib.hull_info_get(self._live(), int(hull_id), info))
        return HullInfo(info.points, info.vertices, info.faces, info.edges, bool(info.valid))

    # -- stats
    def stats(self):
        """Work counters summed over the batch calls (gjkb_stats) as a dict,
        with ``utilization`` = lane_steps / (bundle_steps * width)."""
        st = _lib.Stats_c()
        self._check(_lib.stats_get(self._live(), st))
        d = {f: getattr(st, f) for f, _ in _lib.Stats_c._fields_}
        d["utilization"] = st.lane_steps / (st.bundle_steps * st.width) if st.bundle_steps and st.width else 0.0
        return d

    def reset_stats(self):
        """Zeroes the work counters."""
        with self._held() as ptr:
            _lib.stats_reset(ptr)

    # -- queries
    def _fill_query(self, mode, max_distance, tolerance, max_iterations):
        q = self._query
        q.warm_x = q.warm_y = q.warm_z = None
        key = (mode, max_distance.__class__, max_distance, tolerance.__class__, tolerance,
               max_iterations.__class__, max_iterations)
        if key == self._query_key:   # the same parameters as the last call: already checked and set
            return q
        self._query_key = None
        code = _MODE_CODE.get(mode)
        if code is None:
            raise ValueError("mode: expected one of %s, got %r" % (", ".join(MODES), mode))
        q.mode = code
        if isinstance(max_iterations, bool) or not isinstance(max_iterations, (int, np.integer)) \
                or not 0 <= max_iterations < 2 ** 32:
            raise ValueError("max_iterations: expected an integer 0..2**32-1, got %r" % (max_iterations,))
        q.max_iterations = int(max_iterations)
        q.tolerance = tolerance if tolerance.__class__ is float and 0 <= tolerance < np.inf \
            else _finite(tolerance, "tolerance")
        q.max_distance = max_distance if max_distance.__class__ is float and 0 <= max_distance <= np.inf \
            else _limit(max_distance, "max_distance")
        self._query_key = key
        return q

    def query(self, bodies, a, b, mode="distance", max_distance=0.0, tolerance=0.0, max_iterations=0,
              warm=None, out=None):
        """Runs one query on every pair (a[i], b[i]) of ``bodies`` (one
        gjkb_query_batch call) and returns a Result.

        a, b            (m,) body indices (uint32 used in place; other
                        integer arrays converted; out of range: ValueError)
        mode            "hit", "distance" or "contact"
        max_distance    distance/contact: pairs proven farther may stop early
                        (0: no limit); contact: speculative points within it
                        (inf: for every separated pair; 0: none)
        tolerance       relative touching tolerance (0: 1e-6)
        max_iterations  per pair (0: the library's default)
        warm            (m, 3) float64 warm-start axes, e.g. last call's n
        out             a Result(m, mode or richer) to fill instead of a new one
        """
        if bodies.__class__ is not Bodies and not isinstance(bodies, Bodies):
            raise ValueError("bodies: expected a gjkbatch.Bodies, got %s" % type(bodies).__name__)
        n = bodies.count
        a = _index(a, "a", None, n)
        m = a.shape[0]
        b = _index(b, "b", m, n)
        w = None if warm is None else _columns(warm, "warm", m, 3, np.float64)[0]
        # The context's gjkb_query and gjkb_pairs are shared by its calls:
        # filled only while holding it, as another thread may be in a call.
        self._enter()
        try:
            q = self._fill_query(mode, max_distance, tolerance, max_iterations)
            if out is None:
                out = Result(m, mode)
            elif out.__class__ is not Result or out.count != m or _MODE_CODE[out.mode] < q.mode:
                raise ValueError("out: expected a Result for %d pairs made for mode %r (or richer), got %r"
                                 % (m, mode, out))
            if w is not None:
                q.warm_x, q.warm_y, q.warm_z = _col(w, 0), _col(w, 1), _col(w, 2)
            p = self._pairs
            p.count = m
            p.a = a.ctypes.data
            p.b = b.ctypes.data
            err = _lib.query_batch(self._ptr, bodies._c, p, q, out._c)
            message = _lib.last_error(self._ptr).decode() if err else ""
        finally:
            self._lock.release()
        if err:
            if err == _lib.ERR_RANGE:
                # uint32 indices are range-checked by the library only
                # (fused into its own pass): name the argument here.
                for name, idx in (("a", a), ("b", b)):
                    if m and idx.max() >= n:
                        raise ArgumentError(err, "%s: body index %d out of range (there are %d) [%s]" % (
                            name, idx.max(), n, message))
            _raise(err, message)
        return out

    def query_pair(self, bodies, i, j, mode="distance", max_distance=0.0, tolerance=0.0, max_iterations=0):
        """Body i against body j through the double-precision reference
        (gjkb_query_pair), whatever the context's backend. Returns a
        PairResult."""
        if not isinstance(bodies, Bodies):
            raise ValueError("bodies: expected a gjkbatch.Bodies, got %s" % type(bodies).__name__)
        for name, k in (("i", i), ("j", j)):
            if not 0 <= int(k) < bodies.count:
                raise ValueError("%s: body index %d out of range (there are %d)" % (name, k, bodies.count))
        r = _lib.Result_c()
        sa, sb = bodies._shape_c(int(i)), bodies._shape_c(int(j))
        self._enter()
        try:
            q = self._fill_query(mode, max_distance, tolerance, max_iterations)
            self._check(_lib.query_pair(self._ptr, sa, sb, q, r))
        finally:
            self._lock.release()
        contacts = [Contact(tuple(c.a), tuple(c.b), c.separation, c.feature)
                    for c in r.contacts[:r.contact_count]]
        return PairResult(r.status, r.distance, tuple(r.a), tuple(r.b), tuple(r.n), r.iterations, contacts)

    # -- broadphase and frames
    @staticmethod
    def _options(flags, n, pair_filter):
        """The broadphase options, and what must outlive the call: the
        flags array and the filter's C callback (with the first exception
        the filter raised, to raise after the call)."""
        opt = _lib.BroadphaseOptions_c()
        keep = [None, None, []]
        if flags is not None:
            keep[0], _ = _integers(flags, "flags", n, np.uint8, 256, "flag")
            opt.flags = _addr(keep[0])
        if pair_filter is not None:
            if not callable(pair_filter):
                raise ValueError("filter: expected a callable filter(a, b) -> bool, got %r" % (pair_filter,))
            raised = keep[2]

            def call(user, a, b):
                if raised:       # stop asking once it failed: drop the rest
                    return 0
                try:
                    return 1 if pair_filter(a, b) else 0
                except BaseException as e:   # cannot cross C frames: kept and raised after the call
                    raised.append(e)
                    return 0
            keep[1] = _lib.PairFilter_c(call)
            opt.filter = keep[1]
        return opt, keep

    @staticmethod
    def _reraise(keep):
        if keep[2]:
            raise keep[2][0]

    def bounds(self, bodies, out=None):
        """Every body's world box, margins included (gjkb_bounds): an Aabbs."""
        if not isinstance(bodies, Bodies):
            raise ValueError("bodies: expected a gjkbatch.Bodies, got %s" % type(bodies).__name__)
        if out is None:
            out = Aabbs(bodies.count)
        elif not isinstance(out, Aabbs) or out.count != bodies.count:
            raise ValueError("out: expected an Aabbs for %d bodies" % bodies.count)
        self._enter()
        try:
            self._check(_lib.bounds(self._ptr, bodies._c, out._c))
        finally:
            self._lock.release()
        return out

    def find_pairs(self, boxes, flags=None, filter=None):
        """Candidate pairs whose boxes overlap (gjkb_find_pairs), as two
        uint32 arrays (a, b) with a < b, in the sweep's order. boxes is an
        Aabbs, or Bodies (their bounds are computed first); flags (n,)
        uint8 per body (BODY_STATIC: two static bodies never pair);
        filter(a, b) -> bool, called in output order for each pair the
        flags keep, drops the pair when false (an exception it raises is
        raised once the call is over)."""
        if isinstance(boxes, Bodies):
            boxes = self.bounds(boxes)
        if not isinstance(boxes, Aabbs):
            raise ValueError("boxes: expected a gjkbatch.Aabbs or Bodies, got %s" % type(boxes).__name__)
        opt, keep = self._options(flags, boxes.count, filter)
        pairs = _lib.Pairs_c()
        self._enter()
        try:
            err = _lib.find_pairs(self._ptr, boxes._c, opt, pairs)
            self._reraise(keep)
            self._check(err)
            m = pairs.count
            return _view(pairs.a, m, np.uint32).copy(), _view(pairs.b, m, np.uint32).copy()
        finally:
            self._lock.release()

    @property
    def pair_cache(self):
        """Whether step keeps each pair's last axis to warm-start it next
        frame (gjkb_set_pair_cache; off for a new context)."""
        return bool(_lib.get_pair_cache(self._live()))

    @pair_cache.setter
    def pair_cache(self, on):
        self._enter()
        try:
            self._check(_lib.set_pair_cache(self._ptr, 1 if on else 0))
        finally:
            self._lock.release()

    def reset_pair_cache(self):
        """Forgets every cached pair (a new scene, teleported bodies)."""
        self._enter()
        try:
            _lib.pair_cache_reset(self._ptr)
        finally:
            self._lock.release()

    def step(self, bodies, mode="hit", flags=None, max_distance=0.0, tolerance=0.0, max_iterations=0,
             filter=None):
        """One frame (gjkb_step): bounds, sweep-and-prune (flags and filter
        as for find_pairs) and the query on every candidate pair. Returns a
        Frame (copies of the context's arrays)."""
        if not isinstance(bodies, Bodies):
            raise ValueError("bodies: expected a gjkbatch.Bodies, got %s" % type(bodies).__name__)
        opt, keep = self._options(flags, bodies.count, filter)
        fr = _lib.Frame_c()
        self._enter()
        try:
            q = self._fill_query(mode, max_distance, tolerance, max_iterations)
            err = _lib.step(self._ptr, bodies._c, opt, q, fr)
            self._reraise(keep)
            self._check(err)
            m = fr.pairs.count
            out = Frame()
            out.a = _view(fr.pairs.a, m, np.uint32).copy()
            out.b = _view(fr.pairs.b, m, np.uint32).copy()
            res = Result(m, mode)
            rc = fr.results
            res.status[:] = _view(rc.status, m, np.uint8)
            res.distance[:] = _view(rc.distance, m, np.float64)
            res.iterations[:] = _view(rc.iterations, m, np.uint32)
            if mode != "hit":
                for name in "abn":
                    for k, axis in enumerate("xyz"):
                        getattr(res, name)[:, k] = _view(getattr(rc, name + axis), m, np.float64)
            if mode == "contact":
                mc, mf = rc.manifold, res.manifold
                slots = (m, MAX_CONTACTS)
                mf.count[:] = _view(mc.count, m, np.uint8)
                mf.separation[:] = _view(mc.separation, slots, np.float64)
                mf.feature[:] = _view(mc.feature, slots, np.uint32)
                for name in "ab":
                    for k, axis in enumerate("xyz"):
                        getattr(mf, name)[:, :, k] = _view(getattr(mc, name + axis), slots, np.float64)
            out.result = res
            out.hits = fr.hits
            out.warm = fr.warm
            out.seconds = dict(zip(("bounds", "sort", "sweep", "narrowphase"), fr.seconds))
            out.seconds["cache"] = fr.cache_seconds
            return out
        finally:
            self._lock.release()

    def __repr__(self):
        return "<gjkbatch.Context backend=%s threads=%d hulls=%d>" % (
            self.backend, self.threads, self.hull_count) if self._ptr else "<gjkbatch.Context closed>"


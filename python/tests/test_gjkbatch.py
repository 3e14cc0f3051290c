"""pytest suite of the gjkbatch Python package (issue 17). Runs in seconds:
a few hundred random pairs per check, every mode, against the reference."""

import ctypes
import os
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import gjkbatch
from gjkbatch import _lib

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def random_quats(rng, n):
    q = rng.normal(size=(n, 4))
    return (q / np.linalg.norm(q, axis=1, keepdims=True)).astype(np.float32)


def bound_radius(kind, size, margin, hull_radius):
    """The C library's scale per body: bounding radius, margin included."""
    x, z = size[:, 0].astype(np.float64), size[:, 2].astype(np.float64)
    r = np.select([kind == 0, kind == 1, kind == 2, kind == 5],
                  [x, x + z, np.linalg.norm(size.astype(np.float64), axis=1), hull_radius],
                  np.hypot(x, z))
    return r + margin


def mixed_world(rng, ctx, pairs=300, gap=1.0):
    """2 * pairs bodies of every kind, pair i = (2i, 2i+1) placed within
    gap * (their radii) of each other, so about half touch."""
    hulls = [rng.normal(size=(16, 3)) * rng.uniform(0.3, 1.0, size=3) for _ in range(4)]
    hull_ids = [ctx.add_hull(h) for h in hulls]
    hull_r = np.array([np.linalg.norm(h, axis=1).max() for h in hulls])
    n = 2 * pairs
    kind = rng.integers(0, 6, size=n).astype(np.uint8)
    size = rng.uniform(0.25, 1.0, size=(n, 3)).astype(np.float32)
    margin = np.where(rng.random(n) < 0.3, rng.uniform(0, 0.2, n), 0).astype(np.float32)
    hull = np.array([hull_ids[i] for i in rng.integers(0, len(hull_ids), size=n)], dtype=np.uint32)
    radius = bound_radius(kind, size, margin, hull_r[hull - hull_ids[0]])
    pos = np.empty((n, 3))
    pos[0::2] = rng.uniform(-10, 10, size=(pairs, 3))
    direction = rng.normal(size=(pairs, 3))
    direction /= np.linalg.norm(direction, axis=1, keepdims=True)
    t = rng.uniform(0, gap, size=(pairs, 1))
    pos[1::2] = pos[0::2] + direction * t * (radius[0::2] + radius[1::2])[:, None]
    bodies = gjkbatch.Bodies(kind, pos, random_quats(rng, n), size, margin, hull)
    a = np.arange(0, n, 2, dtype=np.uint32)
    b = a + 1
    return bodies, a, b, radius[0::2] + radius[1::2]


@pytest.fixture
def rng():
    return np.random.default_rng(17)


# ---- names ------------------------------------------------------------------

def test_names_match_the_library():
    assert gjkbatch.STATUS == ("separated", "overlap", "limit", "invalid")
    assert [gjkbatch.kind_name(i) for i in range(6)] == ["sphere", "capsule", "box", "cylinder", "cone", "hull"]
    assert gjkbatch.kind_name(6) == "?" and gjkbatch.status_name(9) == "?"
    assert gjkbatch.STATUS[gjkbatch.OVERLAP] == "overlap"
    assert "reference" in gjkbatch.backends() and "auto" not in gjkbatch.backends()


def test_readme_example():
    ctx = gjkbatch.Context()
    bodies = gjkbatch.Bodies(kind=["sphere", "box"], pos=[[0, 0, 0], [3, 0, 0]],
                             size=[[1, 0, 0], [0.5, 0.5, 0.5]])
    res = ctx.query(bodies, a=[0], b=[1], mode="distance")
    assert gjkbatch.STATUS[res.status[0]] == "separated"
    assert res.distance[0] == pytest.approx(1.5, abs=1e-5)
    assert np.allclose(res.n[0], [1, 0, 0], atol=1e-5)
    assert np.allclose(res.a[0], [1, 0, 0], atol=1e-5) and np.allclose(res.b[0], [2.5, 0, 0], atol=1e-5)


# ---- every mode against gjkb_query_pair ------------------------------------------

def assert_agrees(res, ctx, bodies, a, b, scale, mode, max_distance=0.0, exact=False):
    """Each pair of the batch against the reference's answer for it alone."""
    band = 1e-4 * scale
    compared = mismatched_counts = 0
    for i in range(len(a)):
        ref = ctx.query_pair(bodies, a[i], b[i], mode=mode, max_distance=max_distance)
        if exact:
            assert res.status[i] == ref.status
            assert res.iterations[i] == ref.iterations
            np.testing.assert_equal(res.distance[i], ref.distance)
            if mode != "hit":
                np.testing.assert_equal(res.n[i], ref.n)
                np.testing.assert_equal(res.a[i], ref.a)
            if mode == "contact":
                assert res.manifold.count[i] == len(ref.contacts)
                for k, c in enumerate(ref.contacts):
                    np.testing.assert_equal(res.manifold.a[i, k], c.a)
                    np.testing.assert_equal(res.manifold.b[i, k], c.b)
                    assert res.manifold.separation[i, k] == c.separation
                    assert res.manifold.feature[i, k] == c.feature
            continue
        near = abs(ref.distance) <= band[i] if np.isfinite(ref.distance) else False
        if not near:
            assert res.status[i] == ref.status, (i, res.status[i], ref)
        if ref.status == gjkbatch.SEPARATED and res.status[i] == gjkbatch.SEPARATED and mode != "hit":
            if max_distance and ref.distance > max_distance:
                assert res.distance[i] > max_distance
            else:
                assert abs(res.distance[i] - ref.distance) <= band[i], (i, res.distance[i], ref.distance)
                # b - a = distance * n always. The axis: a distance within
                # e of the truth allows an axis off by up to about
                # sqrt(2 e / d) at gap d (the gap is flat in the angle near
                # the optimum), so the angle is held to that.
                np.testing.assert_allclose(res.b[i] - res.a[i], res.distance[i] * res.n[i], atol=band[i])
                angle = np.arccos(np.clip(np.dot(res.n[i], ref.n), -1, 1))
                assert angle <= np.sqrt(2 * band[i] / max(ref.distance, 1e-300)) + 1e-6, (i, angle, ref)
            compared += 1
        if mode == "contact" and ref.status == gjkbatch.OVERLAP and res.status[i] == gjkbatch.OVERLAP:
            assert abs(res.distance[i] - ref.distance) <= 1e-3 * scale[i], (i, res.distance[i], ref.distance)
            assert res.manifold.count[i] >= 1
            assert res.manifold.separation[i, 0] == res.distance[i]
            mismatched_counts += res.manifold.count[i] != len(ref.contacts)
            compared += 1
    return compared, mismatched_counts


@pytest.mark.parametrize("backend", ["auto", "scalar"])
@pytest.mark.parametrize("mode", ["hit", "distance", "contact"])
def test_modes_against_query_pair(rng, mode, backend):
    ctx = gjkbatch.Context(backend=backend)
    bodies, a, b, scale = mixed_world(rng, ctx, pairs=300)
    res = ctx.query(bodies, a, b, mode=mode)
    hits = int((res.status == gjkbatch.OVERLAP).sum())
    assert 0.2 * len(a) < hits < 0.8 * len(a)   # a meaningful mix of both verdicts
    assert not (res.status == gjkbatch.INVALID).any()
    compared, bad_counts = assert_agrees(res, ctx, bodies, a, b, scale, mode)
    if mode != "hit":
        assert compared > 0.25 * len(a)
    assert bad_counts <= 0.02 * len(a)   # manifold sizes may differ where a face is nearly level


@pytest.mark.parametrize("mode", ["hit", "distance", "contact"])
def test_reference_backend_gives_query_pair_bits(rng, mode):
    ctx = gjkbatch.Context(backend="reference")
    assert ctx.backend == "reference"
    bodies, a, b, scale = mixed_world(rng, ctx, pairs=120)
    res = ctx.query(bodies, a, b, mode=mode, max_distance=0.5 if mode == "contact" else 0.0)
    assert_agrees(res, ctx, bodies, a, b, scale, mode, max_distance=0.5 if mode == "contact" else 0.0,
                  exact=True)


def test_max_distance_and_speculative_contacts(rng):
    ctx = gjkbatch.Context()
    bodies, a, b, scale = mixed_world(rng, ctx, pairs=200, gap=1.5)
    far = ctx.query(bodies, a, b, mode="distance", max_distance=0.2)
    assert_agrees(far, ctx, bodies, a, b, scale, "distance", max_distance=0.2)
    con = ctx.query(bodies, a, b, mode="contact", max_distance=0.2)
    sep = con.status == gjkbatch.SEPARATED
    within = sep & (con.distance <= 0.2)
    assert within.any()
    assert (con.manifold.count[within] >= 1).all()
    assert (con.manifold.separation[within, 0] > 0).all()
    assert (con.manifold.count[sep & (con.distance > 0.2 * 1.001)] == 0).all()
    every = ctx.query(bodies, a, b, mode="contact", max_distance=float("inf"))
    sep = every.status == gjkbatch.SEPARATED
    assert sep.any() and (every.manifold.count[sep] >= 1).all()
    with pytest.raises(ValueError, match="max_distance"):
        ctx.query(bodies, a, b, mode="contact", max_distance=float("nan"))


def test_warm_start_gives_the_same_answers(rng):
    ctx = gjkbatch.Context()
    bodies, a, b, scale = mixed_world(rng, ctx, pairs=200)
    cold = ctx.query(bodies, a, b, mode="distance")
    warm = ctx.query(bodies, a, b, mode="distance", warm=cold.n)
    ok = cold.status == gjkbatch.SEPARATED
    assert (warm.status[ok] == gjkbatch.SEPARATED).all()
    assert np.all(np.abs(warm.distance[ok] - cold.distance[ok]) <= 1e-4 * scale[ok])
    assert warm.iterations[ok].sum() <= cold.iterations[ok].sum()


# ---- conversions and zero copy ----------------------------------------------------

def soa_inputs(rng, n):
    kind = np.full(n, 2, dtype=np.uint8)
    pos = np.asfortranarray(rng.uniform(-2, 2, size=(n, 3)))
    quat = np.asfortranarray(random_quats(rng, n))
    size = np.asfortranarray(rng.uniform(0.2, 0.6, size=(n, 3)).astype(np.float32))
    return kind, pos, quat, size


def test_right_arrays_are_not_copied(rng):
    kind, pos, quat, size = soa_inputs(rng, 50)
    margin = np.zeros(50, dtype=np.float32)
    hull = np.zeros(50, dtype=np.uint32)
    bodies = gjkbatch.Bodies(kind, pos, quat, size, margin, hull)
    assert bodies.copied == ()
    assert bodies.pos is pos and bodies.quat is quat and bodies.size is size and bodies.kind is kind
    # The library's pointers are the caller's buffers, column by column.
    base = pos.__array_interface__["data"][0]
    assert (bodies._c.px, bodies._c.py, bodies._c.pz) == (base, base + 50 * 8, base + 100 * 8)
    assert bodies._c.qw == quat.__array_interface__["data"][0]
    assert bodies._c.margin == margin.__array_interface__["data"][0]
    # The transpose of a C-ordered (3, n) array is as good.
    rows = np.ascontiguousarray(pos.T)
    assert gjkbatch.Bodies(kind, rows.T, quat, size).copied == ()


def test_mutating_the_callers_array_changes_the_next_query():
    pos = np.asfortranarray([[0.0, 0, 0], [3, 0, 0]])
    size = np.asfortranarray(np.full((2, 3), 0.5, dtype=np.float32))
    bodies = gjkbatch.Bodies(np.array([2, 2], dtype=np.uint8), pos, size=size)
    ctx = gjkbatch.Context()
    a, b = np.array([0], dtype=np.uint32), np.array([1], dtype=np.uint32)
    out = gjkbatch.Result(1, "distance")
    first = ctx.query(bodies, a, b, out=out)
    assert first is out and out.distance[0] == pytest.approx(2.0, abs=1e-5)
    addresses = [x.__array_interface__["data"][0] for x in (out.status, out.distance, out.n)]
    pos[1, 0] = 1.5          # the caller's array, no new Bodies
    ctx.query(bodies, a, b, out=out)
    assert out.distance[0] == pytest.approx(0.5, abs=1e-5)
    bodies.size[0, :] = 1.0  # the Bodies' array is the caller's too
    ctx.query(bodies, a, b, out=out)
    assert out.status[0] == gjkbatch.OVERLAP
    assert addresses == [x.__array_interface__["data"][0] for x in (out.status, out.distance, out.n)]


def test_arrays_the_library_reads_cannot_be_rebound(rng):
    kind, pos, quat, size = soa_inputs(rng, 4)
    bodies = gjkbatch.Bodies(kind, pos, quat, size)
    res = gjkbatch.Result(2, "contact")
    for obj, name in ((bodies, "pos"), (bodies, "margin"), (res, "status"), (res, "manifold"),
                      (res.manifold, "a")):
        with pytest.raises(AttributeError, match="cannot be rebound"):
            setattr(obj, name, np.zeros(3))
    with pytest.raises(AttributeError):
        del res.distance
    # Writing into them is the way.
    res.distance[:] = 7
    assert (res.distance == 7).all()
    # A value the target dtype cannot hold is refused, not wrapped.
    with pytest.raises(ValueError, match="^hull:"):
        gjkbatch.Bodies(kind, pos, quat, size, hull=np.full(4, 2 ** 32 + 1))


def test_conversions_give_the_same_answers(rng):
    kind, pos, quat, size = soa_inputs(rng, 60)
    a = rng.integers(0, 60, size=100)
    b = rng.integers(0, 60, size=100)
    ctx = gjkbatch.Context()
    ref = ctx.query(gjkbatch.Bodies(kind, pos, quat, size), a.astype(np.uint32), b.astype(np.uint32))
    variants = [
        (gjkbatch.Bodies("box", np.ascontiguousarray(pos), quat.astype(np.float64), size.tolist()),
         ("kind", "pos", "quat", "size")),
        (gjkbatch.Bodies(kind.astype(np.int64), pos, np.ascontiguousarray(quat), size), ("kind", "quat")),
        (gjkbatch.Bodies(["box"] * 60, pos.tolist(), quat, size, margin=0.0), ("kind", "pos", "margin")),
    ]
    for bodies, copied in variants:
        assert sorted(bodies.copied) == sorted(copied)
        assert bodies.pos.flags.f_contiguous and bodies.quat.dtype == np.float32
        for ia, ib in ((a, b), (a.tolist(), b.tolist()), (a.astype(np.float64), b.astype(np.int16))):
            res = ctx.query(bodies, ia, ib)
            np.testing.assert_array_equal(res.status, ref.status)
            np.testing.assert_array_equal(res.distance, ref.distance)
    # Strided (non-contiguous) index views are converted, not misread.
    idx = np.arange(200, dtype=np.uint32)[::2] % 60
    res = ctx.query(variants[0][0], idx, idx[::-1].copy())
    np.testing.assert_array_equal(res.status, ctx.query(variants[0][0], idx.copy(), idx[::-1].copy()).status)


def test_empty_calls_are_valid():
    ctx = gjkbatch.Context()
    bodies = gjkbatch.Bodies(np.array(["box", "sphere"]), np.zeros((2, 3)), size=np.ones((2, 3)))
    assert list(bodies.kind) == [2, 0]
    for mode in gjkbatch.MODES:
        res = ctx.query(bodies, [], [], mode=mode)
        assert res.count == 0 and res.status.shape == (0,)
    none = gjkbatch.Bodies("box", np.zeros((0, 3)))
    assert ctx.find_pairs(none)[0].size == 0 and ctx.step(none).a.size == 0


# ---- errors --------------------------------------------------------------------

def test_bad_arrays_raise_value_errors_naming_the_argument(rng):
    kind, pos, quat, size = soa_inputs(rng, 10)
    ctx = gjkbatch.Context()
    bodies = gjkbatch.Bodies(kind, pos, quat, size)
    cases = [
        (lambda: gjkbatch.Bodies(kind, pos[:, :2], quat, size), "pos"),
        (lambda: gjkbatch.Bodies(kind, pos, quat[:5], size), "quat"),
        (lambda: gjkbatch.Bodies(kind, pos, quat, size[:, 0]), "size"),
        (lambda: gjkbatch.Bodies(kind[:3], pos, quat, size), "kind"),
        (lambda: gjkbatch.Bodies("blob", pos, quat, size), "kind"),
        (lambda: gjkbatch.Bodies(np.full(10, 9), pos, quat, size), "kind"),
        (lambda: gjkbatch.Bodies(kind, pos, quat, size, margin=np.zeros(3)), "margin"),
        (lambda: gjkbatch.Bodies(kind, pos, quat, size, hull=-np.ones(10)), "hull"),
        (lambda: gjkbatch.Bodies(kind, [["x", 1, 2]] * 10, quat, size), "pos"),
        (lambda: ctx.query(bodies, [0, 10], [1, 2]), "a"),
        (lambda: ctx.query(bodies, np.array([0, 1], dtype=np.uint32), np.array([1, 10], dtype=np.uint32)), "b"),
        (lambda: ctx.query(bodies, np.array([0, 1], dtype=np.uint32), np.array([1], dtype=np.uint32)), "b"),
        (lambda: ctx.query(bodies, [0, 1], [1, -1]), "b"),
        (lambda: ctx.query(bodies, [0, 1], [1]), "b"),
        (lambda: ctx.query(bodies, [0.0, np.nan], [1, 2]), "a"),
        (lambda: ctx.query(bodies, [0.5], [1]), "a"),
        (lambda: ctx.query(bodies, [[0, 1]], [[1, 2]]), "a"),
        (lambda: ctx.query(bodies, [0], [1], mode="near"), "mode"),
        (lambda: ctx.query(bodies, [0], [1], max_distance=np.nan), "max_distance"),
        (lambda: ctx.query(bodies, [0], [1], tolerance=-1), "tolerance"),
        (lambda: ctx.query(bodies, [0], [1], max_iterations=-1), "max_iterations"),
        (lambda: ctx.query(bodies, [0], [1], warm=np.zeros((2, 3))), "warm"),
        (lambda: ctx.query(bodies, [0], [1], out=gjkbatch.Result(2)), "out"),
        (lambda: ctx.query(bodies, [0], [1], mode="contact", out=gjkbatch.Result(1, "distance")), "out"),
        (lambda: ctx.query("bodies", [0], [1]), "bodies"),
        (lambda: ctx.add_hull(np.zeros((4, 2))), "points"),
        (lambda: ctx.find_pairs(bodies, flags=np.zeros(3)), "flags"),
        (lambda: gjkbatch.Context(backend="avx1024"), "backend"),
        (lambda: gjkbatch.Context(threads=-2), "threads"),
    ]
    for call, name in cases:
        with pytest.raises(ValueError) as e:
            call()
        assert str(e.value).startswith(name + ":"), (name, str(e.value))
    # uint32 indices are checked by the library: its message comes along.
    with pytest.raises(gjkbatch.ArgumentError, match=r"^a: body index 12 .*\[pair 1: body index 12 is out of range"):
        ctx.query(bodies, np.array([0, 12], dtype=np.uint32), np.array([1, 2], dtype=np.uint32))


def test_library_errors_carry_its_message(rng):
    kind, pos, quat, size = soa_inputs(rng, 4)
    ctx = gjkbatch.Context()
    # A hull id nobody registered: only the library knows.
    bodies = gjkbatch.Bodies(np.array([5, 2, 2, 2], dtype=np.uint8), pos, quat, size,
                             hull=np.array([3, 0, 0, 0], dtype=np.uint32))
    with pytest.raises(gjkbatch.ArgumentError) as e:
        ctx.query(bodies, [0], [1])
    assert e.value.code == _lib.ERR_RANGE
    assert str(e.value) == _lib.last_error(ctx._ptr).decode() and "hull" in str(e.value)
    assert isinstance(e.value, ValueError) and isinstance(e.value, gjkbatch.Error)
    # step refuses nothing here, but the info of an unknown hull is a library error too
    with pytest.raises(gjkbatch.ArgumentError):
        ctx.hull_info(5)
    # A kind code made bad after construction (zero copy) is caught by the library.
    good = gjkbatch.Bodies(kind, pos, quat, size)
    kind[0] = 77
    with pytest.raises(gjkbatch.ArgumentError) as e:
        ctx.query(good, [0], [1])
    assert e.value.code == _lib.ERR_KIND


def test_bad_geometry_is_an_invalid_pair_not_an_error(rng):
    kind, pos, quat, size = soa_inputs(rng, 4)
    pos[0, 1] = np.nan
    quat[2] = 0
    bodies = gjkbatch.Bodies(kind, pos, quat, size)
    res = gjkbatch.Context().query(bodies, [0, 1, 1], [1, 2, 3])
    assert list(res.status[:2]) == [gjkbatch.INVALID, gjkbatch.INVALID]
    assert res.status[2] != gjkbatch.INVALID
    with pytest.raises(ValueError, match="^pos: body 0"):
        bodies.check()
    pos[0, 1] = 0
    with pytest.raises(ValueError, match="^quat: body 2"):
        bodies.check()
    quat[2] = [1, 0, 0, 0]
    size[3, 2] = 2e15
    with pytest.raises(ValueError, match="^size: body 3"):
        bodies.check()
    assert gjkbatch.Context().query(bodies, [3], [0]).status[0] == gjkbatch.INVALID
    size[3, 2] = 1
    assert bodies.check() is bodies


def test_unavailable_backend_is_an_error():
    missing = [b for b in gjkbatch.BACKENDS[1:] if b not in gjkbatch.backends()]
    if not missing:
        pytest.skip("every backend runs here")
    with pytest.raises(gjkbatch.Error) as e:
        gjkbatch.Context(backend=missing[0])
    assert e.value.code == _lib.ERR_UNSUPPORTED and missing[0] in str(e.value)


# ---- threads -------------------------------------------------------------------

def test_threads_give_the_same_bits(rng):
    ctx = gjkbatch.Context(threads=1)
    bodies, a, b, _ = mixed_world(rng, ctx, pairs=2000)
    one = ctx.query(bodies, a, b, mode="distance")
    try:
        ctx.threads = 2
    except gjkbatch.Error as e:
        pytest.skip("built without OpenMP: %s" % e)
    assert ctx.threads == 2
    two = ctx.query(bodies, a, b, mode="distance")
    for name in ("status", "distance", "a", "b", "n", "iterations"):
        np.testing.assert_array_equal(getattr(two, name), getattr(one, name))
    assert gjkbatch.Context(threads=2).threads == 2


def test_python_threads_run_calls_concurrently(rng):
    # CDLL, not PyDLL: ctypes lets go of the GIL for every library call.
    assert type(_lib.lib) is ctypes.CDLL
    seeds = range(4)
    worlds = []
    for s in seeds:
        ctx = gjkbatch.Context()
        worlds.append((ctx,) + mixed_world(np.random.default_rng(s), ctx, pairs=1500)[:3])
    serial = [w[0].query(w[1], w[2], w[3]).distance for w in worlds]
    parallel = [None] * len(worlds)

    def run(i):
        ctx, bodies, a, b = worlds[i]
        for _ in range(5):
            parallel[i] = ctx.query(bodies, a, b).distance

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(worlds))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for s, p in zip(serial, parallel):
        np.testing.assert_array_equal(s, p)


def test_the_gil_is_released_during_a_call(rng):
    """While one thread is inside a long library call, another runs Python.

    The interpreter's switch interval is raised to 10 s for the test, so a
    thread holding the GIL through its call would keep the other out for
    the whole call: then the main thread could never see `inside` set. The
    main thread's sleep(0) lets go of the GIL itself, for the worker to
    take it back after its call."""
    n = 600000   # a call of tens of milliseconds: ample time for the other thread to be scheduled
    bodies = gjkbatch.Bodies("box", rng.uniform(-50, 50, size=(n, 3)), random_quats(rng, n),
                             np.full((n, 3), 0.5, dtype=np.float32))
    a = np.arange(0, n, 2, dtype=np.uint32)
    ctx = gjkbatch.Context()
    out = gjkbatch.Result(len(a), "distance")
    state = {"inside": False, "done": False}
    ready = threading.Event()

    def worker():
        ready.wait()
        state["inside"] = True
        ctx.query(bodies, a, a + 1, mode="distance", out=out)
        state["inside"] = False
        state["done"] = True

    old = sys.getswitchinterval()
    sys.setswitchinterval(10.0)
    try:
        t = threading.Thread(target=worker)
        t.start()
        ready.set()
        seen = 0
        while not state["done"]:
            if state["inside"]:
                seen += 1
            time.sleep(0)
        t.join()
    finally:
        sys.setswitchinterval(old)
    assert seen > 100
    assert (out.status == gjkbatch.SEPARATED).any()


def test_a_closed_context_refuses_calls(rng):
    ctx = gjkbatch.Context()
    bodies, a, b, _ = mixed_world(rng, ctx, pairs=5)
    with ctx:
        assert ctx.query(bodies, a, b).count == 5
    for call in (lambda: ctx.query(bodies, a, b), lambda: ctx.backend, lambda: ctx.threads,
                 lambda: ctx.hull_count, lambda: ctx.stats(), lambda: ctx.add_hull([[0, 0, 0]]),
                 lambda: ctx.find_pairs(bodies), lambda: ctx.query_pair(bodies, 0, 1)):
        with pytest.raises(ValueError, match="context is closed"):
            call()
    ctx.close()   # twice is fine
    assert "closed" in repr(ctx)


def test_one_context_two_threads_is_refused_not_a_crash(rng):
    ctx = gjkbatch.Context()
    bodies, a, b, _ = mixed_world(rng, ctx, pairs=10)
    ctx._lock.acquire()      # as if another thread were inside a call
    try:
        with pytest.raises(RuntimeError, match="another thread"):
            ctx.query(bodies, a, b)
    finally:
        ctx._lock.release()
    assert ctx.query(bodies, a, b).count == 10


# ---- hulls, broadphase, frames ------------------------------------------------------

def test_hull_registry_round_trip():
    ctx = gjkbatch.Context()
    corners = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], dtype=np.float32)
    cloud = np.vstack([corners, np.zeros((3, 3)), corners[:2]])   # interior points and duplicates
    cube = ctx.add_hull(cloud)
    tetra = ctx.add_hull([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]])
    bad = ctx.add_hull([[0, 0, np.nan]])
    assert (cube, tetra, bad) == (0, 1, 2) and ctx.hull_count == 3
    assert ctx.hull_info(cube) == gjkbatch.HullInfo(13, 8, 6, 12, True)
    assert ctx.hull_info(tetra) == gjkbatch.HullInfo(4, 4, 4, 6, True)
    assert not ctx.hull_info(bad).valid
    # The cube hull answers as the box it is.
    bodies = gjkbatch.Bodies(["hull", "box", "box", "hull"], [[0, 0, 0], [0, 0, 0], [3.5, 0.2, 0], [0, 0, 5]],
                             size=[[0, 0, 0], [1, 1, 1], [0.5, 0.5, 0.5], [0, 0, 0]],
                             hull=[cube, 0, 0, bad])
    res = ctx.query(bodies, [0, 1, 3], [2, 2, 2])
    assert res.distance[0] == pytest.approx(2.0, abs=1e-5)
    assert res.distance[0] == pytest.approx(res.distance[1], abs=1e-5)
    assert res.status[2] == gjkbatch.INVALID


def test_find_pairs_against_brute_force(rng):
    n = 300
    bodies = gjkbatch.Bodies("sphere", rng.uniform(0, 10, size=(n, 3)), size=rng.uniform(0.1, 0.6, size=(n, 3)))
    ctx = gjkbatch.Context()
    boxes = ctx.bounds(bodies)
    r = bodies.size[:, 0]
    assert np.all(boxes.min <= bodies.pos - r[:, None]) and np.all(boxes.max >= bodies.pos + r[:, None])
    a, b = ctx.find_pairs(boxes)
    assert a.dtype == np.uint32 and np.all(a < b)
    lo, hi = boxes.min, boxes.max
    overlap = np.all((lo[:, None, :] <= hi[None, :, :]) & (lo[None, :, :] <= hi[:, None, :]), axis=2)
    i, j = np.nonzero(np.triu(overlap, 1))
    assert len(i) > 50
    assert sorted(zip(a.tolist(), b.tolist())) == sorted(zip(i.tolist(), j.tolist()))
    static = np.zeros(n, dtype=np.uint8)
    static[: n // 2] = gjkbatch.BODY_STATIC
    sa, sb = ctx.find_pairs(bodies, flags=static)
    keep = ~((i < n // 2) & (j < n // 2))
    assert sorted(zip(sa.tolist(), sb.tolist())) == sorted(zip(i[keep].tolist(), j[keep].tolist()))


def test_pair_filter(rng):
    n = 200
    bodies = gjkbatch.Bodies("sphere", rng.uniform(0, 6, size=(n, 3)), size=np.full((n, 3), 0.4))
    ctx = gjkbatch.Context()
    a, b = ctx.find_pairs(bodies)
    asked = []

    def even_sum(i, j):
        asked.append((i, j))
        return (i + j) % 2 == 0

    fa, fb = ctx.find_pairs(bodies, filter=even_sum)
    assert asked == list(zip(a.tolist(), b.tolist()))   # every pair, in output order
    keep = (a + b) % 2 == 0
    np.testing.assert_array_equal(fa, a[keep])
    np.testing.assert_array_equal(fb, b[keep])
    frame = ctx.step(bodies, filter=even_sum)   # spheres only: one group
    np.testing.assert_array_equal(frame.a, a[keep])

    def broken(i, j):
        raise KeyError("from the filter")

    with pytest.raises(KeyError, match="from the filter"):
        ctx.find_pairs(bodies, filter=broken)
    with pytest.raises(ValueError, match="^filter:"):
        ctx.find_pairs(bodies, filter=3)
    assert ctx.find_pairs(bodies)[0].size == a.size   # the context is fine after it


def assert_grouped(kinds, fa, fb, a, b):
    """The frame's pairs (fa, fb) are find_pairs' (a, b) grouped by the two
    shapes' kinds: each group one run, in find_pairs' order within it."""
    def group(x, y):
        return tuple(sorted((int(kinds[x]), int(kinds[y]))))
    frame = list(zip(fa.tolist(), fb.tolist()))
    found = list(zip(a.tolist(), b.tolist()))
    assert sorted(frame) == sorted(found)
    runs = [group(*frame[0])] if frame else []
    for p in frame[1:]:
        if group(*p) != runs[-1]:
            runs.append(group(*p))
    assert len(runs) == len(set(runs))   # each group is one run
    for g in runs:
        assert [p for p in frame if group(*p) == g] == [p for p in found if group(*p) == g]


@pytest.mark.parametrize("mode", ["hit", "distance", "contact"])
def test_step_is_find_pairs_then_query(rng, mode):
    n = 400
    kinds = rng.integers(0, 5, size=n)
    bodies = gjkbatch.Bodies(kinds, rng.uniform(0, 8, size=(n, 3)), random_quats(rng, n),
                             rng.uniform(0.1, 0.5, size=(n, 3)))
    ctx = gjkbatch.Context()
    frame = ctx.step(bodies, mode=mode)
    a, b = ctx.find_pairs(bodies)
    assert_grouped(kinds, frame.a, frame.b, a, b)
    res = ctx.query(bodies, frame.a, frame.b, mode=mode)
    assert frame.hits == int((res.status == gjkbatch.OVERLAP).sum()) > 0
    np.testing.assert_array_equal(frame.result.status, res.status)
    np.testing.assert_array_equal(frame.result.distance, res.distance)
    if mode == "hit":
        assert frame.result.a is None
    else:
        np.testing.assert_array_equal(frame.result.n, res.n)
    if mode == "contact":
        np.testing.assert_array_equal(frame.result.manifold.count, res.manifold.count)
        np.testing.assert_array_equal(frame.result.manifold.a, res.manifold.a)
        np.testing.assert_array_equal(frame.result.manifold.feature, res.manifold.feature)
    assert set(frame.seconds) == {"bounds", "sort", "sweep", "narrowphase", "cache"}
    assert frame.warm == 0 and frame.seconds["cache"] == 0.0   # the cache is off


def test_pair_cache_warm_starts_the_next_frame(rng):
    """The second frame of a still world starts its pairs from the first
    frame's axes, with the same verdicts; reset forgets them."""
    n = 400
    bodies = gjkbatch.Bodies(rng.integers(0, 5, size=n), rng.uniform(0, 8, size=(n, 3)),
                             random_quats(rng, n), rng.uniform(0.1, 0.5, size=(n, 3)))
    ctx = gjkbatch.Context()
    assert not ctx.pair_cache
    ctx.pair_cache = True
    assert ctx.pair_cache
    first = ctx.step(bodies, mode="distance")
    second = ctx.step(bodies, mode="distance")
    # every separated pair has an axis to hand on (overlapping ones may not)
    assert first.warm == 0 and second.a.size - second.hits <= second.warm <= second.a.size
    np.testing.assert_array_equal(first.result.status, second.result.status)
    np.testing.assert_allclose(first.result.distance, second.result.distance, atol=1e-5)
    ctx.reset_pair_cache()
    assert ctx.step(bodies, mode="distance").warm == 0


def test_stats_count_the_kernels_work(rng):
    ctx = gjkbatch.Context()
    bodies, a, b, _ = mixed_world(rng, ctx, pairs=500)
    ctx.reset_stats()
    ctx.query(bodies, a, b, mode="hit")
    st = ctx.stats()
    if ctx.backend == "reference":
        assert st["width"] == 0
    else:
        assert st["pairs"] > 0 and 0 < st["utilization"] <= 1


# ---- the example ------------------------------------------------------------------

def test_arm_clearance_example_runs():
    script = os.path.join(ROOT, "examples", "arm_clearance.py")
    out = subprocess.run([sys.executable, script, "--configs", "6", "--check"], capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "per configuration" in out.stdout

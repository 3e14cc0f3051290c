#!/usr/bin/env python3
"""What the Python binding costs over the C call (issue 17).

The box-box workload of bench/workloads.h (seed 1, body 2i against 2i+1,
as bench/harness.c lays it out) in distance mode, two ways on the same
arrays, the same context and the same result buffers:
  C       gjkb_query_batch called from a loop in C (bench/python_overhead.c,
          built here with cc), timed in C;
  Python  ctx.query(bodies, a, b, mode="distance", out=result), timed in
          Python around the call.
Samples alternate C, Python, Python, C, ... so drift in the machine's
state falls on both alike; the acceptance figure is the median of the
ratios of neighbouring samples (the plain medians are printed too). At 65,536 pairs one
call per sample; at 64 pairs `--small-reps` calls per sample, so the per
call overhead is the difference of the two means.

    taskset -c 1 python3 bench/python_overhead.py [--samples 101] [--pairs 65536]

Needs the package importable (PYTHONPATH=build/python, or installed) and
cc. Prints a Markdown table.
"""

import argparse
import ctypes
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

import gjkbatch
from gjkbatch import _lib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
WL_BOX_BOX = 1


def build_helper(tmp):
    so = os.path.join(tmp, "libpython_overhead.so")
    subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-I", os.path.join(ROOT, "include"), "-I", HERE,
                    os.path.join(HERE, "python_overhead.c"), "-o", so, "-lm"], check=True)
    helper = ctypes.CDLL(so)
    helper.pyo_fill.restype = ctypes.c_int
    helper.pyo_fill.argtypes = [ctypes.c_int, ctypes.c_uint32, ctypes.c_uint64] + [ctypes.c_void_p] * 6
    helper.pyo_time.restype = ctypes.c_double
    helper.pyo_time.argtypes = [ctypes.c_void_p] * 6 + [ctypes.c_int, ctypes.POINTER(ctypes.c_int)]
    return helper


def workload(helper, pairs):
    n = 2 * pairs
    kind = np.empty(n, dtype=np.uint8)
    pos = np.empty((n, 3), order="F")
    quat = np.empty((n, 4), dtype=np.float32, order="F")
    size = np.empty((n, 3), dtype=np.float32, order="F")
    a = np.empty(pairs, dtype=np.uint32)
    b = np.empty(pairs, dtype=np.uint32)
    if helper.pyo_fill(WL_BOX_BOX, pairs, 1, *(x.ctypes.data for x in (kind, pos, quat, size, a, b))):
        raise SystemExit("python_overhead: workload generation failed")
    bodies = gjkbatch.Bodies(kind, pos, quat, size)
    assert bodies.copied == ()   # both sides read the same memory
    return bodies, a, b


def compare(helper, ctx, bodies, a, b, samples, reps):
    """Median seconds per call of the C loop and of ctx.query, alternated."""
    m = len(a)
    out = gjkbatch.Result(m, "distance")
    pairs = _lib.Pairs_c(m, a.ctypes.data, b.ctypes.data)
    query = _lib.Query_c(1)   # GJKB_DISTANCE, every other field 0, no warm start
    fn = ctypes.cast(_lib.lib.gjkb_query_batch, ctypes.c_void_p)
    err = ctypes.c_int(0)
    args = (fn, ctypes.c_void_p(ctx._ptr), ctypes.byref(bodies._c), ctypes.byref(pairs),
            ctypes.byref(query), ctypes.byref(out._c))

    def run_c():
        return helper.pyo_time(*args, reps, ctypes.byref(err)) / reps

    def run_py():
        q = ctx.query
        t0 = time.perf_counter()
        for _ in range(reps):
            q(bodies, a, b, mode="distance", out=out)
        return (time.perf_counter() - t0) / reps

    run_c(), run_py()   # warm the caches and the context's scratch
    c_times, py_times = [], []
    for i in range(samples):
        order = (run_c, run_py) if i % 2 == 0 else (run_py, run_c)
        for f in order:
            (c_times if f is run_c else py_times).append(f())
    if err.value:
        raise SystemExit("python_overhead: gjkb_query_batch failed: %s" % _lib.last_error(ctx._ptr).decode())
    # Both fill the same buffers: check the Python call's answers are the C call's.
    py = gjkbatch.Result(m, "distance")
    ctx.query(bodies, a, b, mode="distance", out=py)
    helper.pyo_time(*args, 1, ctypes.byref(err))
    for name in ("status", "distance", "n", "iterations"):
        assert np.array_equal(getattr(py, name), getattr(out, name), equal_nan=True), name
    return statistics.median(c_times), statistics.median(py_times), c_times, py_times


def cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "?"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pairs", type=int, default=65536)
    ap.add_argument("--small", type=int, default=64, help="pairs of the small call (default 64)")
    ap.add_argument("--samples", type=int, default=101, help="samples per side (default 101)")
    ap.add_argument("--small-reps", type=int, default=2000, help="calls per sample of the small call")
    ap.add_argument("--backend", default="auto")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        helper = build_helper(tmp)
        ctx = gjkbatch.Context(backend=args.backend, reserve_pairs=args.pairs)
        bodies, a, b = workload(helper, args.pairs)
        big = compare(helper, ctx, bodies, a, b, args.samples, 1)
        small_a, small_b = a[:args.small].copy(), b[:args.small].copy()
        small = compare(helper, ctx, bodies, small_a, small_b, args.samples, args.small_reps)
    affinity = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else "?"
    print("python_overhead: %s, backend %s, 1 thread, CPUs allowed %s, Python %s, numpy %s, %d samples per side"
          % (cpu_name(), ctx.backend, affinity, platform.python_version(), np.__version__, args.samples))
    print()
    print("| call | C (gjkb_query_batch), median | Python (ctx.query), median | Python / C: medians | "
          "median of paired ratios | fastest samples | overhead per call (medians) |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    paired = {}
    for label, (c, py, cs, pys), m in (("box-box distance, %d pairs" % args.pairs, big, args.pairs),
                                       ("box-box distance, %d pairs" % args.small, small, args.small)):
        # Each sample beside its neighbour of the other side: the machine's
        # drift (a shared VM) cancels in the ratio of the two.
        paired[m] = statistics.median(p / q for p, q in zip(pys, cs))
        print("| %s | %.1f us (%.2f Mpairs/s) | %.1f us (%.2f Mpairs/s) | %.3f | %.3f | %.3f | %+.2f us |"
              % (label, c * 1e6, m / c / 1e6, py * 1e6, m / py / 1e6, py / c, paired[m], min(pys) / min(cs),
                 (py - c) * 1e6))
    ratio = paired[args.pairs]
    verdict = "PASS" if ratio <= 1.05 else "FAIL"
    print()
    print("%d pairs: Python takes %.2f%% %s than C (median of paired samples; acceptance: at most 5%% longer): %s"
          % (args.pairs, abs(ratio - 1) * 100, "longer" if ratio >= 1 else "less", verdict))
    return 0 if verdict == "PASS" else 1


if __name__ == "__main__":
    sys.exit(main())

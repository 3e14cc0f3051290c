#!/usr/bin/env python3
"""Minimum signed clearance of a 7-link arm to its surroundings, for many
random joint configurations at once.

The arm is 7 capsules (one per link, joints alternating about z and y, as
a 7-DOF manipulator); the surroundings are a table (a box) and a few convex
hull obstacles. For every configuration, forward kinematics in numpy places
the links; then all link-obstacle pairs of all configurations of a batch go
to gjkbatch in one contact-mode call, whose signed distance (minus the
penetration depth where a link goes into an obstacle) gives each
configuration's minimum clearance. The same work is then done pair by pair
through gjkb_query_pair (the double-precision reference, one Python call
per pair), and in one call on the reference backend, to show what batching
buys.

    python3 examples/arm_clearance.py [--configs 1000] [--batch 1000] [--seed 1] [--check]

--check exits 1 unless the batched clearances match the pair-by-pair ones.
"""

import argparse
import sys
import time

import numpy as np

import gjkbatch

# Link lengths and capsule radii (metres), base to hand.
LENGTHS = np.array([0.30, 0.30, 0.25, 0.25, 0.20, 0.15, 0.10])
RADII = np.array([0.060, 0.055, 0.050, 0.045, 0.040, 0.035, 0.030])
AXES = "zyyzyzy"           # the joint axis of each link, in its parent's frame
BASE = np.array([0.0, 0.0, 0.10])   # the arm stands on a 10 cm pedestal on the table
LINKS = len(LENGTHS)


def quat_mul(p, q):
    """Hamilton products of (k, 4) quaternion arrays, w first."""
    pw, px, py, pz = p.T
    qw, qx, qy, qz = q.T
    return np.stack([pw * qw - px * qx - py * qy - pz * qz,
                     pw * qx + px * qw + py * qz - pz * qy,
                     pw * qy - px * qz + py * qw + pz * qx,
                     pw * qz + px * qy - py * qx + pz * qw], axis=1)


def forward_kinematics(angles, pos_out, quat_out):
    """Capsule centres and rotations of every link of every configuration.

    angles: (c, 7) joint angles. Writes link l of configuration k into row
    k * 7 + l of pos_out (float64) and quat_out (float32): the capsule's
    local z runs along the link."""
    c = angles.shape[0]
    q = np.zeros((c, 4))
    q[:, 0] = 1
    joint = np.broadcast_to(BASE, (c, 3))
    for link in range(LINKS):
        half = angles[:, link] / 2
        turn = np.zeros((c, 4))
        turn[:, 0] = np.cos(half)
        turn[:, 1 + "xyz".index(AXES[link])] = np.sin(half)
        q = quat_mul(q, turn)
        w, x, y, z = q.T
        # The rotated local z axis: the third column of q's rotation matrix.
        along = np.stack([2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y)], axis=1)
        pos_out[link::LINKS] = joint + along * (LENGTHS[link] / 2)
        quat_out[link::LINKS] = q
        joint = joint + along * LENGTHS[link]


def make_scene(contexts, rng, configs):
    """Bodies for `configs` configurations: 7 links each, then the
    obstacles (table, hulls) once, shared by every configuration; and the
    pairs: every link of every configuration against every obstacle. The
    hulls are registered in each of `contexts`, with the same ids."""
    hull_ids = []
    hull_pos = []
    for k in range(3):
        angle = 2 * np.pi * k / 3 + 0.4
        cloud = rng.normal(size=(24, 3)) * rng.uniform(0.08, 0.2, size=3)
        ids = {ctx.add_hull(cloud) for ctx in contexts}
        assert len(ids) == 1
        hull_ids.append(ids.pop())
        hull_pos.append([0.65 * np.cos(angle), 0.65 * np.sin(angle), rng.uniform(0.2, 0.7)])
    obstacles = 1 + len(hull_ids)
    n = configs * LINKS + obstacles
    kind = np.full(n, gjkbatch.KINDS.index("capsule"), dtype=np.uint8)
    pos = np.zeros((n, 3), order="F")
    quat = np.zeros((n, 4), dtype=np.float32, order="F")
    quat[:, 0] = 1
    size = np.zeros((n, 3), dtype=np.float32, order="F")
    hull = np.zeros(n, dtype=np.uint32)
    links = configs * LINKS
    size[:links, 0] = np.tile(RADII, configs)
    size[:links, 2] = np.tile(LENGTHS / 2 - RADII, configs).clip(0)   # the segment between the caps
    # The table: a 2.4 m square slab, its top at z = 0.
    kind[links] = gjkbatch.KINDS.index("box")
    pos[links] = [0.0, 0.0, -0.05]
    size[links] = [1.2, 1.2, 0.05]
    kind[links + 1:] = gjkbatch.KINDS.index("hull")
    pos[links + 1:] = hull_pos
    hull[links + 1:] = hull_ids
    # Right dtypes and column-contiguous (Fortran) layout: no copy; the
    # forward kinematics writes straight into the arrays the library reads.
    bodies = gjkbatch.Bodies(kind, pos, quat, size, hull=hull)
    assert bodies.copied == ()
    link_ids = np.arange(links, dtype=np.uint32)
    a = np.repeat(link_ids, obstacles)
    b = np.tile(np.arange(links, n, dtype=np.uint32), links)
    return bodies, a, b, obstacles


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--configs", type=int, default=1000, help="random configurations (default 1000)")
    ap.add_argument("--batch", type=int, default=1000, help="configurations per call (default 1000)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--backend", default="auto")
    ap.add_argument("--check", action="store_true", help="exit 1 unless batched and pair-by-pair agree")
    args = ap.parse_args(argv)
    if args.configs < 1 or args.batch < 1:
        ap.error("--configs and --batch must be at least 1")
    rng = np.random.default_rng(args.seed)
    batch = min(args.batch, args.configs)
    angles = rng.uniform(-np.pi, np.pi, size=(args.configs, LINKS))

    ctx = gjkbatch.Context(backend=args.backend)
    ref_ctx = gjkbatch.Context(backend="reference")
    bodies, a, b, obstacles = make_scene([ctx, ref_ctx], rng, batch)
    pairs_per_config = LINKS * obstacles
    out = gjkbatch.Result(len(a), "contact")
    batched = np.empty(args.configs)
    limit = 0
    fk_time = query_time = 0.0
    for start in range(0, args.configs, batch):
        chunk = angles[start:start + batch]
        k = len(chunk)
        t0 = time.perf_counter()
        forward_kinematics(chunk, bodies.pos[:k * LINKS], bodies.quat[:k * LINKS])
        t1 = time.perf_counter()
        # A short last batch asks only for its own pairs (a prefix of a, b).
        res = ctx.query(bodies, a[:k * pairs_per_config], b[:k * pairs_per_config], mode="contact",
                        out=out if k == batch else None)
        t2 = time.perf_counter()
        fk_time += t1 - t0
        query_time += t2 - t1
        d = res.distance[:k * pairs_per_config].reshape(k, pairs_per_config)
        batched[start:start + k] = d.min(axis=1)
        limit += int((res.status[:k * pairs_per_config] >= gjkbatch.LIMIT).sum())

    # The same again, pair by pair through the reference (one Python call
    # per pair), and in one call per batch on the reference backend.
    pair_by_pair = np.empty(args.configs)
    t_pair = t_ref = 0.0
    ref_batched = np.empty(args.configs)
    for start in range(0, args.configs, batch):
        chunk = angles[start:start + batch]
        k = len(chunk)
        m = k * pairs_per_config
        forward_kinematics(chunk, bodies.pos[:k * LINKS], bodies.quat[:k * LINKS])
        t0 = time.perf_counter()
        d = np.array([ctx.query_pair(bodies, a[i], b[i], mode="contact").distance for i in range(m)])
        t1 = time.perf_counter()
        pair_by_pair[start:start + k] = d.reshape(k, pairs_per_config).min(axis=1)
        t_pair += t1 - t0
        t0 = time.perf_counter()
        r = ref_ctx.query(bodies, a[:m], b[:m], mode="contact")
        t1 = time.perf_counter()
        ref_batched[start:start + k] = r.distance.reshape(k, pairs_per_config).min(axis=1)
        t_ref += t1 - t0

    us = 1e6 / args.configs
    print("arm_clearance: %d configurations, %d links x %d obstacles = %d pairs each, %d per call"
          % (args.configs, LINKS, obstacles, pairs_per_config, batch * pairs_per_config))
    print("  batched, backend %-10s %9.2f us per configuration (contact mode, one call per batch)"
          % (ctx.backend + ":", query_time * us))
    print("  batched, backend %-10s %9.2f us per configuration (%.1fx the batched time)"
          % ("reference:", t_ref * us, t_ref / query_time))
    print("  pair by pair (reference) %9.2f us per configuration (%.1fx; gjkb_query_pair, one Python call per pair)"
          % (t_pair * us, t_pair / query_time))
    print("  forward kinematics       %9.2f us per configuration (numpy)" % (fk_time * us))
    colliding = int((batched < 0).sum())
    print("  minimum clearance: median %.4f m, lowest %.4f m; %d of %d configurations collide; %d pairs not settled"
          % (np.median(batched), batched.min(), colliding, args.configs, limit))
    for i in range(min(5, args.configs)):
        print("    configuration %d: clearance %+.5f m (pair by pair %+.5f)" % (i, batched[i], pair_by_pair[i]))
    worst = float(np.abs(batched - pair_by_pair).max())
    worst_ref = float(np.abs(ref_batched - pair_by_pair).max())
    print("  largest difference from pair by pair: %.2e m (reference backend: %.2e m)" % (worst, worst_ref))
    if args.check and (worst > 1e-4 or worst_ref != 0.0):
        print("arm_clearance: batched and pair-by-pair clearances disagree", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

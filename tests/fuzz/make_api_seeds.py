#!/usr/bin/env python3
"""Writes the fuzz_api seed corpus (tests/fuzz/corpus/api/) byte by byte,
following the decode order of tests/fuzz/fuzz_world.c (fw_decode). Run it
again after changing that order; libFuzzer grows its own corpus from these
in a temporary directory (scripts/fuzz.sh)."""
import os
import sys

# style bits (first byte)
TEMPLATE, DISTANCE, WARM, MARGINS, FLAGS, FILTER, ODD, GATHER = (1 << k for k in range(8))
SPHERE, CAPSULE, BOX, CYLINDER, CONE, HULL = range(6)
IDENTITY, TURN_X = 0, 1      # quaternion table indices (quat_valid)
# the last byte (read_contact): bit 0 contact mode, the rest the manifold arrays
MAN_NONE, MAN_ALL, MAN_COUNT, MAN_POINTS, MAN_SEPARATION = range(5)
ODD_MANIFOLD_GROUP, ODD_MANIFOLD_NO_COUNT = 10, 11   # fw_odd


def contact(on=True, manifold=MAN_ALL):
    """The byte after the edits: contact mode or not, which manifold arrays."""
    return [(1 if on else 0) | manifold << 1]


def size(v):
    """A size on the decoder's 1/64 grid."""
    return int(round(v * 64))


def shape(kind, sx, sy, sz, quat=IDENTITY, margin=None, hull=None):
    b = [kind, size(sx), size(sy), size(sz)]
    if margin is not None:   # only when the style has MARGINS
        b += [200, size(margin)]
    b += [quat]
    if hull is not None:
        b += [hull]
    return b


def header(style, max_it, tol=0, maxd=0, outputs=0, odd=None, shift=0):
    b = [style, max_it, tol | maxd << 3 | outputs << 6]
    if odd is not None:
        b += [odd]
    return b + [shift]


def hull(n, style, coords, base=(0, 0, 0), direction=(0, 0, 0)):
    """n points; coords on the 1/32 grid as the style reads them."""
    return [n, style] + list(base) + list(direction) + [c & 0xFF for c in coords]


def template(np, a, b, varies, places, spread=True):
    out = [np - 1] + a + b + [0 if spread else 3]
    for i in range(np):
        v = varies[i % len(varies)]
        # bit 4 of a variation turns B: one more quaternion byte
        out += [v] + ([TURN_X] if v & 16 else []) + [places[i % len(places)]]
    return out


def coord(v):
    """A position on the decoder's grid: (b - 120) / 8 + c / 2048."""
    b = int((v + 15) * 8) // 1
    return [b, int(round((v - (b - 120) / 8) * 2048))]


def body(kind, sx, sy, sz, pos, quat=IDENTITY, margin=None, hull=None):
    return shape(kind, sx, sy, sz, quat, margin, hull) + sum((coord(p) for p in pos), [])


def free_mixed():
    """A free world: mixed kinds, shared bodies, a hull, warm start, flags
    and filter (the rest of the seed after its header)."""
    return ([1] + hull(4, 0, [0, 0, 0, 32, 0, 0, 0, 32, 0, 0, 0, 32])
            + [4]
            + body(SPHERE, 0.5, 0, 0, (0, 0, 0)) + body(BOX, 0.5, 0.5, 0.5, (0.75, 0, 0))
            + body(CAPSULE, 0.25, 0, 0.5, (0, 1, 0), quat=TURN_X) + body(HULL, 0, 0, 0, (0, 0, 1), hull=0)
            + body(CYLINDER, 0.5, 0, 0.25, (1, 1, 0))
            + [6, 0, 1, 1, 2, 2, 3, 3, 4, 0, 4, 1, 3]
            + [0, 3, 200, 64, 0, 64, 1, 2, 3]
            + [1, 0, 1, 0, 1] + [7, 0])


SEEDS = {
    # 24 cone pairs, distance mode, 3 iterations, radii and heights zeroed
    # in some neighbours (the old zero-radius cone bug's bundle)
    "cones-distance": header(TEMPLATE | DISTANCE, 3)
    + [0] + template(24, shape(CONE, 0.5, 0, 1), shape(CONE, 1, 0, 0.5),
                     [0, 1, 4, 5, 0x81, 0x40, 2, 8], [0, 9, 18, 27, 36, 45, 54, 63]) + [0, 0],
    # cylinder against cone, hit mode, one iteration, all pairs at one place
    "cylinder-cone-hit": header(TEMPLATE, 1)
    + [0] + template(12, shape(CYLINDER, 0.5, 0, 0.5), shape(CONE, 0.5, 0, 0.5),
                     [0, 2, 1, 3], [4, 12, 20, 5], spread=False) + [0, 0],
    # boxes and spheres with margins a trillion units from the origin
    "boxes-far": header(TEMPLATE | DISTANCE | MARGINS, 0, tol=3, shift=7)
    + [0] + template(12, shape(BOX, 1, 0.5, 0.25, margin=0.125), shape(SPHERE, 0.5, 0, 0, margin=0.25),
                     [0, 16, 0x20], [0, 8, 16, 24], ) + [0, 0],
    # two hulls (a cloud and a collinear set) against cones, gather too
    "hulls-gather": header(TEMPLATE | DISTANCE | GATHER, 8)
    + [2] + hull(6, 0, [32, 0, 0, -32, 0, 0, 0, 32, 0, 0, -32, 0, 0, 0, 32, 0, 0, -32])
    + hull(3, 2, [0, 16, 32], direction=(32, 0, 0))
    + template(10, shape(HULL, 0, 0, 0, hull=0), shape(CONE, 0.5, 0, 0.5, hull=None),
               [0, 0x20, 4], [0, 1, 2, 3, 4, 5]) + [0, 0],
    # a free world: mixed kinds, warm start, flags and filter, shared bodies
    "free-mixed": header(DISTANCE | WARM | FLAGS | FILTER, 16, tol=2, maxd=4) + free_mixed(),
    # broken geometry and a misuse: NaN size, zero quaternion, huge offset
    "free-broken": header(DISTANCE | ODD, 0, odd=3)
    + [0]
    + [3]
    + [SPHERE, 240, 0, 0, 0] + coord(0) * 3
    + [BOX, 64, 64, 64, 112] + coord(1) * 3
    + [CONE, 32, 0, 234, 0] + coord(0) + coord(2) + coord(0)
    + [CYLINDER, 32, 0, 32, 0, 253, 250] + coord(0)
    + [4, 0, 1, 1, 2, 2, 3, 3, 0] + [0, 200, 3, 1, 0, 2, 4, 0],
    # contact mode: 16 box pairs touching, pressed in or just apart on
    # every axis and the diagonals, B turned now and then, every manifold
    # array, max_distance 0.5 (speculative points for the near ones)
    "boxes-contact": header(TEMPLATE | DISTANCE, 0, maxd=3)
    + [0] + template(16, shape(BOX, 1, 0.5, 0.25), shape(BOX, 0.5, 0.5, 0.5),
                     [0, 16, 0, 0x40, 16], [0, 9, 18, 27, 36, 45, 54, 63, 26, 44, 100, 109])
    + [0, 0] + contact(),
    # contact mode without max_distance: capsules and spheres with margins,
    # only count and the points
    "capsules-contact": header(TEMPLATE | MARGINS, 0)
    + [0] + template(12, shape(CAPSULE, 0.5, 0, 0.75, margin=0.125), shape(SPHERE, 0.5, 0, 0, margin=0.25),
                     [0, 2, 16, 8], [0, 8, 16, 24, 33, 42, 51, 60])
    + [0, 0] + contact(manifold=MAN_POINTS),
    # contact mode on the cones and zeroed neighbours, count, separation
    # and feature only, max_distance 2
    "cones-contact": header(TEMPLATE | DISTANCE, 0, maxd=4)
    + [0] + template(24, shape(CONE, 0.5, 0, 1), shape(CYLINDER, 1, 0, 0.5),
                     [0, 1, 4, 5, 0x81, 0x40, 2, 8], [0, 9, 18, 27, 36, 45, 54, 63]) + [0, 0]
    + contact(manifold=MAN_SEPARATION),
    # the free world in contact mode, warm start, gjkb_step with flags
    "free-mixed-contact": header(DISTANCE | WARM | FLAGS | FILTER, 16, tol=2, maxd=4) + free_mixed() + contact(),
    # broken bodies between good ones in contact mode: invalid, no points,
    # the neighbours as without them
    "free-broken-contact": header(DISTANCE, 0)
    + [0]
    + [3]
    + body(BOX, 0.5, 0.5, 0.5, (0, 0, 0))
    + [SPHERE, 240, 0, 0, 0] + coord(0) * 3
    + body(BOX, 0.5, 0.5, 0.5, (0, 0.75, 0))
    + [BOX, 64, 64, 64, 112] + coord(1) * 3
    + [5, 0, 2, 0, 1, 2, 3, 1, 3, 2, 0] + [0, 0] + contact(),
    # hit mode given every manifold array: they must stay untouched
    "hit-manifold-untouched": header(TEMPLATE, 0)
    + [0] + template(8, shape(BOX, 0.5, 0.5, 0.5), shape(SPHERE, 0.5, 0, 0), [0], [0, 9, 18, 27])
    + [0, 0] + contact(on=False),
    # a manifold misuse (ax without ay, az) in contact mode: an error, nothing written
    "contact-misuse": header(TEMPLATE | ODD, 0, odd=ODD_MANIFOLD_GROUP)
    + [0] + template(4, shape(BOX, 0.5, 0.5, 0.5), shape(BOX, 0.5, 0.5, 0.5), [0], [0, 9])
    + [0, 0] + contact(),
}


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "corpus", "api")
    os.makedirs(out, exist_ok=True)
    for name, data in SEEDS.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(bytes(b & 0xFF for b in data))


if __name__ == "__main__":
    main()

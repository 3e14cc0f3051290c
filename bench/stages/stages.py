#!/usr/bin/env python3
"""stages.py CALLGRIND_OUT BINARY PAIRS - instructions per pair of one
gjkb_query_batch call by pipeline stage (docs/performance.md, "One call,
stage by stage").

Callgrind (--dump-instr=yes) counts every instruction; addr2line's inline
chain of its address names the innermost function in src/ that is not a
wide-op header: the kernel concept it belongs to. Those functions are
grouped into the stages below by name prefix. With GJKB_STAGES_FUNCTIONS=N
it also lists the N costliest functions."""
import os
import collections
import re
import subprocess
import sys

STAGES = [
    ('validation', r'^(sh_coord_ok|sh_coords_ok|sh_size_ok|sh_quat_ok|pk_rotation_ok)\b'),
    ('bucketing', r'^(pair_keys|info_keys|gjkb__analytic_key|gjkb__hull_key|gjkb__any_hull|put_lane|part_place|'
                  r'bucket_join|part_counts|kind_a_of|kind_b_of|run_chunk|run_single|keys_of|gjkb__pipeline|'
                  r'batch_plan)\b'),
    ('pack', r'^(pk_|sh_quat_matrix|sh_quat_rotation|sh_core|sh_radius|sh_inner|fw_load_records)'),
    ('box axes', r'^(sat_)'),
    ('support', r'^(sp_|sh_support)'),
    ('loop steps', r'^(lt_|sx_|vd_|proof_|cl_)'),
    ('contact', r'^(ct_|ep_|mg_|mb_|cb_)'),
    ('queue', r'^(ls_)'),
    ('scatter', r'^(scatter|gjkb__scatter|put_chunk|put_coord|put_points|put_manifolds|put_origins|put_witnesses|is_run)'),
]


def costs(path):
    """Self cost per instruction address (callgrind's compressed positions)."""
    cost = collections.Counter()
    addr = line = 0
    skip = False
    for raw in open(path):
        t = raw.split()
        if raw.startswith('calls='):
            skip = True   # the next line is the call's inclusive cost
            continue
        if not t or not (t[0][0].isdigit() or t[0][0] in '+-*'):
            continue

        def sub(tok, prev):
            return prev if tok == '*' else prev + int(tok, 0) if tok[0] in '+-' else int(tok, 0)
        addr = sub(t[0], addr)
        if len(t) > 2:
            line = sub(t[1], line)
        if skip:
            skip = False
            continue
        cost[addr] += int(t[-1])
    return cost


def owners(binary, addrs):
    """Address -> the innermost src/ function of its inline chain."""
    out = subprocess.run(['addr2line', '-a', '-i', '-f', '-e', binary] + ['0x%x' % a for a in addrs],
                         capture_output=True, text=True, check=True).stdout.split('\n')
    chains, cur, i = {}, None, 0
    while i < len(out):
        if out[i].startswith('0x'):
            cur = int(out[i], 16)
            chains[cur] = []
            i += 1
        elif out[i]:
            chains[cur].append((out[i], out[i + 1] if i + 1 < len(out) else ''))
            i += 2
        else:
            i += 1
    name = {}
    for a, chain in chains.items():
        name[a] = chain[-1][0] if chain else '?'
        for fn, loc in chain:
            f = loc.split(':')[0]
            if '/src/' in f and not re.search(r'wide_\w+\.h', f):
                name[a] = fn
                break
    return name


def main():
    path, binary, pairs = sys.argv[1], sys.argv[2], float(sys.argv[3])
    cost = costs(path)
    name = owners(binary, sorted(cost))
    stage, per_fn = collections.Counter(), collections.Counter()
    for a, c in cost.items():
        fn = name.get(a, '?')
        per_fn[fn] += c
        stage[next((s for s, rx in STAGES if re.search(rx, fn)), 'other')] += c
    total = sum(stage.values())
    for s in [s for s, _ in STAGES] + ['other']:
        print('%-11s %8.1f  %5.1f%%' % (s, stage[s] / pairs, 100.0 * stage[s] / total))
    print('%-11s %8.1f' % ('total', total / pairs))
    for fn, c in per_fn.most_common(int(os.environ.get('GJKB_STAGES_FUNCTIONS', '0'))):
        print('  %-40s %8.1f' % (fn, c / pairs))


main()

#!/usr/bin/env python3
"""plot.py - turns a gjkb_bench JSON file (Google Benchmark output) into
<same name>.png (pairs/s per workload, grouped by implementation, log scale,
drawn by gnuplot) and <same name>.md (Markdown tables: Mpairs/s, each
workload's best peer of the run named with gjkbatch's ratio to it and the
slower peers beside it, the width-1 build against the plain scalar GJK,
speed-ups against the reference, scalar and libccd GJK columns of the same
run, and verdict agreement). Contact mode (BM_query/<workload>/contact/<backend>
and the penetration peers) gets its own panel and section: Mpairs/s,
speed-ups, mean contact points and agreement with the reference's contact
answers. Broadphase results (BM_broad, BM_bullet_dbvt,
BM_bullet_sweep3) go to <same name>-broad.png (time per call per scene,
log scale) and a Broadphase section at the end of the .md.

    python3 bench/plot.py bench/results/<name>.json

Only the standard library and the gnuplot program are used. Each figure is
the median aggregate when the run had repetitions, else the single run."""

import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

BACKENDS = ["reference", "scalar", "sse4", "avx2", "avx512", "neon"]
PEERS = {  # benchmark family -> (column label, query it answers)
    "BM_plain_gjk_hit": ("plain GJK (triple products)", "hit"),
    "BM_plain_sat_hit": ("plain box SAT + GJK", "hit"),
    "BM_ccd_gjk": ("libccd GJK (default start)", "hit"),
    "BM_ccd_gjk_centre": ("libccd GJK (centre start)", "hit"),
    "BM_ccd_mpr": ("libccd MPR", "hit"),
    "BM_plain_gjk_dist": ("plain GJK (signed volumes)", "distance"),
    "BM_plain_sat_dist": ("plain box SAT + GJK (signed volumes)", "distance"),
    "BM_plain_gjk_hit_whole": ("plain GJK (triple products), set-up timed", "hit"),
    "BM_plain_gjk_dist_whole": ("plain GJK (signed volumes), set-up timed", "distance"),
    "BM_bullet_gjk": ("Bullet GJK (no pen. solver)", "distance"),
    "BM_bullet_gjk_epa": ("Bullet GJK+EPA", "distance"),
    "BM_ccd_gjk_pen": ("libccd GJK-EPA", "contact"),
    "BM_ccd_mpr_pen": ("libccd MPR pen", "contact"),
    "BM_bullet_epa": ("Bullet GJK-EPA", "contact"),
    "BM_bullet_boxbox": ("Bullet box-box", "contact"),
    "BM_ode_boxbox": ("ODE box-box", "contact"),
}
QUERIES = ("hit", "distance", "contact")
# Peers whose contact counts are compared (they build manifolds).
MANIFOLD_PEERS = ("Bullet box-box", "ODE box-box")
# One colour per implementation, the same in both panels.
COLOURS = {
    "reference": "#7f7f7f", "scalar": "#8c564b", "sse4": "#1f77b4", "avx2": "#ff7f0e",
    "avx512": "#d62728", "neon": "#2ca02c", "libccd GJK (default start)": "#9467bd",
    "libccd GJK (centre start)": "#6b4c9a", "plain box SAT + GJK": "#f7b6d2", "libccd MPR": "#c5b0d5", "plain GJK (triple products)": "#e377c2",
    "plain GJK (signed volumes)": "#e377c2", "Bullet GJK (no pen. solver)": "#17becf",
    "Bullet GJK+EPA": "#0f7f8a", "libccd GJK-EPA": "#9467bd", "libccd MPR pen": "#c5b0d5",
    "Bullet GJK-EPA": "#17becf", "Bullet box-box": "#9edae5", "ODE box-box": "#bcbd22",
}
CCD = "libccd GJK (default start)"
BULLET = "Bullet GJK (no pen. solver)"
# The plain scalar float GJK of bench/plain_gjk.c, per query: what the
# width-1 build is compared with.
PLAIN = {"hit": "plain GJK (triple products)", "distance": "plain GJK (signed volumes)"}


# gnuplot settings both charts share: clustered bars on a log scale.
HISTOGRAM_STYLE = [
    "set style data histogram",
    "set style histogram clustered gap 1",
    "set style fill solid 0.85 border -1",
    "set datafile missing '?'",
    "set logscale y",
]


def parse_name(run_name):
    """(workload, column label, query, backend or None), or None if unknown.
    Google Benchmark's suffixes for a benchmark's own settings (repeats:1 on
    the contact rows) are dropped."""
    parts = [p for p in run_name.split("/") if not p.startswith(("repeats:", "iterations:"))]
    if parts[0] == "BM_query" and len(parts) == 4:
        _, wl, query, backend = parts
        return wl, f"{query}/{backend}", query, backend
    if parts[0] in PEERS and len(parts) == 2:
        label, query = PEERS[parts[0]]
        return parts[1], label, query, None
    return None


def read_runs(path, wanted):
    """(JSON data, medians, singles) of the runs whose run name wanted()
    accepts: medians[name] is the median aggregate, singles[name] the list
    of single runs."""
    with open(path) as f:
        data = json.load(f)
    medians, singles = {}, {}
    for b in data.get("benchmarks", []):
        key = b.get("run_name", b["name"])
        if b.get("error_occurred") or not wanted(key):
            continue
        if b.get("run_type") == "aggregate":
            if b.get("aggregate_name") == "median":
                medians[key] = b
        else:
            singles.setdefault(key, []).append(b)
    return data, medians, singles


def load(path):
    """Returns (context, rows): rows[(workload, label)] = dict of figures."""
    data, medians, singles = read_runs(path, lambda key: True)
    rows, order, columns = {}, [], []
    for key in list(medians) + [k for k in singles if k not in medians]:
        parsed = parse_name(key)
        if parsed is None:
            continue
        wl, label, query, backend = parsed
        if key in medians:
            b = medians[key]
            ips = b.get("items_per_second")
        else:
            b = singles[key][0]
            ips = statistics.median(x.get("items_per_second", 0.0) for x in singles[key])
        if not ips:
            continue
        rows[(wl, label)] = {
            "mpairs": ips / 1e6,
            "hits": b.get("hits"),
            "mismatch": b.get("mismatch"),
            "iters": b.get("iters"),
            "lane_util": b.get("lane_util"),
            "mismatch_out": b.get("mismatch_out"),
            "dist_bad": b.get("dist_bad"),
            **{k: b.get(k) for k in CONTACT_COUNTERS},
            "query": query,
            "backend": backend,
        }
        if wl not in order:
            order.append(wl)
        if label not in columns:
            columns.append(label)
    return data.get("context", {}), order, columns, rows


CONTACT_COUNTERS = ("depth_bad", "depth_bad_1e3", "count_bad", "nan_normal", "dropped", "extra", "limit",
                    "contacts", "pairs")


def ordered(columns, query):
    """gjkbatch columns of one query in backend order, then its peers."""
    own = [f"{query}/{b}" for b in BACKENDS if f"{query}/{b}" in columns]
    peers = [lab for lab, q in PEERS.values() if q == query and lab in columns]
    return own, peers


def fmt(x, digits=3):
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "–"
    if x >= 100:
        return f"{x:.0f}"
    return f"{x:.{digits}g}"


def geomean(xs):
    xs = [x for x in xs if x is not None and x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def table(header, lines):
    out = ["| " + " | ".join(header) + " |", "|" + "|".join(["---"] + ["---:"] * (len(header) - 1)) + "|"]
    out += ["| " + " | ".join(line) + " |" for line in lines]
    return out


def mpairs(rows, wl, label):
    r = rows.get((wl, label))
    return r["mpairs"] if r else None


def ratio_table(rows, workloads, cols, base_of, title):
    """Speed-ups of cols over a baseline column (base_of(col) gives its label)."""
    lines, per_col = [], {c: [] for c in cols}
    for wl in workloads:
        cells = [wl]
        for c in cols:
            a, b = mpairs(rows, wl, c), mpairs(rows, wl, base_of(c))
            r = a / b if a and b else None
            per_col[c].append(r)
            cells.append(fmt(r) + "×" if r else "–")
        lines.append(cells)
    lines.append(["**geomean**"] + [(fmt(geomean(per_col[c])) + "×") if geomean(per_col[c]) else "–" for c in cols])
    return [f"### {title}", ""] + table(["workload"] + cols, lines) + [""]


def header(name, context):
    """Title and the run's facts."""
    out = [f"# gjkbatch benchmark: {name}", ""]
    facts = []
    for key, label in (("cpu", "CPU"), ("date", "date"), ("num_cpus", "CPUs"), ("mhz_per_cpu", "MHz"),
                       ("gjkb_backends", "backends"), ("gjkb_pairs_per_batch", "pairs per batch"),
                       ("library_build_type", "Google Benchmark library build")):
        if key in context:
            facts.append(f"{label}: {context[key]}")
    caches = context.get("caches") or []
    if caches:
        facts.append("caches: " + ", ".join(f"L{c['level']} {c['type']} {c['size'] // 1024} KiB" for c in caches))
    out += ["- " + f for f in facts] + [""]
    return out


def query_section(rows, workloads, columns, query):
    """(Markdown lines, columns) of one query's throughput and speed-ups."""
    own, peers = ordered(columns, query)
    cols = own + peers
    if not cols:
        return [], []
    out = [f"## {query.capitalize()} query", "", "### Mpairs/s", ""]
    out += table(["workload"] + cols, [[wl] + [fmt(mpairs(rows, wl, c)) for c in cols] for wl in workloads])
    out += [""]
    ref, scalar = f"{query}/reference", f"{query}/scalar"
    if own and ref in columns:
        out += ratio_table(rows, workloads, [c for c in cols if c != ref], lambda c: ref, "vs reference")
    if own and scalar in columns:
        out += ratio_table(rows, workloads, [c for c in cols if c != scalar], lambda c: scalar, "vs scalar")
    if query != "contact" and CCD in columns:
        out += ratio_table(rows, workloads, [c for c in cols if c != CCD], lambda c: CCD,
                           "vs libccd GJK with its default (1,0,0) first direction (its slowest configuration)")
    if query == "distance" and BULLET in columns and own:
        out += ratio_table(rows, workloads, own, lambda c: BULLET, "vs Bullet GJK without penetration solver")
    for peer in ("libccd GJK-EPA", "Bullet GJK-EPA"):
        if query == "contact" and peer in columns and own:
            out += ratio_table(rows, workloads, own, lambda c, p=peer: p, f"vs {peer}")
    return out, cols


def query_peers(columns, query):
    """Peers that answer a query: a distance peer answers the hit query too
    (its verdict), so it competes there."""
    return [lab for lab, q in PEERS.values() if lab in columns and (q == query or (query == "hit" and q == "distance"))]


def best_peer_section(rows, workloads, columns, query):
    """Per workload the fastest peer of the run, named, gjkbatch's ratio to
    it, the width-1 build's ratio to the plain scalar GJK, and the slower
    peers beside it."""
    peers = query_peers(columns, query)
    own = [c for c in ordered(columns, query)[0] if not c.endswith("/reference")]
    if not peers or not own:
        return []
    plain, scalar = PLAIN.get(query), f"{query}/scalar"
    lines, per_col, per_plain = [], {c: [] for c in own}, []
    for wl in workloads:
        speeds = sorted(((mpairs(rows, wl, p), p) for p in peers if mpairs(rows, wl, p)), reverse=True)
        if not speeds or not any(mpairs(rows, wl, c) for c in own):
            continue
        best_mp, best = speeds[0]
        mark = " †" if query == "hit" and rows_query(rows, best) == "distance" else ""
        cells = [wl, f"{best}{mark} {fmt(best_mp)}"]
        for c in own:
            m = mpairs(rows, wl, c)
            per_col[c].append(m / best_mp if m else None)
            cells.append(f"{fmt(m)} ({fmt(m / best_mp)}×)" if m else "–")
        a, b = mpairs(rows, wl, scalar), mpairs(rows, wl, plain) if plain else None
        per_plain.append(a / b if a and b else None)
        cells.append(fmt(a / b) + "×" if a and b else "–")
        cells.append(", ".join(f"{p} {fmt(m)}" for m, p in speeds[1:]) or "–")
        lines.append(cells)
    if not lines:
        return []
    gm = [(fmt(geomean(per_col[c])) + "×") if geomean(per_col[c]) else "–" for c in own]
    lines.append(["**geomean**", ""] + gm + [(fmt(geomean(per_plain)) + "×") if geomean(per_plain) else "–", ""])
    note = (" † answers the distance query (its verdict serves the hit query)." if query == "hit" else "")
    return ([f"### Against the best peer of this run ({query})", "",
             "Mpairs/s. Each gjkbatch cell: its Mpairs/s and (its ratio to the best peer). "
             f"\"width 1 / plain\": the width-1 build over the plain scalar float GJK ({plain})." + note, ""]
            + table(["workload", "best peer, Mpairs/s"] + [f"{c}" for c in own] +
                    ["width 1 / plain", "slower peers"], lines) + [""])


def plain_agreement(rows, workloads):
    """The plain GJK's agreement counters against the reference."""
    cols = [PLAIN["hit"], PLAIN["distance"]]
    if not any(rows.get((wl, c)) for wl in workloads for c in cols):
        return []
    out = ["## Plain scalar GJK against the reference", "",
           "Each cell: verdicts differing from the reference's / of those, outside the touching band "
           "(by the reference's signed distance) / pairs at the 64-iteration limit; the distance query "
           "adds distances off by more than 1e-4 of the pair's scale (separated pairs outside the band).", ""]
    lines = []
    for wl in workloads:
        cells = [wl]
        for c, keys in ((cols[0], ("mismatch", "mismatch_out", "limit")),
                        (cols[1], ("mismatch", "mismatch_out", "limit", "dist_bad"))):
            r = rows.get((wl, c)) or {}
            vals = [r.get(k) for k in keys]
            cells.append(" / ".join(f"{v:.0f}" for v in vals) if all(v is not None for v in vals) else "–")
        lines.append(cells)
    return out + table(["workload"] + cols, lines) + [""]


def verdict_agreement(rows, workloads, cols):
    """Hit verdicts of every hit and distance column against the reference's."""
    out = ["## Agreement", "",
           "Overlapping pairs by the reference backend's hit query, and for every other column the "
           "number of pairs whose verdict differs from it (near-touching pairs may differ within "
           "each implementation's tolerance; Bullet computes in float).", ""]
    others = [c for c in cols if c != "hit/reference"]
    lines = []
    for wl in workloads:
        ref = rows.get((wl, "hit/reference"))
        cells = [wl, f"{ref['hits']:.0f}" if ref and ref["hits"] is not None else "–"]
        for c in others:
            r = rows.get((wl, c))
            m = r["mismatch"] if r else None
            cells.append(f"{m:.0f}" if m is not None and m >= 0 else "–")
        lines.append(cells)
    return out + table(["workload", "reference hits"] + others, lines) + [""]


def counter_cells(rows, workloads, cols, keys):
    """Workload x column cells joining the counters keys with ' / '."""
    def cell(r):
        if not r or any(r.get(k) is None for k in keys):
            return "–"
        return " / ".join(f"{r[k]:.0f}" for k in keys)
    return [[wl] + [cell(rows.get((wl, c))) for c in cols] for wl in workloads]


def contact_agreement(rows, workloads, columns):
    """Contact rows against the reference's contact answers."""
    own, peers = ordered(columns, "contact")
    out = []
    if own:
        out += ["## Contact agreement", "",
                "Each cell: depth_bad / count_bad / nan_normal / dropped / limit, against the reference "
                "backend's contact answers on the same pairs. depth_bad: pairs outside the touching band "
                "whose signed distance differs by more than 1e-5 of the pair's scale; count_bad: contact "
                "counts differing; nan_normal: overlap status with a non-unit normal; dropped: pairs the "
                "reference calls overlapping answered without overlap, a finite depth and a contact.", ""]
        keys = ("depth_bad", "count_bad", "nan_normal", "dropped", "limit")
        out += table(["workload"] + own, counter_cells(rows, workloads, own, keys)) + [""]
    if peers:
        out += ["### Penetration peers against the reference", "",
                "Each cell: depth_bad at 1e-5 / at 1e-3 of the scale / count_bad (manifold peers; "
                "– for the one-point solvers) / dropped / extra (contacts on pairs the reference "
                "separates), on pairs outside the touching band.", ""]
        lines = []
        for wl in workloads:
            cells = [wl]
            for c in peers:
                r = rows.get((wl, c))
                if not r or r.get("depth_bad") is None:
                    cells.append("–")
                    continue
                cb = f"{r['count_bad']:.0f}" if r.get("count_bad") is not None else "–"
                cells.append(f"{r['depth_bad']:.0f} / {r['depth_bad_1e3']:.0f} / {cb} / "
                             f"{r['dropped']:.0f} / {r['extra']:.0f}")
            lines.append(cells)
        out += table(["workload"] + peers, lines) + [""]
    if own or peers:
        out += figure_table(rows, workloads, own + peers, "contacts", "{:.2f}", "Mean contact points per pair")
    return out


def markdown(name, context, workloads, columns, rows):
    out = header(name, context)
    out += ["Throughput of one whole `gjkb_query_batch` call (validation, packing, kernel, scatter) over "
            "the batch, in millions of pairs per second, median of the repetitions, one core. "
            "Peers on the same pairs: a plain scalar float GJK written in the bench (bench/plain_gjk.c: "
            "boolean with triple products for the hit query, signed volumes for the distance query), libccd "
            "(GJK intersection test with its default (1,0,0) first direction and with the centre difference, "
            "MPR) and Bullet's btGjkPairDetector without a penetration solver and with "
            "btGjkEpaPenetrationDepthSolver. Every ratio is also stated against the best peer of the run. "
            "Contact mode asks for every "
            "result and manifold array; its peers are libccd's and Bullet's penetration solvers and the "
            "box-box manifolds of Bullet and ODE. Speed-ups compare columns of this one run.", ""]
    all_cols = []
    for query in QUERIES:
        lines, cols = query_section(rows, workloads, columns, query)
        if lines:   # the best peer first, under the query's heading
            lines[2:2] = best_peer_section(rows, workloads, columns, query)
        out += lines
        all_cols += cols
    verdict_cols = [c for c in all_cols if rows_query(rows, c) != "contact"]
    if verdict_cols:
        out += verdict_agreement(rows, workloads, verdict_cols)
    out += plain_agreement(rows, workloads)
    out += contact_agreement(rows, workloads, columns)

    iter_cols = [c for c in all_cols if "/" in c]
    if iter_cols:
        out += figure_table(rows, workloads, iter_cols, "iters", "{:.2f}", "Mean support evaluations per pair")
    util_cols = [c for c in iter_cols if any((rows.get((wl, c)) or {}).get("lane_util") for wl in workloads)]
    if util_cols:
        out += figure_table(rows, workloads, util_cols, "lane_util", "{:.0%}",
                            "Lane utilization (active lanes per lane slot of the kernel's bundle steps)")
    return "\n".join(out)


def rows_query(rows, label):
    """The query a column answers."""
    for (_, lab), r in rows.items():
        if lab == label:
            return r["query"]
    return None


def figure_table(rows, workloads, cols, field, form, title):
    """A workload x column table of one per-run figure."""
    lines = []
    for wl in workloads:
        cells = [wl]
        for c in cols:
            r = rows.get((wl, c))
            cells.append(form.format(r[field]) if r and r.get(field) is not None else "–")
        lines.append(cells)
    return [f"## {title}", ""] + table(["workload"] + cols, lines) + [""]


def gnuplot_chart(png, name, workloads, columns, rows):
    gp = shutil.which("gnuplot")
    if gp is None:
        print("plot.py: gnuplot not found, no chart", file=sys.stderr)
        return False
    panels = []
    for query in QUERIES:
        own, peers = ordered(columns, query)
        cols = own + peers
        if cols:
            panels.append((query, cols))
    if not panels:
        return False
    values = [r["mpairs"] for r in rows.values()]
    ymin = 10 ** math.floor(math.log10(min(values))) if values else 0.1
    ymax = 10 ** math.ceil(math.log10(max(values))) if values else 100
    with tempfile.TemporaryDirectory() as tmp:
        script = [
            f"set terminal pngcairo size 1400,{420 * len(panels) + 80} font 'sans,11'",
            f"set output '{png}'",
            f"set multiplot layout {len(panels)},1 title 'gjkbatch: {name}  (pairs/s, one core, log scale)'",
            *HISTOGRAM_STYLE,
            f"set yrange [{ymin}:{ymax}]",
            "set ylabel 'Mpairs/s'",
            "set grid ytics mytics",
            "set key outside right top vertical",
            "set lmargin at screen 0.06",   # same plot width in both panels
            "set rmargin at screen 0.84",
            "set xtics nomirror",
        ]
        for query, cols in panels:
            dat = os.path.join(tmp, f"{query}.dat")
            with open(dat, "w") as f:
                f.write("workload " + " ".join(f'"{c}"' for c in cols) + "\n")
                for wl in workloads:
                    vals = [mpairs(rows, wl, c) for c in cols]
                    f.write(f'"{wl}" ' + " ".join(f"{v:.6g}" if v else "?" for v in vals) + "\n")
            colours = " ".join(COLOURS.get(c.split("/")[-1], "#000000") for c in cols)
            script.append(f"set title '{query} query'")
            script.append(f"colours = '{colours}'")
            script.append(f"plot for [i=2:{len(cols) + 1}] '{dat}' using i:xtic(1) "
                          "title columnheader(i) lc rgb word(colours, i - 1)")
        script.append("unset multiplot")
        subprocess.run([gp], input="\n".join(script) + "\n", text=True, check=True)
    return True


# ---- broadphase ----------------------------------------------------------

BROAD_PEERS = {"BM_bullet_dbvt": "Bullet dbvt", "BM_bullet_sweep3": "Bullet sweep3"}
TIME_TO_MS = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}


def parse_broad(run_name):
    """(scene, column label, is ours) of a broadphase run, or None. Google
    Benchmark's suffixes for a benchmark's own settings (repeats:1 on the
    slow builds) are dropped."""
    parts = [p for p in run_name.split("/") if not p.startswith(("repeats:", "iterations:"))]
    if parts[0] == "BM_broad" and len(parts) == 4 and parts[3].startswith("threads:"):
        return parts[1], f"{parts[2]}/{parts[3]}", True
    if parts[0] in BROAD_PEERS and len(parts) == 3:
        return parts[1], f"{BROAD_PEERS[parts[0]]} {parts[2]}", False
    return None


def load_broad(path):
    """(scenes, columns, rows): rows[(scene, label)] = dict of figures."""
    _, medians, singles = read_runs(path, lambda key: parse_broad(key) is not None)
    picked = dict(medians)
    for key, runs in singles.items():
        if key not in picked:   # no aggregates: the run of median time
            picked[key] = sorted(runs, key=lambda r: r["real_time"])[len(runs) // 2]
    scenes, columns, rows = [], [], {}
    own, peers = [], []
    for key, b in picked.items():
        scene, label, ours = parse_broad(key)
        rows[(scene, label)] = {
            "ms": b["real_time"] * TIME_TO_MS.get(b.get("time_unit", "ns"), 1e-6),
            "cycles": b.get("cycles"),
            "pairs": b.get("pairs"),
            "overlapping": b.get("overlapping"),
            "expected": b.get("expected"),
            "ours": ours,
        }
        if scene not in scenes:
            scenes.append(scene)
        (own if ours else peers).append(label)

    def own_key(label):
        backend, threads = label.split("/")
        return (BACKENDS.index(backend) if backend in BACKENDS else len(BACKENDS), threads)
    columns = sorted(set(own), key=own_key) + sorted(set(peers))
    return scenes, columns, rows


def broad_ms(rows, scene, label):
    r = rows.get((scene, label))
    return r["ms"] if r else None


def scene_table(scenes, columns, titles, cells):
    """A table with a row per column label and, per scene, a cell per title:
    cells(scene, label) gives that scene's cells."""
    header = ["implementation"] + [f"{sc} {t}" for sc in scenes for t in titles]
    return table(header, [[c] + [x for sc in scenes for x in cells(sc, c)] for c in columns])


def broad_markdown(context, scenes, columns, rows):
    out = ["## Broadphase", ""]
    for key, label in (("gjkb_broad_boxes", "boxes per scene"), ("gjkb_bullet_sweep3", "Bullet sweep and prune")):
        if key in context:
            out.append(f"- {label}: {context[key]}")
    out += ["",
           "Time of one whole `gjkb_find_pairs` call (sort and sweep, boxes given directly) per backend "
           "and thread count, and Bullet's broadphases on the same boxes: *build* creates every proxy in "
           "a fresh broadphase and finds the pairs, *update* is one frame in which every box moves "
           "(setAabb on all, then calculateOverlappingPairs). Bullet sweep3 is btAxisSweep3 up to 16k "
           "boxes, bt32BitAxisSweep3 beyond. Wall time, median of the repetitions (a single run where "
           "there was one); Mcycles are time-stamp counter ticks. \"vs Bullet\" is the fastest Bullet "
           "time of the scene over the column's time.", ""]
    def timing(sc, c):
        r = rows.get((sc, c))
        bullet = [rows[(sc, p)]["ms"] for p in columns if (sc, p) in rows and not rows[(sc, p)]["ours"]]
        fastest = min(bullet) if bullet else None
        return [fmt(r["ms"]) if r else "–",
                fmt(r["cycles"] / 1e6) if r and r["cycles"] else "–",
                fmt(fastest / r["ms"]) + "×" if r and fastest and r["ms"] > 0 else "–"]
    out += scene_table(scenes, columns, ["ms", "Mcycles", "vs Bullet"], timing) + [""]

    out += ["### Pairs", "",
            "Pairs found by gjkb_find_pairs, or held in Bullet's pair cache after the timed work, and of "
            "Bullet's those whose boxes overlap (its tree leaves are enlarged by a margin and drop stale "
            "pairs a few per frame; the sweep and prune rounds its quantized edges outward). *Expected* "
            "is the independent count (brute force or a sort-based checker) for the same boxes (an update "
            "ends on one of the two moved copies).", ""]
    def count(x):
        return f"{x:.0f}" if x is not None else "–"

    def counts(sc, c):
        r = rows.get((sc, c)) or {}
        return [count(r.get("pairs")), count(r.get("overlapping")), count(r.get("expected"))]
    out += scene_table(scenes, columns, ["pairs", "overlapping", "expected"], counts) + [""]
    return out


def shade(hex_colour, amount):
    """The colour mixed with white (amount 0..1)."""
    rgb = [int(hex_colour[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(v + (255 - v) * amount):02x}" for v in rgb)


BROAD_PEER_COLOURS = {"Bullet dbvt build": "#08535e", "Bullet dbvt update": "#17becf",
                      "Bullet sweep3 build": "#5b3a7a", "Bullet sweep3 update": "#9467bd"}


def broad_colour(label):
    if label in BROAD_PEER_COLOURS:
        return BROAD_PEER_COLOURS[label]
    backend, threads = label.split("/")
    base = COLOURS.get(backend, "#000000")
    return base if threads == "threads:1" else shade(base, 0.5)


def broad_chart(png, name, scenes, columns, rows):
    gp = shutil.which("gnuplot")
    if gp is None:
        print("plot.py: gnuplot not found, no broadphase chart", file=sys.stderr)
        return False
    values = [r["ms"] for r in rows.values() if r["ms"] > 0]
    if not values:
        return False
    ymin = 10 ** math.floor(math.log10(min(values)))
    ymax = 10 ** math.ceil(math.log10(max(values)))
    with tempfile.TemporaryDirectory() as tmp:
        dat = os.path.join(tmp, "broad.dat")
        with open(dat, "w") as f:
            f.write("scene " + " ".join(f'"{c}"' for c in columns) + "\n")
            for sc in scenes:
                vals = [broad_ms(rows, sc, c) for c in columns]
                f.write(f'"{sc} boxes" ' + " ".join(f"{v:.6g}" if v else "?" for v in vals) + "\n")
        colours = " ".join(broad_colour(c) for c in columns)
        script = [
            "set terminal pngcairo size 1400,560 font 'sans,11'",
            f"set output '{png}'",
            f"set title 'gjkbatch broadphase: {name}  (time per call, log scale; lower is better)'",
            *HISTOGRAM_STYLE,
            f"set yrange [{ymin}:{ymax}]",
            "set ylabel 'ms per call'",
            "set format y '10^{%L}'",
            "set grid ytics mytics",
            "set key outside right top vertical",
            "set rmargin at screen 0.80",
            "set xtics nomirror",
            f"colours = '{colours}'",
            f"plot for [i=2:{len(columns) + 1}] '{dat}' using i:xtic(1) "
            "title columnheader(i) lc rgb word(colours, i - 1)",
        ]
        subprocess.run([gp], input="\n".join(script) + "\n", text=True, check=True)
    return True


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    path = sys.argv[1]
    base, _ = os.path.splitext(path)
    name = os.path.basename(base)
    context, workloads, columns, rows = load(path)
    scenes, broad_columns, broad_rows = load_broad(path)
    if not rows and not broad_rows:
        print(f"plot.py: no benchmark results in {path}", file=sys.stderr)
        return 1
    text = markdown(name, context, workloads, columns, rows) if rows else "\n".join(header(name, context))
    if broad_rows:
        text += "\n".join([""] + broad_markdown(context, scenes, broad_columns, broad_rows))
    with open(base + ".md", "w") as f:
        f.write(text)
    wrote = [base + ".md"]
    if rows and gnuplot_chart(base + ".png", name, workloads, columns, rows):
        wrote.append(base + ".png")
    if broad_rows and broad_chart(base + "-broad.png", name, scenes, broad_columns, broad_rows):
        wrote.append(base + "-broad.png")
    print("plot.py: wrote " + ", ".join(wrote), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

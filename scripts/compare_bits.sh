#!/usr/bin/env bash
# compare_bits.sh LABEL=FILE [LABEL=FILE...] - compares bits_hash outputs
# (tests/bits_hash.c), one file per architecture (LABEL names it: x86,
# aarch64). Fails, listing every difference, when
#   - within one file, two wide backends (all but reference) hash a
#     (mode, workload) differently;
#   - across files, a (mode, workload)'s wide hash, its reference hash or
#     its input hash differs, or a file lacks a (mode, workload) another has.
# The reference backend computes in double, its own way: it is compared only
# with itself on the other architecture. No hash is expected in advance.
set -euo pipefail
if [ $# -lt 1 ]; then
  echo "usage: compare_bits.sh LABEL=FILE [LABEL=FILE...]" >&2
  exit 2
fi
for spec in "$@"; do
  file=${spec#*=}
  if [ "$spec" = "$file" ] || [ ! -s "$file" ]; then
    echo "compare_bits.sh: '$spec' is not LABEL=FILE of a non-empty file" >&2
    exit 2
  fi
done
# Each line MODE WORKLOAD BACKEND HASH, prefixed with its file's label,
# becomes per (mode, workload) a class (wide, reference or input) and a
# hash per label.
for spec in "$@"; do
  label=${spec%%=*}
  echo "$label @"
  grep -v '^#' "${spec#*=}" | sed "s/^/$label /"
done | awk '
  $2 == "@" { label = $1; labels[++nl] = label; next }
  NF != 5 { printf "%s: not MODE WORKLOAD BACKEND HASH: %s\n", label, $0; bad++; next }
  {
    $1 = ""; $0 = substr($0, 2)
    key = $1 " " $2; cls = $1 == "input" ? "input" : $3 == "reference" ? "reference" : "wide"
    keys[key] = 1; lines++
    id = key SUBSEP cls SUBSEP label
    if (cls == "wide" && (id in first) && first[id] != $4) {
      printf "%s: %s: %s gives %s, %s gave %s\n", label, key, $3, $4, who[id], first[id]; bad++
    }
    if (!(id in first)) { first[id] = $4; who[id] = $3 }
    seen[key SUBSEP label] = 1
  }
  END {
    if (lines == 0) { print "no hash lines"; exit 1 }
    for (key in keys)
      for (i = 1; i <= nl; i++) {
        if (!((key SUBSEP labels[i]) in seen)) { printf "%s: %s missing\n", labels[i], key; bad++; continue }
        for (c = 0; c < 3; c++) {
          cls = c == 0 ? "wide" : c == 1 ? "reference" : "input"
          a = key SUBSEP cls SUBSEP labels[1]; b = key SUBSEP cls SUBSEP labels[i]
          if (i > 1 && (a in first) && (b in first) && first[a] != first[b]) {
            printf "%s: %s hash %s on %s (%s), %s on %s (%s)\n", key, cls, first[a], labels[1], who[a],
                   first[b], labels[i], who[b]; bad++
          }
        }
      }
    n = 0; for (key in keys) n++
    if (bad) { printf "compare_bits.sh: %d differences\n", bad; exit 1 }
    printf "compare_bits.sh: %d (mode, workload) hashes agree across the backends on", n
    for (i = 1; i <= nl; i++) printf "%s %s", i == 1 ? "" : (i == nl ? " and" : ","), labels[i]
    print ""
  }
'

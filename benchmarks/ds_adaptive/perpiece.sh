#!/bin/bash
# Per-piece cost of tiny pieces, warm cache, 1 rank: ads_bench under this
# build's library and under another (OLD_LIB: a directory holding the other
# build's libmpi.so.12), processes interleaved new, old, new, old...; inside
# each process the variants are interleaved per cell.
#   XT_PREFIX=... OLD_LIB=dir perpiece.sh OUT.txt [ads_bench args]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=$1; shift
work=$(mktemp -d)
"$XT_PREFIX/bin/mpicc" -O2 -Wall -o "$work/ads_bench" "$here/ads_bench.c"
: > "$out"
for round in 1 2 3; do
    for lib in new old; do
        [ "$lib" = old ] && [ -z "${OLD_LIB:-}" ] && continue
        ( [ "$lib" = old ] && export LD_LIBRARY_PATH=$OLD_LIB
          "$XT_PREFIX/bin/mpiexec" -n 1 "$work/ads_bench" --dir "$work" "$@" ) |
            sed "s/^RESULT /RESULT lib=$lib round=$round /" >> "$out"
    done
done
rm -rf "$work"
/usr/bin/python3 "$here/perpiece_report.py" "$out"

#!/bin/sh
# NVM write-behind benchmark: coll_perf-like and IOR-like (nvc_bench.c) and
# Flash-IO-like (flashio.c, Debian's parallel HDF5 on our libmpi), cache off
# vs e10_cache=enable, compute 0 and 1 s, 2 ranks.  Global files on disk
# ($XT_BENCH_WORK, default $XT_BUILDDIR/bench-out/work), cache on /dev/shm.
# Output: $XT_BUILDDIR/bench-out/nvm_cache/{nvc-*.csv,png,md, summary.md,
# breakdown.png}.  NVC_REPS (default 3) repetitions.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
XT_PREFIX=${XT_PREFIX:-/tmp/xtb/install}
XT_BUILDDIR=${XT_BUILDDIR:-$(pwd)}
out=$XT_BUILDDIR/bench-out/nvm_cache
work=${XT_BENCH_WORK:-$XT_BUILDDIR/bench-out/work}
py=/usr/bin/python3
export NVC_CACHE_DIR=/dev/shm/romio-xt-nvc-bench.$$
mkdir -p "$out" "$work" "$NVC_CACHE_DIR"
trap 'rm -rf "$NVC_CACHE_DIR"' EXIT
h5pcc.mpich -shlib -O2 -o "$out/flashio" "$here/flashio.c"
export NVC_FLASHIO=$out/flashio
for w in collperf-ior flashio; do
    NVC_BENCH_WORKLOAD=$w "$py" "$here/../harness.py" --config "$here/nvc.py" \
        --prefix "$XT_PREFIX" --out "$out" --work "$work"
done
left=$(ls "$NVC_CACHE_DIR" | wc -l)
[ "$left" -eq 0 ] || { echo "run.sh: $left cache files left in $NVC_CACHE_DIR" >&2; exit 1; }
"$py" "$here/analyze.py" "$out/summary.md" "$out/breakdown.png" "$out"/nvc-*.csv

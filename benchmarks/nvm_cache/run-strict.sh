#!/bin/sh
# What e10_cache=strict costs on the checkpoint benchmark (strict.py): output
# in $XT_BUILDDIR/bench-out/nvm_cache/strict/ (csv, png, md).  NVC_REPS reps.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
XT_PREFIX=${XT_PREFIX:-/tmp/xtb/install}
XT_BUILDDIR=${XT_BUILDDIR:-$(pwd)}
out=$XT_BUILDDIR/bench-out/nvm_cache/strict
work=${XT_BENCH_WORK:-$XT_BUILDDIR/bench-out/work}
export NVC_CACHE_DIR=/dev/shm/romio-xt-nvc-strict.$$ NVC_BENCH_WORKLOAD=collperf-ior
mkdir -p "$out" "$work" "$NVC_CACHE_DIR"
trap 'rm -rf "$NVC_CACHE_DIR"' EXIT
/usr/bin/python3 "$here/../harness.py" --config "$here/strict.py" --prefix "$XT_PREFIX" \
    --out "$out" --work "$work"

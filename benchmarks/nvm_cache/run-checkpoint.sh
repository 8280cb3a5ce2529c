#!/bin/sh
# The E10 checkpoint workflow (checkpoint.py): cache off vs e10_cache=enable,
# global files on $XT_BENCH_WORK (default $XT_BUILDDIR/bench-out/work, a local
# disk), cache on /dev/shm.  Output: $XT_BUILDDIR/bench-out/nvm_cache-checkpoint/
# (nvc-checkpoint.csv, .md) and checkpoint-summary.md (checkpoint_summary.py).
# NVC_REPS repetitions (default 3).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
XT_PREFIX=${XT_PREFIX:-/tmp/xtb/install}
XT_BUILDDIR=${XT_BUILDDIR:-$(pwd)}
out=$XT_BUILDDIR/bench-out/nvm_cache-checkpoint
work=${XT_BENCH_WORK:-$XT_BUILDDIR/bench-out/work}
export NVC_CACHE_DIR=/dev/shm/romio-xt-nvc-ckpt.$$
mkdir -p "$out" "$work" "$NVC_CACHE_DIR"
trap 'rm -rf "$NVC_CACHE_DIR"' EXIT
/usr/bin/python3 "$here/../harness.py" --config "$here/checkpoint.py" --prefix "$XT_PREFIX" \
    --out "$out" --work "$work"
/usr/bin/python3 "$here/checkpoint_summary.py" "$out/nvc-checkpoint.csv" | tee "$out/checkpoint-summary.md"

#!/bin/bash
# Orthrus Matrix benchmark (seed section 3.2) through the harness: 2 ranks on
# 2 emulated nodes, block size swept, each candidate forced vs enable vs stock.
# Env: XT_PREFIX XT_BUILDDIR.  Output: $XT_BUILDDIR/bench-out/orthrus/.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=$XT_BUILDDIR/bench-out/orthrus
mkdir -p "$out"
/usr/bin/python3 "$here/../harness.py" --config "$here/matrix.json" --prefix "$XT_PREFIX" \
    --out "$out" --work "${XT_BENCH_WORK:-$XT_BUILDDIR/bench-work}" "$@"

#!/bin/sh
# Adaptive data sieving benchmark: timings (no stats layer), then request and
# byte counts (stats on), all variants interleaved per cell; then heatmaps and
# the targets.
#   XT_PREFIX XT_BUILDDIR [XT_BENCH_WORK]; output in $XT_BUILDDIR/bench-out/ds_adaptive/
set -eu
here=$(cd "$(dirname "$0")" && pwd)
XT_PREFIX=${XT_PREFIX:-/tmp/xtb/install}
XT_BUILDDIR=${XT_BUILDDIR:-$(pwd)}
out=$XT_BUILDDIR/bench-out/ds_adaptive
work=${XT_BENCH_WORK:-$XT_BUILDDIR/bench-out/work}
py=/usr/bin/python3
mkdir -p "$out" "$work"
"$py" "$here/../harness.py" --config "$here/ads.json" --prefix "$XT_PREFIX" --out "$out" --work "$work"
"$py" "$here/ads_report.py" "$out/ads.csv" "$out"

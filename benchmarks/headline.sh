#!/bin/sh
# romio-xt headline benchmark: the real clients (FLASH-IO 16^3 and ROMIO's
# coll_perf, benchmarks/apps/apps.py) stock vs each extension vs all at once,
# then xt_bench under stock ROMIO, with the stats
# layer and with each feature on (adaptive sieving, prefetch, NVM write-behind
# with the cache on /dev/shm), 2 ranks, 3 reps.  Writes headline.csv/.png/.md to
# $XT_BUILDDIR/bench-out/headline/ and prints the markdown table.
#   XT_PREFIX    MPICH install prefix (default /tmp/xtb/install)
#   XT_BUILDDIR  output root (default: the current directory)
#   XT_IOR       an IOR install to run as well (configure --with-ior=DIR)
#   XT_BENCH_WORK  where the workload's files go (default $XT_BUILDDIR/bench-out/work)
#   PYTHON3      python with matplotlib (default: the first python3 that has it)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
XT_PREFIX=${XT_PREFIX:-/tmp/xtb/install}
XT_BUILDDIR=${XT_BUILDDIR:-$(pwd)}
out=$XT_BUILDDIR/bench-out/headline

pick_python() {
    for py in ${PYTHON3:-} python3 /usr/bin/python3; do
        if "$py" -c 'import matplotlib' 2>/dev/null; then echo "$py"; return; fi
    done
    echo python3    # the harness runs without matplotlib, only the plot is skipped
}

for tool in mpicc mpiexec; do
    test -x "$XT_PREFIX/bin/$tool" || { echo "headline.sh: no $XT_PREFIX/bin/$tool (make install first)" >&2; exit 1; }
done
mkdir -p "$out"
py=$(pick_python)
# the real clients first (benchmarks/apps/apps.py: FLASH-IO 16^3, coll_perf,
# IOR when XT_IOR names an install): apps.csv/.png/.md in the same directory
apps_rc=0
"$py" "$here/apps/apps.py" --prefix "$XT_PREFIX" --apps "$XT_BUILDDIR/_build/apps" \
    --out "$out" --work "${XT_BENCH_WORK:-$XT_BUILDDIR/bench-out/work}" \
    ${XT_IOR:+--ior "$XT_IOR"} || apps_rc=$?
"$py" "$here/harness.py" --config "$here/headline.json" \
    --prefix "$XT_PREFIX" --out "$out" --work "${XT_BENCH_WORK:-$XT_BUILDDIR/bench-out/work}"
exit $apps_rc

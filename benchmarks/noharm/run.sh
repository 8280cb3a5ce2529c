#!/bin/sh
# make bench-noharm: the no-harm grid (benchmarks/noharm/run.py) against the
# install in XT_PREFIX; output in $XT_BUILDDIR/bench-out/noharm/
# (noharm.csv, noharm-summary.csv, noharm.md, noharm.png, logs/).
#   NOHARM_GRID=big   5 reps, 4x the data, coll_perf and FLASH-IO when built
#   NOHARM_ARGS       more run.py arguments (--only stock,prefetch --reps 5 ...)
#   XT_BENCH_WORK     scratch directory for the files (default bench-out/noharm-work)
#   NOHARM_SOCK_PREFIX  a romio-xt install built with ch3:sock (second clone,
#                     ./configure --prefix=DIR --with-mpich-configure="--with-device=ch3:sock
#                     --enable-fortran=all --disable-f08 --disable-cxx
#                     FFLAGS=-fallow-argument-mismatch FCFLAGS=-fallow-argument-mismatch"
#                     && make install): adds 4-rank cells (FLASH-IO's need the Fortran
#                     bindings; without them they are skipped)
#   NOHARM_UNPATCHED_PREFIX  an unpatched MPICH 4.0.2 with the same configure
#                     arguments: adds the column `unpatched` (the no-hint overhead)
#   NOHARM_UNPATCHED_SOCK_PREFIX  the same built with ch3:sock: `unpatched` in
#                     the 4-rank cells too
set -eu
here=$(cd "$(dirname "$0")" && pwd)
XT_PREFIX=${XT_PREFIX:-/tmp/xtb/install}
XT_BUILDDIR=${XT_BUILDDIR:-$(pwd)}
py=python3
for c in ${PYTHON3:-} python3 /usr/bin/python3; do
    if "$c" -c 'import matplotlib' 2>/dev/null; then py=$c; break; fi
done
start=$(date +%s)
# shellcheck disable=SC2086
"$py" "$here/run.py" --prefix "$XT_PREFIX" --out "$XT_BUILDDIR/bench-out/noharm" \
    --work "${XT_BENCH_WORK:-$XT_BUILDDIR/bench-out/noharm-work}" \
    --apps "$XT_BUILDDIR/_build/apps" ${NOHARM_ARGS:-}
echo "bench-noharm: $(( $(date +%s) - start )) s; $XT_BUILDDIR/bench-out/noharm/noharm.md"

#!/bin/bash
# Where e10_cache's sync threads run (romio_xt_helper_cpus): the checkpoint
# workflow (nvc_bench --pattern ior) with a compute phase of arithmetic
# (--busy 1), NP processes bound one hardware thread each (mpiexec -bind-to
# hwthread), cache off (stock), sync threads on the processes' own cores
# (inherit) and on the cores the processes leave idle (auto), interleaved.
# Needs more cores than NP (a 16-core machine: NP=8).  Then the open's cost:
# 30 opens of a 4 KiB file per config.
# usage: run-helper-cpus.sh OUTDIR [NP SEG BLOCK FILES COMPUTE REPS]
# Env: XT_PREFIX (install), XT_BENCH_WORK (global files, default /tmp/xtglob),
# cache in /dev/shm.  Output: OUTDIR/helper-cpus.csv, open-cost.csv,
# helper-cpus.md and .png (helper_cpus.py).
set -u
out=$1 NP=${2:-8} SEG=${3:-8} BLOCK=${4:-33554432} FILES=${5:-3} COMP=${6:-1.0} REPS=${7:-5}
here=$(cd "$(dirname "$0")" && pwd)
P=${XT_PREFIX:?set XT_PREFIX}
G=${XT_BENCH_WORK:-/tmp/xtglob} C=/dev/shm/romio-xt-helper.$$
mkdir -p "$out" "$G" "$C"
trap 'rm -rf "$C"' EXIT
bench=$out/nvc_bench
"$P/bin/mpicc" -O2 -o "$bench" "$here/nvc_bench.c" || exit 1
printf 'romio_ds_write disable\n' > "$out/h-stock"
for c in inherit auto; do
    printf 'romio_ds_write disable\ne10_cache enable\ne10_cache_path %s\nromio_xt_helper_cpus %s\n' \
        "$C" "$c" > "$out/h-$c"
done
csv_rows() {  # REP CONFIG < RESULT lines
    sed -nE "s/.*iter=([0-9]+).* write=([0-9.]+) sync=([0-9.]+) close=([0-9.]+) seconds=([0-9.]+) .* job=([0-9.]+) .*/$1,$2,\1,\2,\3,\4,\5,\6/p"
}
run() {  # CONFIG ARGS...
    local c=$1; shift
    ROMIO_HINTS=$out/h-$c timeout 300 "$P/bin/mpiexec" -n "$NP" -bind-to hwthread "$bench" \
        --dir "$G" --pattern ior "$@"
}
head="rep,config,file,write,sync,close,seconds,job"
echo "$head" > "$out/helper-cpus.csv"
for r in $(seq "$REPS"); do
    for c in stock inherit auto; do
        rm -f "$G"/ior.*.dat "$C"/*; sync
        run $c --files "$FILES" --compute "$COMP" --busy 1 --segments "$SEG" --block "$BLOCK" |
            csv_rows "$r" "$c" >> "$out/helper-cpus.csv"
    done
done
echo "$head" > "$out/open-cost.csv"
for r in 1 2 3; do
    for c in inherit auto; do
        run $c --files 30 --compute 0 --segments 1 --block 4096 | csv_rows "$r" "$c" >> "$out/open-cost.csv"
    done
done
/usr/bin/python3 "$here/helper_cpus.py" "$out" "$NP" | tee "$out/helper-cpus.md"

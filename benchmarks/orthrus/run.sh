#!/bin/bash
# Orthrus sweeps through the harness: 2 ranks on 2 emulated nodes, each
# candidate forced vs enable vs stock, write then cold read.
#   matrix    (seed section 3.2): block size swept, matrix.json
#   matrix-depth: access depth swept at 64 KiB blocks, matrix-depth.json
#   matrix-4m: 4 MiB blocks, depth 1, 40 calls, matrix-4m.json
#   noncontig (seed section 3.3): elmtcount swept, noncontig.json
#   rounds: issue 15's rounds benchmark (rounds-*.json, every candidate and
#     enable vs stock; XT_BENCH_WORK picks the storage, e.g. /dev/shm/x),
#     summary rounds_summary.py -> orthrus-rounds.{md,csv,png}
#   short: jobs of tens of calls: matrix-40.json (Matrix, 40 calls, every
#     candidate forced, enable, stock) and contig.json (IOR-like contiguous
#     collective calls: stock, romio_cb_write/read disable and enable, forced
#     independent, enable); XT_BENCH_WORK picks the storage (e.g. /dev/shm/x),
#     summary short_summary.py -> orthrus-short.md
# usage: run.sh [matrix|matrix-depth|matrix-4m|noncontig|rounds|short|all] [harness options, e.g. --reps 5]
# Env: XT_PREFIX XT_BUILDDIR.  Output: $XT_BUILDDIR/bench-out/orthrus/
# (orthrus-<bench>.{csv,md} from the harness, orthrus-<bench>-targets.md and
# orthrus-<bench>-sweep.png from summary.py).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=$XT_BUILDDIR/bench-out/orthrus
which=${1:-all}
[ $# -gt 0 ] && shift
case $which in
    all) benches="matrix matrix-depth matrix-4m noncontig" ;;
    matrix|matrix-depth|matrix-4m|noncontig) benches=$which ;;
    short)
        work=${XT_BENCH_WORK:-$XT_BUILDDIR/bench-work}
        mkdir -p "$out" "$work"
        for b in matrix-40 contig; do
            /usr/bin/python3 "$here/../harness.py" --config "$here/$b.json" \
                --prefix "$XT_PREFIX" --out "$out" --work "$work" "$@"
        done
        /usr/bin/python3 "$here/short_summary.py" --matrix "$out/orthrus-matrix-40.csv" \
            --contig "$out/orthrus-contig.csv" | tee "$out/orthrus-short.md"
        exit 0 ;;
    rounds)
        work=${XT_BENCH_WORK:-$XT_BUILDDIR/bench-work}
        mkdir -p "$out" "$work"
        for b in rounds-matrix rounds-noncontig rounds-matrix-long; do
            /usr/bin/python3 "$here/../harness.py" --config "$here/$b.json" \
                --prefix "$XT_PREFIX" --out "$out" --work "$work" "$@"
        done
        /usr/bin/python3 "$here/rounds_summary.py" "$(basename "$work")=$out/orthrus-rounds-matrix.csv" \
            "$(basename "$work")=$out/orthrus-rounds-noncontig.csv" \
            "$(basename "$work")=$out/orthrus-rounds-matrix-long.csv" \
            --csv "$out/orthrus-rounds.csv" --plot "$out/orthrus-rounds.png" | tee "$out/orthrus-rounds.md"
        exit 0 ;;
    *) echo "usage: run.sh [matrix|matrix-depth|matrix-4m|noncontig|rounds|short|all] [harness options]" >&2
       exit 2 ;;
esac
work=${XT_BENCH_WORK:-$XT_BUILDDIR/bench-work}
mkdir -p "$out" "$work"
# enable_table's winners are saved across the reps of one sweep, not across sweeps
rm -f "$work"/orthrus-table-*.txt
for b in $benches; do
    /usr/bin/python3 "$here/../harness.py" --config "$here/$b.json" --prefix "$XT_PREFIX" \
        --out "$out" --work "$work" "$@"
    /usr/bin/python3 "$here/summary.py" "$out/orthrus-$b.csv" \
        --plot "$out/orthrus-$b-sweep.png" | tee "$out/orthrus-$b-targets.md"
done

#!/bin/bash
# Orthrus benchmarks through the harness: 2 ranks on 2 emulated nodes
# (MPIR_CVAR_NUM_CLIQUES=2), each candidate forced vs enable vs stock, write
# then cold read; tables by report.py (benchmarks/xtbench.py underneath).
#   matrix        (the paper's section 3.2): block size swept, matrix.json
#   matrix-depth  access depth swept at 64 KiB blocks, matrix-depth.json
#   matrix-4m     4 MiB blocks, depth 1, 40 calls, matrix-4m.json
#   noncontig     (the paper's section 3.3): elmtcount swept, noncontig.json
#   all           the four above (default)
#   rounds        the rounds benchmark (rounds-*.json: every candidate and
#                 enable vs stock; XT_BENCH_WORK picks the storage, e.g. /dev/shm/x)
#                 -> orthrus-rounds.{md,csv,png}
#   short         jobs of tens of calls: matrix-40.json (Matrix, 40 calls, every
#                 candidate forced, enable, stock) and contig.json (IOR-like
#                 contiguous collective calls: stock, romio_cb_write/read
#                 disable and enable, forced independent, enable)
#                 -> orthrus-short.md (short_summary.py)
#   vb            view_based against the other candidates (btio.json,
#                 btio-np4.json, vb-matrix.json, vb-noncontig.json) -> orthrus-view-based.{md,png}
#   dynamic       the dynamic run (the paper's section 3.5, Fig. 6; dynamic.py):
#                 a probe of which interference changes the candidates' ranking,
#                 then each candidate forced and enable with interference from
#                 call DYN_MARK on -> dynamic/{probe.*,orthrus-dynamic.*}
#                 Env: DYN_MODE (spawn), DYN_REPS (5; the probe runs 3), DYN_CALLS
#                 (200), DYN_MARK (60), DYN_PROBE=0 skips the probe; extra
#                 arguments go to dynamic.py (e.g. --op read --block 8192 --depth 128)
# usage: run.sh [matrix|matrix-depth|matrix-4m|noncontig|all|rounds|short|vb|dynamic] [options]
# (options: harness options, e.g. --reps 5; for dynamic: dynamic.py options)
# Env: XT_PREFIX XT_BUILDDIR [XT_BENCH_WORK].  Output: $XT_BUILDDIR/bench-out/orthrus/
# (orthrus-<bench>.{csv,md} from the harness, orthrus-<bench>-targets.md and
# orthrus-<bench>-sweep.png from report.py targets).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
XT_PREFIX=${XT_PREFIX:-/tmp/xtb/install}
XT_BUILDDIR=${XT_BUILDDIR:-$(pwd)}
out=$XT_BUILDDIR/bench-out/orthrus
work=${XT_BENCH_WORK:-$XT_BUILDDIR/bench-work}
py=python3      # the plots need matplotlib (Debian's python3-matplotlib)
for p in ${PYTHON3:-} /usr/bin/python3; do
    "$p" -c 'import matplotlib' 2>/dev/null && { py=$p; break; }
done
which=${1:-all}
[ $# -gt 0 ] && shift
harness() {     # CONFIG-NAME [harness options]
    local b=$1; shift
    "$py" "$here/../harness.py" --config "$here/$b.json" --prefix "$XT_PREFIX" \
        --out "$out" --work "$work" "$@"
}
mkdir -p "$out" "$work"
case $which in
    all) benches="matrix matrix-depth matrix-4m noncontig" ;;
    matrix|matrix-depth|matrix-4m|noncontig) benches=$which ;;
    rounds)
        label=$(basename "$work")
        for b in rounds-matrix rounds-noncontig rounds-matrix-long; do
            harness "$b" "$@"
        done
        "$py" "$here/report.py" rounds "$label=$out/orthrus-rounds-matrix.csv" \
            "$label=$out/orthrus-rounds-noncontig.csv" \
            "$label=$out/orthrus-rounds-matrix-long.csv" \
            --csv "$out/orthrus-rounds.csv" --plot "$out/orthrus-rounds.png" |
            tee "$out/orthrus-rounds.md"
        exit 0 ;;
    short)
        for b in matrix-40 contig; do
            harness "$b" "$@"
        done
        "$py" "$here/short_summary.py" --matrix "$out/orthrus-matrix-40.csv" \
            --contig "$out/orthrus-contig.csv" | tee "$out/orthrus-short.md"
        exit 0 ;;
    vb)
        for b in btio btio-np4 vb-matrix vb-noncontig; do
            harness "$b" "$@"
        done
        "$py" "$here/report.py" vb "$out/orthrus-btio.csv" "$out/orthrus-btio-np4.csv" \
            "$out/orthrus-vb-matrix.csv" \
            "$out/orthrus-vb-noncontig.csv" --plot "$out/orthrus-view-based.png" |
            tee "$out/orthrus-view-based.md"
        exit 0 ;;
    dynamic)
        dout=$out/dynamic
        common=(--prefix "$XT_PREFIX" --out "$dout" --reps "${DYN_REPS:-5}"
                --calls "${DYN_CALLS:-200}" --mark "${DYN_MARK:-60}" --mode "${DYN_MODE:-spawn}")
        if [ "${DYN_PROBE:-1}" != 0 ]; then
            "$py" "$here/dynamic.py" probe "${common[@]}" --reps 3 --calls 90 "$@"
        fi
        "$py" "$here/dynamic.py" run "${common[@]}" "$@"
        "$py" "$here/dynamic.py" report "${common[@]}" "$@"
        exit 0 ;;
    *) echo "usage: run.sh [matrix|matrix-depth|matrix-4m|noncontig|all|rounds|vb|dynamic] [options]" >&2
       exit 2 ;;
esac
# enable_table's winners are saved across the reps of one sweep, not across sweeps
rm -f "$work"/orthrus-table-*.txt
for b in $benches; do
    harness "$b" "$@"
    "$py" "$here/report.py" targets "$out/orthrus-$b.csv" \
        --plot "$out/orthrus-$b-sweep.png" | tee "$out/orthrus-$b-targets.md"
done

#!/bin/bash
# Orthrus's >= 30-call targets, interleaved run by run: Matrix 1 MiB (depth 4)
# and Noncontig 16 (4 MiB calls), 2 ranks on 2 emulated nodes, write then
# cold read, at 30 and 100 calls: stock, enable, enable on a second library
# (BEFORE_LIB: its lib directory, e.g. a copy of main's install/lib) and, at
# 30 calls, each candidate forced (the steady-state reference).  Each run
# holds /work/bench.lock (or $BENCH_LOCK) alone, so runs of other benchmarks
# interleave between them.
# usage: predict.sh REPS [OUT.csv]   Env: XT_PREFIX XT_BUILDDIR [BEFORE_LIB] [XT_BENCH_WORK]
# CSV: rep,workload,calls,config,phase,seconds,MBps,runs (rank 0's stats: tp/cf/df/vb)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
reps=${1:-5}
out=${2:-$XT_BUILDDIR/bench-out/orthrus/predict.csv}
work=${XT_BENCH_WORK:-$XT_BUILDDIR/bench-work}/predict
lock=${BENCH_LOCK:-/work/bench.lock}
mkdir -p "$work" "$(dirname "$out")"
for w in matrix noncontig; do
    "$XT_PREFIX/bin/mpicc" -O2 -o "$work/$w" "$here/$w.c"
done
hints() {   # config -> hints file
    local f=$work/$1.hints
    case $1 in
        stock) : > "$f" ;;
        enable|before) printf 'romio_orthrus enable\nromio_xt_stats enable\n' > "$f" ;;
        *) printf 'romio_orthrus_force %s\nromio_xt_stats enable\n' "$1" > "$f" ;;
    esac
    echo "$f"
}
one() {     # rep workload calls config
    local args lib=$XT_PREFIX/lib
    case $2 in
        matrix1m) args="matrix $work 1048576 4 $3 12" ;;
        noncontig16) args="noncontig $work 16 4194304 $3 12" ;;
    esac
    [ "$4" = before ] && lib=$BEFORE_LIB
    rm -f "$work/stats.json"
    flock "$lock" env LD_LIBRARY_PATH="$lib" ROMIO_HINTS="$(hints "$4")" MPIR_CVAR_NUM_CLIQUES=2 \
        ROMIO_XT_STATS_FILE="$work/stats.json" timeout 600 "$XT_PREFIX/bin/mpiexec" -n 2 \
        "$work/${args%% *}" ${args#* } > "$work/run.out" 2>&1 || { cat "$work/run.out" >&2; return 1; }
    python3 - "$1" "$2" "$3" "$4" "$work/run.out" "$work/stats.json" >> "$out" <<'PY'
import json, os, re, sys
rep, wl, calls, cfg, res, stats = sys.argv[1:]
runs = {}
if os.path.exists(stats):
    secs = [o for o in (json.loads(l).get("features", {}).get("orthrus")
                        for l in open(stats) if l.strip()) if o]
    for op, o in zip(("write", "read"), secs):    # the files in open order
        runs[op] = "/".join(str(o["runs"][c]) for c in
                            ("two_phase", "core_first", "disk_first", "view_based"))
for line in open(res):
    m = re.match(r"RESULT phase=(\S+) bytes=\d+ seconds=(\S+) MBps=(\S+)", line)
    if m:
        ph = m.group(1)
        print(f"{rep},{wl},{calls},{cfg},{ph},{m.group(2)},{m.group(3)},"
              f"{runs.get(ph.split('_')[0], '')}")
PY
}
[ -s "$out" ] || echo "rep,workload,calls,config,phase,seconds,MBps,runs" > "$out"
for rep in $(seq 1 "$reps"); do
    for wl in noncontig16 matrix1m; do
        for calls in 30 100; do
            cfgs="stock enable"
            [ -n "${BEFORE_LIB:-}" ] && cfgs="stock before enable"
            [ "$calls" = 30 ] && cfgs="$cfgs two_phase core_first disk_first view_based"
            for cfg in $cfgs; do
                one "$rep" "$wl" "$calls" "$cfg"
            done
        done
    done
done
echo "wrote $out"

#!/bin/bash
# What romio_xt_numa_place costs (docs/numa.md): e10_cache writes (nvc_bench
# --pattern ior, 2 processes, 4 files of 32 MiB, cache in /dev/shm) and
# prefetch buffer reads (pf_root, 1 reader, 256 MiB dropped from the page
# cache first), the hint disable and enable interleaved, REPS runs each.
# Output: OUTDIR/numa.csv (rep,bench,hint,seconds) and OUTDIR/numa.md
# (median and min-max per bench and hint; enable / disable paired by rep).
# usage: run.sh OUTDIR [REPS]
# Env: XT_PREFIX (install), XT_BENCH_WORK (files, default /tmp/xtnuma)
set -u
out=$1 REPS=${2:-7}
here=$(cd "$(dirname "$0")/.." && pwd)
P=${XT_PREFIX:?set XT_PREFIX}
W=${XT_BENCH_WORK:-/tmp/xtnuma} C=/dev/shm/romio-xt-numa.$$
mkdir -p "$out" "$W/g" "$W/d" "$C"
trap 'rm -rf "$C"' EXIT
"$P/bin/mpicc" -O2 -o "$out/nvc_bench" "$here/nvm_cache/nvc_bench.c" || exit 1
"$P/bin/mpicc" -O2 -o "$out/pf_root" "$here/prefetch/pf_root.c" || exit 1
MiB=1048576
[ -s "$W/d/root.0" ] || "$out/pf_root" --create "$W/d/root.0" $((256 * MiB)) || exit 1
for h in disable enable; do
    printf 'e10_cache enable\ne10_cache_path %s\nromio_ds_write disable\nromio_xt_numa_place %s\n' \
        "$C" "$h" > "$out/h-e10-$h"
    printf 'romio_prefetch enable\nromio_prefetch_method buffer\nromio_xt_numa_place %s\n' \
        "$h" > "$out/h-pf-$h"
done
e10() {  # HINT: the job's seconds (each file's slowest rank, summed over the files)
    rm -f "$W"/g/* "$C"/*
    ROMIO_HINTS=$out/h-e10-$1 timeout 300 "$P/bin/mpiexec" -n 2 "$out/nvc_bench" --dir "$W/g" \
        --pattern ior --files 4 --segments 4 --block $((4 * MiB)) |
        sed -nE 's/.* job=([0-9.]+) .*/\1/p' | awk '{ s += $1 } END { if (NR) printf "%.6f\n", s }'
}
pf() {  # HINT: the reader's seconds
    ROMIO_HINTS=$out/h-pf-$1 timeout 300 "$P/bin/mpiexec" -n 1 "$out/pf_root" --data "$W/d" \
        --bytes $((256 * MiB)) | sed -nE 's/.* seconds=([0-9.]+) .*/\1/p'
}
echo "rep,bench,hint,seconds" > "$out/numa.csv"
for r in $(seq "$REPS"); do
    for b in e10 pf; do
        for h in disable enable; do
            s=$($b $h)
            [ -n "$s" ] || { echo "run.sh: $b $h failed" >&2; exit 1; }
            echo "$r,$b,$h,$s" | tee -a "$out/numa.csv"
        done
    done
done
python3 - "$out/numa.csv" > "$out/numa.md" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print("| bench | hint | runs | median s | min-max s | enable / disable, paired by rep: median [min-max] |")
print("|---|---|---|---|---|---|")
for b in ("e10", "pf"):
    t = {h: {x["rep"]: float(x["seconds"]) for x in rows if x["bench"] == b and x["hint"] == h}
         for h in ("disable", "enable")}
    pair = sorted(t["enable"][r] / t["disable"][r] for r in t["enable"] if r in t["disable"])
    for h in ("disable", "enable"):
        v = list(t[h].values())
        ratio = f"{statistics.median(pair):.3f} [{pair[0]:.3f}-{pair[-1]:.3f}]" if h == "enable" else ""
        print(f"| {b} | {h} | {len(v)} | {statistics.median(v):.4f} | {min(v):.4f}-{max(v):.4f} | {ratio} |")
PY
cat "$out/numa.md"

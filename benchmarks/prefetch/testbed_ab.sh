#!/bin/bash
# The ROOT-like reader (pf_root.c) on one file, configurations interleaved
# per repetition: off (stats only), block (the window of whole blocks:
# romio_prefetch=enable, method buffer, default geometry) and announce
# (buffer, 1 MiB blocks x 32, pf_root --mode announce: the reader announces
# its next reads with MPI_File_set_info).  One line per run, then a summary:
# median (min-max) of the total, the read time, the cut on medians and the
# paired cut (1 - mode/off within each repetition).
#   testbed_ab.sh COMPUTE_US REPS [MODES...]     (default modes: off block announce)
# Env: XT_PREFIX (default ./install), PF_DIR (directory of root.0; default the
# MooseFS testbed's mount: ${XT_TESTBED_DIR:-/tmp/romio-xt-testbed}/mnt/pf),
# PF_BYTES (file size, default 512 MiB), IDLE=1 (compute as a sleep),
# OUT (raw lines, default bench-out/prefetch/testbed_ab.txt).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
C=$1 REPS=$2; shift 2
modes=${*:-off block announce}
P=${XT_PREFIX:-$PWD/install}
D=${PF_DIR:-${XT_TESTBED_DIR:-/tmp/romio-xt-testbed}/mnt/pf}
B=${PF_BYTES:-$((512 << 20))}
OUT=${OUT:-$PWD/bench-out/prefetch/testbed_ab.txt}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$D" "$(dirname "$OUT")"
"$P/bin/mpicc" -O2 -Wall -o "$work/pf_root" "$here/pf_root.c"
"$work/pf_root" --create "$D/root.0" "$B"
printf 'romio_xt_stats enable\n' > "$work/hints.off"
printf 'romio_xt_stats enable\nromio_prefetch enable\nromio_prefetch_method buffer\n' \
    > "$work/hints.block"
printf 'romio_xt_stats enable\nromio_prefetch enable\nromio_prefetch_method buffer\nromio_prefetch_block_size 1m\nromio_prefetch_cache_blocks 32\nromio_prefetch_read_ahead 4\n' \
    > "$work/hints.announce"
: > "$OUT"
for r in $(seq 1 "$REPS"); do
    for mode in $modes; do
        st=$work/st.$mode.json
        rm -f "$st"
        ROMIO_XT_STATS_FILE=$st ROMIO_HINTS=$work/hints.$mode "$P/bin/mpiexec" -n 1 \
            "$work/pf_root" --data "$D" --bytes "$B" --compute-us "$C" --mode "$mode" \
            --seed "$r" ${IDLE:+--idle 1} > "$work/out.txt" 2>&1 ||
            { echo "FAILED $mode" >&2; cat "$work/out.txt" >&2; exit 1; }
        s=$(sed -n 's/.*seconds=\([0-9.]*\) read_seconds=\([0-9.]*\) compute_seconds=\([0-9.]*\) announce_seconds=\([0-9.]*\).*/total=\1 read=\2 compute=\3 announce=\4/p' "$work/out.txt")
        pf=$(python3 - "$st" <<'PY'
import json, sys
keys = ("hits", "misses", "blocks_prefetched", "bytes_from_cache", "bytes_from_fs",
        "waits_for_thread", "loader_threads", "announcements", "window_did_not_pay")
try:
    for line in open(sys.argv[1]):
        j = json.loads(line)
        f = j.get("features", {}).get("prefetch", {})
        print(" ".join(f"{k}={f[k]}" for k in keys if k in f),
              f"fs_read_bytes={j['fs_requests']['read']['bytes']}")
except OSError:
    print("nostats")
PY
)
        echo "$mode c=$C rep=$r $s $pf" | tee -a "$OUT"
    done
done
python3 - "$OUT" <<'PY'
import re, statistics as st, sys
runs = {}
reps = {}
for line in open(sys.argv[1]):
    m = re.match(r"(\S+) c=\d+ rep=(\d+) total=([0-9.]+) read=([0-9.]+)", line)
    if m:
        runs.setdefault(m[1], []).append((float(m[3]), float(m[4])))
        reps.setdefault(int(m[2]), {})[m[1]] = float(m[3])
off = st.median(t for t, _ in runs.get("off", [(float("nan"), 0)]))
print("| mode | total, median (min-max) s | read s (median) | cut on medians | paired cut median (min-max) |")
print("|---|---|---|---|---|")
for mode, v in runs.items():
    t = [x for x, _ in v]
    cut = paired = ""
    if mode != "off":
        cut = f"{100 * (1 - st.median(t) / off):.1f}%"
        p = sorted(1 - r[mode] / r["off"] for r in reps.values() if mode in r and "off" in r)
        if p:
            paired = f"{100 * st.median(p):.1f}% ({100 * p[0]:.1f}-{100 * p[-1]:.1f}%)"
    print(f"| {mode} | {st.median(t):.3f} ({min(t):.3f}-{max(t):.3f}) | "
          f"{st.median(r for _, r in v):.3f} | {cut} | {paired} |")
PY

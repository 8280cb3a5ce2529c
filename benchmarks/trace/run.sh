#!/bin/bash
# Trace layer overhead: one rank, small contiguous writes (page cache), a
# traced and a plain file in the same process, alternating batches.
#   run.sh [REQ_BYTES] [BATCH] [ROUNDS]     (defaults 256 20000 15)
# Env: XT_PREFIX XT_BUILDDIR.  Output: $XT_BUILDDIR/bench-out/trace/trace-overhead.{csv,md}
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=$XT_BUILDDIR/bench-out/trace
work=${XT_BENCH_WORK:-$XT_BUILDDIR/bench-work}/trace
rb=${1:-256} batch=${2:-20000} rounds=${3:-15}
mkdir -p "$out" "$work"
"$XT_PREFIX/bin/mpicc" -O2 -o "$work/overhead" "$here/overhead.c"
env -u ROMIO_HINTS -u ROMIO_XT_TRACE -u ROMIO_XT_STATS \
    "$XT_PREFIX/bin/mpiexec" -n 1 "$work/overhead" "$work" "$rb" "$batch" "$rounds" > "$work/raw.txt"
python3 - "$work/raw.txt" "$out/trace-overhead.csv" "$rb" <<'PY' | tee "$out/trace-overhead.md"
import statistics as st, sys
rows = {}
for line in open(sys.argv[1]):
    _, r, kind, n, s = line.split()
    rows.setdefault(int(r), {})[kind] = (int(n), float(s))
with open(sys.argv[2], "w") as f:
    f.write("round,calls,plain_s,traced_s,plain_calls_per_s,overhead_pct\n")
    ov, rate = [], []
    for r, d in sorted(rows.items()):
        n = d["plain"][0]
        p, t = d["plain"][1], d["traced"][1]
        ov.append(100 * (t - p) / p)
        rate.append(n / p)
        f.write(f"{r},{n},{p:.6f},{t:.6f},{n / p:.0f},{ov[-1]:.2f}\n")
print("# Trace layer overhead\n")
print(f"One rank, MPI_File_write_at of {sys.argv[3]} B (page cache), a traced and a plain file "
      "in the same process, alternating batches; the machine (2 cores) was shared with other jobs.\n")
print("| rounds | plain calls/s (median) | overhead median | min | max |")
print("|---:|---:|---:|---:|---:|")
print(f"| {len(ov)} | {st.median(rate):,.0f} | {st.median(ov):.2f}% | {min(ov):.2f}% | {max(ov):.2f}% |")
PY

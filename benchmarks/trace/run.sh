#!/bin/bash
# Trace layer overhead: one rank, small contiguous writes (page cache), a
# traced and a plain file in the same process, alternating batches.
#   run.sh [REQ_BYTES] [BATCH] [ROUNDS] [control]   (defaults 256 20000 15; control:
#   both files untraced, which shows the noise floor and any bias between the two files)
# Env: XT_PREFIX XT_BUILDDIR.  Output: $XT_BUILDDIR/bench-out/trace/trace-overhead.{csv,md}
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=$XT_BUILDDIR/bench-out/trace
work=${XT_BENCH_WORK:-$XT_BUILDDIR/bench-work}/trace
rb=${1:-256} batch=${2:-20000} rounds=${3:-15} control=${4:-}
name=trace-overhead${control:+-control}
mkdir -p "$out" "$work"
"$XT_PREFIX/bin/mpicc" -O2 -o "$work/overhead" "$here/overhead.c"
env -u ROMIO_HINTS -u ROMIO_XT_TRACE -u ROMIO_XT_STATS \
    "$XT_PREFIX/bin/mpiexec" -n 1 "$work/overhead" "$work" "$rb" "$batch" "$rounds" $control > "$work/raw.txt"
python3 - "$work/raw.txt" "$out/$name.csv" "$rb" "$control" <<'PY' | tee "$out/$name.md"
import statistics as st, sys
rows = {}
for line in open(sys.argv[1]):
    _, r, kind, n, wall, cpu = line.split()
    rows.setdefault(int(r), {})[kind] = (int(n), float(wall), float(cpu))
ov = {"wall": [], "cpu": []}
rate = []
with open(sys.argv[2], "w") as f:
    f.write("round,calls,plain_wall_s,traced_wall_s,plain_cpu_s,traced_cpu_s,"
            "plain_calls_per_s,overhead_wall_pct,overhead_cpu_pct\n")
    for r, d in sorted(rows.items()):
        n, pw, pc = d["plain"]
        _, tw, tc = d["traced"]
        ov["wall"].append(100 * (tw - pw) / pw)
        ov["cpu"].append(100 * (tc - pc) / pc)
        rate.append(n / pw)
        f.write(f"{r},{n},{pw:.6f},{tw:.6f},{pc:.6f},{tc:.6f},{n / pw:.0f},"
                f"{ov['wall'][-1]:.2f},{ov['cpu'][-1]:.2f}\n")
print("# Trace layer overhead" + (" (control: both files untraced)" if sys.argv[4] else "") + "\n")
print(f"One rank, MPI_File_write_at of {sys.argv[3]} B (page cache), a traced and a plain file "
      "in the same process, alternating batches (which goes first alternates too). The machine "
      "(2 cores, gVisor) was shared with other builds (load ~15): wall time is inflated by "
      "preemption, so the thread's CPU time (user + system, CLOCK_THREAD_CPUTIME_ID) is "
      "reported too.\n")
print("| rounds | plain calls/s (median) | time | overhead median | min | max |")
print("|---:|---:|---|---:|---:|---:|")
for k in ("cpu", "wall"):
    o = ov[k]
    print(f"| {len(o)} | {st.median(rate):,.0f} | {k} | {st.median(o):.2f}% | {min(o):.2f}% | "
          f"{max(o):.2f}% |")
PY

#!/bin/bash
# Trace layer overhead: one rank, small contiguous writes (page cache), a
# traced and a plain file in the same process, alternating batches.
#   run.sh [REQ_BYTES] [BATCH] [ROUNDS] [control]   (defaults 256 20000 15; control:
#   both files untraced, which shows the noise floor and any bias between the two files)
# Env: XT_PREFIX XT_BUILDDIR.  Output: $XT_BUILDDIR/bench-out/phases/trace-overhead.{csv,md}
set -eu
here=$(cd "$(dirname "$0")" && pwd)
XT_PREFIX=${XT_PREFIX:-/tmp/xtb/install}
XT_BUILDDIR=${XT_BUILDDIR:-$(pwd)}
out=$XT_BUILDDIR/bench-out/phases
work=${XT_BENCH_WORK:-$XT_BUILDDIR/bench-work}/trace
rb=${1:-256} batch=${2:-20000} rounds=${3:-15} control=${4:-}
name=trace-overhead${control:+-control}
mkdir -p "$out" "$work"
"$XT_PREFIX/bin/mpicc" -O2 -o "$work/overhead" "$here/overhead.c"
env -u ROMIO_HINTS -u ROMIO_XT_TRACE -u ROMIO_XT_STATS \
    "$XT_PREFIX/bin/mpiexec" -n 1 "$work/overhead" "$work" "$rb" "$batch" "$rounds" $control > "$work/raw.txt"
python3 - "$here/.." "$work/raw.txt" "$out/$name.csv" "$rb" "$control" <<'PY' | tee "$out/$name.md"
import sys
sys.path.insert(0, sys.argv[1])
import xtbench
raw, csv_path, rb, control = sys.argv[2:]
rows = {}
for line in open(raw):
    _, r, kind, n, wall, cpu = line.split()
    rows.setdefault(int(r), {})[kind] = (int(n), float(wall), float(cpu))
ov = {"wall": [], "cpu": []}
rate, out = [], []
for r, d in sorted(rows.items()):
    n, pw, pc = d["plain"]
    _, tw, tc = d["traced"]
    ov["wall"].append(100 * (tw - pw) / pw)
    ov["cpu"].append(100 * (tc - pc) / pc)
    rate.append(n / pw)
    out.append(dict(round=r, calls=n, plain_wall_s=f"{pw:.6f}", traced_wall_s=f"{tw:.6f}",
                    plain_cpu_s=f"{pc:.6f}", traced_cpu_s=f"{tc:.6f}",
                    plain_calls_per_s=f"{n / pw:.0f}", overhead_wall_pct=f"{ov['wall'][-1]:.2f}",
                    overhead_cpu_pct=f"{ov['cpu'][-1]:.2f}"))
xtbench.write_csv(out, csv_path)
print("# Trace layer overhead" + (" (control: both files untraced)" if control else "") + "\n")
print(f"One rank, MPI_File_write_at of {rb} B (page cache), a traced and a plain file "
      "in the same process, alternating batches (which goes first alternates too). On a "
      "shared machine wall time is inflated by preemption, so the thread's CPU time (user + "
      "system, CLOCK_THREAD_CPUTIME_ID) is reported too.\n")
print(xtbench.md_table(
    ["rounds", "plain calls/s (median)", "time", "overhead median", "min", "max"],
    [[len(o), f"{xtbench.median(rate):,.0f}", k, f"{xtbench.median(o):.2f}%",
      f"{min(o):.2f}%", f"{max(o):.2f}%"] for k, o in (("cpu", ov["cpu"]), ("wall", ov["wall"]))],
    "rrlrrr"), end="")
PY

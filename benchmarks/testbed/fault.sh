#!/bin/bash
# Fault experiment: a chunk server killed (SIGKILL) in the middle of an MPI-IO
# job on the testbed.  The job (xt_bench, contiguous phase, 2 ranks, files on
# the mount) must end with an MPI I/O error or complete with verified data;
# it must never hang: mpiexec runs under `timeout FAULT_TIMEOUT` (default 300 s).
#   fault.sh [DELAY]   kill DELAY seconds after the job started (default 2:
#                      during the first write; xt_bench writes then reads 2x)
# Prints the job's exit code, its last lines, and how long it took.
# Env: XT_PREFIX, XT_BUILDDIR; FAULT_SERVER (default 2).  Starts and stops its own testbed (state dir
# /tmp/romio-xt-fault, namespaces xtflt-*).
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
XT_PREFIX=${XT_PREFIX:-$src/install}
XT_BUILDDIR=${XT_BUILDDIR:-$(pwd)}
export XT_TESTBED_DIR=/tmp/romio-xt-fault XT_TESTBED_NS=xtflt
tb=$src/scripts/testbed.sh
out=$XT_BUILDDIR/bench-out/testbed/fault
delay=${1:-2}
mkdir -p "$out"
"$XT_PREFIX/bin/mpicc" -O2 -o "$out/xt_bench" "$src/benchmarks/workloads/xt_bench.c" || exit 1
"$tb" start > "$out/start.log" || { cat "$out/start.log"; exit 1; }
mnt=$(tail -n 1 "$out/start.log")
trap '"$tb" stop' EXIT
victim=$(awk -v n="mfschunkserver${FAULT_SERVER:-2}" '$2 == n {print $1}' "$XT_TESTBED_DIR/pids")
args=(--dir "$mnt" --phases contig --contig-mib 384 --iters 2 --keep)
SECONDS=0
timeout "${FAULT_TIMEOUT:-300}" "$XT_PREFIX/bin/mpiexec" -n 2 "$out/xt_bench" "${args[@]}" \
    > "$out/job-$delay.log" 2>&1 &
job=$!
sleep "$delay"
echo "fault: killing chunk server ${FAULT_SERVER:-2} (pid $victim) at +$delay s"
kill -KILL "$victim"
wait $job
rc=$?
t=$SECONDS
echo "fault: delay=$delay job exit code $rc after ${t} s (124 = killed by the timeout)"
tail -n 8 "$out/job-$delay.log"
"$tb" status

#!/bin/bash
# Faults on a cluster profile: each case starts its own testbed with
# --profile (state /tmp/romio-xt-faults, namespaces xtfp-*), runs xt_bench's
# contiguous phase (2 x: write, read back, verify) with one rank on each of
# the 2 emulated nodes, injects the fault, and records how the job ended.
# The job must end with an MPI I/O error or with verified data; it must never
# hang (it runs under `timeout FAULT_TIMEOUT`, default 240 s: exit 124 = hung).
#   faults.sh [--profile hdd] CASE...   (default: every case)
# Cases:
#   kill-e10       chunk server 2 killed (SIGKILL) 3 s into the job, the E10
#                  cache on (e10_cache_path on the node-local tier)
#   kill-prefetch  chunk server 2 killed 8 s into the job (its reads), prefetch on
#   link-drop      node 2's link down for 5 s, 3 s into the job (cache off)
#   full           servers with 1 GiB disks, 2 x 1536 MiB written: no space left
#                  (cache off, then the E10 cache on)
# Output: bench-out/testbed/faults/CASE.log and faults.md (one row per case).
# Env: XT_PREFIX, XT_BUILDDIR, FAULT_TIMEOUT.
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
XT_PREFIX=${XT_PREFIX:-$src/install}
XT_BUILDDIR=${XT_BUILDDIR:-$(pwd)}
export XT_TESTBED_DIR=/tmp/romio-xt-faults XT_TESTBED_NS=xtfp
export XT_MPIEXEC=$XT_PREFIX/bin/mpiexec
tb=$src/scripts/testbed.sh
out=$XT_BUILDDIR/bench-out/testbed/faults
profile=hdd
if [ "${1:-}" = --profile ]; then profile=$2; shift 2; fi
cases=${*:-kill-e10 kill-prefetch link-drop full full-e10}
mkdir -p "$out"
"$XT_PREFIX/bin/mpicc" -O2 -o "$out/xt_bench" "$src/benchmarks/workloads/xt_bench.c" || exit 1
mnt=$XT_TESTBED_DIR/mnt
e10=$XT_TESTBED_DIR/local/e10
trap '"$tb" stop > /dev/null 2>&1' EXIT
echo "| case | fault | job exit | seconds | last error / result |" > "$out/faults.md"
echo "|---|---|---|---|---|" >> "$out/faults.md"

# job CASE MIB HINTS... : xt_bench in the background, 1 rank per node
job() {
    local c=$1 mib=$2 h; shift 2
    local args=(--dir "$mnt" --phases contig --contig-mib "$mib" --iters 2)
    for h; do args+=(--hint "$h"); done
    SECONDS=0
    timeout "${FAULT_TIMEOUT:-240}" "$tb" mpiexec -n 2 "$out/xt_bench" "${args[@]}" \
        > "$out/$c.log" 2>&1 &
    jobpid=$!
}

finish() {  # finish CASE FAULT : wait, record
    local c=$1 what=$2 rc last
    wait "$jobpid"
    rc=$?
    last=$(grep -m1 -o '[A-Za-z_0-9 ]*([0-9]*): [A-Za-z].*' "$out/$c.log" | head -c 140)
    [ $rc = 0 ] && last="completed, every read verified"
    [ $rc = 124 ] && last="HUNG (killed by the timeout)"
    echo "fault $c: exit $rc after ${SECONDS}s: $last"
    echo "| $c | $what | $rc | $SECONDS | ${last//|/\\|} |" >> "$out/faults.md"
}

up() {  # up [START OPTIONS]
    "$tb" stop > /dev/null 2>&1
    "$tb" start --profile "$profile" "$@" > "$out/start.log" 2>&1 || { cat "$out/start.log"; exit 1; }
    for k in 1 2; do "$tb" node $k mkdir -p "$e10"; done
}

victim() { awk '$2 == "mfschunkserver2" {print $1}' "$XT_TESTBED_DIR/pids"; }

for c in $cases; do
    case $c in
        kill-e10)
            up
            job "$c" 256 e10_cache=enable e10_cache_path="$e10"
            sleep 3; kill -KILL "$(victim)"
            finish "$c" "chunk server 2 killed at +3 s, E10 cache on" ;;
        kill-prefetch)
            up
            job "$c" 256 romio_prefetch=enable
            sleep 8; kill -KILL "$(victim)"
            finish "$c" "chunk server 2 killed at +8 s, prefetch on" ;;
        link-drop)
            up
            job "$c" 256
            sleep 3
            ip -n "$XT_TESTBED_NS-n2" link set "${XT_TESTBED_NS}n2" down
            sleep 5
            ip -n "$XT_TESTBED_NS-n2" link set "${XT_TESTBED_NS}n2" up
            finish "$c" "node 2's link down for 5 s at +3 s" ;;
        full|full-e10)
            up --size 1G
            if [ $c = full ]; then job "$c" 1536
            else job "$c" 1536 e10_cache=enable e10_cache_path="$e10"; fi
            finish "$c" "3 servers x 1 GiB, 2 x 1536 MiB written$([ $c = full-e10 ] && echo ', E10 cache on')" ;;
        *) echo "faults.sh: unknown case '$c'" >&2; exit 2 ;;
    esac
done
cat "$out/faults.md"

#!/bin/bash
# romio-xt benchmarks on the MooseFS testbed (make bench FS=testbed).
#   run.sh [limits] [headline] [ds_adaptive] [nvm_cache] [orthrus[:BENCH]] [prefetch] [compare]
# (default: all of them).  Starts the testbed (scripts/testbed.sh) unless one
# runs, puts every workload file on its mount (XT_BENCH_WORK, PF_DATA), keeps
# caches on node-local /dev/shm (E10), and stops the testbed again if it
# started it.  Output: $XT_BUILDDIR/bench-out/testbed/<benchmark>/, beside the
# local-disk results in $XT_BUILDDIR/bench-out/<benchmark>/;
# compare.py writes bench-out/testbed/compare/*.{md,png}: local vs testbed.
#   TB_BOTH=1  run each feature's benchmark on local disk too, just before
#              its testbed run (otherwise the local results already there are used)
#   TB_REPS  repetitions passed to the harness-based benchmarks (default: theirs)
#   TB_LIMITS_MIB  MiB per client for limits.py (default 256)
#
# With TB_PROFILE=NAME (make bench FS=testbed PROFILE=hdd) the testbed runs
# that profile (emulated nodes, throttled links and disks) and the parts are
#   plimits     limits.py --testbed: the profile's limits beside the node-local tier
#   workflows[:W1,W2..]  workflows.py: the real clients with the papers'
#               workflows, ranks in the nodes (default: every workload)
#   report      workflows.md + workflows.png with the limits beside them
#   headline    make bench's headline: FLASH-IO 16^3 and coll_perf 512^3
#               (IOR with XT_IOR) with 1 s of compute before each close,
#               stock vs each extension vs all, into bench-out/headline/NAME/
#               (workflows.csv/.md/.png)
# (default: plimits workflows report), output in bench-out/testbed/NAME/.
#   TB_REPS  repetitions (default 3); XT_IOR an IOR install adds the ior workload
#   TB_SHAPE NODESxPPN  emulated nodes x ranks per node (default 2x1; the
#            headline 4x2)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
XT_PREFIX=${XT_PREFIX:-$src/install}
XT_BUILDDIR=${XT_BUILDDIR:-$(pwd)}
tb=$src/scripts/testbed.sh
root=$XT_BUILDDIR/bench-out/testbed
profile=${TB_PROFILE:-}
if [ -n "$profile" ]; then
    parts=${*:-plimits workflows report}
else
    parts=${*:-limits headline ds_adaptive nvm_cache orthrus prefetch compare}
fi

py=python3    # the plots need matplotlib (Debian's python3-matplotlib)
for p in ${PYTHON3:-} /usr/bin/python3; do
    "$p" -c 'import matplotlib' 2>/dev/null && { py=$p; break; }
done
started=0
mkdir -p "$root"
state=${XT_TESTBED_DIR:-/tmp/romio-xt-testbed}
if [ -n "$profile" ] && "$tb" status > /dev/null 2>&1 &&
    ! grep -q "profile=$profile " "$state/config"; then
    echo "bench FS=testbed: a testbed without profile $profile runs ($state); stop it first" >&2
    exit 1
fi
shape=${TB_SHAPE:-}
[ -z "$shape" ] && [ -n "$profile" ] && [ "$parts" = headline ] && shape=4x2
shape=${shape:-2x1}
case $shape in
    [1-8]x[1-8]) nodes=${shape%x*} ppn=${shape#*x} ;;
    *) echo "bench FS=testbed: TB_SHAPE '$shape': use NODESxPPN, e.g. 4x2" >&2; exit 2 ;;
esac
if [ -n "$profile" ] && "$tb" status > /dev/null 2>&1 &&
    ! grep -q " nodes=$nodes " "$state/config"; then
    echo "bench FS=testbed: the running testbed ($state) has not $nodes nodes (TB_SHAPE $shape); stop it first" >&2
    exit 1
fi
if ! "$tb" status > /dev/null 2>&1; then
    "$tb" start ${profile:+--profile "$profile" --nodes "$nodes"} > "$root/testbed-start.log" 2>&1 || {
        cat "$root/testbed-start.log" >&2
        echo "bench FS=testbed: the testbed did not start (see above)" >&2
        exit 1
    }
    started=1
fi
mnt=${XT_TESTBED_DIR:-/tmp/romio-xt-testbed}/mnt
[ $started = 1 ] && trap '"$tb" stop' EXIT
mkdir -p "$root"
# disk_first: one aggregator per chunk server, MooseFS' 64 MiB chunks
servers=$(sed -n 's/.*servers=\([0-9]*\).*/\1/p' "${XT_TESTBED_DIR:-/tmp/romio-xt-testbed}/config")
reps=()
[ -n "${TB_REPS:-}" ] && reps=(--reps "$TB_REPS")

# feature BENCH CMD...: run a benchmark script with its files on the mount and
# its output moved to $root/BENCH
feature() {
    local name=$1; shift
    local tmp=$root/.run
    rm -rf "$tmp" "${mnt:?}/work" "$mnt/pfdata"
    mkdir -p "$tmp" "$mnt/work" "$mnt/pfdata"
    if [ "${TB_BOTH:-0}" = 1 ]; then   # the local-disk run first, same script
        echo "== bench local: $name ($(date -u +%T))"
        "$@"
    fi
    echo "== bench FS=testbed: $name ($(date -u +%T))"
    XT_BUILDDIR=$tmp XT_BENCH_WORK=$mnt/work PF_DATA=$mnt/pfdata \
        ROMIO_XT_ORTHRUS_SERVERS=$servers ROMIO_XT_ORTHRUS_STRIPE_UNIT=64m "$@"
    rm -rf "${root:?}/$name"
    mv "$tmp/bench-out/$name" "$root/$name"
    rm -rf "$tmp" "$mnt/work" "$mnt/pfdata"
}

pout=$root/${profile:-plain}
apps=$XT_BUILDDIR/_build/apps
wf() {  # workflows.py with the common arguments
    XT_MPIEXEC=$XT_PREFIX/bin/mpiexec "$py" "$here/workflows.py" --prefix "$XT_PREFIX" \
        --apps "$apps" --out "$pout" ${TB_REPS:+--reps "$TB_REPS"} ${XT_IOR:+--ior "$XT_IOR"} \
        --ranks $((nodes * ppn)) --ppn "$ppn" "$@"
}
for p in $parts; do
    case $p in
        plimits)
            mkdir -p "$pout"
            rm -f "$pout/limits.csv"
            "$XT_PREFIX/bin/mpicc" -O2 -o "$pout/tb_p2p" "$here/tb_p2p.c"
            XT_MPIEXEC=$XT_PREFIX/bin/mpiexec python3 "$here/limits.py" --testbed "$tb" \
                --label "$profile" --p2p "$pout/tb_p2p" --reps "${TB_REPS:-3}" \
                --mib "${TB_LIMITS_MIB:-256}" --csv "$pout/limits.csv" | tee "$pout/limits.md" ;;
        workflows) mkdir -p "$pout"; rm -f "$pout/workflows.csv"
            wf ${XT_IOR:+--parts "flash,flash_compute,coll_perf,coll_perf_compute,ior,root,matrix,noncontig,btio,disk_first"} ;;
        workflows:*) mkdir -p "$pout"; wf --parts "${p#workflows:}" ;;
        report) "$py" "$here/workflows.py" --report --out "$pout" --limits "$pout/limits.csv" ;;
        headline)
            hout=$XT_BUILDDIR/bench-out/headline/$profile
            mkdir -p "$hout"; rm -f "$hout/workflows.csv"
            echo "== bench: headline on the $profile testbed, $nodes nodes x $ppn ranks ($(date -u +%T))"
            hparts=flash_compute,coll_perf_compute${XT_IOR:+,ior}
            # auto is left out here (docs/auto.md has its own runs): the
            # headline stays within 15 minutes and the servers' space
            pout=$hout wf --parts "$hparts" --flash-compute 1 --coll-perf-compute 1 \
                --configs stock,ds_adaptive,orthrus,e10_cache,prefetch,all || hrc=$?
            "$py" "$here/workflows.py" --report --out "$hout" \
                --title "$profile testbed, $nodes nodes x $ppn ranks: real clients vs stock" ;;
        limits)
            mkdir -p "$root/limits" "$XT_BUILDDIR/bench-out/limits"
            rm -f "$root/limits/limits.csv" "$XT_BUILDDIR/bench-out/limits/limits.csv"
            loc=$XT_BUILDDIR/bench-out/work/limits && mkdir -p "$loc"
            for rep in 1 2 3; do    # interleaved: local disk, testbed
                python3 "$here/limits.py" --dir "$loc" --label local --reps 1 \
                    --mib "${TB_LIMITS_MIB:-256}" --csv "$XT_BUILDDIR/bench-out/limits/limits.csv" > /dev/null
                python3 "$here/limits.py" --dir "$mnt" --label testbed --reps 1 \
                    --mib "${TB_LIMITS_MIB:-256}" --csv "$root/limits/limits.csv" > /dev/null
            done ;;
        headline) feature headline bash "$src/benchmarks/headline.sh" ;;
        ds_adaptive) feature ds_adaptive bash "$src/benchmarks/ds_adaptive/run.sh" ;;
        nvm_cache) feature nvm_cache bash "$src/benchmarks/nvm_cache/run.sh" ;;
        orthrus) feature orthrus bash "$src/benchmarks/orthrus/run.sh" all "${reps[@]}" ;;
        orthrus:*) feature orthrus bash "$src/benchmarks/orthrus/run.sh" "${p#orthrus:}" "${reps[@]}" ;;
        # compute per read up to ~2x the testbed's read time (~1 ms, local disk ~0.15 ms)
        prefetch) PF_COMPUTE=${PF_COMPUTE:-0,500,800,1200,2000} \
            feature prefetch sh "$src/benchmarks/prefetch/run.sh" ;;
        compare) "$py" "$here/compare.py" "$XT_BUILDDIR/bench-out" ;;
        *) echo "run.sh: unknown part '$p'" >&2; exit 2 ;;
    esac
done
exit "${hrc:-0}"

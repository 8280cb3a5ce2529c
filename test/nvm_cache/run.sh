#!/bin/bash
# romio-xt NVM write-behind (e10_cache) tests.  Env: XT_PREFIX, XT_SRCDIR,
# XT_BUILDDIR.  Prints one "PASS nvm_cache/name" / "FAIL nvm_cache/name" line
# per test.  Cache files go to a fresh directory under /dev/shm.
. "$XT_SRCDIR/test/lib.sh"
xt_test_init nvm_cache
recover=$XT_PREFIX/bin/romio-xt-recover
cache=/dev/shm/romio-xt-nvc-test.$$
rm -rf "$cache" && mkdir -p "$cache"
trap 'rm -rf "$cache"' EXIT
before_each() {     # every test starts with an empty cache directory
    rm -rf "${cache:?}"/*
}

# xrun HINTS N PROGRAM ARGS...: HINTS is "key=value,..." written to a ROMIO_HINTS file
xrun() {
    local hints=$1 n=$2; shift 2
    local hf; hf=$(mktemp "$out/hints.XXXXXX")
    printf '%s\n' "$hints" | tr ',' '\n' | sed 's/=/ /' > "$hf"
    env -u ROMIO_XT_STATS ROMIO_HINTS="$hf" \
        timeout 300 "$mpiexec" -n "$n" "$@"
}

no_cache_files() {
    local left; left=$(ls "$cache" | wc -l)
    [ "$left" -eq 0 ] || { echo "cache files left: $(ls "$cache")"; return 1; }
}

build() {
    "$mpicc" -O1 -g -Wall -o "$out/t_nvc_io" "$src/t_nvc_io.c" || return 1
    "$mpicc" -O1 -g -Wall -o "$out/t_nvc_stale" "$src/t_nvc_stale.c" || return 1
    h5pcc.mpich -shlib -O1 -o "$out/flashio" "$XT_SRCDIR/benchmarks/nvm_cache/flashio.c"
}
xt_build build

# the tests below exercise the cache itself: cache every write the sync
# threads can take (nvc_gate.h), also when the cache is no faster than the
# global file (as here: /dev/shm and a local disk); adaptive-gate-* test the gate
export ROMIO_XT_NVC_TEST_ALWAYS_CACHE=1

BASE="cb_nodes=2,cb_buffer_size=65536,ind_wr_buffer_size=16384"
ON="$BASE,e10_cache_path=$cache"

# --- reference files, cache off ---------------------------------------------
for p in collperf ior indep; do
    run "reference-$p" xrun "$BASE" 2 ./t_nvc_io "$out/ref.$p" $p
done

# --- each mode: byte-identical to cache off, own data readable before sync,
# flush_onclose: nothing in the global file before sync; flush_immediate: all
# of it (polled) before sync; discard: no cache file left ---------------------
mode_case() {  # PATTERN MODE FLUSH [extra hints]
    local p=$1 mode=$2 flush=$3 extra=${4:-} before f=$out/$1.$2.$3.dat
    case $flush in
        flush_onclose) before=none ;;
        *) before=all ;;
    esac
    [ "$p" = indep ] && [ "$before" = none ] && before=    # strided writes go direct
    xrun "$ON,e10_cache=$mode,e10_cache_flush_flag=$flush$extra" 2 ./t_nvc_io "$f" "$p" \
        --readback ${before:+--before=$before} || return 1
    cmp "$f" "$out/ref.$p" && no_cache_files
}
for p in collperf ior indep; do
    for mode in enable coherent; do
        for flush in flush_immediate flush_onclose; do
            run "$p-$mode-$flush" mode_case $p $mode $flush
        done
    done
done
run "collperf-4threads-16k" mode_case collperf enable flush_immediate \
    ",e10_cache_threads=4,ind_wr_buffer_size=16384"
run "indep-3threads-4k" mode_case indep enable flush_immediate \
    ",e10_cache_threads=3,ind_wr_buffer_size=4096"
np4_case() {
    xrun "$ON,cb_nodes=4,e10_cache=enable" 4 ./t_nvc_io "$out/np4.dat" collperf --readback &&
    xrun "$BASE" 4 ./t_nvc_io "$out/np4.ref" collperf && cmp "$out/np4.dat" "$out/np4.ref" &&
    no_cache_files
}
run_np 4 "collperf-np4" np4_case

# --- the stack and the stats section ------------------------------------------
stats_case() {
    local j=$out/stats.json
    rm -f "$j"
    ROMIO_XT_STATS_FILE=$j xrun "$ON,e10_cache=enable,romio_xt_stats=enable" 2 \
        ./t_nvc_io "$out/stats.dat" ior || return 1
    cat "$j"
    python3 - "$j" <<'PY'
import json, sys
r = json.loads(open(sys.argv[1]).readline())
assert r["layers"] == ["nvm_cache", "stats"], r["layers"]
s = r["features"]["nvm_cache"]
size = 4 * 2 * 96 * 1024
# the test hook caches every write the threads can take (nvc_gate.h)
assert s["bytes_cached"] + s["bytes_direct"] == size and s["bytes_cached"] > 0, s
assert s["bytes_synced"] == s["bytes_cached"], s
assert s["extents_cached"] >= 1 and s["fallback_path"] == 0 and s["sync_errors"] == 0, s
assert s["mode"] == "enable" and s["flush"] == "flush_immediate" and s["chunk"] == 16384, s
assert s["copy_locks"] == 1, s     # ROMIO's data sieving writes may lock: the copies lock too
assert r["fs_requests"]["write"]["bytes"] == size, r["fs_requests"]
print("stats ok")
PY
}
run "stats-section" stats_case

# romio_ds_write=disable: no process read-modify-writes outside collective
# calls, so the copies take no range locks (a FUSE client's unlock writes
# the range back, MooseFS); the data is the same
no_ds_case() {
    local j=$out/nods.json p
    for p in collperf indep; do
        rm -f "$j"
        ROMIO_XT_STATS_FILE=$j xrun "$ON,e10_cache=enable,romio_xt_stats=enable,romio_ds_write=disable" \
            2 ./t_nvc_io "$out/nods.$p" $p --readback || return 1
        cmp "$out/nods.$p" "$out/ref.$p" || return 1
        python3 -c 'import json,sys; s=json.loads(open(sys.argv[1]).readline())["features"]["nvm_cache"]; assert s["copy_locks"] == 0 and s["bytes_synced"] == s["bytes_cached"] > 0, s' "$j" || return 1
    done
    no_cache_files
}
run "no-ds-write-no-copy-locks" no_ds_case

# romio_xt_helper_cpus (xt_cpus.h): both processes bound to core 0, so the
# sync threads run on the node's other cores (the stats record names them);
# inherit, or processes not bound: the processes' own cores (""); the data
# is the same either way
helper_case() {  # HELPER_HINT BIND WANT
    local j=$out/helper.json
    rm -f "$j"
    ROMIO_XT_STATS_FILE=$j xrun "$ON,e10_cache=enable,romio_xt_stats=enable,romio_xt_helper_cpus=$1" \
        2 $2 ./t_nvc_io "$out/helper.ior" ior --readback || return 1
    cmp "$out/helper.ior" "$out/ref.ior" || return 1
    python3 -c 'import json,sys; r=json.loads(open(sys.argv[1]).readline()); s=r["features"]["nvm_cache"]; assert r["helper_cpus"] == sys.argv[2] and s["bytes_synced"] == s["bytes_cached"] > 0, (r["helper_cpus"], s)' "$j" "$3"
}
ncpu=$(nproc --all)
others=$([ "$ncpu" -gt 2 ] && echo "1-$((ncpu - 1))" || echo 1)
run "helper-cpus-on-idle-cores" helper_case auto "-bind-to user:0,0" "$others"
run "helper-cpus-inherit" helper_case inherit "-bind-to user:0,0" ""
run "helper-cpus-unbound" helper_case auto "" ""

# romio_xt_numa_place (docs/numa.md): the same bytes with the sync threads'
# buffers placed; the stats record's numa_place and MPI_File_get_info say
# what it did.  A machine with one NUMA node makes no mbind call; the test
# hook ROMIO_XT_TEST_NUMA_NODES=2 pretends two nodes (every core on node 0),
# so the buffers are bound (mbind_calls > 0); =-1 pretends libnuma is missing:
# one warning, and the hint falls back to disable
numa_case() {  # NODES STATUS HINT_AFTER WARNINGS
    local j=$out/numa.json o=$out/numa.out
    rm -f "$j"
    ROMIO_XT_TEST_NUMA_NODES=$1 ROMIO_XT_STATS_FILE=$j \
        xrun "$ON,e10_cache=enable,romio_xt_stats=enable,romio_xt_numa_place=enable" \
        2 ./t_nvc_io "$out/numa.ior" ior --readback > "$o" 2>&1 || { cat "$o"; return 1; }
    cat "$o"
    cmp "$out/numa.ior" "$out/ref.ior" || return 1
    [ "$(grep -c "romio-xt: warning" "$o")" -eq "$4" ] || { echo "want $4 warning(s)"; return 1; }
    [ "$4" -eq 0 ] || grep -q "hint romio_xt_numa_place: 'enable' needs libnuma" "$o" || return 1
    python3 - "$j" "$2" "$3" <<'PY'
import json, sys
r = json.loads(open(sys.argv[1]).readline())
n, s = r["numa_place"], r["features"]["nvm_cache"]
assert n["status"] == sys.argv[2], n
assert (n["mbind_calls"] > 0) == (n["status"] == "on") and (n["node"] >= 0) == (n["status"] == "on"), n
assert r["hints"]["romio_xt_numa_place"] == sys.argv[3], r["hints"]
assert s["bytes_synced"] == s["bytes_cached"] > 0, s
print("numa_place", n)
PY
}
nodes=$(ls -d /sys/devices/system/node/node[0-9]* 2> /dev/null | wc -l)
if grep -q "^XT_NUMA_CFLAGS='-DXT_HAVE_LIBNUMA'" "$XT_BUILDDIR/config.log"; then
    run "numa-place-this-machine" numa_case 0 "$([ "$nodes" -gt 1 ] && echo on || echo one_node)" enable 0
    run "numa-place-two-nodes" numa_case 2 on enable 0
fi
run "numa-place-no-libnuma" numa_case -1 no_libnuma disable 1

# the gate as users get it (nvc_gate.h): the job's first file is cached from
# its first write; its sync comes right after the writes (no compute phase),
# so the second file of the job goes straight through and MPI_File_get_info
# says why (unless the readback took 0.1 s or more: then it was a quiet
# phase, as the stats show); with a compute phase before each sync both
# files are cached.
# Data byte-identical every time (the rules in detail: test/unit/test_noharm.c)
adaptive_case() {  # PATTERN COMPUTE
    local j=$out/adaptive.$1.$2.json f=$out/adaptive.$1.$2.dat
    rm -f "$j"
    ROMIO_XT_STATS_FILE=$j ROMIO_XT_NVC_TEST_ALWAYS_CACHE=0 xrun \
        "$ON,e10_cache=enable,romio_xt_stats=enable" 2 ./t_nvc_io "$f" "$1" --readback \
        --twice --compute="$2" > "$out/adaptive.out" || { cat "$out/adaptive.out"; return 1; }
    cat "$out/adaptive.out"
    cmp "$f" "$out/ref.$1" && cmp "$f.2" "$out/ref.$1" && no_cache_files || return 1
    python3 - "$j" "$2" "$out/adaptive.out" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
gates = [l.split(": ", 1)[1].strip() for l in open(sys.argv[3]) if l.startswith("GATE ")]
first, second = (r["features"]["nvm_cache"] for r in recs[:2])
print(first, second, gates, sep="\n")
assert first["bytes_cached"] > 0 and first["bytes_synced"] == first["bytes_cached"], first
assert gates[0] == "cache" and first["gate"] == "cache", (gates, first)
if float(sys.argv[2]) == 0 and first["last_compute_seconds"] == 0:
    assert second["bytes_cached"] == 0 and second["direct_no_compute_phase"] >= 1, second
    assert gates[1].startswith("write-through: no compute"), gates
elif float(sys.argv[2]) == 0:   # a loaded machine made the readback a quiet phase
    print("the first sync came", first["last_compute_seconds"], "s after the writes")
else:
    assert second["bytes_cached"] > 0 and second["direct_no_compute_phase"] == 0, second
    assert gates[1] == "cache", gates
for s in (first, second):
    assert s["sync_errors"] == 0 and s["fallback_path"] == 0, s
PY
}
for p in collperf ior; do
    run "adaptive-gate-$p" adaptive_case $p 0
done
run "adaptive-gate-compute" adaptive_case ior 0.3

# --- faults -------------------------------------------------------------------
one_warning() {  # LOG REGEX: exactly one romio-xt warning, matching
    local count; count=$(grep -c "romio-xt: warning" "$1")
    [ "$count" -eq 1 ] || { echo "expected one warning, got $count"; return 1; }
    grep -Eq "$2" "$1" || { echo "warning does not match: $2"; return 1; }
}
bad_path_case() {  # PATH REGEX (PATH "": e10_cache_path not given at all)
    local h="$BASE,e10_cache=enable"
    [ -z "$1" ] || h="$h,e10_cache_path=$1"
    xrun "$h" 2 ./t_nvc_io "$out/bad.dat" collperf \
        > "$out/bad.out" 2>&1 || { cat "$out/bad.out"; return 1; }
    cat "$out/bad.out"
    one_warning "$out/bad.out" "$2" && cmp "$out/bad.dat" "$out/ref.collperf"
}
run "missing-cache-dir" bad_path_case /nonexistent/nvc \
    "hint e10_cache_path: cannot use '/nonexistent/nvc' \(No such file or directory\).*straight to the global file"
run "unset-cache-path" bad_path_case "" "hint e10_cache_path: cannot use '' \(not set\)"
ro_case() {
    mkdir -p "$cache/ro" && chmod 555 "$cache/ro"
    if [ "$(id -u)" = 0 ]; then     # root writes anyway: a file where the directory should be
        rmdir "$cache/ro" && touch "$cache/ro"
    fi
    bad_path_case "$cache/ro" "cannot use '$cache/ro' \((Permission denied|Not a directory)\)"
}
run "unwritable-cache-dir" ro_case

# the cache device fills up part-way: a tiny tmpfs when we may mount one,
# otherwise the test-only failure injection.  flush_onclose holds every item
# in the cache until close, so it fills whatever the timing (with
# flush_immediate each process syncs its items before each collective call
# and the cache file may never hold 160 KiB)
enospc_case() {
    local dir=$cache how=mount
    tiny=$(mktemp -d /tmp/nvc-tiny.XXXXXX)
    if mount -t tmpfs -o size=160k tmpfs "$tiny" 2>/dev/null; then
        dir=$tiny
    else
        how=injected; export ROMIO_XT_NVC_TEST_FAIL_AFTER=150000
    fi
    echo "cache device full: $how"
    xrun "$BASE,e10_cache=enable,e10_cache_flush_flag=flush_onclose,e10_cache_path=$dir" 2 \
        ./t_nvc_io "$out/full.dat" ior \
        --readback > "$out/full.out" 2>&1 || { cat "$out/full.out"; return 1; }
    unset ROMIO_XT_NVC_TEST_FAIL_AFTER
    cat "$out/full.out"
    local left; left=$(ls "$dir")
    [ "$how" = mount ] && umount "$tiny"
    rmdir "$tiny"
    grep -q "cannot write the cache file (No space left on device" "$out/full.out" &&
    [ "$(grep -c 'romio-xt: warning' "$out/full.out")" -le 2 ] &&     # once per rank at most
    cmp "$out/full.dat" "$out/ref.ior" && [ -z "$left" ]
}
run "cache-full-enospc" enospc_case

# a sync thread's I/O error comes back from MPI_File_sync; the cache file is
# kept and romio-xt-recover completes the global file
sync_error_case() {
    ROMIO_XT_NVC_TEST_SYNC_EIO=2 xrun "$ON,e10_cache=enable" 2 ./t_nvc_io "$out/eio.dat" ior \
        --sync-error > "$out/eio.out" 2>&1 || { cat "$out/eio.out"; return 1; }
    cat "$out/eio.out"
    grep -q "syncing .*eio.dat failed; its data stays in $cache/romioxt-nvc" "$out/eio.out" || return 1
    cmp -s "$out/eio.dat" "$out/ref.ior" && { echo "global file complete despite the error?"; return 1; }
    "$recover" "$cache" && cmp "$out/eio.dat" "$out/ref.ior" && no_cache_files
}
run "sync-error-reported-and-recovered" sync_error_case

# a rank killed after its write returned, before sync: recovery replays it
crash_case() {
    xrun "$ON,e10_cache=enable,e10_cache_flush_flag=flush_onclose" 2 ./t_nvc_io "$out/crash.dat" \
        ior --crash=1 && { echo "the job should have died"; return 1; }
    ls -l "$cache"
    [ "$(ls "$cache" | wc -l)" -ge 1 ] || { echo "no cache files after the crash"; return 1; }
    cmp -s "$out/crash.dat" "$out/ref.ior" && { echo "complete before recovery?"; return 1; }
    "$recover" "$cache" && cmp "$out/crash.dat" "$out/ref.ior" && no_cache_files
}
run "crash-then-romio-xt-recover" crash_case

discard_case() {  # discard disabled: cache files stay, fully synced
    xrun "$ON,e10_cache=enable,e10_cache_discard_flag=disable" 2 ./t_nvc_io "$out/keep.dat" ior &&
    cmp "$out/keep.dat" "$out/ref.ior" || return 1
    [ "$(ls "$cache" | wc -l)" -eq 2 ] || { echo "want 2 cache files: $(ls "$cache")"; return 1; }
    "$recover" "$cache" | tee "$out/keep.rec"
    [ "$(grep -c ': 0 record(s) replayed' "$out/keep.rec")" -eq 2 ] && no_cache_files
}
run "discard-disable-keeps-synced-cache" discard_case

run "coherent-locks-until-sync" xrun \
    "$ON,e10_cache=coherent,e10_cache_flush_flag=flush_onclose" 2 ./t_nvc_io "$out/lock.dat" x --locked

# --- reads of other processes' cached data, no MPI_File_sync (docs/nvm_cache.md)
# stale_case PATTERN HINTS: t_nvc_stale passes and prints no warning
stale_case() {
    xrun "$ON,$2" 2 ./t_nvc_stale "$out/stale.$1.dat" "$1" > "$out/stale.$1.out" 2>&1 ||
        { cat "$out/stale.$1.out"; return 1; }
    cat "$out/stale.$1.out"
    ! grep -q "romio-xt: warning" "$out/stale.$1.out" && no_cache_files
}
# default mode: a collective read drains every rank's overlapping cached data,
# also when Orthrus runs the call itself (core_first: rank 0 reads rank 1's data)
for flush in flush_immediate flush_onclose; do
    run "coll-read-after-indep-write-$flush" stale_case coll-read "e10_cache=enable,e10_cache_flush_flag=$flush"
    run "coll-read-after-coll-write-$flush" stale_case coll-coll "e10_cache=enable,e10_cache_flush_flag=$flush"
    run "coll-read-orthrus-core-first-$flush" stale_case coll-read \
        "e10_cache=enable,e10_cache_flush_flag=$flush,romio_orthrus_force=core_first"
done
# strict: write, MPI_Barrier, independent read (and get_size) of another rank's data
for p in barrier-read get-size coll-read; do
    run "strict-$p" stale_case $p "e10_cache=strict"
done
# ... which the default mode does not promise (the test can fail: data still cached)
enable_needs_sync() {
    xrun "$ON,e10_cache=enable,e10_cache_flush_flag=flush_onclose" 2 ./t_nvc_stale \
        "$out/nosync.dat" barrier-read > "$out/nosync.out" 2>&1 &&
        { echo "read other ranks' unsynced data in the default mode?"; return 1; }
    grep -q "independent read after barrier: byte" "$out/nosync.out" && no_cache_files
}
run "enable-barrier-read-needs-sync" enable_needs_sync
strict_onclose() {  # one warning; flush_immediate is used, so readers do not wait forever
    xrun "$ON,e10_cache=strict,e10_cache_flush_flag=flush_onclose" 2 ./t_nvc_stale \
        "$out/strict-oc.dat" barrier-read > "$out/strict-oc.out" 2>&1 || { cat "$out/strict-oc.out"; return 1; }
    cat "$out/strict-oc.out"
    [ "$(grep -c "romio-xt: warning" "$out/strict-oc.out")" -eq 1 ] &&
        grep -q "hint e10_cache_flush_flag: 'flush_onclose' does not go with e10_cache=strict" \
            "$out/strict-oc.out" && no_cache_files
}
run "strict-forces-flush-immediate" strict_onclose

# --- HDF5 checkpoint (Debian's libhdf5-mpich on our libmpi) --------------------
h5_case() {  # MODE FLUSH
    local f=$out/h5.$1.$2
    mkdir -p "$f" "$out/h5.ref"
    if [ ! -e "$out/h5.ref/flashio.0.h5" ]; then
        LD_LIBRARY_PATH=$XT_PREFIX/lib xrun "$BASE" 2 ./flashio --dir "$out/h5.ref" --files 1 \
            --blocks 16 --nvars 6 --keep || return 1
    fi
    LD_LIBRARY_PATH=$XT_PREFIX/lib xrun "$ON,e10_cache=$1,e10_cache_flush_flag=$2" 2 ./flashio \
        --dir "$f" --files 1 --blocks 16 --nvars 6 --keep || return 1
    cmp "$f/flashio.0.h5" "$out/h5.ref/flashio.0.h5" && no_cache_files
}
for mode in enable coherent; do
    for flush in flush_immediate flush_onclose; do
        run "hdf5-$mode-$flush" h5_case $mode $flush
    done
done
run "hdf5-strict-flush_immediate" h5_case strict flush_immediate

# --- no leaks or memory errors in our code under valgrind -----------------------
valgrind_case() {
    command -v valgrind > /dev/null || { echo "valgrind is missing"; return 1; }
    rm -f "$out"/vg.*.log
    xrun "$ON,e10_cache=enable,e10_cache_threads=2" 2 valgrind -q --leak-check=full \
        --show-leak-kinds=definite,indirect --log-file="$out/vg.%p.log" \
        ./t_nvc_io "$out/vg.dat" indep --readback || return 1
    python3 "$XT_SRCDIR/test/mpi/check_valgrind.py" "$out"/vg.*.log
}
run "valgrind-np2" valgrind_case

xt_finish

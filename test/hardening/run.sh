#!/bin/bash
# romio-xt hardening tests: ROMIO's own hints with bad values, faults on every
# layer, the fuzzers' regression inputs.  Env as test/mpi/run.sh.
. "$XT_SRCDIR/test/lib.sh"
xt_test_init hardening

build() {
    for t in t_romio_hints t_fault t_kill; do
        "$mpicc" -O1 -g -Wall -o "$out/$t" "$src/$t.c" || return 1
    done
}
xt_build build

# --- ROMIO's own hints ------------------------------------------------------
# romio_hint_case HOW KEY VALUE WANT [EXPECT]: a collective and an independent
# round trip (two opens) with KEY=VALUE given by HOW (env: ROMIO_HINTS, open:
# the info at open, setinfo: MPI_File_set_info after open); the job completes,
# the data verifies and the output holds WANT (0 or 1) warnings naming the
# hint and the value; EXPECT: the value MPI_File_get_info must show.
romio_hint_case() {
    local how=$1 key=$2 val=$3 want=$4 log=$out/rh.log
    local args=("$key" "$val" "$how")
    : > "$out/rh.hints"
    [ "$how" = env ] && { printf '%s %s\n' "$key" "$val" > "$out/rh.hints"; args=(); }
    env -u ROMIO_XT_STATS ROMIO_HINTS="$out/rh.hints" ${5:+T_EXPECT=$5} \
        timeout 120 "$mpiexec" -n 2 ./t_romio_hints "$out/rh.dat" "${args[@]}" > "$log" 2>&1
    local rc=$?
    cat "$log"
    [ "$rc" -eq 0 ] && grep -q "t_romio_hints: OK" "$log" || { echo "exit $rc"; return 1; }
    local all named
    all=$(grep -c "romio-xt: warning" "$log")
    named=$(grep -cF -e "warning: ROMIO hint $key: bad value '$val'" \
        -e "warning: hint $key: bad value '$val'" "$log")
    [ "$all" -eq "$want" ] && [ "$named" -eq "$want" ] ||
        { echo "want $want warning(s) naming $key='$val', got $named of $all"; return 1; }
    [ "$want" -eq 0 ] || grep -q "; using [^ ]" "$log" ||
        { echo "the warning names no value used"; return 1; }
}
: > "$out/rh.hints"
valid_value() {  # the values that are valid for ROMIO's hint $1: no warning
    case "$1 $2" in
        "striping_unit 0" | "striping_factor 0" | "romio_cb_fr_type 0" | \
        "romio_cb_fr_type -1" | "romio_cb_ds_threshold 0" | "romio_min_fdomain_size 0" | \
        "romio_ds_read 0" | "romio_ds_write 0") return 0 ;;  # 0: disable (romio-xt's table)
    esac
    return 1
}
hints="cb_buffer_size cb_nodes cb_config_list ind_rd_buffer_size ind_wr_buffer_size
    striping_unit striping_factor romio_cb_read romio_cb_write romio_cb_alltoall romio_cb_pfr
    romio_cb_fr_type romio_cb_fr_alignment romio_cb_ds_threshold romio_ds_read romio_ds_write
    romio_no_indep_rw romio_min_fdomain_size romio_synchronized_flush"
[ "${XT_QUICK:-0}" = 1 ] && hints="cb_buffer_size cb_nodes cb_config_list ind_wr_buffer_size"
for key in $hints; do
    for val in 0 -1 abc nan inf 99999999999999999999999999k 3g; do
        want=1; valid_value "$key" "$val" && want=0
        run "romio-$key=$val" romio_hint_case env "$key" "$val" $want
    done
done
# a size with a suffix: ROMIO would read 4 bytes; it gets 4194304, with a warning
run "romio-suffix-env" romio_hint_case env cb_buffer_size 4m 1 4194304
run "romio-suffix-info" romio_hint_case open ind_rd_buffer_size 64k 1 65536
# valid values reach ROMIO as they are (stock path): no warning, ROMIO's value
run "romio-valid-size" romio_hint_case env cb_buffer_size 65536 0 65536
run "romio-valid-nodes" romio_hint_case open cb_nodes 1 0 1
run "romio-valid-switch" romio_hint_case env romio_cb_write enable 0 enable
run "romio-valid-list" romio_hint_case env cb_config_list '*:2' 0
# bad values in the info at open and after open (MPI_File_set_info)
for how in open setinfo; do
    run "romio-$how-cb_buffer_size=0" romio_hint_case $how cb_buffer_size 0 1
    run "romio-$how-cb_nodes=abc" romio_hint_case $how cb_nodes abc 1
    run "romio-$how-romio_cb_write=maybe" romio_hint_case $how romio_cb_write maybe 1
    run "romio-$how-cb_config_list=*:0" romio_hint_case $how cb_config_list '*:0' 1
done

# --- faults on every layer ----------------------------------------------------
cache=/dev/shm/romio-xt-hard.$$
mnt=$out/full
cleanup() { umount "$mnt" 2> /dev/null; rm -rf "$cache"; }
trap cleanup EXIT
# each extension's hints (ROMIO_HINTS lines), and all of them at once
ext_hints() {
    case $1 in
        stock) ;;
        stats) echo "romio_xt_stats enable" ;;
        ads) printf 'romio_ds_read adaptive\nromio_ds_write adaptive\n' ;;
        orthrus) echo "romio_orthrus enable" ;;
        prefetch) echo "romio_prefetch enable" ;;
        e10) printf 'e10_cache enable\ne10_cache_path %s\ne10_cache_flush_flag flush_onclose\n' "$cache" ;;
        trace) printf 'romio_xt_trace enable\nromio_xt_trace_dir %s\n' "$out/trace" ;;
        all) for e in stats ads orthrus prefetch e10 trace; do ext_hints $e; done ;;
    esac
}
EXTS="stock stats ads orthrus prefetch e10 trace all"
# frun EXT N PROGRAM ARGS...: PROGRAM with EXT's hints (and the caller's env)
frun() {
    local ext=$1 n=$2; shift 2
    ext_hints "$ext" > "$out/f.$ext.hints"
    mkdir -p "$cache" "$out/trace"
    env -u ROMIO_XT_STATS ROMIO_HINTS="$out/f.$ext.hints" ROMIO_XT_STATS_FILE=/dev/null \
        timeout 120 "$mpiexec" -n "$n" "$@"
}

# allocation failure on rank 1 at its K-th romio-xt allocation (test hook):
# at open (the file state, each layer's state) and in the collective stats
# report at close: every rank completes with the same layers and the data verifies
alloc_case() {  # alloc_case EXT K [RANK (1)]: the log in $out/alloc.log
    local ext=$1 k=$2
    ROMIO_XT_TEST_ALLOC_FAIL=$k ROMIO_XT_TEST_ALLOC_FAIL_RANK=${3:-1} \
        frun "$ext" 2 ./t_fault "$out/alloc.$ext.$k.dat" ok > "$out/alloc.log" 2>&1
    local rc=$?
    cat "$out/alloc.log"
    [ "$rc" -eq 0 ] && grep -q "t_fault: OK" "$out/alloc.log"
}
for k in 1 2 3 5 8; do run "alloc-fail-all-extensions-at-$k" alloc_case all $k; done
run "alloc-fail-stats-report-at-close" alloc_case stats 4
# inside a collective call: K = 1..12 on RANK (open and the calls of two
# opens): every K completes and verifies, and some K lands in the call where
# the warning WANT says what the layer did (Orthrus: every process runs that
# call with ROMIO's two-phase; e10_cache: that rank writes straight through)
alloc_in_call() {
    local ext=$1 rank=$2 want=$3 k hit=0
    for k in $(seq 1 12); do
        ROMIO_XT_NVC_TEST_ALWAYS_CACHE=1 alloc_case "$ext" "$k" "$rank" > /dev/null ||
            { cat "$out/alloc.log"; echo "K=$k: failed"; return 1; }
        if grep -qF "$want" "$out/alloc.log"; then
            [ "$(grep -cF "$want" "$out/alloc.log")" = 1 ] ||
                { cat "$out/alloc.log"; echo "K=$k: the warning is not once"; return 1; }
            hit=$((hit + 1))
        fi
    done
    echo "$hit of 12 failed allocations landed inside a collective call"
    [ "$hit" -gt 0 ]
}
run "alloc-fail-inside-collective-orthrus" alloc_in_call orthrus 1 \
    "orthrus: rank 1: out of memory for a collective call's exchange"
run "alloc-fail-inside-collective-e10" alloc_in_call e10 0 \
    "e10_cache: rank 0: cannot write the cache file (Cannot allocate memory"

# ENOSPC from the global file system (a 256 KiB tmpfs; the job writes 384
# KiB): an MPI error at a write, sync or close on every rank, never a hang
enospc_case() {
    umount "$mnt" 2> /dev/null; mkdir -p "$mnt"
    mount -t tmpfs -o size=256k tmpfs "$mnt" || { echo "cannot mount a tmpfs"; return 2; }
    frun "$1" 2 ./t_fault "$mnt/f.dat" error > "$out/enospc.log" 2>&1
    local rc=$?
    cat "$out/enospc.log"
    umount "$mnt"
    [ "$rc" -eq 0 ] && grep -q "t_fault: OK" "$out/enospc.log"
}
if mkdir -p "$mnt" && mount -t tmpfs -o size=256k tmpfs "$mnt" 2> /dev/null; then
    umount "$mnt"
    for e in $EXTS; do run "enospc-$e" enospc_case $e; done
else
    echo "SKIP hardening/enospc-* (mounting a tmpfs needs root)"
fi

# EIO from the global file system at the e10_cache sync (test hook)
eio_case() { ROMIO_XT_NVC_TEST_SYNC_EIO=1 frun e10 2 ./t_fault "$out/eio.dat" error; }
run "eio-e10-sync" eio_case
# a failed close returned its error through the file handle it had just
# freed (ROMIO's close.c; patch mpi-io/0007, found by AddressSanitizer): under
# valgrind, no invalid read under MPI_File_close
close_error_case() {
    command -v valgrind > /dev/null || { echo "valgrind is missing"; return 1; }
    rm -f "$out"/vgc.*.log
    ROMIO_XT_NVC_TEST_SYNC_EIO=1 frun e10 2 valgrind -q --log-file="$out/vgc.%p.log" \
        ./t_fault "$out/vgc.dat" error || return 1
    ! grep -A3 "Invalid read" "$out"/vgc.*.log | grep "PMPI_File_close"
}
run "close-error-valgrind" close_error_case

# the cache directory disappears mid-job (between the writes and the sync):
# every call succeeds and the data verifies (the cache files stay open)
run "e10-cache-dir-removed" frun e10 2 ./t_fault "$out/gone.dat" ok "rm -rf $cache"

# a rank killed (SIGKILL) inside a collective write: mpiexec ends, no process
# is left, and with e10_cache romio-xt-recover replays every acknowledged round
kill_case() {
    local ext=$1 f=$out/kill.$1.dat k=3
    rm -rf "$cache" "$f"
    frun "$ext" 2 ./t_kill "$f" run $k > "$out/kill.log" 2>&1
    local rc=$?
    cat "$out/kill.log"
    [ "$rc" -ne 124 ] || { echo "mpiexec did not end"; return 1; }
    sleep 1
    pgrep -f "t_kill $f" && { echo "processes left behind"; return 1; }
    grep -q "acked $((k - 1))" "$out/kill.log" || { echo "round $((k - 1)) not acknowledged"; return 1; }
    if [ "$ext" = e10 ] || [ "$ext" = all ]; then
        ls "$cache" | grep -q . || { echo "no cache file left to recover"; return 1; }
        "$XT_PREFIX/bin/romio-xt-recover" "$cache" || return 1
    fi
    "$mpiexec" -n 1 ./t_kill "$f" verify $k
}
for e in stock e10 all; do run "sigkill-mid-collective-$e" kill_case $e; done

# a corrupt record in a cache file (negative offset, between two valid ones):
# romio-xt-recover replays the records before it, says where it stopped and
# writes nothing of it or after it
corrupt_case() {
    local d=$out/corrupt g=$out/corrupt/global.dat
    rm -rf "$d" && mkdir -p "$d"
    python3 - "$d/romioxt-nvc.1.0.global.dat" "$g" <<'PY' || return 1
import struct, sys
def rec(off, data):
    return struct.pack("<IIqqq", 0x5243564E, 0, off, len(data), 0) + data
hdr = b"ROMIOXT-NVC-1".ljust(16, b"\0") + sys.argv[2].encode()
open(sys.argv[1], "wb").write(hdr.ljust(8192, b"\0") + rec(0, b"a" * 100) +
                               rec(-4096, b"b" * 100) + rec(200, b"c" * 100))
PY
    "$XT_PREFIX/bin/romio-xt-recover" "$d" > "$d/log" 2>&1
    cat "$d/log"
    grep -q "1 record(s) replayed" "$d/log" && grep -q "stopped at a corrupt record at byte 8324" "$d/log" &&
        [ "$(stat -c %s "$g")" -eq 100 ] && [ "$(tr -d a < "$g" | wc -c)" -eq 0 ]
}
run "recover-stops-at-corrupt-record" corrupt_case

xt_finish

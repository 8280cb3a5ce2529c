#!/bin/bash
# Helgrind (valgrind's race detector) over the background threads: the
# e10_cache sync threads (nvm_cache) and the prefetch loaders, 2 ranks each.
# A race or lock-order report with a frame in romio-xt's code fails
# (test/mpi/check_valgrind.py; MPICH's own reports are left out).  Part of
# make check-sanitize (docs/hardening.md).
. "$XT_SRCDIR/test/lib.sh"
xt_test_init sanitize
cache=/dev/shm/romio-xt-hg.$$
mkdir -p "$cache" && trap 'rm -rf "$cache"' EXIT

build() {
    "$mpicc" -O1 -g -Wall -o "$out/t_nvc_io" "$XT_SRCDIR/test/nvm_cache/t_nvc_io.c" &&
    "$mpicc" -O1 -g -Wall -o "$out/t_prefetch" "$XT_SRCDIR/test/prefetch/t_prefetch.c"
}
xt_build build

HG="valgrind --tool=helgrind --error-exitcode=0 --suppressions=$src/helgrind.supp"
# hg_case NAME HINTS N PROGRAM ARGS...: HINTS "key value" lines for ROMIO_HINTS
hg_case() {
    local name=$1 hints=$2 n=$3; shift 3
    printf '%s\n' "$hints" > "$out/$name.hints"
    env -u ROMIO_XT_STATS ROMIO_HINTS="$out/$name.hints" ROMIO_XT_NVC_TEST_ALWAYS_CACHE=1 \
        ROMIO_XT_PF_TEST_ALL_READS=1 timeout 900 "$mpiexec" -n "$n" \
        $HG --log-file="$out/$name.%p.hg" "$@" || return 1
    grep -h "ERROR SUMMARY" "$out/$name".*.hg
    python3 "$XT_SRCDIR/test/mpi/check_valgrind.py" "$out/$name".*.hg
}
run "helgrind-nvm_cache-sync-threads" hg_case nvc "cb_nodes 2
e10_cache enable
e10_cache_path $cache
e10_cache_flush_flag flush_immediate
e10_cache_threads 2
ind_wr_buffer_size 16384" 2 ./t_nvc_io "$out/nvc.dat" collperf --readback
run "helgrind-prefetch-loaders" hg_case pf "" 2 ./t_prefetch "$out/pf.dat" verify \
    romio_prefetch=enable romio_prefetch_method=buffer romio_prefetch_block_size=256k \
    romio_prefetch_cache_blocks=4 romio_prefetch_read_ahead=2
xt_finish

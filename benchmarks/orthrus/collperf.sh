#!/bin/bash
# ROMIO's coll_perf (src/mpi/romio/test/coll_perf.c: a 3-D block-distributed
# array of integers, one write_all and one read_all through a darray view),
# with a 256^3 array (64 MiB) instead of upstream's ~14 GiB, as
# scripts/build-apps.sh builds it, as a harness workload: run by mpiexec on
# every rank; rank 0's report becomes RESULT lines.  Usage (from the
# harness): collperf.sh WORKDIR.  The binary is built once, next to the
# install the harness runs (LD_LIBRARY_PATH's first entry is PREFIX/lib).
set -e
prefix=${LD_LIBRARY_PATH%%:*}; prefix=${prefix%/lib}
top=$(cd "$(dirname "$0")/../.." && pwd)
exe=$prefix/libexec/romio-xt-coll_perf-256
build() {
    [ -x "$exe" ] && return 0
    sed -e "s/array_of_gsizes\[\([012]\)\] = 128 \* [0-9]*;/array_of_gsizes[\1] = 256;/" \
        "$top/_upstream/mpich-4.0.2/src/mpi/romio/test/coll_perf.c" > "$exe.c" &&
        "$prefix/bin/mpicc" -O2 -o "$exe" "$exe.c" && rm -f "$exe.c"
}
mkdir -p "$prefix/libexec"
(flock 9; build) 9> "$prefix/libexec/.coll_perf.lock"
# phase=write|read: coll_perf's own times (the write_all alone: not the
# close that writes what write-behind kept); phase=run: the whole process
# (open, write, close, open, read, close), rank 0's wall time
t0=$(date +%s.%N)
"$exe" -fname "$1/cp.dat" 2>&1 | awk -v f="$1/cp.dat" -v t0="$t0" '
/Global array size/ { n = $4 * $6 * $8 * 4 }
/Collective (write|read) time/ {
    printf "RESULT phase=%s bytes=%d seconds=%s MBps=%.3f file=%s\n", $2, n, $5, n / $5 / 1e6, f
}
END { if (n) { "date +%s.%N" | getline t1; s = t1 - t0
    printf "RESULT phase=run bytes=%d seconds=%.6f MBps=%.3f\n", 2 * n, s, 2 * n / s / 1e6 } }'


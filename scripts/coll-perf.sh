#!/bin/sh
# coll-perf.sh COLL_PERF_C OUTDIR MPICC
# ROMIO's test/coll_perf.c made a benchmark client: OUTDIR/coll_perf.c, a copy
# whose global array is N^3 ints (COLL_PERF_N, default 256: a 64 MiB file)
# instead of ~14 GiB and whose buffer is filled with a per-rank pattern
# (upstream writes uninitialised memory) so output can be compared, built
# into OUTDIR/bin/coll_perf with MPICC (again when the copy or MPICC is newer).
# Used by scripts/build-apps.sh (romio-xt's mpicc) and benchmarks/openmpi
# (Open MPI's).
set -u
cp_src=$1 out=$2 cc=$3
n=${COLL_PERF_N:-256}
cp_copy=$out/coll_perf.c
mkdir -p "$out/bin"
sed -e "s/array_of_gsizes\[\([012]\)\] = 128 \* [0-9]*;/array_of_gsizes[\1] = $n;/" \
    -e 's/^\( *\)buf = (int \*) malloc(bufcount \* sizeof(int));$/&\
\1for (MPI_Count k = 0; k < bufcount; k++) buf[k] = mynod * 1000003 + (int) k;/' \
    "$cp_src" > "$cp_copy.tmp" || exit 1
if [ "$(grep -c "array_of_gsizes\[[012]\] = $n;" "$cp_copy.tmp")" != 3 ] ||
   ! grep -q 'buf\[k\] = mynod' "$cp_copy.tmp"; then
    echo "coll-perf.sh: $cp_src is not the coll_perf.c this script knows how to edit" >&2
    exit 1
fi
cmp -s "$cp_copy.tmp" "$cp_copy" && rm -f "$cp_copy.tmp" || mv "$cp_copy.tmp" "$cp_copy"
if [ ! -x "$out/bin/coll_perf" ] || [ "$cp_copy" -nt "$out/bin/coll_perf" ] ||
   [ "$cc" -nt "$out/bin/coll_perf" ]; then
    "$cc" -O2 -o "$out/bin/coll_perf" "$cp_copy" || exit 1
    echo "coll-perf.sh: built $out/bin/coll_perf (${n}^3 ints)"
fi

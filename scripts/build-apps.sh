#!/bin/sh
# build-apps.sh PREFIX UPSTREAM APPS
# Builds the real clients that test/apps and the benchmarks run, against the
# romio-xt install in PREFIX, into APPS (e.g. _build/apps):
#   APPS/bin/coll_perf          ROMIO's test/coll_perf.c from the MPICH tree in
#                               UPSTREAM, built from a copy whose global array is
#                               N^3 ints (COLL_PERF_N, default 256: a 64 MiB
#                               file) instead of ~14 GiB, and whose buffer is
#                               filled with a per-rank pattern (upstream writes
#                               uninitialised memory) so output can be compared
#   APPS/bin/flash_io_8         PnetCDF 1.12.3's benchmarks/FLASH-IO, 8x8x8 blocks
#   APPS/bin/flash_io_16        the same with 16x16x16 blocks (E10's evaluation)
#   APPS/bin/flash_io_8_debian  8x8x8 linked by Debian's mpif90.mpich (needs
#                               libmpichfort.so.12/libmpich.so.12: runs on
#                               romio-xt through LD_LIBRARY_PATH=PREFIX/lib)
#   APPS/bin/ncmpidiff          PnetCDF's ncmpidiff
# PnetCDF comes from Debian 12's source package (apt-get source pnetcdf), its
# tarball checked against the SHA-256 sums in the .dsc, like MPICH
# (scripts/get-mpich.sh); Debian's two patches only touch a test and man pages
# and are not applied.  It is built once (APPS/pnetcdf.stamp holds a checksum of
# this script and of PREFIX's mpicc/mpif90 wrappers; rebuilt when it changes, not
# when a reinstall only touches them: PnetCDF is static and links libmpi
# dynamically).  When PnetCDF or FLASH-IO cannot be
# built, APPS/pnetcdf.skip holds the reason, the script still exits 0 and the
# tests and benchmarks report FLASH-IO as skipped; delete that file to retry.
# Exit status non-zero only if coll_perf cannot be built.
set -u
prefix=$1 upstream=$2 apps=$3
here=$(cd "$(dirname "$0")" && pwd)
script=$here/$(basename "$0")
pncver=1.12.3 pncdeb=1.12.3-1
dl=$(dirname "$upstream")/_download
pncsrc=$(dirname "$upstream")/pnetcdf-$pncver
mkdir -p "$apps/bin"

# --- coll_perf ----------------------------------------------------------------
"$here/coll-perf.sh" "$upstream/src/mpi/romio/test/coll_perf.c" "$apps" "$prefix/bin/mpicc" || exit 1

# --- PnetCDF and FLASH-IO -------------------------------------------------------
stamp=$apps/pnetcdf.stamp skip=$apps/pnetcdf.skip
key=$(cat "$script" "$prefix/bin/mpicc" "$prefix/bin/mpif90" 2>/dev/null | sha256sum | cut -d' ' -f1)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$key" ]; then
    exit 0
fi
if [ -f "$skip" ] && [ "$skip" -nt "$script" ]; then
    echo "build-apps: FLASH-IO not built: $(cat "$skip") (delete $skip to retry)"
    exit 0
fi
rm -f "$stamp" "$skip"
log=$apps/pnetcdf.log
: > "$log"
give_up() {
    echo "$1" > "$skip"
    echo "build-apps: FLASH-IO not built: $1 (log $log)" >&2
    exit 0
}

[ -x "$prefix/bin/mpif90" ] ||
    give_up "no $prefix/bin/mpif90 (MPICH was configured without Fortran; FLASH-IO is Fortran)"

# download and verify (like get-mpich.sh)
mkdir -p "$dl"
dsc=$dl/pnetcdf_$pncdeb.dsc
if [ ! -f "$dsc" ]; then
    if ! grep -rqs '^Types:.*deb-src\|^deb-src ' /etc/apt/sources.list /etc/apt/sources.list.d/; then
        echo "build-apps: enabling deb-src entries in /etc/apt/sources.list.d/debian.sources"
        sed -i 's/^Types: deb$/Types: deb deb-src/' /etc/apt/sources.list.d/debian.sources >> "$log" 2>&1
        apt-get update -q >> "$log" 2>&1
    fi
    (cd "$dl" && apt-get source -q --download-only "pnetcdf=$pncdeb") >> "$log" 2>&1
    [ -f "$dsc" ] || give_up "apt-get source pnetcdf=$pncdeb failed (no deb-src entry or no network?)"
fi
sed -n '/^Checksums-Sha256:/,/^[A-Z]/p' "$dsc" | grep '^ ' | while read -r sum size file; do
    echo "$sum  $dl/$file" | sha256sum -c --quiet - || exit 1
done || give_up "checksum mismatch in pnetcdf_$pncdeb (against $dsc)"
echo "build-apps: checksums of pnetcdf_$pncdeb verified against the .dsc"

# unpack (the orig tarball has no configure script: autoreconf it)
if [ ! -x "$pncsrc/configure" ]; then
    rm -rf "$pncsrc" "$pncsrc.tmp" && mkdir -p "$pncsrc.tmp"
    tar xf "$dl/pnetcdf_$pncver.orig.tar.xz" -C "$pncsrc.tmp" --strip-components=1 >> "$log" 2>&1 ||
        give_up "cannot unpack pnetcdf_$pncver.orig.tar.xz"
    (cd "$pncsrc.tmp" && autoreconf -fi) >> "$log" 2>&1 || give_up "autoreconf of PnetCDF failed"
    mv "$pncsrc.tmp" "$pncsrc"
fi

# configure, build, install into APPS/pnetcdf (static library, C and Fortran)
echo "build-apps: building PnetCDF $pncver with $prefix/bin/mpicc and mpif90 (a few minutes), log $log"
pbuild=$apps/pnetcdf-build pinst=$apps/pnetcdf
rm -rf "$pbuild" "$pinst" && mkdir -p "$pbuild"
(cd "$pbuild" && "$pncsrc/configure" --prefix="$pinst" --disable-cxx --disable-shared \
    SEQ_CC="${SEQ_CC:-gcc}" MPICC="$prefix/bin/mpicc" MPIF77="$prefix/bin/mpif77" MPIF90="$prefix/bin/mpif90") \
    >> "$log" 2>&1 || give_up "PnetCDF's configure failed"
make -C "$pbuild" -j2 >> "$log" 2>&1 || give_up "building PnetCDF failed"
make -C "$pbuild" install >> "$log" 2>&1 || give_up "installing PnetCDF failed"
cp "$pinst/bin/ncmpidiff" "$apps/bin/"

# FLASH-IO: a copy of the benchmark's sources per block size; compiled like
# its Makefile.am does (N_DIM=3, MAXBLOCKS=100, IONMAX=13)
flash() {  # flash NAME BLOCK MPIF90
    local d=$apps/flash-$1
    rm -rf "$d" && cp -r "$pncsrc/benchmarks/FLASH-IO" "$d" || return 1
    sed -i "s/parameter(n\([xyz]\)b=8)/parameter(n\1b=$2)/" "$d/physicaldata.fh"
    [ "$(grep -c "parameter(n[xyz]b=$2)" "$d/physicaldata.fh")" = 3 ] || return 1
    (cd "$d" && $3 -O2 -DN_DIM=3 -DMAXBLOCKS=100 -DIONMAX=13 -I. -I"$pinst/include" \
        -o "$apps/bin/flash_io_$1" get_mfluid_property.F90 flash_release.F90 \
        flash_benchmark_io.F90 checkpoint_ncmpi_parallel.F90 plotfile_ncmpi_parallel.F90 \
        -L"$pinst/lib" -lpnetcdf)
}
flash 8 8 "$prefix/bin/mpif90" >> "$log" 2>&1 || give_up "building FLASH-IO (8x8x8) failed"
flash 16 16 "$prefix/bin/mpif90" >> "$log" 2>&1 || give_up "building FLASH-IO (16x16x16) failed"
if [ -x /usr/bin/mpif90.mpich ]; then
    flash 8_debian 8 /usr/bin/mpif90.mpich >> "$log" 2>&1 ||
        give_up "building FLASH-IO with Debian's mpif90.mpich failed"
else
    give_up "Debian's mpif90.mpich is missing (package mpich; scripts/install-deps.sh installs it)"
fi
echo "$key" > "$stamp"
echo "build-apps: built PnetCDF $pncver and FLASH-IO (8^3, 16^3, 8^3 with Debian's mpif90.mpich)"

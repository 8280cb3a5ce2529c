#!/bin/sh
# build-openmpi.sh MODE SRCDIR UPSTREAM BUILD "XT_SRCS" "XT_CFLAGS"
# Builds romio-xt as Open MPI's io component BUILD/mca_io_romioxt.so for the
# Open MPI 4.1.4 of Debian 12 (openmpi-bin, libopenmpi-dev; docs/openmpi.md):
#   1. UPSTREAM: Open MPI's ROMIO component from Debian's source package
#      (scripts/get-openmpi.sh, checksums checked);
#   2. BUILD/ompi/mca/io/romioxt: a copy with the ROMIO 3.2.1 series
#      (adio/romio321/*.patch) applied, Open MPI's glue renamed romio321 ->
#      romioxt (file names, symbols, the component's name) and ROMIO's symbol
#      prefix (io_romio_conv.h) mca_io_romio_dist_ -> mca_io_romioxt_dist_;
#      src/ linked in as romio/xt, as in MPICH's ROMIO;
#   3. ROMIO's configure (FROM_OMPI=yes) with the flags Debian built its
#      romio321 with, plus -fvisibility=hidden: Open MPI dlopens components
#      RTLD_GLOBAL and Debian's mca_io_romio321.so exports ROMIO's symbols
#      (ADIO_Open, ...), which the two components must not share;
#   4. make (in BUILD/obj/romio): ROMIO, romio-xt's modules (build/xt.mk, -DXT_ROMIO=30201), the
#      glue and the component (build/openmpi.mk).
# Steps 1-3 run again when a patch or this script changes; step 4 is make's.
# MODE auto: without Open MPI 4.1.4's development files, say so and exit 0;
# MODE yes: that is an error.
set -e
mode=$1 srcdir=$(cd "$2" && pwd) upstream=$3 build=$4 xt_srcs=$5 xt_cflags=$6
ompicc=/usr/bin/mpicc.openmpi
version=4.1.4
skip() {
    if [ "$mode" = yes ]; then echo "romio-xt: --with-openmpi: $1" >&2; exit 1; fi
    echo "romio-xt: Open MPI component not built: $1"
    rm -f "$build/mca_io_romioxt.so"
    exit 0
}
[ -x "$ompicc" ] || skip "no $ompicc (Debian's libopenmpi-dev and openmpi-bin: scripts/install-deps.sh)"
"$ompicc" --showme:version 2>/dev/null | grep -q "Open MPI $version " ||
    skip "$ompicc is not Open MPI $version (the component is built for that version only)"
incdirs=$("$ompicc" --showme:incdirs)
inc=
for d in $incdirs; do inc="$inc -I$d"; done
found=no
for d in $incdirs; do [ -f "$d/ompi/mca/io/io.h" ] && found=yes; done
[ $found = yes ] || skip "Open MPI's internal headers (ompi/mca/io/io.h) are not installed (libopenmpi-dev)"

comp=$build/ompi/mca/io/romioxt
romio=$comp/romio
bdir=$build/obj/romio       # ROMIO's build directory (objects, never in src/)
stamp=$build/prepared.stamp
patches=$(ls "$srcdir"/adio/romio321/*.patch)
# the flags of Debian's romio321 (ompi_info: io_romio321_complete_configure_params)
cflags="-DNDEBUG -g -O3 -finline-functions -fno-strict-aliasing -mcx16 -fstack-protector-strong -Wformat -Werror=format-security -D__EXTENSIONS__ -fvisibility=hidden"
cppflags="-Wdate-time -D_FORTIFY_SOURCE=2$inc"
sum=$(cat "$0" $patches | sha256sum | cut -c1-16)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$sum" ]; then
    [ -f "$upstream/ompi/mca/io/romio321/romio/configure" ] ||
        "$srcdir"/scripts/get-openmpi.sh "$upstream"
    rm -rf "$build"
    mkdir -p "$build/config" "$build/ompi/mca/io"
    cp "$upstream/config/opal_mca.m4" "$build/config/"
    cp -a "$upstream/ompi/mca/io/romio321" "$comp"
    for p in $patches; do
        echo "romio-xt: applying romio321/$(basename "$p")"
        patch -s -p1 -d "$comp" < "$p"
    done
    for f in "$comp"/src/io_romio321*; do
        sed 's/romio321/romioxt/g' "$f" > "$(echo "$f" | sed 's/romio321/romioxt/')"
        rm "$f"
    done
    sed -i 's/mca_io_romio_dist_/mca_io_romioxt_dist_/' "$romio/include/io_romio_conv.h"
    grep -q mca_io_romioxt_dist_ "$romio/include/io_romio_conv.h"
    ln -sfn "$srcdir/src" "$romio/xt"
    echo "romio-xt: configuring ROMIO 3.2.1 for Open MPI, log in $bdir/configure.log"
    mkdir -p "$bdir"
    (cd "$bdir" && "$romio/configure" FROM_OMPI=yes CC=gcc CFLAGS="$cflags" CPPFLAGS="$cppflags" \
        LDFLAGS="-Wl,-z,relro" --enable-shared --disable-static --disable-aio \
        --disable-weak-symbols --disable-f77 --disable-f90 > configure.log 2>&1) ||
        { tail -n 30 "$bdir/configure.log"; exit 1; }
    echo "$sum" > "$stamp"
fi
make -s -C "$bdir" libromio_dist.la > "$build/make.log" 2>&1 || { tail -n 40 "$build/make.log"; exit 1; }
make -s -C "$bdir" -f "$srcdir/build/xt.mk" XT_SRCS="$xt_srcs" \
    XT_CFLAGS="$xt_cflags -DXT_ROMIO=30201" xt/libromioxt.la
make -s -C "$bdir" -f "$srcdir/build/openmpi.mk" mca_io_romioxt.la
cp "$bdir/.libs/mca_io_romioxt.so" "$build/mca_io_romioxt.so.tmp"
mv "$build/mca_io_romioxt.so.tmp" "$build/mca_io_romioxt.so"

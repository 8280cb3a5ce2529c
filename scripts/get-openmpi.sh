#!/bin/sh
# get-openmpi.sh DEST
# Puts Open MPI 4.1.4's ROMIO io component (ompi/mca/io/romio321: ROMIO 3.2.1
# and Open MPI's glue) and config/opal_mca.m4 (ROMIO's configure looks for it
# to know it is inside an Open MPI tree) at DEST, from Debian 12's source
# package openmpi 4.1.4-3 (apt-get source), the tarball checked against the
# SHA-256 sums in the .dsc, as scripts/get-mpich.sh does for MPICH.  Debian's
# own patches touch no file of the component and are not applied.
set -e
dest=$1
version=4.1.4
debver=4.1.4-3
dl=$(dirname "$dest")/_download
"$(dirname "$0")/get-debian-source.sh" openmpi "$debver" "$dl"
rm -rf "$dest.tmp"
mkdir -p "$dest.tmp"
tar xf "$dl/openmpi_$version.orig.tar.xz" -C "$dest.tmp" --strip-components=1 \
    "openmpi-$version/ompi/mca/io/romio321" "openmpi-$version/config/opal_mca.m4"
[ -f "$dest.tmp/ompi/mca/io/romio321/romio/adio/common/ad_open.c" ] ||
    { echo "romio-xt: openmpi_$version.orig.tar.xz has no ROMIO component" >&2; exit 1; }
rm -rf "$dest"
mv "$dest.tmp" "$dest"

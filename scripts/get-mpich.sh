#!/bin/sh
# get-mpich.sh DEST [SOURCE]
# Puts an unpacked MPICH 4.0.2 tree at DEST.  SOURCE may be a directory or a
# tarball; without it, Debian's source package is fetched with apt-get source
# and the tarball is checked against the SHA-256 sums in the .dsc.
set -e
dest=$1
src=${2:-}
version=4.0.2
debver=4.0.2-3
rm -rf "$dest.tmp"
mkdir -p "$dest.tmp"
if [ -n "$src" ] && [ -d "$src" ]; then
    echo "romio-xt: copying MPICH tree $src"
    cp -a "$src/." "$dest.tmp/"
elif [ -n "$src" ]; then
    echo "romio-xt: unpacking MPICH tarball $src"
    tar xf "$src" -C "$dest.tmp" --strip-components=1
else
    dl=$(dirname "$dest")/_download
    "$(dirname "$0")/get-debian-source.sh" mpich "$debver" "$dl"
    tar xf "$dl/mpich_$version.orig.tar.xz" -C "$dest.tmp" --strip-components=1
fi
[ -f "$dest.tmp/src/mpi/romio/adio/common/ad_open.c" ] || { echo "romio-xt: $src is not an MPICH source tree" >&2; exit 1; }
rm -rf "$dest"
mv "$dest.tmp" "$dest"

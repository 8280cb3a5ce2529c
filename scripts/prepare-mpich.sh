#!/bin/sh
# prepare-mpich.sh TREE SRCDIR: apply romio-xt's patch series to an unpacked
# MPICH tree and link our modules into its ROMIO as romio/xt.
set -e
tree=$1
srcdir=$(cd "$2" && pwd)
romio=$tree/src/mpi/romio
for p in "$srcdir"/adio/*.patch "$srcdir"/mpi-io/*.patch; do
    [ -f "$p" ] || continue
    echo "romio-xt: applying $(basename "$p")"
    patch -s -p1 -d "$romio" < "$p"
done
ln -sfn "$srcdir/src" "$romio/xt"

#!/bin/sh
# get-hdf5.sh DEST
# Puts an unpacked HDF5 1.10.8 source tree (Debian 12's hdf5 source package,
# the version of Debian's libhdf5-mpich) at DEST.  The package is fetched with
# apt-get source into DEST/../_download and every file is checked against the
# SHA-256 sums in the .dsc.  Exit status 1 with one line on stderr naming the
# cause when the download or a checksum fails.
set -e
dest=$1
debver=1.10.8+repack1-1
orig=hdf5_1.10.8+repack1.orig.tar.gz
dl=$(dirname "$dest")/_download
mkdir -p "$dl"
dsc="$dl/hdf5_$debver.dsc"
if [ ! -f "$dsc" ]; then
    if ! grep -rqs '^Types:.*deb-src\|^deb-src ' /etc/apt/sources.list /etc/apt/sources.list.d/; then
        echo "romio-xt: enabling deb-src entries in /etc/apt/sources.list.d/debian.sources"
        sed -i 's/^Types: deb$/Types: deb deb-src/' /etc/apt/sources.list.d/debian.sources
        apt-get update -q
    fi
    (cd "$dl" && apt-get source -q --download-only "hdf5=$debver" 2>&1 |
        grep -v '^W: Download is performed unsandboxed' || true)
fi
[ -f "$dsc" ] || { echo "romio-xt: apt-get source hdf5=$debver failed (no network, or deb-src not enabled)" >&2; exit 1; }
sed -n '/^Checksums-Sha256:/,/^[A-Z]/p' "$dsc" | grep '^ ' | while read -r sum size file; do
    echo "$sum  $dl/$file" | sha256sum -c --quiet - ||
        { echo "romio-xt: checksum mismatch for $file (against $dsc)" >&2; exit 1; }
done
echo "romio-xt: checksums of hdf5_$debver verified against the .dsc"
rm -rf "$dest.tmp" && mkdir -p "$dest.tmp"
tar xzf "$dl/$orig" -C "$dest.tmp" --strip-components=1
[ -f "$dest.tmp/testpar/t_shapesame.c" ] || { echo "romio-xt: $orig has no testpar/" >&2; exit 1; }
rm -rf "$dest" && mv "$dest.tmp" "$dest"

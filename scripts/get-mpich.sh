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
    mkdir -p "$dl"
    if ! ls "$dl"/mpich_$debver.dsc >/dev/null 2>&1; then
        if ! grep -rqs '^Types:.*deb-src\|^deb-src ' /etc/apt/sources.list /etc/apt/sources.list.d/; then
            echo "romio-xt: enabling deb-src entries in /etc/apt/sources.list.d/debian.sources"
            sed -i 's/^Types: deb$/Types: deb deb-src/' /etc/apt/sources.list.d/debian.sources
            apt-get update -q
        fi
        (cd "$dl" && apt-get source -q --download-only "mpich=$debver" 2>&1 | grep -v '^W: Download is performed unsandboxed' || true)
    fi
    dsc="$dl/mpich_$debver.dsc"
    [ -f "$dsc" ] || { echo "romio-xt: apt-get source mpich=$debver failed (is deb-src enabled?)" >&2; exit 1; }
    # verify every file listed under Checksums-Sha256
    sed -n '/^Checksums-Sha256:/,/^[A-Z]/p' "$dsc" | grep '^ ' | while read -r sum size file; do
        echo "$sum  $dl/$file" | sha256sum -c --quiet - || { echo "romio-xt: checksum mismatch for $file" >&2; exit 1; }
    done
    echo "romio-xt: checksums of mpich_$debver verified against the .dsc"
    tar xf "$dl/mpich_$version.orig.tar.xz" -C "$dest.tmp" --strip-components=1
fi
[ -f "$dest.tmp/src/mpi/romio/adio/common/ad_open.c" ] || { echo "romio-xt: $src is not an MPICH source tree" >&2; exit 1; }
rm -rf "$dest"
mv "$dest.tmp" "$dest"

#!/bin/sh
# get-debian-source.sh PACKAGE DEBVERSION DLDIR
# Downloads Debian's source package PACKAGE=DEBVERSION into DLDIR with
# apt-get source (enabling deb-src entries first if there are none) unless its
# .dsc is there, and checks every file the .dsc lists under Checksums-Sha256.
# Used by scripts/get-mpich.sh and scripts/get-openmpi.sh.
set -e
pkg=$1 debver=$2 dl=$3
mkdir -p "$dl"
if ! ls "$dl/${pkg}_$debver.dsc" >/dev/null 2>&1; then
    if ! grep -rqs '^Types:.*deb-src\|^deb-src ' /etc/apt/sources.list /etc/apt/sources.list.d/; then
        echo "romio-xt: enabling deb-src entries in /etc/apt/sources.list.d/debian.sources"
        sed -i 's/^Types: deb$/Types: deb deb-src/' /etc/apt/sources.list.d/debian.sources
        apt-get update -q
    fi
    (cd "$dl" && apt-get source -q --download-only "$pkg=$debver" 2>&1 | grep -v '^W: Download is performed unsandboxed' || true)
fi
dsc="$dl/${pkg}_$debver.dsc"
[ -f "$dsc" ] || { echo "romio-xt: apt-get source $pkg=$debver failed (is deb-src enabled?)" >&2; exit 1; }
sed -n '/^Checksums-Sha256:/,/^[A-Z]/p' "$dsc" | grep '^ ' | while read -r sum size file; do
    echo "$sum  $dl/$file" | sha256sum -c --quiet - || { echo "romio-xt: checksum mismatch for $file" >&2; exit 1; }
done
echo "romio-xt: checksums of ${pkg}_$debver verified against the .dsc"

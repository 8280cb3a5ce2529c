#!/bin/sh
# build-lib.sh SRCDIR ROMIO BUILD MPICC OUT "XT_SRCS" "XT_CFLAGS"
# Builds libromioxt.so: ROMIO (the patched tree ROMIO, its own configure,
# outside MPICH: default glue, no Fortran of its own) with romio-xt's modules,
# compiled with the host ABI's MPICC into BUILD, linked into OUT with only the
# MPI-IO interface exported (build/libromioxt.map).  MPI itself stays
# unresolved: the host MPI the program runs on provides it.
set -e
srcdir=$1 romio=$2 build=$3 mpicc=$4 out=$5 xt_srcs=$6 xt_cflags=$7
# HAVE_STATUS_SET_BYTES: ROMIO sets the byte count of every status it returns
# (MPI_Status_set_elements_x; configure only says so inside MPICH or Open MPI)
cppflags=-DHAVE_STATUS_SET_BYTES
args="CC=$mpicc CPPFLAGS=$cppflags --disable-f77 --disable-f90 --disable-static"
mkdir -p "$build"
if ! [ -f "$build/config.status" ] || [ "$(cat "$build/args" 2>/dev/null)" != "$args" ]; then
    echo "romio-xt: configuring ROMIO outside MPICH with $mpicc, log in $build/configure.log"
    (cd "$build" && env CC="$mpicc" CPPFLAGS="$cppflags" \
        "$romio/configure" --disable-f77 --disable-f90 --disable-static > configure.log 2>&1) ||
        { tail -n 30 "$build/configure.log"; exit 1; }
    echo "$args" > "$build/args"
fi
# MPICH's texts of ROMIO's error keys ("**filenoexist %s" -> "File %s does not
# exist"; only those whose formats are %s and %d), for core/xt_host.c
names=$romio/../errhan/errnames.txt
[ -f "$names" ] || { echo "romio-xt: no $names (MPICH's error texts)" >&2; exit 1; }
awk '/^#/ || /^[[:space:]]*$/ { next }
     { line = line $0 } /\\$/ { sub(/\\$/, "", line); next }
     { k = index(line, ":"); key = substr(line, 1, k - 1); txt = substr(line, k + 1); line = ""
       t = txt; gsub(/%[sd]/, "", t); if (k == 0 || index(t, "%")) next
       gsub(/[\\"]/, "\\&", key); gsub(/[\\"]/, "\\&", txt); gsub(/[[:space:]]+/, " ", txt)
       printf "{\"%s\", \"%s\"},\n", key, txt }' "$names" > "$build/xt_errnames.tmp"
mkdir -p "$build/adio/include"
cmp -s "$build/xt_errnames.tmp" "$build/adio/include/xt_errnames.h" ||
    mv "$build/xt_errnames.tmp" "$build/adio/include/xt_errnames.h"
echo "$xt_cflags" > "$build/xt-cflags.tmp"
cmp -s "$build/xt-cflags.tmp" "$build/xt-cflags" || { rm -rf "$build/xt"; mv "$build/xt-cflags.tmp" "$build/xt-cflags"; }
make -C "$build" -f "$srcdir/build/xt.mk" XT_SRCS="$xt_srcs" XT_CFLAGS="$xt_cflags" xt/libromioxt.la
make -C "$build/mpl"
make -C "$build" libromio.la
# every PIC object of libromio.la, its MPL and romio-xt's modules, less
# MPICH's MPI_Comm_split_type helper (it calls MPICH internals; nothing here
# calls it)
objs=$(cd "$build" && find . -name '*.lo' ! -path './test*' ! -name mpir_cst_filesys.lo | sort |
    while read -r lo; do echo "$(dirname "$lo")/$(sed -n "s/^pic_object='\(.*\)'/\1/p" "$lo")"; done)
mkdir -p "$(dirname "$out")"
(cd "$build" && ${CC:-cc} -shared -o "$out.tmp" -Wl,-soname,"$(basename "$out")" \
    -Wl,--version-script="$srcdir/build/libromioxt.map" $objs -lpthread -ldl -lrt -lm)
mv "$out.tmp" "$out"
echo "romio-xt: built $out"

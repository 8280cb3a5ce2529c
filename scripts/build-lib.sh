#!/bin/sh
# build-lib.sh ABI SRCDIR ROMIO BUILD MPICC OUT "XT_SRCS" "XT_CFLAGS"
# Builds libromioxt.so (ABI mpich), libromioxt-ompi.so (ABI ompi: Open MPI
# 5, whose MPI-1 datatypes and combiners ROMIO still names) or
# libromioxt-abi.so (ABI abi: the MPI-5 standard ABI, mpi_abi.h): ROMIO (the
# patched tree ROMIO, its own configure, outside MPICH: default glue, no
# Fortran of its own) with romio-xt's modules,
# compiled with the host ABI's MPICC into BUILD, linked into OUT with only the
# MPI-IO interface exported (build/libromioxt.map).  MPI itself stays
# unresolved (ABI mpich, abi): the host MPI the program runs on provides it.
# XT_LIBS (environment): the other libraries romio-xt needs (hwloc's).
set -e
abi=$1 srcdir=$2 romio=$3 build=$4 mpicc=$5 out=$6 xt_srcs=$7 xt_cflags=$8
# HAVE_STATUS_SET_BYTES: ROMIO sets the byte count of every status it returns
# (MPI_Status_set_elements_x; configure only says so inside MPICH or Open MPI)
case $abi in
    mpich) cppflags=-DHAVE_STATUS_SET_BYTES mpilib= ;;
    # Open MPI's handles are its data (&ompi_mpi_comm_world...), bound at load
    # time: the library needs libmpi.so.40, or a preload into a process
    # without it (a shell, valgrind's launcher) fails
    ompi) cppflags="-DHAVE_STATUS_SET_BYTES -DOMPI_OMIT_MPI1_COMPAT_DECLS=0"
        mpilib="-L$(dirname "$mpicc")/../lib -lmpi" ;;
    # the MPI-5 standard ABI (mpi_abi.h, MPICC an ABI wrapper such as MPICH
    # 5's mpicc_abi): handles are constants, MPI stays unresolved, as mpich
    abi) cppflags=-DHAVE_STATUS_SET_BYTES mpilib= ;;
    *) echo "build-lib.sh: ABI '$abi': use mpich, ompi or abi" >&2; exit 2 ;;
esac
# a sanitizer build (XT_CFLAGS has -fsanitize=...): ROMIO is compiled and
# the library linked with the same sanitizers
san=$(echo "$xt_cflags" | grep -o -- '-fsanitize=[^ ]*' || true)
cflags="-g -O2${san:+ $san -fno-omit-frame-pointer}"
args="CC=$mpicc CPPFLAGS=$cppflags CFLAGS=$cflags --disable-f77 --disable-f90 --disable-static"
mkdir -p "$build"
if ! [ -f "$build/config.status" ] || [ "$(cat "$build/args" 2>/dev/null)" != "$args" ]; then
    echo "romio-xt: configuring ROMIO outside MPICH with $mpicc, log in $build/configure.log"
    (cd "$build" && env CC="$mpicc" CPPFLAGS="$cppflags" CFLAGS="$cflags" \
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
# (romio-xt's: those of XT_SRCS only, never a stale one of a removed source)
xt_los=$(for f in $xt_srcs; do echo "./xt/${f%.c}.lo"; done)
objs=$(cd "$build" && { find . -name '*.lo' ! -path './test*' ! -path './xt/*' \
    ! -name mpir_cst_filesys.lo; echo "$xt_los"; } | sort |
    while read -r lo; do echo "$(dirname "$lo")/$(sed -n "s/^pic_object='\(.*\)'/\1/p" "$lo")"; done)
mkdir -p "$(dirname "$out")"
(cd "$build" && ${CC:-cc} -shared $san -o "$out.tmp" -Wl,-soname,"$(basename "$out")" \
    -Wl,--version-script="$srcdir/build/libromioxt.map" $objs $mpilib ${XT_LIBS:-} -lpthread -ldl -lrt -lm)
mv "$out.tmp" "$out"
echo "romio-xt: built $out"

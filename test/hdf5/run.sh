#!/bin/bash
# HDF5's own parallel tests (testpar/ of HDF5 1.10.8, Debian 12's hdf5 source
# package, checksums checked by scripts/get-hdf5.sh) on the installed
# romio-xt MPICH, once per pass (passes/<name>.hints, ROMIO_HINTS format;
# {CACHE} stands for a fresh e10 cache directory; an empty file is stock).
#
# Two modes:
#   default (make check): the programs in subset.list (name | ranks | args),
#     built with our mpicc against Debian's libhdf5-mpich (the library
#     binary; its headers and the test sources from the source package),
#     HDF5TestExpress=3 (smoke) unless set.
#   XT_HDF5_FULL=1 (make check-hdf5): the HDF5 library is built from the
#     source package with our mpicc (./configure --enable-parallel), then
#     every program of testpar's TEST_PROG_PARA runs on XT_HDF5_NPROCS ranks
#     (default 3), at upstream's express level (HDF5TestExpress as set in the
#     environment; unset = upstream's default).
# A pass's <name>.skip ("program | reason") lists programs it does not run;
# EXCLUDED.md says why.  A download or build failure prints one
# "SKIP hdf5/...: reason" line and no PASS line (exit 0): not a silent pass.
# Prints "PASS hdf5/<pass>/<program>" or "FAIL hdf5/<pass>/<program>" (with
# the output's tail).  Env: XT_PREFIX XT_BUILDDIR XT_SRCDIR, XT_HDF5_LIST (a
# list file instead of subset.list, default mode), XT_HDF5_PASSES
# (space-separated pass names, default all), XT_HDF5_TIMEOUT (per program,
# default 900 s).
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
: "${XT_PREFIX:?}" "${XT_BUILDDIR:?}" "${XT_SRCDIR:?}"
full=${XT_HDF5_FULL:-0}
out=${XT_HDF5_OUT:-$XT_BUILDDIR/test/out/hdf5$([ "$full" = 1 ] && echo -full)}
h5src=$XT_BUILDDIR/_upstream/hdf5-1.10.8
mpicc=$XT_PREFIX/bin/mpicc
mpiexec=$XT_PREFIX/bin/mpiexec
deb_inc=/usr/include/hdf5/mpich
deb_lib=/usr/lib/x86_64-linux-gnu/hdf5/mpich
export LD_LIBRARY_PATH=$XT_PREFIX/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
rm -rf "$out" && mkdir -p "$out/bin"
t0=$SECONDS

skip() { echo "SKIP hdf5/$1: $2"; exit 0; }

# --- the source package -------------------------------------------------------
if [ ! -f "$h5src/testpar/t_shapesame.c" ]; then
    sh "$XT_SRCDIR/scripts/get-hdf5.sh" "$h5src" > "$out/get.log" 2>&1 ||
        skip download "$(tail -n 1 "$out/get.log")"
fi

# --- the test programs ---------------------------------------------------------
programs_full="t_mpi t_bigio testphdf5 t_cache t_cache_image t_pread t_pshutdown t_prestart t_init_term t_shapesame t_filters_parallel"
testphdf5_srcs="testphdf5 t_dset t_file t_file_image t_mdset t_ph5basic t_coll_chunk t_span_tree t_chunk_alloc t_filter_read t_prop t_coll_md_read"

# compile one program against include dirs $inc and libraries $libs
build_prog() {
    local p=$1 srcs=$1
    [ "$p" = testphdf5 ] && srcs=$testphdf5_srcs
    "$mpicc" -O1 -w $inc $(for s in $srcs; do echo "$h5src/testpar/$s.c"; done) \
        -o "$out/bin/$p" -L"$out/bin" -lh5test $libs -lz -lm
}

# libh5test and the programs against Debian's libhdf5-mpich
build_debian() {
    [ -f "$deb_inc/H5pubconf.h" ] || { echo "no $deb_inc/H5pubconf.h (libhdf5-mpich-dev)"; return 1; }
    echo "static const char *config_srcdir = \"$h5src/testpar\";" > "$out/bin/H5srcdir_str.h"
    inc="-I$out/bin -I$deb_inc -I$h5src/src -I$h5src/test -I$h5src/testpar"
    libs="-L$deb_lib -lhdf5"
    for f in h5test testframe cache_common swmr_common external_common; do
        "$mpicc" -O1 -w -c $inc "$h5src/test/$f.c" -o "$out/bin/$f.o" || return 1
    done
    ar rcs "$out/bin/libh5test.a" "$out/bin"/*.o || return 1
    for p in $programs; do build_prog "$p" || return 1; done
}

# the library from source with our mpicc, then testpar's programs with its make
build_source() {
    local b=$XT_BUILDDIR/_build/hdf5
    if [ ! -f "$b/src/.libs/libhdf5.so" ]; then
        rm -rf "$b" && mkdir -p "$b"
        (cd "$b" && CC="$mpicc" "$h5src/configure" --enable-parallel --enable-shared \
            --disable-fortran --disable-cxx --disable-hl --disable-tools \
            --enable-build-mode=production --with-zlib=/usr) || return 1
        make -C "$b/src" -j2 || return 1
    fi
    make -C "$b/test" -j2 libh5test.la || return 1
    make -C "$b/testpar" -j2 $programs || return 1
    for p in $programs; do cp "$b/testpar/.libs/$p" "$out/bin/$p" 2>/dev/null ||
        cp "$b/testpar/$p" "$out/bin/$p" || return 1; done
    export LD_LIBRARY_PATH=$b/src/.libs:$LD_LIBRARY_PATH
}

# what to run: "program|ranks|args" lines
if [ "$full" = 1 ]; then
    programs=$programs_full
    runlist=$(for p in $programs; do echo "$p|${XT_HDF5_NPROCS:-3}|"; done)
    build=build_source
else
    runlist=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "${XT_HDF5_LIST:-$here/subset.list}")
    programs=$(echo "$runlist" | cut -d'|' -f1 | tr -d ' ' | sort -u)
    build=build_debian
    : "${HDF5TestExpress:=3}"
    export HDF5TestExpress
fi
$build > "$out/build.log" 2>&1 || skip build "$(tail -n 3 "$out/build.log" | tr '\n' ' ')(log: $out/build.log)"
echo "# hdf5: built in $((SECONDS - t0)) s ($build)"

# --- the passes -----------------------------------------------------------------
passes=${XT_HDF5_PASSES:-$(cd "$here/passes" && ls *.hints | sed 's/\.hints$//')}
fails=0
for pass in $passes; do
    dir=$out/$pass
    cache=/dev/shm/romio-xt-hdf5.$$.$pass
    mkdir -p "$dir" "$cache"
    sed "s|{CACHE}|$cache|" "$here/passes/$pass.hints" > "$dir/hints"
    hints=; [ -s "$dir/hints" ] && hints=$dir/hints
    while IFS='|' read -r p np args; do
        p=$(echo $p); np=$(echo $np)
        reason=$(sed -n "s/^$p[[:space:]]*|[[:space:]]*//p" "$here/passes/$pass.skip" 2>/dev/null)
        if [ -n "$reason" ]; then
            echo "# hdf5/$pass/$p not run: $reason (EXCLUDED.md)"
            continue
        fi
        name=$p$(echo $args | tr -cs 'A-Za-z0-9\n' '_' | sed 's/^_*/_/;s/_$//;s/^_$//')
        s=$SECONDS
        # testpar programs write their files in the current directory
        (cd "$dir" && env -u ROMIO_XT_STATS ${hints:+ROMIO_HINTS=$hints} \
            ROMIO_XT_STATS_FILE="$dir/stats.json" timeout "${XT_HDF5_TIMEOUT:-900}" \
            "$mpiexec" -n "$np" "$out/bin/$p" $args) < /dev/null > "$dir/$name.log" 2>&1
        rc=$?
        # expected: prefetch's buffer method becomes fadvise on files open for writing
        warn=$(grep "romio-xt: warning" "$dir/$name.log" | grep -cv "'buffer' could return stale data")
        if [ $rc -eq 0 ] && [ "$warn" -eq 0 ]; then
            echo "PASS hdf5/$pass/$name ($((SECONDS - s)) s)"
        else
            echo "FAIL hdf5/$pass/$name (exit $rc, $((SECONDS - s)) s)"
            grep -m 5 -E "failed|ERROR|romio-xt: warning" "$dir/$name.log" | sed 's/^/    /'
            tail -n 5 "$dir/$name.log" | sed 's/^/    /'
            fails=$((fails + 1))
        fi
    done <<< "$runlist"
    rm -rf "$cache"
done
echo "# hdf5: $((SECONDS - t0)) s in all"
exit $((fails > 0))

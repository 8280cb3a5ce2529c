#!/bin/bash
# romio-xt's library inside each host MPI: libromioxt.so in those of the
# MPICH ABI, libromioxt-ompi.so in Open MPI 4.1 and 5, libromioxt-abi.so in
# those of the MPI-5 standard ABI (scripts/host-run.sh: mpich4, mpich5, impi,
# ompi4, ompi5, mpich5-abi, impi-abi; docs/library.md).  Per host:
#   symbols        every MPI-IO symbol the host exports, the library exports
#                  too (a call to one it lacked would hand our file handle to
#                  the host's own ROMIO)
#   same-bytes-P   t_hostio's file, written with the library under pass P
#                  (test/upstream/passes: stock and each extension), equals
#                  the file the host's own MPI-IO writes, byte for byte
#                  (hosts of the MPI-5 ABI: the host's own MPI-IO under the
#                  MPICH ABI writes it; Intel MPI's own under its libmpi_abi
#                  aborts on a noncontiguous file view)
#   errhandler     user file error handlers, get/set/call, c2f/f2c
#   coll-perf-S    ROMIO's coll_perf (64^3 ints), FLASH-IO 8x8x8 (PnetCDF,
#   flash-io-S     Debian's mpif90.mpich) and test/apps' Fortran t_fio: the
#   fortran-S      files written with the library under hint set S (stock,
#                  all extensions) equal the host's own (FLASH-IO: ncmpidiff);
#                  hosts of the MPICH ABI
#   mpi/..., M/... test/mpi's suite, every module's (test/<module>) and the
#                  hardening suite, built with the host ABI's mpicc and the
#                  library ahead of the MPI, at up to 2 ranks (the module
#                  suites on the hosts in XT_HOST_SUITES: default mpich4, or all)
#   upstream/...   ROMIO's own tests in the passes of XT_HOST_PASSES (default
#                  stock, orthrus, ds-adaptive), less error and darray_read
# A host that is not installed prints "SKIP hosts/HOST: reason".
# XT_HOSTS limits the hosts (default: mpich4 mpich5 impi ompi4 ompi5
# mpich5-abi impi-abi).
. "$XT_SRCDIR/test/lib.sh"
xt_test_init hosts
if [ -n "${XT_SANITIZE:-}" ]; then
    echo "SKIP hosts: a sanitizer-built library cannot be preloaded into the hosts' uninstrumented programs"
    exit 0
fi
hostrun=$XT_SRCDIR/scripts/host-run.sh
passes=$XT_SRCDIR/test/upstream/passes
top=$out

# host_build HOST LIBNAME: HOST's programs into $bin, with its compiler;
# test/mpi's programs call romioxt_describe_stack: they link the library
# ahead of the MPI (link order; at run time it is preloaded as well)
host_build() {
    # (by its path: -L PREFIX/lib would make -lmpi find romio-xt's own MPICH)
    printf '#!/bin/sh\nexec "%s" %s cc "$@" "%s" -Wl,-rpath,"%s"\n' \
        "$hostrun" "$1" "$XT_PREFIX/lib/$2.so" "$XT_PREFIX/lib" > "$bin/mpicc"
    chmod +x "$bin/mpicc"
    printf '#!/bin/sh\nexec "%s" %s cc "$@"\n' "$hostrun" "$1" > "$bin/hostcc"
    chmod +x "$bin/hostcc"
    [ -x "$bin/t_errh" ] && return 0
    xt_build "$bin/hostcc" -O1 -g -Wall -o "$bin/t_hostio" "$src/t_hostio.c"
    xt_build "$bin/hostcc" -O1 -g -Wall -o "$bin/t_errh" "$src/t_errh.c"
    xt_build env COLL_PERF_N=64 "$XT_SRCDIR/scripts/coll-perf.sh" \
        "$XT_UPSTREAM/src/mpi/romio/test/coll_perf.c" "$bin/cp" "$bin/hostcc"
    [ "$abi" != mpich ] || xt_build mpif90.mpich -O1 -o "$bin/t_fio" "$XT_SRCDIR/test/apps/t_fio.f90"
    [ "$1" != ompi4 ] || xt_build mpif90.openmpi -O1 -o "$bin/t_fio" "$XT_SRCDIR/test/apps/t_fio.f90"
}

# the real clients: coll_perf per ABI (host_build), Fortran with Debian's
# mpif90.mpich (the MPICH ABI), FLASH-IO from make apps (Debian's mpif90)
apps=$XT_BUILDDIR/_build/apps
e10dir=$top/e10
mkdir -p "$e10dir"
printf '%s\n' "romio_ds_read adaptive" "romio_ds_write adaptive" "romio_orthrus enable" \
    "e10_cache enable" "e10_cache_path $e10dir" "romio_prefetch enable" "romio_xt_stats enable" \
    > "$top/all.hints"

# client HOST own|stock|all DIR PROGRAM ARGS...: run on HOST, output in DIR/out
client() {
    local h=$1 set=$2 d=$3; shift 3
    rm -rf "$d" && mkdir -p "$d"
    case $set in
        own) timeout 300 "$hostrun" "$h" own -n 2 "$@" ;;
        stock) timeout 300 "$hostrun" "$h" xt -n 2 "$@" ;;
        all) ROMIO_HINTS=$top/all.hints ROMIO_XT_STATS_FILE=$d/stats.jsonl \
            timeout 300 "$hostrun" "$h" xt -n 2 "$@" ;;
    esac > "$d/out" 2>&1 || { cat "$d/out"; return 1; }
}
coll_perf_case() {  # coll_perf_case HOST SET
    [ -f "$out/cp.own/f" ] ||
        client "$refhost" own "$out/cp.own" "$refbin/cp/bin/coll_perf" -fname "$out/cp.own/f" ||
        return 1
    client "$1" "$2" "$out/cp.$2" "$bin/cp/bin/coll_perf" -fname "$out/cp.$2/f" &&
        cmp "$out/cp.own/f" "$out/cp.$2/f"
}
fortran_case() {  # fortran_case HOST SET: t_fio's verdict and file
    [ -f "$out/fio.own/f" ] || client "$1" own "$out/fio.own" "$bin/t_fio" "$out/fio.own/f" || return 1
    client "$1" "$2" "$out/fio.$2" "$bin/t_fio" "$out/fio.$2/f" || return 1
    grep ' max=1065538.0 errors=0$' "$out/fio.$2/out" && cmp "$out/fio.own/f" "$out/fio.$2/f"
}
flash_case() {  # flash_case HOST SET: every variable equal to the host's own files
    [ -f "$out/fl.own/f_ncmpi_chk_0000.nc" ] ||
        client "$1" own "$out/fl.own" "$apps/bin/flash_io_8_debian" "$out/fl.own/f_" || return 1
    client "$1" "$2" "$out/fl.$2" "$apps/bin/flash_io_8_debian" "$out/fl.$2/f_" || return 1
    python3 "$XT_SRCDIR/benchmarks/apps/apps.py" --compare "$XT_PREFIX" "$apps" "$out/fl.own" \
        "$out/fl.$2" f_ncmpi_chk_0000.nc f_ncmpi_plt_cnt_0000.nc f_ncmpi_plt_crn_0000.nc
}

host_suites() {  # test/<module>/run.sh of every src/<module>/, and hardening
    local m
    for m in "$XT_SRCDIR"/src/*/; do
        m=$(basename "$m")
        [ -f "$XT_SRCDIR/test/$m/run.sh" ] && echo "$m"
    done
    echo hardening
}

# ROMIO's own tests in the passes XT_HOST_PASSES, less error (it wants
# MPICH's text in MPI_Error_string; the library's codes are the error
# classes) and darray_read (a cyclic darray's flattening lists blocks twice
# outside MPICH, so MPI_File_set_view refuses it; docs/library.md); on Open
# MPI 4.1.4 less four, under the MPI-5 ABI less five, which do not compile there
host_upstream() {
    local h=$1 mpi_h=/usr/include/x86_64-linux-gnu/mpich/mpi.h f77=mpif77.mpich t tests=()
    [ "$h" != ompi5 ] || mpi_h=${ROMIO_XT_HOSTS:-/opt/romio-xt-hosts}/openmpi-5.0.11/include/mpi.h
    [ "$h" != ompi4 ] || mpi_h=/usr/lib/x86_64-linux-gnu/openmpi/include/mpi.h
    [ "$h" != ompi4 ] || f77=mpif77.openmpi
    [ "$abi" != abi ] || mpi_h=$("$hostrun" "$h" libmpi | sed 's,/lib/libmpi_abi.so.1$,/include/mpi_abi.h,')
    "$hostrun" "$h" fortran 2> /dev/null || f77=
    for t in $(sed -n 's/^\([a-z_0-9-]*\)[[:space:]]*|.*/\1/p' "$XT_SRCDIR/test/upstream/tests.list"); do
        case $h:$t in
            *:error | *:darray_read) ;;
            ompi4:noncontig* | ompi4:i_noncontig)
                echo "SKIP $module/upstream/$t: it uses MPI-1's MPI_LB/MPI_UB, which Debian's Open MPI 4.1.4 does not declare" ;;
            # they name what the MPI-5 ABI lacks: MPI-1's MPI_LB and MPI_UB,
            # ROMIO's MPIO_Request and MPIO_Wait
            *-abi:noncontig | *-abi:noncontig_coll | *-abi:noncontig_coll2 | *-abi:async | *-abi:i_noncontig)
                echo "SKIP $module/upstream/$t: it names MPI-1's MPI_LB/MPI_UB or ROMIO's MPIO_Request, which the MPI-5 ABI lacks" ;;
            *) if ls "$XT_UPSTREAM/src/mpi/romio/test/$t".f* > /dev/null 2>&1; then
                   [ -z "$f77" ] || tests+=("$t")
               else tests+=("$t"); fi ;;
        esac
    done
    [ -n "$f77" ] || echo "SKIP $module/upstream Fortran tests: $h has no Fortran library"
    [ "$abi" != abi ] || echo "SKIP $module/upstream/noncontig, noncontig_coll, noncontig_coll2," \
        "async, i_noncontig: they use MPI_LB, MPI_UB or MPIO_Request, which the MPI-5 ABI lacks"
    XT_UPSTREAM_MPICC=$bin/mpicc XT_UPSTREAM_MPIF77=${f77:-false} XT_UPSTREAM_MPIEXEC=$out/mpiexec \
        XT_UPSTREAM_MPI_H=$mpi_h XT_UPSTREAM_OUT=$out/upstream XT_UPSTREAM_NAME=hosts/$h/upstream \
        XT_UPSTREAM_PASSES=${XT_HOST_PASSES:-stock orthrus ds-adaptive} \
        bash "$XT_SRCDIR/test/upstream/run.sh" "${tests[@]}" || fails=$((fails + 1))
}

symbols_case() {  # the host's MPI-IO symbols, less ours: none
    local want have missing
    want=$(nm -D --defined-only "$("$hostrun" "$1" libmpi)" | awk '{print $3}' |
        grep -E '^P?MPI_(File_|Register_datarep)' | sort)
    have=$(nm -D --defined-only "$XT_LIB" | awk '{print $3}' | sort)
    [ "$(echo "$want" | wc -l)" -gt 100 ] || { echo "host exports only: $want"; return 1; }
    missing=$(comm -23 <(echo "$want") <(echo "$have"))
    echo "host: $(echo "$want" | wc -l) MPI-IO symbols; $(basename "$XT_LIB") lacks: ${missing:-none}"
    [ -z "$missing" ]
}

same_bytes_case() {  # same_bytes_case HOST PASS
    local h=$1 p=$2 d=$out/bytes
    mkdir -p "$d"
    [ -f "$d/own.dat" ] || timeout 300 "$hostrun" "$refhost" own -n 2 "$refbin/t_hostio" "$d/own.dat" ||
        { rm -f "$d/own.dat"; return 1; }
    rm -f "$d/$p.dat"
    if [ -s "$passes/$p.hints" ]; then
        ROMIO_HINTS=$passes/$p.hints ROMIO_XT_STATS_FILE=$d/$p.stats \
            timeout 300 "$hostrun" "$h" xt -n 2 "$bin/t_hostio" "$d/$p.dat" || return 1
    else
        timeout 300 "$hostrun" "$h" xt -n 2 "$bin/t_hostio" "$d/$p.dat" || return 1
    fi
    cmp "$d/own.dat" "$d/$p.dat"
}

for h in ${XT_HOSTS:-mpich4 mpich5 impi ompi4 ompi5 mpich5-abi impi-abi}; do
    if ! why=$("$hostrun" "$h" own 2>&1); then
        echo "SKIP hosts/$h: $why"
        continue
    fi
    case $h in
        ompi*) abi=ompi lib=libromioxt-ompi ;;
        *-abi) abi=abi lib=libromioxt-abi ;;
        *) abi=mpich lib=libromioxt ;;
    esac
    # the reference files: the host's own MPI-IO (MPI-5 ABI hosts: under the
    # MPICH ABI, with the programs built with mpicc.mpich)
    refhost=$h refbin=$top/$abi
    if [ "$abi" = abi ]; then
        refhost=${h%-abi} refbin=$top/mpich
        if ! why=$("$hostrun" "$refhost" own 2>&1); then
            echo "SKIP hosts/$h: its reference, $refhost: $why"
            continue
        fi
        (bin=$refbin abi=mpich out=$top/$refhost module=hosts/$refhost
         mkdir -p "$bin" "$out" && host_build "$refhost" libromioxt) || { fails=$((fails + 1)); continue; }
    fi
    export XT_LIB=$XT_PREFIX/lib/$lib.so
    [ -f "$XT_LIB" ] || { echo "SKIP hosts/$h: no $XT_LIB"; continue; }
    # (programs per ABI; Open MPI's per host: 4.1 and 5.0 each their own mpicc)
    module=hosts/$h out=$top/$h bin=$top/$abi
    [ "$abi" != ompi ] || bin=$top/$h-bin refbin=$top/$h-bin
    mkdir -p "$out" "$bin"
    host_build "$h" "$lib"
    run symbols symbols_case "$h"
    for p in "$passes"/*.hints; do
        p=$(basename "$p" .hints)
        run "same-bytes-$p" same_bytes_case "$h" "$p"
    done
    for set in stock all; do run "coll-perf-$set" coll_perf_case "$h" "$set"; done
    if ! why=$("$hostrun" "$h" fortran 2>&1); then
        echo "SKIP $module/fortran and flash-io: $why"
    else
        for set in stock all; do run "fortran-$set" fortran_case "$h" "$set"; done
        if [ "$abi" != mpich ]; then
            echo "SKIP $module/flash-io: FLASH-IO is built for the MPICH ABI (Debian's mpif90.mpich)"
        elif [ -x "$apps/bin/flash_io_8_debian" ]; then
            for set in stock all; do run "flash-io-$set" flash_case "$h" "$set"; done
        else
            echo "SKIP $module/flash-io: $apps/bin/flash_io_8_debian not built (make apps)"
        fi
    fi
    run errhandler timeout 120 "$hostrun" "$h" xt -n 2 "$bin/t_errh" "$out"
    # the library's own build runs make check's suites inside Debian's MPICH
    # already (PREFIX/bin wraps mpich4): not again here
    if [ "$h" = mpich4 ] && [ "${XT_MPICH_BUILD:-yes}" = no ]; then
        echo "SKIP $module/mpi, <module> suites and upstream: make check's own parts ran them in $h"
        continue
    fi
    # the launcher test/mpi's scripts call as $mpiexec
    printf '#!/bin/sh\nexec "%s" %s xt "$@"\n' "$hostrun" "$h" > "$out/mpiexec"
    chmod +x "$out/mpiexec"
    [ "$abi" != ompi ] || export XT_NO_LONG_INFO="Open MPI's MPI_Info_set refuses values \
longer than its MPI_MAX_INFO_VAL (256) before romio-xt sees them"
    XT_LABEL=hosts/$h XT_MPICC=$bin/mpicc XT_MPIEXEC=$out/mpiexec XT_MAX_NP=2 \
        bash "$XT_SRCDIR/test/mpi/run.sh" || fails=$((fails + 1))
    # every module's own tests and the hardening suite, inside this host (the
    # MPICH ABI: their cases use MPICH's emulated nodes, Debian's
    # libhdf5-mpich and hydra's process binding)
    # make check runs them on the hosts in XT_HOST_SUITES (default mpich4: the
    # same library file serves every MPICH-ABI host; "all" for every one)
    local_suites=
    if [ "$abi" != mpich ]; then
        echo "SKIP $module/<module> suites: they need MPICH (emulated nodes, libhdf5-mpich)"
    elif [ "${XT_HOST_SUITES:-mpich4}" = all ] || [[ " ${XT_HOST_SUITES:-mpich4} " == *" $h "* ]]; then
        local_suites=$(host_suites)
    else
        echo "SKIP $module/<module> suites: XT_HOST_SUITES=all runs them on $h too"
    fi
    for m in $local_suites; do
        XT_LABEL=hosts/$h XT_MPICC=$bin/mpicc XT_MPIEXEC=$out/mpiexec XT_MAX_NP=2 \
            bash "$XT_SRCDIR/test/$m/run.sh" || fails=$((fails + 1))
    done
    unset XT_NO_LONG_INFO
    host_upstream "$h"
done
xt_finish

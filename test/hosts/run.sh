#!/bin/bash
# romio-xt's library inside each host MPI: libromioxt.so in those of the
# MPICH ABI, libromioxt-ompi.so in Open MPI 5 (scripts/host-run.sh: mpich4,
# mpich5, impi, ompi5; docs/library.md).  Per host:
#   symbols        every MPI-IO symbol the host exports, the library exports
#                  too (a call to one it lacked would hand our file handle to
#                  the host's own ROMIO)
#   same-bytes-P   t_hostio's file, written with the library under pass P
#                  (test/upstream/passes: stock and each extension), equals
#                  the file the host's own MPI-IO writes, byte for byte
#   errhandler     user file error handlers, get/set/call, c2f/f2c
#   mpi/...        test/mpi's suite, built with the host ABI's mpicc and
#                  the library ahead of the MPI, at up to 2 ranks
#   upstream/...   ROMIO's own tests in the passes of XT_HOST_PASSES
# A host that is not installed prints "SKIP hosts/HOST: reason".
# XT_HOSTS limits the hosts (default: mpich4 mpich5 impi ompi5).
. "$XT_SRCDIR/test/lib.sh"
xt_test_init hosts
hostrun=$XT_SRCDIR/scripts/host-run.sh
passes=$XT_SRCDIR/test/upstream/passes
top=$out

# host_build HOST LIBNAME: HOST's programs into $bin, with its compiler;
# test/mpi's programs call romioxt_describe_stack: they link the library
# ahead of the MPI (link order; at run time it is preloaded as well)
host_build() {
    printf '#!/bin/sh\nexec "%s" %s cc "$@" -L"%s" -Wl,-rpath,"%s" -l%s\n' \
        "$hostrun" "$1" "$XT_PREFIX/lib" "$XT_PREFIX/lib" "${2#lib}" > "$bin/mpicc"
    chmod +x "$bin/mpicc"
    [ -x "$bin/t_errh" ] && return 0
    xt_build "$hostrun" "$1" cc -O1 -g -Wall -o "$bin/t_hostio" "$src/t_hostio.c"
    xt_build "$hostrun" "$1" cc -O1 -g -Wall -o "$bin/t_errh" "$src/t_errh.c"
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
    [ -f "$d/own.dat" ] || timeout 300 "$hostrun" "$h" own -n 2 "$bin/t_hostio" "$d/own.dat" ||
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

for h in ${XT_HOSTS:-mpich4 mpich5 impi ompi5}; do
    if ! why=$("$hostrun" "$h" own 2>&1); then
        echo "SKIP hosts/$h: $why"
        continue
    fi
    case $h in ompi5) abi=ompi lib=libromioxt-ompi ;; *) abi=mpich lib=libromioxt ;; esac
    export XT_LIB=$XT_PREFIX/lib/$lib.so
    [ -f "$XT_LIB" ] || { echo "SKIP hosts/$h: no $XT_LIB"; continue; }
    module=hosts/$h out=$top/$h bin=$top/$abi
    mkdir -p "$out" "$bin"
    host_build "$h" "$lib"
    run symbols symbols_case "$h"
    for p in "$passes"/*.hints; do
        p=$(basename "$p" .hints)
        run "same-bytes-$p" same_bytes_case "$h" "$p"
    done
    run errhandler timeout 120 "$hostrun" "$h" xt -n 2 "$bin/t_errh" "$out"
    # the launcher test/mpi's scripts call as $mpiexec
    printf '#!/bin/sh\nexec "%s" %s xt "$@"\n' "$hostrun" "$h" > "$out/mpiexec"
    chmod +x "$out/mpiexec"
    XT_LABEL=hosts/$h XT_MPICC=$bin/mpicc XT_MPIEXEC=$out/mpiexec XT_MAX_NP=2 \
        bash "$XT_SRCDIR/test/mpi/run.sh" || fails=$((fails + 1))
done
xt_finish

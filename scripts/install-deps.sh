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
# the fuzz harnesses (make fuzz; test/fuzz): libFuzzer comes with clang's
# runtime; the trace reader's harness uses atheris when pip has it (else a
# mutation loop)
apt-get install -y -q --no-install-recommends clang-14 libclang-rt-14-dev
pip install -q atheris 2> /dev/null || echo "atheris not installed: fuzz_xtt.py uses its mutation loop"

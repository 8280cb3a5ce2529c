#!/bin/sh
# Installs what building and testing romio-xt needs on a fresh Debian 12 (run as root).
set -e
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends \
    build-essential gfortran autoconf automake libtool pkg-config make patch xz-utils \
    dpkg-dev ca-certificates check python3 python3-matplotlib \
    libhdf5-mpich-dev mpich valgrind m4
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

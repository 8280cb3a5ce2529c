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
# the fuzz harnesses (make fuzz; test/fuzz): libFuzzer comes with clang's
# runtime; the trace reader's harness uses atheris when pip has it (else a
# mutation loop)
apt-get install -y -q --no-install-recommends clang-14 libclang-rt-14-dev
pip install -q atheris 2> /dev/null || echo "atheris not installed: fuzz_xtt.py uses its mutation loop"

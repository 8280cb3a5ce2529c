#!/bin/sh
# Generates ./configure (needs autoconf, automake, libtool, pkg-config: scripts/install-deps.sh)
set -e
cd "$(dirname "$0")"
autoreconf -fi

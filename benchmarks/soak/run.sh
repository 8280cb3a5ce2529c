#!/bin/bash
# Soak: every extension on, a mix of MPI-IO and HDF5 for minutes (soak.c,
# soak_h5.c), every read verified; resident memory per rank must be flat
# after warm-up, descriptors and threads back to their level after each close
# (soak_report.py).
# Writes $SOAK_OUT/soak-npN.rounds.csv (every round) and soak-npN.csv (250
# rounds of it, the record docs/results/hardening keeps).
# Env: XT_PREFIX, XT_SRCDIR; SOAK_NP (2), SOAK_SECONDS (600), SOAK_NODES
# (emulated nodes, MPIR_CVAR_NUM_CLIQUES; 1), SOAK_OUT (bench-out/soak).
# HDF5 joins the mix when Debian's libhdf5-mpich-dev is there (SOAK_HDF5_INC,
# SOAK_HDF5_LIB); it links libmpich.so.12, which resolves to this MPICH's
# libmpi.so.12 through LD_LIBRARY_PATH (same ABI).
# More ranks than cores need a ch3:sock build (docs/hardening.md).
set -eu
np=${SOAK_NP:-2} secs=${SOAK_SECONDS:-600} nodes=${SOAK_NODES:-1}
out=${SOAK_OUT:-bench-out/soak}
h5inc=${SOAK_HDF5_INC:-/usr/include/hdf5/mpich}
h5lib=${SOAK_HDF5_LIB:-/usr/lib/x86_64-linux-gnu/hdf5/mpich}
src=$XT_SRCDIR/benchmarks/soak
export LD_LIBRARY_PATH=$XT_PREFIX/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p "$out/files" "$out/cache" "$out/trace"
if [ -f "$h5inc/hdf5.h" ] && [ -f "$h5lib/libhdf5.so" ]; then
    "$XT_PREFIX/bin/mpicc" -O2 -DSOAK_HDF5 -I"$h5inc" -o "$out/soak" "$src/soak.c" \
        "$src/soak_h5.c" -L"$h5lib" -lhdf5
    ! ldd "$out/soak" | grep 'libmpich\.so\.12 =>' | grep -qv "=> $XT_PREFIX/lib/" ||
        { echo "soak: libhdf5's libmpich.so.12 is not $XT_PREFIX/lib's"; exit 1; }
else
    echo "soak: no HDF5 in the mix ($h5inc/hdf5.h or $h5lib/libhdf5.so missing: libhdf5-mpich-dev)"
    "$XT_PREFIX/bin/mpicc" -O2 -o "$out/soak" "$src/soak.c"
fi
cat > "$out/hints" <<HINTS
romio_xt_stats enable
romio_ds_read adaptive
romio_ds_write adaptive
romio_orthrus enable
romio_prefetch enable
e10_cache enable
e10_cache_path $out/cache
romio_xt_trace enable
romio_xt_trace_dir $out/trace
HINTS
csv=$out/soak-np$np.rounds.csv
ROMIO_HINTS=$out/hints ROMIO_XT_STATS_FILE=/dev/null MPIR_CVAR_NUM_CLIQUES=$nodes \
    "$XT_PREFIX/bin/mpiexec" -n "$np" "$out/soak" "$secs" "$out/files" "$csv"
python3 "$src/soak_report.py" "$csv" --sample 250 "$out/soak-np$np.csv"

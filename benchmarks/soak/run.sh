#!/bin/bash
# Soak: every extension on, a mix of MPI-IO for minutes (soak.c), every read
# verified; resident memory per rank must be flat after warm-up, descriptors
# and threads back to their level after each close (soak_report.py).
# Env: XT_PREFIX, XT_SRCDIR; SOAK_NP (2), SOAK_SECONDS (600), SOAK_NODES
# (emulated nodes, MPIR_CVAR_NUM_CLIQUES; 1), SOAK_OUT (bench-out/soak).
# More ranks than cores need a ch3:sock build (docs/hardening.md).
set -eu
np=${SOAK_NP:-2} secs=${SOAK_SECONDS:-600} nodes=${SOAK_NODES:-1}
out=${SOAK_OUT:-bench-out/soak}
mkdir -p "$out/files" "$out/cache" "$out/trace"
"$XT_PREFIX/bin/mpicc" -O2 -o "$out/soak" "$XT_SRCDIR/benchmarks/soak/soak.c"
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
csv=$out/soak-np$np.csv
ROMIO_HINTS=$out/hints ROMIO_XT_STATS_FILE=/dev/null MPIR_CVAR_NUM_CLIQUES=$nodes \
    "$XT_PREFIX/bin/mpiexec" -n "$np" "$out/soak" "$secs" "$out/files" "$csv"
python3 "$XT_SRCDIR/benchmarks/soak/soak_report.py" "$csv"

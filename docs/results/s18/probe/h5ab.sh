#!/bin/bash
# h5ab.sh REPS NODES cfg... : nh_hdf5 4 ranks ch3:sock, per-phase seconds
P=/work/s15/sock/install
for r in $(seq $1); do for c in "${@:3}"; do
  d=/work/s18/h5/w; rm -rf $d; mkdir -p $d/trace
  env $( [ -s /work/s18/h5/$c ] && echo ROMIO_HINTS=/work/s18/h5/$c ) MPIR_CVAR_NUM_CLIQUES=$2 ROMIO_XT_STATS_FILE=$d/stats.jsonl LD_LIBRARY_PATH=$P/lib $P/bin/mpiexec -n 4 /work/s18/grid-C/nh_hdf5 $d/nh.h5 16 | sed "s/^/$r $c /"
done; done

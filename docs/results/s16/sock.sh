#!/bin/bash
# sock.sh PREFIX TAG REPS: openloop (4 ranks, ch3:sock, 2 emulated nodes, 200 opens) per config
P=$1; tag=$2
for r in $(seq ${3:-3}); do for c in ${CFGS:-stock ds orthrus e10 prefetch stats trace all}; do
  d=/work/s16/w; rm -rf $d; mkdir -p $d/trace /dev/shm/romio-xt-open-e10
  h=/work/s15/open/h-$c
  out=$(env $( [ -s $h ] && echo ROMIO_HINTS=$h ) MPIR_CVAR_NUM_CLIQUES=2 ROMIO_XT_STATS_FILE=$d/stats.jsonl LD_LIBRARY_PATH=$P/lib $P/bin/mpiexec -n 4 /work/s15/open/openloop-sock $d 200 4096 2>&1 | tail -1)
  echo "$tag $r $c $out"
done; done

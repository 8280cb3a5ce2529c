#!/bin/bash
# ab2.sh TAG REPS "name:libdir:mpiexecprefix:hintfile ..." : openloop2 4 ranks ch3:sock, 2 cliques
# openloop2 = benchmarks/overhead/openloop.c (built with the sock install's mpicc)
tag=$1
for r in $(seq $2); do for spec in $3; do
  IFS=: read n L M H <<<"$spec"
  d=/work/s17/w; rm -rf $d; mkdir -p $d/trace /dev/shm/romio-xt-open-e10
  out=$(env $( [ -n "$H" ] && [ -s "$H" ] && echo ROMIO_HINTS=$H ) MPIR_CVAR_NUM_CLIQUES=2 ROMIO_XT_STATS_FILE=$d/stats.jsonl LD_LIBRARY_PATH=$L $M/bin/mpiexec -n 4 ${PROG:-/work/s17/openloop2} $d ${N:-200} 4096 2>&1 | tail -1)
  echo "$tag $r $n $out"
done; done

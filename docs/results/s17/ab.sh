#!/bin/bash
# ab.sh TAG REPS "name:libdir:mpiexecprefix ..." : openloop-sock 4 ranks, 2 cliques, no hints
# openloop-sock = session 15's openloop (cycle times only); openloop2 (PROG=, fix*.txt) = benchmarks/overhead/openloop.c
tag=$1
for r in $(seq $2); do for spec in $3; do
  IFS=: read n L M <<<"$spec"
  d=/work/s17/w; rm -rf $d; mkdir -p $d
  out=$(env MPIR_CVAR_NUM_CLIQUES=2 ROMIO_XT_STATS_FILE=$d/stats.jsonl LD_LIBRARY_PATH=$L $M/bin/mpiexec -n 4 ${PROG:-/work/s15/open/openloop-sock} $d ${N:-200} 4096 2>&1 | tail -1)
  echo "$tag $r $n $out"
done; done

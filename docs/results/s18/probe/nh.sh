#!/bin/bash
# nh.sh REPS NP WL cfg...
P=${P:-/work/ci11d/install}
for r in $(seq $1); do for c in $(shuf -e "${@:4}"); do
  d=/work/s18/fo/w; rm -rf $d; mkdir -p $d/trace /dev/shm/s18e10
  env $( [ -s h/$c ] && echo ROMIO_HINTS=/work/s18/fo/h/$c ) ROMIO_XT_STATS_FILE=$d/stats.jsonl $P/bin/mpiexec -n $2 /work/s18/grid-A/noharm $3 $d/f.dat ${MIB:-1} | sed "s/^/$c /"
done; done

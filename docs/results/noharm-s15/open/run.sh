#!/bin/bash
# run.sh NAME "hint lines" [np]
P=/work/ci11d/install
d=/work/s15/open/w; rm -rf $d; mkdir -p $d/trace /dev/shm/romio-xt-open-e10
printf "$2" > /work/s15/open/h-$1
env ${BN:+LD_BIND_NOW=1} ${2:+ROMIO_HINTS=/work/s15/open/h-$1} ROMIO_XT_STATS_FILE=$d/stats.jsonl LD_LIBRARY_PATH=$P/lib $P/bin/mpiexec -n ${3:-2} /work/s15/open/openloop $d ${N:-300} 4096

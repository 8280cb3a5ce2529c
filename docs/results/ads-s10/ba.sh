#!/bin/sh
# ba.sh REPS: old/new libraries interleaved, DS warm-read cells through small holes
for r in $(seq $1); do for lib in old new; do
  L=/work/main/install/lib; [ $lib = old ] && L=/tmp/ds10/oldlib:/work/main/install/lib
  LD_LIBRARY_PATH=$L /work/main/install/bin/mpiexec -n 1 /work/main/bench-out/ds_adaptive/bin/ads_bench --dir /tmp/ds10 --reps 3 --datas 1024,4096,32768,262144,1048576 --holes 512,2048 --modes read_warm,write --variants enable,disable,adaptive 2>&1 | grep RESULT | sed "s/^/lib=$lib /"
done; done

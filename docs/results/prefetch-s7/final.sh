#!/bin/bash
# final.sh C REPS LABEL: off / main buffer (session 6) / new buffer, interleaved
C=$1; R=$2; L=$3
for r in $(seq 1 $R); do
  ./tbrun.sh /work/wt15p/install ./pf_root_new $C 1 off | sed "s/^/$L off-new /"
  ./tbrun.sh /work/main/install ./pf_root_main $C 1 buffer | sed "s/^/$L s6 /"
  ./tbrun.sh /work/wt15p/install ./pf_root_new $C 1 buffer | sed "s/^/$L new /"
done

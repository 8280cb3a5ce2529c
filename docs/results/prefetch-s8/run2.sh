#!/bin/bash
# run2.sh C REPS: off / announce (session-8 first version: install) / announce-rnd (LD_LIBRARY_PATH new lib), interleaved
C=$1 REPS=$2
for r in $(seq 1 $REPS); do
  ./run1.sh $C 1 off | sed "s/rep=1/rep=$r/"
  ./run1.sh $C 1 announce | sed "s/rep=1/rep=$r/"
  LD_LIBRARY_PATH=/tmp/p8/lib ./run1.sh $C 1 announce | sed "s/^announce/announce-rnd/; s/rep=1/rep=$r/"
done

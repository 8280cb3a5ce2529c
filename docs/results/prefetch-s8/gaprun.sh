#!/bin/bash
# gaprun.sh C REPS GAPS...: announce mode with coalescing gaps (temporary env), interleaved with off
C=$1 REPS=$2; shift 2
for r in $(seq 1 $REPS); do
  ./run1.sh $C 1 off | sed "s/rep=1/rep=$r/"
  for g in "$@"; do XT_TMP_GAP=$g ./run1.sh $C 1 announce | sed "s/^announce/announce-gap$g/; s/rep=1/rep=$r/"; done
done

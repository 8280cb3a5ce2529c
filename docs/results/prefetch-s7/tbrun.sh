#!/bin/bash
# tbrun.sh PREFIX BIN COMPUTE REPS MODES... : interleaved runs; prints mode c secs read_secs + pf stats
P=$1 BIN=$2 C=$3 REPS=$4; shift 4
D=${D:-/tmp/romio-xt-testbed/mnt/pf}; B=${B:-$((512<<20))}
for r in $(seq 1 $REPS); do for mode in "$@"; do
  rm -f st.$mode.json
  ROMIO_XT_STATS_FILE=$PWD/st.$mode.json ROMIO_HINTS=$PWD/hints.$mode $P/bin/mpiexec -n 1 $BIN --data $D --bytes $B --compute-us $C --mode $mode --seed $r ${IDLE:+--idle 1} > out.txt 2>&1
  s=$(sed -n "s/.*seconds=\([0-9.]*\) read_seconds=\([0-9.]*\) compute_seconds=\([0-9.]*\).*/\1 \2 \3/p" out.txt)
  pf=$(python3 -c "
import json,sys
try:
  for l in open('st.$mode.json'):
    j=json.loads(l); f=j.get('features',{}).get('prefetch')
    if f: print(' '.join('%s=%s'%(k,v) for k,v in f.items() if k in ('waits_for_thread','waits_timed_out','misses_block_loading','misses_block_queued','loader_threads','hits','misses','blocks_prefetched','reads_passed_no_gap','reads_passed_sequential','window_did_not_pay','wait_us','bytes_from_cache','bytes_from_fs')))
except Exception as e: pass
")
  echo "$mode c=$C rep=$r $s $pf"
done; done

#!/bin/bash
# run1.sh C REPS MODES... : interleaved pf_root runs on the testbed; one line per run
C=$1 REPS=$2; shift 2
P=/work/main/install; D=${D:-/tmp/p8tb/mnt/pf}; B=${B:-$((512<<20))}; K=${K:-}
for r in $(seq 1 $REPS); do for mode in "$@"; do
  rm -f st.$mode.json
  extra=""; [ $mode = announce ] && extra="${K:+--announce $K} ${H:+--announce-every $H} ${A:+--announce-ahead $A}"
  ROMIO_XT_STATS_FILE=$PWD/st.$mode.json ROMIO_HINTS=$PWD/hints.$mode $P/bin/mpiexec -n 1 ./pf_root --data $D --bytes $B --compute-us $C --mode $mode --seed $r ${IDLE:+--idle 1} $extra > out.txt 2>&1 || { echo "FAILED $mode"; cat out.txt; }
  s=$(sed -n "s/.*seconds=\([0-9.]*\) read_seconds=\([0-9.]*\) compute_seconds=\([0-9.]*\) announce_seconds=\([0-9.]*\).*per_read_ms=\([0-9.]*\).*/total=\1 read=\2 compute=\3 announce=\4 per_read_ms=\5/p" out.txt)
  pf=$(python3 -c "
import json
try:
  for l in open('st.$mode.json'):
    j=json.loads(l); f=j.get('features',{}).get('prefetch')
    if f: print(' '.join('%s=%s'%(k,v) for k,v in f.items() if k in ('hits','misses','blocks_prefetched','bytes_from_cache','bytes_from_fs','misses_block_queued','waits_for_thread','loader_threads','announcements','reads_passed_unannounced','wait_us','reads_passed_no_gap','window_did_not_pay')), 'fs_read_bytes=%s'%j['fs_requests']['read']['bytes'])
except Exception as e: print('nostats', e)
")
  echo "$mode c=$C rep=$r $s $pf"
done; done

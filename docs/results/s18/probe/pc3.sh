#!/bin/bash
# pc3.sh TAG REPS cfg... ; env BIN, ARGS (after DIR); writes once with stock, reads cold per cfg interleaved
P=${P:-/work/ci11d/install}; T=$1; R=$2; shift 2
O=/work/s18/pcw; mkdir -p $O; cd $O
echo 11 > /sys/module/page_reporting/parameters/page_reporting_order
export MPIR_CVAR_NUM_CLIQUES=2
ORTH_BENCH_PHASES=write ORTH_BENCH_KEEP=1 $P/bin/mpiexec -n 2 $BIN $O $ARGS >/dev/null
for r in $(seq $R); do for c in $(shuf -e "$@"); do
  ROMIO_HINTS=/work/s18/hints/$c ROMIO_XT_STATS_FILE=$O/st.$T.$c.$r ORTH_BENCH_CALLS=${CALLS:-1} ORTH_BENCH_PHASES=read ORTH_BENCH_KEEP=1 $P/bin/mpiexec -n 2 $BIN $O $ARGS > out.$T.$c.$r
done; done
echo 9 > /sys/module/page_reporting/parameters/page_reporting_order

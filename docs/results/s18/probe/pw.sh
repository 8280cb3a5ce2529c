#!/bin/bash
# pw.sh TAG REPS cfg... ; env BIN, ARGS: write phase per cfg interleaved (each its own file)
P=${P:-/work/ci11d/install}; T=$1; R=$2; shift 2
O=/work/s18/pww; mkdir -p $O; cd $O
echo 11 > /sys/module/page_reporting/parameters/page_reporting_order
export MPIR_CVAR_NUM_CLIQUES=2
for r in $(seq $R); do for c in $(shuf -e "$@"); do
  mkdir -p $O/$c; rm -f $O/$c/*
  ROMIO_HINTS=/work/s18/hints/$c ROMIO_XT_STATS_FILE=$O/st.$T.$c.$r ORTH_BENCH_CALLS=${CALLS:-1} ORTH_BENCH_PHASES=write $P/bin/mpiexec -n 2 $BIN $O/$c $ARGS > out.$T.$c.$r
done; done
echo 9 > /sys/module/page_reporting/parameters/page_reporting_order

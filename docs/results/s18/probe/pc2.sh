#!/bin/bash
# pc2.sh ELMT REPS cfg... ; cfg names map to hint files hints/<cfg>
P=${P:-/work/ci11d/install}; B=/work/s17/nc/bin/noncontig; E=$1; R=$2; shift 2
O=/work/s18/pcw; mkdir -p $O; cd $O
echo 11 > /sys/module/page_reporting/parameters/page_reporting_order
export MPIR_CVAR_NUM_CLIQUES=2
ORTH_BENCH_PHASES=write ORTH_BENCH_KEEP=1 $P/bin/mpiexec -n 2 $B $O $E ${BYTES:-4194304} ${NC:-40} >/dev/null
for r in $(seq $R); do for c in "$@"; do
  ROMIO_HINTS=/work/s18/hints/$c ROMIO_XT_STATS_FILE=$O/st.$E.$c.$r ORTH_BENCH_CALLS=${CALLS:-1} ORTH_BENCH_PHASES=read ORTH_BENCH_KEEP=1 $P/bin/mpiexec -n 2 $B $O $E ${BYTES:-4194304} ${NC:-40} > out.$E.$c.$r
done; done
echo 9 > /sys/module/page_reporting/parameters/page_reporting_order

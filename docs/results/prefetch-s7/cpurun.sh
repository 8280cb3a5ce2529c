#!/bin/bash
# cpurun.sh MODE [ALL]: one run, CPU seconds of mfs daemons and of the app
cpu(){ for p in $(pgrep -f 'mfsmount|mfschunkserver|mfsmaster'); do awk '{print $14+$15}' /proc/$p/stat; done | awk '{s+=$1} END {print s/100}'; }
a=$(cpu)
ROMIO_HINTS=$PWD/hints.$1 /usr/bin/time -f "app user %U sys %S" /work/wt15p/install/bin/mpiexec -n 1 ./pf_root_new --data /tmp/romio-xt-testbed/mnt/pf --bytes $((512<<20)) --compute-us 1900 --mode $1 --seed 1 2>&1 | grep -v '^{' | sed 's/file=.*//'
b=$(cpu); echo "$1 ${ROMIO_XT_PF_TEST_ALL_READS:-gated} mfs daemons cpu: $(echo "$b - $a" | bc)"

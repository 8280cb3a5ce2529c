#!/bin/bash
# cpurun.sh C MODE: one run; CPU seconds of this testbed's mfs daemons and of the app
C=$1 M=$2
cpu(){ for p in $(pgrep -f 'mfsmount|mfschunkserver|mfsmaster' ); do grep -q p8tb /proc/$p/cmdline 2>/dev/null && awk '{print $14+$15}' /proc/$p/stat; done | awk '{s+=$1} END {print s/100}'; }
a=$(cpu)
ROMIO_HINTS=$PWD/hints.$M /usr/bin/time -f "app user %U sys %S" /work/wt15p8/install/bin/mpiexec -n 1 ./pf_root --data /tmp/p8tb/mnt/pf --bytes $((512<<20)) --compute-us $C --mode $M --seed 1 2>&1 | grep -v '^{' | sed 's/file=.*//; s/phase=root readers=1 //'
b=$(cpu); echo "$M mfs daemons cpu: $(echo "$b - $a" | bc)"

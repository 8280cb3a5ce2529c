#!/bin/bash
# Orthrus dynamic run (seed section 3.5, Fig. 6), end to end: probe which
# interference changes the candidates' ranking, then the dynamic run (each
# candidate forced and romio_orthrus=enable, interference from call
# DYN_MARK on), then the report.
# Env: XT_PREFIX XT_BUILDDIR; DYN_MODE (interference of the run, default
# spawn), DYN_REPS (5; the probe runs 3), DYN_CALLS (200), DYN_MARK (60),
# DYN_PROBE=0 skips the probe.  Extra arguments go to dynamic.py (e.g.
# --block 65536 --depth 16, --op write, --modes none,cpu).
# Output: $XT_BUILDDIR/bench-out/orthrus-dynamic/ (probe.{csv,md},
# orthrus-dynamic.{csv,md,png}, logs/ with each run's output and trace).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=$XT_BUILDDIR/bench-out/orthrus-dynamic
py=/usr/bin/python3
common=(--prefix "$XT_PREFIX" --out "$out" --reps "${DYN_REPS:-5}" --calls "${DYN_CALLS:-200}"
        --mark "${DYN_MARK:-60}" --mode "${DYN_MODE:-spawn}")
if [ "${DYN_PROBE:-1}" != 0 ]; then
    $py "$here/dynamic.py" probe "${common[@]}" --reps 3 --calls 90 "$@"
fi
$py "$here/dynamic.py" run "${common[@]}" "$@"
$py "$here/dynamic.py" report "${common[@]}" "$@"

#!/bin/bash
# fuzz.sh SRCDIR OUTDIR SECONDS [HARNESS...]: runs each fuzz harness (built by
# build.sh fuzz into OUTDIR) for SECONDS on a copy of its seeds and regression
# inputs; prints one line per harness: executions, executions/s, coverage
# (libFuzzer's cov: edges, ft: features), crashes.  A crash's input is left in
# OUTDIR/crash-<harness>-*: fix it and add it to test/fuzz/regress/<harness>/.
set -u
src=$1 out=$2 secs=$3; shift 3
harnesses=${*:-fuzz_hints fuzz_table fuzz_recover fuzz_xtt}
rc=0
for h in $harnesses; do
    work=$out/work-$h log=$out/$h.log
    rm -rf "$work" && mkdir -p "$work"
    cp "$src"/test/fuzz/corpus/$h/* "$src"/test/fuzz/regress/$h/* "$work"/ 2>/dev/null
    if [ "$h" = fuzz_xtt ]; then
        python3 "$src/test/fuzz/fuzz_xtt.py" "$src/tools/romio-xt-phases" "$secs" "$work" > "$log" 2>&1
    else
        "$out/$h" -max_total_time="$secs" -print_final_stats=1 -artifact_prefix="$out/crash-$h-" \
            "$work" > "$log" 2>&1
    fi
    r=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
    cov=$(grep -o 'cov: [0-9]* ft: [0-9]*' "$log" | tail -1)
    echo "$h: ${secs}s, ${execs:-?} executions, ${rate:-?}/s, ${cov:-cov ?}, exit $r"
    [ "$r" -eq 0 ] || rc=1
done
exit $rc

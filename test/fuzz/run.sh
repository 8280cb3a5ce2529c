#!/bin/bash
# The fuzzers' regression inputs (make check): every input a fuzzer ever
# crashed on, and the seeds, replayed through each harness built with the
# project's compiler, ASan and UBSan (test/fuzz/build.sh replay), and the
# .xtt inputs through romio-xt-phases.  One PASS/FAIL line per harness.
. "$XT_SRCDIR/test/lib.sh"
xt_test_init fuzz
xt_build sh "$src/build.sh" "$XT_SRCDIR" "$out" replay

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1
replay_case() {  # HARNESS: its regression inputs and seeds, each must pass
    local h=$1
    "$out/$h-replay" "$src"/regress/$h/* "$src"/corpus/$h/*
}
for h in fuzz_hints fuzz_table fuzz_recover; do
    run "$h" replay_case $h
done
run fuzz_xtt python3 "$src/fuzz_xtt.py" "$XT_SRCDIR/tools/romio-xt-phases" --replay \
    "$src"/regress/fuzz_xtt/* "$src"/corpus/fuzz_xtt/*
xt_finish

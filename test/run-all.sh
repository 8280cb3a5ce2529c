#!/bin/bash
# romio-xt: all tests (make check).  Unit tests (Check), the generated docs,
# MPI integration tests, every module's tests and ROMIO's own test programs.
# Env (set by make check): XT_SRCDIR XT_BUILDDIR XT_PREFIX XT_UPSTREAM.
# XT_QUICK=1 (make check-quick): unit, README, imports, test/mpi and each
# module's tests at up to 2 ranks; no upstream, apps, HDF5 or testbed parts.
# Ends with "N passed, N failed"; exits non-zero on any failure.
set -u
pass=0 fail=0
[ "${XT_QUICK:-0}" = 1 ] && export XT_MAX_NP=2
# e10_cache: tests exercise the cache itself, also where the cache device is
# no faster than the global file (src/nvm_cache/nvc_gate.h; test hook)
export ROMIO_XT_NVC_TEST_ALWAYS_CACHE=${ROMIO_XT_NVC_TEST_ALWAYS_CACHE:-1}

tally() {  # count PASS/FAIL lines of a part's output (already printed)
    local p f
    p=$(grep -c '^PASS ' "$1"); f=$(grep -c '^FAIL ' "$1")
    pass=$((pass + p)); fail=$((fail + f))
    [ "$2" -eq 0 ] || [ "$f" -gt 0 ] || { echo "FAIL $3 (exit $2 without a FAIL line)"; fail=$((fail + 1)); }
}

part() {  # part NAME CMD...: run one part, show and tally its output
    local name=$1 log; shift
    log=$(mktemp)
    echo "== $name"
    local t0=$SECONDS
    "$@" 2>&1 | tee "$log"
    local rc=${PIPESTATUS[0]}
    tally "$log" "$rc" "$name"
    echo "== $name: $((SECONDS - t0)) s"
    rm -f "$log"
}

unit() {
    local out rc
    out=$("$XT_BUILDDIR/test/unit/check_xt" 2>&1); rc=$?
    echo "$out"
    # Check's summary: "100%: Checks: N, Failures: F, Errors: E"
    local n f e
    read -r n f e < <(echo "$out" | sed -n 's/.*Checks: \([0-9]*\), Failures: \([0-9]*\), Errors: \([0-9]*\).*/\1 \2 \3/p')
    if [ -z "${n:-}" ]; then
        echo "FAIL unit (no Check summary, exit $rc)"; fail=$((fail + 1)); return
    fi
    pass=$((pass + n - f - e)); fail=$((fail + f + e))
}

readme() {
    # docs/hints.md's hint reference and README's patch count are current
    if python3 "$XT_SRCDIR/tools/update_readme.py" --check "$XT_SRCDIR" \
        "$XT_BUILDDIR/tools/xt_hintdoc"; then
        echo "PASS readme/hint-reference"
    else
        echo "FAIL readme/hint-reference"
    fi
}

imports() {  # no import circle in src/ beyond the listed ones (tools/check-imports)
    if python3 "$XT_SRCDIR/tools/check-imports" "${XT_ROMIO_BUILD:-$XT_BUILDDIR/_build/mpich/src/mpi/romio}/xt" \
        "$XT_SRCDIR/tools/import-circles.allowed"; then
        echo "PASS imports/no-new-circles"
    else
        echo "FAIL imports/no-new-circles"
    fi
}

docs() {  # links resolve, every result is cited, docs/results < 3 MB (tools/check-docs)
    if python3 "$XT_SRCDIR/tools/check-docs" --self-test &&
        python3 "$XT_SRCDIR/tools/check-docs" "$XT_SRCDIR"; then
        echo "PASS docs/links-and-results"
    else
        echo "FAIL docs/links-and-results"
    fi
}

benchlib() {  # the benchmark library's unit tests (benchmarks/test_*.py), one line per test
    python3 -m unittest discover -v -s "$XT_SRCDIR/benchmarks" -p 'test_*.py' 2>&1 |
        sed -n -e 's/^\(test[a-z_0-9]*\) (\(.*\)) \.\.\. ok$/PASS benchmarks\/\1/p' \
            -e 's/^\(test[a-z_0-9]*\) (\(.*\)) \.\.\. \(FAIL\|ERROR\)$/FAIL benchmarks\/\1 (\2)/p' \
            -e '/^\(FAIL\|ERROR\):/,/^---/p'
    return "${PIPESTATUS[0]}"
}

history() {  # no development-history markers in the tracked files (tools/check-history)
    if python3 "$XT_SRCDIR/tools/check-history" --self-test &&
        python3 "$XT_SRCDIR/tools/check-history" "$XT_SRCDIR"; then
        echo "PASS history/no-markers"
    else
        echo "FAIL history/no-markers"
    fi
}

# fault injection and the other test hooks are compiled in only when
# configured with --enable-xt-test-hooks; the module tests need them
if [ "${XT_TEST_HOOKS:-no}" != yes ]; then
    echo "FAIL test-hooks (this build has none: ./configure --enable-xt-test-hooks, then make check)"
    fail=$((fail + 1))
fi

echo "== unit (Check)"
unit
part readme readme
part imports imports
part history history
part docs docs
part benchmarks benchlib
part mpi bash "$XT_SRCDIR/test/mpi/run.sh"
part hardening bash "$XT_SRCDIR/test/hardening/run.sh"
part fuzz bash "$XT_SRCDIR/test/fuzz/run.sh"
# every module's own tests: test/<module>/run.sh for each folder src/<module>/
for m in "$XT_SRCDIR"/src/*/; do
    m=$(basename "$m")
    [ -f "$XT_SRCDIR/test/$m/run.sh" ] && part "$m" bash "$XT_SRCDIR/test/$m/run.sh"
done
# romio-xt as Open MPI's io component (skips, with the reason, without Open MPI)
part openmpi bash "$XT_SRCDIR/test/openmpi/run.sh"
if [ "${XT_QUICK:-0}" != 1 ]; then
    part upstream bash "$XT_SRCDIR/test/upstream/run.sh"
    part apps bash "$XT_SRCDIR/test/apps/run.sh"
    part hdf5 bash "$XT_SRCDIR/test/hdf5/run.sh"
    part testbed bash "$XT_SRCDIR/test/testbed/run.sh"
    # the library inside each host MPI (skips a host that is not installed)
    part hosts bash "$XT_SRCDIR/test/hosts/run.sh"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

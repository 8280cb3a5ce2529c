#!/bin/bash
# romio-xt Orthrus tests.  Env: XT_PREFIX XT_SRCDIR XT_BUILDDIR.
# Prints one "PASS orthrus/name" / "FAIL orthrus/name" line per test.
. "$XT_SRCDIR/tests/lib.sh"
xt_test_init orthrus

build() {
    "$mpicc" -O1 -g -Wall -o "$out/t_orth" "$src/t_orth.c" &&
    "$mpicc" -O1 -g -o "$out/t_stats_io" "$XT_SRCDIR/tests/mpi/t_stats_io.c"
}
xt_build build

# nrun NODES NPROCS PROG...: mpirun on NODES emulated nodes
nrun() {
    local nodes=$1; shift
    MPIR_CVAR_NUM_CLIQUES=$nodes mpirun "$@"
}
# every candidate forced, and the selection, equal stock byte for byte
for cfg in "1 1" "1 2" "2 2" "2 4"; do
    set -- $cfg
    mkdir -p "$out/n$1p$2"
    calls=8; [ "$2" -eq 4 ] && calls=4
    run "views-nodes$1-np$2" nrun "$1" "$2" ./t_orth "$out/n$1p$2" "$calls"
done

# stats: the signature table, the winner, runs add up; independent I/O untouched
stats_case() {
    mkdir -p "$out/st"
    printf 'romio_orthrus enable\nromio_orthrus_trials 1\n' > "$out/st.hints"
    ROMIO_HINTS=$out/st.hints ROMIO_XT_STATS=1 ROMIO_XT_STATS_FILE=$out/st.json MPIR_CVAR_NUM_CLIQUES=2 \
        timeout 300 "$mpiexec" -n 2 ./t_orth "$out/st" 8 > "$out/st.out" || return 1
    python3 - "$out/st.json" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
secs = [r["features"]["orthrus"] for r in recs if "orthrus" in r.get("features", {})]
assert secs, "no orthrus section"
sel = [s for s in secs if s["forced"] == "none" and s["signatures"]]
assert sel, secs
for s in sel:
    assert s["candidates"] == ["two_phase", "core_first", "disk_first"], s
    for e in s["signatures"]:
        assert e["examinations"] >= 1 or e["phase"] == "examining", e
        if e["examinations"]:
            assert e["winner"] in s["candidates"], e
            assert set(e["throughput"]) == set(s["candidates"]), e
            assert e["winner_throughput"] == max(e["throughput"].values()), e
            assert e["throughput"][e["winner"]] == e["winner_throughput"], e
    assert sum(s["runs"].values()) == sum(e["calls"] for e in s["signatures"]), s
print(len(sel), "files with a selection; e.g.", json.dumps(sel[0]["signatures"][0]))
PY
}
run stats-section stats_case

# a bad candidate name: one warning, skipped, data still right
bad_candidate_case() {
    printf 'romio_orthrus enable\nromio_orthrus_candidates core_first,fancy\n' > "$out/bad.hints"
    ROMIO_HINTS=$out/bad.hints timeout 300 "$mpiexec" -n 2 ./t_stats_io "$out/bad.dat" write > "$out/bad.out" 2>&1 || return 1
    cat "$out/bad.out"
    [ "$(grep -c "hint romio_orthrus_candidates: unknown candidate 'fancy'" "$out/bad.out")" -eq 1 ] &&
    timeout 300 "$mpiexec" -n 2 ./t_stats_io "$out/bad.dat" verify
}
run bad-candidate-hint bad_candidate_case

# no leaks or memory errors in our code under valgrind (every candidate)
valgrind_case() {
    command -v valgrind > /dev/null || { echo "valgrind is missing"; return 1; }
    rm -rf "$out"/vg.*.log "$out/vg" && mkdir -p "$out/vg"
    nrun 2 2 valgrind -q --leak-check=full --show-leak-kinds=definite,indirect \
        --log-file="$out/vg.%p.log" ./t_orth "$out/vg" 3 || return 1
    python3 "$XT_SRCDIR/tests/mpi/check_valgrind.py" "$out"/vg.*.log
}
run "valgrind-np2" valgrind_case

xt_finish

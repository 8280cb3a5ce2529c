#!/bin/bash
# romio-xt Orthrus tests.  Env: XT_PREFIX XT_SRCDIR XT_BUILDDIR.
# Prints one "PASS orthrus/name" / "FAIL orthrus/name" line per test.
. "$XT_SRCDIR/test/lib.sh"
xt_test_init orthrus

build() {
    "$mpicc" -O1 -g -Wall -o "$out/t_orth" "$src/t_orth.c" &&
    "$mpicc" -O1 -g -o "$out/t_stats_io" "$XT_SRCDIR/test/mpi/t_stats_io.c" &&
    "$mpicc" -O1 -g -Wall -o "$out/t_orth_seq" "$src/t_orth_seq.c" &&
    "$mpicc" -O1 -g -Wall -o "$out/t_vb" "$src/t_vb.c" &&
    "$mpicc" -O1 -g -Wall -o "$out/t_vb_cons" "$src/t_vb_cons.c" &&
    "$mpicc" -O1 -g -Wall -o "$out/t_orth_desc" "$src/t_orth_desc.c" &&
    "$mpicc" -O1 -g -Wall -o "$out/matrix" "$XT_SRCDIR/benchmarks/orthrus/matrix.c" &&
    "$mpicc" -O1 -g -Wall -o "$out/contig" "$XT_SRCDIR/benchmarks/orthrus/contig.c"
}
xt_build build

# the cost model (benchmarks/orthrus/model.py): limiting cases, monotonicity,
# a prediction for every measured run it is validated against
run model-check python3 "$src/model_check.py"

# nrun NODES NPROCS PROG...: mpirun on NODES emulated nodes
nrun() {
    local nodes=$1; shift
    MPIR_CVAR_NUM_CLIQUES=$nodes mpirun "$@"
}
# every candidate forced, and the selection, equal stock byte for byte
for cfg in "1 1" "1 2" "2 2" "2 3" "2 4"; do
    set -- $cfg
    [ "$2" -le "${XT_MAX_NP:-1024}" ] || continue
    mkdir -p "$out/n$1p$2"
    calls=8; [ "$2" -gt 2 ] && calls=4
    # 3 ranks: every cached call description checked against a listing (the
    # test hook ROMIO_XT_ORTHRUS_TEST_DESC=2 aborts on a difference)
    desc=1; [ "$2" -eq 3 ] && desc=2
    ROMIO_XT_ORTHRUS_TEST_DESC=$desc run "views-nodes$1-np$2" nrun "$1" "$2" ./t_orth "$out/n$1p$2" "$calls"
done

# calls described from the cache across changes of view, count, datatype,
# pointer (individual, seek, explicit) and a rank with no data: bytes, data
# read and positions equal stock's; with the cache, then with every cached
# description checked against a listing; the cache was used
desc_case() {
    local np=$1
    mkdir -p "$out/desc$np" &&
    ROMIO_XT_STATS=1 ROMIO_XT_STATS_FILE=$out/desc$np.json MPIR_CVAR_NUM_CLIQUES=2 \
        timeout 300 "$mpiexec" -n "$np" ./t_orth_desc "$out/desc$np" &&
    ROMIO_XT_ORTHRUS_TEST_DESC=2 nrun 2 "$np" ./t_orth_desc "$out/desc$np" &&
    python3 -c "import json, sys
secs = [json.loads(l)['features']['orthrus'] for l in open(sys.argv[1]) if l.strip()
        and 'orthrus' in json.loads(l).get('features', {})]
print([(s['forced'], s['descriptions_cached'], s['descriptions_listed']) for s in secs])
# 33 of the 35 calls have a noncontiguous view: each is cached or listed once
# (forced two_phase describes none: it has nothing to decide)
secs, tp = [s for s in secs if s['forced'] != 'two_phase'], [s for s in secs if s['forced'] == 'two_phase']
assert len(secs) == 8 and all(s['descriptions_cached'] >= 10 for s in secs), secs
assert all(s['descriptions_cached'] + s['descriptions_listed'] == 33 for s in secs), secs
assert len(tp) == 2 and all(s['descriptions_cached'] + s['descriptions_listed'] + s['reductions'] == 0 for s in tp), tp" \
        "$out/desc$np.json"
}
run desc-cache-np1 desc_case 1
run desc-cache-np2 desc_case 2

# stats: the signature table, the winner, runs add up; independent I/O untouched
stats_case() {
    mkdir -p "$out/st"
    printf 'romio_orthrus enable\nromio_orthrus_trials 1\nromio_orthrus_budget 0\n' > "$out/st.hints"
    echo "romio_orthrus_memory disable" >> "$out/st.hints"
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
    # the default list, or t_orth's enable_all (two_layer named)
    assert s["candidates"] in (["two_phase", "core_first", "disk_first", "view_based",
                                "independent"],
                               ["two_phase", "core_first", "two_layer", "independent"]), s
    for e in s["signatures"]:
        assert e["examinations"] >= 1 or e["phase"] == "examining", e
        if e["examinations"]:
            assert e["winner"] in s["candidates"], e
            assert set(e["throughput"]) == set(s["candidates"]), e
            # the fastest, or two_phase (stock) within 5% of it (ORTH_SWITCH)
            best = max(e["throughput"].values())
            assert e["winner_throughput"] == best or (e["winner"] == "two_phase" and
                                                      1.05 * e["winner_throughput"] >= best), e
            assert e["throughput"][e["winner"]] == e["winner_throughput"], e
    assert sum(s["runs"].values()) == sum(e["calls"] for e in s["signatures"]), s
print(len(sel), "files with a selection; e.g.", json.dumps(sel[0]["signatures"][0]))
PY
}
run stats-section stats_case

# a first trial's piece of a call with fewer elements than pieces (the
# vector view: one element of a derived datatype per call) is split by bytes
# from a packed copy (orth_piece.c); t_orth checks every byte read and
# written, the record that the pieces were packed
piece_bytes_case() {
    mkdir -p "$out/pb"
    echo "romio_orthrus_memory disable" > "$out/pb.hints"     # every file examines afresh
    ROMIO_HINTS=$out/pb.hints ROMIO_XT_STATS=1 ROMIO_XT_STATS_FILE=$out/pb.json MPIR_CVAR_NUM_CLIQUES=2 \
        timeout 300 "$mpiexec" -n 2 ./t_orth "$out/pb" 8 > "$out/pb.out" || { cat "$out/pb.out"; return 1; }
    python3 - "$out/pb.json" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
o = [r["features"]["orthrus"] for r in recs if r["file"].endswith("/vector.enable_piece.dat")]
assert o and max(x["packed_pieces"] for x in o) > 0, o
n = [r["features"]["orthrus"] for r in recs if r["file"].endswith("/subarray.enable_piece.dat")]
assert n and all(x["packed_pieces"] == 0 for x in n), n      # 63 elements per call
print("packed pieces:", [x["packed_pieces"] for x in o])
PY
}
run piece-by-bytes piece_bytes_case

# seq NAME LOOPS SKEW_US HINTS...: t_orth_seq (returning patterns) on 2 ranks on
# 2 emulated nodes with romio_orthrus=enable and the given "key value" hints;
# stats in $out/NAME.json
seq() {
    local name=$1 loops=$2 skew=$3; shift 3
    { echo "romio_orthrus enable"; echo "romio_orthrus_budget 0"
      echo "romio_orthrus_read_io_bound ${SEQ_IO_BOUND:-1}"
      echo "romio_orthrus_memory ${SEQ_MEMORY:-disable}"
      for h in "$@"; do echo "$h"; done; } > "$out/$name.hints"
    rm -f "$out/$name.json"
    ROMIO_HINTS=$out/$name.hints ROMIO_XT_STATS=1 ROMIO_XT_STATS_FILE=$out/$name.json \
        MPIR_CVAR_NUM_CLIQUES=2 timeout 300 "$mpiexec" -n 2 ./t_orth_seq "$out/$name.dat" \
        "$loops" "$skew"
}
# orth_json FILE PYTHON: runs PYTHON with `secs` = the files' orthrus sections
orth_json() {
    python3 -c "import json, sys
secs = [json.loads(l)['features']['orthrus'] for l in open(sys.argv[1]) if l.strip()]
sigs = [e for s in secs for e in s['signatures']]
$2" "$1"
}

# ranks with different local timings (random sleeps) decide alike: no
# disagreement seen, every pattern examined, data right
skew_case() {
    seq skew 4 3000 &&
    orth_json "$out/skew.json" "
assert all(s['disagreements'] == 0 for s in secs), secs
assert len(sigs) == 4 and all(e['calls'] == 16 and e['examinations'] >= 1 for e in sigs), sigs
print([(e['op'], e['bytes'], e['winner']) for e in sigs])"
}
run skew-ranks-agree skew_case

# the per-call log: one line per call, the examination's rotation, the winner
log_case() {
    rm -f "$out/calls.csv"
    seq log 3 0 "romio_orthrus_log $out/calls.csv" || return 1
    python3 - "$out/calls.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 2 * 3 * 2 * 4, len(rows)    # 2 files x 3 loops x 2 patterns x 4 calls
for op in ("write", "read"):
    for sig in set(r["signature"] for r in rows if r["op"] == op):
        mine = [r for r in rows if r["op"] == op and r["signature"] == sig]
        # rounds of one call per candidate, every candidate in the first;
        # one dropped (1.5x slower) never comes back; ended by the choice
        end = next(i for i, r in enumerate(mine) if r["event"].startswith("chose:"))
        cands = [r["candidate"] for r in mine[:end + 1]]
        rot = ["two_phase", "core_first", "disk_first", "view_based", "independent"]
        assert cands[:5] == rot and len(cands) <= 15, cands
        rounds, left = [rot], cands[5:]
        while left:
            n = next((i for i in range(1, len(left)) if rot.index(left[i]) <= rot.index(left[i - 1])), len(left))
            rounds.append(left[:n])
            left = left[n:]
        for prev, cur in zip(rounds, rounds[1:]):
            assert cur == [c for c in prev if c in cur], rounds
        assert mine[end]["event"][6:] in rounds[-1], rounds
        assert all(r["phase"] == "examining" for r in mine[:end + 1]), mine
        # then the winner runs every call, unless its throughput drops (a
        # loaded machine): a "reexamine" row starts a new examination, which
        # ends in a choice again
        won, exam = mine[end]["event"][6:], False
        for r in mine[end + 1:]:
            if r["event"].startswith("chose:"):
                won, exam = r["event"][6:], False
            elif exam:
                assert r["phase"] == "examining", mine
            else:
                assert r["candidate"] == won and r["phase"] == "chosen", mine
                exam = r["event"] == "reexamine"
        assert all(float(r["seconds"]) > 0 for r in mine)
print(rows[:10])
PY
}
run per-call-log log_case

# reads wait for trials while two_phase's calls are I/O-bound: with the
# default romio_orthrus_read_io_bound (0.5) every read pattern's first
# 1 + 8 calls run two_phase (its reads measured), writes are examined from
# their first calls; the stats carry the measured share and the waits
io_bound_case() {
    rm -f "$out/iob.csv"
    SEQ_IO_BOUND=0.5 seq iob 4 0 "romio_orthrus_log $out/iob.csv" || return 1
    python3 - "$out/iob.csv" <<'PY' || return 1
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
for op in ("write", "read"):
    sigs = set(r["signature"] for r in rows if r["op"] == op)
    assert sigs, op
    for sig in sigs:
        ran = [r["candidate"] for r in rows if r["op"] == op and r["signature"] == sig]
        assert len(ran) >= 12, ran
        if op == "read":
            assert ran[:9] == ["two_phase"] * 9, ran
        else:
            assert ran[1] != "two_phase", ran
print(len(rows))
PY
    orth_json "$out/iob.json" "
reads = [e for e in sigs if e['op'] == 'read']
assert reads and all(0 <= e['home_read_share'] <= 1 for e in reads), reads
assert sum(s['io_bound_waits'] for s in secs) >= 8 * len(reads) // 2, secs
print([(e['home_read_share'], e['calls']) for e in reads])"
}
run io-bound-reads io_bound_case

# the table saved across runs: the second run pays no examination; a saved
# read winner other than two_phase runs after two_phase's first 3 calls (its
# rate for the winner's probation), a saved write winner from the first call
table_case() {
    rm -f "$out/tbl"
    # the four aggregating candidates: independent's tiny strided writes are
    # fast and noisy, a runner-up that would re-examine a saved winner at once
    local four="romio_orthrus_candidates two_phase,core_first,disk_first,view_based"
    seq table1 3 0 "romio_orthrus_table $out/tbl" "$four" || return 1
    [ "$(grep -vc '^#' "$out/tbl")" -eq 4 ] || { cat "$out/tbl"; return 1; }
    cp "$out/tbl" "$out/tbl.run1"     # run 2 rewrites it (a re-examination may change a winner)
    rm -f "$out/table2.csv"
    # (threshold 100: no re-examination, which a busy machine can start early)
    seq table2 2 0 "romio_orthrus_table $out/tbl" "romio_orthrus_log $out/table2.csv" "$four" \
        "romio_orthrus_threshold 100" || return 1
    python3 - "$out/tbl.run1" "$out/table2.csv" <<'PY'
import csv, sys
saved = {}
for l in open(sys.argv[1]):
    if not l.startswith("#"):
        f = l.split()
        saved[("write" if f[0] == "1" else "read", f[3])] = f[5]
rows = list(csv.DictReader(open(sys.argv[2])))
for key, winner in saved.items():
    mine = [r for r in rows if (r["op"], r["bytes"]) == key]
    # no examination first
    assert all(r["phase"] == "chosen" for r in mine[:7]), mine[:7]
    ran = [r["candidate"] for r in mine[:7]]
    if key[0] == "read" and winner != "two_phase":
        # two_phase's 3 baseline calls, then the winner (a call may be a
        # stray: run by the previous pattern's riding winner)
        assert ran.count("two_phase") >= 3 and ran[-2:] == [winner] * 2, (key, winner, ran)
    else:
        # the winner from the first call of the pattern on (the first may be
        # a stray: the previous pattern's riding winner)
        assert ran[1:4] == [winner] * 3, (key, winner, ran)
print(saved)
PY
}
run table-across-runs table_case

# riding runs: a steady pattern whose saved winner is core_first (write) or
# disk_first (read) runs it without the per-call reduction (the record rides
# on its error agreement); the next pattern's first call runs it too (a
# stray, counted); with the test hook ROMIO_XT_ORTHRUS_TEST_BIG=1000 every
# riding call takes the big path (an empty candidate call, then each
# process's own access).  t_orth_seq checks every byte either way.
ride_case() {
    rm -f "$out/ride.tbl"
    seq ride-examined 3 0 "romio_orthrus_table $out/ride.tbl" || return 1
    awk '/^#/ { print; next } { $6 = $4 == 8192 ? "two_phase" : $1 == 1 ? "core_first" : "disk_first"; print }' \
        "$out/ride.tbl" > "$out/ride.tbl.set" || return 1
    [ "$(awk '$6 ~ /_first$/' "$out/ride.tbl.set" | wc -l)" -eq 2 ] || { cat "$out/ride.tbl.set"; return 1; }
    for big in 0 1000; do
        cp "$out/ride.tbl.set" "$out/ride.tbl"
        [ "$big" -gt 0 ] && export ROMIO_XT_ORTHRUS_TEST_BIG=$big
        # no re-examination (threshold 100): under the sanitizers a slow
        # window of the saved winner re-examined it, and so ended its ride
        seq "ride$big" 2 0 "romio_orthrus_table $out/ride.tbl" "romio_orthrus_threshold 100"
        local rc=$?
        unset ROMIO_XT_ORTHRUS_TEST_BIG
        [ $rc -eq 0 ] && orth_json "$out/ride$big.json" "
print([(s['riding_calls'], s['stray_calls'], s['reductions'], s['runs']) for s in secs])
# a saved read winner rides after two_phase's 3 baseline calls
reads = lambda s: any(e['op'] == 'read' and e['calls'] for e in s['signatures'])
assert all(s['riding_calls'] >= (2 if reads(s) else 3) and s['stray_calls'] >= 1 for s in secs), secs
assert all(sum(s['runs'].values()) == sum(e['calls'] for e in s['signatures']) for s in secs), secs" || return 1
    done
}
run riding-runs ride_case

# a saved table with a steady pattern's winners (the benchmark's Matrix, 60
# calls, write then read, 3 runs sharing the table): every rank decides its
# runs alike (a selection state broadcast with a pointer in it would make
# the ranks disagree on the streak, and the third run would hang)
ride_table_case() {
    mkdir -p "$out/mt" && rm -f "$out/mt.tbl" &&
    printf 'romio_orthrus enable\nromio_orthrus_table %s\n' "$out/mt.tbl" > "$out/mt.hints" || return 1
    for i in 1 2 3; do
        ROMIO_HINTS=$out/mt.hints MPIR_CVAR_NUM_CLIQUES=2 timeout 120 "$mpiexec" -n 2 \
            ./matrix "$out/mt" 4096 4 60 || return 1
    done
    [ "$(grep -vc '^#' "$out/mt.tbl")" -ge 1 ] || { cat "$out/mt.tbl"; return 1; }
}
run riding-table ride_table_case

# the default regret bound (romio_orthrus_budget 0.05): each pattern starts
# with two_phase; the file's first trial of another candidate waits until 5%
# of the time so far covers one more two_phase call of its pattern (the log
# shows every call); view_based's view is sent only if view_based runs
budget_case() {
    # without core_first and independent: their forecasts (one process per
    # node; dense reads) run their trials right after a pattern's first call
    # (short_jobs_case, unit tests forecast_*)
    printf 'romio_orthrus enable\nromio_orthrus_memory disable\n' > "$out/budget.hints"
    echo "romio_orthrus_candidates two_phase,disk_first,view_based" >> "$out/budget.hints"
    echo "romio_orthrus_log $out/budget.csv" >> "$out/budget.hints"
    rm -f "$out/budget.json" "$out/budget.csv"
    ROMIO_HINTS=$out/budget.hints ROMIO_XT_STATS=1 ROMIO_XT_STATS_FILE=$out/budget.json \
        MPIR_CVAR_NUM_CLIQUES=2 timeout 300 "$mpiexec" -n 2 ./t_orth_seq "$out/budget.dat" 2 0 &&
    orth_json "$out/budget.json" "
for s in secs:
    print(s['runs'], s['deferred_trials'], s['trial_seconds_lost'], s['vb_view_exchanges'])
    assert s['budget'] == 0.05 and s['runs']['two_phase'] >= 8 and s['deferred_trials'] > 0, s
    assert s['runs']['view_based'] > 0 or s['vb_view_exchanges'] == 0, s" &&
    python3 - "$out/budget.csv" <<'PY'
import csv, sys
rows, files = list(csv.DictReader(open(sys.argv[1]))), []
for r in rows:                  # the call number restarts with each file
    if not files or int(r["call"]) <= int(files[-1][-1]["call"]):
        files.append([])
    files[-1].append(r)
assert len(files) == 2 and all(len(f) == 16 for f in files), [len(f) for f in files]
for f in files:
    seen, cum, first_trial = {}, 0.0, None
    for r in f:
        key, secs = (r["op"], r["signature"]), float(r["seconds"])
        if key not in seen:
            assert r["candidate"] == "two_phase", r
        if r["candidate"] == "two_phase":
            seen[key] = min(seen.get(key, secs), secs)
        elif first_trial is None:
            first_trial = (r, cum)
            assert 0.05 * cum >= 0.999 * seen[key], (r, cum, seen[key])
        cum += secs
    print("first trial:", first_trial)
PY
}
run budget-short-run-stock budget_case

# short jobs (docs/orthrus.md): IOR-like contiguous collective calls, two
# files written and read in one job.  Each process accesses one range per
# call: every pattern is decided by the view (independent from its first
# call in each file, two_phase never runs it, no examination), also where
# the second file has it from the job's memory; the winner's calls run in
# quiet runs; bytes equal stock's
short_jobs_case() {
    mkdir -p "$out/sj.stock" "$out/sj.on" &&
    # no re-examination (threshold 100): the first file's winner stays chosen
    printf 'romio_orthrus enable\nromio_orthrus_threshold 100\n' > "$out/sj.hints" &&
    rm -f "$out/sj.json" &&
    timeout 300 "$mpiexec" -n 2 ./contig "$out/sj.stock" 262144 4194304 2 2 keep &&
    ROMIO_HINTS=$out/sj.hints ROMIO_XT_STATS=1 ROMIO_XT_STATS_FILE=$out/sj.json \
        timeout 300 "$mpiexec" -n 2 ./contig "$out/sj.on" 262144 4194304 2 2 keep &&
    cmp "$out/sj.stock/contig.dat" "$out/sj.on/contig.dat" &&
    cmp "$out/sj.stock/contig.dat.1" "$out/sj.on/contig.dat.1" &&
    orth_json "$out/sj.json" "
print([(s['runs'], s['quiet_calls'], s['skipped_trials'], s['patterns_from_memory']) for s in secs])
assert len(secs) == 4, len(secs)
for s in secs:
    assert s['runs']['core_first'] == s['runs']['disk_first'] == s['runs']['view_based'] == 0, s
    assert s['disagreements'] == 0 and s['quiet_calls'] > 0, s
w1, r1, w2, r2 = secs
assert w1['patterns_from_memory'] == 0, w1     # (the aggregators never ran: above)
assert w1['runs']['independent'] > 0, w1
for s in secs:
    assert s['runs']['two_phase'] == 0 and s['decided_by_view'] >= 1, s
    for e in [e for e in s['signatures'] if e['calls']]:   # (not those adopted, unused)
        assert e['decided_by_view'] == 1 and e['examinations'] == 0, e
        assert e['phase'] == 'chosen' and e['winner'] == 'independent', e
e1 = [e for e in w1['signatures'] if e['op'] == 'write'][0]
# only a chosen winner is remembered (an examination still open at close is not)
if e1['phase'] == 'chosen':
    assert w2['patterns_from_memory'] >= 1, w2
    e = [e for e in w2['signatures'] if e['op'] == 'write'][0]
    assert e['from_table'] == 1 and e['examinations'] == 0 and e['winner'] == e1['winner'], (e, e1)
print('first file write pattern:', e1['phase'], e1['winner'])"
}
run short-jobs short_jobs_case

# one process with no hole between its pieces: every candidate accesses the
# same one range; two_phase runs every call unexamined (budget 1 would afford
# trials from the second call)
one_case() {
    printf 'romio_orthrus enable\nromio_orthrus_budget 1\n' > "$out/one.hints"
    rm -f "$out/one.json"
    ROMIO_HINTS=$out/one.hints ROMIO_XT_STATS=1 ROMIO_XT_STATS_FILE=$out/one.json \
        timeout 300 "$mpiexec" -n 1 ./t_orth_seq "$out/one.dat" 4 0 &&
    orth_json "$out/one.json" "
for s in secs:
    print(s['runs'], s['stock_calls'])
    assert s['stock_calls'] > 0 and not any(s['runs'].values()), s"
}
run one-process-contiguous one_case

# a trial the view predicts to lose is skipped: with one process per node,
# core_first is independent I/O, one access per piece; disk_first handles
# every piece in its exchange; the plot pattern's 512-byte pieces (< 1 KiB)
# never run them, the checkpoint's 16 KiB pieces do
# (budget 1: trials are affordable from the second call; the log shows every call)
predict_case() {
    printf 'romio_orthrus enable\nromio_orthrus_budget 1\nromio_orthrus_log %s\n' \
        "$out/predict.csv" > "$out/predict.hints"
    rm -f "$out/predict.json" "$out/predict.csv"
    ROMIO_HINTS=$out/predict.hints ROMIO_XT_STATS=1 ROMIO_XT_STATS_FILE=$out/predict.json \
        MPIR_CVAR_NUM_CLIQUES=2 timeout 300 "$mpiexec" -n 2 ./t_orth_seq "$out/predict.dat" 6 0 &&
    orth_json "$out/predict.json" "
for s in secs:
    print(s['runs'], s['skipped_trials'], s['trial_cost'])
    assert s['skipped_trials'] >= 1 and s['trial_cost'] >= 2, s" &&
    python3 - "$out/predict.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
plot = [r["candidate"] for r in rows if int(r["bytes"]) == 512 * 8 * 2]
cp = [r["candidate"] for r in rows if int(r["bytes"]) == 16384 * 4 * 2]
print("plot:", sorted(set(plot)), "checkpoint:", sorted(set(cp)))
assert len(plot) == len(cp) == 2 * 6 * 4, (len(plot), len(cp))
assert "core_first" not in plot and "disk_first" not in plot and len(set(plot)) > 1, plot
assert "core_first" in cp and "disk_first" in cp, cp
PY
}
run predict-skips-core-first predict_case

# over a write-behind cache (e10_cache), core_first's write trials would time
# the cache's appends while each piece is copied to the file by itself later:
# the checkpoint's 16 KiB pieces (< 64 KiB) no longer run it; disk_first
# (aggregated) still does; the file is the same as without the cache
predict_cache_case() {
    local cache=$out/predict-e10
    rm -rf "$cache" && mkdir -p "$cache"
    printf 'romio_orthrus enable\nromio_orthrus_budget 1\nromio_orthrus_log %s\ne10_cache enable\ne10_cache_path %s\n' \
        "$out/predict-c.csv" "$cache" > "$out/predict-c.hints"
    rm -f "$out/predict-c.json" "$out/predict-c.csv"
    ROMIO_HINTS=$out/predict-c.hints ROMIO_XT_STATS=1 ROMIO_XT_STATS_FILE=$out/predict-c.json \
        MPIR_CVAR_NUM_CLIQUES=2 timeout 300 "$mpiexec" -n 2 ./t_orth_seq "$out/predict-c.dat" 6 0 &&
    cmp "$out/predict-c.dat" "$out/predict.dat" &&
    python3 - "$out/predict-c.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
cp = [r["candidate"] for r in rows if int(r["bytes"]) == 16384 * 4 * 2 and r["op"] == "write"]
print("checkpoint writes:", sorted(set(cp)))
assert cp and "core_first" not in cp and "disk_first" in cp, cp
PY
}
run predict-over-cache-skips-core-first predict_cache_case

# core_first and disk_first hold at most cb_buffer_size bytes per aggregator
# and round.  4 KiB rounds: 4 checkpoint calls of 64 KiB per aggregator (16
# rounds each), 4 plot calls of 8 KiB, 4 KiB per node (core_first: 1 round)
# or all within one 64 KiB stripe, one aggregator (disk_first: 2 rounds)
rounds_case() {
    for want in core_first:68 disk_first:72; do
        local cand=${want%:*}
        seq "rounds-$cand" 1 0 "romio_orthrus_force $cand" "cb_buffer_size 4096" \
            "romio_orthrus_stripe_unit 64k" &&
        orth_json "$out/rounds-$cand.json" "
s = secs[0]
print(s['runs'], s['exchange_rounds'])
assert s['runs']['$cand'] == 8 and s['exchange_rounds'] == ${want#*:}, s" || return 1
    done
}
run rounds-cb-buffer-size rounds_case

# a malformed table: one warning, the entries before the bad line; an
# unwritable one: one warning at close; the data is right either way
bad_table_case() {
    printf '1 2 x\n' > "$out/badtbl"
    seq badtbl 1 0 "romio_orthrus_table $out/badtbl" > "$out/badtbl.out" 2>&1 || return 1
    seq notbl 1 0 "romio_orthrus_table /nonexistent/dir/tbl" > "$out/notbl.out" 2>&1 || return 1
    cat "$out/badtbl.out" "$out/notbl.out"
    [ "$(grep -c "hint romio_orthrus_table: '$out/badtbl' has a malformed line" "$out/badtbl.out")" -eq 1 ] &&
    [ "$(grep -c "hint romio_orthrus_table: cannot write '/nonexistent/dir/tbl'" "$out/notbl.out")" -eq 1 ]   # once per job
}
run bad-table-hint bad_table_case

# a bad candidate name: one warning, skipped, data still right
bad_candidate_case() {
    printf 'romio_orthrus enable\nromio_orthrus_candidates core_first,fancy\n' > "$out/bad.hints"
    ROMIO_HINTS=$out/bad.hints timeout 300 "$mpiexec" -n 2 ./t_stats_io "$out/bad.dat" write > "$out/bad.out" 2>&1 || return 1
    cat "$out/bad.out"
    [ "$(grep -c "hint romio_orthrus_candidates: unknown candidate 'fancy'" "$out/bad.out")" -eq 1 ] &&
    timeout 300 "$mpiexec" -n 2 ./t_stats_io "$out/bad.dat" verify
}
run bad-candidate-hint bad_candidate_case

# view_based across calls (t_vb): reads after writes hit the aggregators'
# cache, an independent write and a set_view in the middle, sync; the file
# equals stock's; NAME HINTS... (key value); stats in $out/NAME.json
vb_run() {
    local name=$1; shift
    { for h in "$@"; do echo "$h"; done; } > "$out/$name.hints"
    rm -f "$out/$name.json" "$out/$name.dat"
    ROMIO_HINTS=$out/$name.hints ROMIO_XT_STATS=1 ROMIO_XT_STATS_FILE=$out/$name.json \
        MPIR_CVAR_NUM_CLIQUES=2 timeout 300 "$mpiexec" -n 2 ./t_vb "$out/$name.dat" &&
    cmp "$out/vb-stock.dat" "$out/$name.dat"
}
# vb_json NAME PYTHON: PYTHON with `o` = the orthrus section of the handle
# that ran view_based most (other handles: the tests' MPI_COMM_SELF reads)
vb_json() {
    python3 -c "import json, sys
o = max((json.loads(l)['features']['orthrus'] for l in open(sys.argv[1]) if l.strip()),
        key=lambda o: o['runs']['view_based'])
print({k: v for k, v in o.items() if k.startswith('vb_')})
$2" "$out/$1.json"
}
vb_case() {
    rm -f "$out/vb-stock.dat"
    mpirun 2 ./t_vb "$out/vb-stock.dat" || return 1
    vb_run vb "romio_orthrus_force view_based" &&
    vb_json vb "
assert o['runs']['view_based'] > 0 and o['vb_cache_hits'] > 0, o
assert o['vb_view_exchanges'] == 3 and o['vb_view_bytes_sent'] > 0, o
assert o['vb_flushes_call_end'] > 0 and o['vb_flushes_pool_full'] == 0, o
assert o['vb_cache_misses'] > 0 and o['vb_view_fallbacks'] == 0, o" &&
    vb_run vb-behind "romio_orthrus_force view_based" "romio_vb_write_behind enable" &&
    vb_json vb-behind "
assert o['vb_flushes_call_end'] == 0 and o['vb_cache_misses'] > 0, o
assert o['vb_flushes_read_miss'] + o['vb_flushes_sync'] + o['vb_flushes_close'] > 0, o" &&
    vb_run vb-strict "romio_orthrus_force view_based" "romio_vb_write_behind strict" &&
    vb_json vb-strict "assert o['vb_flushes_call_end'] > 0, o" &&
    vb_run vb-pool "romio_orthrus_force view_based" "cb_buffer_size 64" \
        "romio_vb_cache_size 64" &&
    vb_json vb-pool "assert o['vb_flushes_pool_full'] > 0, o" &&
    vb_run vb-grow "romio_orthrus_force view_based" "cb_buffer_size 64" \
        "romio_vb_cache_size 4096" &&
    vb_json vb-grow "assert o['vb_pool_grown'] > 0 and o['vb_cache_hits'] > 0, o" &&
    vb_run vb-lazy "romio_orthrus_force view_based" "romio_vb_lazy enable" \
        "romio_vb_prefetch enable" "cb_buffer_size 4096" &&
    vb_json vb-lazy "assert o['vb_prefetched_bytes'] > 0 and o['vb_view_exchanges'] == 3, o" &&
    vb_run vb-select "romio_orthrus enable" "romio_orthrus_trials 1" "romio_orthrus_budget 0"
}
run view-based-cache vb_case

# bad romio_vb_cache_size values: one warning each, the default, data right
vb_bad_case() {
    local v re
    for v in -1 0 1x; do
        printf 'romio_orthrus_force view_based\nromio_vb_cache_size %s\n' "$v" > "$out/vbbad.hints"
        ROMIO_HINTS=$out/vbbad.hints timeout 300 "$mpiexec" -n 2 ./t_vb "$out/vbbad.dat" \
            > "$out/vbbad.out" 2>&1 || { cat "$out/vbbad.out"; return 1; }
        cat "$out/vbbad.out"
        re="hint romio_vb_cache_size: bad value '$v' .*; using '67108864'"
        [ "$(grep -c "romio-xt: warning" "$out/vbbad.out")" -eq 1 ] &&
            grep -Eq "$re" "$out/vbbad.out" && cmp "$out/vb-stock.dat" "$out/vbbad.dat" || return 1
    done
}
run view-based-bad-hints vb_bad_case

# view_based write-behind and MPI's consistency rules (t_vb_cons: byte
# comparisons inside) at 1, 2 and 4 ranks: stock, write-behind, a pool and
# log of one small block (LRU and log-full flushes), write-through (the
# default), the selection with write-behind, background flushing, and
# background flushing held back until the next collective operation (test
# hook), so that it writes the older collective bytes after the process's
# independent write over them: the rewrite from the log must win
vb_cons_case() {
    local np=$1 name
    local wb=romio_vb_write_behind=enable bg=romio_vb_write_behind=background
    for cfg in "stock" "wb romio_orthrus_force=view_based $wb" \
        "small romio_orthrus_force=view_based $wb cb_buffer_size=64 romio_vb_cache_size=64" \
        "through romio_orthrus_force=view_based" \
        "select romio_orthrus=enable $wb romio_orthrus_trials=1 romio_orthrus_budget=0" \
        "bg romio_orthrus_force=view_based $bg" \
        "late romio_orthrus_force=view_based $bg ROMIO_XT_TEST_VB_BG_LATE=1"; do
        set -- $cfg
        name=cons$np-$1; shift
        { for h in "$@"; do [ "${h#ROMIO_XT_}" = "$h" ] && echo "${h%%=*} ${h#*=}"; done; } \
            > "$out/$name.hints"
        env $(printf '%s\n' "$@" | grep '^ROMIO_XT_TEST_') ROMIO_HINTS=$out/$name.hints \
            ROMIO_XT_STATS=1 ROMIO_XT_STATS_FILE=$out/$name.json \
            MPIR_CVAR_NUM_CLIQUES=2 timeout 300 "$mpiexec" -n "$np" ./t_vb_cons "$out/$name.dat" ||
            return 1
        [ "$np" -eq 1 ] || cmp "$out/cons$np-stock.dat" "$out/$name.dat" || return 1
    done
    [ "$np" -eq 1 ] && return 0
    vb_json "cons$np-wb" "assert o['vb_flushes_call_end'] == 0 and o['vb_flushes_sync'] > 0, o" &&
    vb_json "cons$np-small" "assert o['vb_flushes_pool_full'] > 0 and o['vb_flushes_log_full'] > 0, o" &&
    vb_json "cons$np-late" "assert o['vb_flushes_background'] > 0, o
assert o['vb_bytes_rewritten'] > 0 and o['vb_flushes_call_end'] == 0, o"
}
for np in $(xt_np 1 2 4); do
    run "view-based-consistency-np$np" vb_cons_case "$np"
done

# background flushing where a layer below Orthrus sees the writes (adaptive
# data sieving): one warning, write-behind without the thread, data right
vb_bg_fallback_case() {
    printf 'romio_orthrus_force view_based\nromio_vb_write_behind background\nromio_ds_write adaptive\n' \
        > "$out/bgfb.hints"
    ROMIO_HINTS=$out/bgfb.hints ROMIO_XT_STATS=1 ROMIO_XT_STATS_FILE=$out/bgfb.json \
        MPIR_CVAR_NUM_CLIQUES=2 timeout 300 "$mpiexec" -n 2 ./t_vb_cons "$out/bgfb.dat" \
        > "$out/bgfb.out" 2>&1 || { cat "$out/bgfb.out"; return 1; }
    cat "$out/bgfb.out"
    [ "$(grep -c "romio-xt: warning" "$out/bgfb.out")" -eq 1 ] &&
        grep -q "hint romio_vb_write_behind: 'background' cannot .*adaptive data sieving.*using 'enable'" \
            "$out/bgfb.out" && cmp "$out/cons2-stock.dat" "$out/bgfb.dat" &&
        vb_json bgfb "assert o['vb_flushes_background'] == 0 and o['vb_flushes_sync'] > 0, o"
}
run view-based-background-fallback vb_bg_fallback_case

# a job that ends without MPI_File_close loses only what was not synced
vb_noclose_case() {
    printf 'romio_orthrus_force view_based\nromio_vb_write_behind enable\n' > "$out/noclose.hints"
    ROMIO_HINTS=$out/noclose.hints MPIR_CVAR_NUM_CLIQUES=2 timeout 300 \
        "$mpiexec" -n 2 ./t_vb_cons "$out/noclose.dat" noclose
    echo "exit status $? (no MPI_Finalize)"
    mpirun 2 ./t_vb_cons "$out/noclose.dat" after
}
run view-based-no-close vb_noclose_case

# a flush that fails (test hook) makes sync and close return an error on
# every rank, with write-behind and without
vb_error_case() {
    local wb
    for wb in enable:behind background:behind disable:through; do
        printf 'romio_orthrus_force view_based\nromio_vb_write_behind %s\n' ${wb%:*} \
            > "$out/verr.hints"
        ROMIO_HINTS=$out/verr.hints ROMIO_XT_TEST_VB_FLUSH_FAIL=1 MPIR_CVAR_NUM_CLIQUES=2 \
            timeout 300 "$mpiexec" -n 2 ./t_vb_cons "$out/verr.dat" "errors-${wb#*:}" || return 1
    done
}
run view-based-flush-errors vb_error_case

# no leaks or memory errors in our code under valgrind (every candidate)
valgrind_case() {
    command -v valgrind > /dev/null || { echo "valgrind is missing"; return 1; }
    rm -rf "$out"/vg.*.log "$out/vg" && mkdir -p "$out/vg"
    nrun 2 2 valgrind -q --leak-check=full --show-leak-kinds=definite,indirect \
        --log-file="$out/vg.%p.log" ./t_orth "$out/vg" 3 || return 1
    python3 "$XT_SRCDIR/test/mpi/check_valgrind.py" "$out"/vg.*.log
}
run "valgrind-np2" valgrind_case

xt_finish

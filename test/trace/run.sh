#!/bin/bash
# romio-xt trace layer and romio-xt-phases tests.  Env: XT_PREFIX XT_SRCDIR XT_BUILDDIR.
# Prints one "PASS trace/name" / "FAIL trace/name" line per test.
. "$XT_SRCDIR/test/lib.sh"
xt_test_init trace
phases=$XT_PREFIX/bin/romio-xt-phases

build() {
    "$mpicc" -O1 -g -Wall -o "$out/t_phases" "$src/t_phases.c"
}
xt_build build

# the synthetic job: 3 write phases 1.5 s apart, then a read phase, 2 ranks;
# the tool must find exactly 4 phases with the bytes the job moved
NREQ=64 RB=8192
exact() {
    mkdir -p "$out/job" "$out/tr"
    ROMIO_XT_JOB_ID=job-a ROMIO_XT_TRACE=$out/tr mpirun 2 ./t_phases "$out/job" $NREQ $RB 1.5 \
        > job.out || return 1
    grep -q '^bad bytes 0$' job.out || { echo "data check failed"; return 1; }
    ls "$out/tr"/job_a-{0,1}.xtt > /dev/null || { echo "expected job_a-0.xtt, job_a-1.xtt"; return 1; }
    "$phases" --json --png "$out/phases.png" "$out/tr" > phases.json || return 1
    "$phases" --png '' "$out/tr" > phases.txt || return 1
    cat phases.txt
    python3 - job.out phases.json <<'PY'
import json, sys
want = {}
for line in open(sys.argv[1]):
    w = line.split()
    if w[0] == "phase":
        want[int(w[1])] = int(w[3])
rows = [json.loads(l) for l in open(sys.argv[2])]
assert len(rows) == 4, f"{len(rows)} phases, expected 4: {rows}"
assert [r["op"] for r in rows] == ["write"] * 3 + ["read"], [r["op"] for r in rows]
for k, r in enumerate(rows, 1):
    assert r["bytes"] == want[k], (k, r["bytes"], want[k])
    assert r["ranks"] == 2 and r["file_strategy"] == "shared", r
    assert r["requests"] == 2 * 64 * (3 if k == 4 else 1), r
    assert r["request_size_median"] == 8192, r
    assert r["start"] < r["end"] and r["bandwidth_MiBps"] > 0, r
assert rows[0]["collective_share"] == 0 and rows[1]["collective_share"] == 1, rows
assert rows[0]["spatiality"] == "contiguous" and rows[2]["spatiality"] == "strided", rows
for a, b in zip(rows, rows[1:3]):
    assert b["start"] - a["end"] > 1.0, (a, b)
print("4 phases, bytes", [r["bytes"] for r in rows])
PY
    [ -s "$out/phases.png" ] || ! python3 -c 'import matplotlib' 2> /dev/null
}
run exact-4-phases exact

# the time_distance parameter: with 2 s the three write phases are one
distance() {
    "$phases" --json --png '' --time-distance 2 "$out/tr" > d2.json || return 1
    python3 -c '
import json, sys
rows = [json.loads(l) for l in open("d2.json")]
assert [r["op"] for r in rows] == ["write", "read"], rows
assert rows[0]["bytes"] == 3 * 2 * 64 * 8192, rows[0]
'
}
run time-distance distance

# the hint turns tracing on too (directory from romio_xt_trace_dir); with
# tracing and stats both on the data is still right
hint() {
    mkdir -p "$out/job2" "$out/tr2"
    printf 'romio_xt_trace enable\nromio_xt_trace_dir %s\n' "$out/tr2" > h.hints
    ROMIO_XT_JOB_ID=job-b ROMIO_HINTS=$out/h.hints ROMIO_XT_STATS=1 ROMIO_XT_STATS_FILE=$out/h.json \
        timeout 300 "$mpiexec" -n 2 ./t_phases "$out/job2" 8 4096 0 > h.out || return 1
    grep -q '^bad bytes 0$' h.out && ls "$out/tr2"/*-1.xtt > /dev/null &&
        grep -q '"trace"' h.json
}
run hint-enable hint

# the implementation that ran each collective call: Orthrus reports it to
# core (xt_coll_ran), the trace layer takes it from there into the op byte's
# high nibble (candidate + 1).  Byte check of every record: each collective
# write of phases 2 and 3 carries the forced candidate, every other record
# 0; romio-xt-phases names it
impl() {  # impl CANDIDATE NUMBER (none 0: Orthrus off)
    local d=$out/impl-$1
    mkdir -p "$d/job" "$d/tr"
    : > "$d/h.hints"
    [ "$1" = none ] || echo "romio_orthrus_force $1" > "$d/h.hints"
    ROMIO_XT_JOB_ID=impl ROMIO_XT_TRACE=$d/tr ROMIO_HINTS=$d/h.hints timeout 300 \
        env -u ROMIO_XT_STATS "$mpiexec" -n 2 ./t_phases "$d/job" 8 4096 0 > "$d/job.out" || return 1
    grep -q '^bad bytes 0$' "$d/job.out" || { echo "data check failed"; return 1; }
    "$phases" --json --png '' "$d/tr" > "$d/phases.json" || return 1
    python3 - "$d/tr" "$1" "$2" "$d/phases.json" <<'PY'
import glob, json, struct, sys
tr, name, want = sys.argv[1], sys.argv[2], int(sys.argv[3])
files = sorted(glob.glob(tr + "/*.xtt"))
assert len(files) == 2, files
for f in files:
    data = open(f, "rb").read()
    _, _, hsize, rsize = struct.unpack_from("<8sIII", data, 0)
    assert rsize == 40, rsize
    pos, coll = hsize, 0
    while pos + rsize <= len(data):
        t0, t1, off, nbytes, pieces, fid, op, flags = struct.unpack_from("<ddqqIHBB", data, pos)
        pos += rsize
        if op & 15 == 3:            # XTT_OPEN: the name follows in raw records
            pos += rsize * ((nbytes + rsize - 1) // rsize)
            continue
        got = op >> 4
        if flags & 1:               # XTT_F_COLL
            coll += 1
            assert got == want, f"{f}: collective record with implementation {got}, want {want}"
        else:
            assert got == 0, f"{f}: independent record with implementation {got}"
    assert coll == 2 * 8, f"{f}: {coll} collective records, want 16"
names = {}
for row in map(json.loads, open(sys.argv[4])):
    for k, n in row.get("orthrus", {}).items():
        names[k] = names.get(k, 0) + n
ran = ["two_phase", "core_first", "disk_first", "view_based", "independent"][want - 1]
assert names == ({} if want == 0 else {ran: 2 * 2 * 8}), names
print("implementation per call:", name, want, names)
PY
}
run impl-none impl none 0
run impl-core-first impl core_first 2
# each rank's piece of a call is one range here, and view_based hands calls
# whose ranges do not interleave to stock two_phase: the trace says so
run impl-view-based-non-interleaved impl view_based 1

# bad input: a clear error naming the file, exit 2, no traceback
bad_case() {  # bad_case NAME EXPECTED_TEXT: run the tool on $out/bad/NAME
    local rc
    "$phases" --png '' "$out/bad/$1" > "bad-$1.out" 2>&1; rc=$?
    cat "bad-$1.out"
    [ $rc -eq 2 ] && grep -q "romio-xt-phases: error: .*$2" "bad-$1.out" &&
        ! grep -q Traceback "bad-$1.out"
}
bad() {
    local t0 t1
    t0=$(ls "$out/tr"/*-0.xtt) t1=$(ls "$out/tr"/*-1.xtt)
    mkdir -p "$out/bad"/{trunc,corrupt,mixed,empty,none,magic}
    head -c $(( $(stat -c %s "$t0") - 7 )) "$t0" > "$out/bad/trunc/j-0.xtt"
    cp "$t0" "$out/bad/corrupt/j-0.xtt"
    printf '\377\377\377\377\377\377\377\377' | dd of="$out/bad/corrupt/j-0.xtt" bs=1 \
        seek=$(( $(stat -c %s "$t0") - 40 )) conv=notrunc 2> /dev/null
    cp "$t0" "$out/bad/mixed/"; cp "$(ls "$out/tr2"/*-1.xtt)" "$out/bad/mixed/"
    : > "$out/bad/empty/j-0.xtt"
    printf 'hello, this is not a trace file at all; long enough for a header........................................................................' > "$out/bad/magic/j-0.xtt"
    bad_case trunc "trunc/j-0.xtt: truncated" &&
        bad_case corrupt "corrupt/j-0.xtt: corrupt record [0-9]" &&
        bad_case mixed "mixed with job" &&
        bad_case empty "empty/j-0.xtt: empty trace" &&
        bad_case none "no trace files" &&
        bad_case magic "magic/j-0.xtt: not a romio-xt trace"
}
run bad-input bad

# an unwritable trace directory: one warning, the job runs, data right
unwritable() {
    mkdir -p "$out/job3"
    ROMIO_XT_TRACE=/proc/romio-xt-no-such-dir mpirun 2 ./t_phases "$out/job3" 8 4096 0 \
        > u.out 2> u.err || return 1
    cat u.err
    grep -q '^bad bytes 0$' u.out && [ "$(grep -c 'trace file' u.err)" -eq 1 ] &&
        grep -q 'tracing disabled' u.err
}
run unwritable-dir unwritable

# the trace file is created at its first write (a close after 1 s, a full
# buffer or MPI_Finalize): when that fails (here a directory holds its name),
# one warning from that rank, the job runs, data right
uncreatable() {
    mkdir -p "$out/job5" "$out/tr5/job_u-0.xtt"
    ROMIO_XT_JOB_ID=job-u ROMIO_XT_TRACE=$out/tr5 mpirun 1 ./t_phases "$out/job5" 8 4096 0 \
        > c.out 2> c.err || return 1
    cat c.err
    grep -q '^bad bytes 0$' c.out && [ "$(grep -c 'trace file' c.err)" -eq 1 ] &&
        grep -q "job_u-0.xtt': cannot create" c.err
}
run uncreatable-file uncreatable

# memory stays bounded: more records than the buffer holds are all written
bounded() {
    mkdir -p "$out/job4" "$out/tr4"
    ROMIO_XT_JOB_ID=job-c ROMIO_XT_TRACE=$out/tr4 mpirun 1 ./t_phases "$out/job4" 8000 64 0 > b.out || return 1
    "$phases" --json --png '' "$out/tr4" > b.json || return 1
    python3 -c '
import json
rows = [json.loads(l) for l in open("b.json")]
n = sum(r["requests"] for r in rows)
assert n == 6 * 8000, n    # 3 x 8000 writes, 3 x 8000 reads
'
}
run bounded-buffer bounded

# romio-xt-tune end to end on a small job: traced run, calibration within the
# budget (its kernel launched by the --mpiexec given: a wrapper that logs),
# a hints file, then 3 runs with it and 3 without, interleaved
tune() {
    mkdir -p "$out/job6"
    printf '#!/bin/sh\necho "$*" >> "%s"\nexec "%s" "$@"\n' "$out/launches" "$mpiexec" \
        > "$out/launcher" && chmod +x "$out/launcher" && rm -f "$out/launches"
    "$XT_PREFIX/bin/romio-xt-tune" --budget 20 --reps 3 --hints-out "$out/tune.hints" \
        --workdir "$out/tune" --csv "$out/tune.csv" --mpiexec "$out/launcher" -- \
        "$mpiexec" -n 2 ./t_phases "$out/job6" 32 8192 0 > tune.out 2>&1 || { cat tune.out; return 1; }
    cat tune.out "$out/tune.hints" "$out/launches"
    grep -q '^-n 2 .*xt_phasebench ' "$out/launches" &&
        ls "$out/tune/trace"/tune-{0,1}.xtt > /dev/null &&
        grep -q '^# ROMIO_HINTS advice from romio-xt-phases' "$out/tune.hints" &&
        [ -s "$out/tune/calibration.json" ] &&
        [ "$(grep -c '^default,' "$out/tune.csv")" -eq 3 ] &&
        [ "$(grep -c '^advised,' "$out/tune.csv")" -eq 3 ] &&
        grep -Eq 'speedup [0-9.]+x \(range [0-9.]+-[0-9.]+\)' tune.out &&
        grep -Eq 'advice( kept| not kept|: the default)' tune.out
}
run tune-end-to-end tune

# the calibration state of a phase (reads cold or warm, from its measured
# time) and every setting's estimate from that state (estimate_check.py)
py=$(sed -n '1s/^#!//p' "$phases")
run estimate-cache-state "$py" "$src/estimate_check.py" "$phases"

# Darshan logs (the examples that ship with PyDarshan, DXT and counters only):
# per-file totals equal PyDarshan's, input kind named, one error per bad log
darshan_logs() {
    local mpl=0
    "$py" -c 'import matplotlib' 2> /dev/null && mpl=1
    XT_HAVE_MPL=$mpl "$py" "$src/darshan_check.py" "$phases" "$out"
}
if "$py" -c 'import darshan' 2> /dev/null; then
    run darshan-logs darshan_logs
else
    echo "SKIP trace/darshan-logs (PyDarshan missing for $py: scripts/install-deps.sh installs it)"
fi

# romio-xt-tune from a Darshan log (PyDarshan's example.darshan: its one
# finding advises romio_orthrus for the VPIC-IO file): the advice, moved onto
# this run's file with --map-path, is proven by 3 + 3 interleaved runs of the
# 2-rank job, and one more advised run reports it in effect on that file
# (its effective hints); unmapped, the same advice reaches none of the job's
# files, and the report says so
tune_darshan() {
    local log vpic=/scratch2/scratchdirs/glock/tokioabc-s.4478544/vpicio/vpicio.hdf5
    log=$("$py" -c 'import darshan, os; print(os.path.join(os.path.dirname(darshan.__file__), "examples/example_logs/example.darshan"))')
    mkdir -p "$out/jobd"
    "$XT_PREFIX/bin/romio-xt-tune" --darshan "$log" --map-path "$vpic=$out/jobd/phases.dat" \
        --reps 3 --hints-out "$out/tuned.hints" --workdir "$out/tuned" --csv "$out/tuned.csv" -- \
        "$mpiexec" -n 2 ./t_phases "$out/jobd" 32 8192 0 > tuned.out 2>&1 || { cat tuned.out; return 1; }
    "$XT_PREFIX/bin/romio-xt-tune" --darshan "$log" --reps 1 --hints-out "$out/tuned0.hints" \
        --workdir "$out/tuned0" -- "$mpiexec" -n 2 ./t_phases "$out/jobd" 32 8192 0 \
        > tuned0.out 2>&1 || { cat tuned0.out; return 1; }
    cat tuned.out tuned0.out
    grep -qx "$out/jobd/phases.dat romio_orthrus enable" "$out/tuned/advice.hints" &&
        [ "$(grep -c '^default,' "$out/tuned.csv")" -eq 3 ] &&
        [ "$(grep -c '^advised,' "$out/tuned.csv")" -eq 3 ] &&
        grep -Eq 'advice( kept| not kept)' tuned.out &&
        grep -q "romio_orthrus enable: in effect on 1 file(s), e.g. $out/jobd/phases.dat" tuned.out &&
        grep -q "$vpic romio_orthrus enable: in effect on 0 file(s): the job opened no file" tuned0.out &&
        "$py" -c '
import json, sys
a = json.load(open(sys.argv[1]))["advice"]
assert [x["files"] for x in a] == [[sys.argv[2]]], a
' "$out/tuned/effect.json" "$out/jobd/phases.dat"
}
if "$py" -c 'import darshan' 2> /dev/null; then
    run tune-from-darshan tune_darshan
else
    echo "SKIP trace/tune-from-darshan (PyDarshan missing for $py)"
fi

# the diagnosis against Drishti's on every log in PyDarshan's package: the same
# triggers but for the differences docs/phases.md explains; hints for each
if "$py" -c 'import darshan, rich, drishti.includes' 2> /dev/null; then
    run drishti-agreement "$py" "$src/drishti_check.py" "$phases" "$out"
else
    echo "SKIP trace/drishti-agreement (PyDarshan or drishti-io missing for $py:" \
        "scripts/install-deps.sh installs them)"
fi

xt_finish

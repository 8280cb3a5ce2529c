#!/bin/bash
# romio-xt prefetch tests.  Env: XT_PREFIX, XT_SRCDIR, XT_BUILDDIR.
# Prints one "PASS prefetch/name" / "FAIL prefetch/name" line per test.
. "$XT_SRCDIR/test/lib.sh"
xt_test_init prefetch
# these tests exercise the window, the slots and the methods on every read;
# without this, sequential and block-sized reads pass (src/prefetch/pf_gate.h,
# tested by the unit tests and by "gate-*" below)
export ROMIO_XT_PF_TEST_ALL_READS=1

build() {
    "$mpicc" -O1 -g -Wall -o "$out/t_prefetch" "$src/t_prefetch.c" &&
    "$mpicc" -O1 -g -Wall -o "$out/t_stack" "$XT_SRCDIR/test/mpi/t_stack.c" &&
    "$mpicc" -O1 -g -Wall -o "$out/t_pf_stale" "$src/t_pf_stale.c"
}
xt_build build

ON="romio_prefetch=enable"
SMALL="romio_prefetch_block_size=256k romio_prefetch_cache_blocks=4 romio_prefetch_read_ahead=2"
BUF="romio_prefetch_method=buffer"
FADV="romio_prefetch_method=fadvise"
# on a file open for writing the buffer method is switched off, with this warning
STALE_WARN="hint romio_prefetch: method 'buffer' could return stale data on a file open for writing"

# --- the layer is installed only when asked, and not for write-only files ---
stack_case() {
    mpirun "$1" ./t_stack "$out/stack.$1" 'prefetch>ufs' $ON &&
    mpirun "$1" ./t_stack "$out/stack.$1" 'ufs' $ON $BUF &&     # t_stack's file is writable
    mpirun "$1" ./t_prefetch "$out/wo.$1" wronly $ON $BUF
}
for n in 1 2; do run "stack-np$n" stack_case $n; done
# the upstream passes' ROMIO_HINTS files really install the layer
hints_file_case() {
    ROMIO_HINTS=$XT_SRCDIR/test/upstream/passes/$1.hints timeout 300 env -u ROMIO_XT_STATS \
        "$mpiexec" -n 2 ./t_stack "$out/hf.$1" "$2"
}
run "romio-hints-prefetch-fadvise" hints_file_case prefetch-fadvise 'prefetch>ufs'
run "romio-hints-prefetch-buffer" hints_file_case prefetch-buffer 'ufs'   # writable: off

# --- same bytes as prefetch off: every method, access kind, geometry --------
# digest_ref N: $out/digest.off.N, verify's DIGEST line with prefetch off (made once)
digest_ref() {
    local n=$1 ref=$out/digest.off.$1
    [ -s "$ref" ] && return 0
    MPIR_CVAR_NUM_CLIQUES=$n mpirun "$n" ./t_prefetch "$out/off.$n.dat" verify \
        > "$out/off.$n.out" 2>&1 || { cat "$out/off.$n.out"; return 1; }
    grep '^DIGEST' "$out/off.$n.out" > "$ref"
}
# digest_case NAME N HINTS...: verify passes and its digest equals prefetch off's
digest_case() {
    local name=$1 n=$2; shift 2
    local ref=$out/digest.off.$n
    digest_ref "$n" || return 1
    MPIR_CVAR_NUM_CLIQUES=$n mpirun "$n" ./t_prefetch "$out/$name.$n.dat" verify "$@" \
        > "$out/$name.$n.out" 2>&1 || { cat "$out/$name.$n.out"; return 1; }
    cat "$out/$name.$n.out"
    diff "$ref" <(grep '^DIGEST' "$out/$name.$n.out") || { echo "digest differs from prefetch off"; return 1; }
    grep "romio-xt: warning" "$out/$name.$n.out" | grep -qv "$STALE_WARN" && { echo "unexpected warning"; return 1; }
    return 0
}
for n in 1 2; do
    run "same-bytes-buffer-small-np$n" digest_case buf-small $n $ON $BUF $SMALL
    run "same-bytes-fadvise-small-np$n" digest_case fadv-small $n $ON $FADV $SMALL
    run "same-bytes-buffer-default-np$n" digest_case buf-default $n $ON $BUF
done
run "same-bytes-fadvise-default-np2" digest_case fadv-default 2 $ON
run "same-bytes-buffer-one-block-np2" digest_case buf-one 2 $ON $BUF \
    romio_prefetch_block_size=64k romio_prefetch_cache_blocks=1 romio_prefetch_read_ahead=0
run "same-bytes-buffer-willneed-np2" digest_case buf-ranges 2 $ON $BUF $SMALL \
    romio_prefetch_willneed=1m:1m,3m:0
run "same-bytes-buffer-odd-block-np2" digest_case buf-odd 2 $ON $BUF \
    romio_prefetch_block_size=12345 romio_prefetch_cache_blocks=16 romio_prefetch_read_ahead=9
run "same-bytes-buffer-stats-np2" digest_case buf-stats 2 $ON $BUF $SMALL romio_xt_stats=enable
run "same-bytes-buffer-2-aggregators-np2" digest_case buf-cb2 2 $ON $BUF $SMALL cb_nodes=2 cb_config_list=*:*

# --- a rank without memory for its cache slots (a test hook fails rank 1's)
# keeps the layer and passes its reads through: the ranks keep the same
# layers, so the collectives of the job and of the stats record match.  The
# job completes with prefetch off's bytes, one warning from rank 1, and one
# stats record summing both ranks' prefetch counters ---
nomem_case() {  # nomem_case NAME MODE METHOD
    local j=$out/nomem.$1.json o=$out/nomem.$1.out
    rm -f "$j"
    ROMIO_XT_PF_TEST_NOMEM_RANK=1 ROMIO_XT_STATS_FILE=$j MPIR_CVAR_NUM_CLIQUES=2 timeout 300 \
        env -u ROMIO_HINTS -u ROMIO_XT_STATS "$mpiexec" -n 2 ./t_prefetch "$out/nomem.$1.dat" "$2" \
        $ON romio_prefetch_method=$3 $SMALL romio_xt_stats=enable > "$o" 2>&1 || { cat "$o"; return 1; }
    cat "$o"
    [ "$2" != verify ] || { digest_ref 2 && diff "$out/digest.off.2" <(grep '^DIGEST' "$o"); } ||
        { echo "digest differs from prefetch off"; return 1; }
    python3 - "$j" "$out/nomem.$1.dat" "$3" <<'PY' || return 1
import json, sys
r = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
r = [x for x in r if x["file"] == sys.argv[2]]
assert len(r) == 1, f"{len(r)} records for the file"
r = r[0]
assert r["ranks"] == 2 and r["layers"] == ["prefetch", "stats"], r
p = r["features"]["prefetch"]
# sums of the same counters on both ranks (a rank without the layer would
# reduce other words against them)
assert all(0 <= v < 1 << 40 for v in p.values() if isinstance(v, int)), p
assert p["cache_disabled"] == 1, p          # rank 1 only
assert p["method"] == sys.argv[3] and p["blocks_prefetched"] > 0, p     # rank 0 prefetches
if sys.argv[3] == "buffer":
    assert p["hits"] > 0 and 0 < p["buffer_peak_bytes"] <= 4 * 262144, p   # rank 0's slots only
print("one rank without slots:", {k: p[k] for k in ("cache_disabled", "blocks_prefetched", "hits")})
PY
    [ "$(grep -c "romio-xt: warning" "$o")" -eq 1 ] &&
        grep -q "hint romio_prefetch: rank 1: no memory for 4 cache slots; reads of .* pass through" "$o" ||
        { echo "expected exactly rank 1's warning"; return 1; }
}
run "nomem-one-rank-fadvise-verify-np2" nomem_case fadv verify fadvise
run "nomem-one-rank-buffer-scan-np2" nomem_case buf scan buffer

# romio_xt_numa_place (docs/numa.md): the loaders' buffers placed, every byte
# read as the file holds it (scan checks each read against the file's model);
# the stats record's numa_place: no mbind call on a machine with one NUMA
# node, some with the test hook pretending two (every core on node 0)
numa_case() {  # NODES STATUS
    local j=$out/numa.$1.json o=$out/numa.$1.out
    rm -f "$j"
    ROMIO_XT_TEST_NUMA_NODES=$1 ROMIO_XT_STATS_FILE=$j MPIR_CVAR_NUM_CLIQUES=2 timeout 300 \
        env -u ROMIO_HINTS -u ROMIO_XT_STATS "$mpiexec" -n 2 ./t_prefetch "$out/numa.$1.dat" scan \
        $ON $BUF $SMALL romio_xt_stats=enable romio_xt_numa_place=enable > "$o" 2>&1 ||
        { cat "$o"; return 1; }
    cat "$o"
    grep -q "romio-xt: warning" "$o" && { echo "unexpected warning"; return 1; }
    python3 - "$j" "$out/numa.$1.dat" "$2" <<'PY'
import json, sys
r = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
r = [x for x in r if x["file"] == sys.argv[2]]
assert len(r) == 1 and r[0]["layers"] == ["prefetch", "stats"], r
n, p = r[0]["numa_place"], r[0]["features"]["prefetch"]
assert n["status"] == sys.argv[3], n
assert (n["mbind_calls"] > 0) == (n["status"] == "on"), n
assert r[0]["hints"]["romio_xt_numa_place"] == "enable", r[0]["hints"]
assert p["buffer_allocs"] > 0 and p["hits"] > 0, p
print("numa_place", n)
PY
}
if grep -q "^XT_NUMA_CFLAGS='-DXT_HAVE_LIBNUMA'" "$XT_BUILDDIR/config.log"; then
    nodes=$(ls -d /sys/devices/system/node/node[0-9]* 2> /dev/null | wc -l)
    run "numa-place-this-machine-np2" numa_case 0 "$([ "$nodes" -gt 1 ] && echo on || echo one_node)"
    run "numa-place-two-nodes-np2" numa_case 2 on
fi

# --- never stale (docs/prefetch.md): rank 1 caches rank 0's data, rank 0 rewrites it
# stale_case PATTERN HINTS...: byte-checked; on a writable file the buffer
# method is switched off with exactly one warning naming it
stale_case() {
    local p=$1; shift
    MPIR_CVAR_NUM_CLIQUES=2 mpirun 2 ./t_pf_stale "$out/stale.$p.dat" "$p" "$@" > "$out/stale.$p.out" 2>&1 ||
        { cat "$out/stale.$p.out"; return 1; }
    cat "$out/stale.$p.out"
    local want=0
    [[ " $* " == *" $BUF "* ]] && want=1
    [ "$(grep -c "romio-xt: warning" "$out/stale.$p.out")" -eq "$want" ] || { echo "want $want warning(s)"; return 1; }
    [ "$want" -eq 0 ] || grep -q "$STALE_WARN" "$out/stale.$p.out"
}
for m in BUF FADV; do
    for p in indep coll; do
        run "never-stale-$p-${m,,}-np2" stale_case $p $ON ${!m} $SMALL
    done
done
run "never-stale-coll-orthrus-buf-np2" stale_case coll $ON $BUF $SMALL romio_orthrus_force=core_first

# --- the thread lives while the file is open and stops at close ------------
run "thread-stops-at-close-np2" mpirun 2 ./t_prefetch "$out/thr.dat" threads $ON $BUF
run "fadvise-thread-stops-at-close-np1" mpirun 1 ./t_prefetch "$out/thr1.dat" threads $ON $FADV

# --- stats section and the memory bound ------------------------------------
# stats_case NAME N CACHE_BLOCKS BLOCK_SIZE METHOD HINTS...: scan a file, check the record
stats_case() {
    local name=$1 n=$2 cb=$3 bs=$4 method=$5; shift 5
    local j=$out/$name.json mode=${MODE:-scan}
    rm -f "$j"
    ROMIO_XT_STATS_FILE=$j MPIR_CVAR_NUM_CLIQUES=$n timeout 300 env -u ROMIO_HINTS \
        -u ROMIO_XT_STATS "$mpiexec" -n "$n" \
        ./t_prefetch "$out/$name.dat" "$mode" "$@" romio_xt_stats=enable > "$j.out" 2>&1 ||
        { cat "$j.out"; return 1; }
    cat "$j.out"
    python3 "$src/check_prefetch_stats.py" "$j" "$j.out" "$out/$name.dat" "$n" "$cb" "$bs" "$method"
}
run "stats-memory-bound-buffer-np1" stats_case mem1 1 3 65536 buffer $ON $BUF \
    romio_prefetch_block_size=64k romio_prefetch_cache_blocks=3 romio_prefetch_read_ahead=2
run "stats-memory-bound-buffer-np2" stats_case mem2 2 5 131072 buffer $ON $BUF \
    romio_prefetch_block_size=128k romio_prefetch_cache_blocks=5 romio_prefetch_read_ahead=1
run "stats-fadvise-np2" stats_case fadv 2 8 1048576 fadvise $ON $FADV romio_prefetch_block_size=1m
# method auto: buffer on a read-only file (scan opens it read-only), fadvise on
# a writable one (t_stack's file: the layer stays installed)
run "stats-auto-readonly-buffer-np2" stats_case auto 2 4 262144 buffer $ON $SMALL
run "auto-writable-fadvise-np2" mpirun 2 ./t_stack "$out/stack.auto" 'prefetch>ufs' $ON
# collective reads: the aggregators' reads go through the cache (2 aggregators)
MODE=collscan run "stats-collective-buffer-np2" stats_case coll 2 4 262144 \
    buffer $ON $BUF romio_prefetch_block_size=256k romio_prefetch_cache_blocks=4 \
    romio_prefetch_read_ahead=2 cb_buffer_size=524288 cb_nodes=2 cb_config_list=*:*

# --- bad values: one warning naming the hint, the value and the value used --
# expect_warning NAME REGEX HINTS...
expect_warning() {
    local name=$1 re=$2; shift 2
    mpirun 2 ./t_prefetch "$out/$name.dat" scan "$@" > "$out/$name.out" 2>&1 ||
        { cat "$out/$name.out"; return 1; }
    cat "$out/$name.out"
    local count; count=$(grep -c "romio-xt: warning" "$out/$name.out")
    [ "$count" -eq 1 ] || { echo "expected exactly one warning, got $count"; return 1; }
    grep -Eq "$re" "$out/$name.out" || { echo "warning does not match: $re"; return 1; }
}
run "warn-read-ahead" expect_warning wra \
    "hint romio_prefetch_read_ahead: bad value '6' \(must be below romio_prefetch_cache_blocks=4\); using '3'" \
    $ON $BUF romio_prefetch_cache_blocks=4 romio_prefetch_read_ahead=6
run "warn-willneed" expect_warning wwn \
    "hint romio_prefetch_willneed: bad value '1m-2m' \('1m-2m' is not offset:length\); using '0:0'" \
    $ON $BUF romio_prefetch_willneed=1m-2m
run "warn-block-size" expect_warning wbs \
    "hint romio_prefetch_block_size: bad value '1k' \(out of range \[4096, 1073741824\]\); using '4194304'" \
    $ON $BUF romio_prefetch_block_size=1k
run "warn-method" expect_warning wme \
    "hint romio_prefetch_method: bad value 'mmap' \(expected one of auto\|fadvise\|buffer\); using 'auto'" \
    $ON romio_prefetch_method=mmap
run "warn-typo" expect_warning wty "unknown hint romio_prefetch_blocksize ignored" \
    $ON romio_prefetch_blocksize=1m

# --- no leaks or memory errors in our code under valgrind -------------------
valgrind_case() {  # valgrind_case METHOD
    command -v valgrind > /dev/null || { echo "valgrind is missing"; return 1; }
    rm -f "$out"/vg.$1.*.log
    timeout 600 env -u ROMIO_HINTS -u ROMIO_XT_STATS ROMIO_XT_STATS_FILE=$out/vg.$1.json \
        "$mpiexec" -n 2 valgrind -q --leak-check=full --show-leak-kinds=definite,indirect \
        --log-file="$out/vg.$1.%p.log" ./t_prefetch "$out/vg.$1.dat" scan $ON \
        romio_prefetch_method=$1 $SMALL romio_xt_stats=enable || return 1
    python3 "$XT_SRCDIR/test/mpi/check_valgrind.py" "$out"/vg.$1.*.log
}
for m in buffer fadvise; do run "valgrind-$m-np2" valgrind_case $m; done

# --- several loader threads (pf_thread_more; forced by a test hook): the same
# bytes, and no memory errors or leaks when 4 loaders per rank start and stop ---
loaders_case() { ROMIO_XT_PF_TEST_LOADERS=4 "$@"; }
run "same-bytes-buffer-4-loaders-np2" loaders_case digest_case buf-4l 2 $ON $BUF
run "same-bytes-fadvise-4-loaders-np2" loaders_case digest_case fadv-4l 2 $ON $FADV
loaders_valgrind_case() {
    rm -f "$out/vg.buffer.json"
    loaders_case valgrind_case buffer || return 1
    grep -q '"loader_threads":8[,}]' "$out/vg.buffer.json" ||
        { echo "expected 8 loader threads (4 per rank)"; cat "$out/vg.buffer.json"; return 1; }
}
run "valgrind-buffer-4-loaders-np2" loaders_valgrind_case

# --- announced ranges (MPI_File_set_info during the run, pf_announce.c): the
# same bytes and counts as prefetch off, each rank its own ranges; the queue
# serves them (hits, within the memory bound); a bad list warns, per rank ---
BADLIST="hint romio_prefetch_willneed: bad value '10k:1k,oops' \('oops' is not offset:length\); using '5242003:64k,5247099:64k,123:8m'"
announce_case() {  # announce_case NAME HINTS...
    local name=$1; shift
    local ref=$out/an.off.out j=$out/an.$name.json
    if [ ! -s "$ref" ]; then
        mpirun 2 ./t_prefetch "$out/an.off.dat" announce > "$ref" 2>&1 || { cat "$ref"; return 1; }
    fi
    rm -f "$j"
    ROMIO_XT_STATS_FILE=$j MPIR_CVAR_NUM_CLIQUES=2 timeout 300 env -u ROMIO_HINTS \
        -u ROMIO_XT_STATS "$mpiexec" -n 2 ./t_prefetch "$out/an.$name.dat" announce "$@" \
        romio_xt_stats=enable > "$out/an.$name.out" 2>&1 || { cat "$out/an.$name.out"; return 1; }
    cat "$out/an.$name.out"
    diff <(grep '^DIGEST' "$ref") <(grep '^DIGEST' "$out/an.$name.out") ||
        { echo "digest differs from prefetch off"; return 1; }
    local bad; bad=$(grep -c "romio-xt: warning" "$out/an.$name.out")
    [ "$bad" -ge 1 ] && [ "$bad" -le 2 ] || { echo "expected 1-2 warnings (one per rank), got $bad"; return 1; }
    [ "$(grep -Ec "$BADLIST" "$out/an.$name.out")" -eq "$bad" ] || { echo "warning does not match"; return 1; }
    python3 - "$j" "$out/an.$name.dat" "${METHOD:-buffer}" "${BOUND:-67108864}" <<'PY'
import json, sys
r = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
r = [x for x in r if x["file"] == sys.argv[2]][0]
p = r["features"]["prefetch"]
# 2 ranks x 9 good lists each (the bad one does not count)
assert p["announcements"] == 18, p
assert p["reads_passed_unannounced"] > 0, p
if sys.argv[3] == "buffer":
    assert p["hits"] > 0 and p["bytes_from_cache"] > 0, p
    assert 0 < p["buffer_peak_bytes"] <= int(sys.argv[4]), p
print("announce ok:", {k: p[k] for k in ("announcements", "hits", "misses",
      "reads_passed_unannounced", "blocks_prefetched", "buffer_peak_bytes")})
PY
}
# the memory bound: 2 ranks x cache_blocks x block_size
BOUND=$((2 * 4 * 262144)) run "announce-same-bytes-buffer-small-np2" announce_case bs $ON $BUF $SMALL
run "announce-same-bytes-buffer-default-np2" announce_case bd $ON $BUF
METHOD=fadvise run "announce-same-bytes-fadvise-np2" announce_case fa $ON $FADV $SMALL
BOUND=$((2 * 2 * 65536)) run "announce-same-bytes-buffer-tiny-np2" announce_case bt $ON $BUF \
    romio_prefetch_block_size=64k romio_prefetch_cache_blocks=2 romio_prefetch_read_ahead=1
announce_valgrind_case() {
    command -v valgrind > /dev/null || { echo "valgrind is missing"; return 1; }
    rm -f "$out"/vg.an.*.log
    timeout 600 env -u ROMIO_HINTS -u ROMIO_XT_STATS "$mpiexec" -n 2 valgrind -q \
        --leak-check=full --show-leak-kinds=definite,indirect --log-file="$out/vg.an.%p.log" \
        ./t_prefetch "$out/vg.an.dat" announce $ON $BUF $SMALL || return 1
    python3 "$XT_SRCDIR/test/mpi/check_valgrind.py" "$out"/vg.an.*.log
}
run "valgrind-announce-buffer-np2" announce_valgrind_case

# --- the gate: sequential and block-sized reads pass to the file system -------
gate_case() {
    local j=$out/gate.json
    rm -f "$j"
    ROMIO_XT_STATS_FILE=$j env -u ROMIO_XT_PF_TEST_ALL_READS timeout 300 "$mpiexec" -n 2 \
        ./t_prefetch "$out/gate.dat" scan $ON romio_xt_stats=enable romio_prefetch_block_size=4m \
        > "$out/gate.out" 2>&1 || { cat "$out/gate.out"; return 1; }
    python3 - "$j" "$out/gate.dat" <<'PY'
import json, sys
r = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
r = [x for x in r if x["file"] == sys.argv[2]][0]
p = r["features"]["prefetch"]
calls = r["ops"]["read_contig"]["calls"]
# scan: 100 KiB pieces front to back, a backward seek every 10 reads: the
# sequential ones pass; the seeks are timed first (the first
# PF_GATE_WARMUP = 3 of them pass as reads_passed_no_gap) and, with no
# compute between the reads, keep passing (pf_gate.h)
assert p["reads_passed_sequential"] > calls // 2, p
assert p["reads_passed_sequential"] < calls, p
assert p["reads_passed_no_gap"] >= 3, p
assert p["bytes_from_fs"] + p["bytes_from_cache"] < r["bytes_read"], p
print("gate ok", p["reads_passed_sequential"], "sequential,", p["reads_passed_no_gap"],
      "without a gap, of", calls)
PY
}
run "gate-sequential-passes-np2" gate_case

xt_finish


#!/bin/bash
# romio-xt adaptive data sieving tests.  Env: XT_PREFIX XT_SRCDIR XT_BUILDDIR.
. "$XT_SRCDIR/test/lib.sh"
xt_test_init ds_adaptive
# calibration results go to a private cache
export XDG_CACHE_HOME=$out/cache

build() {
    for t in t_ads t_ads_race t_ads_pf t_ads_dense; do
        "$mpicc" -O1 -g -Wall -o "$out/$t" "$src/$t.c" || return 1
    done
    "$mpicc" -O1 -g -o "$out/t_stats_io" "$XT_SRCDIR/test/mpi/t_stats_io.c"
}
xt_build build
# every method equals stock ROMIO byte for byte, reads and writes
run grid-np1 mpirun 1 ./t_ads "$out"
run grid-np2 mpirun 2 ./t_ads "$out" quick
# windows of large pieces through the scratch buffer (taken on CPUs where
# copies at a 1-31 byte skew are slow, xt_copy_skew_slow), forced
run grid-scratch-np1 mpirun 1 env ROMIO_XT_ADS_TEST_SCRATCH=1 ./t_ads "$out"
run grid-scratch-np2 mpirun 2 env ROMIO_XT_ADS_TEST_SCRATCH=1 ./t_ads "$out" quick
# and where that skew is slow, pieces of vectored windows that would take it
# bounce through the scratch buffer (forced slow; and forced fast: none do)
run grid-bounce-np1 mpirun 1 env ROMIO_XT_TEST_SKEW_SLOW=1 ./t_ads "$out" quick
run grid-nobounce-np1 mpirun 1 env ROMIO_XT_TEST_SKEW_SLOW=0 ./t_ads "$out" quick
# every read as a cold one is read (read_chunk): a first request of 4 KiB,
# then chunks (here 8 KiB, so that small windows are cut too)
run grid-chunk-np1 mpirun 1 env ROMIO_XT_ADS_TEST_CHUNK=8192 ./t_ads "$out" quick
# regular views of tiny pieces (the fast path), 1, 2 and 4 ranks
for np in $(xt_np 1 2 4); do run "tiny-np$np" mpirun $np ./t_ads "$out" tiny; done
# concurrent read-modify-write of interleaved pieces
for m in romio adaptive; do run "race-$m-np2" mpirun 2 ./t_ads_race "$out/race.$m" $m 20; done
run_np 4 "race-romio-np4" mpirun 4 ./t_ads_race "$out/race4" romio 5

# calibration: probed once per directory, then read from the cache, and a
# new directory on the same device takes the device's costs (the first
# run has 1 rank: with 2, either rank may take the probe's lock first and the
# record shows rank 0's source)
calibration_case() {
    local hints=$out/calib.hints
    printf 'romio_ds_read adaptive\nromio_ds_write adaptive\n' > "$hints"
    rm -rf "$XDG_CACHE_HOME"
    mkdir -p "$out/calib-newdir"
    for k in 1 2 3; do    # run 3: a new directory on the same device
        local f=$out/calib.dat
        [ $k = 3 ] && f=$out/calib-newdir/calib.dat
        ROMIO_HINTS=$hints ROMIO_XT_STATS=1 ROMIO_XT_STATS_FILE=$out/calib.$k.json \
            timeout 300 "$mpiexec" -n $((k == 1 ? 1 : 2)) ./t_stats_io "$f" write > /dev/null || return 1
    done
    [ -s "$XDG_CACHE_HOME/romio-xt/ads-calibration" ] || { echo "no cache file"; return 1; }
    python3 - "$out/calib.1.json" "$out/calib.2.json" "$out/calib.3.json" <<'PY'
import json, sys
src = [json.loads(open(p).readline())["features"]["ds_adaptive"]["calibration"]["source"] for p in sys.argv[1:]]
assert src == ["probe", "cache", "device"], src
print("calibration sources:", src)
PY
}
run calibration-cache calibration_case

# contiguous calls only: no calibration at all (no probe, no cache file),
# the stats record says so; the data read back is right
no_calibration_case() {
    local hints=$out/nocal.hints cache=$out/nocal-cache
    printf 'romio_ds_read adaptive\nromio_ds_write adaptive\n' > "$hints"
    timeout 300 "$mpiexec" -n 2 ./t_stats_io "$out/nocal.dat" write > /dev/null || return 1
    rm -rf "$cache"
    XDG_CACHE_HOME=$cache ROMIO_HINTS=$hints ROMIO_XT_STATS=1 ROMIO_XT_STATS_FILE=$out/nocal.json \
        timeout 300 "$mpiexec" -n 2 ./t_stats_io "$out/nocal.dat" verify || return 1
    [ ! -e "$cache/romio-xt/ads-calibration" ] || { echo "a contiguous-only open calibrated"; return 1; }
    python3 - "$out/nocal.json" <<'PY'
import json, sys
a = json.loads(open(sys.argv[1]).readline())["features"]["ds_adaptive"]
assert a["calibration"]["source"] == "none" and a["calls"] == 0, a
print("contiguous only:", a["calibration"]["source"], "calls", a["calls"])
PY
}
run no-calibration-contiguous no_calibration_case

# stats: what the layer did adds up
stats_case() {
    printf 'romio_ds_write adaptive\nromio_ds_read adaptive\n' > "$out/st.hints"
    ROMIO_HINTS=$out/st.hints ROMIO_XT_STATS=1 ROMIO_XT_STATS_FILE=$out/st.json \
        timeout 300 "$mpiexec" -n 2 ./t_stats_io "$out/st.dat" write > "$out/st.out" || return 1
    timeout 300 "$mpiexec" -n 2 ./t_stats_io "$out/st.dat" verify || return 1
    python3 - "$out/st.json" <<'PY'
import json, sys
r = json.loads(open(sys.argv[1]).readline())
a = r["features"]["ds_adaptive"]
assert r["layers"] == ["ds_adaptive", "stats"], r["layers"]
assert a["calls"] == 2 and a["delegated"] == 0, a          # one strided write per rank
assert a["useful_bytes"] == 2 * 16 * 512, a
assert a["bytes_written"] >= a["useful_bytes"] and a["windows"] >= 2, a
assert a["locked_calls"] == 2, a                           # holes between the pieces
print(a)
PY
}
run stats-section stats_case

# writes whose pieces fill their range take no lock (as ROMIO's contiguous
# writes), those with holes do; every byte lands
dense_case() {
    printf 'romio_ds_write adaptive\n' > "$out/dense.hints"
    rm -f "$out/dense.dat"
    ROMIO_HINTS=$out/dense.hints ROMIO_XT_STATS=1 ROMIO_XT_STATS_FILE=$out/dense.json \
        timeout 300 "$mpiexec" -n 2 ./t_ads_dense "$out/dense.dat" || return 1
    python3 - "$out/dense.json" <<'PY'
import json, sys
a = json.loads(open(sys.argv[1]).readline())["features"]["ds_adaptive"]
assert a["calls"] == 10 and a["delegated"] == 0, a          # 5 strided writes per rank
assert a["locked_calls"] == 2, a                           # only the two-block calls
print("locked calls:", a["locked_calls"], "of", a["calls"])
PY
}
run dense-writes-unlocked dense_case

# a bad method name: one warning, the default used, data still right
bad_method_case() {
    printf 'romio_ds_write adaptive\nromio_ads_method fancy\n' > "$out/bad.hints"
    ROMIO_HINTS=$out/bad.hints timeout 300 "$mpiexec" -n 2 ./t_stats_io "$out/bad.dat" write > "$out/bad.out" 2>&1 || return 1
    cat "$out/bad.out"
    [ "$(grep -c "hint romio_ads_method: bad value 'fancy' (expected one of naive|romio|model|extent|adaptive); using 'adaptive'" "$out/bad.out")" -eq 1 ] &&
    timeout 300 "$mpiexec" -n 2 ./t_stats_io "$out/bad.dat" verify
}
run bad-method-hint bad_method_case

# with the prefetch layer below (buffer method): still byte-identical to stock
combined_case() {
    printf 'romio_prefetch enable\nromio_prefetch_method buffer\nromio_prefetch_block_size 65536\n' > "$out/pf.hints"
    ROMIO_HINTS=$out/pf.hints timeout 600 "$mpiexec" -n 2 ./t_ads "$out" quick
}
run with-prefetch-np2 combined_case
# and within one open: the prefetch cache hears of ds_adaptive's own writes
run prefetch-sees-direct-writes mpirun 1 ./t_ads_pf "$out/adspf.dat"

xt_finish

#!/bin/bash
# romio-xt MPI integration tests.  Env: XT_PREFIX (installed romio-xt),
# XT_SRCDIR, XT_BUILDDIR.  Prints one "PASS name" / "FAIL name" line per test.
. "$XT_SRCDIR/test/lib.sh"
xt_test_init mpi
hintdoc=$XT_BUILDDIR/tools/xt_hintdoc

build() {
    for t in t_stack t_hints t_stats_io t_warn_once t_stats_files t_filehints t_expect \
        t_stats_ranks t_topo; do
        "$mpicc" -O1 -g -Wall -o "$out/$t" "$src/$t.c" || return 1
    done
}
xt_build build

# --- the stack: stock unless a hint asks -----------------------------------
stack_case() {
    mpirun "$1" ./t_stack "$out/stack.$1" ufs &&
    mpirun "$1" ./t_stack "$out/stack.$1" 'stats>ufs' romio_xt_stats=enable &&
    ROMIO_XT_STATS_FILE=/dev/null ROMIO_XT_STATS=1 mpirun_keep "$1" ./t_stack "$out/stack.$1" 'stats>ufs'
}
mpirun_keep() {  # like mpirun but keeps romio-xt variables set by the caller
    local n=$1; shift
    timeout 300 "$mpiexec" -n "$n" "$@"
}
for n in $(xt_np 1 2 4); do run "stack-np$n" stack_case $n; done

# --- get_info returns every hint of the table that has a default value --------
for n in 1 2; do run "getinfo-np$n" mpirun $n ./t_hints "$out/gi.$n" getinfo $("$hintdoc" --valued-names); done

# --- per-file hints: "PATTERN KEY VALUE" lines of the ROMIO_HINTS file --------
# t_filehints checks what applied per file; each malformed line is warned
# about once (two opens, any number of ranks), naming the file and the line
filehints_case() {
    local d=$out/fh.$1 log=$out/fh.$1.out
    mkdir -p "$d"
    printf '%s\n' "romio_xt_stats disable" "cb_buffer_size 4194304" "*.pf1 cb_buffer_size 1048576" \
        "*.pf1 romio_xt_stats enable" "*.pf2 cb_buffer_size 1048576" "*.pf2 cb_buffer_size 524288" \
        "$d/b.* romio_xt_null enable" "too many words on this line" "lonely" > "$d/hints"
    ROMIO_HINTS=$d/hints ROMIO_XT_STATS_FILE=$d/stats.json timeout 300 "$mpiexec" -n "$1" \
        ./t_filehints "$d" > "$log" 2>&1 || { cat "$log"; return 1; }
    cat "$log"
    grep -q '^t_filehints: OK' "$log" && [ "$(grep -c 'romio-xt: warning' "$log")" -eq 2 ] &&
        grep -q "ROMIO_HINTS file $d/hints line 8 'too many words on this line': more than three" "$log" &&
        grep -q "line 9 'lonely': a key without a value; line ignored" "$log"
}
for n in $(xt_np 1 2); do run "file-hints-np$n" filehints_case $n; done

# --- the site hints file: under ROMIO_HINTS, the variables and MPI_Info ------
# site_case N: the site file's lines (every file, per file) apply where
# nothing else sets the key; ROMIO_HINTS's lines (global, per file) and the
# program's info win over them; one warning each for a bad line and a bad
# value, naming the site file, for three files and N ranks
site_case() {
    local d=$out/site.$1 log=$out/site.$1.out
    mkdir -p "$d"
    printf '%s\n' "# site defaults" "romio_xt_stats enable" "cb_buffer_size 1048576" \
        "romio_xt_null enable" "romio_prefetch_block_size 2m" "*.s2 romio_prefetch_block_size 1m" \
        "romio_orthrus_trials maybe" "too many words on this line" > "$d/site"
    printf '%s\n' "cb_buffer_size 4194304" "*.s3 romio_xt_null disable" > "$d/hints"
    ROMIO_XT_SITE_HINTS=$d/site ROMIO_HINTS=$d/hints ROMIO_XT_STATS_FILE=$d/stats.json \
        mpirun_keep "$1" ./t_expect \
        "$d/a.s1" -i romio_xt_null=disable romio_xt_stats=enable cb_buffer_size=4194304 \
            romio_xt_null=disable romio_prefetch_block_size=2097152 romio_orthrus_trials=3 \
            romio_xt_site_hints="$d/site" romio_xt_file_hints= -- \
        "$d/b.s2" romio_xt_null=enable romio_prefetch_block_size=1048576 \
            romio_xt_file_hints=site:6:*.s2 -- \
        "$d/c.s3" romio_xt_null=disable romio_xt_file_hints=2:*.s3 romio_xt_layers=stats \
        > "$log" 2>&1 || { cat "$log"; return 1; }
    cat "$log"
    grep -q '^t_expect: OK' "$log" && [ "$(grep -c 'romio-xt: warning' "$log")" -eq 2 ] &&
        grep -q "site hints file $d/site line 8 'too many words on this line': more than three" "$log" &&
        grep -q "hint romio_orthrus_trials: bad value 'maybe' (not a whole number); using '3' (site hints file $d/site)" "$log" &&
        [ "$(grep -c '^{"romio_xt_stats":1' "$d/stats.json")" -eq 3 ]
}
for n in $(xt_np 1 2); do run "site-hints-np$n" site_case $n; done
# a hint's variable is the user's too: it wins over the site file's value
site_env_case() {
    local d=$out/site-env
    mkdir -p "$d"
    printf 'romio_xt_stats enable\n' > "$d/site"
    ROMIO_XT_SITE_HINTS=$d/site ROMIO_XT_STATS=0 mpirun_keep 2 ./t_expect "$d/a" \
        romio_xt_stats=disable romio_xt_layers=none romio_xt_site_hints="$d/site"
}
run "site-hints-variable-wins-np2" site_env_case
# a site file that cannot be read: one warning per job, no site hints
site_missing_case() {
    local log=$out/site-missing.out
    ROMIO_XT_SITE_HINTS=$out/no-such-site-file mpirun_keep 2 ./t_expect "$out/sm.a" \
        romio_xt_layers=none -- "$out/sm.b" romio_xt_site_hints= > "$log" 2>&1 ||
        { cat "$log"; return 1; }
    cat "$log"
    [ "$(grep -c 'romio-xt: warning' "$log")" -eq 1 ] &&
        grep -q "site hints file $out/no-such-site-file (ROMIO_XT_SITE_HINTS): cannot read it (No such file or directory); using no site hints" "$log"
}
run "site-hints-unreadable-np2" site_missing_case
# without ROMIO_XT_SITE_HINTS: PREFIX/etc/romio-xt.hints, the commented example
# make install puts there, applies nothing and warns about nothing
site_default_case() {
    local log=$out/site-default.out
    [ -f "$XT_PREFIX/etc/romio-xt.hints" ] || { echo "no $XT_PREFIX/etc/romio-xt.hints"; return 1; }
    env -u ROMIO_XT_SITE_HINTS timeout 300 "$mpiexec" -n 2 ./t_expect "$out/sd.a" \
        romio_xt_layers=none romio_xt_site_hints= > "$log" 2>&1 || { cat "$log"; return 1; }
    cat "$log"
    ! grep -q 'romio-xt: warning' "$log"
}
run "site-hints-default-file-np2" site_default_case

# --- romio_xt=auto: each extension with an on-line gate, unless its hint is given --
auto_all=romio_ds_read=adaptive,romio_ds_write=adaptive,romio_prefetch=enable,romio_orthrus=enable
# auto_case N: get_info shows romio_xt and what auto chose (e10_cache only with
# e10_cache_path; an extension's own hint wins); the stats record says why;
# the bytes read back with auto off are the ones stock writes
auto_case() {
    local d=$out/auto.$1 py
    mkdir -p "$d/cache"
    ROMIO_XT_STATS_FILE=$d/stats.json mpirun_keep "$1" ./t_expect \
        "$d/f1" -i romio_xt=auto -i romio_xt_stats=enable romio_xt=auto romio_xt_auto_chose=$auto_all \
            romio_xt_layers=prefetch,ds_adaptive,orthrus,stats -- \
        "$d/f2" -i romio_xt=auto -i e10_cache_path="$d/cache" -i romio_prefetch=disable \
            -i romio_xt_stats=enable romio_prefetch=disable e10_cache=enable \
            romio_xt_auto_chose=romio_ds_read=adaptive,romio_ds_write=adaptive,e10_cache=enable,romio_orthrus=enable \
            romio_xt_layers=nvm_cache,ds_adaptive,orthrus,stats -- \
        "$d/f3" -i romio_xt=disable romio_xt=disable romio_xt_auto_chose= romio_xt_layers=none || return 1
    py='import json, sys
r = [json.loads(l) for l in open(sys.argv[1])]
a = {x["file"].rsplit("/", 1)[-1]: x.get("auto") for x in r}
assert a["f1"]["e10_cache"] == "disable: no e10_cache_path given", a
assert a["f1"]["romio_prefetch"].startswith("enable: a jumping read"), a
assert a["f2"]["romio_prefetch"] == "disable: given by a hint", a
assert a["f2"]["e10_cache"].startswith("enable: each write is cached only after"), a
assert a["f2"]["romio_orthrus"].startswith("enable: each collective access pattern"), a'
    python3 -c "$py" "$d/stats.json" || { cat "$d/stats.json"; return 1; }
    mpirun "$1" ./t_expect -r "$d/f1" romio_xt_layers=none -- "$d/f2" romio_xt=disable &&
        cmp "$d/f1" "$d/f3" && cmp "$d/f2" "$d/f3"
}
for n in $(xt_np 1 2); do run "auto-np$n" auto_case $n; done
# auto's E10 starts cautious: with no compute phase seen, the first write goes
# straight through, where e10_cache=enable caches it (the gate on: run-all.sh
# turns it off for the other tests)
auto_e10_case() {
    local d=$out/auto-e10 ROMIO_XT_NVC_TEST_ALWAYS_CACHE=0
    export ROMIO_XT_NVC_TEST_ALWAYS_CACHE
    mkdir -p "$d/cache"
    mpirun 2 ./t_expect "$d/a" -i romio_xt=auto -i e10_cache_path="$d/cache" \
        "e10_cache_gate=write-through: no compute phase before the last sync or close" &&
    mpirun 2 ./t_expect "$d/b" -i e10_cache=enable -i e10_cache_path="$d/cache" \
        e10_cache_gate=cache romio_xt_auto_chose= && cmp "$d/a" "$d/b"
}
run "auto-e10-cautious-np2" auto_e10_case
# a site file with "romio_xt auto" runs every job in auto; ROMIO_XT and
# ROMIO_HINTS turn it off again, a program's hint over both
auto_site_case() {
    local d=$out/auto-site
    mkdir -p "$d"
    printf 'romio_xt auto\n' > "$d/site"
    printf 'romio_xt disable\n' > "$d/hints"
    ROMIO_XT_SITE_HINTS=$d/site mpirun_keep 2 ./t_expect "$d/a" romio_xt=auto \
        romio_xt_auto_chose=$auto_all &&
    ROMIO_XT_SITE_HINTS=$d/site ROMIO_XT=disable mpirun_keep 2 ./t_expect "$d/b" \
        romio_xt=disable romio_xt_layers=none &&
    ROMIO_XT_SITE_HINTS=$d/site ROMIO_HINTS=$d/hints mpirun_keep 2 ./t_expect "$d/c" \
        romio_xt=disable romio_xt_auto_chose= -- "$d/d" -i romio_xt=auto romio_xt=auto
}
run "auto-site-file-np2" auto_site_case

# --- bad hints: one warning on rank 0 naming hint, bad value, value used ----
# expect_warning NAME N MODE REGEX: exactly one matching line, file still correct
expect_warning() {
    local name=$1 n=$2 mode=$3 re=$4
    mpirun "$n" ./t_hints "$out/$name.dat" "$mode" > "$out/$name.out" 2>&1 || { cat "$out/$name.out"; return 1; }
    cat "$out/$name.out"
    local count; count=$(grep -c "romio-xt: warning" "$out/$name.out")
    [ "$count" -eq 1 ] || { echo "expected exactly one warning, got $count"; return 1; }
    grep -Eq "$re" "$out/$name.out" || { echo "warning does not match: $re"; return 1; }
}
for n in $(xt_np 1 4); do
    run "bad-value-np$n" expect_warning "bad$n" $n bad \
        "hint romio_xt_stats: bad value 'maybe' \(expected one of disable\|enable\); using 'disable'"
done
run "disagree-np2" expect_warning dis2 2 disagree \
    "hint romio_xt_stats: rank 1 has 'enable' but rank 0 has 'disable'; all ranks use 'disable'"
run_np 4 "disagree-np4" expect_warning dis4 4 disagree "hint romio_xt_stats: rank 1 has 'enable'"
run "partial-np2" expect_warning par2 2 partial \
    "hint romio_xt_stats: rank 1 has 'enable' but rank 0 has '\\(unset\\)'; all ranks use 'disable'"
# long_agreed_case N: rank 0's agreed texts span several bcast chunks; every
# rank must get them intact (no disagreement), each bad value warned once
long_agreed_case() {
    local log=$out/long.$1.out
    mpirun "$1" ./t_hints "$out/long.$1.dat" long > "$log" 2>&1 || { cat "$log"; return 1; }
    grep -v "bad value '[a-z]\{1000\}'" "$log"
    [ "$(grep -c "romio-xt: warning" "$log")" -eq 5 ] || { echo "want 5 warnings"; return 1; }
    [ "$(grep -c "romio-xt: warning: hint [a-z_]*: bad value '[a-z]\{1000\}'" "$log")" -eq 5 ] &&
    ! grep -q "rank [0-9]* has" "$log"
}
if [ -n "${XT_NO_LONG_INFO:-}" ]; then   # (test/hosts: Open MPI)
    echo "SKIP $module/long-agreed: $XT_NO_LONG_INFO"
else
run "long-agreed-np2" long_agreed_case 2
run_np 4 "long-agreed-np4" long_agreed_case 4
fi
run "unknown-key-np2" expect_warning unk2 2 unknown "unknown hint romio_xt_statz ignored"
run "set-info-open-only-np2" expect_warning si2 2 setinfo \
    "hint romio_xt_stats: 'enable' can only be set at open; keeping 'disable'"

# the same after a first open: the tested open then learns from ROMIO's own
# allreduce whether any rank has input (no input: no romio-xt state at all;
# get_info still shows the defaults, a hint at set_info is still checked)
later() { local T_LATER_OPEN=1; export T_LATER_OPEN; "$@"; }
for n in $(xt_np 2 4); do
    run "getinfo-later-open-np$n" later mpirun $n ./t_hints "$out/gil.$n" getinfo \
        $("$hintdoc" --valued-names)
    run "set-info-open-only-later-open-np$n" later expect_warning sil$n $n setinfo \
        "hint romio_xt_stats: 'enable' can only be set at open; keeping 'disable'"
    run "disagree-later-open-np$n" later expect_warning disl$n $n disagree \
        "hint romio_xt_stats: rank 1 has 'enable' but rank 0 has 'disable'; all ranks use 'disable'"
    run "partial-later-open-np$n" later expect_warning parl$n $n partial \
        "hint romio_xt_stats: rank 1 has 'enable' but rank 0 has '\\(unset\\)'; all ranks use 'disable'"
    run "bad-value-later-open-np$n" later expect_warning badl$n $n bad \
        "hint romio_xt_stats: bad value 'maybe' \\(expected one of disable\\|enable\\); using 'disable'"
done

# --- warn once per job: many files, every hint pass, one line per problem -----
# warn_once_case N: ROMIO_HINTS has a bad value and an unknown key; 200 files,
# each with set_view and set_info (the same bad value again)
warn_once_case() {
    local n=$1 log=$out/wo.$1.out
    printf 'romio_xt_stats maybe\nromio_xt_statz enable\n' > "$out/wo.hints"
    ROMIO_HINTS=$out/wo.hints mpirun_keep "$n" ./t_warn_once "$out/wo.$n" 200 > "$log" 2>&1 ||
        { cat "$log"; return 1; }
    cat "$log"
    grep -q '^opened 200 files$' "$log" || return 1
    [ "$(grep -c "romio-xt: warning" "$log")" -eq 2 ] || { echo "want 2 warning lines"; return 1; }
    [ "$(grep -c "romio-xt: warning: hint romio_xt_stats: bad value 'maybe'" "$log")" -eq 1 ] &&
    [ "$(grep -c "romio-xt: warning: unknown hint romio_xt_statz ignored" "$log")" -eq 1 ]
}
for n in $(xt_np 1 2 4); do run "warn-once-200-files-np$n" warn_once_case $n; done

# --- ROMIO_HINTS file turns the layer on -----------------------------------
hints_file_case() {
    printf 'romio_xt_stats enable\n' > "$out/hints.$1"
    ROMIO_HINTS="$out/hints.$1" ROMIO_XT_STATS_FILE="$out/hf.$1.json" \
        mpirun_keep "$1" ./t_stack "$out/hf.$1.dat" 'stats>ufs' &&
    [ "$(grep -c '^{"romio_xt_stats":1' "$out/hf.$1.json")" -eq 1 ]
}
for n in 1 2; do run "romio-hints-file-np$n" hints_file_case $n; done

# --- stats JSON matches the I/O done; data round-trips byte for byte --------
stats_case() {  # N HOW(env|info)
    local n=$1 how=$2 f=$out/io.$1.$2.dat j=$out/io.$1.$2.json
    rm -f "$f" "$j"
    if [ "$how" = env ]; then
        ROMIO_XT_STATS=1 ROMIO_XT_STATS_FILE="$j" mpirun_keep "$n" ./t_stats_io "$f" write > "$j.out" || return 1
    else
        ROMIO_XT_STATS_FILE="$j" mpirun_keep "$n" ./t_stats_io "$f" write info > "$j.out" || return 1
    fi
    cat "$j.out"
    python3 "$src/check_stats.py" "$j" "$j.out" "$f" || return 1
    mpirun "$n" ./t_stats_io "$f" verify          # written with stats on, read with it off
}
roundtrip_off_on() {  # written stock, read with stats on
    local n=$1 f=$out/rt.$1.dat
    rm -f "$f"
    mpirun "$n" ./t_stats_io "$f" write &&
    ROMIO_XT_STATS=1 ROMIO_XT_STATS_FILE=/dev/null mpirun_keep "$n" ./t_stats_io "$f" verify
}
for n in $(xt_np 1 2 4); do run "stats-json-np$n" stats_case $n env; done
run "stats-json-info-np2" stats_case 2 info
for n in 1 2; do run "roundtrip-off-on-np$n" roundtrip_off_on $n; done

# --- the stats file's records are appended in batches (at most 1 s after the
# close, at MPI_Finalize): every close's line lands, a new ROMIO_XT_STATS_FILE
# mid-job takes the later ones; an unwritable one warns once and the lines go
# to stderr --------------------------------------------------------------------
stats_files_case() {
    local d=$out/sf a=$out/sf/a.json b=$out/sf/b.json
    rm -rf "$d"; mkdir -p "$d"
    ROMIO_XT_STATS=1 ROMIO_XT_STATS_FILE=$a mpirun_keep 2 ./t_stats_files "$d" 6 "$b" || return 1
    [ "$(grep -c '"romio_xt_stats":1' "$a")" -eq 3 ] && [ "$(grep -c '"romio_xt_stats":1' "$b")" -eq 3 ] ||
        { echo "expected 3 + 3 records"; wc -l "$a" "$b"; return 1; }
    python3 -c 'import json, sys; [json.loads(l) for p in sys.argv[1:] for l in open(p)]' "$a" "$b" || return 1
    ROMIO_XT_STATS=1 ROMIO_XT_STATS_FILE=/proc/romio-xt-none/s.json mpirun_keep 2 \
        ./t_stats_files "$d" 4 > "$d/u.out" 2> "$d/u.err" || return 1
    [ "$(grep -c "warning: ROMIO_XT_STATS_FILE '/proc/romio-xt-none/s.json'" "$d/u.err")" -eq 1 ] &&
        [ "$(grep -c '"romio_xt_stats":1' "$d/u.err")" -eq 4 ] || { cat "$d/u.err"; return 1; }
}
run stats-file-kept-open stats_files_case

# --- each record carries the ranks that did file-system I/O (two-phase
# collective I/O: the aggregators; cb_config_list *:2 makes both ranks of the
# one node aggregators, unless cb_nodes says 1) and the file's hints as
# MPI_File_get_info reports them at close, key for key (a value with quotes,
# a backslash, a tab and UTF-8 escaped) ------------------------------------------
ranks_case() {  # NP coll|indep FS_IO_RANKS [KEY=VALUE ...]
    local np=$1 how=$2 want=$3 f=$out/rk.$1.$2.$3.dat; shift 3
    local j=$f.json
    rm -f "$f" "$j"
    ROMIO_XT_STATS_FILE=$j mpirun_keep "$np" ./t_stats_ranks "$f" "$how" "$@" > "$j.out" || return 1
    python3 "$src/check_stats_ranks.py" "$j" "$j.out" "$f" "$np" "$want" "$@"
}
odd=$(printf '/nonexistent/a "b" \\c\td\303\251')
run stats-fs-io-ranks-coll-2aggs ranks_case 2 coll 2 romio_cb_write=enable cb_config_list='*:2'
run stats-fs-io-ranks-coll-cb-nodes1 ranks_case 2 coll 1 romio_cb_write=enable \
    cb_config_list='*:2' cb_nodes=1 cb_buffer_size=1048576 "e10_cache_path=$odd"
run stats-fs-io-ranks-indep ranks_case 2 indep 2 cb_buffer_size=1048576
run stats-fs-io-ranks-np1 ranks_case 1 coll 1 romio_cb_write=enable
hints_bound_case() {  # the hints stop past a bound (test hook): the first keys, and a count
    ROMIO_XT_TEST_HINTS_MAX=300 ranks_case 2 indep 2 cb_buffer_size=1048576 &&
        grep -q '"hints_left_out":[1-9]' "$out/rk.2.indep.2.dat.json"
}
run stats-hints-bounded hints_bound_case

# --- a binary linked against Debian's libmpich.so.12 runs on romio-xt -------
dropin_case() {
    local cc=/usr/bin/mpicc.mpich
    [ -x "$cc" ] || { echo "Debian's mpicc.mpich is missing (apt-get install libmpich-dev)"; return 1; }
    "$cc" -o t_dropin "$src/t_dropin.c" || return 1
    readelf -d t_dropin | grep -q 'NEEDED.*libmpich.so.12' || { echo "not linked to libmpich.so.12"; return 1; }
    [ "${XT_MPICH_BUILD:-yes}" = yes ] || { dropin_preload; return; }
    [ -e "$XT_PREFIX/lib/libmpich.so.12" ] || { echo "no lib/libmpich.so.12 in $XT_PREFIX"; return 1; }
    local got
    got=$(LD_LIBRARY_PATH=$XT_PREFIX/lib ROMIO_XT_STATS=1 ROMIO_XT_STATS_FILE=$out/dropin.json \
          timeout 300 "$mpiexec" -n 2 ./t_dropin "$out/dropin.dat") || return 1
    echo "$got"
    [ "$got" = "romio_xt_layers=stats errors=0" ] || return 1
    LD_LIBRARY_PATH=$XT_PREFIX/lib ldd ./t_dropin | grep "libmpich.so.12 => $XT_PREFIX/lib/" || return 1
    grep -q '"file":"'"$out"'/dropin.dat"' "$out/dropin.json"
}
# the library's build: PREFIX/bin/mpiexec preloads libromioxt.so into the
# Debian-built binary, whose stats record carries romio-xt's version
dropin_preload() {
    local got
    got=$(ROMIO_XT_STATS=1 ROMIO_XT_STATS_FILE=$out/dropin.json \
          timeout 300 "$mpiexec" -n 2 ./t_dropin "$out/dropin.dat") || return 1
    echo "$got"
    [ "$got" = "romio_xt_layers=stats errors=0" ] || return 1
    grep -q '"file":"'"$out"'/dropin.dat"' "$out/dropin.json" &&
        grep -q '"version":"'"$XT_VERSION"'"' "$out/dropin.json"
}
# (inside another MPI, test/hosts: these two are about romio-xt's own MPICH)
if [ -n "${XT_LABEL:-}" ]; then
    echo "SKIP $module/dropin-debian-binary and version: romio-xt's own MPICH only"
else
run "dropin-debian-binary" dropin_case

# --- the version: MPI_Get_library_version, romio-xt-phases --version, stats --
version_case() {
    [ -n "${XT_VERSION:-}" ] || { echo "XT_VERSION is not set (make check sets it)"; return 1; }
    local got
    if [ "${XT_MPICH_BUILD:-yes}" = yes ]; then
        "$mpicc" -o t_version "$src/t_version.c" || return 1
        mpirun 1 ./t_version > version.out || return 1
        grep -q "romio-xt $XT_VERSION\$" version.out || { cat version.out; return 1; }
    fi
    got=$("$XT_PREFIX/bin/romio-xt-phases" --version) || return 1
    [ "$got" = "romio-xt-phases (romio-xt) $XT_VERSION" ] || { echo "phases: $got"; return 1; }
    got=$("$XT_PREFIX/bin/romio-xt-tune" --version) || return 1
    [ "$got" = "romio-xt-tune (romio-xt) $XT_VERSION" ] || { echo "tune: $got"; return 1; }
}
run "version" version_case
fi

# --- aggregators from the topology (romio_xt_cb_topology) --------------------
# topo_case NAME NODES NP CB_NODES WARNINGS [VAR=VALUE...] -- [KEY=VALUE...]:
# on NODES emulated nodes (MPIR_CVAR_NUM_CLIQUES) with the variables given
# (hwloc's HWLOC_SYNTHETIC, HWLOC_XMLFILE), cb_nodes is CB_NODES (stock's is
# 1: one host) and the file equals stock's byte for byte (t_topo); the log
# holds WARNINGS romio-xt warnings
topo_case() {
    local name=$1 nodes=$2 np=$3 want=$4 warns=$5 log=$out/topo.$1.out; shift 5
    local vars=()
    while [ "$1" != -- ]; do vars+=("$1"); shift; done
    shift
    env "${vars[@]}" MPIR_CVAR_NUM_CLIQUES="$nodes" timeout 300 env -u ROMIO_HINTS \
        "$mpiexec" -n "$np" ./t_topo "$out/topo.$name.dat" "$out/topo.$name.stock" "$want" \
        "$@" > "$log" 2>&1
    local rc=$?
    cat "$log"
    [ $rc -eq 0 ] && grep -q '^t_topo: OK' "$log" &&
        [ "$(grep -c 'romio-xt: warning' "$log")" -eq "$warns" ]
}
numa2="HWLOC_SYNTHETIC=numa:2 core:2 pu:1"
if grep -q '^XT_HWLOC_CFLAGS = -DXT_HAVE_HWLOC' "$XT_BUILDDIR/Makefile"; then
    # one aggregator per NUMA domain: 2 per node, capped by the node's ranks
    run_np 2 "topo-numa-nodes2-np2" topo_case n2p2 2 2 2 0 "$numa2" -- romio_xt_cb_topology=numa
    run_np 4 "topo-numa-nodes2-np4" topo_case n2p4 2 4 4 0 "$numa2" -- romio_xt_cb_topology=numa
    run_np 4 "topo-numa-nodes1-np4" topo_case n1p4 1 4 2 0 "$numa2" -- romio_xt_cb_topology=numa
    # 4 domains on a node of 2 ranks: 2
    run_np 4 "topo-numa-capped-np4" topo_case capped 2 4 4 0 \
        "HWLOC_SYNTHETIC=pack:2 numa:2 core:2 pu:1" -- romio_xt_cb_topology=numa
    # nic: 2 InfiniBand cards per node (the Ethernet card left out); a synthetic
    # topology has none: numa's, with one warning
    xml="HWLOC_XMLFILE=$XT_SRCDIR/test/unit/topo-2nic.xml"
    run_np 2 "topo-nic-xml-np2" topo_case nicxml2 1 2 2 0 "$xml" -- romio_xt_cb_topology=nic
    run_np 4 "topo-nic-xml-np4" topo_case nicxml 1 4 2 0 "$xml" -- romio_xt_cb_topology=nic
    nic_fallback() {
        topo_case nicfb 2 4 4 1 "$numa2" -- romio_xt_cb_topology=nic &&
            grep -q "hint romio_xt_cb_topology: 'nic', but hwloc finds no network card on a node; \
using 'numa' on that node" "$out/topo.nicfb.out"
    }
    run_np 4 "topo-nic-fallback-np4" nic_fallback
    # Orthrus's candidates that run on ROMIO's list, forced: the same bytes
    for cand in two_phase view_based; do
        run_np 4 "topo-orthrus-$cand-np4" topo_case "orth-$cand" 2 4 4 0 "$numa2" -- \
            romio_xt_cb_topology=numa romio_orthrus=enable romio_orthrus_force=$cand
    done
    # the user's cb_nodes and cb_config_list win
    run_np 4 "topo-cb-nodes-wins-np4" topo_case cbn 2 4 1 0 "$numa2" -- \
        romio_xt_cb_topology=numa cb_nodes=1
    run_np 4 "topo-cb-config-list-wins-np4" topo_case cbl 2 4 1 0 "$numa2" -- romio_xt_cb_topology=numa \
        'cb_config_list=*:1'
    # hwloc cannot read a node's topology (test hook): one per node, one warning
    topo_fail() {
        topo_case fail 2 4 2 1 ROMIO_XT_TEST_TOPO_FAIL=1 "$numa2" -- romio_xt_cb_topology=numa &&
            grep -q "hint romio_xt_cb_topology: 'numa', but hwloc cannot read the topology of a node" \
                "$out/topo.fail.out"
    }
    if [ "${XT_TEST_HOOKS:-no}" = yes ]; then run_np 4 "topo-unreadable-np4" topo_fail; fi
    # this machine's own topology (one NUMA domain): numa's aggregators are stock's
    run_np 2 "topo-this-machine-np2" topo_case here2 1 2 1 0 -- romio_xt_cb_topology=numa
    run_np 4 "topo-this-machine-np4" topo_case here 1 4 1 0 -- romio_xt_cb_topology=numa
else
    # built without hwloc: one warning, ROMIO's aggregators
    run_np 2 "topo-without-hwloc-np2" topo_case nohw 2 2 1 1 "$numa2" -- romio_xt_cb_topology=numa
fi

# --- no leaks or memory errors in our code under valgrind -------------------
valgrind_case() {
    command -v valgrind > /dev/null || { echo "valgrind is missing"; return 1; }
    rm -f "$out"/vg.*.log "$out/vg.dat"
    ROMIO_XT_STATS_FILE=$out/vg.json mpirun_keep "$1" valgrind -q --leak-check=full \
        --show-leak-kinds=definite,indirect --log-file="$out/vg.%p.log" \
        ./t_stats_io "$out/vg.dat" write info || return 1
    grep -q '"romio_xt_stats":1' "$out/vg.json" || { echo "no stats record"; return 1; }
    python3 "$src/check_valgrind.py" "$out"/vg.*.log
}
run "valgrind-np2" valgrind_case 2

xt_finish

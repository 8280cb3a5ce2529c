# Shared helpers for romio-xt's MPI test scripts (sourced by test/*/run.sh).
# Env: XT_SRCDIR XT_BUILDDIR XT_PREFIX.

# xt_test_init MODULE: $src, $out (emptied), $mpicc, $mpiexec, $fails
xt_test_init() {
    set -u
    module=$1
    src=$XT_SRCDIR/test/$module
    # test/hosts runs a module's tests again inside another MPI: XT_MPICC and
    # XT_MPIEXEC name its compiler and launcher, XT_LABEL prefixes the names
    # (PASS hosts/mpich5/mpi/...) and the output folder
    out=$XT_BUILDDIR/test/out/${XT_LABEL:+$XT_LABEL/}$module
    mpicc=${XT_MPICC:-$XT_PREFIX/bin/mpicc}
    mpiexec=${XT_MPIEXEC:-$XT_PREFIX/bin/mpiexec}
    module=${XT_LABEL:+$XT_LABEL/}$module
    rm -rf "$out" && mkdir -p "$out"
    fails=0
    # no site hints file (PREFIX/etc/romio-xt.hints) unless a test names one
    export ROMIO_XT_SITE_HINTS=
}

# run NAME CMD...: one test, run in $out with its output in $out/NAME.log;
# prints "PASS module/NAME" or "FAIL module/NAME" and the log's tail.  A
# script may define before_each to reset state between tests.
# under make check-sanitize (XT_SANITIZE set) the cases that cannot run with
# the sanitizers are skipped by name: valgrind, and programs built by Debian's
# compilers (uninstrumented; they cannot load the sanitizer-built library)
san_skip() {
    [ -n "${XT_SANITIZE:-}" ] || return 1
    case "$1" in
        *valgrind*) echo "SKIP $module/$1: valgrind cannot run sanitizer-built programs" ;;
        dropin-debian-binary | hdf5-*)
            echo "SKIP $module/$1: built by Debian's compiler, cannot load the sanitizer-built library" ;;
        *) return 1 ;;
    esac
}

run() {
    local name=$1; shift
    san_skip "$name" && return 0
    if declare -F before_each > /dev/null; then before_each; fi
    if (cd "$out" && "$@") > "$out/$name.log" 2>&1; then
        echo "PASS $module/$name"
    else
        echo "FAIL $module/$name"
        tail -n 15 "$out/$name.log" | sed 's/^/    /'
        fails=$((fails + 1))
    fi
}

# mpirun N PROGRAM ARGS...: mpiexec without the caller's romio-xt variables
mpirun() {
    local n=$1; shift
    env -u ROMIO_HINTS -u ROMIO_XT_STATS -u ROMIO_XT_STATS_FILE \
        timeout "${XT_TEST_TIMEOUT:-600}" "$mpiexec" -n "$n" "$@"
}

# xt_build CMD...: the build step; on failure "FAIL module/build" and exit
xt_build() {
    if ! "$@" > "$out/build.log" 2>&1; then
        echo "FAIL $module/build"
        sed 's/^/    /' "$out/build.log"
        exit 1
    fi
}

# The quick tier (make check-quick) sets XT_MAX_NP=2: cases with more ranks
# are left to make check.
# xt_np N...: the counts among N... that the tier runs
xt_np() {
    local n
    for n; do [ "$n" -le "${XT_MAX_NP:-1024}" ] && echo "$n"; done
    return 0
}

# run_np NP NAME CMD...: run NAME (which uses NP ranks) unless the tier has fewer
run_np() {
    local np=$1; shift
    if [ "$np" -gt "${XT_MAX_NP:-1024}" ]; then
        echo "SKIP $module/$1 ($np ranks: make check runs it)"
        return 0
    fi
    run "$@"
}

xt_finish() {
    exit $((fails > 0))
}

#!/usr/bin/env bash
# Runs ROMIO's own upstream test programs (src/mpi/romio/test of the MPICH
# tree) against the installed romio-xt MPICH, once per pass.
#
# A pass is passes/<name>.hints, in ROMIO_HINTS format ("key value" lines; a
# file with no hint lines means stock: ROMIO_HINTS stays unset), plus an
# optional passes/<name>.env with extra KEY=VALUE environment lines and an
# optional passes/<name>.skip ("test | reason" lines: not run in that pass).  A pass
# whose hints (or env) enable romio_xt_stats must leave at least one
# {"romio_xt_stats":1,...} line in ROMIO_XT_STATS_FILE per test; any other pass
# must leave none.
#
# How each test runs is in tests.list; the programs not run, with reasons, are
# in EXCLUDED.md.  Prints one "PASS upstream/<pass>/<test>" or
# "FAIL upstream/<pass>/<test>" line per test (a FAIL is followed by the reason
# and the tail of the output, indented by 4 spaces); other lines start with '#'.
#
# Environment: XT_PREFIX (install prefix), XT_UPSTREAM (MPICH source tree),
# XT_BUILDDIR (scratch root; we work in $XT_BUILDDIR/test/out/upstream),
# XT_SRCDIR (romio-xt tree, unused but accepted), XT_UPSTREAM_PASSES
# (space-separated pass names, default all), XT_UPSTREAM_TIMEOUT (default
# per-test timeout in seconds, default 180).
# test/openmpi/run.sh runs ROMIO 3.2.1's tests through Open MPI with the same
# passes, setting: XT_UPSTREAM_TESTSRC (the test folder), XT_UPSTREAM_LIST and
# XT_UPSTREAM_EXCLUDED (its tests.list and EXCLUDED.md), XT_UPSTREAM_MPICC,
# XT_UPSTREAM_MPIF77, XT_UPSTREAM_MPIEXEC (a command line, before "-n N"),
# XT_UPSTREAM_MPI_H (the mpi.h for MPI_Offset), XT_UPSTREAM_OUT (scratch)
# and XT_UPSTREAM_NAME (the "upstream" in the PASS/FAIL lines).
# Arguments: optional test names to run only those.
# Exit status: 0 all passed, 1 some FAIL, 2 usage/setup error.

set -u

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
: "${XT_PREFIX:?XT_PREFIX not set}" "${XT_UPSTREAM:?XT_UPSTREAM not set}" \
  "${XT_BUILDDIR:?XT_BUILDDIR not set}"

TESTSRC=${XT_UPSTREAM_TESTSRC:-$XT_UPSTREAM/src/mpi/romio/test}
LIST=${XT_UPSTREAM_LIST:-$HERE/tests.list}
EXCLUDED=${XT_UPSTREAM_EXCLUDED:-$HERE/EXCLUDED.md}
OUT=${XT_UPSTREAM_OUT:-$XT_BUILDDIR/test/out/upstream}
MPICC=${XT_UPSTREAM_MPICC:-$XT_PREFIX/bin/mpicc}
MPIF77=${XT_UPSTREAM_MPIF77:-$XT_PREFIX/bin/mpif77}
read -r -a MPIEXEC <<<"${XT_UPSTREAM_MPIEXEC:-$XT_PREFIX/bin/mpiexec}"
MPI_H=${XT_UPSTREAM_MPI_H:-$XT_PREFIX/include/mpi.h}
# (the library's build installs no mpi.h: Debian's MPICH's)
[ -f "$MPI_H" ] || MPI_H=/usr/include/x86_64-linux-gnu/mpich/mpi.h
NAME=${XT_UPSTREAM_NAME:-upstream}
DEFAULT_TIMEOUT=${XT_UPSTREAM_TIMEOUT:-180}
TAIL_LINES=15

die() { echo "upstream/run.sh: $*" >&2; exit 2; }
[ -x "$MPICC" ] || die "no $MPICC"
[ -x "${MPIEXEC[0]}" ] || die "no ${MPIEXEC[0]}"
[ -d "$TESTSRC" ] || die "no upstream ROMIO tests in $TESTSRC"
export LD_LIBRARY_PATH="$XT_PREFIX/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

start_time=$(date +%s)

# --- the lists --------------------------------------------------------------
trim() { local s=$1; s=${s#"${s%%[![:space:]]*}"}; s=${s%"${s##*[![:space:]]}"}; printf '%s' "$s"; }

# excluded: rows of EXCLUDED.md's table whose first cell is `name`
declare -A EXCL=()
while IFS= read -r name; do
    EXCL[$name]=1
done < <(sed -n 's/^|[[:space:]]*`\([A-Za-z0-9_.-]*\)`[[:space:]]*|.*/\1/p' "$EXCLUDED")

# tests.list: test | np | success | args | timeout
declare -A T_NP=() T_OK=() T_ARGS=() T_TO=()
T_ORDER=()
while IFS= read -r line; do
    case $(trim "$line") in ''|'#'*) continue ;; esac
    IFS='|' read -r f_name f_np f_ok f_args f_to <<<"$line"
    f_name=$(trim "$f_name"); f_np=$(trim "$f_np"); f_ok=$(trim "$f_ok")
    f_args=$(trim "${f_args:-}"); f_to=$(trim "${f_to:-}")
    [[ $f_np =~ ^[0-9]+$ ]] || die "tests.list: bad np for '$f_name'"
    [ -n "${EXCL[$f_name]:-}" ] && die "tests.list: '$f_name' is also in EXCLUDED.md"
    T_ORDER+=("$f_name")
    T_NP[$f_name]=$f_np; T_OK[$f_name]=$f_ok; T_ARGS[$f_name]=$f_args
    T_TO[$f_name]=${f_to:-$DEFAULT_TIMEOUT}
done <"$LIST"

# upstream programs: <name>.c, <name>.c.in (C), <name>.f.in, <name>.f (Fortran)
declare -A UP_SRC=()
for f in "$TESTSRC"/*.c "$TESTSRC"/*.c.in "$TESTSRC"/*.f.in "$TESTSRC"/*.f; do
    [ -e "$f" ] || continue
    b=${f##*/}; b=${b%.in}; b=${b%.[cf]}
    [ -z "${UP_SRC[$b]:-}" ] && UP_SRC[$b]=$f
done

# what to run: tests.list order, then upstream programs listed nowhere (FAIL)
ALL=("${T_ORDER[@]}")
for b in $(printf '%s\n' "${!UP_SRC[@]}" | sort); do
    [ -n "${EXCL[$b]:-}" ] || [ -n "${T_NP[$b]:-}" ] || ALL+=("$b")
done

SELECTED=()
if [ $# -gt 0 ]; then
    for want in "$@"; do
        found=
        for t in "${ALL[@]}"; do [ "$t" = "$want" ] && found=1; done
        if [ -z "$found" ]; then
            if [ -n "${EXCL[$want]:-}" ]; then die "'$want' is excluded (EXCLUDED.md)"; fi
            die "unknown test '$want'"
        fi
        SELECTED+=("$want")
    done
else
    # the library (make check's own run, not inside MPICH) lacks two
    # (docs/library.md): error looks for ROMIO's own texts (the library gives
    # error classes' texts), darray_read's cyclic darray is refused
    for t in "${ALL[@]}"; do
        case "${XT_MPICH_BUILD:-yes}:$NAME:$t" in
            no:upstream:error | no:upstream:darray_read)
                echo "SKIP $NAME/$t: inside MPICH only (docs/library.md)" ;;
            *) SELECTED+=("$t") ;;
        esac
    done
fi

# passes: stock first, then the others by name; a module's own passes live
# in test/<module>/upstream-passes/ (same files)
declare -A PASSDIR=()
for f in "$HERE"/passes/*.hints "${XT_SRCDIR:-$HERE/../..}"/test/*/upstream-passes/*.hints; do
    [ -f "$f" ] || continue
    p=${f##*/}; p=${p%.hints}
    [ -z "${PASSDIR[$p]:-}" ] || die "two passes named '$p': ${PASSDIR[$p]} and ${f%/*}"
    PASSDIR[$p]=${f%/*}
done
PASSES=()
if [ -n "${XT_UPSTREAM_PASSES:-}" ]; then
    for p in $XT_UPSTREAM_PASSES; do
        [ -n "${PASSDIR[$p]:-}" ] || die "no pass '$p' (passes/$p.hints)"
        PASSES+=("$p")
    done
else
    [ -n "${PASSDIR[stock]:-}" ] && PASSES+=(stock)
    while read -r p; do
        [ "$p" = stock ] || PASSES+=("$p")
    done < <(printf '%s\n' "${!PASSDIR[@]}" | sort)
fi
[ ${#PASSES[@]} -gt 0 ] || die "no passes in $HERE/passes"

mkdir -p "$OUT/bin" "$OUT/build" "$OUT/logs" "$OUT/run" || die "cannot create $OUT"
: >"$OUT/logs/times.txt"

excluded_names=$(printf '%s\n' "${!EXCL[@]}" | sort | tr '\n' ' ')
echo "# upstream: ${#SELECTED[@]} tests x ${#PASSES[@]} passes (${PASSES[*]}); excluded (EXCLUDED.md): $excluded_names"

# --- build ------------------------------------------------------------------
# .c.in templates: the only configure variable the C templates use is @LL@,
# the printf length modifier for MPI_Offset; derive it from the installed mpi.h.
LL=lld
if grep -Eq 'typedef[[:space:]]+long[[:space:]]+MPI_Offset' "$MPI_H" 2>/dev/null; then
    LL=ld
fi

# .f.in templates (Fortran 77, built with mpif77): what ROMIO's configure
# substitutes for gfortran and MPICH (mpif.h already declares MPI-IO)
FSUBST='s/@F77MPIOINC@//; s/@FTESTDEFINE@//; s/@FORTRAN_MPI_OFFSET@/integer*8/; s/@F77GETARG@/call getarg(i,str)/; s/@F77IARGC@/iargc()/'

declare -A BUILD_ERR=()
build_one() {   # build_one name -> 0/1, log in $OUT/build/<name>.log
    local t=$1 src=${UP_SRC[$1]:-} bin=$OUT/bin/$1 log=$OUT/build/$1.log csrc
    if [ -z "$src" ]; then
        echo "no source $t.c / $t.c.in in $TESTSRC" >"$log"; return 1
    fi
    case $src in
        *.c.in|*.f.in)
            csrc=$OUT/build/$(basename "${src%.in}")
            sed -e "s/@LL@/$LL/g" -e "$FSUBST" "$src" >"$csrc.tmp" || return 1
            if grep -q '@[A-Z_0-9]*@' "$csrc.tmp"; then
                { echo "unsubstituted configure variables in $src:"; grep -n '@[A-Z_0-9]*@' "$csrc.tmp"; } >"$log"
                return 1
            fi
            if ! cmp -s "$csrc.tmp" "$csrc"; then mv "$csrc.tmp" "$csrc"; else rm -f "$csrc.tmp"; fi
            ;;
        *) csrc=$src ;;
    esac
    if [ -x "$bin" ] && [ "$bin" -nt "$csrc" ] && [ "$bin" -nt "$MPICC" ] &&
       [ "$bin" -nt "$MPI_H" ]; then
        return 0
    fi
    rm -f "$bin"
    case $csrc in
        *.f) "$MPIF77" -O2 -o "$bin" "$csrc" >"$log" 2>&1 ;;
        *) "$MPICC" -O2 -o "$bin" "$csrc" -lm >"$log" 2>&1 ;;
    esac
}

build_start=$(date +%s)
for t in "${SELECTED[@]}"; do
    [ -n "${T_NP[$t]:-}" ] || continue          # unlisted: reported below
    build_one "$t" || BUILD_ERR[$t]=1
done
echo "# upstream: built in $(( $(date +%s) - build_start ))s"

# --- run --------------------------------------------------------------------
npass=0; nfail=0
FAILED=()

report_fail() {  # report_fail id reason [log]
    echo "FAIL $NAME/$1"
    echo "    ($2)"
    if [ -n "${3:-}" ] && [ -s "$3" ]; then
        tail -n "$TAIL_LINES" "$3" | sed 's/^/    /'
    fi
    nfail=$((nfail + 1)); FAILED+=("$1")
}

# has_line text file: some line of file is text, give or take blanks around it
has_line() {
    awk -v want="$1" '{ s = $0; gsub(/^[ \t\r]+|[ \t\r]+$/, "", s); if (s == want) f = 1 }
                      END { exit !f }' "$2"
}

# hint lines of a pass file: not blank, not a comment
hint_lines() { grep -Ev '^[[:space:]]*(#|$)' "$1"; }

# stats lines check: prints a reason on stdout when the check fails
check_stats() {  # check_stats file expect(0/1)
    local f=$1 want=$2 n
    n=$(grep -c '^{"romio_xt_stats":1' "$f" 2>/dev/null); n=${n:-0}
    if [ "$want" = 1 ]; then
        if [ "$n" -eq 0 ]; then
            echo "romio_xt_stats enabled but $f has no {\"romio_xt_stats\":1 line"
            return
        fi
        if command -v python3 >/dev/null 2>&1; then
            python3 - "$f" <<'EOF' || return
import json, sys
for i, line in enumerate(open(sys.argv[1]), 1):
    try:
        rec = json.loads(line)
        assert isinstance(rec, dict) and rec.get("romio_xt_stats") == 1
    except Exception as e:
        print("stats line %d is not a romio_xt_stats JSON object (%s): %s"
              % (i, e, line.strip()[:200]))
        sys.exit(1)
EOF
        fi
    elif [ -s "$f" ]; then
        echo "pass does not enable romio_xt_stats but $f got $(wc -l <"$f") line(s)"
    fi
}

# run_one TEST: TEST under the launcher, in $rundir, with the pass's env
run_one() {
    ( cd "$rundir" &&
      exec env "${ENVARGS[@]}" "ROMIO_XT_STATS_FILE=$stats" \
          timeout -k 10 "${T_TO[$1]}" "${MPIEXEC[@]}" -n "${T_NP[$1]}" "$OUT/bin/$1" "${args[@]}" )
}

# own_flaw TEST LOG: TEST crashed in a flaw of its own, not of MPI-IO:
# noncontig_coll2 gathers processor names into separate malloc'd strings at
# int displacements from the first (its comment says it does not cover a
# distance beyond an int); when malloc places them far apart, the host's
# MPI_Gatherv, called from the test itself before any file is opened, faults
own_flaw() {
    [ "$1" = noncontig_coll2 ] || return 1
    grep -A1 'PMPI_Gatherv' "$2" | grep -q "/bin/$1("
}

for pass in "${PASSES[@]}"; do
    hints=${PASSDIR[$pass]}/$pass.hints
    envfile=${PASSDIR[$pass]}/$pass.env
    ENVARGS=()
    # start from a clean ROMIO environment, then the pass's settings
    for v in $(compgen -e | grep '^ROMIO_'); do ENVARGS+=(-u "$v"); done
    pass_hints=
    if hint_lines "$hints" >/dev/null; then
        pass_hints=$hints
        ENVARGS+=("ROMIO_HINTS=$hints")
    fi
    want_stats=0
    grep -Eq '^[[:space:]]*romio_xt_stats[[:space:]]+enable[[:space:]]*$' "$hints" && want_stats=1
    if [ -f "$envfile" ]; then
        while IFS= read -r l; do
            case $(trim "$l") in ''|'#'*) continue ;; esac
            l=$(trim "$l")
            [[ $l == *=* ]] || die "passes/$pass.env: not KEY=VALUE: $l"
            ENVARGS+=("$l")
            case $l in ROMIO_XT_STATS=1|ROMIO_XT_STATS=enable) want_stats=1 ;; esac
        done <"$envfile"
    fi
    mkdir -p "$OUT/logs/$pass"
    # passes/<pass>.skip: "test | reason" lines, tests this pass does not run
    declare -A SKIP=()
    if [ -f "${PASSDIR[$pass]}/$pass.skip" ]; then
        while IFS='|' read -r s_name s_why; do
            s_name=$(trim "$s_name")
            case $s_name in ''|'#'*) continue ;; esac
            SKIP[$s_name]=$(trim "${s_why:-}")
        done <"${PASSDIR[$pass]}/$pass.skip"
    fi

    for t in "${SELECTED[@]}"; do
        id=$pass/$t
        if [ -n "${SKIP[$t]:-}" ]; then
            echo "# skip $NAME/$id: ${SKIP[$t]}"
            continue
        fi
        log=$OUT/logs/$pass/$t.log
        stats=$OUT/logs/$pass/$t.stats.jsonl
        rm -f "$log" "$stats"
        if [ -z "${T_NP[$t]:-}" ]; then
            report_fail "$id" "upstream program ${UP_SRC[$t]##*/} is listed neither in tests.list nor in EXCLUDED.md"
            continue
        fi
        if [ -n "${BUILD_ERR[$t]:-}" ]; then
            report_fail "$id" "build failed, log $OUT/build/$t.log" "$OUT/build/$t.log"
            continue
        fi
        rundir=$OUT/run/$pass/$t
        rm -rf "$rundir"; mkdir -p "$rundir"

        # arguments, with placeholders substituted word by word
        read -r -a words <<<"${T_ARGS[$t]}"
        args=()
        for w in "${words[@]}"; do
            case $w in
                *'{HINTFILE}'*)
                    # syshints sets ROMIO_HINTS to its argument: give it the
                    # upstream hint file with the pass's hints appended (ROMIO
                    # keeps the first value of a key, so the test's win)
                    cp "$TESTSRC/test_hintfile" "$rundir/hintfile"
                    if [ -n "$pass_hints" ]; then
                        { echo; cat "$pass_hints"; } >>"$rundir/hintfile"
                    fi
                    w=${w//'{HINTFILE}'/$rundir/hintfile} ;;
            esac
            w=${w//'{FILE}'/$rundir/testfile}
            args+=("$w")
        done

        t0=$(date +%s)
        run_one "$t" >"$log" 2>&1 </dev/null
        rc=$?
        if [ $rc -ne 0 ] && own_flaw "$t" "$log"; then
            mv "$log" "$log.first"
            echo "# rerun $NAME/$id: it crashed in its own MPI_Gatherv of processor names, before any MPI-IO call (its int displacements between separate malloc'd strings); first log $log.first"
            run_one "$t" >"$log" 2>&1 </dev/null
            rc=$?
        fi
        secs=$(( $(date +%s) - t0 ))
        echo "$id ${secs}s rc=$rc" >>"$OUT/logs/times.txt"

        reason=
        if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
            reason="timed out after ${T_TO[$t]}s"
            # hydra puts its proxy and the ranks in sessions of their own, so
            # timeout's signal to its process group misses them if mpiexec
            # dies first: end whatever still runs in this test's directory
            for p in /proc/[0-9]*; do
                [ "$(readlink "$p/cwd" 2>/dev/null)" = "$rundir" ] && kill -9 "${p#/proc/}" 2>/dev/null
            done
        elif [ $rc -ne 0 ]; then
            reason="exit status $rc"
        elif [ "${T_OK[$t]}" != - ] && ! has_line "${T_OK[$t]}" "$log"; then
            reason="no '${T_OK[$t]}' line in the output"
        fi
        if [ -z "$reason" ]; then
            reason=$(check_stats "$stats" "$want_stats")
        fi
        if [ -z "$reason" ]; then
            echo "PASS $NAME/$id"
            npass=$((npass + 1))
            rm -rf "$rundir"
        else
            report_fail "$id" "$reason; ${secs}s, log $log" "$log"
        fi
    done
done

wall=$(( $(date +%s) - start_time ))
echo "# upstream: $npass passed, $nfail failed, ${#EXCL[@]} excluded; wall ${wall}s"
[ $nfail -eq 0 ] || echo "# upstream: failed: ${FAILED[*]}"
[ $nfail -eq 0 ]

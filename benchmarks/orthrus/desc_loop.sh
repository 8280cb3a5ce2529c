#!/bin/bash
# Orthrus per-call cost (docs/results/orthrus-s8.md): configs run interleaved
# (A B C A B C ...), each printing the benchmark's RESULT lines and one CALL
# line per call (ORTH_BENCH_CALLS=1), prefixed with "config rep".
# usage: desc_loop.sh OUT REPS NP NODES BINARY ARGS-AFTER-DIR...
# Env: XT_PREFIX (install), WORK (scratch dir), CONFIGS: space-separated
#   name:hint=value|hint=value:ENV=value,ENV=value   e.g.
#   CONFIGS="stock:: listed:romio_orthrus=enable:ROMIO_XT_ORTHRUS_TEST_DESC=0 cached:romio_orthrus=enable:"
# (ROMIO_XT_ORTHRUS_TEST_DESC=0 lists every call's pieces, as before
# session 8; needs a build configured with --enable-xt-test-hooks).
# Summary: desc_summary.py OUT (CFGS="stock listed cached").
set -eu
out=$1 reps=$2 np=$3 nodes=$4 bin=$5; shift 5
work=${WORK:-$PWD/desc-work}
mkdir -p "$work"
: > "$out"
for r in $(seq "$reps"); do
    for spec in $CONFIGS; do
        name=${spec%%:*} rest=${spec#*:}
        hints=${rest%%:*} envs=${rest#*:}
        [ "$envs" = "$rest" ] && envs=""
        h=""
        if [ -n "$hints" ]; then
            h=$work/$name.hints
            echo "$hints" | tr '|' '\n' | tr '=' ' ' > "$h"
        fi
        rm -f "$work"/*.dat
        # shellcheck disable=SC2046
        env ${h:+ROMIO_HINTS=$h} $(echo "$envs" | tr ',' ' ') ORTH_BENCH_CALLS=1 \
            MPIR_CVAR_NUM_CLIQUES="$nodes" "$XT_PREFIX/bin/mpiexec" -n "$np" "$bin" "$work" "$@" \
            2>/dev/null | sed "s/^/$name $r /" >> "$out"
    done
done

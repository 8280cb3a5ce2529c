#!/bin/bash
# romio-xt template layer (src/null): it stacks, and data passes unchanged.
# Env: XT_PREFIX XT_SRCDIR XT_BUILDDIR.  One "PASS null/name" line per test.
. "$XT_SRCDIR/test/lib.sh"
xt_test_init null

build() {
    "$mpicc" -O1 -g -Wall -I"$XT_SRCDIR/test/mpi" -o "$out/t_null" "$src/t_null.c" &&
        "$mpicc" -O1 -g -Wall -I"$XT_SRCDIR/test/mpi" -o "$out/t_stack" \
            "$XT_SRCDIR/test/mpi/t_stack.c"
}
xt_build build

# installed only when asked, over the stock table (with stats: counted, below)
stacks() {
    mpirun 2 ./t_stack "$out/s" 'null>ufs' romio_xt_null=enable
}
run stacks stacks

# written through it = written without it, byte for byte; each reads the other's
identical() {
    mpirun 2 ./t_null "$out/on" write romio_xt_null &&
        mpirun 2 ./t_null "$out/off" write &&
        cmp "$out/on" "$out/off" &&
        mpirun 2 ./t_null "$out/off" verify romio_xt_null &&
        mpirun 2 ./t_null "$out/on" verify
}
run byte-identical identical

# it stacks over stats and its operations run: the stats record lists both
# layers and has its counters, with the bytes moved
counted() {
    rm -f "$out/null.json"
    ROMIO_XT_STATS_FILE="$out/null.json" timeout 300 "$mpiexec" -n 2 ./t_null "$out/c" write \
        romio_xt_null romio_xt_stats &&
        python3 - "$out/null.json" <<'PY'
import json, sys
rec = json.loads(open(sys.argv[1]).readline())
n = rec["features"]["null"]
assert rec["layers"] == ["stats", "null"], rec["layers"]
assert n["write_contig"] > 0 and n["bytes"] >= 2 * (16 + 1) * 4096, n
print(n)
PY
}
run counted counted

xt_finish

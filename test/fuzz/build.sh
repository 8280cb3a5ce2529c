#!/bin/sh
# build.sh SRCDIR OUTDIR MODE: the fuzz harnesses of test/fuzz.
#   MODE fuzz:   libFuzzer with ASan and UBSan (clang; Debian: clang-14 and
#                libclang-rt-14-dev), OUTDIR/<harness>
#   MODE replay: the project's compiler and driver.c, OUTDIR/<harness>-replay
#                (make check replays test/fuzz/regress/<harness>/ with them)
set -e
src=$1 out=$2 mode=$3
mkdir -p "$out"
inc="-I$src/src/core -I$src/src/orthrus -I$src/src/nvm_cache -I$src/src/prefetch"
# harness: its sources besides itself
deps_fuzz_hints="src/core/xt_hints.c src/core/xt_romiohints.c src/prefetch/pf_window.c"
deps_fuzz_table="src/orthrus/orth_select.c src/orthrus/orth_table.c"
deps_fuzz_recover="src/nvm_cache/nvc_file.c src/core/xt_io.c"
for h in fuzz_hints fuzz_table fuzz_recover; do
    eval deps=\$deps_$h
    files="$src/test/fuzz/$h.c"
    for d in $deps; do files="$files $src/$d"; done
    if [ "$mode" = fuzz ]; then
        ${CLANG:-clang-14} -g -O1 -fsanitize=fuzzer,address,undefined \
            -fno-sanitize-recover=undefined $inc -o "$out/$h" $files -lm -lpthread
    else
        ${CC:-cc} -g -O1 -Wall -fsanitize=address,undefined -fno-sanitize-recover=undefined \
            $inc -o "$out/$h-replay" $files "$src/test/fuzz/driver.c" -lm -lpthread
    fi
done

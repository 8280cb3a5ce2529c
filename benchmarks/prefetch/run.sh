#!/bin/sh
# romio-xt prefetch benchmark: the ROOT-like reader, cold files, off /
# whole-file WILLNEED / fadvise / buffer / announced ranges, compute per read swept from 0 to
# about 2x the read time; 1 reader on a 1 GiB file, then 2 concurrent readers
# (separate processes) on 512 MiB each.  Output in $XT_BUILDDIR/bench-out/prefetch/:
# prefetch-1reader.{csv,png,md}, prefetch-2readers.*, prefetch.png (runtime
# vs compute) and prefetch-summary.md.
#   XT_PREFIX, XT_BUILDDIR as for make bench; PF_REPS (default 5),
#   PF_COMPUTE (default 0,150,300,450,600), PF_DATA (default OUT/data)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
XT_PREFIX=${XT_PREFIX:-/tmp/xtb/install}
XT_BUILDDIR=${XT_BUILDDIR:-$(pwd)}
out=$XT_BUILDDIR/bench-out/prefetch
data=${PF_DATA:-$out/data}
GiB=1073741824
mkdir -p "$out/bin" "$data"

pick_python() {
    for py in ${PYTHON3:-} python3 /usr/bin/python3; do
        if "$py" -c 'import matplotlib' 2>/dev/null; then echo "$py"; return; fi
    done
    echo python3
}
py=$(pick_python)

"$XT_PREFIX/bin/mpicc" -O2 -Wall -o "$out/bin/pf_root" "$here/pf_root.c"
"$out/bin/pf_root" --create "$data/root.0" $GiB
"$out/bin/pf_root" --create "$data/root.1" $((GiB / 2))

export PF_DATA=$data PF_REPS=${PF_REPS:-5} PF_COMPUTE=${PF_COMPUTE:-0,150,300,450,600}
PF_READERS=1 PF_BYTES=$GiB "$py" "$here/../harness.py" --config "$here/prefetch.py" \
    --prefix "$XT_PREFIX" --out "$out" --work "$out/work"
PF_READERS=2 PF_BYTES=$((GiB / 2)) "$py" "$here/../harness.py" --config "$here/prefetch.py" \
    --prefix "$XT_PREFIX" --out "$out" --work "$out/work"
"$py" "$here/plot_prefetch.py" "$out" prefetch-1reader prefetch-2readers

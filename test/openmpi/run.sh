#!/bin/bash
# romio-xt as Open MPI's io component (mca_io_romioxt.so, docs/openmpi.md),
# with Debian 12's Open MPI 4.1.4 (openmpi-bin, libopenmpi-dev,
# libhdf5-openmpi-dev).  Programs are built with Debian's mpicc.openmpi /
# mpif90.openmpi and run by mpirun.openmpi, 2 ranks, with the installed
# component found through OMPI_MCA_mca_base_component_path:
#   component   ompi_info lists romioxt beside romio321 and ompio; the
#               component exports nothing of ROMIO's (ADIO_*, ...)
#   kernel-*    the no-harm kernels (benchmarks/noharm/noharm.c: contiguous,
#               interleaved, strided, collective view; reads verified) under
#               OMPIO, romio321 and romioxt with no hint, each extension's
#               hints and all at once: every file equal to romio321's and
#               OMPIO's (where written: holes are undefined, see same_data)
#   info        MPI_File_get_info shows the effective hints after open and
#               after set_view, and the layer stack is the hints' (t_info.c)
#   sidebyside  romio321 and romioxt both loaded; the priority picks either,
#               and the picked one writes the file (equal files)
#   fortran-*   t_fio.f90 (test/apps) by mpif90.openmpi: romio321 vs romioxt
#               with no hint, each extension's hints and all at once (the
#               extension's layer in romio_xt_layers, equal files)
#   hdf5-*      benchmarks/noharm/nh_hdf5.c on libhdf5-openmpi: romioxt with
#               each extension's hints, files equal to romio321's
#   upstream    ROMIO 3.2.1's own tests under romioxt in test/upstream's
#               passes (test/upstream/run.sh; upstream-tests.list,
#               upstream-excluded.md); XT_OPENMPI_PASSES limits the passes
# Without Open MPI 4.1.4 or without the installed component: one SKIP line
# with the reason.  The quick tier (XT_QUICK=1) leaves out hdf5 and upstream.
. "$XT_SRCDIR/test/lib.sh"
xt_test_init openmpi
ompicc=/usr/bin/mpicc.openmpi
ompif90=/usr/bin/mpif90.openmpi
ompirun=/usr/bin/mpirun.openmpi
comp=$XT_PREFIX/lib/openmpi/mca_io_romioxt.so
debcomp=/usr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3
nh=$XT_SRCDIR/benchmarks/noharm

skip() { echo "SKIP openmpi ($1)"; exit 0; }
[ -x "$ompicc" ] && [ -x "$ompirun" ] ||
    skip "no Open MPI: Debian's openmpi-bin and libopenmpi-dev are not installed (scripts/install-deps.sh)"
"$ompicc" --showme:version 2>/dev/null | grep -q "Open MPI 4\.1\.4 " ||
    skip "$ompicc is not Open MPI 4.1.4"
[ -f "$comp" ] || skip "no $comp (configured --with-openmpi=no?)"

export OMPI_MCA_mca_base_component_path=$debcomp:$XT_PREFIX/lib/openmpi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1

# ompi IO NP PROGRAM ARGS...: mpirun.openmpi with the io component IO
# (romioxt, romio321 or ompio), the hints of $hints (a ROMIO_HINTS file) if set
ompi() {
    local io=$1 n=$2; shift 2
    env -u ROMIO_HINTS -u ROMIO_XT_STATS -u ROMIO_XT_STATS_FILE ${hints:+ROMIO_HINTS=$hints} \
        timeout "${XT_TEST_TIMEOUT:-300}" "$ompirun" -n "$n" --mca io "$io" "$@"
}

# the configurations: NAME COMPONENT HINT-LINES ("key value;key value")
e10dir=/dev/shm/romio-xt-openmpi-test.$$
mkdir -p "$e10dir" "$out/trace"
trap 'rm -rf "$e10dir"' EXIT
EXT_NAMES="ds_adaptive orthrus e10_cache prefetch trace stats"
declare -A EXT=(
    [ds_adaptive]="romio_ds_read adaptive;romio_ds_write adaptive"
    [orthrus]="romio_orthrus enable"
    [e10_cache]="e10_cache enable;e10_cache_path $e10dir"
    [prefetch]="romio_prefetch enable"
    [trace]="romio_xt_trace enable;romio_xt_trace_dir $out/trace"
    [stats]="romio_xt_stats enable"
)
all=
for e in $EXT_NAMES; do all="$all${all:+;}${EXT[$e]}"; done
EXT[all]=$all
# a layer each configuration must install (romio_xt_layers, get_info)
declare -A LAYER=([ds_adaptive]=ds_adaptive [orthrus]=orthrus [e10_cache]=nvm_cache
    [prefetch]=prefetch [trace]=trace [stats]=stats [all]="nvm_cache,prefetch,ds_adaptive,orthrus,stats,trace")
hintfile() {  # hintfile NAME: $out/NAME.hints from EXT[NAME] (empty: none)
    hints=
    [ -n "${1:-}" ] || return 0
    hints=$out/$1.hints
    echo "${EXT[$1]}" | tr ';' '\n' > "$hints"
}

xt_build "$ompicc" -O2 -Wall -I"$nh" -o "$out/noharm" "$nh/noharm.c"
xt_build "$ompicc" -O2 -Wall -o "$out/t_info" "$src/t_info.c" -ldl
xt_build "$ompicc" -O2 -Wall -o "$out/t_expect" "$XT_SRCDIR/test/mpi/t_expect.c"

component() {
    ompi_info > ompi_info.txt 2>&1 || return 1
    for c in romioxt romio321 ompio; do
        grep -q "MCA io: $c " ompi_info.txt || { echo "ompi_info lists no io component $c"; return 1; }
    done
    local bad
    bad=$(nm -D --defined-only "$comp" | awk '{print $3}' |
        grep -v '^mca_io_romioxt_component$\|^mca_io_romioxt_describe$\|^romioxt_describe_stack$\|^_')
    [ -z "$bad" ] || { echo "exported besides the component: $bad"; return 1; }
}
run component component

# same_data WL A B: the files hold the same bytes where the kernel wrote.
# strided leaves holes (15 KiB of every 16 KiB with 1 rank a KiB), whose
# bytes MPI leaves undefined: stock ROMIO's data sieving fills them with 0xff
# (its sieve buffer's memset), OMPIO and a layer that writes around them leave
# zeros; only the written KiBs are compared there.  Every other kernel writes
# every byte: cmp.
same_data() {
    [ "$1" = strided ] || { cmp "$2" "$3"; return; }
    python3 - "$2" "$3" 2 <<'PY'
import sys
a, b = (open(p, "rb").read() for p in sys.argv[1:3])
used = int(sys.argv[3]) << 10
if len(a) != len(b):
    sys.exit(f"sizes differ: {len(a)} and {len(b)}")
for off in range(0, len(a), 16 << 10):
    if a[off:off + used] != b[off:off + used]:
        sys.exit(f"written bytes differ in the 16 KiB at {off}")
PY
}

# kernel WL CONFIG IO: the kernel's four phases, every read verified; the
# file compared with romio321's (romio321 and ompio run first)
kernel() {
    local wl=$1 cfg=$2 io=$3 f=$out/kernel.$1.$2.dat
    rm -f "$f"
    hintfile "$( [ "$cfg" = none ] || [ "$io" != romioxt ] || echo "$cfg")"
    ompi "$io" 2 "$out/noharm" "$wl" "$f" 2 > "$out/kernel.$wl.$cfg.out" || return 1
    [ "$(grep -c '^RESULT .* ok=1$' "$out/kernel.$wl.$cfg.out")" = 4 ] ||
        { echo "not 4 verified phases:"; cat "$out/kernel.$wl.$cfg.out"; return 1; }
    [ "$cfg" = romio321 ] && return 0
    same_data "$wl" "$out/kernel.$wl.romio321.dat" "$f" ||
        { echo "$cfg: file differs from romio321's"; return 1; }
    [ "$cfg" = ompio ] || same_data "$wl" "$out/kernel.$wl.ompio.dat" "$f" ||
        { echo "$cfg: file differs from OMPIO's"; return 1; }
}
# the quick tier: the collective-view kernel only
wls="contig interleaved strided collview"
[ "${XT_QUICK:-0}" = 1 ] && wls=collview
for wl in $wls; do
    run "kernel-$wl-romio321" kernel "$wl" romio321 romio321
    run "kernel-$wl-ompio" kernel "$wl" ompio ompio
    for cfg in none $EXT_NAMES all; do
        run "kernel-$wl-romioxt-$cfg" kernel "$wl" "$cfg" romioxt
    done
    rm -f "$out"/kernel.$wl.*.dat
done

info() {
    hints=
    rm -f info.dat
    ompi romioxt 2 "$out/t_info" "$out/info.dat"
}
run info info

# the site hints file from the job's first open on (ROMIO 3.2.1 merges only
# ROMIO_HINTS's lines itself): romio_xt auto in it, ROMIO_HINTS over it
site() {
    hints=$out/site.romio-hints
    printf 'romio_xt auto\nromio_xt_stats enable\nromio_prefetch enable\n' > "$out/site.hints"
    printf 'romio_prefetch disable\n' > "$hints"
    ROMIO_XT_SITE_HINTS=$out/site.hints ROMIO_XT_STATS_FILE=/dev/null ompi romioxt 2 \
        "$out/t_expect" "$out/site.a" romio_xt=auto romio_xt_stats=enable romio_prefetch=disable \
        romio_xt_auto_chose=romio_ds_read=adaptive,romio_ds_write=adaptive,romio_orthrus=enable \
        -- "$out/site.b" romio_xt=auto
}
run site-hints-first-open site

# sidebyside WHICH: both components loaded, WHICH has the top priority
sidebyside() {
    local which=$1 f=$out/side.$1.dat
    rm -f "$f"
    hints=
    ompi romio321,romioxt 2 --mca "io_${which}_priority" 40 --mca io_base_verbose 100 \
        "$out/noharm" collview "$f" 1 > "side.$which.out" 2>&1 || { tail side.$which.out; return 1; }
    grep -q "Selected io module $which\$" "side.$which.out" ||
        { echo "io module $which not selected:"; grep file_select "side.$which.out" | head; return 1; }
    [ "$(grep -c '^RESULT .* ok=1$' "side.$which.out")" = 4 ] || return 1
    [ "$which" = romio321 ] || cmp "$out/side.romio321.dat" "$f"
}
run sidebyside-romio321 sidebyside romio321
run sidebyside-romioxt sidebyside romioxt

# Fortran: t_fio (test/apps) prints layers=<romio_xt_layers> ... errors=0
if [ -x "$ompif90" ] && "$ompif90" -O1 -o "$out/t_fio" "$XT_SRCDIR/test/apps/t_fio.f90" > "$out/fio-build.log" 2>&1; then
    fio() {  # fio IO CONFIG LAYER
        local f=$out/fio.$2.dat
        rm -f "$f"
        hintfile "$( [ "$2" = none ] || [ "$1" != romioxt ] || echo "$2")"
        # stdout apart from stderr: the stats layer's JSON line (stderr) may
        # reach the job's output in pieces, around t_fio's own line
        ompi "$1" 2 "$out/t_fio" "$f" > "fio.$2.out" 2> "fio.$2.err" ||
            { cat "fio.$2.out" "fio.$2.err"; return 1; }
        grep -q "^layers=.*$3.* errors=0\$" "fio.$2.out" ||
            { echo "expected layers with '$3', errors=0:"; cat "fio.$2.out" "fio.$2.err"; return 1; }
        [ "$2" = romio321 ] || cmp "$out/fio.romio321.dat" "$f"
    }
    run fortran-romio321 fio romio321 romio321 none
    run fortran-romioxt-none fio romioxt none none
    for cfg in $EXT_NAMES all; do
        run "fortran-romioxt-$cfg" fio romioxt "$cfg" "${LAYER[$cfg]}"
    done
else
    echo "FAIL openmpi/fortran-build"; sed 's/^/    /' "$out/fio-build.log"; fails=$((fails + 1))
fi

if [ "${XT_QUICK:-0}" = 1 ]; then
    echo "SKIP openmpi/hdf5 and openmpi/upstream (quick tier: make check runs them)"
    xt_finish
fi

# HDF5 through Debian's libhdf5-openmpi
h5inc=/usr/include/hdf5/openmpi h5lib=/usr/lib/x86_64-linux-gnu/hdf5/openmpi
if [ ! -f "$h5inc/hdf5.h" ]; then
    echo "SKIP openmpi/hdf5 (no libhdf5-openmpi-dev: scripts/install-deps.sh)"
else
    xt_build "$ompicc" -O2 -Wall -I"$nh" -I"$h5inc" -o "$out/nh_hdf5" "$nh/nh_hdf5.c" \
        -L"$h5lib" -Wl,-rpath,"$h5lib" -lhdf5
    h5() {  # h5 IO CONFIG
        local f=$out/h5.$2.h5
        rm -f "$f"
        hintfile "$( [ "$2" = none ] || [ "$1" != romioxt ] || echo "$2")"
        ompi "$1" 2 "$out/nh_hdf5" "$f" 2 > "h5.$2.out" || return 1
        [ "$(grep -c '^RESULT .* ok=1$' "h5.$2.out")" = 4 ] || { cat "h5.$2.out"; return 1; }
        [ "$2" = romio321 ] || cmp "$out/h5.romio321.h5" "$f"
    }
    run hdf5-romio321 h5 romio321 romio321
    for cfg in none $EXT_NAMES all; do
        run "hdf5-romioxt-$cfg" h5 romioxt "$cfg"
    done
fi

# ROMIO 3.2.1's own tests, test/upstream's passes, through romioxt
romio321=$XT_BUILDDIR/_upstream/openmpi-4.1.4/ompi/mca/io/romio321/romio
if [ ! -d "$romio321/test" ]; then
    echo "FAIL openmpi/upstream (no ROMIO 3.2.1 tests in $romio321/test)"; fails=$((fails + 1))
else
    # some of them use what MPI-3.0 removed, which Debian's mpi.h rejects
    printf '#!/bin/sh\nexec %s -include %s "$@"\n' "$ompicc" "$src/mpi1compat.h" > "$out/mpicc-mpi1"
    chmod +x "$out/mpicc-mpi1"
    XT_UPSTREAM_TESTSRC=$romio321/test XT_UPSTREAM_LIST=$src/upstream-tests.list \
    XT_UPSTREAM_EXCLUDED=$src/upstream-excluded.md XT_UPSTREAM_MPICC=$out/mpicc-mpi1 \
    XT_UPSTREAM_MPIF77=/usr/bin/mpif77.openmpi \
    XT_UPSTREAM_MPIEXEC="$ompirun --mca io romioxt" \
    XT_UPSTREAM_MPI_H=/usr/lib/x86_64-linux-gnu/openmpi/include/mpi.h \
    XT_UPSTREAM_OUT=$out/upstream XT_UPSTREAM_NAME=openmpi/upstream \
    XT_UPSTREAM_PASSES=${XT_OPENMPI_PASSES:-} \
        bash "$XT_SRCDIR/test/upstream/run.sh" || fails=$((fails + 1))
fi
xt_finish

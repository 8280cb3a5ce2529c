#!/bin/sh
# make-wrappers.sh OUTDIR LIB [SANITIZE]
# Writes romio-xt's MPI wrappers into OUTDIR (installed as PREFIX/bin): the
# host MPI's own (Debian's MPICH: mpicc.mpich, mpif77.mpich, mpif90.mpich,
# mpifort.mpich, mpiexec.mpich), with LIB (PREFIX/lib/libromioxt.so) linked
# ahead of the MPI library, and mpiexec preloading LIB into the ranks, so
# that a program built elsewhere (Debian's compilers) runs on romio-xt too.
# SANITIZE (configure's --enable-xt-sanitize list): the compilers instrument
# the programs (the sanitizer-built library needs its runtime loaded first),
# and mpiexec preloads nothing (the launcher is not instrumented).
set -e
out=${1:?make-wrappers.sh OUTDIR LIB [SANITIZE]} lib=${2:?LIB} san=${3:-}
mkdir -p "$out"
sanflags=${san:+-fsanitize=$san -fno-omit-frame-pointer}
for w in mpicc mpif77 mpif90 mpifort; do
    cat > "$out/$w.tmp" <<WRAP
#!/bin/sh
# romio-xt: Debian's $w.mpich with $lib ahead of the MPI library (kept
# where the linker drops what the program names no symbol of: Fortran's
# calls reach it through libmpichfort)
for a; do case \$a in -c | -E | -S | -M | -MM | -show | -compile-info | -link-info | -v | --version)
    exec $w.mpich $sanflags "\$@" ;; esac; done
exec $w.mpich $sanflags "\$@" -Wl,--push-state,--no-as-needed "$lib" -Wl,--pop-state -Wl,-rpath,"$(dirname "$lib")"
WRAP
done
if [ -n "$san" ]; then
    cat > "$out/mpiexec.tmp" <<WRAP
#!/bin/sh
# romio-xt (sanitizer build): Debian's mpiexec.mpich; programs link $lib
exec mpiexec.mpich "\$@"
WRAP
else
    cat > "$out/mpiexec.tmp" <<WRAP
#!/bin/sh
# romio-xt: Debian's mpiexec.mpich with $lib preloaded into the ranks
LD_PRELOAD="$lib\${LD_PRELOAD:+:\$LD_PRELOAD}" exec mpiexec.mpich "\$@"
WRAP
fi
for w in mpicc mpif77 mpif90 mpifort mpiexec; do
    chmod +x "$out/$w.tmp"
    cmp -s "$out/$w.tmp" "$out/$w" 2> /dev/null && rm -f "$out/$w.tmp" || mv "$out/$w.tmp" "$out/$w"
done
ln -sf mpiexec "$out/mpirun"

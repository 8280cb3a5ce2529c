#!/usr/bin/env python3
"""No-harm grid: every workload x condition under stock ROMIO, each romio-xt
extension alone and all at once; writes noharm.csv (every run), noharm.md
(medians, spread, ratios, worst ratio per extension) and noharm.png (heatmap).

A cell = workload, ranks, emulated nodes (MPIR_CVAR_NUM_CLIQUES), op
(read/write), cond (cold/warm).  Each run of a kernel measures its four
phases (write cold = new file, read cold = evicted, read warm, write warm),
open..close, slowest rank; reads are verified by the kernel and the final
file is compared byte for byte with stock's.  Reps outermost, then cells,
configs innermost in an order rotated per rep and cell, so drift hits all
configs alike.  ratio = stock median seconds / config median seconds
(< 1: slower than stock); spread = (max - min) / median of a cell's runs.
"""
import argparse
import csv
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
E10_DIR = "/dev/shm/romio-xt-noharm-e10"
EXT = {
    "ds_adaptive": {"romio_ds_read": "adaptive", "romio_ds_write": "adaptive"},
    "orthrus": {"romio_orthrus": "enable"},
    "e10_cache": {"e10_cache": "enable", "e10_cache_path": E10_DIR},
    "prefetch": {"romio_prefetch": "enable"},
    "trace": {"romio_xt_trace": "enable", "romio_xt_trace_dir": "{work}/trace"},
    "stats": {"romio_xt_stats": "enable"},
}
# stock_again: stock ROMIO once more, the noise floor (an A/A comparison)
CONFIGS = [("stock", {})] + list(EXT.items()) + [
    ("all", {k: v for h in EXT.values() for k, v in h.items()}), ("stock_again", {})]
KERNELS = ("contig", "interleaved", "strided", "collview")
# Orthrus's seed patterns (benchmarks/orthrus/): collective write, then cold
# collective read, verified; argv after DIR
ORTH = {"matrix": ["65536", "4", "32"], "noncontig": ["16", "1048576", "32"]}
GRIDS = {
    # workloads, (ranks, nodes) pairs, reps, MiB per rank scale
    "default": (KERNELS + ("hdf5", "matrix", "noncontig", "coll_perf", "flash_io"),
                [(1, 1), (2, 1), (2, 2)], 3, 1),
    "big": (KERNELS + ("hdf5", "matrix", "noncontig", "coll_perf", "flash_io"),
            [(1, 1), (2, 1), (2, 2)], 5, 4),
}
# cells with more ranks than this run on the ch3:sock build (--sock-prefix)
SOCK_ABOVE = 2
SOCK_SHAPES = [(4, 1), (4, 2)]
DEFAULT_MIB = {"contig": 16, "interleaved": 4, "strided": 2, "collview": 16, "hdf5": 16}


def build(prefix, out):
    """noharm (our mpicc) and nh_hdf5 (Debian's mpicc.mpich + libhdf5-mpich)"""
    exes = {}
    exe = os.path.join(out, "noharm")
    subprocess.run([os.path.join(prefix, "bin", "mpicc"), "-O2", "-Wall", "-o", exe,
                    os.path.join(HERE, "noharm.c")], check=True)
    exes["kernel"] = exe
    orth = os.path.join(os.path.dirname(HERE), "orthrus")
    for wl in ORTH:
        exes[wl] = os.path.join(out, wl)
        subprocess.run([os.path.join(prefix, "bin", "mpicc"), "-O2", "-Wall", f"-I{orth}", "-o",
                        exes[wl], os.path.join(orth, wl + ".c")], check=True)
    h5 = os.path.join(out, "nh_hdf5")
    inc, lib = "/usr/include/hdf5/mpich", "/usr/lib/x86_64-linux-gnu/hdf5/mpich"
    if shutil.which("mpicc.mpich") and os.path.isdir(inc):
        r = subprocess.run(["mpicc.mpich", "-O2", "-Wall", f"-I{inc}", "-o", h5,
                            os.path.join(HERE, "nh_hdf5.c"), f"-L{lib}", "-lhdf5"])
        if r.returncode == 0:
            exes["hdf5"] = h5
    if "hdf5" not in exes:
        print("noharm: hdf5 skipped (needs mpicc.mpich and libhdf5-mpich-dev)", file=sys.stderr)
    return exes


def command(wl, exes, apps, work, scale):
    """argv and the output files to compare, or None when the client is missing"""
    if wl in KERNELS:
        f = os.path.join(work, "nh.dat")
        return [exes["kernel"], wl, f, str(DEFAULT_MIB[wl] * scale)], [f]
    if wl in ORTH:
        return [exes[wl], work] + ORTH[wl], [os.path.join(work, wl + ".dat")]
    if wl == "hdf5" and "hdf5" in exes:
        f = os.path.join(work, "nh.h5")
        return [exes["hdf5"], f, str(DEFAULT_MIB[wl] * scale)], [f]
    if wl == "coll_perf" and os.access(os.path.join(apps, "bin", "coll_perf"), os.X_OK):
        f = os.path.join(work, "cp.dat")
        return [os.path.join(apps, "bin", "coll_perf"), "-fname", f], [f]
    if wl == "flash_io" and os.access(os.path.join(apps, "bin", "flash_io_8"), os.X_OK):
        return [os.path.join(apps, "bin", "flash_io_8"), os.path.join(work, "f_")], []
    return None


def parse(wl, text):
    """RESULT lines of our kernels; coll_perf's and FLASH-IO's own output"""
    import re
    rows = []
    for line in text.splitlines():
        if line.startswith("RESULT "):
            kv = dict(p.split("=", 1) for p in line.split()[1:])
            if "phase" in kv and kv["phase"] in ("write", "read"):   # ORTH: verified by rc
                rows.append({"op": kv["phase"], "cond": "app" if kv["phase"] == "write"
                             else "cold", "seconds": float(kv["seconds"]), "ok": True})
            elif "op" in kv:
                rows.append({"op": kv["op"], "cond": kv["cond"],
                             "seconds": float(kv["seconds"]), "ok": kv.get("ok") == "1"})
    if wl == "coll_perf":
        for op in ("write", "read"):
            m = re.search(rf"Collective {op} time = ([\d.]+) sec", text)
            if m:
                rows.append({"op": op, "cond": "app", "seconds": float(m.group(1)), "ok": True})
    if wl == "flash_io":
        m = re.search(r"^\s*\d+\s+\d+ x\s+\d+ x\s+\d+\s+([\d.]+)\s+[\d.]+\s*$", text, re.M)
        if m:
            rows.append({"op": "write", "cond": "app", "seconds": float(m.group(1)), "ok": True})
    return rows


def digest(paths):
    h = hashlib.sha1()
    for p in paths:
        with open(p, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
    return h.hexdigest()


def run_one(args, exes, cell, cfg, rep, logs):
    wl, np_, nodes = cell
    name, hints = cfg
    work = args.work
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    os.makedirs(E10_DIR, exist_ok=True)
    cmd = command(wl, exes, args.apps, work, args.scale)
    if cmd is None:
        return None
    argv, files = cmd
    tag = f"{wl}-np{np_}-n{nodes}-{name}-r{rep}"
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("ROMIO_HINTS", "ROMIO_XT_", "MPIR_CVAR_NUM_CLIQUES"))}
    env["MPIR_CVAR_NUM_CLIQUES"] = str(nodes)
    env["ROMIO_XT_STATS_FILE"] = os.path.join(logs, tag + ".stats.jsonl")
    # more ranks than cores: ch3:sock (nemesis busy-polls ~10x slower there)
    prefix = args.sock_prefix if np_ > SOCK_ABOVE else args.prefix
    if name == "unpatched":
        prefix = args.unpatched_sock_prefix if np_ > SOCK_ABOVE else args.unpatched_prefix
        if not prefix or (wl == "flash_io" and not has_fortran(prefix)):
            return None         # no unpatched install for this device
    env["LD_LIBRARY_PATH"] = lib_path(prefix, args.out)
    if hints:
        hf = os.path.join(logs, tag + ".hints")
        with open(hf, "w") as f:
            for k, v in hints.items():
                f.write(f"{k} {v.format(work=work)}\n")
        env["ROMIO_HINTS"] = hf
        os.makedirs(os.path.join(work, "trace"), exist_ok=True)
    full = [os.path.join(prefix, "bin", "mpiexec"), "-n", str(np_)] + argv
    t0 = time.time()
    try:
        r = subprocess.run(full, env=env, cwd=work, capture_output=True, text=True,
                           timeout=args.timeout)
        out, err, rc = r.stdout, r.stderr, r.returncode
    except subprocess.TimeoutExpired as e:
        out, err, rc = (e.stdout or b"").decode(), "timeout", -1
    wall = time.time() - t0
    with open(os.path.join(logs, tag + ".log"), "w") as f:
        f.write(" ".join(full) + f"\nrc={rc} wall={wall:.2f}\n--- stdout\n{out}--- stderr\n{err}")
    rows = parse(wl, out + "\n" + (err or ""))    # coll_perf prints to stderr
    fdig = digest(files) if rc == 0 and files and all(map(os.path.exists, files)) else ""
    if rc != 0 or not rows:
        print(f"noharm: FAIL {tag} rc={rc}: {err.strip()[-300:]}", file=sys.stderr)
    for row in rows:
        row.update(wl=wl, ranks=np_, nodes=nodes, config=name, rep=rep, rc=rc, digest=fdig)
    return rows


def lib_path(prefix, out):
    """PREFIX/lib, and before it a directory with libmpich.so.12 -> libmpi.so.12
    when PREFIX lacks that name (a plain MPICH install; Debian's libhdf5-mpich
    asks for libmpich.so.12 and would otherwise load the system's MPICH)"""
    lib = os.path.join(prefix, "lib")
    if os.path.exists(os.path.join(lib, "libmpich.so.12")):
        return lib
    shim = os.path.join(out, "abi-" + hashlib.sha1(lib.encode()).hexdigest()[:8])
    os.makedirs(shim, exist_ok=True)
    link = os.path.join(shim, "libmpich.so.12")
    if not os.path.lexists(link):
        os.symlink(os.path.join(lib, "libmpi.so.12"), link)
    return shim + ":" + lib


def has_fortran(prefix):
    """FLASH-IO is Fortran: an install without libmpifort runs it against
    another install's Fortran layer and fails (MPI_MAX on MPI_DOUBLE_PRECISION)"""
    return os.path.exists(os.path.join(prefix, "lib", "libmpifort.so.12"))


def cells_of(wls, shapes):
    return [(w, n, k) for w in wls for (n, k) in shapes]


def run_grid(args, exes):
    wls, shapes, reps, _ = GRIDS[args.grid]
    if args.workloads:
        wls = args.workloads.split(",")
    reps = args.reps or reps
    only = set(args.only.split(",")) | {"stock"} if args.only else None
    configs = [c for c in CONFIGS if only is None or c[0] in only]
    if args.unpatched_prefix or args.unpatched_sock_prefix:
        configs.append(("unpatched", {}))
    logs = os.path.join(args.out, "logs")
    os.makedirs(logs, exist_ok=True)
    if args.sock_prefix:
        shapes = shapes + SOCK_SHAPES
    else:
        print("noharm: 4-rank cells skipped (no --sock-prefix / NOHARM_SOCK_PREFIX: "
              "an install of romio-xt built with --with-device=ch3:sock)", file=sys.stderr)
    if args.shapes:             # e.g. 4x2,2x1: ranks x emulated nodes
        want = {tuple(int(x) for x in w.split("x")) for w in args.shapes.split(",")}
        shapes = [sh for sh in shapes if sh in want]
    rows, cells = [], cells_of(wls, shapes)
    if "flash_io" in wls and args.sock_prefix and not has_fortran(args.sock_prefix):
        print(f"noharm: FLASH-IO's 4-rank cells skipped: {args.sock_prefix} has no Fortran "
              "bindings (lib/libmpifort.so.12); build it with --enable-fortran=all "
              "(benchmarks/noharm/run.sh)", file=sys.stderr)
        cells = [c for c in cells if not (c[0] == "flash_io" and c[1] > SOCK_ABOVE)]
    for up, big in ((args.unpatched_prefix, False), (args.unpatched_sock_prefix, True)):
        if "flash_io" in wls and up and not has_fortran(up):
            print(f"noharm: FLASH-IO's {'4-rank ' if big else ''}cells run without config "
                  f"unpatched: {up} has no Fortran bindings (lib/libmpifort.so.12)",
                  file=sys.stderr)
    total, done, t_start = reps * len(cells) * len(configs), 0, time.time()
    for rep in range(reps):
        for ci, cell in enumerate(cells):
            k = (rep + ci) % len(configs)
            for cfg in configs[k:] + configs[:k]:
                got = run_one(args, exes, cell, cfg, rep, logs)
                done += 1
                if got is None:
                    continue
                rows += got
            el = time.time() - t_start
            print(f"\rnoharm: {done}/{total} runs, {el:.0f} s", end="", file=sys.stderr)
    print(file=sys.stderr)
    shutil.rmtree(args.work, ignore_errors=True)
    return rows


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--prefix", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--work", required=True, help="scratch directory for the files (removed)")
    p.add_argument("--apps", default="", help="_build/apps with coll_perf, flash_io_8")
    p.add_argument("--grid", default=os.environ.get("NOHARM_GRID", "default"), choices=GRIDS)
    p.add_argument("--reps", type=int)
    p.add_argument("--only", help="configs, comma-separated (stock, the baseline, always runs)")
    p.add_argument("--workloads", help="workloads, comma-separated")
    p.add_argument("--shapes", help="cells of these shapes only, RANKSxNODES comma-separated "
                   "(e.g. 4x1,4x2)")
    p.add_argument("--timeout", type=int, default=180)
    p.add_argument("--sock-prefix", default=os.environ.get("NOHARM_SOCK_PREFIX", ""),
                   help="romio-xt install built with ch3:sock: adds the 4-rank cells")
    p.add_argument("--unpatched-prefix", default=os.environ.get("NOHARM_UNPATCHED_PREFIX", ""),
                   help="an unpatched MPICH 4.0.2 install (same flags): adds config "
                   "'unpatched' (no hints), to measure the no-hint overhead")
    p.add_argument("--unpatched-sock-prefix",
                   default=os.environ.get("NOHARM_UNPATCHED_SOCK_PREFIX", ""),
                   help="the same, built with ch3:sock: config 'unpatched' in the 4-rank cells")
    p.add_argument("--report-only", action="store_true", help="re-summarise OUT/noharm.csv")
    args = p.parse_args()
    args.scale = GRIDS[args.grid][3]
    if args.sock_prefix and not os.access(os.path.join(args.sock_prefix, "bin", "mpiexec"), os.X_OK):
        print(f"noharm: --sock-prefix {args.sock_prefix}: no bin/mpiexec there; "
              "4-rank cells skipped", file=sys.stderr)
        args.sock_prefix = ""
    for attr, where in (("unpatched_prefix", ""), ("unpatched_sock_prefix", " in the 4-rank cells")):
        up = getattr(args, attr)
        if up and not os.access(os.path.join(up, "lib", "libmpi.so.12"), os.R_OK):
            print(f"noharm: --{attr.replace('_', '-')} {up}: no lib/libmpi.so.12 there; "
                  f"config unpatched skipped{where}", file=sys.stderr)
            setattr(args, attr, "")
    os.makedirs(args.out, exist_ok=True)
    csv_path = os.path.join(args.out, "noharm.csv")
    if not args.report_only:
        sys.path.insert(0, os.path.dirname(HERE))
        import xt_vm
        with open(os.path.join(args.out, "page_reporting.txt"), "w") as f:
            f.write(xt_vm.page_reporting("noharm") + "\n")
        t0 = time.time()
        rows = run_grid(args, build(args.prefix, args.out))
        with open(csv_path, "w", newline="") as f:
            keys = ["wl", "ranks", "nodes", "op", "cond", "config", "rep", "seconds", "ok",
                    "rc", "digest"]
            w = csv.DictWriter(f, fieldnames=keys, extrasaction="ignore")
            w.writeheader()
            w.writerows(rows)
        print(f"noharm: {len(rows)} measurements in {time.time() - t0:.0f} s", file=sys.stderr)
    import report
    sys.exit(report.main(csv_path, args.out))


if __name__ == "__main__":
    sys.path.insert(0, HERE)
    main()

#!/usr/bin/env python3
"""No-harm grid: every workload x condition under stock ROMIO, each romio-xt
extension alone and all at once; writes noharm.csv (every run), noharm.md
(medians, spread, ratios, worst ratio per extension), noharm-summary.csv (one
row per cell and config) and noharm.png (heatmap); exits 1 if a run failed, a
read did not verify or a final file differs from stock's.
    run.py --prefix P --out DIR --work DIR [options]   (benchmarks/noharm/run.sh)
    run.py --out DIR --report-only                     (re-summarise DIR/noharm.csv)
    run.py --compare BEFORE/noharm.csv AFTER/noharm.csv

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
import hashlib
import os
import re
import shutil
import sys
import time
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import xtbench  # noqa: E402

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
# auto: one switch (docs/auto.md), with the node-local path E10 needs
CONFIGS = [("stock", {})] + list(EXT.items()) + [
    ("all", {k: v for h in EXT.values() for k, v in h.items()}),
    ("auto", {"romio_xt": "auto", "e10_cache_path": E10_DIR}), ("stock_again", {})]
KERNELS = ("contig", "interleaved", "strided", "collview")
# Orthrus's patterns from the paper (benchmarks/orthrus/): collective write, then cold
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
    exes = {"kernel": xtbench.mpicc(prefix, os.path.join(HERE, "noharm.c"),
                                    os.path.join(out, "noharm"), ["-O2", "-Wall"])}
    orth = os.path.join(os.path.dirname(HERE), "orthrus")
    for wl in ORTH:
        exes[wl] = xtbench.mpicc(prefix, os.path.join(orth, wl + ".c"), os.path.join(out, wl),
                                 ["-O2", "-Wall", f"-I{orth}"])
    h5 = os.path.join(out, "nh_hdf5")
    inc, lib = "/usr/include/hdf5/mpich", "/usr/lib/x86_64-linux-gnu/hdf5/mpich"
    if shutil.which("mpicc.mpich") and os.path.isdir(inc):
        try:
            exes["hdf5"] = xtbench.mpicc(prefix, os.path.join(HERE, "nh_hdf5.c"), h5,
                                         ["-O2", "-Wall", f"-I{inc}"], [f"-L{lib}", "-lhdf5"],
                                         compiler="mpicc.mpich")
        except SystemExit as e:
            print(f"noharm: {e}", file=sys.stderr)
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
    rows = []
    for kv in xtbench.parse_results(text):
        if kv.get("phase") in ("write", "read"):        # ORTH: verified by the exit status
            rows.append({"op": kv["phase"], "cond": "app" if kv["phase"] == "write"
                         else "cold", "seconds": float(kv["seconds"]), "ok": True})
        elif "op" in kv:
            rows.append({"op": kv["op"], "cond": kv["cond"],
                         "seconds": float(kv["seconds"]), "ok": str(kv.get("ok")) == "1"})
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
    # more ranks than cores: ch3:sock (nemesis busy-polls ~10x slower there)
    prefix = args.sock_prefix if np_ > SOCK_ABOVE else args.prefix
    if name == "unpatched":
        prefix = args.unpatched_sock_prefix if np_ > SOCK_ABOVE else args.unpatched_prefix
        if not prefix or (wl == "flash_io" and not has_fortran(prefix)):
            return None         # no unpatched install for this device
    env = xtbench.clean_env(drop=(), drop_prefixes=("ROMIO_HINTS", "ROMIO_XT_",
                                                    "MPIR_CVAR_NUM_CLIQUES"),
                            extra={"MPIR_CVAR_NUM_CLIQUES": str(nodes),
                                   "ROMIO_XT_STATS_FILE": os.path.join(logs, tag + ".stats.jsonl"),
                                   "LD_LIBRARY_PATH": lib_path(prefix, args.out)})
    if hints:
        os.makedirs(os.path.join(work, "trace"), exist_ok=True)
    full = [os.path.join(prefix, "bin", "mpiexec"), "-n", str(np_)] + argv
    out, err, problem = xtbench.run_hinted(full, hints, env, logs, tag, args.timeout, cwd=work,
                                           ctx={"work": work})
    rc = 0 if not problem else int(problem.split()[-1]) if problem.startswith("exit") else -1
    rows = parse(wl, out + "\n" + (err or ""))    # coll_perf prints to stderr
    fdig = digest(files) if rc == 0 and files and all(map(os.path.exists, files)) else ""
    if rc != 0 or not rows:
        print(f"noharm: FAIL {tag} rc={rc} ({problem or 'no timing'}): {err.strip()[-300:]}",
              file=sys.stderr)
    for row in rows:
        row.update(wl=wl, ranks=np_, nodes=nodes, config=name, rep=rep, rc=rc, digest=fdig)
    return rows


def lib_path(prefix, out):
    """PREFIX/lib, and before it a directory with libmpich.so.12 -> libmpi.so.12
    when PREFIX lacks that name (a plain MPICH install; Debian's libhdf5-mpich
    asks for libmpich.so.12 and would otherwise load the system's MPICH)"""
    lib = os.path.join(prefix, "lib")
    if os.path.exists(os.path.join(lib, "libmpich.so.12")) or \
            not os.path.exists(os.path.join(lib, "libmpi.so.12")):
        return lib              # (the library's install: Debian's MPICH, bin/ wraps it)
    shim = os.path.join(out, "abi-" + hashlib.sha1(lib.encode()).hexdigest()[:8])
    os.makedirs(shim, exist_ok=True)
    link = os.path.join(shim, "libmpich.so.12")
    if not os.path.lexists(link):
        os.symlink(os.path.join(lib, "libmpi.so.12"), link)
    return shim + ":" + lib


def has_fortran(prefix):
    """FLASH-IO is Fortran: an install without libmpifort runs it against
    another install's Fortran layer and fails (MPI_MAX on MPI_DOUBLE_PRECISION)"""
    return any(os.path.exists(os.path.join(prefix, *f))
               for f in (("lib", "libmpifort.so.12"), ("lib", "libromioxt.so")))


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
            for cfg in xtbench.config_order(configs, rep, ci, "rotate"):
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


# ---- report: noharm-summary.csv, noharm.md, noharm.png ----------------------

ORDER = ["stock", "ds_adaptive", "orthrus", "e10_cache", "prefetch", "trace", "stats", "all",
         "auto", "stock_again", "unpatched"]
# the extensions that speed something up: auto is compared with the best of them
SPEED = ("ds_adaptive", "orthrus", "e10_cache", "prefetch")
# holes no process writes: stock's data sieving fills them with its buffer's
# old contents (0xff here), adaptive sieving leaves zeros; reads verify the data
NO_DIGEST = {"strided"}
HARM = 0.9


def cell_key(r):
    return (r["wl"], int(r["ranks"]), int(r["nodes"]), r["op"], r["cond"])


def label(c):
    return f"{c[0]} {c[1]}r/{c[2]}n {c[3]} {c[4]}"


def summarize(rows):
    """{cell: {config: (median, min, max, n)}}"""
    acc = defaultdict(lambda: defaultdict(list))
    for r in rows:
        if r["rc"] == "0" and r["ok"] == "True":
            acc[cell_key(r)][r["config"]].append(float(r["seconds"]))
    return {c: {k: (xtbench.median(v), *xtbench.spread(v), len(v)) for k, v in d.items()}
            for c, d in acc.items()}


def problems(rows):
    """failed runs, failed verifications, final files that differ from stock's"""
    bad = [f"{label(cell_key(r))} {r['config']} rep {r['rep']}: rc={r['rc']} ok={r['ok']}"
           for r in rows if r["rc"] != "0" or r["ok"] != "True"]
    stock = defaultdict(set)
    for r in rows:
        if r["config"] == "stock" and r["digest"] and r["wl"] not in NO_DIGEST:
            stock[(r["wl"], r["ranks"], r["nodes"])].add(r["digest"])
    seen = set()
    for r in rows:
        k = (r["wl"], r["ranks"], r["nodes"])
        ref = stock.get(k)
        if r["digest"] and ref and len(ref) == 1 and r["digest"] not in ref \
                and (k, r["config"], r["rep"]) not in seen:
            seen.add((k, r["config"], r["rep"]))
            bad.append(f"{k[0]} {k[1]}r/{k[2]}n {r['config']} rep {r['rep']}: "
                       "file differs from stock's")
    return bad


def ratios(summary, configs):
    """{(cell, config): (ratio, spread, clear)}; clear = the config's fastest run
    is slower than stock's slowest (the ranges do not overlap)"""
    out = {}
    for c, d in summary.items():
        if "stock" not in d:
            continue
        s = d["stock"]
        for k in configs:
            if k in d:
                m = d[k]
                out[(c, k)] = (s[0] / m[0], (m[2] - m[1]) / m[0], m[1] > s[2])
    return out


def markdown(summary, rat, configs, bad, nruns):
    cells = sorted(summary)
    worst = []
    for k in configs:
        vals = [(v[0], c, v[2]) for (c, kk), v in rat.items() if kk == k]
        if not vals:
            continue
        w = min(vals)
        below = [v for v in vals if v[0] < HARM]
        worst.append([k, f"{w[0]:.2f}", label(w[1]), f"{len(below)} of {len(vals)}",
                      sum(1 for v in below if v[2]),
                      f"{xtbench.geomean(v[0] for v in vals):.2f}"])
    every = []
    for c in cells:
        d = summary[c]
        if "stock" not in d:
            continue
        s = d["stock"]
        cols = []
        for k in configs:
            v = rat.get((c, k))
            mark = "**" if v and v[0] < HARM else ""
            cols.append("" if v is None else f"{mark}{v[0]:.2f}{mark}"
                        f"{'!' if v[0] < HARM and v[2] else ''} ({v[1] * 100:.0f}%)")
        every.append([label(c), f"{s[0]:.3f} ({(s[2] - s[1]) / s[0] * 100:.0f}%)"] + cols)
    L = ["# No-harm grid\n",
         f"{len(cells)} cells, {nruns} measurements. ratio = stock median time / config "
         f"median time (< 1: slower than stock); spread = (max - min) / median of the "
         f"config's runs in that cell; `!` = below {HARM} and the ranges do not overlap "
         f"(the config's fastest run is slower than stock's slowest).\n",
         "## Worst ratio per extension\n",
         xtbench.md_table(["config", "worst ratio", "cell", f"cells < {HARM}", "of which clear",
                           "geo. mean"], worst).rstrip()]
    L += overhead(rat)
    L += auto_section(summary, rat)
    L += ["", "## Every cell\n", "stock: median seconds (spread); configs: ratio (spread)\n",
          xtbench.md_table(["cell", "stock"] + configs, every).rstrip()]
    L += ["", "## Correctness\n"]
    L += [f"- {b}" for b in bad] or ["Every run verified its reads; every final file equals "
                                     "stock's (byte for byte) for the same workload, ranks and "
                                     "nodes (strided: reads verified only; the holes no process "
                                     "writes hold stock data sieving's stale buffer bytes)."]
    return "\n".join(L) + "\n"


def auto_section(summary, rat):
    """auto against stock (target >= 0.95) and against the fastest single
    extension of the cell (target >= 0.9)"""
    rows, below = [], []
    for c in sorted(summary):
        d = summary[c]
        single = [(d[k][0], k) for k in SPEED if k in d]
        if "auto" not in d or (c, "auto") not in rat or not single:
            continue
        best = min(single)
        vs_best = best[0] / d["auto"][0]
        rows.append(vs_best)
        if vs_best < HARM or rat[(c, "auto")][0] < 0.95:
            below.append([label(c), f"{rat[(c, 'auto')][0]:.2f}", best[1],
                          f"{vs_best:.2f}"])
    if not rows:
        return []
    vs_stock = [v[0] for (c, k), v in rat.items() if k == "auto"]
    L = ["", "## auto against stock and the best single extension\n",
         f"{len(rows)} cells. auto / stock: geometric mean {xtbench.geomean(vs_stock):.2f}, "
         f"{sum(1 for v in vs_stock if v < 0.95)} cells below 0.95. auto / the fastest of "
         f"{', '.join(SPEED)} alone in the cell: geometric mean {xtbench.geomean(rows):.2f}, "
         f"{sum(1 for v in rows if v < HARM)} cells below {HARM}, worst {min(rows):.2f}."]
    # the noise floor of that comparison: stock run again (which changes
    # nothing) against the same fastest single extension
    aa = [min(summary[c][k][0] for k in SPEED if k in summary[c]) / summary[c]["stock_again"][0]
          for c in summary if "stock_again" in summary[c] and any(k in summary[c] for k in SPEED)]
    aa_stock = [v[0] for (c, k), v in rat.items() if k == "stock_again"]
    if aa:
        L.append(f"The same comparisons for `stock_again` (stock run again, which turns nothing "
                 f"on: the noise floor of a best-of-four comparison): against stock "
                 f"{sum(1 for v in aa_stock if v < 0.95)} cells below 0.95; against the "
                 f"fastest single extension geometric mean {xtbench.geomean(aa):.2f}, "
                 f"{sum(1 for v in aa if v < HARM)} cells below {HARM}, worst {min(aa):.2f}.")
    L.append("")
    if below:
        L += ["Cells below a target:\n",
              xtbench.md_table(["cell", "auto / stock", "fastest single", "auto / it"],
                               below).rstrip()]
    return L


def geo_ci(vals):
    """geometric mean and its 95% bootstrap interval over cells"""
    return (xtbench.geomean(vals), *xtbench.bootstrap_ci(vals, stat=xtbench.geomean))


def overhead(rat):
    """no-hint overhead: romio-xt's stock column against an unpatched MPICH"""
    un = [v[0] for (c, k), v in rat.items() if k == "unpatched"]
    if not un:
        return []
    aa = [v[0] for (c, k), v in rat.items() if k == "stock_again"]
    g, lo, hi = geo_ci(un)
    L = ["", "## No hint: romio-xt against unpatched MPICH 4.0.2\n",
         f"Column `unpatched` = the same kernels, no hints, on an unpatched MPICH 4.0.2 "
         f"(ratio < 1: romio-xt's stock slower than unpatched). Geometric mean over "
         f"{len(un)} cells: **{g:.3f}** (95% bootstrap interval {lo:.3f} .. {hi:.3f})."]
    if aa:
        g2, lo2, hi2 = geo_ci(aa)
        L.append(f"Stock against itself (`stock_again`, the A/A noise floor): {g2:.3f} "
                 f"({lo2:.3f} .. {hi2:.3f}).")
    return L


def plot_heatmap(summary, rat, configs, path):
    plt = xtbench.pyplot("noharm")
    if plt is None:
        return
    from matplotlib.colors import TwoSlopeNorm
    cells = [c for c in sorted(summary) if "stock" in summary[c]]
    grid = [[rat.get((c, k), (float("nan"),))[0] for k in configs] for c in cells]
    fig, ax = plt.subplots(figsize=(1.1 * len(configs) + 3, 0.24 * len(cells) + 1.5))
    im = xtbench.heatmap(ax, grid, configs, [label(c) for c in cells], fontsize=6,
                         bold=lambda v: v < HARM, cmap="RdBu",
                         norm=TwoSlopeNorm(vcenter=1.0, vmin=0.4, vmax=1.6))
    ax.set_xticklabels(configs, rotation=30, ha="right")
    ax.set_yticklabels([label(c) for c in cells], fontsize=6)
    ax.set_title("no-harm grid: stock time / config time (medians; < 1 slower than stock)",
                 fontsize=9)
    fig.colorbar(im, ax=ax, fraction=0.04)
    fig.tight_layout()
    xtbench.save(fig, path)


def report(csv_path, out):
    """noharm-summary.csv, noharm.md, noharm.png from noharm.csv; 1 if a run
    failed, a read did not verify or a final file differs from stock's"""
    rows = xtbench.read_csv(csv_path)
    summary = summarize(rows)
    configs = [k for k in ORDER[1:] if any(r["config"] == k for r in rows)]
    rat = ratios(summary, configs)
    bad = problems(rows)
    table = []
    for c in sorted(summary):
        for k, m in summary[c].items():
            r = rat.get((c, k))
            table.append(dict(zip(("wl", "ranks", "nodes", "op", "cond"), c), config=k,
                              median_s=f"{m[0]:.6f}", min_s=f"{m[1]:.6f}", max_s=f"{m[2]:.6f}",
                              n=m[3], ratio=f"{r[0]:.3f}" if r else "",
                              spread=f"{r[1]:.3f}" if r else ""))
    xtbench.write_csv(table, os.path.join(out, "noharm-summary.csv"),
                      ["wl", "ranks", "nodes", "op", "cond", "config", "median_s", "min_s",
                       "max_s", "n", "ratio", "spread"])
    md = markdown(summary, rat, configs, bad, len(rows))
    with open(os.path.join(out, "noharm.md"), "w") as f:
        f.write(md)
    plot_heatmap(summary, rat, configs, os.path.join(out, "noharm.png"))
    print(md.split("## Every cell")[0])
    for b in bad:
        print("noharm: " + b, file=sys.stderr)
    return 1 if bad else 0


def per_config(csv_path):
    """{config: (worst, cells < HARM, clear ones, cells, geometric mean)}"""
    rows = xtbench.read_csv(csv_path)
    configs = [k for k in ORDER[1:] if any(r["config"] == k for r in rows)]
    rat = ratios(summarize(rows), configs)
    out = {}
    for k in configs:
        v = [x for (c, kk), x in rat.items() if kk == k]
        out[k] = (min(x[0] for x in v), sum(x[0] < HARM for x in v),
                  sum(x[0] < HARM and x[2] for x in v), len(v), xtbench.geomean(x[0] for x in v))
    return out


def compare(before, after):
    b, a = per_config(before), per_config(after)
    fmt = lambda t: f"{t[0]:.2f} / {t[1]} of {t[3]} ({t[2]}) / {t[4]:.2f}" if t else "-"
    print(xtbench.md_table(
        ["config", f"before: worst / cells < {HARM} (clear) / geo. mean",
         f"after: worst / cells < {HARM} (clear) / geo. mean"],
        [[k, fmt(b.get(k)), fmt(a.get(k))] for k in ORDER[1:] if k in b or k in a]), end="")
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--prefix")
    p.add_argument("--out")
    p.add_argument("--work", help="scratch directory for the files (removed)")
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
    p.add_argument("--compare", nargs=2, metavar=("BEFORE_CSV", "AFTER_CSV"),
                   help="per-config worst ratio, cells below 0.9 and geometric mean of two "
                   "grids' noharm.csv side by side (markdown on stdout)")
    args = p.parse_args()
    if args.compare:
        sys.exit(compare(*args.compare))
    need = ["--out"] + ([] if args.report_only else ["--prefix", "--work"])
    missing = [o for o in need if not getattr(args, o[2:])]
    if missing:
        p.error("the following arguments are required: " + ", ".join(missing))
    args.scale = GRIDS[args.grid][3]
    # the kernels run from the output directory's copies: absolute paths
    for attr in ("out", "work", "prefix", "apps"):
        if getattr(args, attr):
            setattr(args, attr, os.path.abspath(getattr(args, attr)))
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
        with open(os.path.join(args.out, "page_reporting.txt"), "w") as f:
            f.write(xtbench.page_reporting("noharm") + "\n")
        t0 = time.time()
        rows = run_grid(args, build(args.prefix, args.out))
        xtbench.write_csv(rows, csv_path, ["wl", "ranks", "nodes", "op", "cond", "config", "rep",
                                           "seconds", "ok", "rc", "digest"])
        print(f"noharm: {len(rows)} measurements in {time.time() - t0:.0f} s", file=sys.stderr)
    sys.exit(report(csv_path, args.out))



if __name__ == "__main__":
    main()

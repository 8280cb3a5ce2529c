#!/usr/bin/env python3
"""The comparison an Open MPI user makes: Debian 12's Open MPI 4.1.4 with its
own OMPIO, its stock ROMIO component (romio321) and romio-xt's component
(romioxt) with no hint, each extension's hints and all at once, on ROMIO's
coll_perf (256^3 ints, 64 MiB) and the no-harm kernels
(benchmarks/noharm/noharm.c: contig, interleaved, strided, collview; four
phases each, reads verified), all built with mpicc.openmpi, 2 ranks.

Reps outermost, then workloads, configs innermost in an order rotated per
rep and workload, so drift hits every config alike.  Writes openmpi.csv
(every run), openmpi.md (per cell: median MB/s per config, spread, romioxt
vs romio321, best romioxt config vs OMPIO) and openmpi.png.

  run.py --prefix PREFIX --upstream MPICH_TREE --out DIR [--reps 3]
  run.py --prefix PREFIX --upstream MPICH_TREE --out DIR --report openmpi.csv
Use a python3 with matplotlib (/usr/bin/python3 on Debian) for the plot.  Needs PREFIX/lib/openmpi/mca_io_romioxt.so (make install with Open MPI).
"""
import argparse
import csv
import os
import re
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
MPICC, MPIRUN = "/usr/bin/mpicc.openmpi", "/usr/bin/mpirun.openmpi"
DEB_COMPONENTS = "/usr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3"
sys.path.insert(0, os.path.join(TOP, "benchmarks", "noharm"))
from run import E10_DIR, EXT  # noqa: E402  (the no-harm grid's hint sets)
# name, io component, hints
CONFIGS = [("ompio", "ompio", {}), ("romio321", "romio321", {}), ("romioxt", "romioxt", {})] + \
    [("romioxt+" + e, "romioxt", h) for e, h in EXT.items()] + \
    [("romioxt+all", "romioxt", {k: v for h in EXT.values() for k, v in h.items()})]
KERNELS = {"contig": 16, "interleaved": 4, "strided": 2, "collview": 16}   # MiB per rank
COLL = re.compile(r"Collective (write|read) time = ([0-9.]+) sec, Collective \w+ bandwidth = "
                  r"([0-9.]+) Mbytes/sec")


def build(args, bindir):
    os.makedirs(bindir, exist_ok=True)
    subprocess.run([os.path.join(TOP, "scripts", "coll-perf.sh"),
                    os.path.join(args.upstream, "src/mpi/romio/test/coll_perf.c"),
                    os.path.dirname(bindir), MPICC], check=True)
    nh = os.path.join(TOP, "benchmarks", "noharm")
    subprocess.run([MPICC, "-O2", "-Wall", "-I" + nh, "-o", os.path.join(bindir, "noharm"),
                    os.path.join(nh, "noharm.c")], check=True)


def env_for(args, io, hints, work, tag):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("ROMIO_") and not k.startswith("OMPI_MCA_")}
    env.update(OMPI_MCA_mca_base_component_path=DEB_COMPONENTS + ":" +
               os.path.join(args.prefix, "lib", "openmpi"),
               OMPI_MCA_io=io, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_rmaps_base_oversubscribe="1")
    if hints:
        path = os.path.join(work, tag + ".hints")
        with open(path, "w") as f:
            for k, v in hints.items():
                f.write(f"{k} {v.format(work=work)}\n")
        env["ROMIO_HINTS"] = path
    return env


def parse(wl, tag, stdout, stderr):
    """One run's cells: coll_perf's two phases, or the kernel's RESULT lines."""
    rows = []
    if wl == "coll_perf":
        for op, secs, mbps in COLL.findall(stderr + stdout):
            rows.append({"cell": f"coll_perf {op}", "seconds": float(secs), "MBps": float(mbps)})
        if len(rows) != 2:
            raise SystemExit(f"bench: {tag}: no coll_perf times")
        return rows
    for line in stdout.splitlines():
        if line.startswith("RESULT "):
            kv = dict(x.split("=", 1) for x in line.split()[1:])
            if kv["ok"] != "1":
                raise SystemExit(f"bench: {tag}: a read did not verify")
            secs = float(kv["seconds"])
            rows.append({"cell": f"{wl} {kv['op']} {kv['cond']}", "seconds": secs,
                         "MBps": int(kv["bytes"]) / secs / 1e6})
    return rows


def run_one(args, bindir, work, wl, cfg, rep):
    name, io, hints = cfg
    tag = f"{wl}.{name}.{rep}"
    os.makedirs(os.path.join(work, "trace"), exist_ok=True)
    os.makedirs(E10_DIR, exist_ok=True)
    path = os.path.join(work, "f." + wl)
    if os.path.exists(path):
        os.unlink(path)
    if wl == "coll_perf":
        cmd = [os.path.join(bindir, "coll_perf"), "-fname", path]
    else:
        cmd = [os.path.join(bindir, "noharm"), wl, path, str(KERNELS[wl])]
    p = subprocess.run([MPIRUN, "-n", str(args.ranks), *cmd], env=env_for(args, io, hints, work, tag),
                       capture_output=True, text=True, timeout=600)
    with open(os.path.join(work, tag + ".out"), "w") as f:
        f.write(p.stdout + p.stderr)
    if p.returncode != 0:
        raise SystemExit(f"openmpi bench: {tag} failed ({p.returncode}):\n{p.stderr[-2000:]}")
    rows = parse(wl, tag, p.stdout, p.stderr)
    for r in rows:
        r.update(config=name, rep=rep)
    return rows


def summarize(rows, out):
    cells = list(dict.fromkeys(r["cell"] for r in rows))
    names = [c[0] for c in CONFIGS]
    med, spread = {}, {}
    for cell in cells:
        for n in names:
            v = [r["MBps"] for r in rows if r["cell"] == cell and r["config"] == n]
            if v:
                m = statistics.median(v)
                med[cell, n], spread[cell, n] = m, (max(v) - min(v)) / m
    xt = [n for n in names if n.startswith("romioxt")]
    lines = ["| cell | OMPIO | romio321 | romioxt | romioxt / romio321 | best romioxt config | "
             "its MB/s | best / OMPIO |", "|---|---|---|---|---|---|---|---|"]
    summary = []
    for cell in cells:
        best = max(xt, key=lambda n: med.get((cell, n), 0))
        o, r3, x, b = (med[cell, "ompio"], med[cell, "romio321"], med[cell, "romioxt"],
                       med[cell, best])
        summary.append((cell, o, r3, x, best, b))
        lines.append(f"| {cell} | {o:.0f} ±{spread[cell, 'ompio']:.0%} | "
                     f"{r3:.0f} ±{spread[cell, 'romio321']:.0%} | "
                     f"{x:.0f} ±{spread[cell, 'romioxt']:.0%} | {x / r3:.2f} | {best} | "
                     f"{b:.0f} | {b / o:.2f} |")
    lines += ["", "Every config's median MB/s (spread = (max - min) / median):", "",
              "| cell | " + " | ".join(names) + " |", "|---|" + "---|" * len(names)]
    for cell in cells:
        lines.append(f"| {cell} | " + " | ".join(
            f"{med[cell, n]:.0f} ±{spread[cell, n]:.0%}" for n in names) + " |")
    with open(os.path.join(out, "openmpi.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    show = ["ompio", "romio321", "romioxt", "best romioxt"]
    bar_plot(os.path.join(out, "openmpi.png"), [c[0] for c in summary],
             [(n, [(c[1], c[2], c[3], c[5])[i] / c[2] for c in summary]) for i, n in enumerate(show)],
             "MB/s relative to romio321 (median)",
             "Open MPI 4.1.4, 2 ranks: OMPIO, romio321, romioxt (no hint, best config)")


def bar_plot(path, labels, series, ylabel, title):
    """Grouped bars, one group per label, one bar per (name, values) series."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    fig, ax = plt.subplots(figsize=(12, 4.5))
    width = 0.8 / len(series)
    for i, (name, vals) in enumerate(series):
        ax.bar([k + (i - (len(series) - 1) / 2) * width for k in range(len(labels))], vals, width,
               label=name)
    ax.axhline(1.0, color="grey", lw=0.8)
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels(labels, rotation=40, ha="right", fontsize=8)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=90)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--prefix", required=True)
    p.add_argument("--upstream", required=True, help="the MPICH 4.0.2 tree (coll_perf.c)")
    p.add_argument("--out", required=True)
    p.add_argument("--work", default=None, help="the workloads' files (default OUT/work)")
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--ranks", type=int, default=2)
    p.add_argument("--workloads", default="coll_perf," + ",".join(KERNELS))
    p.add_argument("--report", metavar="CSV", help="only the table and plot from an earlier run's CSV")
    args = p.parse_args()
    if args.report:
        with open(args.report) as f:
            rows = [dict(r, MBps=float(r["MBps"])) for r in csv.DictReader(f)]
        os.makedirs(args.out, exist_ok=True)
        summarize(rows, args.out)
        return
    if not os.path.exists(os.path.join(args.prefix, "lib/openmpi/mca_io_romioxt.so")):
        sys.exit("openmpi bench: no PREFIX/lib/openmpi/mca_io_romioxt.so")
    os.makedirs(args.out, exist_ok=True)
    work = args.work or os.path.join(args.out, "work")
    os.makedirs(work, exist_ok=True)
    bindir = os.path.join(args.out, "build", "bin")
    build(args, bindir)
    wls = args.workloads.split(",")
    rows = []
    for rep in range(args.reps):
        for w, wl in enumerate(wls):
            k = (rep + w) % len(CONFIGS)
            for cfg in CONFIGS[k:] + CONFIGS[:k]:
                rows += run_one(args, bindir, work, wl, cfg, rep)
        print(f"openmpi bench: rep {rep + 1}/{args.reps} done", file=sys.stderr)
    with open(os.path.join(args.out, "openmpi.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=["cell", "config", "rep", "seconds", "MBps"])
        w.writeheader()
        w.writerows(rows)
    summarize(rows, args.out)


if __name__ == "__main__":
    main()

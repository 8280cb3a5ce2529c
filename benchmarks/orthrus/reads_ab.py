#!/usr/bin/env python3
"""Orthrus on cold reads, many reps: stock, stock again (the A/A control: how
far two identical configs drift apart here), core_first and disk_first
forced, enable (enable_noio: without the I/O-bound wait), and optionally
enable on another library (--old-lib: a directory holding an earlier
libmpi.so.12, used through LD_LIBRARY_PATH).
Every rep runs each workload's configs in a fresh random order.  Each run
writes its file, then reads it cold (matrix.c / noncontig.c).

usage: /usr/bin/python3 reads_ab.py --prefix PREFIX --out DIR [--work DIR] [--reps N]
                   [--old-lib DIR] [--configs stock,core_first,core_first_old,...]
                   [WORKLOAD...]
workloads: mx4k mx64k (Matrix, 120 calls), mx256k mx1m (Matrix 256 KiB, 1 MiB: 60 calls),
           nc16k nc1k (Noncontig, 100 calls of 4 MiB); default all.
Output: DIR/reads-ab.csv (one row per run and phase), DIR/reads-ab.md
(per workload and phase: stock's median and quartiles in ms, each config's
median speedup over stock with the quartiles' speedups, the geometric mean
and the runs below 0.8x), DIR/reads-ab.png (read speedups per run)."""
import argparse
import csv
import os
import random
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
WORKLOADS = {
    "mx4k": ("matrix", ["4096", "4", "120", "12"]),
    "mx64k": ("matrix", ["65536", "4", "120", "12"]),
    "mx256k": ("matrix", ["262144", "4", "60"]),
    "mx1m": ("matrix", ["1048576", "4", "60"]),
    "nc16k": ("noncontig", ["16384", "4194304", "100"]),
    "nc1k": ("noncontig", ["1024", "4194304", "100"]),
}
CONFIGS = {
    "stock": "",
    "stock2": "",
    "core_first": "romio_orthrus_force core_first\n",
    "disk_first": "romio_orthrus_force disk_first\n",
    "enable": "romio_orthrus enable\n",
    "enable_noio": "romio_orthrus enable\nromio_orthrus_read_io_bound 1\n",
}


def build(prefix, out):
    bins = os.path.join(out, "bin")
    os.makedirs(bins, exist_ok=True)
    for prog in ("matrix", "noncontig"):
        subprocess.run([os.path.join(prefix, "bin", "mpicc"), "-O2", "-I", HERE, "-o",
                        os.path.join(bins, prog), os.path.join(HERE, prog + ".c")], check=True)
    return bins


def run(args, bins, work, wl, config, hints_dir):
    prog, wargs = WORKLOADS[wl]
    env = dict(os.environ, MPIR_CVAR_NUM_CLIQUES="2",
               ROMIO_HINTS=os.path.join(hints_dir, config))
    for k in ("ROMIO_XT_STATS", "ROMIO_XT_STATS_FILE"):
        env.pop(k, None)
    if config.endswith("_old"):
        env["LD_LIBRARY_PATH"] = args.old_lib
    cmd = [os.path.join(args.prefix, "bin", "mpiexec"), "-n", "2", os.path.join(bins, prog),
           work] + wargs
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600).stdout
    res = {}
    for line in out.splitlines():
        if line.startswith("RESULT"):
            kv = dict(x.split("=", 1) for x in line.split()[1:])
            res[kv["phase"]] = float(kv["seconds"])
    return res


def summary(rows, configs):
    lines = ["| workload | phase | n | stock ms median [q1-q3] | " +
             " | ".join(f"{c} / stock: median (q1-q3), geo mean, runs < 0.8x" for c in configs[1:]) +
             " |", "|---|---|---|---|" + "---|" * (len(configs) - 1)]
    for wl in dict.fromkeys(r["workload"] for r in rows):
        for ph in ("read", "read_steady", "write"):
            val = {c: sorted(r["seconds"] for r in rows if r["workload"] == wl and
                             r["config"] == c and r["phase"] == ph) for c in configs}
            if not val["stock"]:
                continue
            s = val["stock"]
            m = statistics.median(s)
            q = lambda v, p: v[int(round(p * (len(v) - 1)))]
            cells = []
            for c in configs[1:]:
                v = val[c]
                if not v:
                    cells.append("-")
                    continue
                sp = [m / x for x in v]
                cells.append(f"{m / statistics.median(v):.2f} ({m / q(v, 0.75):.2f}-"
                             f"{m / q(v, 0.25):.2f}), {statistics.geometric_mean(sp):.2f}, "
                             f"{sum(x < 0.8 for x in sp)}/{len(sp)}")
            lines.append(f"| {wl} | {ph} | {len(s)} | {m * 1e3:.2f} [{q(s, 0.25) * 1e3:.2f}-"
                         f"{q(s, 0.75) * 1e3:.2f}] | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def plot(rows, configs, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    wls = list(dict.fromkeys(r["workload"] for r in rows))
    fig, axes = plt.subplots(1, len(wls), figsize=(3.2 * len(wls), 3.6), sharey=True)
    axes = axes if len(wls) > 1 else [axes]
    for ax, wl in zip(axes, wls):
        reads = lambda c: [r["seconds"] for r in rows if r["workload"] == wl and
                           r["config"] == c and r["phase"] == "read"]
        m = statistics.median(reads("stock"))
        data = [[m / x for x in reads(c)] for c in configs[1:]]
        ax.boxplot(data, labels=[c.replace("_", "\n") for c in configs[1:]], whis=(0, 100))
        ax.axhline(1.0, color="grey", lw=0.8)
        ax.axhline(0.95, color="red", lw=0.6, ls="--")
        ax.set_title(wl, fontsize=9)
        ax.tick_params(labelsize=7)
    axes[0].set_ylabel("cold read, speedup over stock's median")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--prefix", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--work")
    p.add_argument("--reps", type=int, default=16)
    p.add_argument("--old-lib")
    p.add_argument("--configs", help="comma-separated configs (stock first; NAME_old: NAME "
                   "on --old-lib); default stock,stock2,core_first,disk_first,enable"
                   "[,enable_old]")
    p.add_argument("workloads", nargs="*", default=list(WORKLOADS))
    args = p.parse_args()
    os.makedirs(args.out, exist_ok=True)
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    import xt_vm
    with open(os.path.join(args.out, "page_reporting.txt"), "w") as f:
        f.write(xt_vm.page_reporting("reads_ab") + "\n")
    work = args.work or os.path.join(args.out, "work")
    os.makedirs(work, exist_ok=True)
    hints_dir = os.path.join(args.out, "hints")
    os.makedirs(hints_dir, exist_ok=True)
    configs = dict(CONFIGS, **({"enable_old": CONFIGS["enable"]} if args.old_lib else {}))
    if args.configs:
        configs = {c: CONFIGS[c[:-4] if c.endswith("_old") else c]
                   for c in args.configs.split(",")}
    for c, text in configs.items():
        with open(os.path.join(hints_dir, c), "w") as f:
            f.write(text)
    bins = build(args.prefix, args.out)
    rows = []
    with open(os.path.join(args.out, "reads-ab.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, ["workload", "config", "rep", "slot", "phase", "seconds"])
        w.writeheader()
        for rep in range(1, args.reps + 1):
            for wl in args.workloads:
                order = list(configs)
                random.shuffle(order)
                for slot, c in enumerate(order):
                    for ph, sec in run(args, bins, work, wl, c, hints_dir).items():
                        row = dict(workload=wl, config=c, rep=rep, slot=slot, phase=ph,
                                   seconds=sec)
                        rows.append(row)
                        w.writerow(row)
                f.flush()
    text = summary(rows, list(configs))
    with open(os.path.join(args.out, "reads-ab.md"), "w") as f:
        f.write(text)
    plot(rows, list(configs), os.path.join(args.out, "reads-ab.png"))
    print(text, end="")


if __name__ == "__main__":
    main()

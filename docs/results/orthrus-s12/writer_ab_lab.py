#!/usr/bin/env python3
"""Session 12 lab script: does the routine that WROTE a file decide how fast
it reads cold?  For each rep and workload, in a random order: write the file
with one config (ORTH_BENCH_PHASES=write, a job of its own), then read it
cold with another (ORTH_BENCH_PHASES=read, the next job).  Pairs WRITER/READER
from the command line (default stock/stock disk_first/stock core_first/stock).
Prints one line per run and a summary; writes writer-ab.csv in the current
directory.

usage: XT_PREFIX=... BINS=dir-with-matrix-and-noncontig WORK=scratch-dir \
       python3 writer_ab_lab.py REPS [WRITER/READER ...]
       /usr/bin/python3 writer_ab_lab.py --plot CSV PNG
configs: stock, disk_first, core_first (forced), enable, df4m (disk_first with
4 MiB stripes), tp64k, tp1m (stock with cb_buffer_size 64 KiB, 1 MiB); NAME_old: NAME on the
library in the directory OLD_LIB (LD_LIBRARY_PATH).  WORKLOADS=nc16k,mx1m
(default; also nc1k, mx64k, mx4k)."""
import csv
import os
import random
import statistics
import subprocess
import sys
import tempfile

PREFIX, BINS, WORK = (os.environ.get(k, "") for k in ("XT_PREFIX", "BINS", "WORK"))
HINTS = {"stock": "", "disk_first": "romio_orthrus_force disk_first\n",
         "core_first": "romio_orthrus_force core_first\n", "enable": "romio_orthrus enable\n",
         "df4m": "romio_orthrus_force disk_first\nromio_orthrus_stripe_unit 4m\n",
         "tp64k": "cb_buffer_size 65536\n", "tp1m": "cb_buffer_size 1048576\n"}
WL = {"nc16k": ("noncontig", ["16384", "4194304", "100"]),
      "mx1m": ("matrix", ["1048576", "4", "60"]),
      "nc1k": ("noncontig", ["1024", "4194304", "100"]),
      "mx64k": ("matrix", ["65536", "4", "120", "12"]),
      "mx4k": ("matrix", ["4096", "4", "120", "12"])}
WL = {k: WL[k] for k in os.environ.get("WORKLOADS", "nc16k,mx1m").split(",")}


def run(prog, args, hints, phase):
    env = dict(os.environ, MPIR_CVAR_NUM_CLIQUES="2", ROMIO_HINTS=hints, ORTH_BENCH_PHASES=phase)
    if hints.endswith("_old"):  # NAME_old: NAME on the library in OLD_LIB
        env["LD_LIBRARY_PATH"] = os.environ["OLD_LIB"]
    out = subprocess.run([os.path.join(PREFIX, "bin", "mpiexec"), "-n", "2",
                          os.path.join(BINS, prog), WORK] + args, env=env,
                         capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        if line.startswith("RESULT phase=read "):
            return float(line.split("seconds=")[1].split()[0])
    return None


def main():
    hdir = tempfile.mkdtemp()
    files = {}
    for name, text in HINTS.items():
        for n in (name, name + "_old"):
            files[n] = os.path.join(hdir, n)
            with open(files[n], "w") as f:
                f.write(text)
    os.makedirs(WORK, exist_ok=True)
    pairs = sys.argv[2:] or ["stock/stock", "disk_first/stock", "core_first/stock"]
    rows = []
    for rep in range(int(sys.argv[1])):
        for wl, (prog, args) in WL.items():
            order = list(pairs)
            random.shuffle(order)
            for pair in order:
                w, r = pair.split("/")
                run(prog, args, files[w], "write")
                t = run(prog, args, files[r], "read")
                rows.append((wl, pair, rep, t))
                print(wl, pair, rep, t, flush=True)
    with open("writer-ab.csv", "w", newline="") as f:
        c = csv.writer(f)
        c.writerow(["workload", "writer/reader", "rep", "read_s"])
        c.writerows(rows)
    for wl in WL:
        ref = statistics.median(t for a, b, r, t in rows if a == wl and b == pairs[0])
        for pair in pairs:
            v = sorted(t for a, b, r, t in rows if a == wl and b == pair)
            print(f"{wl} {pair}: cold read median {statistics.median(v):.3f} s "
                  f"[{v[0]:.3f}-{v[-1]:.3f}], {sum(x > 1.25 * ref for x in v)}/{len(v)} "
                  f"above 1.25x {pairs[0]}'s median")


def plot(csv_path, png):
    """box plot of each pair's cold-read speedup over the first pair's median"""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    rows = list(csv.DictReader(open(csv_path)))
    wls = list(dict.fromkeys(r["workload"] for r in rows))
    pairs = list(dict.fromkeys(r["writer/reader"] for r in rows))
    fig, axes = plt.subplots(1, len(wls), figsize=(3.0 * len(wls), 3.6), sharey=True)
    for ax, wl in zip(axes, wls):
        t = lambda p: [float(r["read_s"]) for r in rows if r["workload"] == wl and
                       r["writer/reader"] == p]
        ref = statistics.median(t(pairs[0]))
        ax.boxplot([[ref / x for x in t(p)] for p in pairs[1:]],
                   labels=[p.replace("/", "/\n") for p in pairs[1:]], whis=(0, 100))
        ax.axhline(1.0, color="grey", lw=0.8)
        ax.axhline(0.95, color="red", lw=0.6, ls="--")
        ax.set_title(wl, fontsize=9)
        ax.tick_params(labelsize=7)
    axes[0].set_ylabel("cold read: speedup over " + pairs[0])
    fig.tight_layout()
    fig.savefig(png, dpi=110)


if __name__ == "__main__":
    if sys.argv[1] == "--plot":   # --plot CSV PNG
        plot(sys.argv[2], sys.argv[3])
    else:
        main()

#!/usr/bin/env python3
"""romio-xt's library inside the MPI a site already runs: each host's own
MPI-IO against libromioxt.so loaded into that host (LD_PRELOAD, under the
host's own launcher), with no hint and with each extension's hints, on ROMIO's
coll_perf (256^3 ints, 64 MiB) and the no-harm kernels
(benchmarks/noharm/noharm.c), 2 ranks.  Programs are built once with Debian's
mpicc.mpich and run on every host of the MPICH ABI (scripts/host-run.sh:
mpich4, mpich5, impi).

Reps outermost, then hosts and workloads, configs innermost in an order
rotated per rep and workload, so drift hits every config alike.  Writes
hosts.csv (every run), hosts.md (per host and cell: the host's own MB/s,
romio-xt with no hint and the best extension, as ratios of per-rep runs) and
hosts.png.

  run.py --prefix PREFIX --upstream MPICH_TREE --out DIR [--reps 3] [--scale 4]
  run.py --out DIR --report DIR/hosts.csv
"""
import argparse
import csv
import importlib.util
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
HOSTRUN = os.path.join(TOP, "scripts", "host-run.sh")
_spec = importlib.util.spec_from_file_location("openmpi_bench",
                                               os.path.join(TOP, "benchmarks", "openmpi", "run.py"))
ob = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ob)
CONFIGS = [("own", None), ("xt", {})] + [("xt+" + e, h) for e, h in ob.EXT.items()]
HOST_NAMES = {"mpich4": "Debian MPICH 4.0.2", "mpich5": "MPICH 5.0.2", "impi": "Intel MPI 2021.19"}


def build(args, bindir):
    os.makedirs(bindir, exist_ok=True)
    subprocess.run([os.path.join(TOP, "scripts", "coll-perf.sh"),
                    os.path.join(args.upstream, "src/mpi/romio/test/coll_perf.c"),
                    os.path.dirname(bindir), "mpicc.mpich"], check=True)
    nh = os.path.join(TOP, "benchmarks", "noharm")
    subprocess.run(["mpicc.mpich", "-O2", "-Wall", "-I" + nh, "-o",
                    os.path.join(bindir, "noharm"), os.path.join(nh, "noharm.c")], check=True)


def run_one(args, bindir, work, host, wl, cfg, rep):
    name, hints = cfg
    tag = f"{host}.{wl}.{name}.{rep}"
    os.makedirs(os.path.join(work, "trace"), exist_ok=True)
    os.makedirs(ob.E10_DIR, exist_ok=True)
    path = os.path.join(work, "f." + wl)
    if os.path.exists(path):
        os.unlink(path)
    env = {k: v for k, v in os.environ.items() if not k.startswith("ROMIO_")}
    env["XT_LIB"] = os.path.join(args.prefix, "lib", "libromioxt.so")
    if hints:
        env["ROMIO_HINTS"] = os.path.join(work, tag + ".hints")
        with open(env["ROMIO_HINTS"], "w") as f:
            f.writelines(f"{k} {v.format(work=work)}\n" for k, v in hints.items())
    if wl == "coll_perf":
        cmd = [os.path.join(bindir, "coll_perf"), "-fname", path]
    else:
        cmd = [os.path.join(bindir, "noharm"), wl, path, str(ob.KERNELS[wl] * args.scale)]
    mode = "own" if hints is None else "xt"
    p = subprocess.run([HOSTRUN, host, mode, "-n", str(args.ranks), *cmd], env=env,
                       capture_output=True, text=True, timeout=600)
    with open(os.path.join(work, tag + ".out"), "w") as f:
        f.write(p.stdout + p.stderr)
    if p.returncode != 0:
        raise SystemExit(f"hosts bench: {tag} failed ({p.returncode}):\n{p.stderr[-2000:]}")
    rows = ob.parse(wl, tag, p.stdout, p.stderr)
    for r in rows:
        r.update(host=host, config=name, rep=rep)
    return rows


def ratios(rows, host, cell, name):
    """Per-rep ratios name / own (runs of one rep are neighbours in time)."""
    by = {(r["config"], r["rep"]): r["MBps"] for r in rows
          if r["host"] == host and r["cell"] == cell}
    return [by[name, rep] / by["own", rep] for (c, rep) in by if c == name and ("own", rep) in by]


def fmt(v):
    return f"{statistics.median(v):.2f} [{min(v):.2f}-{max(v):.2f}]" if v else "-"


def summarize(rows, out):
    hosts = list(dict.fromkeys(r["host"] for r in rows))
    cells = list(dict.fromkeys(r["cell"] for r in rows))
    names = [c[0] for c in CONFIGS if any(r["config"] == c[0] for r in rows)]
    lines = ["| host | cell | own MB/s | romio-xt, no hint / own | best extension | its / own |",
             "|---|---|---|---|---|---|"]
    bars = []
    for h in hosts:
        for cell in cells:
            own = [r["MBps"] for r in rows if r["host"] == h and r["cell"] == cell
                   and r["config"] == "own"]
            if not own:
                continue
            ext = [n for n in names if n.startswith("xt+")]
            best = max(ext, key=lambda n: statistics.median(ratios(rows, h, cell, n) or [0]))
            x, b = ratios(rows, h, cell, "xt"), ratios(rows, h, cell, best)
            lines.append(f"| {HOST_NAMES.get(h, h)} | {cell} | {statistics.median(own):.0f} | "
                         f"{fmt(x)} | {best[3:]} | {fmt(b)} |")
            bars.append((f"{h} {cell}", statistics.median(x), statistics.median(b)))
    lines += ["", "Every config, median of the per-rep ratios to the host's own MPI-IO "
              "[min-max]:", "", "| host | cell | " + " | ".join(names[1:]) + " |",
              "|---|---|" + "---|" * (len(names) - 1)]
    for h in hosts:
        for cell in cells:
            lines.append(f"| {h} | {cell} | " + " | ".join(
                fmt(ratios(rows, h, cell, n)) for n in names[1:]) + " |")
    with open(os.path.join(out, "hosts.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    ob.bar_plot(os.path.join(out, "hosts.png"), [b[0] for b in bars],
                [("romio-xt, no hint", [b[1] for b in bars]),
                 ("romio-xt, best extension", [b[2] for b in bars])],
                "MB/s relative to the host's own MPI-IO",
                "libromioxt.so loaded into each host MPI, 2 ranks (median of per-rep ratios)")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--prefix", help="the romio-xt install (PREFIX/lib/libromioxt.so)")
    p.add_argument("--upstream", help="the MPICH 4.0.2 tree (coll_perf.c)")
    p.add_argument("--out", required=True)
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--ranks", type=int, default=2)
    p.add_argument("--hosts", default="mpich4,mpich5,impi")
    p.add_argument("--workloads", default="coll_perf,contig,strided")
    p.add_argument("--scale", type=int, default=4,
                   help="the kernels' MiB per rank times this (default 4: contig 64, strided 8)")
    p.add_argument("--report", metavar="CSV", help="only the tables and plot from a CSV")
    args = p.parse_args()
    os.makedirs(args.out, exist_ok=True)
    if args.report:
        with open(args.report) as f:
            rows = [dict(r, MBps=float(r["MBps"])) for r in csv.DictReader(f)]
        summarize(rows, args.out)
        return
    if not (args.prefix and args.upstream):
        sys.exit("hosts bench: --prefix and --upstream are needed (or --report)")
    hosts = [h for h in args.hosts.split(",")
             if subprocess.run([HOSTRUN, h, "own"], capture_output=True).returncode == 0 or
             print(f"hosts bench: {h} not installed, left out", file=sys.stderr)]
    work = os.path.join(args.out, "work")
    os.makedirs(work, exist_ok=True)
    bindir = os.path.join(args.out, "build", "bin")
    build(args, bindir)
    rows = []
    for rep in range(args.reps):
        for h in hosts:
            for w, wl in enumerate(args.workloads.split(",")):
                k = (rep + w) % len(CONFIGS)
                for cfg in CONFIGS[k:] + CONFIGS[:k]:
                    rows += run_one(args, bindir, work, h, wl, cfg, rep)
        print(f"hosts bench: rep {rep + 1}/{args.reps} done", file=sys.stderr)
    with open(os.path.join(args.out, "hosts.csv"), "w", newline="") as f:
        wr = csv.DictWriter(f, fieldnames=["host", "cell", "config", "rep", "seconds", "MBps"])
        wr.writeheader()
        wr.writerows(rows)
    summarize(rows, args.out)


if __name__ == "__main__":
    main()

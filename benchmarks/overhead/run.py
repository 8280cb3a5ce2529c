#!/usr/bin/env python3
"""romio-xt with no hint against unpatched MPICH 4.0.2 (issue 15 item 7):
the same ovh binary runs on both libraries (LD_LIBRARY_PATH), the two runs of
a rep back to back in alternating order; overhead = romio-xt's time per call
/ unpatched's - 1, per rep (paired), median and range over the reps.
    run.py --prefix INSTALL --unpatched STOCK_INSTALL --out DIR [--reps 7]
Writes DIR/overhead.csv (every run), overhead.md, overhead.png (needs
matplotlib: Debian's python3-matplotlib, /usr/bin/python3)."""
import argparse
import csv
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# mode, calls, ranks, directory
CASES = [("open", 300, 1, "/dev/shm"), ("open", 300, 2, "/dev/shm"),
         ("small", 20000, 1, "/dev/shm"), ("small", 20000, 2, "/dev/shm"),
         ("coll", 400, 2, "/dev/shm"), ("coll", 400, 2, "disk")]


def run(prefix, exe, mode, n, np_, path):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ROMIO_HINTS", "ROMIO_XT_"))}
    env["LD_LIBRARY_PATH"] = os.path.join(prefix, "lib")
    r = subprocess.run([os.path.join(prefix, "bin", "mpiexec"), "-n", str(np_), exe, mode, path,
                        str(n)], env=env, capture_output=True, text=True, timeout=600)
    f = r.stdout.split()
    if r.returncode != 0 or len(f) != 3 or f[2] != "0":
        sys.exit(f"overhead: {mode} np{np_} on {prefix} failed rc={r.returncode}: "
                 f"{r.stdout}{r.stderr[-300:]}")
    return float(f[1])


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--prefix", required=True)
    p.add_argument("--unpatched", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--reps", type=int, default=7)
    p.add_argument("--report-only", action="store_true", help="re-summarise OUT/overhead.csv")
    a = p.parse_args()
    os.makedirs(a.out, exist_ok=True)
    if a.report_only:
        with open(os.path.join(a.out, "overhead.csv")) as f:
            rows = [dict(r, ranks=int(r["ranks"]), rep=int(r["rep"])) for r in csv.DictReader(f)]
        return report(rows, a.out)
    exe = os.path.join(a.out, "ovh")
    subprocess.run([os.path.join(a.unpatched, "bin", "mpicc"), "-O2", "-Wall", "-o", exe,
                    os.path.join(HERE, "ovh.c")], check=True)
    disk = os.path.join(a.out, "work")
    os.makedirs(disk, exist_ok=True)
    libs = [("romio-xt", a.prefix), ("unpatched", a.unpatched)]
    rows = []
    for rep in range(a.reps):
        for mode, n, np_, d in CASES:
            path = os.path.join(disk if d == "disk" else d, "romio-xt-ovh.dat")
            for name, prefix in (libs if rep % 2 == 0 else libs[::-1]):
                t = run(prefix, exe, mode, n, np_, path)
                rows.append(dict(mode=mode, calls=n, ranks=np_, dir=d, lib=name, rep=rep,
                                 sec_per_call=f"{t:.9f}"))
            os.unlink(path)
        print(f"overhead: rep {rep + 1}/{a.reps}", file=sys.stderr)
    with open(os.path.join(a.out, "overhead.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    report(rows, a.out)


def report(rows, out):
    L = ["| case | romio-xt µs/call (median) | unpatched µs/call | overhead, median of "
         "paired reps | range |", "|---|---|---|---|---|"]
    labels, meds, lo, hi = [], [], [], []
    for mode, n, np_, d in CASES:
        sel = lambda lib: {r["rep"]: float(r["sec_per_call"]) for r in rows if r["mode"] == mode
                           and r["ranks"] == np_ and r["dir"] == d and r["lib"] == lib}
        x, u = sel("romio-xt"), sel("unpatched")
        pair = [x[k] / u[k] - 1 for k in x if k in u]
        m = statistics.median(pair)
        lab = f"{mode} {np_}r {d}"
        L.append(f"| {lab} | {statistics.median(x.values()) * 1e6:.2f} | "
                 f"{statistics.median(u.values()) * 1e6:.2f} | {m * 100:+.1f}% | "
                 f"{min(pair) * 100:+.1f}% .. {max(pair) * 100:+.1f}% |")
        labels.append(lab), meds.append(m * 100), lo.append(min(pair) * 100), hi.append(max(pair) * 100)
    md = "\n".join(L) + "\n"
    with open(os.path.join(out, "overhead.md"), "w") as f:
        f.write(md)
    print(md)
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    fig, ax = plt.subplots(figsize=(7, 3.2))
    ax.bar(labels, meds, yerr=[[m - l for m, l in zip(meds, lo)], [h - m for m, h in zip(meds, hi)]],
           capsize=4, color="#4a7")
    ax.axhline(0, color="k", lw=0.8)
    ax.axhline(1, color="r", lw=0.8, ls="--")
    ax.set_yscale("symlog", linthresh=10)
    ax.set_ylabel("romio-xt (no hint) vs unpatched, %\n(median, min-max of paired reps)")
    ax.tick_params(axis="x", labelrotation=20, labelsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "overhead.png"), dpi=110)


if __name__ == "__main__":
    main()

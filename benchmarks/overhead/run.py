#!/usr/bin/env python3
"""romio-xt with no hint against unpatched MPICH 4.0.2: the per-call cost of
the layer stack when nothing is enabled.  The same ovh binary runs on both
libraries (LD_LIBRARY_PATH), the two runs of a rep back to back in
alternating order; overhead = romio-xt's time per call / unpatched's - 1,
per rep (paired), median and range over the reps.
    run.py --prefix INSTALL --unpatched STOCK_INSTALL --out DIR [--reps 7]
    run.py --out DIR --report-only        (re-summarise DIR/overhead.csv)
Writes DIR/overhead.csv (every run), overhead.md, overhead.png (needs
matplotlib: Debian's python3-matplotlib, /usr/bin/python3)."""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import xtbench  # noqa: E402

# mode, calls, ranks, directory
CASES = [("open", 300, 1, "/dev/shm"), ("open", 300, 2, "/dev/shm"),
         ("small", 20000, 1, "/dev/shm"), ("small", 20000, 2, "/dev/shm"),
         ("coll", 400, 2, "/dev/shm"), ("coll", 400, 2, "disk")]


def run(prefix, exe, mode, n, np_, path):
    env = xtbench.clean_env(drop=(), drop_prefixes=("ROMIO_HINTS", "ROMIO_XT_"),
                            extra={"LD_LIBRARY_PATH": os.path.join(prefix, "lib")})
    out, err, problem = xtbench.execute([os.path.join(prefix, "bin", "mpiexec"), "-n", str(np_),
                                         exe, mode, path, str(n)], env, timeout=600)
    f = out.split()
    if problem or len(f) != 3 or f[2] != "0":
        sys.exit(f"overhead: {mode} np{np_} on {prefix} failed ({problem}): {out}{err[-300:]}")
    return float(f[1])


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--prefix")
    p.add_argument("--unpatched")
    p.add_argument("--out", required=True)
    p.add_argument("--reps", type=int, default=7)
    p.add_argument("--report-only", action="store_true", help="re-summarise OUT/overhead.csv")
    a = p.parse_args()
    os.makedirs(a.out, exist_ok=True)
    if a.report_only:
        rows = [dict(r, ranks=int(r["ranks"]), rep=int(r["rep"]))
                for r in xtbench.read_csv(os.path.join(a.out, "overhead.csv"))]
        return report(rows, a.out)
    if not (a.prefix and a.unpatched):
        p.error("--prefix and --unpatched are required (unless --report-only)")
    exe = xtbench.mpicc(a.unpatched, os.path.join(HERE, "ovh.c"), os.path.join(a.out, "ovh"),
                        ["-O2", "-Wall"])
    disk = os.path.join(a.out, "work")
    os.makedirs(disk, exist_ok=True)
    libs = [("romio-xt", a.prefix), ("unpatched", a.unpatched)]
    rows = []
    for rep in range(a.reps):
        for mode, n, np_, d in CASES:
            path = os.path.join(disk if d == "disk" else d, "romio-xt-ovh.dat")
            for name, prefix in xtbench.config_order(libs, rep, 0, "rotate"):
                t = run(prefix, exe, mode, n, np_, path)
                rows.append(dict(mode=mode, calls=n, ranks=np_, dir=d, lib=name, rep=rep,
                                 sec_per_call=f"{t:.9f}"))
            os.unlink(path)
        print(f"overhead: rep {rep + 1}/{a.reps}", file=sys.stderr)
    xtbench.write_csv(rows, os.path.join(a.out, "overhead.csv"))
    report(rows, a.out)


def report(rows, out):
    table, labels, pairs = [], [], []
    for mode, n, np_, d in CASES:
        def sel(lib):
            return {r["rep"]: float(r["sec_per_call"]) for r in rows if r["mode"] == mode
                    and r["ranks"] == np_ and r["dir"] == d and r["lib"] == lib}
        x, u = sel("romio-xt"), sel("unpatched")
        pair = [(x[k] / u[k] - 1) * 100 for k in x if k in u]
        lab = f"{mode} {np_}r {d}"
        table.append([lab, f"{xtbench.median(x.values()) * 1e6:.2f}",
                      f"{xtbench.median(u.values()) * 1e6:.2f}",
                      f"{xtbench.median(pair):+.1f}%", f"{min(pair):+.1f}% .. {max(pair):+.1f}%"])
        labels.append(lab)
        pairs.append(pair)
    md = xtbench.md_table(["case", "romio-xt µs/call (median)", "unpatched µs/call",
                           "overhead, median of paired reps", "range"], table)
    with open(os.path.join(out, "overhead.md"), "w") as f:
        f.write(md)
    print(md)
    plt = xtbench.pyplot("overhead")
    if plt is None:
        return
    fig, ax = plt.subplots(figsize=(7, 3.2))
    xtbench.bars(ax, labels, {"overhead": pairs},
                 "romio-xt (no hint) vs unpatched, %\n(median, min-max of paired reps)",
                 colors={"overhead": "#4a7"})
    ax.axhline(0, color="k", lw=0.8)
    ax.axhline(1, color="r", lw=0.8, ls="--")
    ax.set_yscale("symlog", linthresh=10)
    ax.grid(False)
    ax.tick_params(axis="x", labelrotation=20, labelsize=8)
    fig.tight_layout()
    xtbench.save(fig, os.path.join(out, "overhead.png"))


if __name__ == "__main__":
    main()

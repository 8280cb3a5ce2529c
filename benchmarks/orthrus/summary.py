#!/usr/bin/env python3
"""Orthrus Matrix / Noncontig benchmarks: the issue's targets from the
harness CSV, and the throughput-vs-sweep plot (seed Fig. 3 / Fig. 5).
usage: summary.py CSV [--plot PNG]  -> markdown on stdout
The sweep column is `block` or `depth` (Matrix) or `elmtcount` (Noncontig)."""
import argparse
import csv
import statistics
from collections import defaultdict

FORCED = ("two_phase", "core_first", "disk_first")
CONFIGS = ("stock",) + FORCED + ("enable", "enable_table")


def load(path):
    rows = list(csv.DictReader(open(path)))
    # the swept column: the first of these with more than one value
    keys = [k for k in ("depth", "elmtcount", "block") if k in rows[0]]
    key = next((k for k in keys if len({r[k] for r in rows}) > 1), keys[-1])
    vals = defaultdict(list)
    runs = defaultdict(lambda: defaultdict(list))
    for r in rows:
        vals[(r["config"], r["phase"], int(r[key]))].append(float(r["MBps"]))
        if r["config"] == "enable" and r.get("stats.features.orthrus.runs.two_phase"):
            for c in FORCED:
                runs[(r["phase"], int(r[key]))][c].append(int(r["stats.features.orthrus.runs." + c]))
    return key, vals, runs


def ratio_to_best(m, op, b, window):
    """enable over the best forced candidate in the window, and that candidate"""
    best = max(FORCED, key=lambda c: m[(c, op + window, b)])
    return m[("enable", op + window, b)] / m[(best, op + window, b)], best


def targets(key, vals, runs):
    m = {k: statistics.median(v) for k, v in vals.items()}
    table = any(k[0] == "enable_table" for k in m)
    tail = any(k[1].endswith("_tail") for k in m)
    out = [f"| op | {key} | enable steady / best forced steady | best forced |" +
           (" enable tail / best forced tail | best forced (tail) |" if tail else "") +
           " enable whole run / stock | calls run by enable (two_phase/core_first/disk_first, "
           "median) |" + (" enable_table whole run / stock |" if table else ""),
           "|---|---|---|---|" + ("---|---|" if tail else "") + "---|---|" +
           ("---|" if table else "")]
    met = [0, 0, 0, 0, 0]
    for op in ("write", "read"):
        for b in sorted({k[2] for k in m}):
            st, best = ratio_to_best(m, op, b, "_steady")
            tl, tbest = ratio_to_best(m, op, b, "_tail") if tail else (0, "")
            wh = m[("enable", op, b)] / m[("stock", op, b)]
            wt = m[("enable_table", op, b)] / m[("stock", op, b)] if table else 0
            met = [met[0] + (st >= 0.95), met[1] + (wh >= 1.0), met[2] + 1, met[3] + (wt >= 1.0),
                   met[4] + (tl >= 0.95)]
            rc = "/".join(str(int(statistics.median(runs[(op, b)][c]))) for c in FORCED) \
                if runs[(op, b)] else "-"
            out.append(f"| {op} | {b} | {st:.2f} | {best} |" +
                       (f" {tl:.2f} | {tbest} |" if tail else "") + f" {wh:.2f} | {rc} |" +
                       (f" {wt:.2f} |" if table else ""))
    out += ["", f"steady enable >= 0.95 x best forced: met in {met[0]} of {met[2]} cells; " +
            (f"tail (the last third of the calls) enable >= 0.95 x best forced: met in "
             f"{met[4]} of {met[2]}; " if tail else "") +
            f"whole run enable >= stock: met in {met[1]} of {met[2]}" +
            (f"; with the saved table: {met[3]} of {met[2]}." if table else ".")]
    return "\n".join(out) + "\n"


def plot(key, vals, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    xs = sorted({k[2] for k in vals})
    windows = [w for w in ("", "_steady", "_tail") if any(k[1].endswith(w) for k in vals)]
    titles = {"": "whole run", "_steady": "steady: calls after the first 9",
              "_tail": "tail: the last third of the calls"}
    fig, axes = plt.subplots(len(windows), 2, figsize=(11, 4 * len(windows)), sharex=True)
    for ax, (op, suffix) in zip(axes.flat, [(o, s) for s in windows
                                            for o in ("write", "read")]):
        for c in CONFIGS:
            pts = [(x, sorted(vals[(c, op + suffix, x)])) for x in xs if (c, op + suffix, x) in vals]
            if not pts:
                continue
            med = [statistics.median(v) for _, v in pts]
            err = [[m - v[0] for m, (_, v) in zip(med, pts)],
                   [v[-1] - m for m, (_, v) in zip(med, pts)]]
            ax.errorbar([x for x, _ in pts], med, yerr=err, capsize=3, marker="o", ms=4,
                        lw=2.2 if c.startswith("enable") else 1.2,
                        color={"enable": "black", "enable_table": "grey"}.get(c),
                        ls="--" if c in ("stock", "enable_table") else "-", label=c)
        ax.set_xscale("log", base=2)
        ax.set_title(f"{op} ({titles[suffix]})")
        ax.set_ylabel("MB/s (median; bars: min-max)")
        ax.grid(alpha=0.3)
    for ax in axes[-1]:
        ax.set_xlabel(key)
    axes[0, 0].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("csv")
    p.add_argument("--plot", help="write the throughput-vs-sweep plot here")
    a = p.parse_args()
    key, vals, runs = load(a.csv)
    print(targets(key, vals, runs), end="")
    if a.plot:
        plot(key, vals, a.plot)


if __name__ == "__main__":
    main()

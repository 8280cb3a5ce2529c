#!/usr/bin/env python3
"""Orthrus rounds (issue 15 item 3): the targets from harness CSVs of the
rounds-*.json configs (stock, each candidate forced, enable), one CSV per
workload and storage.
usage: rounds_summary.py LABEL=CSV... [--csv OUT.csv] [--plot OUT.png] -> markdown
LABEL names the storage, e.g. shm=bench-out/rounds/shm/orthrus-rounds-matrix.csv.
Ratios are of medians over the reps; the spread is the min-max of the
per-rep ratios (configs run interleaved within a rep)."""
import argparse
import csv
import statistics
from collections import defaultdict

FORCED = ("two_phase", "core_first", "disk_first", "view_based")
PARAMS = ("block", "elmtcount")


def load(label, path):
    """{cell: {config: {rep: row}}}; a cell is (workload, storage, param, calls, op)"""
    cells = defaultdict(lambda: defaultdict(dict))
    for r in csv.DictReader(open(path)):
        key = next(k for k in PARAMS if r.get(k))
        work = "matrix" if key == "block" else "noncontig"
        calls = int(r.get("calls") or 40)
        cells[(work, label, f"{key}={r[key]}", calls, r["phase"])][r["config"]][r["rep"]] = r
    return cells


def ratio(cell, a, b):
    """median(a)/median(b), and the min-max of the per-rep ratios"""
    med = [statistics.median(float(r["MBps"]) for r in cell[c].values()) for c in (a, b)]
    reps = [float(cell[a][k]["MBps"]) / float(cell[b][k]["MBps"])
            for k in cell[a] if k in cell[b]]
    return med[0] / med[1], min(reps), max(reps)


def runs(cell):
    """calls run per candidate by enable (median over reps)"""
    out = []
    for c in FORCED:
        v = [int(r.get("stats.features.orthrus.runs." + c) or 0) for r in cell["enable"].values()]
        out.append(str(int(statistics.median(v))) if v else "-")
    return "/".join(out)


def fmt(t):
    return f"{t[0]:.2f} ({t[1]:.2f}-{t[2]:.2f})"


def summarize(cells):
    head = ("| workload | storage | pattern | calls | op | stock MB/s | enable whole run / stock "
            "| best forced steady | best / stock steady | enable steady / best forced steady "
            "| calls run by enable (tp/cf/df/vb) |")
    lines = [head, "|" + "---|" * 11]
    rows, met = [], defaultdict(lambda: [0, 0])
    for (work, st, pat, calls, op), cell in sorted(cells.items()):
        if op.endswith("_steady"):
            continue
        steady = cells[(work, st, pat, calls, op + "_steady")]
        best = max(FORCED, key=lambda c: statistics.median(
            float(r["MBps"]) for r in steady[c].values()))
        whole = ratio(cell, "enable", "stock")
        st_best = ratio(steady, "enable", best)
        gain = ratio(steady, best, "stock")
        stock = statistics.median(float(r["MBps"]) for r in cell["stock"].values())
        lines.append(f"| {work} | {st} | {pat} | {calls} | {op} | {stock:.1f} | {fmt(whole)} "
                     f"| {best} | {fmt(gain)} | {fmt(st_best)} | {runs(cell)} |")
        want = 1.0 if calls >= 100 else 0.95
        met["whole"][0] += whole[0] >= want
        met["whole"][1] += 1
        met["steady"][0] += st_best[0] >= 0.95
        met["steady"][1] += 1
        met["gain"][0] += whole[0] >= 1.2
        met["gain"][1] += 1
        rows.append({"workload": work, "storage": st, "pattern": pat, "calls": calls, "op": op,
                     "stock_MBps": f"{stock:.2f}", "enable_over_stock": f"{whole[0]:.3f}",
                     "enable_over_stock_min": f"{whole[1]:.3f}",
                     "enable_over_stock_max": f"{whole[2]:.3f}", "best_forced": best,
                     "best_over_stock_steady": f"{gain[0]:.3f}",
                     "enable_over_best_steady": f"{st_best[0]:.3f}",
                     "enable_over_best_steady_min": f"{st_best[1]:.3f}",
                     "enable_over_best_steady_max": f"{st_best[2]:.3f}", "enable_runs": runs(cell)})
    lines += ["", f"- whole run enable >= 0.95 x stock (>= 1.0 at >= 100 calls): "
              f"{met['whole'][0]} of {met['whole'][1]} cells",
              f"- steady enable >= 0.95 x best forced: {met['steady'][0]} of {met['steady'][1]}",
              f"- whole run enable >= 1.2 x stock: {met['gain'][0]} of {met['gain'][1]}"]
    return "\n".join(lines) + "\n", rows


def plot(rows, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    labels = [f"{r['workload'][:6]} {r['storage']}\n{r['pattern']}\n{r['calls']} {r['op']}"
              for r in rows]
    x = range(len(rows))
    fig, ax = plt.subplots(figsize=(max(8, 0.75 * len(rows) + 2), 5))
    for i, (key, name) in enumerate((("enable_over_stock", "enable / stock, whole run"),
                                     ("best_over_stock_steady", "best forced / stock, steady"),
                                     ("enable_over_best_steady", "enable / best forced, steady"))):
        v = [float(r[key]) for r in rows]
        lo = [v[j] - float(rows[j].get(key + "_min", v[j])) for j in x]
        hi = [float(rows[j].get(key + "_max", v[j])) - v[j] for j in x]
        ax.bar([j + (i - 1) * 0.27 for j in x], v, 0.27, yerr=[lo, hi], capsize=2, label=name)
    ax.set_yscale("log")
    ax.set_ylim(0.05, 20)
    ax.axhline(0.95, color="k", lw=0.8, ls="--")
    ax.axhline(1.2, color="g", lw=0.8, ls=":")
    ax.set_xticks(list(x))
    ax.set_xticklabels(labels, fontsize=7)
    ax.set_ylabel("ratio of medians, log (bars: per-rep min-max)")
    ax.set_title("Orthrus in rounds: 2 ranks on 2 emulated nodes, 3 interleaved reps")
    ax.legend(fontsize=8)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("inputs", nargs="+", help="LABEL=CSV")
    p.add_argument("--csv")
    p.add_argument("--plot")
    a = p.parse_args()
    cells = {}
    for item in a.inputs:
        label, path = item.split("=", 1)
        cells.update(load(label, path))
    cells = defaultdict(lambda: defaultdict(dict), cells)
    text, rows = summarize(cells)
    print(text)
    if a.csv:
        with open(a.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)
    if a.plot:
        plot(rows, a.plot)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Summarise a no-harm grid CSV (run.py): noharm-summary.csv (one row per
cell and config: median, min, max, spread, ratio to stock), noharm.md and
noharm.png (heatmap of the ratios).  Exit 1 if a run failed, a read did not
verify or a final file differs from stock's.
    report.py OUT/noharm.csv OUTDIR
    report.py --compare BEFORE/noharm.csv AFTER/noharm.csv   (markdown to stdout)"""
import csv
import os
import statistics
import sys
from collections import defaultdict

ORDER = ["stock", "ds_adaptive", "orthrus", "e10_cache", "prefetch", "trace", "stats", "all",
         "stock_again", "unpatched"]
# holes no process writes: stock's data sieving fills them with its buffer's
# old contents (0xff here), adaptive sieving leaves zeros; reads verify the data
NO_DIGEST = {"strided"}
HARM = 0.9


def load(path):
    with open(path) as f:
        return list(csv.DictReader(f))


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
    return {c: {k: (statistics.median(v), min(v), max(v), len(v)) for k, v in d.items()}
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
            bad.append(f"{k[0]} {k[1]}r/{k[2]}n {r['config']} rep {r['rep']}: file differs from stock's")
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
    L = [f"# No-harm grid\n",
         f"{len(cells)} cells, {nruns} measurements. ratio = stock median time / config "
         f"median time (< 1: slower than stock); spread = (max - min) / median of the "
         f"config's runs in that cell; `!` = below {HARM} and the ranges do not overlap "
         f"(the config's fastest run is slower than stock's slowest).\n",
         "## Worst ratio per extension\n",
         f"| config | worst ratio | cell | cells < {HARM} | of which clear | geo. mean |",
         "|---|---|---|---|---|---|"]
    for k in configs:
        vals = [(v[0], c, v[2]) for (c, kk), v in rat.items() if kk == k]
        if not vals:
            continue
        w = min(vals)
        below = [v for v in vals if v[0] < HARM]
        gm = statistics.geometric_mean([v[0] for v in vals])
        L.append(f"| {k} | {w[0]:.2f} | {label(w[1])} | {len(below)} of {len(vals)} | "
                 f"{sum(1 for v in below if v[2])} | {gm:.2f} |")
    L += overhead(rat)
    L += ["", "## Every cell\n",
          "stock: median seconds (spread); configs: ratio (spread)\n",
          "| cell | stock | " + " | ".join(configs) + " |",
          "|---|---|" + "---|" * len(configs)]
    for c in cells:
        d = summary[c]
        if "stock" not in d:
            continue
        s = d["stock"]
        cols = []
        for k in configs:
            v = rat.get((c, k))
            cols.append("" if v is None else
                        f"{'**' if v[0] < HARM else ''}{v[0]:.2f}{'**' if v[0] < HARM else ''}"
                        f"{'!' if v[0] < HARM and v[2] else ''} ({v[1] * 100:.0f}%)")
        L.append(f"| {label(c)} | {s[0]:.3f} ({(s[2] - s[1]) / s[0] * 100:.0f}%) | "
                 + " | ".join(cols) + " |")
    L += ["", "## Correctness\n"]
    L += [f"- {b}" for b in bad] or ["Every run verified its reads; every final file equals stock's "
                                     "(byte for byte) for the same workload, ranks and nodes "
                                     "(strided: reads verified only; the holes no process "
                                     "writes hold stock data sieving's stale buffer bytes)."]
    return "\n".join(L) + "\n"


def geo_ci(vals, n=2000):
    """geometric mean and a 95% bootstrap interval over cells"""
    import random
    rnd = random.Random(1)
    gm = statistics.geometric_mean(vals)
    boot = sorted(statistics.geometric_mean(rnd.choices(vals, k=len(vals))) for _ in range(n))
    return gm, boot[int(0.025 * n)], boot[int(0.975 * n)]


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


def heatmap(summary, rat, configs, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.colors import TwoSlopeNorm
    except ImportError:
        print("noharm: matplotlib missing, no heatmap", file=sys.stderr)
        return
    cells = [c for c in sorted(summary) if "stock" in summary[c]]
    grid = [[rat.get((c, k), (float("nan"),))[0] for k in configs] for c in cells]
    fig, ax = plt.subplots(figsize=(1.1 * len(configs) + 3, 0.24 * len(cells) + 1.5))
    im = ax.imshow(grid, cmap="RdBu", norm=TwoSlopeNorm(vcenter=1.0, vmin=0.4, vmax=1.6),
                   aspect="auto")
    for i, row in enumerate(grid):
        for j, v in enumerate(row):
            if v == v:
                ax.text(j, i, f"{v:.2f}", ha="center", va="center", fontsize=6,
                        fontweight="bold" if v < HARM else "normal")
    ax.set_xticks(range(len(configs)))
    ax.set_xticklabels(configs, rotation=30, ha="right")
    ax.set_yticks(range(len(cells)))
    ax.set_yticklabels([label(c) for c in cells], fontsize=6)
    ax.set_title("no-harm grid: stock time / config time (medians; < 1 slower than stock)",
                 fontsize=9)
    fig.colorbar(im, ax=ax, fraction=0.04)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main(csv_path, out):
    rows = load(csv_path)
    summary = summarize(rows)
    configs = [k for k in ORDER[1:] if any(r["config"] == k for r in rows)]
    rat = ratios(summary, configs)
    bad = problems(rows)
    with open(os.path.join(out, "noharm-summary.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["wl", "ranks", "nodes", "op", "cond", "config", "median_s", "min_s", "max_s",
                    "n", "ratio", "spread"])
        for c in sorted(summary):
            for k, m in summary[c].items():
                r = rat.get((c, k))
                w.writerow(list(c) + [k, f"{m[0]:.6f}", f"{m[1]:.6f}", f"{m[2]:.6f}", m[3],
                                      f"{r[0]:.3f}" if r else "", f"{r[1]:.3f}" if r else ""])
    md = markdown(summary, rat, configs, bad, len(rows))
    with open(os.path.join(out, "noharm.md"), "w") as f:
        f.write(md)
    heatmap(summary, rat, configs, os.path.join(out, "noharm.png"))
    print(md.split("## Every cell")[0])
    for b in bad:
        print("noharm: " + b, file=sys.stderr)
    return 1 if bad else 0


def per_config(csv_path):
    """{config: (worst, cells < HARM, clear ones, cells, geometric mean)}"""
    rows = load(csv_path)
    configs = [k for k in ORDER[1:] if any(r["config"] == k for r in rows)]
    rat = ratios(summarize(rows), configs)
    out = {}
    for k in configs:
        v = [x for (c, kk), x in rat.items() if kk == k]
        out[k] = (min(x[0] for x in v), sum(x[0] < HARM for x in v),
                  sum(x[0] < HARM and x[2] for x in v), len(v),
                  statistics.geometric_mean([x[0] for x in v]))
    return out


def compare(before, after):
    b, a = per_config(before), per_config(after)
    L = ["| config | before: worst / cells < 0.9 (clear) / geo. mean | "
         "after: worst / cells < 0.9 (clear) / geo. mean |", "|---|---|---|"]
    fmt = lambda t: f"{t[0]:.2f} / {t[1]} of {t[3]} ({t[2]}) / {t[4]:.2f}" if t else "-"
    for k in ORDER[1:]:
        if k in b or k in a:
            L.append(f"| {k} | {fmt(b.get(k))} | {fmt(a.get(k))} |")
    print("\n".join(L))
    return 0


if __name__ == "__main__":
    if sys.argv[1] == "--compare":
        sys.exit(compare(sys.argv[2], sys.argv[3]))
    sys.exit(main(sys.argv[1], sys.argv[2]))

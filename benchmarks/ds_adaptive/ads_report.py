#!/usr/bin/env python3
"""Adaptive data sieving benchmark report: heatmaps and the targets.

usage: ads_report.py CSV OUTDIR
CSV: harness output of ads.json; its config "time" runs without the stats
layer (clean timings), "count" with it (requests and bytes per cell).
Writes OUTDIR/ads-heatmap.png, ads-requests.png, ads-summary.md (and prints it).
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import xtbench  # noqa: E402

MODES = ["write", "read_warm", "read_cold"]


def key(r):
    return (r["variant"], r["mode"], int(float(r["data"])), int(float(r["hole"])))


def medians(rows):
    """(variant, mode, data, hole) -> median seconds"""
    acc = {}
    for r in rows:
        acc.setdefault(key(r), []).append(float(r["seconds"]))
    return {k: xtbench.median(v) for k, v in acc.items()}


def counts(rows):
    """(variant, mode, data, hole) -> (requests, bytes moved), the first rep's"""
    out = {}
    for r in rows:
        req = sum(float(r.get(f"stats.fs_requests.{d}.count") or 0) for d in ("read", "write"))
        moved = sum(float(r.get(f"stats.fs_requests.{d}.bytes") or 0) for d in ("read", "write"))
        out.setdefault(key(r), (req, moved))
    return out


def axes(t):
    datas = sorted({k[2] for k in t})
    holes = sorted({k[3] for k in t})
    return datas, holes


def human(n):
    for unit, size in (("Mi", 1 << 20), ("Ki", 1 << 10)):
        if n >= size and n % size == 0:
            return f"{n // size}{unit}"
    return str(n)


def ratios(t):
    """per cell: best stock time / adaptive time (higher is better)"""
    out = {}
    for (cfg, mode, d, h), ta in t.items():
        if cfg != "adaptive":
            continue
        best = min(t[("enable", mode, d, h)], t[("disable", mode, d, h)])
        out[(mode, d, h)] = (best / ta, t[("enable", mode, d, h)] / ta)
    return out


def label_axes(ax, datas, holes, title):
    ax.set_xticks(range(len(holes)), [human(h) for h in holes], rotation=45)
    ax.set_yticks(range(len(datas)), [human(d) for d in datas])
    ax.set_xlabel("hole (bytes)")
    ax.set_ylabel("data per piece (bytes)")
    ax.set_title(title)


def heatmap(t, rat, path):
    plt = xtbench.pyplot("ads_report")
    if plt is None:
        return
    from matplotlib.colors import LogNorm
    datas, holes = axes(t)
    fig, axs = plt.subplots(1, 3, figsize=(18, 6))
    for ax, mode in zip(axs, MODES):
        grid = [[rat[(mode, d, h)][0] for h in holes] for d in datas]
        im = xtbench.heatmap(ax, grid, holes, datas, cmap="RdYlGn",
                             norm=LogNorm(vmin=0.25, vmax=4), origin="lower")
        ax.set_aspect("equal")
        label_axes(ax, datas, holes, f"{mode}: best stock time / adaptive time")
    fig.colorbar(im, ax=axs, shrink=0.7, label=">1: adaptive faster")
    xtbench.save(fig, path, tight=True)


def request_map(t, cnt, path):
    plt = xtbench.pyplot("ads_report")
    if plt is None:
        return
    datas, holes = axes(t)
    fig, axs = plt.subplots(1, 3, figsize=(18, 6))
    for ax, mode in zip(axs, MODES):
        grid = [[cnt.get(("adaptive", mode, d, h), (0, 0))[0] for h in holes] for d in datas]
        ax.imshow([[math.log10(v + 1) for v in row] for row in grid], cmap="Blues", origin="lower")
        for i, d in enumerate(datas):
            for j, h in enumerate(holes):
                n = cnt.get(("naive", mode, d, h), (0, 0))[0]
                ax.text(j, i, f"{grid[i][j]:.0f}\n/{n:.0f}", ha="center", va="center", fontsize=6)
        label_axes(ax, datas, holes, f"{mode}: requests, adaptive / naive")
    xtbench.save(fig, path, tight=True)


def targets(t, rat, cnt):
    lines = []
    worst = min(rat.items(), key=lambda kv: kv[1][0])
    lines.append(f"- adaptive >= 0.9 x best stock in every cell: "
                 f"{'MET' if worst[1][0] >= 0.9 else 'MISSED'} (worst {worst[1][0]:.2f} at "
                 f"{worst[0][0]} data={human(worst[0][1])} hole={human(worst[0][2])}; "
                 f"{sum(1 for v in rat.values() if v[0] < 0.9)} of {len(rat)} cells below 0.9)")
    gm = xtbench.geomean(v[0] for v in rat.values())
    lines.append(f"- geometric mean over all cells >= 1.0: {'MET' if gm >= 1.0 else 'MISSED'} ({gm:.3f})")
    big = {k: v for k, v in rat.items() if k[2] >= 1 << 20}
    wb = min(big.items(), key=lambda kv: kv[1][1])
    lines.append(f"- >= 2 x stock enable where holes >= 1 MiB: {'MET' if wb[1][1] >= 2 else 'MISSED'} "
                 f"(worst {wb[1][1]:.2f} at {wb[0][0]} data={human(wb[0][1])} hole={human(wb[0][2])})")
    more_req = [k for k in rat if cnt.get(("adaptive",) + k, (0, 0))[0] > cnt.get(("naive",) + k, (0, 0))[0]]
    more_bytes = [k for k in rat if cnt.get(("adaptive",) + k, (0, 0))[1] > cnt.get(("enable",) + k, (0, 0))[1]]
    lines.append(f"- never more requests than naive: {'MET' if not more_req else 'MISSED'} "
                 f"({len(more_req)} cells: {more_req[:5]})")
    lines.append(f"- never more bytes moved than stock enable: {'MET' if not more_bytes else 'MISSED'} "
                 f"({len(more_bytes)} cells: {more_bytes[:5]})")
    for mode in MODES:
        sub = [v[0] for k, v in rat.items() if k[0] == mode]
        lines.append(f"- {mode}: geometric mean {xtbench.geomean(sub):.3f}, "
                     f"min {min(sub):.2f}, max {max(sub):.2f}")
    return lines


def main(csv_path, outdir):
    rows = xtbench.read_csv(csv_path)
    t = medians([r for r in rows if r["config"] == "time"])
    cnt = counts([r for r in rows if r["config"] == "count"])
    rat = ratios(t)
    heatmap(t, rat, os.path.join(outdir, "ads-heatmap.png"))
    request_map(t, cnt, os.path.join(outdir, "ads-requests.png"))
    text = "# Adaptive data sieving: noncontiguous sweep (1 rank, vector view)\n\n"
    text += "Ratios are best(stock enable, stock disable) time / adaptive time per cell " \
            "(median of the runs); > 1 means adaptive is faster.\n\n"
    text += "\n".join(targets(t, rat, cnt)) + "\n"
    with open(os.path.join(outdir, "ads-summary.md"), "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main(*sys.argv[1:3])

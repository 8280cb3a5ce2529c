#!/usr/bin/env python3
"""view_based results: from harness CSVs (btio, matrix, noncontig runs with
configs two_phase, view_based, the other candidates and enable), the median
write / read / total (write + read) time per config with its spread, the
ratio to two_phase, and the calls enable ran with each candidate.
usage: vb_summary.py CSV... [--plot PNG]  -> markdown on stdout"""
import argparse
import csv
import os
import statistics
from collections import defaultdict

CANDS = ("two_phase", "core_first", "disk_first", "view_based")
SWEEP_KEYS = ("n", "block", "elmtcount", "depth")
COLORS = {"stock": "tab:gray", "two_phase": "tab:blue", "core_first": "tab:green",
          "disk_first": "tab:red", "view_based": "tab:purple", "enable": "tab:orange"}


def load(path):
    rows = list(csv.DictReader(open(path)))
    key = next(k for k in SWEEP_KEYS if k in rows[0])
    secs = defaultdict(lambda: defaultdict(dict))   # (config, point) -> rep -> phase -> s
    runs = defaultdict(lambda: defaultdict(list))   # (point, phase) -> cand -> [calls]
    for r in rows:
        if r["phase"] not in ("write", "read"):
            continue
        secs[(r["config"], r[key])][r["rep"]][r["phase"]] = float(r["seconds"])
        if r["config"] == "enable":
            for c in CANDS:
                v = r.get("stats.features.orthrus.runs." + c)
                if v:
                    runs[(r[key], r["phase"])][c].append(int(v))
    return key, secs, runs


def med_spread(vals):
    return statistics.median(vals), min(vals), max(vals)


def table(name, key, secs, runs):
    out = [f"### {name}", "",
           f"| {key} | config | write s (min–max) | read s (min–max) | total s | "
           "write x two_phase | read x two_phase | total x two_phase |",
           "|---|---|---|---|---|---|---|---|"]
    points = sorted({p for _, p in secs}, key=lambda x: int(x))
    summary = []
    for p in points:
        base = {}
        for cfg in ("two_phase",) + tuple(c for c in ("stock",) + CANDS + ("enable",)
                                          if c != "two_phase"):
            reps = secs.get((cfg, p))
            if not reps:
                continue
            ph = {k: med_spread([reps[r][k] for r in reps if k in reps[r]])
                  for k in ("write", "read")}
            tot = statistics.median([reps[r]["write"] + reps[r]["read"] for r in reps
                                     if "write" in reps[r] and "read" in reps[r]])
            if cfg == "two_phase":
                base = {"write": ph["write"][0], "read": ph["read"][0], "total": tot}
            sp = {k: base[k] / v for k, v in (("write", ph["write"][0]),
                                              ("read", ph["read"][0]), ("total", tot))}
            out.append(f"| {p} | {cfg} | {ph['write'][0]:.3f} ({ph['write'][1]:.3f}–"
                       f"{ph['write'][2]:.3f}) | {ph['read'][0]:.3f} ({ph['read'][1]:.3f}–"
                       f"{ph['read'][2]:.3f}) | {tot:.3f} | {sp['write']:.2f} | "
                       f"{sp['read']:.2f} | {sp['total']:.2f} |")
            summary.append((p, cfg, sp))
    out.append("")
    for p in points:
        for phase in ("write", "read"):
            r = runs.get((p, phase))
            if r:
                calls = ", ".join(f"{c} {int(statistics.median(v))}" for c, v in r.items())
                out.append(f"- {key}={p} {phase}: enable ran (median calls) {calls}")
    out.append("")
    return out, summary


def plot(path, results):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, len(results), figsize=(5 * len(results), 4), squeeze=False)
    for ax, (name, summary) in zip(axes[0], results):
        labels = sorted({(p, c) for p, c, _ in summary}, key=lambda x: (int(x[0]), x[1]))
        cfgs = [c for c in ("stock",) + CANDS + ("enable",) if any(c == x[1] for x in labels)]
        pts = sorted({p for p, _ in labels}, key=int)
        w = 0.8 / len(cfgs)
        for i, c in enumerate(cfgs):
            ys = [next((s["total"] for p2, c2, s in summary if p2 == p and c2 == c), 0)
                  for p in pts]
            ax.bar([k + i * w for k in range(len(pts))], ys, w, label=c, color=COLORS[c])
        ax.axhline(1.0, color="k", lw=0.5)
        ax.set_xticks([k + 0.4 - w / 2 for k in range(len(pts))])
        ax.set_xticklabels(pts)
        ax.set_title(name)
        ax.set_ylabel("speed vs two_phase (total time, median)")
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=90)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("csv", nargs="+")
    ap.add_argument("--plot")
    a = ap.parse_args()
    lines, results = [], []
    for path in a.csv:
        name = os.path.basename(path).rsplit(".", 1)[0]
        key, secs, runs = load(path)
        t, summary = table(name, key, secs, runs)
        lines += t
        results.append((name, summary))
    print("\n".join(lines))
    if a.plot:
        plot(a.plot, results)


if __name__ == "__main__":
    main()

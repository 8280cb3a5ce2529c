#!/usr/bin/env python3
"""view_based write-behind results: from harness CSVs (configs two_phase,
vb_behind, vb_through, vb_background; phases write, write_io (the write phase
without btio's compute steps) and read, coll_perf also run), per sweep
point the median time of each phase and of write + read (total, same
repetition) with min-max, and the ratio two_phase median / config median
(higher is faster), plus the flush counters of the write-behind runs.
usage: vbwb_summary.py CSV... [--plot PNG]  -> markdown on stdout"""
import argparse
import csv
import os
import statistics
from collections import defaultdict

SWEEP_KEYS = ("n", "block")
CONFIGS = ("two_phase", "vb_behind", "vb_through", "vb_background")
FLUSHES = ("pool_full", "sync", "close", "other_call", "log_full", "call_end", "background")


def load(path):
    rows = list(csv.DictReader(open(path)))
    key = next((k for k in SWEEP_KEYS if k in rows[0]), None)
    secs = defaultdict(lambda: defaultdict(dict))   # (point, config) -> rep -> phase -> s
    flushes = defaultdict(lambda: defaultdict(list))
    for r in rows:
        point = r[key] if key else "-"
        secs[(point, r["config"])][r["rep"]][r["phase"]] = float(r["seconds"])
        for f in FLUSHES:
            v = r.get("stats.features.orthrus.vb_flushes_" + f)
            if v and r["phase"] == "write":
                flushes[(point, r["config"])][f].append(int(v))
    return key, secs, flushes


def phase_times(reps, phase):
    if phase == "total":
        return [p["write"] + p["read"] for p in reps.values() if "write" in p and "read" in p]
    return [p[phase] for p in reps.values() if phase in p]


def fmt(vals):
    return f"{statistics.median(vals):.3f} ({min(vals):.3f}-{max(vals):.3f})"


def table(name, key, secs, flushes):
    phases = sorted({ph for reps in secs.values() for p in reps.values() for ph in p})
    phases = [p for p in ("write", "write_io", "read", "run") if p in phases] + ["total"]
    out = [f"### {name}", "",
           "| " + (key or "point") + " | config | " + " | ".join(f"{p} s" for p in phases)
           + " | " + " | ".join(f"{p} x two_phase" for p in phases) + " |",
           "|---" * (2 + 2 * len(phases)) + "|"]
    ratios = {}
    for point in sorted({p for p, _ in secs}, key=lambda v: float(v) if v != "-" else 0):
        base = secs.get((point, "two_phase"))
        for c in CONFIGS:
            if (point, c) not in secs:
                continue
            cells, rs = [], []
            for ph in phases:
                t = phase_times(secs[(point, c)], ph)
                b = phase_times(base, ph) if base else []
                cells.append(fmt(t) if t else "-")
                r = statistics.median(b) / statistics.median(t) if t and b else None
                rs.append(f"{r:.2f}" if r else "-")
                ratios[(point, c, ph)] = r
            out.append(f"| {point} | {c} | " + " | ".join(cells) + " | " + " | ".join(rs) + " |")
    out.append("")
    fl = [f"{c} at {p}: " + ", ".join(f"{f} {statistics.median(v):g}" for f, v in d.items()
                                     if v and statistics.median(v))
          for (p, c), d in sorted(flushes.items()) if c != "two_phase"]
    if fl:
        out += ["Flushes per write phase (medians, summed over processes): " + "; ".join(fl), ""]
    return out, ratios


def plot(all_ratios, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    labels = sorted({(n, p, ph) for n, r in all_ratios for (p, c, ph) in r})
    fig, ax = plt.subplots(figsize=(max(6, len(labels) * 0.6), 3.5))
    by_name = dict(all_ratios)
    shown = [c for c in CONFIGS[1:] if any((p, c, ph) in r for _, r in all_ratios
                                           for (p, _c, ph) in r)]
    w = 0.8 / max(1, len(shown))
    for i, c in enumerate(shown):
        ys = [by_name[n].get((p, c, ph)) or 0 for (n, p, ph) in labels]
        ax.bar([x + w * i for x in range(len(labels))], ys, width=w, label=c)
    ax.axhline(1.0, color="gray", lw=0.8)
    ax.set_xticks([x + 0.4 - w / 2 for x in range(len(labels))])
    ax.set_xticklabels([f"{n} {p} {ph}" for (n, p, ph) in labels], rotation=60, ha="right",
                       fontsize=7)
    ax.set_ylabel("x two_phase (median time ratio)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=90)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("csv", nargs="+")
    ap.add_argument("--plot")
    a = ap.parse_args()
    lines, all_ratios = [], []
    for path in a.csv:
        name = os.path.splitext(os.path.basename(path))[0]
        key, secs, flushes = load(path)
        t, r = table(name, key, secs, flushes)
        lines += t
        all_ratios.append((name.replace("orthrus-vbwb-", ""), r))
    print("\n".join(lines))
    if a.plot:
        plot(all_ratios, a.plot)


if __name__ == "__main__":
    main()

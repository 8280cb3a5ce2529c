#!/usr/bin/env python3
"""Per-piece cost table (and bar plot) from perpiece.sh output.

usage: perpiece_report.py RESULTS.txt [PNG]
ns/piece = call time / pieces; median [min-max] over all runs of a cell.
"""
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import xtbench  # noqa: E402


def load(path):
    t = defaultdict(list)
    for line in open(path):
        if line.startswith("RESULT"):
            kv = dict(x.split("=", 1) for x in line.split()[1:])
            n = int(kv["bytes"]) // int(kv["data"])
            key = (kv.get("lib", "new"), kv["variant"], kv["mode"], int(kv["data"]), int(kv["hole"]))
            t[key].append(float(kv["seconds"]) / n * 1e9)
    return t


def main(path, png=None):
    t = load(path)
    cells = sorted({k[2:] for k in t})
    cols = [("new", "enable"), ("new", "disable"), ("new", "adaptive"), ("old", "adaptive")]
    cols = [c for c in cols if any(c + x in t for x in cells)]
    print("| mode | piece | hole | " + " | ".join(f"{v} ({lib})" for lib, v in cols) +
          " | new / best stock |")
    print("|---" * (len(cols) + 4) + "|")
    rows = []
    for c in cells:
        med = {col: xtbench.median(t[col + c]) for col in cols if col + c in t}
        cell = [f"{med[col]:.1f} [{min(t[col + c]):.0f}-{max(t[col + c]):.0f}]" for col in cols]
        best = min(med[("new", "enable")], med[("new", "disable")])
        rows.append((c, med))
        print(f"| {c[0]} | {c[1]} | {c[2]} | " + " | ".join(cell) +
              f" | {best / med[('new', 'adaptive')]:.2f} |")
    plt = xtbench.pyplot("perpiece_report") if png else None
    if plt:
        fig, ax = plt.subplots(figsize=(11, 4.5))
        w = 0.8 / len(cols)
        for i, col in enumerate(cols):
            ax.bar([x + i * w for x in range(len(rows))], [m.get(col, 0) for _, m in rows], w,
                   label=f"{col[1]} ({col[0]})")
        ax.set_xticks([x + 0.4 - w / 2 for x in range(len(rows))],
                      [f"{c[1]} B / {c[2]} B" for c, _ in rows])
        ax.set_yscale("log")
        ax.set_ylabel("ns per piece (median)")
        ax.set_xlabel("piece / hole, warm read, 1 rank")
        ax.legend()
        xtbench.save(fig, png, tight=True)


if __name__ == "__main__":
    main(*sys.argv[1:3])

#!/usr/bin/env python3
"""Orthrus in short jobs: the targets from the harness CSVs of matrix-40.json
(Matrix, 40 calls) and contig.json (IOR-like contiguous collective calls).
Whole runs (open..close), medians over reps; the spread is the min-max of the
per-rep ratios (the configs of one rep run interleaved).
usage: short_summary.py [--matrix CSV] [--contig CSV]  -> markdown on stdout"""
import argparse
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import xtbench  # noqa: E402

FORCED = ("two_phase", "core_first", "disk_first", "view_based", "independent")


def load(path, key):
    v = defaultdict(dict)       # (phase, key) -> {(config, rep): MBps}
    for r in xtbench.read_csv(path):
        if r["phase"] in ("write", "read"):
            v[(r["phase"], int(r[key]))][(r["config"], int(r["rep"]))] = float(r["MBps"])
    return v


def ratio(cell, num, den):
    """median and spread of num / den(rep) over reps; den: config name or function"""
    reps = sorted({rep for (_, rep) in cell})
    rs = []
    for rep in reps:
        d = den(rep) if callable(den) else cell.get((den, rep))
        n = cell.get((num, rep))
        if n and d:
            rs.append(n / d)
    return xtbench.median(rs), min(rs), max(rs)


def med(cell, cfg):
    return xtbench.median([v for (c, _), v in cell.items() if c == cfg])


def matrix(path):
    v = load(path, "block")
    out = ["| op | block | best forced | enable / best forced | enable / stock | "
           "stock MB/s | enable MB/s |", "|---|---|---|---|---|---|---|"]
    met = [0, 0, 0]
    for (op, b), cell in sorted(v.items()):
        forced = [c for c in FORCED if any(k[0] == c for k in cell)]
        best = max(forced, key=lambda c: med(cell, c))
        rb = ratio(cell, "enable", best)
        rs = ratio(cell, "enable", "stock")
        met = [met[0] + (rb[0] >= 0.85), met[1] + (rs[0] >= 0.95), met[2] + 1]
        out.append(f"| {op} | {b} | {best} | {rb[0]:.2f} ({rb[1]:.2f}-{rb[2]:.2f}) | "
                   f"{rs[0]:.2f} ({rs[1]:.2f}-{rs[2]:.2f}) | {med(cell, 'stock'):.0f} | "
                   f"{med(cell, 'enable'):.0f} |")
    out += ["", f"enable >= 0.85 x best forced: {met[0]} of {met[2]} cells; "
            f"enable >= 0.95 x stock: {met[1]} of {met[2]} cells (medians)"]
    return out


def contig(path):
    v = load(path, "block")
    out = ["| op | block per rank and segment | stock MB/s | cb_disable MB/s | enable MB/s | "
           "enable / stock | enable / best of stock and cb_disable |",
           "|---|---|---|---|---|---|---|"]
    for (op, b), cell in sorted(v.items()):
        best = "stock" if med(cell, "stock") >= med(cell, "cb_disable") else "cb_disable"
        rs = ratio(cell, "enable", "stock")
        rb = ratio(cell, "enable", best)
        out.append(f"| {op} | {b >> 20} MiB ({b >> 20} calls x 2 segments) | "
                   f"{med(cell, 'stock'):.0f} | {med(cell, 'cb_disable'):.0f} | "
                   f"{med(cell, 'enable'):.0f} | {rs[0]:.2f} ({rs[1]:.2f}-{rs[2]:.2f}) | "
                   f"{rb[0]:.2f} ({rb[1]:.2f}-{rb[2]:.2f}) vs {best} |")
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--matrix")
    ap.add_argument("--contig")
    a = ap.parse_args()
    if a.matrix:
        print("\n".join(["### Matrix, 40 calls, 2 ranks on 2 emulated nodes", ""] +
                        matrix(a.matrix) + [""]))
    if a.contig:
        print("\n".join(["### Contiguous collective calls (IOR-like), 2 ranks", ""] +
                        contig(a.contig) + [""]))


if __name__ == "__main__":
    main()

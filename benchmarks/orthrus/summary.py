#!/usr/bin/env python3
"""Orthrus Matrix benchmark: the issue's targets from the harness CSV.
usage: summary.py CSV  -> markdown on stdout"""
import csv, statistics, sys
from collections import defaultdict

rows = list(csv.DictReader(open(sys.argv[1])))
med = defaultdict(list)
runs = defaultdict(lambda: defaultdict(list))
for r in rows:
    med[(r["config"], r["phase"], int(r["block"]))].append(float(r["MBps"]))
    if r["config"] == "enable" and r.get("stats.features.orthrus.runs.two_phase"):
        for c in ("two_phase", "core_first", "disk_first"):
            runs[(r["phase"], int(r["block"]))][c].append(int(r["stats.features.orthrus.runs." + c]))
m = {k: statistics.median(v) for k, v in med.items()}
forced = ("two_phase", "core_first", "disk_first")
print("| op | block | enable steady / best forced steady | best forced | enable whole run / stock | calls run by enable (two_phase/core_first/disk_first, median) |")
print("|---|---|---|---|---|---|")
for op in ("write", "read"):
    for b in sorted({k[2] for k in m}):
        best = max(forced, key=lambda c: m[(c, op + "_steady", b)])
        st = m[("enable", op + "_steady", b)] / m[(best, op + "_steady", b)]
        wh = m[("enable", op, b)] / m[("stock", op, b)]
        rc = "/".join(str(int(statistics.median(runs[(op, b)][c]))) for c in forced) if runs[(op, b)] else "-"
        print(f"| {op} | {b} | {st:.2f} | {best} | {wh:.2f} | {rc} |")

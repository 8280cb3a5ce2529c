#!/usr/bin/env python3
"""ba_summary.py LOGDIR CSV... : before (_b) / after (_a) table of Orthrus's targets.
Per op and sweep value: medians over the reps; steady = calls after the skip."""
import csv, glob, json, os, statistics as st, sys
from collections import defaultdict

FORCED = ("two_phase", "core_first", "disk_first")
logdir, paths = sys.argv[1], sys.argv[2:]
rows = [r for p in paths for r in csv.DictReader(open(p))]
keys = [k for k in ("elmtcount", "depth", "block") if k in rows[0]]
key = next((k for k in keys if len({r[k] for r in rows}) > 1), keys[-1])
v = defaultdict(list)
runs = defaultdict(list)
for r in rows:
    v[(r["config"], r["phase"], int(r[key]))].append(float(r["MBps"]))
    if r["config"].startswith("enable_") and r["phase"] in ("write", "read"):
        runs[(r["config"], r["phase"], int(r[key]))].append(
            "/".join(r.get("stats.features.orthrus.runs." + c, "") or "0" for c in FORCED))


def reexams(cfg, op, point):
    """median re-examinations and losses over the reps of cfg (from the stats logs)"""
    n, lost = [], []
    for p in glob.glob(os.path.join(logdir, f"{cfg}-r*-*{key}{point}.stats.jsonl")):
        if not p.endswith(f"{key}{point}.stats.jsonl"):
            continue
        for line in open(p):
            o = json.loads(line)["features"]["orthrus"]
            for s in o["signatures"]:
                if s["op"] == op:
                    n.append(s["reexaminations"])
                    lost.append(sum(s.get("lost", {}).values()))
    return (st.median(n) if n else float("nan")), (max(lost) if lost else 0)


def med(c, ph, b):
    x = v.get((c, ph, b))
    return st.median(x) if x else float("nan")


print(f"| op | {key} | best forced (steady) | steady / best forced: before | after | "
      "whole / stock: before | after | table whole / stock: before | after | "
      "stock whole MB/s med [min-max] n | after: calls 2p/cf/df (median run) | re-exams before | after (lost max) |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
met = defaultdict(int)
ncell = 0
for op in ("write", "read"):
    for b in sorted({k[2] for k in v}):
        best = max(FORCED, key=lambda c: med(c, op + "_steady", b))
        bs = med(best, op + "_steady", b)
        sb, sa = med("enable_b", op + "_steady", b) / bs, med("enable_a", op + "_steady", b) / bs
        stk = med("stock", op, b)
        wb, wa = med("enable_b", op, b) / stk, med("enable_a", op, b) / stk
        tb, ta = med("enable_table_b", op, b) / stk, med("enable_table_a", op, b) / stk
        sx = v[("stock", op, b)]
        ra = sorted(runs[("enable_a", op, b)])
        rb_, _ = reexams("enable_b", op, b)
        ra_, la = reexams("enable_a", op, b)
        ncell += 1
        for name, x in (("sb", sb >= 0.95), ("sa", sa >= 0.95), ("wb", wb >= 0.95), ("wa", wa >= 0.95),
                        ("wb1", wb >= 1.0), ("wa1", wa >= 1.0)):
            met[name] += x
        print(f"| {op} | {b} | {best} | {sb:.2f} | {sa:.2f} | {wb:.2f} | {wa:.2f} | {tb:.2f} | {ta:.2f} | "
              f"{st.median(sx):.0f} [{min(sx):.0f}-{max(sx):.0f}] {len(sx)} | {ra[len(ra) // 2] if ra else '-'} | "
              f"{rb_:g} | {ra_:g} ({la}) |")
print(f"\nsteady >= 0.95 x best forced: before {met['sb']} of {ncell}, after {met['sa']}; "
      f"whole run >= 0.95 x stock: before {met['wb']}, after {met['wa']}; >= 1.0: before {met['wb1']}, after {met['wa1']}.")

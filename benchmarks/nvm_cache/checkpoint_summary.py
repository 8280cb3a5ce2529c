#!/usr/bin/env python3
"""The E10 checkpoint workflow's targets from the harness CSV (checkpoint.py):
per rep and config, the perceived bandwidth of the whole workflow (all files'
bytes over their write + sync + close seconds), then per compute time the
median over reps of e10-enable / cache-off, with the spread (min-max of the
per-rep ratios; reps pair the two configs run in the same rep).
usage: checkpoint_summary.py CSV  -> markdown on stdout"""
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import xtbench  # noqa: E402


def main(path):
    rows = list(xtbench.read_csv(path))
    bw = defaultdict(lambda: [0.0, 0.0])   # (compute, config, rep) -> [bytes, seconds]
    cached = defaultdict(list)
    for r in rows:
        k = (float(r["compute"]), r["config"], int(r["rep"]))
        bw[k][0] += float(r["bytes"])
        bw[k][1] += float(r["seconds"])
        c = r.get("stats.features.nvm_cache.bytes_cached")
        if c not in (None, ""):
            cached[(k[0], k[1])].append(int(float(c)))
    out = ["| compute (s) | cache-off MB/s (median) | e10-enable MB/s (median) | "
           "e10 / off (median of reps) | spread (min-max) | e10 bytes cached per file "
           "(median) |", "|---|---|---|---|---|---|"]
    for comp in sorted({k[0] for k in bw}):
        reps = sorted({k[2] for k in bw if k[0] == comp})
        off = [bw[(comp, "cache-off", r)][0] / bw[(comp, "cache-off", r)][1] / 1e6 for r in reps]
        on = [bw[(comp, "e10-enable", r)][0] / bw[(comp, "e10-enable", r)][1] / 1e6
              for r in reps]
        ratio = [b / a for a, b in zip(off, on)]
        c = cached.get((comp, "e10-enable"), [0])
        out.append(f"| {comp:g} | {xtbench.median(off):.0f} | {xtbench.median(on):.0f} | "
                   f"{xtbench.median(ratio):.2f} | {min(ratio):.2f}-{max(ratio):.2f} | "
                   f"{xtbench.median(c) / 2**20:.0f} MiB |")
    print("\n".join(out))


if __name__ == "__main__":
    main(sys.argv[1])

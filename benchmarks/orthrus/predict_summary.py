#!/usr/bin/env python3
"""Summary of benchmarks/orthrus/predict.sh's CSV (markdown on stdout).

usage: predict_summary.py PREDICT.csv

Whole run: ratio = stock's median seconds / the config's median (> 1: faster
than stock), with the min-max of the per-rep ratios (same rep, interleaved).
Steady: the config's median steady MB/s (calls after the first 12) over the
best forced candidate's median steady MB/s at 30 calls."""
import csv
import statistics
import sys


def main():
    rows = list(csv.DictReader(open(sys.argv[1])))
    by = {}
    for r in rows:
        by.setdefault((r["workload"], r["calls"], r["phase"], r["config"]), {})[r["rep"]] = r
    forced = ("two_phase", "core_first", "disk_first", "view_based")
    keys = sorted({(w, c, p) for (w, c, p, _) in by if not p.endswith("_steady")},
                  key=lambda k: (k[0], int(k[1]), k[2] != "write"))
    print("| workload | calls | op | stock s | config | median s | whole run / stock (spread) "
          "| steady MB/s | steady / best forced (best) | runs tp/cf/df/vb (median rep) | n |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for w, c, p in keys:
        stock = by.get((w, c, p, "stock"), {})
        if not stock:
            continue
        s_med = statistics.median(float(r["seconds"]) for r in stock.values())
        best, best_mbps = None, 0.0
        for f in forced:
            st = by.get((w, "30", p + "_steady", f), {})
            if st:
                m = statistics.median(float(r["MBps"]) for r in st.values())
                if m > best_mbps:
                    best, best_mbps = f, m
        for cfg in ("before", "enable"):
            runs = by.get((w, c, p, cfg), {})
            if not runs:
                continue
            med = statistics.median(float(r["seconds"]) for r in runs.values())
            ratios = sorted(float(stock[k]["seconds"]) / float(r["seconds"])
                            for k, r in runs.items() if k in stock)
            steady = by.get((w, c, p + "_steady", cfg), {})
            st_med = statistics.median(float(r["MBps"]) for r in steady.values())
            reps = sorted(runs.values(), key=lambda r: float(r["seconds"]))
            print(f"| {w} | {c} | {p} | {s_med:.3f} | {cfg} | {med:.3f} | "
                  f"{s_med / med:.2f} ({ratios[0]:.2f}-{ratios[-1]:.2f}) | {st_med:.0f} | "
                  f"{st_med / best_mbps:.2f} ({best}) | {reps[len(reps) // 2]['runs']} | "
                  f"{len(runs)} |")


if __name__ == "__main__":
    main()

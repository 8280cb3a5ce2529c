#!/usr/bin/env python3
"""Summary and plot of run-helper-cpus.sh: OUTDIR/helper-cpus.csv and
open-cost.csv -> markdown on stdout, OUTDIR/helper-cpus.png.
usage: helper_cpus.py OUTDIR NP"""
import csv
import statistics
import sys
import os

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import xtbench  # noqa: E402

CONFIGS = ("stock", "inherit", "auto")
COLUMNS = (("write", "write phase"), ("seconds", "perceived (write + sync + close)"),
           ("job", "job (write + compute + sync + close)"))


def spread(rows, config, key, skip_first=False):
    v = sorted(float(r[key]) for r in rows
               if r["config"] == config and not (skip_first and r["file"] == "0"))
    return (statistics.median(v), v[0], v[-1], len(v)) if v else None


def main():
    out, np_ = sys.argv[1], sys.argv[2]
    rows = list(csv.DictReader(open(os.path.join(out, "helper-cpus.csv"))))
    print(f"# e10_cache sync threads: own cores or idle cores ({np_} processes, busy compute)\n")
    print("Seconds per file, slowest process, median [min-max] over every file of every rep.\n")
    print("| config | " + " | ".join(t for _, t in COLUMNS) + " | n |")
    print("|---|" + "---|" * (len(COLUMNS) + 1))
    stats = {}
    for c in CONFIGS:
        cells = [spread(rows, c, k) for k, _ in COLUMNS]
        stats[c] = cells
        if cells[0]:
            print(f"| {c} | " + " | ".join("%.3f [%.3f-%.3f]" % s[:3] for s in cells) +
                  f" | {cells[0][3]} |")
    if stats["inherit"][2] and stats["auto"][2]:
        print("\nauto against inherit: job %.2fx shorter, perceived %.2fx; against stock: "
              "perceived %.2fx (inherit %.2fx)." % (
                  stats["inherit"][2][0] / stats["auto"][2][0],
                  stats["inherit"][1][0] / stats["auto"][1][0],
                  stats["stock"][1][0] / stats["auto"][1][0],
                  stats["stock"][1][0] / stats["inherit"][1][0]))
    oc = list(csv.DictReader(open(os.path.join(out, "open-cost.csv"))))
    cost = {c: spread(oc, c, "write", skip_first=True) for c in ("inherit", "auto")}
    if all(cost.values()):
        print("\nOpen + one 4 KiB collective write (the open's placement collective), ms: " +
              ", ".join("%s %.3f [%.3f-%.3f]" % (c, s[0] * 1e3, s[1] * 1e3, s[2] * 1e3)
                        for c, s in cost.items()) + ".")
    plt = xtbench.pyplot("helper_cpus")
    if plt is None:
        return
    fig, ax = plt.subplots(figsize=(7, 3.5))
    width = 0.25
    for i, c in enumerate(CONFIGS):
        med = [s[0] if s else 0 for s in stats[c]]
        err = [[s[0] - s[1] if s else 0 for s in stats[c]], [s[2] - s[0] if s else 0 for s in stats[c]]]
        ax.bar([x + (i - 1) * width for x in range(len(COLUMNS))], med, width, yerr=err,
               capsize=3, label=c)
    ax.set_xticks(range(len(COLUMNS)))
    ax.set_xticklabels([t.split(" (")[0] for _, t in COLUMNS])
    ax.set_ylabel("seconds per file (median, min-max)")
    ax.set_title(f"e10_cache sync threads, {np_} bound processes, busy compute")
    ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(out, "helper-cpus.png"), dpi=110)


if __name__ == "__main__":
    main()

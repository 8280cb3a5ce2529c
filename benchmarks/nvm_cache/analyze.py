#!/usr/bin/env python3
"""NVM write-behind benchmark: targets table and stacked time breakdown.

usage: analyze.py OUT.md OUT.png CSV...
For each workload point (phase, cb_nodes, cb_buffer_size) it reports medians
over reps and files (with min-max) of: cache-off bandwidth, perceived
bandwidth with the cache, TBW (cache on, sync not counted), and the two
targets: perceived >= 0.8 TBW when compute >= sync, perceived >= 0.9
cache-off at zero compute.  The PNG stacks, per configuration, the median
seconds per file of: write_contig (the writes that reach the file system or
the cache), shuffle+other (the rest of the write phase: open, two-phase
exchange, HDF5), not_hidden_sync (MPI_File_sync after the compute phase)
and close.
"""
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import xtbench  # noqa: E402
from xtbench import median as med  # noqa: E402


def num(x):
    return xtbench.num(x, 0.0)


def spread(vals):
    return xtbench.fmt_range(vals, "{:.0f}")


def point_key(r):
    return (r["phase"], r.get("cbn", ""), r.get("cbb", ""))


def targets(rows):
    by = defaultdict(list)
    for r in rows:
        by[point_key(r) + (r["config"], num(r["compute"]))].append(r)
    table, verdicts = [], []
    for key in sorted({point_key(r) for r in rows}):
        for compute in sorted({num(r["compute"]) for r in rows}):
            off = [num(r["MBps"]) for r in by[key + ("cache-off", compute)]]
            on = by[key + ("e10-enable", compute)]
            per = [num(r["MBps"]) for r in on]
            tbw = [num(r["TBWMBps"]) for r in on]
            sync = [num(r["sync"]) for r in on]
            if not off or not per:
                continue
            if compute > 0:
                name, ratio, goal = "perceived >= 0.8 TBW", med(per) / med(tbw), 0.8
            else:
                name, ratio, goal = "perceived >= 0.9 cache-off", med(per) / med(off), 0.9
            ok = ratio >= goal
            verdicts.append(ok)
            cbb = f"{int(num(key[2])) >> 20} MiB" if key[2] else "-"
            table.append([key[0], key[1], cbb, f"{compute:g}", spread(off), spread(per),
                          spread(tbw), f"{med(sync):.3f}", name, f"{ratio:.2f}",
                          "yes" if ok else "NO"])
    lines = [xtbench.md_table(["workload", "cb_nodes", "cb_buffer", "compute s",
                               "cache-off MB/s", "e10 perceived MB/s", "e10 TBW MB/s",
                               "sync s (e10)", "target", "ratio", "met"], table)]
    lines.append(f"targets met: {sum(verdicts)} of {len(verdicts)} points "
                 "(medians over reps x files; [min-max] per file)")
    return "\n".join(lines)


PARTS = ["write_contig", "shuffle+other", "not_hidden_sync", "close"]


def parts(r):
    contig = num(r.get("stats.ops.write_contig.time_max"))
    write = num(r["write"])
    return {"write_contig": min(contig, write), "shuffle+other": max(write - contig, 0.0),
            "not_hidden_sync": num(r["sync"]), "close": num(r["close"])}


def plot(rows, path):
    plt = xtbench.pyplot("analyze.py")
    if plt is None:
        return
    groups = defaultdict(list)
    for r in rows:
        groups[point_key(r) + (num(r["compute"]), r["config"])].append(parts(r))
    keys = sorted(groups)
    labels = [f"{k[0]} {k[1]}agg {int(num(k[2])) >> 20 if k[2] else 0}M c{k[3]:g}\n"
              f"{'off' if k[4] == 'cache-off' else 'e10'}" for k in keys]
    fig, ax = plt.subplots(figsize=(max(8, 0.45 * len(keys)), 5))
    bottom = [0.0] * len(keys)
    for part in PARTS:
        vals = [med([p[part] for p in groups[k]]) for k in keys]
        ax.bar(range(len(keys)), vals, bottom=bottom, label=part)
        bottom = [b + v for b, v in zip(bottom, vals)]
    ax.set_xticks(range(len(keys)))
    ax.set_xticklabels(labels, rotation=90, fontsize=6)
    ax.set_ylabel("seconds per file (median)")
    ax.set_title("NVM write-behind: time the application spends per file (compute excluded)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    xtbench.save(fig, path)


def main(argv):
    if len(argv) < 4:
        sys.exit(__doc__)
    rows = xtbench.read_csv(*argv[3:])
    text = targets(rows)
    with open(argv[1], "w") as f:
        f.write(text + "\n")
    print(text)
    plot(rows, argv[2])


if __name__ == "__main__":
    main(sys.argv)

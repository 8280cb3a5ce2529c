#!/usr/bin/env python3
"""Prefetch benchmark summary: runtime vs compute per read (PNG) and a
markdown table with medians, spread, change vs off, file-system requests and
the cache's peak memory, plus the targets.

usage: plot_prefetch.py OUT NAME...   (reads OUT/NAME.csv, writes
OUT/prefetch.png and OUT/prefetch-summary.md)
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import xtbench  # noqa: E402
from xtbench import num  # noqa: E402

ORDER = ["off", "willneed", "fadvise", "buffer", "announce"]
PEAK = "stats.features.prefetch.buffer_peak_bytes"
REQS = "stats.fs_requests.read.count"


def table(rows):
    """{(readers, compute): {config: [rows]}}"""
    t = {}
    for r in rows:
        key = (int(num(r["readers"])), int(num(r["compute_us"])))
        t.setdefault(key, {}).setdefault(r["config"], []).append(r)
    return t


def med(rows, col):
    vals = [num(r.get(col)) for r in rows if num(r.get(col)) is not None]
    return xtbench.median(vals) if vals else None


def spread(rows, col="seconds"):
    return xtbench.spread(num(r[col]) for r in rows)


def paired(by, c):
    """per rep (same seed, run back to back): config seconds / off seconds"""
    off = {r["rep"]: num(r["seconds"]) for r in by.get("off", [])}
    return sorted(num(r["seconds"]) / off[r["rep"]] for r in by[c] if r["rep"] in off)


def summary(name, rows):
    t = table(rows)
    lines = [f"### {name}", "",
             "| readers | compute/read (us) | config | median s | min-max s | vs off (medians) | "
             "vs off, paired per rep: median (min..max) | time in reads s | "
             "fs read requests (reader 0) | cache peak MiB (reader 0) |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for (readers, comp), by in sorted(t.items()):
        off = med(by.get("off", []), "seconds")
        for c in ORDER:
            if c not in by:
                continue
            m = med(by[c], "seconds")
            lo, hi = spread(by[c])
            vs = f"{100 * (m / off - 1):+.1f}%" if off else "-"
            pr = paired(by, c)
            pv = (f"{100 * (xtbench.median(pr) - 1):+.1f}% ({100 * (pr[0] - 1):+.0f}.."
                  f"{100 * (pr[-1] - 1):+.0f}%)") if pr else "-"
            reqs = med(by[c], REQS)
            peak = max((num(r.get(PEAK)) or 0) for r in by[c])
            lines.append(f"| {readers} | {comp} | {c} | {m:.3f} | {lo:.3f}-{hi:.3f} | {vs} | {pv} | "
                         f"{med(by[c], 'read_seconds'):.3f} | "
                         + (f"{reqs:.0f} | {peak / 2**20:.0f} |" if reqs is not None else "- | - |"))
    return t, lines


def targets(t):
    """the targets, for the single reader"""
    one = {k: v for k, v in t.items() if k[0] == 1}
    if not one:
        return []
    zero = one.get((1, 0), {})
    read_ms = med(zero.get("off", []), "per_read_ms")
    out = ["", "Targets (1 reader):", ""]
    if read_ms:
        comp = min(one, key=lambda k: abs(k[1] - 1000 * read_ms))
        by = one[comp]
        off = med(by["off"], "seconds")
        off_read = med(by["off"], "read_seconds")
        out.append(f"- off, compute {comp[1]} us: {off:.3f} s, of which {off_read:.3f} s in "
                   f"reads: no prefetcher can save more than {100 * off_read / off:.0f}% here")
        for c in ("buffer", "fadvise"):
            if c in by:
                red = 100 * (1 - med(by[c], "seconds") / off)
                pr = paired(by, c)
                out.append(f"- compute ~ read time (cold off reads take {1000 * read_ms:.0f} us "
                           f"each at zero compute; compute {comp[1]} us): {c} runtime {red:.1f}% "
                           f"lower than off (paired per rep: {100 * (1 - xtbench.median(pr)):.1f}%)"
                           f" (target >= 40%): {'met' if red >= 40 else 'missed'}")
    if "off" in zero:
        off = med(zero["off"], "seconds")
        lo, hi = spread(zero["off"])
        for c in ("buffer", "fadvise"):
            if c in zero:
                slow = 100 * (med(zero[c], "seconds") / off - 1)
                pr = paired(zero, c)
                out.append(f"- zero compute: {c} {slow:+.1f}% vs off (paired per rep: "
                           f"{100 * (xtbench.median(pr) - 1):+.1f}%) (target <= +5%; off's "
                           f"own spread {lo:.3f}-{hi:.3f} s): {'met' if slow <= 5 else 'missed'}")
    peaks = [num(r.get(PEAK)) or 0 for by in t.values() for r in by.get("buffer", [])]
    if peaks:
        out.append(f"- peak cache memory (buffer): {max(peaks) / 2**20:.0f} MiB per file "
                   f"(bound 8 x 4 MiB = 32 MiB): {'met' if max(peaks) <= 32 * 2**20 else 'missed'}")
    return out


def plot(tables, path):
    plt = xtbench.pyplot("plot_prefetch")
    if plt is None:
        return
    fig, axes = plt.subplots(1, len(tables), figsize=(6 * len(tables), 4.5), squeeze=False)
    for ax, (name, t) in zip(axes[0], tables):
        xs = sorted({k[1] for k in t})
        xtbench.lines(ax, xs, {c: [[num(r["seconds"]) for k, by in t.items()
                                    if k[1] == x for r in by.get(c, [])] for x in xs]
                               for c in ORDER},
                      "runtime, slowest reader (s; median, bars min-max)")
        readers = sorted({k[0] for k in t})
        ax.set_title(f"{name}: {', '.join(map(str, readers))} reader(s), cold file")
        ax.set_xlabel("compute per read (us)")
        ax.legend()
    fig.tight_layout()
    xtbench.save(fig, path)


def main(out, names):
    tables, lines = [], ["# Prefetch benchmark", ""]
    for name in names:
        path = os.path.join(out, name + ".csv")
        if not os.path.exists(path):
            continue
        t, l = summary(name, xtbench.read_csv(path))
        tables.append((name, t))
        lines += l + [""]
        lines += targets(t)
        lines.append("")
    plot(tables, os.path.join(out, "prefetch.png"))
    text = "\n".join(lines) + "\n"
    with open(os.path.join(out, "prefetch-summary.md"), "w") as f:
        f.write(text)
    print(text, end="")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])

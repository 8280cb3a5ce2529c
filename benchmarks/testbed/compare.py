#!/usr/bin/env python3
"""Local disk vs the MooseFS testbed, side by side.

  compare.py BENCH_OUT      (BENCH_OUT = $XT_BUILDDIR/bench-out)

For every harness CSV (columns config, rep, group keys, a metric) found both
as BENCH_OUT/<bench>/<name>.csv (local disk) and BENCH_OUT/testbed/<bench>/
<name>.csv (testbed), writes BENCH_OUT/testbed/compare/<name>.md (median per
group and config on each file system and its ratio to the first config,
normally stock) and <name>.png (two panels, same groups and configs).  The
limits (limits.py) get limits.md/.png.  Prints every table."""
import csv, os, statistics, sys

SKIP = {"config", "rep", "iter", "bytes", "seconds", "file", "run", "rc"}
METRICS = ("MBps", "runtime_s", "seconds")


def load(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def metric_of(rows):
    cols = rows[0].keys() if rows else []
    for m in METRICS:
        if m in cols:
            return m
    return None


def group_keys(rows, metric):
    """columns that name a measurement: phase plus sweep-like columns with few values"""
    keys = []
    for k in rows[0]:
        if k in SKIP or k == metric or "." in k or k.startswith(("bytes_", "fs_", "features")):
            continue
        vals = {r[k] for r in rows}
        if len(vals) <= 12 and all(len(v) < 40 for v in vals):
            keys.append(k)
    return keys


def medians(rows, metric, keys):
    out = {}
    for r in rows:
        try:
            v = float(r[metric])
        except (KeyError, ValueError):
            continue
        g = tuple(r.get(k, "") for k in keys)
        out.setdefault(g, {}).setdefault(r["config"], []).append(v)
    return {g: {c: statistics.median(v) for c, v in by.items()} for g, by in out.items()}


def table(name, metric, loc, tb, configs):
    base = configs[0]
    head = ["group", "config", f"local {metric}", f"local /{base}", f"testbed {metric}",
            f"testbed /{base}", "testbed/local"]
    lines = [f"### {name}", "", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for g in tb:
        for c in configs:
            if c not in tb[g]:
                continue
            lv, tv = loc.get(g, {}).get(c), tb[g][c]
            lb, tbb = loc.get(g, {}).get(base), tb[g].get(base)
            cells = [" ".join(g), c, f"{lv:.1f}" if lv else "-",
                     f"{lv / lb:.2f}" if lv and lb else "-", f"{tv:.1f}",
                     f"{tv / tbb:.2f}" if tbb else "-", f"{tv / lv:.2f}" if lv else "-"]
            lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def plot(name, metric, loc, tb, configs, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    groups = list(tb)
    fig, axes = plt.subplots(1, 2, figsize=(max(8, 2.2 * len(groups) + 4), 4.5), sharey=False)
    width = 0.8 / max(1, len(configs))
    for ax, (title, data) in zip(axes, (("local disk", loc), ("MooseFS testbed", tb))):
        for i, c in enumerate(configs):
            xs = [x + (i - (len(configs) - 1) / 2) * width for x in range(len(groups))]
            ys = [data.get(g, {}).get(c, 0) for g in groups]
            ax.bar(xs, ys, width, label=c)
        ax.set_xticks(range(len(groups)))
        ax.set_xticklabels(["\n".join(g) for g in groups], fontsize=7)
        ax.set_title(f"{name}: {title}")
        ax.set_ylabel(f"{metric} (median)")
        ax.grid(axis="y", alpha=0.3)
    axes[1].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def limits(bench_out, dst):
    paths = [os.path.join(bench_out, "limits", "limits.csv"),
             os.path.join(bench_out, "testbed", "limits", "limits.csv")]
    if not all(os.path.exists(p) for p in paths):
        return ""
    rows = load(paths[0]) + load(paths[1])
    med = {}
    for r in rows:
        med.setdefault((r["metric"], r["clients"], r["fs"]), []).append(float(r["value"]))
    lines = ["### file system limits (limits.py: 256 MiB per client, 1 MiB requests; "
             "4 KiB latency in us)", "",
             "| metric | clients | local median (min-max) | testbed median (min-max) | testbed/local |",
             "|---|---|---|---|---|"]
    for (m, n, fs) in sorted(med):
        if fs != "local":
            continue
        lv, tv = med[(m, n, "local")], med.get((m, n, "testbed"), [])
        if not tv:
            continue
        lines.append(f"| {m} | {n} | {statistics.median(lv):.1f} ({min(lv):.1f}-{max(lv):.1f}) | "
                     f"{statistics.median(tv):.1f} ({min(tv):.1f}-{max(tv):.1f}) | "
                     f"{statistics.median(tv) / statistics.median(lv):.2f} |")
    return "\n".join(lines) + "\n"


def main():
    bench_out = sys.argv[1]
    tbroot = os.path.join(bench_out, "testbed")
    dst = os.path.join(tbroot, "compare")
    os.makedirs(dst, exist_ok=True)
    out = [limits(bench_out, dst)]
    for bench in sorted(os.listdir(tbroot)):
        d = os.path.join(tbroot, bench)
        if bench in ("compare", "limits") or not os.path.isdir(d):
            continue
        for fn in sorted(os.listdir(d)):
            lp = os.path.join(bench_out, bench, fn)
            if not fn.endswith(".csv") or not os.path.exists(lp):
                continue
            trows, lrows = load(os.path.join(d, fn)), load(lp)
            if not trows or "config" not in trows[0]:
                continue
            metric = metric_of(trows)
            if not metric:
                continue
            keys = group_keys(trows, metric)
            configs = list(dict.fromkeys(r["config"] for r in trows))
            loc, tb = medians(lrows, metric, keys), medians(trows, metric, keys)
            name = fn[:-4]
            t = table(name, metric, loc, tb, configs)
            with open(os.path.join(dst, name + ".md"), "w") as f:
                f.write(t)
            plot(name, metric, loc, tb, configs, os.path.join(dst, name + ".png"))
            out.append(t)
    with open(os.path.join(dst, "summary.md"), "w") as f:
        f.write("\n".join(out))
    print("\n".join(out))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Local disk vs the MooseFS testbed, side by side.

  compare.py BENCH_OUT      (BENCH_OUT = $XT_BUILDDIR/bench-out)

For every harness CSV (columns config, rep, group keys, a metric) found both
as BENCH_OUT/<bench>/<name>.csv (local disk) and BENCH_OUT/testbed/<bench>/
<name>.csv (testbed), writes BENCH_OUT/testbed/compare/<name>.md (median per
group and config on each file system and its ratio to the first config,
normally stock) and <name>.png (two panels, same groups and configs).  The
limits (limits.py) get limits.md/.png.  Prints every table."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import xtbench  # noqa: E402

SKIP = {"config", "rep", "iter", "bytes", "seconds", "file", "run", "rc"}
METRICS = ("MBps", "runtime_s", "seconds")


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
    for (*g, c), v in xtbench.group([r for r in rows if xtbench.num(r.get(metric)) is not None],
                                    keys + ["config"], metric).items():
        out.setdefault(tuple(g), {})[c] = xtbench.median(v)
    return out


def table(name, metric, loc, tb, configs):
    base = configs[0]
    head = ["group", "config", f"local {metric}", f"local /{base}", f"testbed {metric}",
            f"testbed /{base}", "testbed/local"]
    rows = []
    for g in tb:
        for c in configs:
            if c not in tb[g]:
                continue
            lv, tv = loc.get(g, {}).get(c), tb[g][c]
            lb, tbb = loc.get(g, {}).get(base), tb[g].get(base)
            cells = [" ".join(g), c, f"{lv:.1f}" if lv else "-",
                     f"{lv / lb:.2f}" if lv and lb else "-", f"{tv:.1f}",
                     f"{tv / tbb:.2f}" if tbb else "-", f"{tv / lv:.2f}" if lv else "-"]
            rows.append(cells)
    return f"### {name}\n\n" + xtbench.md_table(head, rows)


def plot(name, metric, loc, tb, configs, path):
    plt = xtbench.pyplot("compare")
    if plt is None:
        return
    groups = list(tb)
    fig, axes = plt.subplots(1, 2, figsize=(max(8, 2.2 * len(groups) + 4), 4.5), sharey=False)
    for ax, (title, data) in zip(axes, (("local disk", loc), ("MooseFS testbed", tb))):
        xtbench.bars(ax, ["\n".join(g) for g in groups],
                     {c: [[data[g][c]] if c in data.get(g, {}) else None for g in groups]
                      for c in configs}, f"{metric} (median)", errors=False)
        ax.tick_params(axis="x", labelsize=7)
        ax.set_title(f"{name}: {title}")
    axes[1].legend(fontsize=7)
    fig.tight_layout()
    xtbench.save(fig, path, dpi=100)


def limits(bench_out, dst):
    paths = [os.path.join(bench_out, "limits", "limits.csv"),
             os.path.join(bench_out, "testbed", "limits", "limits.csv")]
    if not all(os.path.exists(p) for p in paths):
        return ""
    rows = xtbench.read_csv(paths[0]) + xtbench.read_csv(paths[1])
    med = xtbench.group(rows, ("metric", "clients", "fs"), "value")
    table = []
    for (m, n, fs) in sorted(med):
        if fs != "local":
            continue
        lv, tv = med[(m, n, "local")], med.get((m, n, "testbed"), [])
        if not tv:
            continue
        table.append([m, n, "{:.1f} ({:.1f}-{:.1f})".format(xtbench.median(lv), *xtbench.spread(lv)),
                      "{:.1f} ({:.1f}-{:.1f})".format(xtbench.median(tv), *xtbench.spread(tv)),
                      f"{xtbench.median(tv) / xtbench.median(lv):.2f}"])
    return ("### file system limits (limits.py: 256 MiB per client, 1 MiB requests; "
            "4 KiB latency in us)\n\n" + xtbench.md_table(
                ["metric", "clients", "local median (min-max)", "testbed median (min-max)",
                 "testbed/local"], table))


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
            trows, lrows = xtbench.read_csv(os.path.join(d, fn)), xtbench.read_csv(lp)
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

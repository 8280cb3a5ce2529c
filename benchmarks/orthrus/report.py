#!/usr/bin/env python3
"""Orthrus benchmark reports from harness CSVs (markdown on stdout).

  report.py targets CSV [--plot PNG]
      Matrix / Noncontig sweeps (run.sh matrix|matrix-depth|matrix-4m|noncontig):
      per op and sweep value, steady and tail enable over the best forced
      candidate, whole run enable (and enable_table) over stock, and the calls
      enable ran per candidate; the plot is throughput against the sweep
      (write/read x whole/steady/tail, one line per config; the paper's
      Fig. 3 / Fig. 5).  The sweep column is `block` or `depth` (Matrix) or
      `elmtcount` (Noncontig).
  report.py rounds LABEL=CSV... [--csv OUT.csv] [--plot OUT.png]
      the rounds benchmark (run.sh rounds; rounds-*.json): ratios of medians
      over the reps with the min-max of the per-rep ratios (configs run
      interleaved within a rep); LABEL names the storage.
  report.py vb CSV... [--plot PNG]
      view_based (run.sh vb): median write / read / total time per config
      with its spread, the ratio to two_phase, and the calls enable ran with
      each candidate.
"""
import argparse
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import xtbench  # noqa: E402

FORCED = ("two_phase", "core_first", "disk_first")
CANDS = FORCED + ("view_based",)
CONFIGS = ("stock",) + FORCED + ("enable", "enable_table")
RUNS = "stats.features.orthrus.runs."


# ---- targets: Matrix / Noncontig sweeps ---------------------------------------

def load_sweep(path):
    rows = xtbench.read_csv(path)
    # the swept column: the first of these with more than one value
    keys = [k for k in ("depth", "elmtcount", "block") if k in rows[0]]
    key = next((k for k in keys if len({r[k] for r in rows}) > 1), keys[-1])
    vals = xtbench.group(rows, ("config", "phase", key), "MBps")
    vals = {(c, p, int(b)): v for (c, p, b), v in vals.items()}
    runs = defaultdict(lambda: defaultdict(list))
    for r in rows:
        if r["config"] == "enable" and r.get(RUNS + "two_phase"):
            for c in FORCED:
                runs[(r["phase"], int(r[key]))][c].append(int(r[RUNS + c]))
    return key, vals, runs


def ratio_to_best(m, op, b, window):
    """enable over the best forced candidate in the window, and that candidate"""
    best = max(FORCED, key=lambda c: m[(c, op + window, b)])
    return m[("enable", op + window, b)] / m[(best, op + window, b)], best


def targets(key, vals, runs):
    m = {k: xtbench.median(v) for k, v in vals.items()}
    table = any(k[0] == "enable_table" for k in m)
    tail = any(k[1].endswith("_tail") for k in m)
    head = ["op", key, "enable steady / best forced steady", "best forced"]
    head += ["enable tail / best forced tail", "best forced (tail)"] if tail else []
    head += ["enable whole run / stock",
             "calls run by enable (two_phase/core_first/disk_first, median)"]
    head += ["enable_table whole run / stock"] if table else []
    rows, met = [], [0, 0, 0, 0, 0]
    for op in ("write", "read"):
        for b in sorted({k[2] for k in m}):
            st, best = ratio_to_best(m, op, b, "_steady")
            tl, tbest = ratio_to_best(m, op, b, "_tail") if tail else (0, "")
            wh = m[("enable", op, b)] / m[("stock", op, b)]
            wt = m[("enable_table", op, b)] / m[("stock", op, b)] if table else 0
            met = [met[0] + (st >= 0.95), met[1] + (wh >= 1.0), met[2] + 1, met[3] + (wt >= 1.0),
                   met[4] + (tl >= 0.95)]
            rc = "/".join(str(int(xtbench.median(runs[(op, b)][c]))) for c in FORCED) \
                if runs[(op, b)] else "-"
            rows.append([op, b, f"{st:.2f}", best] + ([f"{tl:.2f}", tbest] if tail else []) +
                        [f"{wh:.2f}", rc] + ([f"{wt:.2f}"] if table else []))
    out = xtbench.md_table(head, rows)
    out += ("\n" + f"steady enable >= 0.95 x best forced: met in {met[0]} of {met[2]} cells; " +
            (f"tail (the last third of the calls) enable >= 0.95 x best forced: met in "
             f"{met[4]} of {met[2]}; " if tail else "") +
            f"whole run enable >= stock: met in {met[1]} of {met[2]}" +
            (f"; with the saved table: {met[3]} of {met[2]}." if table else ".") + "\n")
    return out


def plot_sweep(key, vals, path):
    plt = xtbench.pyplot("orthrus")
    if plt is None:
        return
    xs = sorted({k[2] for k in vals})
    windows = [w for w in ("", "_steady", "_tail") if any(k[1].endswith(w) for k in vals)]
    titles = {"": "whole run", "_steady": "steady: calls after the first 9",
              "_tail": "tail: the last third of the calls"}
    styles = {c: {"lw": 2.2 if c.startswith("enable") else 1.2,
                  "color": {"enable": "black", "enable_table": "grey"}.get(c),
                  "ls": "--" if c in ("stock", "enable_table") else "-"} for c in CONFIGS}
    fig, axes = plt.subplots(len(windows), 2, figsize=(11, 4 * len(windows)), sharex=True,
                             squeeze=False)
    for ax, (op, suffix) in zip(axes.flat, [(o, s) for s in windows for o in ("write", "read")]):
        xtbench.lines(ax, xs, {c: [vals.get((c, op + suffix, x)) for x in xs] for c in CONFIGS},
                      "MB/s (median; bars: min-max)", styles)
        ax.set_xscale("log", base=2)
        ax.set_title(f"{op} ({titles[suffix]})")
    for ax in axes[-1]:
        ax.set_xlabel(key)
    axes[0, 0].legend(fontsize=8)
    fig.tight_layout()
    xtbench.save(fig, path)


# ---- rounds -------------------------------------------------------------------

PARAMS = ("block", "elmtcount")


def load_rounds(label, path):
    """{cell: {config: {rep: row}}}; a cell is (workload, storage, param, calls, op)"""
    cells = defaultdict(lambda: defaultdict(dict))
    for r in xtbench.read_csv(path):
        key = next(k for k in PARAMS if r.get(k))
        work = "matrix" if key == "block" else "noncontig"
        calls = int(r.get("calls") or 40)
        cells[(work, label, f"{key}={r[key]}", calls, r["phase"])][r["config"]][r["rep"]] = r
    return cells


def paired_ratio(cell, a, b):
    """median(a)/median(b), and the min-max of the per-rep ratios"""
    med = [xtbench.median(float(r["MBps"]) for r in cell[c].values()) for c in (a, b)]
    reps = [float(cell[a][k]["MBps"]) / float(cell[b][k]["MBps"])
            for k in cell[a] if k in cell[b]]
    return (med[0] / med[1], *xtbench.spread(reps))


def enable_runs(cell):
    """calls run per candidate by enable (median over reps)"""
    out = []
    for c in CANDS:
        v = [int(r.get(RUNS + c) or 0) for r in cell["enable"].values()]
        out.append(str(int(xtbench.median(v))) if v else "-")
    return "/".join(out)


def fmt3(t):
    return f"{t[0]:.2f} ({t[1]:.2f}-{t[2]:.2f})"


def rounds(cells):
    table, rows, met = [], [], defaultdict(lambda: [0, 0])
    for (work, st, pat, calls, op), cell in sorted(cells.items()):
        if op.endswith("_steady"):
            continue
        steady = cells[(work, st, pat, calls, op + "_steady")]
        best = max(CANDS, key=lambda c: xtbench.median(
            float(r["MBps"]) for r in steady[c].values()))
        whole = paired_ratio(cell, "enable", "stock")
        st_best = paired_ratio(steady, "enable", best)
        gain = paired_ratio(steady, best, "stock")
        stock = xtbench.median(float(r["MBps"]) for r in cell["stock"].values())
        table.append([work, st, pat, calls, op, f"{stock:.1f}", fmt3(whole), best, fmt3(gain),
                      fmt3(st_best), enable_runs(cell)])
        want = 1.0 if calls >= 100 else 0.95
        for name, ok in (("whole", whole[0] >= want), ("steady", st_best[0] >= 0.95),
                         ("gain", whole[0] >= 1.2)):
            met[name][0] += ok
            met[name][1] += 1
        rows.append({"workload": work, "storage": st, "pattern": pat, "calls": calls, "op": op,
                     "stock_MBps": f"{stock:.2f}", "enable_over_stock": f"{whole[0]:.3f}",
                     "enable_over_stock_min": f"{whole[1]:.3f}",
                     "enable_over_stock_max": f"{whole[2]:.3f}", "best_forced": best,
                     "best_over_stock_steady": f"{gain[0]:.3f}",
                     "enable_over_best_steady": f"{st_best[0]:.3f}",
                     "enable_over_best_steady_min": f"{st_best[1]:.3f}",
                     "enable_over_best_steady_max": f"{st_best[2]:.3f}",
                     "enable_runs": enable_runs(cell)})
    text = xtbench.md_table(
        ["workload", "storage", "pattern", "calls", "op", "stock MB/s",
         "enable whole run / stock", "best forced steady", "best / stock steady",
         "enable steady / best forced steady", "calls run by enable (tp/cf/df/vb)"], table)
    text += "\n".join(["", f"- whole run enable >= 0.95 x stock (>= 1.0 at >= 100 calls): "
                       f"{met['whole'][0]} of {met['whole'][1]} cells",
                       f"- steady enable >= 0.95 x best forced: {met['steady'][0]} of "
                       f"{met['steady'][1]}",
                       f"- whole run enable >= 1.2 x stock: {met['gain'][0]} of "
                       f"{met['gain'][1]}"]) + "\n"
    return text, rows


def plot_rounds(rows, path):
    plt = xtbench.pyplot("orthrus")
    if plt is None:
        return
    labels = [f"{r['workload'][:6]} {r['storage']}\n{r['pattern']}\n{r['calls']} {r['op']}"
              for r in rows]
    x = range(len(rows))
    fig, ax = plt.subplots(figsize=(max(8, 0.75 * len(rows) + 2), 5))
    for i, (key, name) in enumerate((("enable_over_stock", "enable / stock, whole run"),
                                     ("best_over_stock_steady", "best forced / stock, steady"),
                                     ("enable_over_best_steady", "enable / best forced, steady"))):
        v = [float(r[key]) for r in rows]
        lo = [v[j] - float(rows[j].get(key + "_min", v[j])) for j in x]
        hi = [float(rows[j].get(key + "_max", v[j])) - v[j] for j in x]
        ax.bar([j + (i - 1) * 0.27 for j in x], v, 0.27, yerr=[lo, hi], capsize=2, label=name)
    ax.set_yscale("log")
    ax.set_ylim(0.05, 20)
    ax.axhline(0.95, color="k", lw=0.8, ls="--")
    ax.axhline(1.2, color="g", lw=0.8, ls=":")
    ax.set_xticks(list(x))
    ax.set_xticklabels(labels, fontsize=7)
    ax.set_ylabel("ratio of medians, log (bars: per-rep min-max)")
    ax.set_title("Orthrus in rounds: 2 ranks on 2 emulated nodes, 3 interleaved reps")
    ax.legend(fontsize=8)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    xtbench.save(fig, path, dpi=100)


# ---- view_based ---------------------------------------------------------------

SWEEP_KEYS = ("n", "block", "elmtcount", "depth")
COLORS = {"stock": "tab:gray", "two_phase": "tab:blue", "core_first": "tab:green",
          "disk_first": "tab:red", "view_based": "tab:purple", "enable": "tab:orange"}


def load_vb(path):
    rows = xtbench.read_csv(path)
    key = next(k for k in SWEEP_KEYS if k in rows[0])
    secs = defaultdict(lambda: defaultdict(dict))   # (config, point) -> rep -> phase -> s
    runs = defaultdict(lambda: defaultdict(list))   # (point, phase) -> cand -> [calls]
    for r in rows:
        if r["phase"] not in ("write", "read"):
            continue
        secs[(r["config"], r[key])][r["rep"]][r["phase"]] = float(r["seconds"])
        if r["config"] == "enable":
            for c in CANDS:
                v = r.get(RUNS + c)
                if v:
                    runs[(r[key], r["phase"])][c].append(int(v))
    return key, secs, runs


def vb_table(name, key, secs, runs):
    points = sorted({p for _, p in secs}, key=int)
    table, summary, notes = [], [], []
    for p in points:
        base = {}
        for cfg in ("two_phase",) + tuple(c for c in ("stock",) + CANDS + ("enable",)
                                          if c != "two_phase"):
            reps = secs.get((cfg, p))
            if not reps:
                continue
            ph = {k: [reps[r][k] for r in reps if k in reps[r]] for k in ("write", "read")}
            med = {k: xtbench.median(v) for k, v in ph.items()}
            tot = xtbench.median([reps[r]["write"] + reps[r]["read"] for r in reps
                                     if "write" in reps[r] and "read" in reps[r]])
            if cfg == "two_phase":
                base = {"write": med["write"], "read": med["read"], "total": tot}
            sp = {k: base[k] / v for k, v in (("write", med["write"]), ("read", med["read"]),
                                              ("total", tot))}
            rng = {k: "{:.3f} ({:.3f}–{:.3f})".format(med[k], *xtbench.spread(ph[k]))
                   for k in ph}
            table.append([p, cfg, rng["write"], rng["read"], f"{tot:.3f}",
                          f"{sp['write']:.2f}", f"{sp['read']:.2f}", f"{sp['total']:.2f}"])
            summary.append((p, cfg, sp))
    for p in points:
        for phase in ("write", "read"):
            r = runs.get((p, phase))
            if r:
                calls = ", ".join(f"{c} {int(xtbench.median(v))}" for c, v in r.items())
                notes.append(f"- {key}={p} {phase}: enable ran (median calls) {calls}")
    out = [f"### {name}", "", xtbench.md_table(
        [key, "config", "write s (min–max)", "read s (min–max)", "total s", "write x two_phase",
         "read x two_phase", "total x two_phase"], table).rstrip(), ""] + notes + [""]
    return out, summary


def plot_vb(path, results):
    plt = xtbench.pyplot("orthrus")
    if plt is None:
        return
    fig, axes = plt.subplots(1, len(results), figsize=(5 * len(results), 4), squeeze=False)
    for ax, (name, summary) in zip(axes[0], results):
        labels = sorted({(p, c) for p, c, _ in summary}, key=lambda x: (int(x[0]), x[1]))
        cfgs = [c for c in ("stock",) + CANDS + ("enable",) if any(c == x[1] for x in labels)]
        pts = sorted({p for p, _ in labels}, key=int)
        total = {(p, c): s["total"] for p, c, s in summary}
        xtbench.bars(ax, pts, {c: [[total[(p, c)]] if (p, c) in total else None for p in pts]
                               for c in cfgs},
                     "speed vs two_phase (total time, median)", errors=False, colors=COLORS)
        ax.axhline(1.0, color="k", lw=0.5)
        ax.grid(False)
        ax.set_title(name)
        ax.legend(fontsize=7)
    fig.tight_layout()
    xtbench.save(fig, path, dpi=90)


# ---- command line -------------------------------------------------------------

def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="what", required=True)
    t = sub.add_parser("targets", help="Matrix / Noncontig sweep targets")
    t.add_argument("csv")
    t.add_argument("--plot", help="write the throughput-vs-sweep plot here")
    r = sub.add_parser("rounds", help="the rounds benchmark")
    r.add_argument("inputs", nargs="+", help="LABEL=CSV")
    r.add_argument("--csv")
    r.add_argument("--plot")
    v = sub.add_parser("vb", help="view_based against the other candidates")
    v.add_argument("csv", nargs="+")
    v.add_argument("--plot")
    a = p.parse_args(argv)
    if a.what == "targets":
        key, vals, runs = load_sweep(a.csv)
        print(targets(key, vals, runs), end="")
        if a.plot:
            plot_sweep(key, vals, a.plot)
    elif a.what == "rounds":
        cells = defaultdict(lambda: defaultdict(dict))
        for item in a.inputs:
            label, path = item.split("=", 1)
            cells.update(load_rounds(label, path))
        text, rows = rounds(cells)
        print(text)
        if a.csv:
            xtbench.write_csv(rows, a.csv)
        if a.plot:
            plot_rounds(rows, a.plot)
    else:
        lines, results = [], []
        for path in a.csv:
            name = os.path.basename(path).rsplit(".", 1)[0]
            t, summary = vb_table(name, *load_vb(path))
            lines += t
            results.append((name, summary))
        print("\n".join(lines))
        if a.plot:
            plot_vb(a.plot, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())

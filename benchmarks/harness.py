#!/usr/bin/env python3
"""romio-xt benchmark harness.

Runs an MPI workload under several named hint sets ("configs"), repetitions
and optional sweep parameters.  The workload prints lines
    RESULT key=value key=value ...
on stdout; each one becomes a CSV row.  A RESULT line with file=PATH is
joined with the next unused romio-xt stats record for that file.  Writes
<name>.csv, <name>.png and <name>.md to the output directory and prints the
markdown table.  Exits non-zero if any run fails.  See benchmarks/README.md.
"""
import argparse
import fnmatch
import itertools
import json
import os
import shutil
import sys

import xtbench
from xtbench import RunError, execute, parse_results, tail, write_csv, write_hints  # noqa: F401

DEFAULTS = {
    "name": "bench",
    "workload": None,       # {"source": "x.c", "cflags": [], "ldflags": []} or {"command": "path"}
    "args": [],             # workload arguments; "{workdir}", "{rep}", "{config}", sweep names
    "ranks": 2,
    "reps": 3,
    "timeout": 300,         # seconds per run
    "mpiexec_args": [],
    "env": {},              # extra environment for every run
    "configs": [{"name": "stock", "hints": {}}],    # each: name, hints, optional env
    "sweep": {},            # name -> list of values; runs the product of all lists
    "metric": "MBps",       # RESULT key summarised in the plot and the table
    "group_by": ["phase"],  # RESULT keys that name a measurement (plus sweep names)
    "stats_fields": ["bytes_read", "bytes_written", "fs_requests.*", "features.*"],
    "plot": True,           # the generic bar plot (benchmarks with many groups draw their own)
    "order": "shuffle",     # configs' order within a rep: "shuffle" (seeded by rep and point) or "fixed"
}
# ---- configuration --------------------------------------------------------

def load_config(path):
    """A .json file, or a .py file that defines CONFIG; merged over DEFAULTS."""
    with open(path) as f:
        text = f.read()
    if path.endswith(".py"):
        scope = {"__file__": path}
        exec(compile(text, path, "exec"), scope)
        user = scope["CONFIG"]
    else:
        user = json.loads(text)
    unknown = set(user) - set(DEFAULTS)
    if unknown:
        raise SystemExit(f"harness: {path}: unknown config keys {sorted(unknown)}")
    cfg = dict(DEFAULTS, **user)
    cfg["base_dir"] = os.path.dirname(os.path.abspath(path))
    return cfg


def sweep_points(sweep):
    names = list(sweep)
    return [dict(zip(names, values)) for values in itertools.product(*sweep.values())]


def fill(template, ctx):
    return str(template).format(**ctx)


# ---- building and running ---------------------------------------------------

def build_workload(cfg, prefix, bindir):
    wl = cfg["workload"] or {}
    if "command" in wl:
        return fill(wl["command"], {"prefix": prefix})
    if "source" not in wl:
        raise SystemExit("harness: config needs workload.source or workload.command")
    src = os.path.join(cfg["base_dir"], wl["source"])
    exe = os.path.join(bindir, os.path.splitext(os.path.basename(src))[0])
    try:
        return xtbench.mpicc(prefix, src, exe, wl.get("cflags", ["-O2"]), wl.get("ldflags", []))
    except SystemExit as e:
        raise SystemExit(f"harness: building the workload failed: {e}")


def expects_stats(config):
    return (config.get("hints", {}).get("romio_xt_stats") == "enable"
            or config.get("env", {}).get("ROMIO_XT_STATS") == "1")


def run_env(cfg, config, ctx, prefix, hints_file, stats_file):
    env = xtbench.clean_env(prefix)
    for key, value in {**cfg["env"], **config.get("env", {})}.items():
        env[key] = fill(value, ctx)
    if hints_file:
        env["ROMIO_HINTS"] = hints_file
    env["ROMIO_XT_STATS_FILE"] = stats_file
    return env


# ---- parsing ---------------------------------------------------------------

def parse_stats(path):
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [json.loads(line) for line in f if line.startswith("{")]


def flatten(record, prefix=""):
    flat = {}
    for key, value in record.items():
        if isinstance(value, dict):
            flat.update(flatten(value, f"{prefix}{key}."))
        elif not isinstance(value, list):
            flat[prefix + key] = value
    return flat


def attach_stats(results, records, patterns):
    """Join each RESULT with file=F to the next unused stats record for F."""
    unused = list(records)
    missing = 0
    for row in results:
        if "file" not in row:
            continue
        match = next((r for r in unused if r.get("file") == row["file"]), None)
        if match is None:
            missing += 1
            continue
        unused.remove(match)
        for key, value in flatten(match).items():
            if any(fnmatch.fnmatchcase(key, p) for p in patterns):
                row["stats." + key] = value
    return missing


def run_once(cfg, exe, config, rep, point, dirs, prefix):
    label = "-".join([config["name"], f"r{rep}", *(f"{k}{v}" for k, v in point.items())])
    workdir = os.path.join(dirs["work"], label)
    shutil.rmtree(workdir, ignore_errors=True)
    os.makedirs(workdir)
    ctx = dict(point, workdir=workdir, rep=rep, config=config["name"])
    hints = {k: fill(v, ctx) for k, v in config.get("hints", {}).items()}
    hints_file = write_hints(os.path.join(dirs["logs"], label + ".hints"), hints)
    stats_file = os.path.join(dirs["logs"], label + ".stats.jsonl")
    if os.path.exists(stats_file):
        os.remove(stats_file)
    env = run_env(cfg, config, ctx, prefix, hints_file, stats_file)
    cmd = [os.path.join(prefix, "bin", "mpiexec"), *cfg["mpiexec_args"], "-n",
           str(cfg["ranks"]), exe, *(fill(a, ctx) for a in cfg["args"])]
    out, err, problem = execute(cmd, env, cfg["timeout"])
    shutil.rmtree(workdir, ignore_errors=True)
    with open(os.path.join(dirs["logs"], label + ".out"), "w") as f:
        f.write(f"$ {' '.join(cmd)}\n{out}{err}")
    if problem:
        raise RunError("\n".join(filter(None, [problem, tail(err or out)])))
    results = parse_results(out)
    if not results:
        raise RunError("\n".join(filter(None, ["no RESULT lines on stdout", tail(out + err)])))
    missing = attach_stats(results, parse_stats(stats_file), cfg["stats_fields"])
    if missing and expects_stats(config):
        raise RunError(f"stats enabled but {missing} RESULT lines have no stats record")
    base = {"config": config["name"], "rep": rep, **point}
    return [dict(base, **r) for r in results]


def run_all(cfg, exe, dirs, prefix):
    """Reps outermost, configs innermost, so drift hits every config alike;
    the configs' order within a rep is shuffled, seeded by rep and sweep
    point (xtbench.config_order), unless cfg["order"] is "fixed"."""
    return xtbench.run_interleaved(
        cfg["configs"], cfg["reps"],
        lambda config, rep, point: run_once(cfg, exe, config, rep, point, dirs, prefix),
        sweep_points(cfg["sweep"]), cfg.get("order", "shuffle"), prog="harness")


# ---- output ----------------------------------------------------------------

def summarize(rows, cfg):
    """{group: {config: [metric values]}}, groups in order of appearance."""
    keys = cfg["group_by"] + list(cfg["sweep"])
    groups = {}
    for row in rows:
        if cfg["metric"] not in row:
            continue
        group = tuple(row.get(k, "") for k in keys)
        groups.setdefault(group, {}).setdefault(row["config"], []).append(row[cfg["metric"]])
    return keys, groups


def markdown(keys, groups, names, metric):
    base = names[0]
    head = keys + [f"{n} {metric}" for n in names] + [f"{n}/{base}" for n in names[1:]]
    rows = []
    for group, by_config in groups.items():
        med = {n: xtbench.median(by_config[n]) for n in names if n in by_config}
        cells = [str(g) for g in group] + [f"{med[n]:.1f}" if n in med else "-" for n in names]
        cells += [f"{med[n] / med[base]:.3f}" if n in med and med.get(base) else "-"
                  for n in names[1:]]
        rows.append(cells)
    return xtbench.md_table(head, rows)


def plot(keys, groups, names, cfg, path):
    plt = xtbench.pyplot("harness")
    if plt is None:
        return
    labels = ["\n".join(str(g) for g in group) for group in groups]
    fig, ax = plt.subplots(figsize=(max(6, 1.3 * len(labels) + 2), 4.5))
    xtbench.bars(ax, labels, {n: [by.get(n) for by in groups.values()] for n in names},
                 f"{cfg['metric']} (median; bars: min-max)")
    n = max(len(v) for by_config in groups.values() for v in by_config.values())
    ax.set_title(f"{cfg['name']}: {cfg['ranks']} ranks, up to {n} samples per bar")
    ax.legend()
    fig.tight_layout()
    xtbench.save(fig, path)


def write_outputs(rows, cfg, out):
    base = os.path.join(out, cfg["name"])
    write_csv(rows, base + ".csv")
    names = [c["name"] for c in cfg["configs"]]
    keys, groups = summarize(rows, cfg)
    table = markdown(keys, groups, names, cfg["metric"])
    with open(base + ".md", "w") as f:
        f.write(table)
    if cfg.get("plot", True) and len(groups) <= 60:
        plot(keys, groups, names, cfg, base + ".png")
    else:
        print(f"harness: no generic plot ({len(groups)} groups); the benchmark plots its own",
              file=sys.stderr)
    return table


# ---- command line ----------------------------------------------------------

def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--config", required=True, help="JSON file, or .py defining CONFIG")
    p.add_argument("--prefix", default=os.environ.get("XT_PREFIX", "/tmp/xtb/install"),
                   help="MPICH install prefix (bin/mpicc, bin/mpiexec)")
    p.add_argument("--out", required=True, help="directory for csv, png, md and logs")
    p.add_argument("--work", help="directory for the workload's files (default OUT/work)")
    p.add_argument("--reps", type=int, help="override the config's reps")
    p.add_argument("--ranks", type=int, help="override the config's ranks")
    p.add_argument("--only", help="comma list of config names to run")
    p.add_argument("--order", choices=("shuffle", "fixed"),
                   help="configs' order within a rep (default: the config's \"order\", "
                   "else shuffle, seeded by rep and sweep point)")
    return p.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    vm = xtbench.page_reporting("harness")
    cfg = load_config(args.config)
    for key in ("reps", "ranks"):
        if getattr(args, key):
            cfg[key] = getattr(args, key)
    if args.order:
        cfg["order"] = args.order
    if args.only:
        cfg["configs"] = [c for c in cfg["configs"] if c["name"] in args.only.split(",")]
    dirs = {"work": os.path.abspath(args.work or os.path.join(args.out, "work")),
            "logs": os.path.abspath(os.path.join(args.out, "logs"))}
    for d in dirs.values():
        os.makedirs(d, exist_ok=True)
    exe = build_workload(cfg, args.prefix, os.path.join(args.out, "bin"))
    rows, failures = run_all(cfg, exe, dirs, args.prefix)
    if rows:
        print(write_outputs(rows, cfg, args.out), end="")
        with open(os.path.join(args.out, cfg["name"] + ".md"), "a") as f:
            f.write(f"\nfree page reporting (xtbench.page_reporting): {vm}\n")
    if failures:
        print(f"harness: {len(failures)} run(s) failed: {', '.join(failures)}; "
              f"logs in {dirs['logs']}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

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
import csv
import fnmatch
import itertools
import json
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import time

import xt_vm

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
SCRUBBED_ENV = ("ROMIO_HINTS", "ROMIO_XT_STATS", "ROMIO_XT_STATS_FILE")


class RunError(Exception):
    pass


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
    os.makedirs(bindir, exist_ok=True)
    cmd = [os.path.join(prefix, "bin", "mpicc"), *wl.get("cflags", ["-O2"]), "-o", exe, src,
           *wl.get("ldflags", [])]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"harness: building the workload failed: {' '.join(cmd)}\n"
                         f"{proc.stdout}{proc.stderr}")
    return exe


def write_hints(path, hints):
    """ROMIO_HINTS file for a non-empty hint set; None for stock ROMIO."""
    if not hints:
        return None
    with open(path, "w") as f:
        f.writelines(f"{key} {value}\n" for key, value in hints.items())
    return path


def expects_stats(config):
    return (config.get("hints", {}).get("romio_xt_stats") == "enable"
            or config.get("env", {}).get("ROMIO_XT_STATS") == "1")


def run_env(cfg, config, ctx, prefix, hints_file, stats_file):
    env = {k: v for k, v in os.environ.items() if k not in SCRUBBED_ENV}
    env["LD_LIBRARY_PATH"] = os.pathsep.join(
        p for p in (os.path.join(prefix, "lib"), env.get("LD_LIBRARY_PATH")) if p)
    for key, value in {**cfg["env"], **config.get("env", {})}.items():
        env[key] = fill(value, ctx)
    if hints_file:
        env["ROMIO_HINTS"] = hints_file
    env["ROMIO_XT_STATS_FILE"] = stats_file
    return env


def execute(cmd, env, timeout):
    """Run cmd in its own process group, killed on timeout: (stdout, stderr, problem)."""
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            out, err = proc.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            out, err = proc.communicate()
        return out, err, f"timed out after {timeout} s"
    return out, err, proc.returncode and f"exit status {proc.returncode}"


def tail(text, lines=15):
    return "\n".join(("    " + l) for l in (text or "").strip().splitlines()[-lines:])


# ---- parsing ---------------------------------------------------------------

def parse_value(text):
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def parse_results(stdout):
    rows = []
    for line in stdout.splitlines():
        if line.startswith("RESULT "):
            pairs = (item.split("=", 1) for item in line.split()[1:] if "=" in item)
            rows.append({key: parse_value(value) for key, value in pairs})
    return rows


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


def config_order(cfg, rep, point):
    """The configs in the order one rep runs them at one sweep point: shuffled
    (seeded by rep and point, so a rerun repeats it) unless cfg["order"] is
    "fixed".  A fixed order puts each config after the same neighbour every
    rep, and cold reads here depend on what ran before (page cache,
    read-ahead, writeback): in the Orthrus sweeps enable always followed
    disk_first.  Shuffled, such an effect shows as spread, not as a bias."""
    configs = list(cfg["configs"])
    if cfg.get("order", "shuffle") == "fixed":
        return configs
    seed = f"{rep}:" + ",".join(f"{k}={v}" for k, v in sorted(point.items()))
    random.Random(seed).shuffle(configs)
    return configs


def run_all(cfg, exe, dirs, prefix):
    """Reps outermost, configs innermost, so drift hits every config alike;
    the configs' order within a rep is shuffled (config_order)."""
    rows, failures = [], []
    points = sweep_points(cfg["sweep"])
    for rep, point in itertools.product(range(1, cfg["reps"] + 1), points):
        for slot, config in enumerate(config_order(cfg, rep, point)):
            what = f"{config['name']} rep {rep}/{cfg['reps']}" + "".join(
                f" {k}={v}" for k, v in point.items())
            start = time.time()
            try:
                rows += [dict(r, slot=slot) for r in
                         run_once(cfg, exe, config, rep, point, dirs, prefix)]
                print(f"harness: {what}: ok ({time.time() - start:.1f} s)", file=sys.stderr)
            except RunError as e:
                failures.append(what)
                print(f"harness: {what}: FAILED: {e}", file=sys.stderr)
    return rows, failures


# ---- output ----------------------------------------------------------------

def write_csv(rows, path):
    columns = []
    for row in rows:
        columns += [key for key in row if key not in columns]
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=columns)
        writer.writeheader()
        writer.writerows(rows)


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
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for group, by_config in groups.items():
        med = {n: statistics.median(by_config[n]) for n in names if n in by_config}
        cells = [str(g) for g in group] + [f"{med[n]:.1f}" if n in med else "-" for n in names]
        cells += [f"{med[n] / med[base]:.3f}" if n in med and med.get(base) else "-"
                  for n in names[1:]]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def plot(keys, groups, names, cfg, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("harness: warning: matplotlib missing, no plot", file=sys.stderr)
        return
    labels = ["\n".join(str(g) for g in group) for group in groups]
    width = 0.8 / len(names)
    fig, ax = plt.subplots(figsize=(max(6, 1.3 * len(labels) + 2), 4.5))
    for i, name in enumerate(names):
        shift = (i - (len(names) - 1) / 2) * width
        present = [(x, sorted(by_config[name])) for x, by_config in enumerate(groups.values())
                   if name in by_config]
        xs = [x + shift for x, _ in present]
        med = [statistics.median(v) for _, v in present]
        err = [[m - v[0] for m, (_, v) in zip(med, present)],
               [v[-1] - m for m, (_, v) in zip(med, present)]]
        ax.bar(xs, med, width, yerr=err, capsize=3, label=name)
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels(labels)
    ax.set_ylabel(f"{cfg['metric']} (median; bars: min-max)")
    n = max(len(v) for by_config in groups.values() for v in by_config.values())
    ax.set_title(f"{cfg['name']}: {cfg['ranks']} ranks, up to {n} samples per bar")
    ax.legend()
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


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
    vm = xt_vm.page_reporting("harness")
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
            f.write(f"\nfree page reporting (benchmarks/xt_vm.py): {vm}\n")
    if failures:
        print(f"harness: {len(failures)} run(s) failed: {', '.join(failures)}; "
              f"logs in {dirs['logs']}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

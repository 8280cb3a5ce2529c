#!/usr/bin/env python3
"""romio-xt real-client benchmark: FLASH-IO (PnetCDF) and ROMIO's coll_perf
(and IOR when given) under stock ROMIO, each extension alone and all at once.

Reps outermost, clients, then configs innermost, so drift hits every config
alike.  Every run's output files are compared with stock's of the same rep:
FLASH-IO's checkpoint and plot files with ncmpidiff on every variable (their
headers carry a creation time), coll_perf's and IOR's files byte for byte.
Writes apps.csv, apps.md and apps.png to --out and prints the table; exits 1
if a run fails or a file differs.  Clients whose binaries are missing are
named on stderr and in the table's notes (scripts/build-apps.sh builds them).
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import xtbench  # noqa: E402

E10_DIR = "/dev/shm/romio-xt-bench-e10"
CONFIGS = [
    {"name": "stock", "hints": {}},
    {"name": "ds_adaptive", "hints": {"romio_ds_read": "adaptive", "romio_ds_write": "adaptive"}},
    {"name": "orthrus", "hints": {"romio_orthrus": "enable", "romio_xt_stats": "enable"}},
    {"name": "e10_cache", "hints": {"e10_cache": "enable", "e10_cache_path": E10_DIR}},
    {"name": "prefetch", "hints": {"romio_prefetch": "enable"}},
    {"name": "all", "hints": {"romio_ds_read": "adaptive", "romio_ds_write": "adaptive",
                              "romio_orthrus": "enable", "e10_cache": "enable",
                              "e10_cache_path": E10_DIR, "romio_prefetch": "enable",
                              "romio_xt_stats": "enable"}},
]
FLASH_FILES = ("ncmpi_chk_0000.nc", "ncmpi_plt_cnt_0000.nc", "ncmpi_plt_crn_0000.nc")


# ---- clients: command, output parsing, output files --------------------------

def flash_client(apps, block):
    exe = os.path.join(apps, "bin", f"flash_io_{block}")

    def parse(out):
        m = re.search(r"^\s*(\d+)\s+(\d+) x\s+(\d+) x\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s*$", out, re.M)
        amount = re.search(r"Total I/O amount\s*:\s*([\d.]+)", out)
        if not m or not amount:
            return None
        chk = re.search(r"checkpoint time\s*:\s*([\d.]+)", out)
        return [{"phase": "write", "MiB": float(amount.group(1)), "seconds": float(m.group(5)),
                 "MiBps": float(m.group(6)),
                 "checkpoint_seconds": float(chk.group(1)) if chk else ""}]
    return {"name": f"flash_io_{block}^3", "exe": exe,
            "args": lambda wd: [exe, os.path.join(wd, "f_")],
            "parse": parse, "files": [f"f_{f}" for f in FLASH_FILES], "compare": "netcdf"}


def coll_perf_client(apps):
    exe = os.path.join(apps, "bin", "coll_perf")

    def parse(out):
        rows = []
        size = re.search(r"Global array size (\d+) x (\d+) x (\d+) integers", out)
        for phase in ("write", "read"):
            m = re.search(rf"Collective {phase} time = ([\d.]+) sec, Collective {phase} "
                          rf"bandwidth = ([\d.]+) Mbytes/sec", out)
            if not m or not size:
                return None
            mib = 4 * int(size.group(1)) * int(size.group(2)) * int(size.group(3)) / 2**20
            rows.append({"phase": phase, "MiB": mib, "seconds": float(m.group(1)),
                         "MiBps": float(m.group(2))})
        return rows
    return {"name": "coll_perf", "exe": exe,
            "args": lambda wd: [exe, "-fname", os.path.join(wd, "cp.dat")],
            "parse": parse, "files": ["cp.dat"], "compare": "bytes"}


def ior_client(ior_dir):
    exe = os.path.join(ior_dir, "bin", "ior")

    def parse(out):
        rows = []
        for phase in ("write", "read"):
            m = re.search(rf"^Max {phase.capitalize()}:\s+([\d.]+) MiB/sec", out, re.M)
            if not m:
                return None
            rows.append({"phase": phase, "MiBps": float(m.group(1))})
        return rows
    # MPI-IO, collective, 4 segments of 16 MiB blocks per rank in 1 MiB
    # transfers, fixed data signature (-G) so files compare across runs
    return {"name": "ior", "exe": exe,
            "args": lambda wd: [exe, "-a", "MPIIO", "-c", "-b", "16m", "-t", "1m", "-s", "4",
                                "-G", "271828", "-w", "-r", "-C", "-e", "-k",
                                "-o", os.path.join(wd, "ior.dat")],
            "parse": parse, "files": ["ior.dat"], "compare": "bytes"}


# ---- comparing output files ------------------------------------------------------

def netcdf_vars(apps, path):
    dump = subprocess.run([os.path.join(apps, "pnetcdf", "bin", "ncmpidump"), "-h", path],
                          capture_output=True, text=True)
    body = dump.stdout.split("variables:", 1)[-1].split("// global attributes", 1)[0]
    return re.findall(r"^\t[a-z]+ (\w+).*;$", body, re.M)


def same_files(client, ref_dir, run_dir, apps, prefix):
    """None when every output file equals the reference, else the reason."""
    for name in client["files"]:
        a, b = os.path.join(ref_dir, name), os.path.join(run_dir, name)
        if not os.path.exists(b):
            return f"{name} missing"
        if client["compare"] == "bytes":
            if subprocess.run(["cmp", "-s", a, b]).returncode != 0:
                return f"{name} differs from stock's"
            continue
        names = netcdf_vars(apps, a)
        if not names:
            return f"no variables in {a}"
        diff = subprocess.run([os.path.join(prefix, "bin", "mpiexec"), "-n", "1",
                               os.path.join(apps, "bin", "ncmpidiff"), "-q", "-v",
                               ",".join(names), a, b], capture_output=True, text=True,
                              env=xtbench.clean_env())
        if diff.returncode != 0:
            return f"{name}: ncmpidiff found differences: {(diff.stdout + diff.stderr)[-300:]}"
    return None


# ---- Orthrus's choice from the stats records ------------------------------------

def orthrus_choice(stats_file):
    """Orthrus's decisions over all files of a run, from the stats records:
    'chose W:n ...' (winners of the access-pattern signatures) and
    'ran C:n ...' (collective calls run by each candidate, examination included)."""
    wins, runs, stock = {}, {}, 0
    if not os.path.exists(stats_file):
        return ""
    for line in open(stats_file):
        if not line.startswith("{"):
            continue
        orth = json.loads(line).get("features", {}).get("orthrus")
        if not isinstance(orth, dict):
            continue
        stock += orth.get("stock_calls", 0)
        for cand, n in orth.get("runs", {}).items():
            runs[cand] = runs.get(cand, 0) + n
        for sig in orth.get("signatures", []):
            if sig.get("winner"):
                wins[sig["winner"]] = wins.get(sig["winner"], 0) + 1
    fmt = lambda d: " ".join(f"{k}:{v}" for k, v in sorted(d.items()) if v) or "none"
    return f"chose {fmt(wins)}, ran {fmt(runs)}, stock calls {stock}"


# ---- running -------------------------------------------------------------------

def run_one(client, config, rep, args, dirs):
    label = f"{client['name'].replace('^', '')}-{config['name']}-r{rep}"
    workdir = os.path.join(dirs["work"], label)
    shutil.rmtree(workdir, ignore_errors=True)
    os.makedirs(workdir)
    if "e10_cache_path" in config["hints"]:
        shutil.rmtree(E10_DIR, ignore_errors=True)
        os.makedirs(E10_DIR)
    stats_file = os.path.join(dirs["logs"], label + ".stats.jsonl")
    if os.path.exists(stats_file):
        os.remove(stats_file)
    env = xtbench.clean_env(args.prefix, extra={"ROMIO_XT_STATS_FILE": stats_file})
    cmd = [os.path.join(args.prefix, "bin", "mpiexec"), "-n", str(args.ranks),
           *client["args"](workdir)]
    start = time.time()
    out, err, problem = xtbench.run_hinted(cmd, config["hints"], env, dirs["logs"], label,
                                           args.timeout)
    rows = None if problem else client["parse"](out + err)
    if rows is None:
        raise xtbench.RunError(f"{problem or 'no timing in the output'}\n{xtbench.tail(out + err)}")
    base = {"client": client["name"], "config": config["name"], "rep": rep,
            "ranks": args.ranks, "wall_seconds": round(time.time() - start, 2)}
    if config["hints"].get("romio_orthrus") == "enable":
        base["orthrus_chose"] = orthrus_choice(stats_file)
    return workdir, [dict(base, **r) for r in rows]


def run_all(clients, args, dirs):
    rows, failures = [], []
    for rep in range(1, args.reps + 1):
        for client in clients:
            ref = None
            for config in CONFIGS:
                what = f"{client['name']} {config['name']} rep {rep}/{args.reps}"
                try:
                    workdir, got = run_one(client, config, rep, args, dirs)
                except xtbench.RunError as e:
                    failures.append(what)
                    print(f"apps: {what}: FAILED: {e}", file=sys.stderr)
                    continue
                if config["name"] == "stock":
                    ref = workdir
                    same = "reference"
                elif ref is None:
                    same = "no stock run"
                else:
                    problem = same_files(client, ref, workdir, args.apps, args.prefix)
                    same = "equal" if problem is None else "DIFFERENT"
                    if problem:
                        failures.append(what + " (files)")
                        print(f"apps: {what}: output differs from stock: {problem}", file=sys.stderr)
                    shutil.rmtree(workdir, ignore_errors=True)
                for r in got:
                    r["files_vs_stock"] = same
                rows += got
                speeds = " ".join("%s %.1f MiB/s" % (r["phase"], r["MiBps"]) for r in got)
                print(f"apps: {what}: {speeds}, files {same}", file=sys.stderr)
            if ref:
                shutil.rmtree(ref, ignore_errors=True)
    shutil.rmtree(E10_DIR, ignore_errors=True)
    return rows, failures


# ---- output --------------------------------------------------------------------

def table(rows, names, notes):
    groups = {}
    for r in rows:
        groups.setdefault((r["client"], r["phase"]), {}).setdefault(r["config"], []).append(r)
    table = []
    for (client, phase), by_config in groups.items():
        base = xtbench.median(r["MiBps"] for r in by_config.get("stock", [])) \
            if "stock" in by_config else None
        for name in names:
            rs = by_config.get(name)
            if not rs:
                continue
            v = sorted(r["MiBps"] for r in rs)
            med = xtbench.median(v)
            same = {r["files_vs_stock"] for r in rs}
            ok = "reference" if same == {"reference"} else \
                f"{sum(r['files_vs_stock'] == 'equal' for r in rs)}/{len(rs)} equal"
            chose = sorted({r.get("orthrus_chose", "") for r in rs} - {""})
            table.append([client, phase, name, f"{med:.1f}", f"{v[0]:.1f}-{v[-1]:.1f}"] +
                         ([f"{med / base:.2f}", ok, "; ".join(chose) or "-"] if base else
                          ["-", ok, "-"]))
    return xtbench.md_table(["client", "phase", "config", "MiB/s median", "min-max",
                             "ratio to stock", "files vs stock", "Orthrus chose"], table) + \
        "\n" + "".join(f"- {n}\n" for n in notes)


def plot(rows, names, args, path):
    """Bars: each run's throughput over the median of stock's in its group, so
    FLASH-IO (~100 MiB/s) and coll_perf (~GiB/s) share one axis; 1.0 = stock."""
    groups = {}
    for r in rows:
        groups.setdefault((r["client"], r["phase"]), {}).setdefault(r["config"], []).append(r["MiBps"])
    for by_config in groups.values():
        base = xtbench.median(by_config["stock"]) if by_config.get("stock") else None
        for name in list(by_config):
            by_config[name] = [v / base for v in by_config[name]] if base else []
    plt = xtbench.pyplot("apps")
    if plt is None:
        return
    labels = ["\n".join(g) for g in groups]
    fig, ax = plt.subplots(figsize=(max(6, 1.3 * len(labels) + 2), 4.5))
    xtbench.bars(ax, labels, {n: [by.get(n) for by in groups.values()] for n in names},
                 "throughput / stock's median (median; bars: min-max)")
    n = max(len(v) for by_config in groups.values() for v in by_config.values())
    ax.set_title(f"real clients vs stock: {args.ranks} ranks, up to {n} samples per bar")
    ax.legend()
    fig.tight_layout()
    xtbench.save(fig, path)


def compare_main(argv):
    """apps.py --compare PREFIX APPS REF_DIR RUN_DIR FILE...: FLASH-IO files
    (netCDF, every variable) equal?  Exit 1 with the reason if not."""
    prefix, apps, ref, run = argv[:4]
    client = {"files": argv[4:], "compare": "netcdf"}
    problem = same_files(client, ref, run, apps, prefix)
    print(problem or f"{len(client['files'])} file(s): every variable equal")
    return 1 if problem else 0


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--compare"]:
        return compare_main(argv[1:])
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--prefix", required=True)
    p.add_argument("--apps", required=True, help="scripts/build-apps.sh's output directory")
    p.add_argument("--out", required=True)
    p.add_argument("--work", help="directory for the clients' files (default OUT/work)")
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--ranks", type=int, default=2)
    p.add_argument("--timeout", type=int, default=600)
    p.add_argument("--clients", default="flash_io_16,flash_io_8,coll_perf",
                   help="comma list of flash_io_8, flash_io_16, coll_perf, ior")
    p.add_argument("--ior", default="", help="IOR install (DIR/bin/ior); adds the ior client")
    p.add_argument("--only", help="comma list of config names (stock is always run)")
    args = p.parse_args(argv)
    global CONFIGS
    if args.only:
        CONFIGS = [c for c in CONFIGS if c["name"] == "stock" or c["name"] in args.only.split(",")]
    wanted = args.clients.split(",") + (["ior"] if args.ior else [])
    make = {"flash_io_8": lambda: flash_client(args.apps, 8),
            "flash_io_16": lambda: flash_client(args.apps, 16),
            "coll_perf": lambda: coll_perf_client(args.apps),
            "ior": lambda: ior_client(args.ior)}
    clients, notes = [], [f"{args.ranks} ranks, {args.reps} interleaved repetitions; "
                          "MiB/s as each client reports it; min-max over the repetitions"]
    skip_file = os.path.join(args.apps, "pnetcdf.skip")
    for name in wanted:
        client = make[name]()
        if os.access(client["exe"], os.X_OK):
            clients.append(client)
            continue
        why = open(skip_file).read().strip() if name.startswith("flash") and \
            os.path.exists(skip_file) else f"{client['exe']} not built"
        notes.append(f"not run: {name} ({why})")
        print(f"apps: could not run {name}: {why}", file=sys.stderr)
    if not args.ior:
        notes.append("not run: ior (configure --with-ior=DIR names an IOR install)")
    dirs = {"work": os.path.abspath(args.work or os.path.join(args.out, "work")),
            "logs": os.path.abspath(os.path.join(args.out, "logs"))}
    for d in dirs.values():
        os.makedirs(d, exist_ok=True)
    rows, failures = run_all(clients, args, dirs)
    names = [c["name"] for c in CONFIGS]
    if rows:
        xtbench.write_csv(rows, os.path.join(args.out, "apps.csv"))
        text = table(rows, names, notes)
        with open(os.path.join(args.out, "apps.md"), "w") as f:
            f.write(text)
        plot(rows, names, args, os.path.join(args.out, "apps.png"))
        print(text, end="")
    if failures:
        print(f"apps: {len(failures)} failure(s): {', '.join(failures)}; logs in {dirs['logs']}",
              file=sys.stderr)
        return 1
    return 0 if clients else 1


if __name__ == "__main__":
    sys.exit(main())

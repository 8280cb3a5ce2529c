#!/usr/bin/env python3
"""romio-xt on a testbed profile: the real clients with the papers'
workflows, ranks in the emulated nodes (scripts/testbed.sh mpiexec), stock
vs each extension alone vs all at once vs romio_xt=auto, interleaved
repetitions.

  workflows.py --prefix P --apps A --out DIR [--reps 3] [--ranks 2] [--ppn M]
               [--coll-perf-n N] [--parts flash,flash_compute,...] [--ior DIR]
  workflows.py --report --out DIR [--limits CSV]

Workloads (--parts, default all but ior):
  flash, flash_compute       FLASH-IO 16^3 (PnetCDF), without and with compute
                             before each file's close (E10's workflow: write,
                             compute, sync/close)
  coll_perf, coll_perf_compute   ROMIO's coll_perf, the same two ways
  ior                        IOR, MPI-IO collective (needs --ior)
  hdf5                       IOR's HDF5 backend's pattern: the no-harm grid's HDF5
                             kernel (benchmarks/noharm/nh_hdf5.c, Debian's
                             libhdf5-mpich), --hdf5-mib per rank, collective
                             1 MiB transfers: write cold, read cold, read warm,
                             write warm (not in the default)
  root                       the ROOT-like reader (benchmarks/prefetch/pf_root.c),
                             compute per read = stock's read time per read
  matrix, noncontig, btio    the Orthrus kernels (benchmarks/orthrus/)
  contig                     IOR-like collective calls (benchmarks/orthrus/contig.c,
                             1 MiB per call, 128 calls per rank), also with
                             romio_cb_write/read=disable
  disk_first                 matrix with calls spanning every chunk server:
                             two_phase vs disk_first (one aggregator per server)
  btio_vb, matrix_vb         btio and matrix: two_phase vs view_based writing
                             through, with write-behind and with background
                             flushing (not in the default)
  matrix_short_4k|256k|2m    Matrix of 40 calls (4 KiB, 256 KiB, 2 MiB blocks):
                             stock and romio_orthrus=enable against every
                             candidate forced (not in the default)
  btio_vb_compute            btio_vb with --btio-compute-ms of solver after each
                             write step (not in the default)

Every config runs with romio_ds_write=disable unless it sets romio_ds_write
itself (ds_adaptive, all): MooseFS needs it across nodes (docs/testbed.md).

The compute is the PMPI shim tb_phase.c (LD_PRELOAD; TB_COMPUTE_S seconds
before each written file's close, a sleep) which also reports the perceived
write bandwidth: bytes over the time in write + sync + close.  Written files
are compared with stock's of the same repetition (FLASH-IO: every netCDF
variable; the others byte for byte).  Each part appends to DIR/workflows.csv;
--report writes DIR/workflows.md and DIR/workflows.png (ratio to stock, with
the profile's limits beside them when --limits names limits.py's CSV).
"""
import argparse
import os
import shutil
import subprocess
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(here))
sys.path.insert(0, os.path.join(os.path.dirname(here), "apps"))
sys.path.insert(0, here)
import xtbench  # noqa: E402
import apps as appsmod  # noqa: E402

STATE = os.environ.get("XT_TESTBED_DIR", "/tmp/romio-xt-testbed")
TB = os.path.join(os.path.dirname(os.path.dirname(here)), "scripts", "testbed.sh")
E10 = os.path.join(STATE, "local", "e10")   # the node-local tier of each node
STATS = {"romio_xt_stats": "enable"}
CONFIGS = [
    {"name": "stock", "hints": {}},
    {"name": "ds_adaptive", "hints": {"romio_ds_read": "adaptive", "romio_ds_write": "adaptive"}},
    {"name": "orthrus", "hints": dict(STATS, romio_orthrus="enable")},
    {"name": "e10_cache", "hints": dict(STATS, e10_cache="enable", e10_cache_path=E10)},
    {"name": "prefetch", "hints": dict(STATS, romio_prefetch="enable")},
    {"name": "all", "hints": dict(STATS, romio_ds_read="adaptive", romio_ds_write="adaptive",
                                  romio_orthrus="enable", e10_cache="enable",
                                  e10_cache_path=E10, romio_prefetch="enable")},
    # one switch (docs/auto.md), with the node-local path E10 needs
    {"name": "auto", "hints": dict(STATS, romio_xt="auto", e10_cache_path=E10)},
]
# what a site sets for every job on MooseFS (docs/testbed.md, "Coherence
# across nodes"): its clients are not coherent under fcntl locks, so data
# sieving writes from several nodes can lose data; configs that set
# romio_ds_write themselves (ds_adaptive, all) keep theirs
SITE = {"romio_ds_write": "disable"}
for _c in CONFIGS:
    _c["hints"] = dict(SITE, **_c["hints"])
# diagnostic: the E10 cache with its gate bypassed (test hook, a build
# configured with --enable-xt-test-hooks): what the storage allows
E10_NOGATE = {"name": "e10_nogate", "hints": dict(SITE, **STATS, e10_cache="enable",
                                                   e10_cache_path=E10),
              "env": {"ROMIO_XT_NVC_TEST_ALWAYS_CACHE": "1"}}
# diagnostic: the template layer (src/null/), which passes every call down:
# what any layer's presence costs
NULL_LAYER = {"name": "null_layer", "hints": dict(SITE, **STATS, romio_xt_null="enable")}
# diagnostic: two-layer aggregation forced (Orthrus' two_layer candidate),
# against forced two_phase (DISK_FIRST[0]) at several ranks per node
TWO_LAYER = {"name": "two_layer", "hints": dict(SITE, **STATS, romio_orthrus_force="two_layer")}
DISK_FIRST = [
    {"name": "two_phase", "hints": dict(SITE, **STATS, romio_orthrus_force="two_phase")},
    {"name": "disk_first", "hints": dict(SITE, **STATS, romio_orthrus_force="disk_first")},
]

# every two extensions together (names "a+b"), chosen with --configs: does
# a pair run at least as fast as the better of its two alone?
SINGLE = CONFIGS[1:5]


def pair_hints(x, y):
    """x's and y's hints; where one of them overrides a site hint, its value"""
    h = dict(x, **y)
    h.update({k: v for k, v in x.items() if k in SITE and v != SITE[k]})
    return h


PAIRS = [{"name": f"{x['name']}+{y['name']}", "hints": pair_hints(x["hints"], y["hints"])}
         for i, x in enumerate(SINGLE) for y in SINGLE[i + 1:]]

# IOR-like collective calls: every config, and ROMIO's independent path
# forced (romio_cb_write/read=disable), the best stock setting there
CB_DISABLE = {"name": "cb_disable", "hints": dict(SITE, romio_cb_write="disable",
                                                  romio_cb_read="disable")}

# Orthrus on short jobs: stock and enable against every candidate forced
SHORT = [CONFIGS[0], CONFIGS[2]] + [
    {"name": c, "hints": dict(SITE, **STATS, romio_orthrus_force=c)}
    for c in ("two_phase", "core_first", "disk_first", "view_based", "independent")]

# view_based forced, writing through and with write-behind, against two_phase
VIEW_BASED = [
    DISK_FIRST[0],
    {"name": "vb_through", "hints": dict(SITE, **STATS, romio_orthrus_force="view_based",
                                         romio_vb_write_behind="disable")},
    {"name": "vb_behind", "hints": dict(SITE, **STATS, romio_orthrus_force="view_based",
                                        romio_vb_write_behind="enable")},
    {"name": "vb_background", "hints": dict(SITE, **STATS, romio_orthrus_force="view_based",
                                            romio_vb_write_behind="background")},
]


# ---- workloads: command, metrics, files ----------------------------------------

def tb_metrics(res):
    """The shim's perceived write bandwidth and read bandwidth."""
    out = {}
    for r in res:
        if r.get("phase") == "tb_write":
            out["write_perceived_MiBps"] = r["perceived_MiBps"]
        elif r.get("phase") == "tb_read":
            out["read_MiBps"] = r["MiBps"]
    return out


def orthrus_metrics(res):
    return {f"{r['phase']}_MBps": r["MBps"] for r in res
            if r.get("phase") in ("write", "read", "write_io") and "MBps" in r}


def nh_metrics(res):
    """the no-harm kernels' four phases (write cold, read cold, read warm,
    write warm), each open to close, slowest rank"""
    return {f"{r['op']}_{r['cond']}_MBps": r["bytes"] / r["seconds"] / 1e6 for r in res
            if r.get("wl") == "hdf5" and r.get("seconds")}


def coll_perf_n(a, bdir):
    """coll_perf with an N^3 global array: the apps build's copy (256^3, a
    64 MiB file) with N put in, built beside the kernels"""
    cp = appsmod.coll_perf_client(a.apps)
    if a.coll_perf_n == 256:
        return cp
    src = open(os.path.join(a.apps, "coll_perf.c")).read()
    new = src.replace("] = 256;", f"] = {a.coll_perf_n};")
    if new.count(f"] = {a.coll_perf_n};") != 3:
        sys.exit(f"workflows: {a.apps}/coll_perf.c: no 256^3 array to resize")
    c = os.path.join(bdir, f"coll_perf_{a.coll_perf_n}.c")
    with open(c, "w") as f:
        f.write(new)
    exe = os.path.join(bdir, f"coll_perf_{a.coll_perf_n}")
    xtbench.mpicc(a.prefix, c, exe)
    return dict(cp, exe=exe, args=lambda wd: [exe, "-fname", os.path.join(wd, "cp.dat")])


def workloads(a, bins):
    flash = appsmod.flash_client(a.apps, 16)
    cp = bins["coll_perf"]
    w = {
        "flash": {"cmd": lambda wd: flash["args"](wd), "files": flash["files"],
                  "compare": "netcdf", "parse": tb_metrics, "compute": 0},
        "flash_compute": {"cmd": lambda wd: flash["args"](wd), "files": flash["files"],
                          "compare": "netcdf", "parse": tb_metrics, "compute": a.flash_compute},
        "coll_perf": {"cmd": lambda wd: cp["args"](wd), "files": cp["files"], "compare": "bytes",
                      "parse": tb_metrics, "compute": 0},
        "coll_perf_compute": {"cmd": lambda wd: cp["args"](wd), "files": cp["files"],
                              "compare": "bytes", "parse": tb_metrics,
                              "compute": a.coll_perf_compute},
        "root": {"cmd": lambda wd: [bins["pf_root"], "--data", os.path.join(a.work, "rootdata"),
                                    "--bytes", str(a.root_mib << 20), "--compute-us",
                                    str(a.root_compute_us), "--mode", "x", "--idle", "1"],
                 "files": [], "compare": "self", "compute": 0,
                 "parse": lambda res: {"runtime_s": r["seconds"] for r in res
                                       if r.get("phase") == "root"},
                 "setup": setup_root},
        "matrix": {"cmd": lambda wd: [bins["matrix"], wd, str(1 << 20), "4", "24"],
                   "files": [], "compare": "self", "parse": orthrus_metrics,
                   "compute": 0},
        "noncontig": {"cmd": lambda wd: [bins["noncontig"], wd, "256", str(4 << 20), "24"],
                      "files": [], "compare": "self", "parse": orthrus_metrics,
                      "compute": 0},
        # IOR -a MPIIO -c -t 1m -b 64m -s 2: 128 collective 1 MiB calls per rank
        "contig": {"cmd": lambda wd: [bins["contig"], wd, str(1 << 20), str(64 << 20), "2"],
                   "files": [], "compare": "self", "parse": orthrus_metrics,
                   "compute": 0, "configs": CONFIGS + [CB_DISABLE]},
        "btio": {"cmd": lambda wd: [bins["btio"], wd, "64", "16"], "files": [],
                 "compare": "self", "parse": orthrus_metrics, "compute": 0},
        # 2 ranks x 8 blocks of 16 MiB = 256 MiB per call: every call spans
        # all three servers' 64 MiB chunks
        "disk_first": {"cmd": lambda wd: [bins["matrix"], wd, str(16 << 20), "8", "3", "0"],
                       "files": [], "compare": "self", "parse": orthrus_metrics,
                       "compute": 0, "configs": DISK_FIRST},
        "btio_vb": {"cmd": lambda wd: [bins["btio"], wd, "64", "16"], "files": [],
                    "compare": "self", "parse": orthrus_metrics, "compute": 0,
                    "configs": VIEW_BASED},
        # BT's solver between the writes (BTIO_COMPUTE_MS per step)
        "btio_vb_compute": {"cmd": lambda wd: [bins["btio"], wd, "64", "16"], "files": [],
                            "compare": "self", "parse": orthrus_metrics, "compute": 0,
                            "configs": VIEW_BASED,
                            "env": {"BTIO_COMPUTE_MS": str(a.btio_compute_ms)}},
        **{f"matrix_short_{k}": {"cmd": lambda wd, b=b: [bins["matrix"], wd, str(b), "4", "40"],
                                 "files": [], "compare": "self", "parse": orthrus_metrics,
                                 "compute": 0, "configs": SHORT}
           for k, b in (("4k", 4096), ("256k", 262144), ("2m", 2 << 20))},
        "matrix_vb": {"cmd": lambda wd: [bins["matrix"], wd, str(1 << 20), "4", "24"],
                      "files": [], "compare": "self", "parse": orthrus_metrics,
                      "compute": 0, "configs": VIEW_BASED},
    }
    if bins.get("hdf5"):
        # IOR -a HDF5 -c -t 1m in the no-harm grid's HDF5 kernel: collective
        # H5Dwrite/H5Dread of 1 MiB per rank, --hdf5-mib per rank; verifies its reads
        w["hdf5"] = {"cmd": lambda wd: [bins["hdf5"], os.path.join(wd, "nh.h5"), str(a.hdf5_mib)],
                     "files": ["nh.h5"], "compare": "bytes", "parse": nh_metrics, "compute": 0}
    if a.ior:
        ior = appsmod.ior_client(a.ior)
        w["ior"] = {"cmd": lambda wd: ior["args"](wd), "files": ior["files"], "compare": "bytes",
                    "parse": tb_metrics, "compute": 0}
    return w


def setup_root(a, bins, env):
    d = os.path.join(a.work, "rootdata")
    os.makedirs(d, exist_ok=True)
    for r in range(a.ranks):
        subprocess.run([bins["pf_root"], "--create", os.path.join(d, f"root.{r}"),
                        str(a.root_mib << 20)], check=True, env=env, stdout=subprocess.DEVNULL)
    if a.root_compute_us < 0:   # calibrate: compute per read = stock's read time per read
        out = run_cmd(a, [bins["pf_root"], "--data", d, "--bytes", str(a.root_mib << 20),
                          "--compute-us", "0", "--mode", "x", "--idle", "1"], {}, env, "root-calib")
        res = [r for r in xtbench.parse_results(out) if r.get("phase") == "root"][0]
        a.root_compute_us = int(res["per_read_ms"] * 1000)
        print(f"workflows: root: compute per read = stock's read time = {a.root_compute_us} us",
              file=sys.stderr)


# ---- running -------------------------------------------------------------------

def node_sh(cmd):
    n = int(open(os.path.join(STATE, "config")).read().split(" nodes=")[1].split()[0])
    for k in range(1, n + 1):
        subprocess.run([TB, "node", str(k), "sh", "-c", cmd], check=True)


def run_cmd(a, argv, hints, env, label, shim_env=None):
    subprocess.run([TB, "drop-caches"], check=True)
    ppn = ["-ppn", str(a.ppn)] if a.ppn else []
    cmd = [TB, "mpiexec", *ppn, "-n", str(a.ranks), "env", f"LD_PRELOAD={a.shim}",
           *[f"{k}={v}" for k, v in (shim_env or {}).items()], *argv]
    out, err, problem = xtbench.run_hinted(cmd, hints, env, a.logs, label, a.timeout)
    if problem:
        raise xtbench.RunError(f"{problem}\n{xtbench.tail(out + err)}")
    return out + err


def run_one(a, name, wl, config, rep, env):
    label = f"{name}-{config['name']}-r{rep}"
    wd = os.path.join(a.work, label)
    shutil.rmtree(wd, ignore_errors=True)
    os.makedirs(wd)
    node_sh(f"rm -rf {E10} && mkdir -p {E10}")
    stats = os.path.join(a.logs, label + ".stats.jsonl")
    if os.path.exists(stats):
        os.remove(stats)
    e = dict(env, ROMIO_XT_STATS_FILE=stats)
    t0 = time.time()
    out = run_cmd(a, wl["cmd"](wd), config["hints"], e, label,
                  dict(config.get("env", {}), **wl.get("env", {}), TB_COMPUTE_S=wl["compute"]))
    metrics = wl["parse"](xtbench.parse_results(out))
    if not metrics:
        raise xtbench.RunError("no measurement in the output\n" + xtbench.tail(out))
    chose = appsmod.orthrus_choice(stats) if "romio_orthrus" in config["hints"] or \
        "romio_orthrus_force" in config["hints"] else ""
    base = {"workload": name, "config": config["name"], "rep": rep, "ranks": a.ranks,
            "compute_s": wl["compute"], "wall_s": round(time.time() - t0, 2),
            "orthrus_chose": chose}
    return wd, [dict(base, metric=m, value=v) for m, v in metrics.items()]


def run_part(a, name, wl, env):
    rows, fails = [], []
    asked = a.configs.split(",") if a.configs else []
    extra = [c for c in [E10_NOGATE, NULL_LAYER, DISK_FIRST[0], TWO_LAYER] + PAIRS
             if c["name"] in asked]
    configs = wl.get("configs", CONFIGS) + [c for c in extra if c not in wl.get("configs", [])]
    if a.configs:
        configs = [c for c in configs if c is configs[0] or c["name"] in a.configs.split(",")]
    if wl.get("setup"):
        wl["setup"](a, a.bins, env)
    for rep in range(1, a.reps + 1):
        dirs = {}
        for config in xtbench.config_order(configs, rep):
            what = f"{name} {config['name']} rep {rep}/{a.reps}"
            try:
                dirs[config["name"]], got = run_one(a, name, wl, config, rep, env)
            except xtbench.RunError as e:
                fails.append(what)
                print(f"workflows: {what}: FAILED: {e}", file=sys.stderr)
                continue
            rows += got
            print(f"workflows: {what}: " + " ".join(f"{r['metric']}={r['value']:.1f}"
                                                    for r in got), file=sys.stderr)
        ref = dirs.get(configs[0]["name"])
        for cname, wd in dirs.items():   # files vs the reference config's
            same = "verified in the run" if wl["compare"] == "self" else "reference" \
                if wd == ref else "no reference" if not ref else "equal"
            if ref and wd != ref and wl["compare"] != "self":
                prob = appsmod.same_files({"files": wl["files"], "compare": wl["compare"]},
                                          ref, wd, a.apps, a.prefix)
                if prob:
                    same = "DIFFERENT"
                    fails.append(f"{name} {cname} rep {rep} (files: {prob})")
                    print(f"workflows: {name} {cname} rep {rep}: {prob}", file=sys.stderr)
            for r in rows:
                if r["workload"] == name and r["rep"] == rep and r["config"] == cname:
                    r["files_vs_stock"] = same
        for wd in dirs.values():
            shutil.rmtree(wd, ignore_errors=True)
    return rows, fails


# ---- report --------------------------------------------------------------------

LOWER_BETTER = ("runtime_s",)


def rep_ratios(by, name, metric, ref):
    """name's per-repetition ratios to ref (higher is better)"""
    refrep = {r["rep"]: float(r["value"]) for r in by.get(ref, [])}
    return {r["rep"]: (refrep[r["rep"]] / float(r["value"]) if metric in LOWER_BETTER
                       else float(r["value"]) / refrep[r["rep"]])
            for r in by.get(name, []) if r["rep"] in refrep}


def pairs_text(groups):
    """each pair measured against the better of its two alone (per repetition)"""
    table = []
    for (wl, metric), by in groups.items():
        for pc in PAIRS:
            x, y = pc["name"].split("+")
            got = [rep_ratios(by, n, metric, "stock") for n in (pc["name"], x, y)]
            reps = sorted(set(got[0]) & set(got[1]) & set(got[2]))
            if not reps:
                continue
            vs = [got[0][r] / max(got[1][r], got[2][r]) for r in reps]
            table.append([wl, metric, pc["name"],
                          xtbench.fmt_range([got[0][r] for r in reps], "{:.2f}"),
                          xtbench.fmt_range([max(got[1][r], got[2][r]) for r in reps], "{:.2f}"),
                          xtbench.fmt_range(vs, "{:.2f}")])
    if not table:
        return ""
    return "\n\nPairs (`--configs a+b,...`): each pair and the better of its two alone, " \
        "ratio to stock per repetition, and the pair over that better one; " \
        "median [min-max]\n\n" + xtbench.md_table(
            ["workload", "metric", "pair", "pair / stock", "better alone / stock",
             "pair / better alone"], table)


def auto_text(groups):
    """auto against stock and against the best single extension of the same
    repetition (per repetition; higher is better)"""
    table = []
    for (wl, metric), by in groups.items():
        if "auto" not in by or "stock" not in by:
            continue
        got = {n: rep_ratios(by, n, metric, "stock") for n in ["auto"] + [c["name"] for c in SINGLE]
               if n in by}
        reps = sorted(set.intersection(*(set(v) for v in got.values())))
        if not reps or len(got) < 2:
            continue
        best = [max(got[n][r] for n in got if n != "auto") for r in reps]
        table.append([wl, metric, xtbench.fmt_range([got["auto"][r] for r in reps], "{:.2f}"),
                      xtbench.fmt_range(best, "{:.2f}"),
                      xtbench.fmt_range([got["auto"][r] / b for r, b in zip(reps, best)],
                                        "{:.2f}")])
    if not table:
        return ""
    return "\n\n`romio_xt=auto` against stock and the best single extension of each " \
        "repetition (ratio to stock per repetition; median [min-max])\n\n" + xtbench.md_table(
            ["workload", "metric", "auto / stock", "best single / stock", "auto / best single"],
            table)


def report(out, limits_csv=None, title=None):
    rows = xtbench.read_csv(os.path.join(out, "workflows.csv"))
    groups = {}
    for r in rows:
        groups.setdefault((r["workload"], r["metric"]), {}).setdefault(r["config"], []).append(r)
    names = [c["name"] for c in CONFIGS + [E10_NOGATE, NULL_LAYER, CB_DISABLE, TWO_LAYER] +
             PAIRS + DISK_FIRST + VIEW_BASED[1:]]
    table, plot = [], {}
    for (wl, metric), by in groups.items():
        ref = "stock" if "stock" in by else "two_phase"
        base = xtbench.median(float(r["value"]) for r in by[ref])
        for name in names:
            rs = by.get(name)
            if not rs:
                continue
            v = [float(r["value"]) for r in rs]
            # per-repetition ratios against the reference of the same repetition
            refrep = {r["rep"]: float(r["value"]) for r in by[ref]}
            ratios = [(refrep[r["rep"]] / float(r["value"]) if metric in LOWER_BETTER
                       else float(r["value"]) / refrep[r["rep"]]) for r in rs if r["rep"] in refrep]
            same = {r.get("files_vs_stock", "") for r in rs}
            ok = "reference" if same == {"reference"} else "verified by the client" \
                if same == {"verified in the run"} else \
                f"{sum(r.get('files_vs_stock') == 'equal' for r in rs)}/{len(rs)} equal" \
                if "equal" in same or "DIFFERENT" in same else "-"
            chose = sorted({r.get("orthrus_chose", "") for r in rs} - {""})
            table.append([wl, metric, name, xtbench.fmt_range(v), xtbench.fmt_range(ratios, "{:.2f}")
                          if name != ref else "1", ok, "; ".join(chose) or "-"])
            plot.setdefault(f"{wl}\n{metric}", {})[name] = ratios
    text = "ratio: per repetition against the reference (stock; two_phase for disk_first) of " \
        "the same repetition, higher is better (runtime: reference / config); median [min-max]\n\n"
    text += xtbench.md_table(["workload", "metric", "config", "value median [min-max]",
                              "ratio", "files vs stock", "Orthrus chose"], table)
    text += pairs_text(groups)
    text += auto_text(groups)
    if limits_csv and os.path.exists(limits_csv):
        import limits
        lr = [(r["fs"], r["clients"], r["metric"], r["rep"], float(r["value"]))
              for r in xtbench.read_csv(limits_csv)]
        text += "\n\nThe profile's limits (benchmarks/testbed/limits.py):\n\n" + \
            limits.profile_table(lr, max(int(r[1]) for r in lr if not r[2].startswith("mpi_"))) + "\n"
    with open(os.path.join(out, "workflows.md"), "w") as f:
        f.write(text)
    plt = xtbench.pyplot("workflows")
    if plt is not None and plot:
        labels = list(plot)
        fig, ax = plt.subplots(figsize=(max(8, 1.1 * len(labels) + 2), 5))
        xtbench.bars(ax, labels, {n: [plot[g].get(n) for g in labels] for n in names
                                  if any(n in plot[g] for g in labels)},
                     "ratio to stock (median; bars: min-max)")
        ax.axhline(1.0, color="grey", lw=0.8)
        ax.set_title(title or "testbed profile: real clients, each extension vs stock")
        ax.tick_params(axis="x", labelsize=7)
        ax.legend(fontsize=7)
        fig.tight_layout()
        xtbench.save(fig, os.path.join(out, "workflows.png"))
    print(text)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--prefix")
    p.add_argument("--apps")
    p.add_argument("--out", required=True)
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--ranks", type=int, default=2)
    p.add_argument("--ppn", type=int, default=0,
                   help="ranks per node (default: ranks spread evenly over the nodes)")
    p.add_argument("--coll-perf-n", type=int, default=512,
                   help="coll_perf's global array: N^3 ints (512: 512 MiB)")
    p.add_argument("--yield", dest="yield_", action="store_true",
                   help="ranks yield the core between MPICH progress polls "
                   "(MPIR_CVAR_DEFAULT_THREAD_LEVEL=MPI_THREAD_MULTIPLE)")
    p.add_argument("--timeout", type=int, default=300)
    p.add_argument("--parts", default="flash,flash_compute,coll_perf,coll_perf_compute,root,"
                   "matrix,noncontig,contig,btio,disk_first")
    p.add_argument("--ior", default="")
    p.add_argument("--configs", help="comma list of config names (the reference always runs)")
    p.add_argument("--flash-compute", type=float, default=4.0, help="seconds per close")
    p.add_argument("--coll-perf-compute", type=float, default=3.0, help="seconds per close")
    p.add_argument("--btio-compute-ms", type=float, default=100.0,
                   help="btio_vb_compute: ms of solver after each write step")
    p.add_argument("--root-mib", type=int, default=64)
    p.add_argument("--hdf5-mib", type=int, default=128, help="hdf5: MiB per rank")
    p.add_argument("--root-compute-us", type=int, default=-1, help="-1: stock's read time")
    p.add_argument("--report", action="store_true")
    p.add_argument("--title", default="testbed profile: real clients, each extension vs stock")
    p.add_argument("--limits", help="limits.py's CSV of the profile (for --report)")
    a = p.parse_args()
    if a.report:
        return report(a.out, a.limits, a.title)
    a.out = os.path.abspath(a.out)
    a.work = os.path.join(STATE, "mnt", "workflows")
    a.logs = os.path.join(a.out, "logs")
    os.makedirs(a.logs, exist_ok=True)
    os.makedirs(a.work, exist_ok=True)
    bdir = os.path.join(a.out, "bin")
    os.makedirs(bdir, exist_ok=True)
    bench = os.path.dirname(here)
    a.bins = {}
    for n, src in (("pf_root", "prefetch/pf_root.c"), ("matrix", "orthrus/matrix.c"),
                   ("noncontig", "orthrus/noncontig.c"), ("contig", "orthrus/contig.c"),
                   ("btio", "orthrus/btio.c")):
        a.bins[n] = os.path.join(bdir, n)
        xtbench.mpicc(a.prefix, os.path.join(bench, src), a.bins[n])
    h5inc, h5lib = "/usr/include/hdf5/mpich", "/usr/lib/x86_64-linux-gnu/hdf5/mpich"
    if os.path.isdir(h5inc):     # Debian's libhdf5-mpich-dev
        a.bins["hdf5"] = xtbench.mpicc(a.prefix, os.path.join(bench, "noharm", "nh_hdf5.c"),
                                       os.path.join(bdir, "nh_hdf5"), ("-O2", f"-I{h5inc}"),
                                       (f"-L{h5lib}", "-lhdf5"))
    a.shim = os.path.join(bdir, "libtbphase.so")
    xtbench.mpicc(a.prefix, os.path.join(here, "tb_phase.c"), a.shim,
                  flags=("-O2", "-shared", "-fPIC"))
    env = xtbench.clean_env(a.prefix, extra={"XT_MPIEXEC": os.path.join(a.prefix, "bin", "mpiexec"),
                                             "ROMIO_XT_ORTHRUS_SERVERS": "3",
                                             "ROMIO_XT_ORTHRUS_STRIPE_UNIT": "64m"})
    a.bins["coll_perf"] = coll_perf_n(a, bdir)
    if a.yield_:
        # MPICH ch4 (Debian's 4.0.2, ch4:ucx) spins in its progress loop; at
        # MPI_THREAD_MULTIPLE it yields the core between polls
        # (MPID_THREAD_CS_YIELD).  Not the default: 8 ranks on 2 cores ran
        # coll_perf as fast spinning (docs/testbed.md)
        env["MPIR_CVAR_DEFAULT_THREAD_LEVEL"] = "MPI_THREAD_MULTIPLE"
    wls = workloads(a, a.bins)
    fails = []
    for part in a.parts.split(","):
        if part not in wls:
            print(f"workflows: no part '{part}' (ior needs --ior)", file=sys.stderr)
            fails.append(part)
            continue
        print(f"== workflows: {part} ({time.strftime('%H:%M:%S')})", file=sys.stderr)
        rows, f = run_part(a, part, wls[part], env)
        fails += f
        if rows:
            cols = ["workload", "config", "rep", "metric", "value", "ranks", "compute_s",
                    "wall_s", "files_vs_stock", "orthrus_chose"]
            path = os.path.join(a.out, "workflows.csv")
            xtbench.write_csv(rows, path, cols, append=os.path.exists(path))
    shutil.rmtree(a.work, ignore_errors=True)
    if fails:
        print(f"workflows: {len(fails)} failure(s): {'; '.join(fails)}", file=sys.stderr)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())

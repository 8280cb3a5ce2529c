#!/usr/bin/python3
"""Estimation error and advice of romio-xt-phases on the project's benchmarks.

  estimate.py --prefix PREFIX --out DIR [--reps 3] [--budget 300]

1. Each workload runs (2 ranks) under its default setting and two others,
   traced, `reps` times, interleaved.
2. A database is calibrated with --like on the default traces (the phase
   kinds, ranks and request sizes found there, all settings).
3. From each default trace, every phase's time under the two other settings
   is estimated (absolute: the paper's benchmark bandwidth; relative: the
   measured phase scaled by the benchmark's bandwidth ratio) and compared to
   the phase as measured under that setting (medians over reps):
   relative error |estimated - measured| / measured, per phase and per run
   (sum of the phases).
4. Advice: for each workload the ROMIO_HINTS file --estimate writes is run
   against the default, interleaved, `reps` times.
Writes trace-estimation.csv, trace-estimation.md, trace-advice.csv into --out.
"""
import argparse
import importlib.machinery
import importlib.util
import os
import shutil
import statistics as st
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.dirname(HERE)
sys.path.insert(0, BENCH)
import xtbench  # noqa: E402

SETTINGS = {
    "default": {},
    "cb_nodes=1": {"romio_cb_write": "enable", "romio_cb_read": "enable", "cb_nodes": "1",
                   "cb_config_list": "*:*"},
    "orthrus=core_first": {"romio_orthrus_force": "core_first"},
    "orthrus=disk_first": {"romio_orthrus_force": "disk_first"},
    "e10_cache=enable": {"e10_cache": "enable", "e10_cache_path": "{work}/e10"},
    "ds=adaptive": {"romio_ds_read": "adaptive", "romio_ds_write": "adaptive"},
    "ds=disable": {"romio_ds_read": "disable", "romio_ds_write": "disable"},
}

# name, source, args ({work} = data dir), the two other settings
WORKLOADS = [
    ("matrix", "orthrus/matrix.c", ["{work}", "262144", "4", "40"],
     ["cb_nodes=1", "orthrus=disk_first"]),
    ("noncontig", "orthrus/noncontig.c", ["{work}", "256", "4194304", "24"],
     ["cb_nodes=1", "orthrus=core_first"]),
    ("xt_bench-vec", "workloads/xt_bench.c",
     ["--dir", "{work}", "--phases", "vec", "--vec-mib", "64", "--chunk-kib", "256"],
     ["ds=disable", "e10_cache=enable"]),
    ("xt_bench-contig", "workloads/xt_bench.c",
     ["--dir", "{work}", "--phases", "contig", "--contig-mib", "128", "--chunk-kib", "64"],
     ["e10_cache=enable", "cb_nodes=1"]),
    ("btio", "orthrus/btio.c", ["{work}", "48", "24"], ["cb_nodes=1", "orthrus=disk_first"]),
]


def apps(build):
    """FLASH-IO and coll_perf as built by `make apps` (tune.py's), with the
    two other settings"""
    from tune import apps as tune_apps
    return [(*wl, ["cb_nodes=1", "orthrus=core_first"]) for wl in tune_apps(build)]


MODES = ("absolute", "gaps", "relative")


def load_tool(prefix):
    path = os.path.join(prefix, "bin", "romio-xt-phases")
    loader = importlib.machinery.SourceFileLoader("xtphases", path)
    spec = importlib.util.spec_from_loader("xtphases", loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


class Args:
    time_distance = 1.0
    threshold = 0.2


def run_one(a, exe, wl, setting, tdir, hints=None):
    work = os.path.join(a.work, "data")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.join(work, "e10"))
    shutil.rmtree(tdir, ignore_errors=True)
    os.makedirs(tdir)
    hfile = os.path.join(a.work, "hints")
    with open(hfile, "w") as f:
        if hints is not None:
            f.write(hints)
        for k, v in SETTINGS[setting].items():
            f.write(f"{k} {v.format(work=work)}\n")
    env = xtbench.clean_env(drop=("ROMIO_XT_STATS",), extra=dict(
        ROMIO_XT_TRACE=tdir, ROMIO_HINTS=hfile, MPIR_CVAR_NUM_CLIQUES="2"))
    args = [x.format(work=work) for x in wl[2]]
    t0 = time.time()
    _, err, problem = xtbench.execute(
        [os.path.join(a.prefix, "bin", "mpiexec"), "-n", "2", exe] + args, env, 600)
    if problem:
        sys.exit(f"{wl[0]} {setting}: {problem}: {err[-500:]}")
    return time.time() - t0


def phases(tool, tdir):
    traces = tool.load_dir(tdir)
    return [p.as_dict(i + 1, 0.2) for i, p in enumerate(tool.detect(traces, 1.0, 0.2))]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--prefix", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--work", default="/tmp/xt-estimate")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--budget", type=float, default=300)
    ap.add_argument("--calib-repeat", type=int, default=3)
    ap.add_argument("--reuse", action="store_true",
                    help="use the traces of an earlier run in --work (recalibrate only)")
    ap.add_argument("--advice", default="matrix,xt_bench-vec",
                    help="workloads whose advice is measured against the default")
    ap.add_argument("--only", default="", help="comma list of workload names")
    ap.add_argument("--apps", default=os.path.join(BENCH, "..", "_build", "apps"),
                    help="where `make apps` built FLASH-IO and coll_perf (added when there)")
    a = ap.parse_args()
    WORKLOADS.extend(apps(a.apps))
    if a.only:
        WORKLOADS[:] = [w for w in WORKLOADS if w[0] in a.only.split(",")]
    tool = load_tool(a.prefix)
    os.makedirs(a.out, exist_ok=True)
    os.makedirs(a.work, exist_ok=True)
    exes = {wl[0]: wl[1] if os.path.isabs(wl[1]) else
            xtbench.mpicc(a.prefix, os.path.join(BENCH, wl[1]), os.path.join(a.work, wl[0]))
            for wl in WORKLOADS}
    # 1. measured runs, interleaved
    meas = {}           # (workload, setting) -> list of phase lists
    for rep in range(a.reps):
        for wl in WORKLOADS:
            for s in ["default"] + wl[3]:
                tdir = os.path.join(a.work, "traces", f"{wl[0]}-{s}-{rep}")
                if not (a.reuse and os.path.isdir(tdir)):
                    run_one(a, exes[wl[0]], wl, s, tdir)
                meas.setdefault((wl[0], s), []).append(phases(tool, tdir))
                print(f"rep {rep} {wl[0]} {s}: {len(meas[(wl[0], s)][-1])} phases", flush=True)
    # 2. the database, from the default traces' phase kinds
    db = os.path.join(a.out, "trace-calibration.json")
    if os.path.exists(db):
        os.remove(db)
    for wl in WORKLOADS:
        tdir = os.path.join(a.work, "traces", f"{wl[0]}-default-0")
        subprocess.run([os.path.join(a.prefix, "bin", "romio-xt-phases"), "--calibrate", db,
                        "--like", tdir, "--neighbours", "--repeat", str(a.calib_repeat),
                        "--budget", str(a.budget / len(WORKLOADS)), "--workdir", a.work],
                       check=True, env=dict(os.environ, MPIR_CVAR_NUM_CLIQUES="2"))  # as the jobs
    ents = tool.load_db(db)
    # 3. errors
    rows = []
    for wl in WORKLOADS:
        runs = meas[(wl[0], "default")]
        nph = len(runs[0])
        for s in wl[3]:
            other = meas[(wl[0], s)]
            if any(len(r) != nph for r in runs + other):
                print(f"{wl[0]} {s}: phase counts differ, skipped", file=sys.stderr)
                continue
            for mode in MODES:
                ivk = {"absolute": "interval", "gaps": "gaps_interval"}.get(mode)
                tot = [0.0, 0.0, 0.0, 0.0]
                for i in range(nph):
                    # median over reps of the default trace's estimate (and bounds)
                    ests = [tool.estimate([r[i]], ents)[0] for r in runs]
                    pts = [e[mode][s] for e in ests if s in e[mode]]
                    m = xtbench.median(r[i]["duration"] for r in other)
                    if not pts:
                        continue
                    e = xtbench.median(pts)
                    ivs = [x[ivk][s] for x in ests if ivk and x[ivk].get(s)] or [[e, e]]
                    lo, hi = xtbench.median(v[0] for v in ivs), xtbench.median(v[1] for v in ivs)
                    for k, v in enumerate((e, m, lo, hi)):
                        tot[k] += v
                    rows.append((wl[0], s, mode, f"phase{i + 1}", runs[0][i]["op"],
                                 tool.phase_kind(runs[0][i]), e, m, abs(e - m) / m, lo, hi,
                                 xtbench.median(r[i]["outside_calls"] for r in other)))
                if tot[1]:
                    rows.append((wl[0], s, mode, "run", "all", "", tot[0], tot[1],
                                 abs(tot[0] - tot[1]) / tot[1], tot[2], tot[3], 0.0))
    cols = ["workload", "setting", "mode", "scope", "op", "kind", "estimated_s", "measured_s",
            "rel_error", "estimate_low_s", "estimate_high_s", "measured_outside_calls_s"]
    xtbench.write_csv([dict(zip(cols, [*r[:5], "/".join(map(str, r[5])), f"{r[6]:.4f}",
                                       f"{r[7]:.4f}", f"{r[8]:.3f}", f"{r[9]:.4f}",
                                       f"{r[10]:.4f}", f"{r[11]:.4f}"])) for r in rows],
                      os.path.join(a.out, "trace-estimation.csv"), cols)
    # 4. advice
    adv = []
    for wl in [w for w in WORKLOADS if w[0] in a.advice.split(",")]:
        tdir = os.path.join(a.work, "traces", f"{wl[0]}-default-0")
        hfile = os.path.join(a.out, f"advice-{wl[0]}.hints")
        subprocess.run([os.path.join(a.prefix, "bin", "romio-xt-phases"), "--estimate",
                        "--db", db, "--hints-out", hfile, "--e10-path", "{work}/e10",
                        "--png", "", tdir], check=True, capture_output=True)
        text = open(hfile).read()
        hints = "".join(l + "\n" for l in text.splitlines() if l and not l.startswith("#"))
        chosen = [l for l in text.splitlines() if l.startswith("# all files:")]
        t = {"default": [], "advice": []}
        for rep in range(a.reps):
            for which in ("default", "advice"):
                tdir2 = os.path.join(a.work, "traces", f"adv-{wl[0]}-{which}-{rep}")
                work = os.path.join(a.work, "data")
                h = hints.replace("{work}", work) if which == "advice" else ""
                t[which].append(run_one(a, exes[wl[0]], wl, "default", tdir2, hints=h))
        adv.append((wl[0], chosen[0][13:] if chosen else "?", t["default"], t["advice"]))
    xtbench.write_csv([{"workload": w, "advice": c, "default_s": f"{x:.4f}",
                        "advice_s": f"{y:.4f}"} for w, c, d, v in adv for x, y in zip(d, v)],
                      os.path.join(a.out, "trace-advice.csv"))
    write_md(a, rows, adv)


def write_md(a, rows, adv):
    out = [
        "# Estimation error of romio-xt-phases",
        "",
        f"2 ranks, {a.reps} interleaved repetitions per workload and setting.",
        "Each workload was traced under its default setting; `romio-xt-phases --estimate` "
        "estimated every phase under two other settings from a database calibrated with "
        "`--calibrate --like` on the default traces; the workload was then run under those "
        "settings. Error = |estimated - measured| / measured (medians over repetitions).",
        "*absolute* is the paper's method (phase bytes / benchmark bandwidth); *gaps* adds the "
        "phase's time outside its calls in the default trace (compute between calls, waiting "
        "for the last rank of a collective call); *relative* scales "
        "the measured phase by the benchmark's bandwidth ratio between the settings.",
        "",
        "| mode | scope | n | mean error | median | max |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for mode in MODES:
        for scope in ("phase", "run"):
            e = [r[8] for r in rows if r[2] == mode and (r[3] == "run") == (scope == "run")]
            if e:
                out.append(f"| {mode} | {scope} | {len(e)} | {100 * st.mean(e):.0f}% | "
                           f"{100 * xtbench.median(e):.0f}% | {100 * max(e):.0f}% |")
    out += ["", "Per workload and setting (whole run = sum of its phases):", "",
            "| workload | setting | mode | estimated s (interval) | measured s | error |",
            "|---|---|---|---:|---:|---:|"]
    for r in rows:
        if r[3] == "run":
            out.append(f"| {r[0]} | {r[1]} | {r[2]} | {r[6]:.3f} ({r[9]:.3f}-{r[10]:.3f}) | "
                       f"{r[7]:.3f} | {100 * r[8]:.0f}% |")
    out += ["", "## Advice measured against the default", "",
            "Job wall time (mpiexec to exit, includes the startup both pay alike):", "",
            xtbench.md_table(["workload", "advice", "default s (median, min-max)",
                              "advice s (median, min-max)", "won"],
                             [[w, c, rng(d), rng(v),
                               "yes" if xtbench.median(v) < xtbench.median(d) else "no"]
                              for w, c, d, v in adv], "llrrl").rstrip()]
    out += ["", "Raw data: trace-estimation.csv, trace-advice.csv, trace-calibration.json."]
    with open(os.path.join(a.out, "trace-estimation.md"), "w") as f:
        f.write("\n".join(out) + "\n")
    print("\n".join(out))


if __name__ == "__main__":
    main()

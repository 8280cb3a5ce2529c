#!/usr/bin/python3
"""romio-xt-tune on the project's workloads: advised hints against the default.

  tune.py --prefix PREFIX --out DIR [--reps 3] [--budget 40] [--only a,b]
          [--testbed PROFILE [--ranks N] [--ppn P]]

Each workload (2 ranks, MPIR_CVAR_NUM_CLIQUES=2: one node seen as two) runs
under `romio-xt-tune --reps REPS --budget BUDGET`, which traces it, calibrates
what the trace needs, writes the advice and then runs the job with the advice
and without it, interleaved.  Writes tune.csv (every run) and tune.md (per
workload: the advice, default and advised wall times as median and min-max,
the speedup as median ratio and range, and whether the tuner kept the advice;
"final" is the speedup of what the tuner leaves in the hints file: the advice
when kept, else the default, 1.00x by definition).  FLASH-IO and coll_perf are
added when `make apps` built them (_build/apps).
"""
import argparse
import csv
import os
import statistics as st
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.dirname(HERE)

# name, source (under benchmarks/), arguments ({work} = data directory)
WORKLOADS = [
    ("matrix", "orthrus/matrix.c", ["{work}", "262144", "4", "40"]),
    ("noncontig", "orthrus/noncontig.c", ["{work}", "256", "4194304", "24"]),
    ("btio", "orthrus/btio.c", ["{work}", "48", "24"]),
    ("xt_bench-vec", "workloads/xt_bench.c",
     ["--dir", "{work}", "--phases", "vec", "--vec-mib", "64", "--chunk-kib", "256"]),
    ("xt_bench-contig", "workloads/xt_bench.c",
     ["--dir", "{work}", "--phases", "contig", "--contig-mib", "128", "--chunk-kib", "64"]),
    ("root-reader", "prefetch/pf_root.c",
     ["--data", "{work}", "--bytes", "33554432", "--compute-us", "200", "--mode", "tune"]),
]


# --testbed: the workloads of benchmarks/testbed/workflows.py, at its sizes;
# name -> seconds of compute before each written file's close (the PMPI shim tb_phase.c)
TB_WORKLOADS = [
    ("matrix", "orthrus/matrix.c", ["{work}", str(1 << 20), "4", "24"]),
    ("noncontig", "orthrus/noncontig.c", ["{work}", "256", str(4 << 20), "24"]),
    ("btio", "orthrus/btio.c", ["{work}", "64", "16"]),
]
TB_COMPUTE = {"flash-io-compute": 4.0, "coll_perf-compute": 3.0}
sys.path.insert(0, os.path.join(BENCH, "testbed"))
from workflows import E10, STATE, TB, node_sh  # noqa: E402  (the testbed's own helpers)


def apps(build, testbed=False):
    """FLASH-IO and coll_perf as built by `make apps`, when there (on the
    testbed also with compute after each file, as workflows.py runs them)"""
    out = []
    flash = os.path.join(build, "bin", "flash_io_16")
    coll = os.path.join(build, "bin", "coll_perf")
    for suffix in ("", "-compute") if testbed else ("",):
        if os.access(flash, os.X_OK):
            out.append(("flash-io" + suffix, flash, ["{work}/flash_"]))
        if os.access(coll, os.X_OK):
            out.append(("coll_perf" + suffix, coll, ["-fname", "{work}/coll_perf.dat"]))
    return out


def testbed_setup(a):
    """the work directory on the mount, the node-local E10 tier on each node,
    the compute shim; the job's launcher"""
    a.work = os.path.join(STATE, "mnt", "xt-tune")
    a.e10 = E10
    node_sh(f"mkdir -p {E10}")
    a.shim = os.path.join(a.work, "libtbphase.so")
    os.makedirs(a.work, exist_ok=True)
    subprocess.run([os.path.join(a.prefix, "bin", "mpicc"), "-O2", "-shared", "-fPIC", "-o",
                    a.shim, os.path.join(BENCH, "testbed", "tb_phase.c")], check=True)


def launcher(a, wl):
    if not a.testbed:
        return [os.path.join(a.prefix, "bin", "mpiexec"), "-n", "2"]
    ppn = ["-ppn", str(a.ppn)] if a.ppn else []
    return [TB, "mpiexec", *ppn, "-n", str(a.ranks), "env", f"LD_PRELOAD={a.shim}",
            f"TB_COMPUTE_S={TB_COMPUTE.get(wl[0], 0)}"]


def build(a, wl):
    if os.path.isabs(wl[1]):
        return wl[1]
    exe = os.path.join(a.work, wl[0])
    subprocess.run([os.path.join(a.prefix, "bin", "mpicc"), "-O2", "-o", exe,
                    os.path.join(BENCH, wl[1])], check=True)
    return exe


def prepare(a, wl, exe, work):
    """pf_root reads files it made before (one per rank)"""
    if wl[0] == "root-reader":
        for r in range(2):
            subprocess.run([os.path.join(a.prefix, "bin", "mpiexec"), "-n", "1", exe, "--create",
                            os.path.join(work, f"root.{r}"), "33554432"], check=True,
                           capture_output=True)


def tune_one(a, wl):
    work = os.path.join(a.work, "data-" + wl[0])
    e10 = a.e10 if a.testbed else os.path.join(work, "e10")
    os.makedirs(work if a.testbed else e10, exist_ok=True)
    exe = build(a, wl)
    prepare(a, wl, exe, work)
    hints = os.path.join(a.out, f"tune-{wl[0]}.hints")
    runs = os.path.join(a.work, f"runs-{wl[0]}.csv")
    cmd = [os.path.join(a.prefix, "bin", "romio-xt-tune"), "--budget", str(a.budget),
           "--reps", str(a.reps), "--hints-out", hints, "--csv", runs, "--e10-path", e10,
           "--workdir", os.path.join(a.work, "tune-" + wl[0]), "--", *launcher(a, wl), exe]
    if a.try_lowest:
        cmd.insert(1, "--try-lowest")
    cmd += [x.format(work=work) for x in wl[2]]
    if a.testbed:   # the kernel goes through the testbed's nodes too
        cmd[1:1] = ["--mpiexec", f"{TB} mpiexec"]
        env = dict(os.environ, XT_MPIEXEC=os.path.join(a.prefix, "bin", "mpiexec"),
                   ROMIO_XT_ORTHRUS_SERVERS="3", ROMIO_XT_ORTHRUS_STRIPE_UNIT="64m")
    else:
        env = dict(os.environ, MPIR_CVAR_NUM_CLIQUES="2")
    log = os.path.join(a.work, f"tune-{wl[0]}.log")
    with open(log, "w") as f:
        rc = subprocess.run(cmd, env=env, stdout=f, stderr=subprocess.STDOUT).returncode
    if rc != 0:
        print(f"{wl[0]}: romio-xt-tune exit {rc}, see {log}", file=sys.stderr)
        return None
    with open(runs) as f:
        rows = list(csv.DictReader(f))
    with open(hints) as f:
        text = f.read()
    advice = [ln.replace("# not kept: ", "") for ln in text.splitlines()
              if ln and (not ln.startswith("#") or ln.startswith("# not kept: "))]
    return {"workload": wl[0], "advice": "; ".join(advice) or "default",
            "outcome": rows[0]["outcome"],
            "default": [float(r["seconds"]) for r in rows if r["variant"] == "default"],
            "advised": [float(r["seconds"]) for r in rows if r["variant"] == "advised"]}


def write(a, res):
    with open(os.path.join(a.out, "tune.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["workload", "advice", "outcome", "variant", "rep", "seconds"])
        for r in res:
            for v in ("default", "advised"):
                for k, t in enumerate(r[v]):
                    w.writerow([r["workload"], r["advice"], r["outcome"], v, k, f"{t:.4f}"])
    shape = f"{a.ranks} ranks ({a.ppn} per node)" if a.ppn else f"{a.ranks} ranks"
    where = (f"{shape} on the MooseFS testbed's nodes ({a.testbed} profile; compute before "
             f"each written file's close: {TB_COMPUTE})" if a.testbed else "2 ranks, MPIR_CVAR_NUM_CLIQUES=2")
    out = ["# romio-xt-tune on the project's workloads", "",
           f"{where}, calibration budget {a.budget:.0f} s, "
           f"{a.reps} runs with the advice and {a.reps} without, interleaved, per workload; job "
           "wall time (mpiexec to exit)." + (" --try-lowest: the lowest estimate is run even "
                                             "when its interval overlaps the default's." if
                                             a.try_lowest else " An advice `default` runs the "
                                             "same settings twice: its speedup is the noise."),
           "",
           "| workload | advice | default s median (min-max) | advised s median (min-max) | "
           "speedup (range) | tuner | final |", "|---|---|---:|---:|---:|---|---:|"]
    for r in res:
        d, v = r["default"], r["advised"]
        sp = st.median(d) / st.median(v)
        final = sp if r["outcome"] == "kept" else 1.0
        out.append(f"| {r['workload']} | `{r['advice']}` | {st.median(d):.3f} ({min(d):.3f}-"
                   f"{max(d):.3f}) | {st.median(v):.3f} ({min(v):.3f}-{max(v):.3f}) | "
                   f"{sp:.2f}x ({min(d) / max(v):.2f}-{max(d) / min(v):.2f}) | {r['outcome']} | "
                   f"{final:.2f}x |")
    out += ["", "Raw data: tune.csv; the hints files: tune-<workload>.hints."]
    with open(os.path.join(a.out, "tune.md"), "w") as f:
        f.write("\n".join(out) + "\n")
    print("\n".join(out))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--prefix", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--work", default="/tmp/xt-tune")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--budget", type=float, default=40)
    ap.add_argument("--only", default="", help="comma list of workload names")
    ap.add_argument("--try-lowest", action="store_true", help="romio-xt-tune --try-lowest")
    ap.add_argument("--testbed", metavar="PROFILE", default="",
                    help="run on the started testbed (scripts/testbed.sh start --profile "
                    "PROFILE): its workloads and sizes, files on its mount")
    ap.add_argument("--ranks", type=int, default=2, help="--testbed: the job's ranks (2)")
    ap.add_argument("--ppn", type=int, default=0,
                    help="--testbed: ranks per node (default: the testbed's spread)")
    a = ap.parse_args()
    if not a.testbed and (a.ranks != 2 or a.ppn):
        ap.error("--ranks and --ppn need --testbed (local runs use 2 ranks)")
    os.makedirs(a.out, exist_ok=True)
    if a.testbed:
        testbed_setup(a)
    os.makedirs(a.work, exist_ok=True)
    wls = (TB_WORKLOADS if a.testbed else WORKLOADS) + \
        apps(os.path.join(BENCH, "..", "_build", "apps"), bool(a.testbed))
    if a.only:
        wls = [w for w in wls if w[0] in a.only.split(",")]
    res = [r for r in (tune_one(a, wl) for wl in wls) if r]
    write(a, res)


if __name__ == "__main__":
    main()

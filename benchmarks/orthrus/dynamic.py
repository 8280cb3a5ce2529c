#!/usr/bin/env python3
"""Orthrus dynamic run (seed section 3.5, Fig. 6): Matrix collective reads (or writes),
one interference switched on part-way (interfere.py, started on a marker
file the workload writes at call MARK), throughput over the calls for each
candidate forced and for romio_orthrus=enable, and the candidate enable ran
per call (romio_orthrus_log, when the installed library has it).

usage: dynamic.py probe|run|report --prefix P --out DIR [options]
  probe   each candidate forced, each interference from a third of the calls
          on (before/after in the same run, as drift between runs is large
          here): which interference changes the ranking (probe.csv, probe.md)
  run     the dynamic run: every config under the same schedule
          (orthrus-dynamic.csv)
  report  orthrus-dynamic.csv -> orthrus-dynamic.png and .md
"""
import argparse
import csv
import os
import shutil
import signal
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from harness import execute  # noqa: E402  (runs in its own process group, killed on timeout)

CANDS = ["two_phase", "core_first", "disk_first"]
CONFIGS = {c: {"romio_orthrus_force": c} for c in CANDS}
CONFIGS["enable"] = {"romio_orthrus": "enable"}
COLORS = {"two_phase": "tab:blue", "core_first": "tab:orange", "disk_first": "tab:green",
          "enable": "black"}


def build(prefix, out):
    exe = os.path.join(out, "bin", "matrix")
    os.makedirs(os.path.dirname(exe), exist_ok=True)
    subprocess.run([os.path.join(prefix, "bin", "mpicc"), "-O2", "-o", exe,
                    os.path.join(HERE, "matrix.c")], check=True)
    return exe


def has_log(prefix):
    lib = os.path.join(prefix, "lib", "libmpi.so")
    with open(lib, "rb") as f:
        return b"romio_orthrus_log" in f.read()


def run_one(a, exe, config, mode, mark, tag):
    """One matrix run with interference `mode` from call `mark` of phase a.op
    (read or write): [(call, seconds, candidate, phase, event)] of that phase."""
    work = os.path.join(a.work, tag)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    logs = os.path.join(a.out, "logs")
    os.makedirs(logs, exist_ok=True)
    marker, trace = os.path.join(work, "marker"), os.path.join(logs, tag + ".trace.csv")
    if os.path.exists(trace):
        os.remove(trace)
    hints = dict(CONFIGS[config])
    if a.log:
        hints["romio_orthrus_log"] = trace
    hfile = os.path.join(logs, tag + ".hints")
    with open(hfile, "w") as f:
        f.writelines(f"{k} {v}\n" for k, v in hints.items())
    env = {k: v for k, v in os.environ.items() if not k.startswith("ROMIO_")}
    env.update(ROMIO_HINTS=hfile, MPIR_CVAR_NUM_CLIQUES="2", ORTH_BENCH_CALLS="1",
               ORTH_BENCH_MARK=marker, ORTH_BENCH_MARK_CALL=str(mark),
               ORTH_BENCH_MARK_PHASE=a.op, LD_LIBRARY_PATH=os.path.join(a.prefix, "lib"))
    hog = subprocess.Popen([sys.executable, os.path.join(HERE, "interfere.py"), mode, marker,
                            "--dir", work], stdout=subprocess.PIPE, text=True)
    cmd = [os.path.join(a.prefix, "bin", "mpiexec"), "-n", "2", exe, work, str(a.block),
           str(a.depth), str(a.calls), str(mark)]
    try:
        out, err, problem = execute(cmd, env, a.timeout)
    finally:
        hog.send_signal(signal.SIGTERM)
        hog_out = hog.communicate(timeout=60)[0]
        shutil.rmtree(work, ignore_errors=True)
    with open(os.path.join(logs, tag + ".out"), "w") as f:
        f.write(f"$ {' '.join(cmd)}\n{out}{err}{hog_out}")
    if problem:
        raise SystemExit(f"dynamic: {tag} failed ({problem}):\n{err[-2000:]}")
    calls = {}
    for line in out.splitlines():
        if line.startswith(f"CALL phase={a.op} "):
            kv = dict(item.split("=", 1) for item in line.split()[1:])
            calls[int(kv["call"])] = [float(kv["seconds"]), config if config in CANDS else "",
                                      "", ""]
    if os.path.exists(trace):
        for r in csv.DictReader(open(trace)):
            k = int(r["call"]) - 1          # the trace counts calls from 1
            if r["op"] == a.op and k in calls:
                calls[k][1:] = [r["candidate"], r["phase"], r["event"]]
    return [(k, *calls[k]) for k in sorted(calls)]


def write_rows(path, rows, header):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)


def mbps(a, seconds):
    return 2 * a.block * a.depth / seconds / 1e6


def probe(a, exe):
    """Throughput of each forced candidate before and after each
    interference starts at call calls/3 of the same run (drift between runs
    is large here; before/after in one run is not hit by it)."""
    rows, mark = [], a.calls // 3
    for rep in range(1, a.reps + 1):
        for mode in a.modes.split(","):
            for cand in CANDS:
                calls = run_one(a, exe, cand, mode, mark, f"probe-{mode}-{cand}-r{rep}")
                pre = [c[1] for c in calls[3:mark]]
                post = [c[1] for c in calls[mark + 3:]]
                b, f = mbps(a, sum(pre) / len(pre)), mbps(a, sum(post) / len(post))
                rows.append((mode, cand, rep, f"{b:.1f}", f"{f:.1f}"))
                print(f"dynamic: probe {mode} {cand} rep {rep}: {b:.0f} -> {f:.0f} MB/s",
                      file=sys.stderr)
    write_rows(os.path.join(a.out, "probe.csv"), rows,
               ["interference", "candidate", "rep", "before_MBps", "after_MBps"])
    med = {}
    for mode, cand, _, b, f in rows:
        med.setdefault((mode, cand), []).append((float(b), float(f)))
    lines = [f"Matrix {a.op}s, block {a.block} B, depth {a.depth}, {a.calls} calls; interference "
             f"from call {mark}; before = calls 3-{mark - 1}, after = calls {mark + 3}-"
             f"{a.calls - 1} of the same run; medians of {a.reps} reps (after: min-max).", "",
             "| interference | " + " | ".join(f"{c} before / after MB/s" for c in CANDS) +
             " | ranking before | ranking after |", "|---|" + "---|" * (len(CANDS) + 2)]
    for mode in a.modes.split(","):
        b = {c: statistics.median(x for x, _ in med[(mode, c)]) for c in CANDS}
        f = {c: statistics.median(y for _, y in med[(mode, c)]) for c in CANDS}
        cells = [f"{b[c]:.0f} / {f[c]:.0f} ({min(y for _, y in med[(mode, c)]):.0f}-"
                 f"{max(y for _, y in med[(mode, c)]):.0f})" for c in CANDS]
        rb = " > ".join(sorted(CANDS, key=lambda c: -b[c]))
        rf = " > ".join(sorted(CANDS, key=lambda c: -f[c]))
        lines.append(f"| {mode} | " + " | ".join(cells) + f" | {rb} | {rf} |")
    text = "\n".join(lines) + "\n"
    with open(os.path.join(a.out, "probe.md"), "w") as f:
        f.write(text)
    print(text, end="")


def run(a, exe):
    rows = []
    for rep in range(1, a.reps + 1):
        for config in list(CANDS) + ["enable"]:
            tag = f"dyn-{a.mode}-{config}-r{rep}"
            for k, secs, cand, phase, event in run_one(a, exe, config, a.mode, a.mark, tag):
                rows.append((config, a.mode, rep, k, f"{secs:.6f}", f"{mbps(a, secs):.1f}",
                             cand, phase, event))
            print(f"dynamic: {tag}: ok", file=sys.stderr)
    write_rows(os.path.join(a.out, "orthrus-dynamic.csv"), rows,
               ["config", "interference", "rep", "call", "seconds", "MBps", "candidate",
                "phase", "event"])


# ---- report ------------------------------------------------------------------

def windowed(calls, secs, w, nbytes):
    """throughput over the last w calls (bytes / seconds), per call index"""
    out = []
    for i in range(len(calls)):
        lo = max(0, i - w + 1)
        out.append(nbytes * (i - lo + 1) / sum(secs[lo:i + 1]) / 1e6)
    return out


def switch_calls(run_rows, mark):
    """calls after the interference started until enable ran another
    candidate than before it (in the chosen phase): (reexamine call, first
    call of the new winner) relative to mark, or None"""
    before = [r for r in run_rows if r["call"] < mark and r["phase"] == "chosen"]
    if not before:
        return None, None, None, None
    old = before[-1]["candidate"]
    reex = next((r["call"] - mark for r in run_rows
                 if r["call"] >= mark and r["event"] == "reexamine"), None)
    new = next((r for r in run_rows if r["call"] >= mark and r["phase"] == "chosen"
                and r["candidate"] != old), None)
    return reex, (new["call"] - mark if new else None), old, (new["candidate"] if new else None)


def report(a):
    rows = list(csv.DictReader(open(os.path.join(a.out, "orthrus-dynamic.csv"))))
    for r in rows:
        r["call"], r["rep"], r["seconds"] = int(r["call"]), int(r["rep"]), float(r["seconds"])
    nbytes = 2 * a.block * a.depth
    by = {}
    for r in rows:
        by.setdefault((r["config"], r["rep"]), []).append(r)
    configs = [c for c in list(CANDS) + ["enable"] if any(k[0] == c for k in by)]
    mode = rows[0]["interference"]
    lo, hi = min(a.before, a.mark - 1), a.mark + a.settle

    def tput(rs, first, last):
        sel = [r["seconds"] for r in rs if first <= r["call"] < last]
        return nbytes * len(sel) / sum(sel) / 1e6 if sel else float("nan")

    md = [f"Interference `{mode}` from {a.op} call {a.mark} (of {a.calls}); Matrix {a.op}s, "
          f"block {a.block} B, depth {a.depth} ({nbytes >> 10} KiB per call), 2 ranks on 2 "
          f"emulated nodes, {max(r['rep'] for r in rows)} reps (medians, min-max).", "",
          f"| config | before (calls {lo}-{a.mark - 1}) MB/s | after (calls {hi}-{a.calls - 1})"
          " MB/s | after/before |", "|---|---|---|---|"]
    for c in configs:
        reps = [by[k] for k in by if k[0] == c]
        b = [tput(rs, lo, a.mark) for rs in reps]
        f = [tput(rs, hi, a.calls) for rs in reps]
        md.append(f"| {c} | {statistics.median(b):.0f} ({min(b):.0f}-{max(b):.0f}) | "
                  f"{statistics.median(f):.0f} ({min(f):.0f}-{max(f):.0f}) | "
                  f"{statistics.median(f) / statistics.median(b):.2f} |")
    md += ["", "| enable rep | candidate before | re-examination at call (after start) | "
           "switched to | first call of it (after start) | examinations after start |",
           "|---|---|---|---|---|---|"]
    for k in sorted(k for k in by if k[0] == "enable"):
        rs = by[k]
        if not any(r["phase"] for r in rs):
            md.append(f"| {k[1]} | (no trace: library without romio_orthrus_log) | | | | |")
            continue
        reex, first, old, new = switch_calls(rs, a.mark)
        exams = sum(1 for r in rs if r["call"] >= a.mark and r["event"].startswith("chose:"))
        md.append(f"| {k[1]} | {old} | {'-' if reex is None else reex} | {new or 'no switch'} |"
                  f" {'-' if first is None else first} | {exams} |")
    text = "\n".join(md) + "\n"
    with open(os.path.join(a.out, "orthrus-dynamic.md"), "w") as f:
        f.write(text)
    print(text, end="")
    plot(a, by, configs, mode, nbytes)


def plot(a, by, configs, mode, nbytes):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    reps = sorted({k[1] for k in by})
    fig, axes = plt.subplots(len(reps), 1, figsize=(10, 3.2 * len(reps)), sharex=True,
                             squeeze=False)
    for ax, rep in zip(axes[:, 0], reps):
        top = 0
        for c in configs:
            rs = by.get((c, rep))
            if not rs:
                continue
            calls = [r["call"] for r in rs]
            w = windowed(calls, [r["seconds"] for r in rs], a.window, nbytes)
            top = max(top, max(w))
            ax.plot(calls, w, color=COLORS[c], lw=2 if c == "enable" else 1.2,
                    label=("enable (romio_orthrus=enable)" if c == "enable" else c + " forced"))
        ax.axvline(a.mark, color="red", ls="--", label=f"{mode} interference starts")
        rs = by.get(("enable", rep), [])
        for r in rs:        # the candidate enable ran, as a band under the lines
            if r["candidate"]:
                ax.bar(r["call"], top * 0.06, bottom=-top * 0.08, width=1.0,
                       color=COLORS[r["candidate"]], alpha=1.0 if r["phase"] == "chosen" else 0.4)
        ax.set_ylim(-top * 0.1, top * 1.1)
        ax.set_ylabel(f"MB/s (last {a.window} calls)")
        ax.set_title(f"rep {rep}: band = candidate run by enable (light = examining)",
                     fontsize=9)
        ax.grid(alpha=0.3)
    handles, labels = axes[0, 0].get_legend_handles_labels()
    fig.legend(handles, labels, fontsize=8, ncol=5, loc="lower center")
    axes[-1, 0].set_xlabel(f"collective {a.op} call")
    fig.suptitle(f"Orthrus dynamic run: Matrix {a.op}s ({nbytes >> 10} KiB/call), {mode} "
                 f"interference from call {a.mark}")
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    fig.savefig(os.path.join(a.out, "orthrus-dynamic.png"), dpi=110)
    plt.close(fig)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("what", choices=["probe", "run", "report"])
    p.add_argument("--prefix", default=os.environ.get("XT_PREFIX", "/tmp/xtb/install"))
    p.add_argument("--out", required=True)
    p.add_argument("--work", help="workload directory (default OUT/work)")
    p.add_argument("--op", choices=["read", "write"], default="write",
                   help="the phase measured and interfered with")
    p.add_argument("--block", type=int, default=32768)
    p.add_argument("--depth", type=int, default=32)
    p.add_argument("--calls", type=int, default=200)
    p.add_argument("--mark", type=int, default=60, help="call (of --op) where interference starts")
    p.add_argument("--mode", default="spawn", help="interference of the run")
    p.add_argument("--modes", default="none,tcp,cpu,disk,spawn", help="interferences probed")
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--window", type=int, default=10, help="calls per throughput point")
    p.add_argument("--before", type=int, default=20, help="first call counted in 'before' "
                   "(after enable's first examination)")
    p.add_argument("--settle", type=int, default=20, help="calls after the start not "
                   "counted in 'after'")
    p.add_argument("--timeout", type=int, default=600)
    a = p.parse_args()
    a.work = a.work or os.path.join(a.out, "work")
    os.makedirs(a.out, exist_ok=True)
    if a.what == "report":
        return report(a)
    a.log = has_log(a.prefix)
    print(f"dynamic: per-call trace (romio_orthrus_log): {'yes' if a.log else 'no'}",
          file=sys.stderr)
    exe = build(a.prefix, a.out)
    probe(a, exe) if a.what == "probe" else run(a, exe)


if __name__ == "__main__":
    sys.exit(main())

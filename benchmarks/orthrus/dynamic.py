#!/usr/bin/env python3
"""Orthrus dynamic run (the paper's section 3.5, Fig. 6): Matrix collective
writes (or reads), one interference switched on part-way (started on a
marker file the workload writes at call MARK), throughput over the calls for
each candidate forced and for romio_orthrus=enable, and the candidate enable
ran per call (romio_orthrus_log, when the installed library has it).
Run by `benchmarks/orthrus/run.sh dynamic`.

usage: dynamic.py probe|run|report --prefix P --out DIR [options]
  probe   each candidate forced, each interference from a third of the calls
          on (before/after in the same run, as drift between runs is large
          here): which interference changes the ranking (probe.csv, probe.md)
  run     the dynamic run: every config under the same schedule
          (orthrus-dynamic.csv)
  report  orthrus-dynamic.csv -> orthrus-dynamic.png and .md
usage: dynamic.py interfere MODE MARKER [--dir DIR] [--stop STOP]
  waits until MARKER exists, then hogs a resource until SIGTERM (or STOP exists):
  tcp    two processes streaming 1 MiB buffers through a 127.0.0.1 socket
         (MPI's traffic between emulated nodes is TCP under ch3:nemesis;
         core_first's exchange stays inside a node)
  spawn  a shell starting /bin/true in a loop (process creation, like a
         build running next to the job)
  disk   1 MiB writes + fdatasync in a loop (a 256 MiB file in DIR)
  cpu    one busy-looping process; cpu2: two (one per core here)
  none   nothing (waits for the marker, then idles)
"""
import argparse
import os
import shutil
import signal
import socket
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import xtbench  # noqa: E402

CANDS = ["two_phase", "core_first", "disk_first"]
CONFIGS = {c: {"romio_orthrus_force": c} for c in CANDS}
CONFIGS["enable"] = {"romio_orthrus": "enable"}
COLORS = {"two_phase": "tab:blue", "core_first": "tab:orange", "disk_first": "tab:green",
          "enable": "black"}


def build(prefix, out):
    return xtbench.mpicc(prefix, os.path.join(HERE, "matrix.c"),
                         os.path.join(out, "bin", "matrix"))


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
    env = xtbench.clean_env(drop=(), drop_prefixes=("ROMIO_",), extra=dict(
        MPIR_CVAR_NUM_CLIQUES="2", ORTH_BENCH_CALLS="1", ORTH_BENCH_MARK=marker,
        ORTH_BENCH_MARK_CALL=str(mark), ORTH_BENCH_MARK_PHASE=a.op,
        LD_LIBRARY_PATH=os.path.join(a.prefix, "lib")))
    hog = subprocess.Popen([sys.executable, os.path.abspath(__file__), "interfere", mode, marker,
                            "--dir", work], stdout=subprocess.PIPE, text=True)
    cmd = [os.path.join(a.prefix, "bin", "mpiexec"), "-n", "2", exe, work, str(a.block),
           str(a.depth), str(a.calls), str(mark)]
    try:
        out, err, problem = xtbench.run_hinted(cmd, hints, env, logs, tag, a.timeout)
    finally:
        hog.send_signal(signal.SIGTERM)
        hog_out = hog.communicate(timeout=60)[0]
        shutil.rmtree(work, ignore_errors=True)
    with open(os.path.join(logs, tag + ".out"), "a") as f:
        f.write(hog_out)
    if problem:
        raise SystemExit(f"dynamic: {tag} failed ({problem}):\n{err[-2000:]}")
    calls = {}
    for kv in xtbench.parse_results(out, "CALL"):
        if kv.get("phase") == a.op:
            calls[int(kv["call"])] = [float(kv["seconds"]), config if config in CANDS else "",
                                      "", ""]
    if os.path.exists(trace):
        for r in xtbench.read_csv(trace):
            k = int(r["call"]) - 1          # the trace counts calls from 1
            if r["op"] == a.op and k in calls:
                calls[k][1:] = [r["candidate"], r["phase"], r["event"]]
    return [(k, *calls[k]) for k in sorted(calls)]


def write_rows(path, rows, header):
    xtbench.write_csv([dict(zip(header, r)) for r in rows], path, header)


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
    table = []
    for mode in a.modes.split(","):
        b = {c: xtbench.median(x for x, _ in med[(mode, c)]) for c in CANDS}
        f = {c: xtbench.median(y for _, y in med[(mode, c)]) for c in CANDS}
        cells = ["{:.0f} / {:.0f} ({:.0f}-{:.0f})".format(
            b[c], f[c], *xtbench.spread(y for _, y in med[(mode, c)])) for c in CANDS]
        rb = " > ".join(sorted(CANDS, key=lambda c: -b[c]))
        rf = " > ".join(sorted(CANDS, key=lambda c: -f[c]))
        table.append([mode] + cells + [rb, rf])
    text = (f"Matrix {a.op}s, block {a.block} B, depth {a.depth}, {a.calls} calls; interference "
            f"from call {mark}; before = calls 3-{mark - 1}, after = calls {mark + 3}-"
            f"{a.calls - 1} of the same run; medians of {a.reps} reps (after: min-max).\n\n" +
            xtbench.md_table(["interference"] + [f"{c} before / after MB/s" for c in CANDS] +
                             ["ranking before", "ranking after"], table))
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
    rows = xtbench.read_csv(os.path.join(a.out, "orthrus-dynamic.csv"))
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

    table = []
    for c in configs:
        reps = [by[k] for k in by if k[0] == c]
        b = [tput(rs, lo, a.mark) for rs in reps]
        f = [tput(rs, hi, a.calls) for rs in reps]
        table.append([c, "{:.0f} ({:.0f}-{:.0f})".format(xtbench.median(b), *xtbench.spread(b)),
                      "{:.0f} ({:.0f}-{:.0f})".format(xtbench.median(f), *xtbench.spread(f)),
                      f"{xtbench.median(f) / xtbench.median(b):.2f}"])
    md = [f"Interference `{mode}` from {a.op} call {a.mark} (of {a.calls}); Matrix {a.op}s, "
          f"block {a.block} B, depth {a.depth} ({nbytes >> 10} KiB per call), 2 ranks on 2 "
          f"emulated nodes, {max(r['rep'] for r in rows)} reps (medians, min-max).", "",
          xtbench.md_table(["config", f"before (calls {lo}-{a.mark - 1}) MB/s",
                            f"after (calls {hi}-{a.calls - 1}) MB/s", "after/before"],
                           table).rstrip()]
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
    plt = xtbench.pyplot("dynamic")
    if plt is None:
        return
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
    xtbench.save(fig, os.path.join(a.out, "orthrus-dynamic.png"))


# ---- interference --------------------------------------------------------------

CHUNK = 1 << 20
running = True


def stop(*_):
    global running
    running = False


def should_run(args):
    return running and not (args.stop and os.path.exists(args.stop))


def hog_tcp(args):
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(1)
    port = srv.getsockname()[1]
    pid = os.fork()
    if pid == 0:                        # the sink
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        conn, _ = srv.accept()
        while conn.recv(CHUNK):
            pass
        os._exit(0)
    srv.close()
    cli = socket.create_connection(("127.0.0.1", port))
    buf, sent = b"x" * CHUNK, 0
    while should_run(args):
        cli.sendall(buf)
        sent += CHUNK
    cli.close()
    os.waitpid(pid, 0)
    return f"{sent >> 20} MiB sent"


def hog_disk(args):
    path = os.path.join(args.dir, "interfere.dat")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    buf, n = os.urandom(CHUNK), 0
    try:
        while should_run(args):
            os.pwrite(fd, buf, (n % 256) * CHUNK)
            os.fdatasync(fd)
            n += 1
    finally:
        os.close(fd)
        os.unlink(path)
    return f"{n} MiB written"


def hog_cpu(args):
    pid = os.fork() if args.mode == "cpu2" else -1
    if pid == 0:                        # the second spinner stops with its parent
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        while os.getppid() != 1:
            for _ in range(100000):
                pass
        os._exit(0)
    n = 0
    while should_run(args):
        for _ in range(100000):
            n += 1
    if pid > 0:
        os.kill(pid, signal.SIGTERM)
        os.waitpid(pid, 0)
    return f"{n} loops"


def hog_spawn(args):
    sh = subprocess.Popen(["/bin/sh", "-c", "while :; do /bin/true; done"],
                          start_new_session=True)
    while should_run(args):
        time.sleep(0.05)
    os.killpg(sh.pid, signal.SIGKILL)
    sh.wait()
    return "spawned"


def hog_none(args):
    while should_run(args):
        time.sleep(0.05)
    return "idle"


HOGS = {"tcp": hog_tcp, "disk": hog_disk, "cpu": hog_cpu, "cpu2": hog_cpu, "spawn": hog_spawn,
        "none": hog_none}


def interfere(argv):
    """Prints 'interfere: MODE started' / 'stopped' with a count of bytes or loops."""
    p = argparse.ArgumentParser(prog="dynamic.py interfere")
    p.add_argument("mode", choices=sorted(HOGS))
    p.add_argument("marker")
    p.add_argument("--dir", default="/tmp")
    p.add_argument("--stop")
    args = p.parse_args(argv)
    signal.signal(signal.SIGTERM, stop)
    while should_run(args) and not os.path.exists(args.marker):
        time.sleep(0.01)
    if not should_run(args):
        return 0
    print(f"interfere: {args.mode} started", flush=True)
    what = HOGS[args.mode](args)
    print(f"interfere: {args.mode} stopped ({what})", flush=True)
    return 0


def main():
    if sys.argv[1:2] == ["interfere"]:
        return interfere(sys.argv[2:])
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

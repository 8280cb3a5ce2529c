#!/usr/bin/env python3
"""IOR-like limits of a file system directory: contiguous write and read
bandwidth (each client its own contiguous segment of one shared file, 1 MiB
requests, write + fsync, read after POSIX_FADV_DONTNEED) and the latency of
4 KiB requests (random reads of an evicted file; writes each followed by
fdatasync), for 1 and 2 concurrent clients (processes).

  limits.py --dir DIR --label NAME [--mib 256] [--reps 3] [--csv OUT.csv]

Appends rows label,clients,metric,rep,value to the CSV (MB/s for bandwidth,
microseconds per request for latency; a 2-client latency is the median over
both clients' requests).

  limits.py --testbed scripts/testbed.sh --label hdd [--p2p tb_p2p] [--mib 256]
            [--reps 3] [--csv OUT.csv]

Profile limits of a running testbed with emulated nodes (started with
--profile): the clients run inside the nodes' namespaces, each through its
node's own link and client mount.  Write and read bandwidth of one node alone
and of all nodes at once (the chunk servers' caches dropped before each read;
node k reads what node k+1 wrote), 4 KiB latencies, the same on the
node-local tier (node 1's), and MPI point-to-point bandwidth and
latency between node 1 and node 2 (--p2p: benchmarks/testbed/tb_p2p.c).
Prints a markdown table; --table CSV [--label L] prints it again from a CSV."""
import argparse
import multiprocessing as mp
import os
import random
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import xtbench  # noqa: E402
from xtbench import evict, median  # noqa: E402

MIB = 1 << 20


def seg_write(path, idx, mib, bar, q):
    buf = os.urandom(MIB)
    fd = os.open(path, os.O_WRONLY)
    bar.wait()
    t = time.perf_counter()
    for i in range(mib):
        os.pwrite(fd, buf, (idx * mib + i) * MIB)
    os.fsync(fd)
    q.put(time.perf_counter() - t)
    os.close(fd)


def seg_read(path, idx, mib, bar, q):
    fd = os.open(path, os.O_RDONLY)
    bar.wait()
    t = time.perf_counter()
    for i in range(mib):
        os.pread(fd, MIB, (idx * mib + i) * MIB)
    q.put(time.perf_counter() - t)
    os.close(fd)


def lat_read(path, idx, mib, bar, q):
    rnd = random.Random(idx)
    fd = os.open(path, os.O_RDONLY)
    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_RANDOM)
    bar.wait()
    ts = []
    for _ in range(200):
        off = rnd.randrange(0, mib * 2 * MIB // 4096) * 4096
        t = time.perf_counter()
        os.pread(fd, 4096, off)
        ts.append(time.perf_counter() - t)
    q.put(ts)
    os.close(fd)


def lat_write(path, idx, mib, bar, q):
    rnd = random.Random(100 + idx)
    buf = os.urandom(4096)
    fd = os.open(path, os.O_WRONLY)
    bar.wait()
    ts = []
    for _ in range(100):
        off = (idx * mib * MIB) + rnd.randrange(0, mib * MIB // 4096) * 4096
        t = time.perf_counter()
        os.pwrite(fd, buf, off)
        os.fdatasync(fd)
        ts.append(time.perf_counter() - t)
    q.put(ts)
    os.close(fd)


def run(fn, path, n, mib):
    bar, q = mp.Barrier(n), mp.Queue()
    ps = [mp.Process(target=fn, args=(path, i, mib, bar, q)) for i in range(n)]
    for p in ps:
        p.start()
    res = [q.get() for _ in ps]
    for p in ps:
        p.join()
    return res



# ---- profile limits: clients in the emulated nodes (scripts/testbed.sh) ----

def _wait_until(t0):
    d = t0 - time.time()
    if d > 0:
        time.sleep(d)


def worker(op, path, idx, mib, start_at):
    """One client inside a node: prints seconds (bandwidth ops) or the
    median latency in us (lat ops).  idx: the segment written or read."""
    mode = os.O_RDONLY if op in ("read", "lat_read") else os.O_WRONLY | os.O_CREAT
    try:
        fd = os.open(path, mode, 0o644)
    except FileExistsError:     # two nodes' clients created it at once (MooseFS)
        fd = os.open(path, os.O_WRONLY)
    if op in ("read", "lat_read"):  # this node's client cache
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    buf = os.urandom(MIB if op in ("read", "write") else 4096)
    rnd = random.Random(idx)
    _wait_until(start_at)
    t = time.perf_counter()
    if op == "write":
        for i in range(mib):
            os.pwrite(fd, buf, (idx * mib + i) * MIB)
        os.fsync(fd)
    elif op == "read":
        for i in range(mib):
            os.pread(fd, MIB, (idx * mib + i) * MIB)
    else:
        ts = []
        for _ in range(100 if op == "lat_write" else 200):
            off = (idx * mib * MIB) + rnd.randrange(0, mib * MIB // 4096) * 4096
            t = time.perf_counter()
            if op == "lat_write":
                os.pwrite(fd, buf, off)
                os.fdatasync(fd)
            else:
                os.pread(fd, 4096, off)
            ts.append(time.perf_counter() - t)
        print("%.3f" % (median(ts) * 1e6))
        return
    print("%.6f" % (time.perf_counter() - t))
    os.close(fd)


def on_nodes(tb, jobs, delay=2.0):
    """jobs: [(node, op, path, idx, mib)] started together (same instant) in
    their nodes' namespaces; returns their outputs as floats."""
    start_at = time.time() + delay
    me = os.path.abspath(__file__)
    procs = [subprocess.Popen([tb, "node", str(k), sys.executable, me, "--worker", op, path,
                               str(idx), str(mib), repr(start_at)],
                              stdout=subprocess.PIPE, text=True)
             for k, op, path, idx, mib in jobs]
    outs = [p.communicate()[0] for p in procs]
    if any(p.returncode for p in procs):
        raise RuntimeError("a limits worker failed: %s" % outs)
    return [float(o.split()[-1]) for o in outs]


def drop(tb):
    subprocess.run([tb, "drop-caches"], check=True)


def profile_rep(tb, mnt, local, nodes, mib, label, rep, p2p):
    """One repetition of every profile metric; rows (label, clients, metric, rep, value)."""
    rows = []
    f = os.path.join(mnt, "limits.dat")
    mbps = lambda n, t: n * mib * MIB / t / 1e6  # noqa: E731
    for n in (1, nodes):   # one node alone, then all nodes at once
        t = max(on_nodes(tb, [(k, "write", f, k - 1, mib) for k in range(1, n + 1)]))
        rows.append((label, n, "write_MBps", rep, mbps(n, t)))
        drop(tb)
        # node k reads what node k+1 wrote (no client cache can hold it)
        t = max(on_nodes(tb, [(k, "read", f, k % n if n > 1 else 0, mib)
                              for k in range(1, n + 1)]))
        rows.append((label, n, "read_MBps", rep, mbps(n, t)))
        drop(tb)
        rows.append((label, n, "read4k_us", rep,
                     median(on_nodes(tb, [(k, "lat_read", f, k - 1, mib) for k in range(1, n + 1)]))))
        rows.append((label, n, "write4k_fsync_us", rep,
                     median(on_nodes(tb, [(k, "lat_write", f, k - 1, mib) for k in range(1, n + 1)]))))
        os.unlink(f)
    lf = os.path.join(local, "limits.dat")   # the node-local tier (tmpfs), node 1
    t = on_nodes(tb, [(1, "write", lf, 0, mib)])[0]
    rows.append((label, 1, "local_write_MBps", rep, mbps(1, t)))
    t = on_nodes(tb, [(1, "read", lf, 0, mib)])[0]
    rows.append((label, 1, "local_read_MBps", rep, mbps(1, t)))
    rows.append((label, 1, "local_read4k_us", rep, on_nodes(tb, [(1, "lat_read", lf, 0, mib)])[0]))
    rows.append((label, 1, "local_write4k_fsync_us", rep,
                 on_nodes(tb, [(1, "lat_write", lf, 0, mib)])[0]))
    subprocess.run([tb, "node", "1", "rm", "-f", lf], check=True)
    if p2p:   # MPI point-to-point between node 1 and node 2
        out = subprocess.run([tb, "mpiexec", "-n", "2", p2p], check=True, text=True,
                             stdout=subprocess.PIPE).stdout
        res = xtbench.parse_results(out)[0]
        rows.append((label, 2, "mpi_p2p_MBps", rep, float(res["p2p_MBps"])))
        rows.append((label, 2, "mpi_lat_us", rep, float(res["lat_us"])))
    return rows


METRICS = [("write_MBps", "write MB/s"), ("read_MBps", "read MB/s (servers' caches dropped)"),
           ("read4k_us", "4 KiB random read, us"), ("write4k_fsync_us", "4 KiB write+fdatasync, us")]


def profile_table(rows, nodes):
    """Markdown: each metric for one node, all nodes, and the node-local tier."""
    def cell(metric, n):
        v = [r[4] for r in rows if r[2] == metric and int(r[1]) == n]
        return xtbench.fmt_range(v, "{:.0f}") if v else "-"
    out = []
    for m, title in METRICS:
        out.append([title, cell(m, 1), cell(m, nodes), cell("local_" + m, 1)])
    out.append(["MPI point-to-point MB/s (node 1 -> 2)", "-", cell("mpi_p2p_MBps", 2), "-"])
    out.append(["MPI latency, us (node 1 <-> 2)", "-", cell("mpi_lat_us", 2), "-"])
    return xtbench.md_table(["metric", "1 node", "%d nodes (aggregate)" % nodes,
                             "node-local tier (1 node)"], out)


def profile_main(a):
    tb = os.path.abspath(a.testbed)
    state = os.environ.get("XT_TESTBED_DIR", "/tmp/romio-xt-testbed")
    cfg = open(os.path.join(state, "config")).read()
    nodes = int(cfg.split(" nodes=")[1].split()[0])
    if nodes < 2:
        sys.exit("limits.py --testbed: the testbed has %d node(s); start it with --profile" % nodes)
    rows = []
    for rep in range(a.reps):
        rows += profile_rep(tb, os.path.join(state, "mnt"), os.path.join(state, "local"),
                            nodes, a.mib, a.label, rep, a.p2p)
    if a.csv:
        cols = ["fs", "clients", "metric", "rep", "value"]
        xtbench.write_csv([dict(zip(cols, r)) for r in rows], a.csv, cols, append=True)
    print(profile_table(rows, nodes))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir")
    ap.add_argument("--label", required="--worker" not in sys.argv and "--table" not in sys.argv)
    ap.add_argument("--mib", type=int, default=256, help="MiB per client")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--csv")
    ap.add_argument("--testbed", metavar="TESTBED_SH",
                    help="profile limits: clients in the running testbed's nodes")
    ap.add_argument("--p2p", metavar="EXE", help="MPI point-to-point program (tb_p2p)")
    ap.add_argument("--table", metavar="CSV", help="print the profile table of CSV")
    ap.add_argument("--nodes", type=int, default=2)
    ap.add_argument("--worker", nargs=5, metavar=("OP", "PATH", "IDX", "MIB", "START"))
    a = ap.parse_args()
    if a.worker:
        op, path, idx, mib, start = a.worker
        return worker(op, path, int(idx), int(mib), float(start))
    if a.table:
        rows = [(r["fs"], r["clients"], r["metric"], r["rep"], float(r["value"]))
                for r in xtbench.read_csv(a.table) if not a.label or r["fs"] == a.label]
        return print(profile_table(rows, a.nodes))
    if a.testbed:
        return profile_main(a)
    if not a.dir:
        ap.error("--dir (or --testbed) is required")
    path = os.path.join(a.dir, "limits.dat")
    rows = []
    for rep in range(a.reps):
        for n in (1, 2):  # interleaved: 1 and 2 clients in each repetition
            with open(path, "wb") as f:
                f.truncate(2 * a.mib * MIB)
            t = max(run(seg_write, path, n, a.mib))
            rows.append((a.label, n, "write_MBps", rep, n * a.mib * MIB / t / 1e6))
            evict(path)
            t = max(run(seg_read, path, n, a.mib))
            rows.append((a.label, n, "read_MBps", rep, n * a.mib * MIB / t / 1e6))
            evict(path)
            ts = sum(run(lat_read, path, n, a.mib), [])
            rows.append((a.label, n, "read4k_us", rep, median(ts) * 1e6))
            ts = sum(run(lat_write, path, n, a.mib), [])
            rows.append((a.label, n, "write4k_fsync_us", rep, median(ts) * 1e6))
            os.unlink(path)
    if a.csv:
        cols = ["fs", "clients", "metric", "rep", "value"]
        xtbench.write_csv([dict(zip(cols, r)) for r in rows], a.csv, cols, append=True)
    for metric in ("write_MBps", "read_MBps", "read4k_us", "write4k_fsync_us"):
        for n in (1, 2):
            v = [r[4] for r in rows if r[1] == n and r[2] == metric]
            print("%s %-17s clients=%d median %.1f (min %.1f max %.1f)"
                  % (a.label, metric, n, median(v), *xtbench.spread(v)))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""IOR-like limits of a file system directory: contiguous write and read
bandwidth (each client its own contiguous segment of one shared file, 1 MiB
requests, write + fsync, read after POSIX_FADV_DONTNEED) and the latency of
4 KiB requests (random reads of an evicted file; writes each followed by
fdatasync), for 1 and 2 concurrent clients (processes).

  limits.py --dir DIR --label NAME [--mib 256] [--reps 3] [--csv OUT.csv]

Appends rows label,clients,metric,rep,value to the CSV (MB/s for bandwidth,
microseconds per request for latency; a 2-client latency is the median over
both clients' requests)."""
import argparse
import multiprocessing as mp
import os
import random
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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", required=True)
    ap.add_argument("--label", required=True)
    ap.add_argument("--mib", type=int, default=256, help="MiB per client")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--csv")
    a = ap.parse_args()
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

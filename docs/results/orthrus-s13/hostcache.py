#!/usr/bin/env python3
"""Session 13 lab script: a file's first cold read depends on how it was
written, on this VM.  For each rep, request size and delay (random order):
write a 480 MiB file with pwrite() in requests of that size, wait the delay,
then read it cold twice (each time: fdatasync, POSIX_FADV_DONTNEED, read
through in 1 MiB requests).  The VM's page cache is empty before each read
(fincore shows 0 pages); the difference is the host's cache under the
virtual disk.  Prints one line per run and a summary (median MB/s per cell);
writes hostcache.csv in the current directory.

usage: python3 hostcache.py DIR [REPS]"""
import csv
import os
import random
import statistics
import sys
import time

SIZES = [65536, 1 << 20, 16 << 20]
DELAYS = [0, 2, 5, 10]
TOTAL = 480 << 20


def write(path, bs):
    buf = os.urandom(bs)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    for off in range(0, TOTAL, bs):
        os.pwrite(fd, buf, off)
    os.close(fd)


def cold_read(path):
    fd = os.open(path, os.O_RDONLY)
    os.fdatasync(fd)
    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    t, n = time.time(), 0
    while True:
        b = os.read(fd, 1 << 20)
        if not b:
            break
        n += len(b)
    os.close(fd)
    return n / (time.time() - t) / 1e6


def main():
    path = os.path.join(sys.argv[1], "hostcache.dat")
    reps = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    rows = []
    for rep in range(reps):
        cells = [(bs, d) for bs in SIZES for d in DELAYS]
        random.shuffle(cells)
        for bs, d in cells:
            write(path, bs)
            time.sleep(d)
            first, second = cold_read(path), cold_read(path)
            rows.append((rep, bs, d, round(first), round(second)))
            print(*rows[-1], flush=True)
            os.unlink(path)
    with open("hostcache.csv", "w", newline="") as f:
        c = csv.writer(f)
        c.writerow(["rep", "request_bytes", "delay_s", "first_read_MBps", "second_read_MBps"])
        c.writerows(rows)
    print("request  delay  first cold read MB/s (median, min-max)  second")
    for bs in SIZES:
        for d in DELAYS:
            a = [r[3] for r in rows if r[1] == bs and r[2] == d]
            b = [r[4] for r in rows if r[1] == bs and r[2] == d]
            print(f"{bs >> 10:6d}K {d:4d}s  {statistics.median(a):6.0f} ({min(a)}-{max(a)})"
                  f"  {statistics.median(b):6.0f}")


if __name__ == "__main__":
    main()

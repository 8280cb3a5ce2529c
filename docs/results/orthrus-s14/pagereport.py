#!/usr/bin/env python3
"""Session 14 lab script: page-cache writes on this VM with free page
reporting on and paused.  Each run writes 600 MiB in 2 MiB pwrite() calls to
a fresh file after a 3 s pause (the reporting's delay), then fsyncs and drops
it (POSIX_FADV_DONTNEED: its pages go back to the free lists, and are
reported to the host when reporting is on).  Prints MB/s and one mark per
call: '.' < 1 ms, 'o' 1-3 ms, 'X' > 3 ms.  Run as root: it sets
/sys/module/page_reporting/parameters/page_reporting_order (11 = paused)
and restores it.

usage: python3 pagereport.py DIR [RUNS]"""
import os
import sys
import time

KNOB = "/sys/module/page_reporting/parameters/page_reporting_order"
BS, CALLS = 2 << 20, 300


def run(path):
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
    time.sleep(3)
    buf = b"x" * BS
    fd = os.open(path, os.O_CREAT | os.O_WRONLY, 0o644)
    marks, t0 = "", time.perf_counter()
    for k in range(CALLS):
        t = time.perf_counter()
        os.pwrite(fd, buf, k * BS)
        dt = (time.perf_counter() - t) * 1e3
        marks += "." if dt < 1 else "o" if dt < 3 else "X"
    total = time.perf_counter() - t0
    os.fsync(fd)
    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    os.close(fd)
    return CALLS * BS / total / 1e6, marks


def main():
    path = os.path.join(sys.argv[1], "pagereport.dat")
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    with open(KNOB) as f:
        old = f.read().strip()
    try:
        for order in (old, "11"):
            with open(KNOB, "w") as f:
                f.write(order)
            for _ in range(runs):
                mbps, marks = run(path)
                print(f"order={order:>2} {mbps:6.0f} MB/s {marks}", flush=True)
    finally:
        with open(KNOB, "w") as f:
            f.write(old)
        if os.path.exists(path):
            os.unlink(path)


if __name__ == "__main__":
    main()

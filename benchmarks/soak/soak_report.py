#!/usr/bin/env python3
"""soak_report.py CSV: the soak's figures per rank, and the verdict.

Resident memory (VmRSS) after warm-up (the first fifth of the rounds) must be
flat: its growth from the first to the last fifth of the rest stays under
max(1 MiB, 2 %).  Descriptors and threads sampled after each round's close
must stay at their level after warm-up (a first open may keep one for the
job, e.g. the trace file); any later rise is a leak.  Any verification error
fails."""
import csv
import statistics
import sys


def main(path):
    rows = list(csv.DictReader(open(path)))
    ranks = sorted({int(r["rank"]) for r in rows})
    ok = True
    print(f"{path}: {len(rows) // len(ranks)} rounds, {len(ranks)} ranks, "
          f"{float(rows[-1]['seconds']):.0f} s")
    print("rank rss_after_warmup_kib rss_end_kib growth_kib fds(after_warmup/max) "
          "threads(after_warmup/max) errors")
    for rk in ranks:
        mine = [r for r in rows if int(r["rank"]) == rk]
        n = len(mine)
        warm = mine[n // 5:]
        fifth = max(1, len(warm) // 5)
        early = statistics.median(int(r["rss_kib"]) for r in warm[:fifth])
        late = statistics.median(int(r["rss_kib"]) for r in warm[-fifth:])
        fds = [int(r["fds"]) for r in warm]
        thr = [int(r["threads"]) for r in warm]
        err = int(mine[-1]["errors"])
        growth = late - early
        flat = growth < max(1024, 0.02 * early)
        steady = max(fds) == fds[0] and max(thr) == thr[0] and fds[-1] == fds[0]
        ok &= flat and steady and err == 0
        print(f"{rk:4d} {early:20.0f} {late:11.0f} {growth:10.0f} {fds[0]}/{max(fds)} "
              f"{thr[0]}/{max(thr)} {err}" + ("" if flat else "  RSS GROWS")
              + ("" if steady else "  FDS/THREADS LEAK"))
    print("soak:", "PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))

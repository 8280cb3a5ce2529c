#!/usr/bin/env python3
"""soak_report.py CSV [--sample N OUT]: the soak's figures per rank, their
summary, and the verdict; with --sample, also every rank's lines of N rounds
spread evenly over the run (the first and the last among them) to OUT, a
record small enough to keep.

Resident memory (VmRSS) after warm-up (the first fifth of the rounds) must be
flat: its growth from the first to the last fifth of the rest stays under
max(1 MiB, 2 %) (peak_kib, for the record: the highest sample after warm-up
above the level at its start).  Descriptors and threads sampled after each round's
close must stay at their level after warm-up, the baseline (the first rounds
open descriptors kept for the job: ch3:sock's connections to the other ranks
as they are first used, the trace and stats files); any later rise is a
leak.  Any verification error fails."""
import csv
import statistics
import sys


def rank_figures(mine):
    """one rank's rows -> its figures (a dict)"""
    warm = mine[len(mine) // 5:]
    fifth = max(1, len(warm) // 5)
    early = statistics.median(int(r["rss_kib"]) for r in warm[:fifth])
    late = statistics.median(int(r["rss_kib"]) for r in warm[-fifth:])
    peak = max(int(r["rss_kib"]) for r in warm) - early
    fds = [int(r["fds"]) for r in warm]
    thr = [int(r["threads"]) for r in warm]
    return {"start": int(mine[0]["rss_kib"]), "fds0": int(mine[0]["fds"]),
            "thr0": int(mine[0]["threads"]), "early": early, "late": late,
            "growth": late - early, "peak": peak,
            "flat": late - early < max(1024, 0.02 * early),
            "fds": fds, "thr": thr,
            "steady": max(fds) == fds[0] == fds[-1] and max(thr) == thr[0] == thr[-1],
            "err": int(mine[-1]["errors"]), "verified": int(mine[-1]["verified_bytes"]),
            "h5": int(mine[-1]["h5_rounds"])}


def levels(first, after_warmup):
    """first/baseline/max/end of a count sampled every round"""
    w = after_warmup
    return f"{first}/{w[0]}/{max(w)}/{w[-1]}"


def sample(rows, keep, out):
    """rows of `keep` rounds spread evenly over the run to the CSV out"""
    last = int(rows[-1]["round"])
    picked = {last} | set(range(0, last + 1, max(1, last // max(1, keep - 1))))
    with open(out, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]), lineterminator="\n")
        w.writeheader()
        w.writerows(r for r in rows if int(r["round"]) in picked)


def main(path, keep=0, out=None):
    rows = list(csv.DictReader(open(path)))
    ranks = sorted({int(r["rank"]) for r in rows})
    figs = [rank_figures([r for r in rows if int(r["rank"]) == rk]) for rk in ranks]
    rounds = int(rows[-1]["round"]) + 1
    if out:
        sample(rows, keep, out)
    print(f"{path}: {rounds} rounds ({figs[0]['h5']} with HDF5), {len(ranks)} ranks, "
          f"{float(rows[-1]['seconds']):.0f} s, "
          f"{sum(f['verified'] for f in figs)} bytes verified")
    print("rank rss_start_kib rss_after_warmup_kib rss_end_kib growth_kib peak_kib "
          "fds(first/baseline/max/end) threads(first/baseline/max/end) errors")
    for rk, f in zip(ranks, figs):
        print(f"{rk:4d} {f['start']:13d} {f['early']:20.0f} {f['late']:11.0f} "
              f"{f['growth']:10.0f} {f['peak']:8.0f} {levels(f['fds0'], f['fds'])} "
              f"{levels(f['thr0'], f['thr'])} {f['err']}"
              + ("" if f["flat"] else "  RSS GROWS")
              + ("" if f["steady"] else "  FDS/THREADS LEAK"))
    growth, peak = [f["growth"] for f in figs], [f["peak"] for f in figs]
    print(f"rss growth after warm-up: max {max(growth):.0f} KiB, "
          f"median {statistics.median(growth):.0f} KiB; peak above the level after warm-up: "
          f"max {max(peak):.0f} KiB, median {statistics.median(peak):.0f} KiB")
    ok = all(f["flat"] and f["steady"] and f["err"] == 0 for f in figs)
    print("soak:", "PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[2] == "--sample":
        sys.exit(main(sys.argv[1], int(sys.argv[3]), sys.argv[4]))
    if len(sys.argv) != 2:
        sys.exit("usage: soak_report.py CSV [--sample N OUT]")
    sys.exit(main(sys.argv[1]))

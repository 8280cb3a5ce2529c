#!/usr/bin/env python3
"""Checks of the Orthrus cost model (benchmarks/orthrus/model.py): limiting
cases and monotonicity.  Exit status 1 on the first failed check."""
import math
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "benchmarks", "orthrus"))
import model as M  # noqa: E402

x = M.load_limits()
L = M.LUSTRE
fails = 0


def check(cond, what):
    global fails
    if not cond:
        print("FAIL", what)
        fails += 1


def close(a, b):
    return abs(a - b) <= 1e-9 * max(abs(a), abs(b), 1e-12)


# the parameters come from the limits CSV
check(close(x["client"]["write"], 136.28558924562387e6), "1-node write rate is the CSV's median")
check(x["servers"] == 3 and x["agg"]["read"] > x["client"]["read"], "servers' aggregate above one client")

# one aggregator, no request latency: storage time = bytes / one client's rate
for op in ("write", "read"):
    for sys_ in (x, L):
        t = M.storage(sys_, op, 0, 0, 64 * M.MiB, 1, 64 * M.MiB)
        want = 64 * M.MiB / min(sys_["client"][op], sys_["stream"][op])
        check(close(t, want), f"{sys_['name']} {op}: one client's storage time {t} != {want}")
# requests add a round trip each
t0 = M.storage(x, "read", 1, 1, M.MiB, 1, M.MiB)
t1 = M.storage(x, "read", 2, 2, M.MiB, 1, M.MiB)
check(close(t1 - t0, x["req"]["read"]), "a second region costs one round trip")

# independent exchanges nothing and calls no collective
for op in ("write", "read"):
    r = M.independent(x, M.matrix(4, 2, op, 65536))
    check(r["net"] == 0 and r["rounds"] == 0 and r["colls"] == 0, f"independent {op} exchanges nothing")
# core_first moves no byte between nodes
check(M.core_first(L, M.matrix(1024, 16, "write", M.MiB))["net"] == 0, "core_first: no bytes between nodes")

# two_phase rounds = ceil(bytes per aggregator / cb_buffer_size) on dense calls
for P, N, block in ((2, 2, 4096), (8, 4, M.MiB), (64, 8, 4 * M.MiB), (1024, 16, 8 * M.MiB)):
    c = M.matrix(P, N, "write", block)
    want = max(1, math.ceil(P * c["b"] / N / M.CB))
    got = M.two_phase(x, c)["rounds"]
    check(got == want, f"two_phase rounds at P={P} block={block}: {got} != {want}")
cp = M.collperf("write")
check(M.two_phase(x, cp)["rounds"] == 8, "coll_perf 512^3 on 4 aggregators: 8 rounds of 16 MiB")

# monotonicity: more bytes of the same pieces never take less time (larger
# pieces may: fewer requests, fewer lock transfers); faster storage never more
for cand, f in M.MODEL.items():
    for sys_, block in ((L, 4096), (L, M.MiB), (x, 65536)):
        prev = 0.0
        for depth in (1, 4, 16, 64):
            t = f(sys_, M.matrix(256, 16, "write", block, depth))["t"]
            check(t >= prev, f"{cand}: time falls as bytes grow ({block} x {depth})")
            prev = t
    fast = dict(L, client={"write": 2 * L["client"]["write"], "read": 2 * L["client"]["read"]})
    c = M.matrix(256, 16, "read", M.MiB)
    check(f(fast, c)["t"] <= f(L, c)["t"], f"{cand}: faster clients made it slower")
for p in (2, 4, 64, 1024, 10000):
    check(M.allreduce(L, p) >= M.allreduce(L, max(1, p // 2)), f"allreduce falls at P={p}")
    check(M.alltoall(L, p) >= M.alltoall(L, max(1, p // 2)), f"alltoall falls at P={p}")
check(M.allreduce(L, 1) == 0 and M.alltoall(L, 1) == 0, "one rank: collectives cost nothing")

# the selector: deciding costs one allreduce per call, examining loses >= 0
for P in (2, 1024, 10000):
    c = M.matrix(P, max(1, P // 64), "write", M.MiB)
    d, q = M.decide(L, c)
    check(close(d, M.allreduce(L, P, M.RECORD)) and close(q, d / M.QUIET), f"decide at P={P}")
    loss, best = M.examine(L, c)
    check(loss >= 0 and best in M.CANDS, f"examination loss at P={P}: {loss}")

# the validation runs: every measured run gets a finite prediction
rows = M.measured_short() + M.measured_8()
check(len(rows) >= 100, f"validation rows: {len(rows)}")
for m in rows:
    p = M.predict_rate(x, m)
    check(p > 0 and math.isfinite(p), f"prediction for {m['run']}")

print("model checks:", "FAIL" if fails else "ok", f"({fails} failed)")
sys.exit(1 if fails else 0)

#!/usr/bin/env python3
"""Orthrus cost model: each candidate's time per collective call, its
collectives, rounds and bytes moved, and the selector's own cost, as
functions of ranks, nodes, ranks per node, request sizes and storage rates.
docs/orthrus.md, "Cost model", gives the formulas and their sources.

  model.py --validate [--limits CSV]      measured vs predicted, per run
  model.py --scale [--out DIR]            2 .. 10^4 ranks: CSV + PNG
  model.py --case mpich7935               the 4D-subarray pattern at 1,024 ranks

Parameters of the testbed come from benchmarks/testbed/limits.py's CSV
(docs/results/testbed/profile-hdd-4x2/nocompute/limits.csv); the Lustre-like
system's are stated assumptions (LUSTRE below).  Python 3 standard library
only (matplotlib for the plot)."""
import argparse
import csv
import math
import os
import statistics
import sys

MiB = 1 << 20
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
RES = os.path.join(ROOT, "docs", "results")
LIMITS = os.path.join(RES, "testbed", "profile-hdd-4x2", "nocompute", "limits.csv")
CANDS = ("two_phase", "core_first", "disk_first", "view_based", "independent", "two_layer")


# ---------------------------------------------------------------- parameters

def load_limits(path=LIMITS):
    """the testbed's parameters: medians over the repetitions of limits.csv"""
    vals = {}
    for r in csv.DictReader(open(path)):
        vals.setdefault((r["metric"], int(r["clients"])), []).append(float(r["value"]))
    m = {k: statistics.median(v) for k, v in vals.items()}
    return {
        "name": "testbed hdd 4x2",
        "lat": max(m[("mpi_lat_us", 2)], 0.1) * 1e-6,       # MPI latency, s
        "bw": m[("mpi_p2p_MBps", 2)] * 1e6,                 # MPI bytes/s between nodes
        "shm": m[("mpi_p2p_MBps", 2)] * 1e6,                # within a node (same VM)
        "client": {"write": m[("write_MBps", 1)] * 1e6,     # one node's client
                   "read": m[("read_MBps", 1)] * 1e6},
        "stream": {"write": m[("write_MBps", 1)] * 1e6,     # one server, one stream
                   "read": m[("read_MBps", 1)] * 1e6},
        "agg": {"write": m[("write_MBps", 4)] * 1e6,        # all servers
                "read": m[("read_MBps", 4)] * 1e6},
        "req": {"write": m[("write4k_fsync_us", 1)] * 1e-6,  # a server round trip
                "read": m[("read4k_us", 1)] * 1e-6},
        "sys": {"write": m[("local_write4k_fsync_us", 1)] * 1e-6,   # a further request
                "read": m[("local_read4k_us", 1)] * 1e-6},          # in the same region
        "servers": 3, "stripe": 64 * MiB,                   # MooseFS: 64 MiB chunks
        "su": 4 * MiB, "tp_aggs": 0,                        # 0: one aggregator per node
    }


# A Lustre-like system (stated assumptions, Frontier/Orion-like proportions):
# 2 us MPI latency, 25 GB/s per node between nodes, 20 GB/s within a node;
# a node's client reads/writes 2.93 GB/s (mpich#7935: POSIX reads 375 GB/s on
# 128 nodes); the file on 64 OSTs of 1 MiB stripes, 6 GB/s per OST stream,
# 375 GB/s for the file in all; 100 us per request round trip, 5 us per
# further request in the same region; ROMIO's Lustre driver takes one
# aggregator per stripe (tp_aggs = the stripe count); a stripe written by
# several nodes costs a lock round trip per node (locks).
LUSTRE = {
    "name": "Lustre-like", "lat": 2e-6, "bw": 25e9, "shm": 20e9,
    "client": {"write": 2.93e9, "read": 2.93e9},
    "stream": {"write": 6e9, "read": 6e9},
    "agg": {"write": 375e9, "read": 375e9},
    "req": {"write": 100e-6, "read": 100e-6},
    "sys": {"write": 5e-6, "read": 5e-6},
    "servers": 64, "stripe": 1 * MiB, "su": 1 * MiB, "tp_aggs": 64, "locks": True,
}

CB = 16 * MiB          # cb_buffer_size
RECORD = 96            # bytes of the selector's description record per rank
TRIALS = 3             # romio_orthrus_trials
DROP = 1.5             # ORTH_DROP
QUIET = 16             # ORTH_QUIET_MAX


def case(P, N, op, b, k, calls=1, extent=None, senders=None, hull=None, adjacent=True,
         ds_read=True, aggs=0, files=1):
    """a collective call pattern: P ranks on N nodes, b bytes and k pieces per
    rank per call, the call's file extent (default dense: P*b), the ranks
    with data in one aggregator's domain (default all), each rank's hull for
    data-sieved reads, whether a node's ranks are adjacent in the file"""
    return {"P": P, "N": N, "ppn": max(1, P // N), "op": op, "b": b, "k": k, "calls": calls,
            "extent": extent or P * b, "senders": senders or P, "hull": hull or b,
            "adjacent": adjacent, "ds_read": ds_read, "aggs": aggs, "files": files}


# ---------------------------------------------------------------- building blocks

def lg(p):
    return math.ceil(math.log2(p)) if p > 1 else 0


def allreduce(x, p, m=8):
    return 2 * lg(p) * (x["lat"] + m / x["bw"])


def allgather(x, p, m=8):
    return lg(p) * x["lat"] + (p - 1) * m / x["bw"] if p > 1 else 0.0


def alltoall(x, p, m=8):
    """Bruck for short messages, pairwise above 256 bytes"""
    if p < 2:
        return 0.0
    if m <= 256:
        return lg(p) * x["lat"] + p * m * lg(p) / 2 / x["bw"]
    return (p - 1) * (x["lat"] + m / x["bw"])


def inbound(x, senders, nbytes, bw=None):
    """one receiver's messages from `senders` peers: a latency each, then the bytes"""
    return senders * x["lat"] + nbytes / (bw or x["bw"])


def rate(x, op, clients, span, windows=None):
    """bytes/s of `clients` node clients over a span of the file: the servers
    holding the span's stripes (at most one per concurrent window) each serve
    one stream, the file system caps"""
    busy = min(x["servers"], max(1, math.ceil(span / x["stripe"])), windows or x["servers"])
    return min(clients * x["client"][op], busy * x["stream"][op], x["agg"][op])


def storage(x, op, regions, reqs, nbytes, clients, span, windows=None):
    """one client's `regions` new regions (a server round trip each) and
    `reqs` further requests, while `clients` clients move nbytes in all"""
    if nbytes <= 0:
        return 0.0
    return (regions * x["req"][op] + max(0, reqs - regions) * x["sys"][op]
            + nbytes / rate(x, op, clients, span, windows))


def locks(x, c):
    """writes on a file system with extent locks (x["locks"]): where several
    nodes write pieces of one stripe, the stripe's lock moves between them, a
    round trip each time, stripes of one server one after the other"""
    if not x.get("locks") or c["op"] != "write" or c["N"] < 2:
        return 0.0
    run = c["b"] / c["k"] * (c["ppn"] if c["adjacent"] else 1)
    sharers = min(c["N"], int(x["stripe"] // max(run, 1)))
    if sharers < 2:
        return 0.0
    stripes = math.ceil(c["extent"] / x["stripe"])
    return math.ceil(stripes / x["servers"]) * sharers * x["req"]["write"]


def result(t, rounds, colls, net):
    return {"t": t, "rounds": rounds, "colls": colls, "net": net}


def offnode(c):
    return 1 - 1 / c["N"]


# ---------------------------------------------------------------- candidates (one call)

def two_phase(x, c):
    """ROMIO's two-phase: A aggregators (one per node, or the Lustre driver's
    one per stripe), file domains of extent/A, R = ceil(domain/cb_buffer_size)
    rounds; per round an alltoall of sizes, the data, then the access (no
    overlap); setup: 2 allgathers of the ranges, the offset lists; writes end
    with an allreduce"""
    P, op = c["P"], c["op"]
    A = min(c["aggs"] or x["tp_aggs"] or c["N"], P)
    dom = c["extent"] / A
    R = max(1, math.ceil(dom / CB))
    per_agg = P * c["b"] / A
    rb = per_agg / R
    snd = min(c["senders"], P)
    lists = P * c["k"] * 16 / A
    setup = 2 * allgather(x, P) + alltoall(x, P) + inbound(x, snd, lists)
    st = storage(x, op, 1, 1, rb * A, min(A, c["N"]), c["extent"],
                 A * max(1, math.ceil(rb / x["stripe"])))
    rnd = alltoall(x, P) + inbound(x, snd, rb * offnode(c)) + st
    end = allreduce(x, P) if op == "write" else 0.0
    return result(setup + R * rnd + end, R, 3 + R + (op == "write"), P * c["b"] * offnode(c))


def _pipelined(R, ex, st):
    """R rounds, the exchange of one round beside the access of another"""
    return R * max(ex, st) + min(ex, st)


def _describe(x, P, per_agg_pieces, R):
    """the exchange engine's setup: alltoall of counts, alltoallv of the
    piece descriptions, allgather + allgatherv of the round bounds"""
    return (alltoall(x, P) + lg(P) * x["lat"] + per_agg_pieces * 24 / x["bw"]
            + allgather(x, P) + allgather(x, P, 8 * R))


def core_first(x, c):
    """one aggregator per node (the node's ranks' pieces, merged), no bytes
    between nodes; rounds of cb_buffer_size bytes, exchange beside access;
    ends with the error agreement"""
    P, op, ppn = c["P"], c["op"], c["ppn"]
    node = ppn * c["b"]
    R = max(1, math.ceil(node / CB))
    reqs = c["k"] if c["adjacent"] else c["k"] * ppn
    rb = node / R
    ex = inbound(x, ppn - 1, rb * (ppn - 1) / ppn, x["shm"]) if ppn > 1 else 0.0
    st = storage(x, op, 1, math.ceil(reqs / R), rb * c["N"], c["N"], c["extent"])
    setup = allgather(x, ppn) + _describe(x, P, ppn * c["k"], R)
    t = setup + _pipelined(R, ex, st) + allreduce(x, P) + locks(x, c)
    return result(t, R, 5 + R, 0.0)


def disk_first(x, c):
    """one aggregator per data server (romio_orthrus_servers, else one per
    node), stripe su round-robin; only the aggregators whose stripes the call
    touches work; rounds pipelined; ends with the error agreement"""
    P, op = c["P"], c["op"]
    A = min(c["aggs"] or c["N"], P)
    stripes = max(1, math.ceil(c["extent"] / x["su"]))
    act = min(A, stripes)
    per = P * c["b"] / act
    R = max(1, math.ceil(per / CB))
    rb = per / R
    snd = min(c["senders"], P)
    ex = inbound(x, snd, rb * offnode(c))
    reqs = math.ceil(stripes / A)
    st = storage(x, op, 1, math.ceil(reqs / R), rb * act, min(act, c["N"]), c["extent"])
    t = _describe(x, P, P * c["k"] / act, R) + _pipelined(R, ex, st) + allreduce(x, P)
    return result(t, R, 5 + R, P * c["b"] * offnode(c))


def vb_block(x, c, A):
    """view_based's domain block: the stripe where the file system gives one,
    else extent/A rounded up to MiB, between 1 MiB and cb_buffer_size"""
    if x["tp_aggs"]:
        return x["su"]
    return min(CB, max(MiB, math.ceil(c["extent"] / A / MiB) * MiB))


def view_based(x, c):
    """static blocks, block b at aggregator b mod A; per round each aggregator
    serves one block with an Alltoallw over all P ranks, then writes it
    through (no overlap); per call an allgather of 5 integers and the
    agreement"""
    P, op = c["P"], c["op"]
    A = min(c["aggs"] or x["tp_aggs"] or c["N"], P)
    bs = vb_block(x, c, A)
    blocks = max(1, math.ceil(c["extent"] / bs))
    act = min(A, blocks)
    R = math.ceil(blocks / A)
    rb = P * c["b"] / blocks
    ex = inbound(x, P - 1, rb * act * offnode(c) / act) if P > 1 else 0.0
    st = storage(x, op, 1, 1, rb * act, min(act, c["N"]), min(c["extent"], act * bs))
    t = allgather(x, P, 40) + R * (ex + st) + allreduce(x, P)
    return result(t, R, 2 + R, P * c["b"] * offnode(c))


def independent(x, c):
    """each rank its own pieces: k requests (writes; reads without data
    sieving), or its hull in 4 MiB requests (data-sieved reads); no exchange,
    no collective"""
    P, op = c["P"], c["op"]
    if op == "read" and c["ds_read"] and c["k"] > 1:
        reqs, moved = math.ceil(c["hull"] / (4 * MiB)), P * c["hull"]
        regions = reqs
    else:
        reqs, moved, regions = c["k"], P * c["b"], 1
    disk = min(moved, c["extent"])
    t = storage(x, op, regions, reqs, disk, c["N"], c["extent"])
    t = max(t, moved / (c["N"] * x["client"][op])) + locks(x, c)
    return result(t, 0, 0, 0.0)


def two_layer(x, c):
    """each node's ranks send to the node's first rank; the N local
    aggregators run the exchange between nodes over stripes su round-robin,
    rounds pipelined; ends with the error agreement"""
    P, op, ppn, N = c["P"], c["op"], c["ppn"], c["N"]
    node = ppn * c["b"]
    gather = allgather(x, ppn, 16) + (inbound(x, ppn - 1, node * (ppn - 1) / ppn, x["shm"])
                                      if ppn > 1 else 0.0)
    stripes = max(1, math.ceil(c["extent"] / x["su"]))
    act = min(N, stripes)
    per = P * c["b"] / act
    R = max(1, math.ceil(per / CB))
    rb = per / R
    ex = inbound(x, min(N, c["senders"]) - 1 if N > 1 else 0, rb * offnode(c))
    st = storage(x, op, 1, math.ceil(math.ceil(stripes / N) / R), rb * act, act, c["extent"])
    t = gather + _describe(x, N, N * ppn * c["k"] / act, R) + _pipelined(R, ex, st) \
        + allreduce(x, P)
    return result(t, R, 6 + R, P * c["b"] * offnode(c))


MODEL = {"two_phase": two_phase, "core_first": core_first, "disk_first": disk_first,
         "view_based": view_based, "independent": independent, "two_layer": two_layer}


def file_cost(x, op):
    """open, sync and close of a file: a round trip each"""
    return 2 * x["req"][op] + (x["req"]["write"] if op == "write" else 0.0)


def phase(x, c, cand):
    """a whole phase: open, the calls, sync, close"""
    return c["files"] * file_cost(x, c["op"]) + c["calls"] * MODEL[cand](x, c)["t"]


# ---------------------------------------------------------------- the selector

def decide(x, c):
    """deciding: one Allreduce of the description record per call (while a
    pattern runs steadily, one per run of up to 16 calls)"""
    return allreduce(x, c["P"], RECORD), allreduce(x, c["P"], RECORD) / QUIET


def examine(x, c, cands=("two_phase", "core_first", "disk_first", "view_based", "independent")):
    """examining: the time the trials lose against the best candidate, with the
    drop rule (a candidate 1.5x slower than the best is dropped after one call,
    two for the first) and the cut (a trial over 2x two_phase's call costs its
    first eighth plus two_phase's call)"""
    t = {k: MODEL[k](x, c)["t"] for k in cands}
    best, tp = min(t.values()), t["two_phase"]
    loss = 0.0
    for k in cands:
        if t[k] > 2 * tp:                       # cut after its first eighth
            loss += t[k] / 8 + tp - best
        elif t[k] >= DROP * best:               # dropped (home: after two calls)
            loss += (2 if k == "two_phase" else 1) * (t[k] - best)
        else:
            loss += TRIALS * (t[k] - best)
    return loss, min(t, key=t.get)


# ---------------------------------------------------------------- validation

def matrix(P, N, op, block, depth=4, calls=40):
    """benchmarks/orthrus/matrix.c: each rank `depth` blocks per call, rows of P blocks"""
    return case(P, N, op, depth * block, depth, calls, extent=depth * P * block,
                hull=((depth - 1) * P + 1) * block)


def collperf(op, n=512, P=8, N=4):
    """coll_perf: an n^3 int darray on a 2x2x2 grid, one call; each rank's
    block is (n/2)^2 rows of n/2 ints; an aggregator's domain (a quarter of
    the file) holds 4 ranks' data"""
    b = (n // 2) ** 3 * 4
    return case(P, N, op, b, (n // 2) ** 2, 1, extent=n ** 3 * 4, senders=4)


def flash(P=8, N=4):
    """FLASH-IO 16^3 (80 blocks per rank, 24 variables of doubles in the
    checkpoint, 4 single-precision variables in each plot file), one call per
    file, each rank's blocks of a variable contiguous"""
    cells = 80 * 16 ** 3
    return [case(P, N, "write", 24 * cells * 8, 24, 1),
            case(P, N, "write", 4 * cells * 4, 4, 1),
            case(P, N, "write", 4 * 80 * 17 ** 3 * 4, 4, 1)]


def measured_short():
    """docs/results/orthrus/short-testbed-hdd.csv: forced candidates, Matrix 40 calls"""
    path = os.path.join(RES, "orthrus", "short-testbed-hdd.csv")
    blocks = {"matrix_short_4k": 4096, "matrix_short_256k": 256 << 10, "matrix_short_2m": 2 << 20}
    out = []
    for r in csv.DictReader(open(path)):
        cfg = "two_phase" if r["config"] == "stock" else r["config"]
        if cfg not in MODEL:
            continue
        op = r["metric"].split("_")[0]
        out.append({"run": f"{r['workload']} {op} {r['config']} rep{r['rep']}",
                    "src": "orthrus/short-testbed-hdd.csv", "cand": cfg, "unit": "MB/s",
                    "case": matrix(2, 2, op, blocks[r["workload"]]),
                    "value": float(r["value"])})
    return out


def measured_8():
    """8 ranks (4 nodes x 2), two_phase: stock and Orthrus (which ran two_phase)"""
    out = []
    files = [("testbed/profile-hdd-4x2/nocompute/workflows.csv", False),
             ("testbed/profile-hdd-4x2/workflows.csv", True),
             ("testbed/profile-hdd-4x2/orthrus-coll_perf/workflows.csv", True)]
    for f, compute in files:
        for r in csv.DictReader(open(os.path.join(RES, f))):
            if r["config"] not in ("stock", "orthrus"):
                continue
            w, m = r["workload"], r["metric"]
            if compute and m.startswith("write"):
                continue        # with compute the client's write buffer drains in it
            op = "read" if m.startswith("read") else "write"
            cs = flash() if w.startswith("flash") else [collperf(op)]
            out.append({"run": f"{w} {op} {r['config']} rep{r['rep']} (8 ranks)", "src": f,
                        "cand": "two_phase", "unit": "MiB/s", "cases": cs,
                        "value": float(r["value"])})
    return out


def predict_rate(x, m):
    cs = m.get("cases") or [m["case"]]
    nbytes = sum(c["P"] * c["b"] * c["calls"] for c in cs)
    t = sum(phase(x, c, m["cand"]) for c in cs)
    return nbytes / t / (1e6 if m["unit"] == "MB/s" else MiB)


def validate(x):
    rows = measured_short() + measured_8()
    print(f"parameters: {x['name']} (lat {x['lat']*1e6:.1f} us, MPI {x['bw']/1e6:.0f} MB/s, "
          f"client w/r {x['client']['write']/1e6:.0f}/{x['client']['read']/1e6:.0f} MB/s, "
          f"servers w/r {x['agg']['write']/1e6:.0f}/{x['agg']['read']/1e6:.0f} MB/s, "
          f"request w/r {x['req']['write']*1e6:.0f}/{x['req']['read']*1e6:.0f} us)")
    print("| run | measured | predicted | error |")
    print("|---|---|---|---|")
    groups = {}
    for m in rows:
        p = predict_rate(x, m)
        err = p / m["value"] - 1
        key = m["run"].rsplit(" rep", 1)[0] + (" (8 ranks)" if "8 ranks" in m["run"] else "")
        groups.setdefault(key, []).append((m["value"], p, err, m["unit"]))
        print(f"| {m['run']} | {m['value']:.1f} {m['unit']} | {p:.1f} | {err:+.0%} |")
    within = sum(abs(e) <= 0.25 for g in groups.values() for _, _, e, _ in g)
    total = sum(len(g) for g in groups.values())
    print(f"\nruns within 25%: {within} of {total}\n")
    print("| workload, op, config | measured median | predicted | error of the median | runs within 25% |")
    print("|---|---|---|---|---|")
    for k, g in groups.items():
        med = statistics.median(v for v, _, _, _ in g)
        p = g[0][1]
        n = sum(abs(e) <= 0.25 for _, _, e, _ in g)
        print(f"| {k} | {med:.1f} {g[0][3]} | {p:.1f} | {p / med - 1:+.0%} | {n}/{len(g)} |")
    return groups


# ---------------------------------------------------------------- scale

SCALE_P = (2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 10000)
PATTERNS = {"matrix_4k": 4096, "matrix_1m": MiB}


def layout(P):
    """2 nodes up to 128 ranks, then 64 ranks per node"""
    ppn = min(64, max(1, P // 2))
    return ppn, math.ceil(P / ppn)


def scale(x, out):
    os.makedirs(out, exist_ok=True)
    rows = []
    for pat, block in PATTERNS.items():
        for op in ("write", "read"):
            for P in SCALE_P:
                ppn, N = layout(P)
                c = matrix(P, N, op, block, calls=1)
                c["ppn"] = ppn
                t = {k: MODEL[k](x, c) for k in CANDS}
                best = min(t, key=lambda k: t[k]["t"])
                if t["two_phase"]["t"] <= 1.05 * t[best]["t"]:
                    best = "two_phase"      # within ORTH_SWITCH: a tie keeps two_phase
                dec, quiet = decide(x, c)
                loss, _ = examine(x, c)
                row = {"pattern": pat, "op": op, "ranks": P, "nodes": N, "ppn": ppn,
                       "bytes_per_call": P * c["b"], "winner": best,
                       "decide_s": f"{dec:.3g}", "decide_quiet_s": f"{quiet:.3g}",
                       "examine_loss_s": f"{loss:.3g}",
                       "examine_loss_calls": f"{loss / t[best]['t']:.2f}"}
                for k in CANDS:
                    row[f"{k}_s"] = f"{t[k]['t']:.4g}"
                    row[f"{k}_rounds"] = t[k]["rounds"]
                    row[f"{k}_colls"] = t[k]["colls"]
                rows.append(row)
    path = os.path.join(out, "scale.csv")
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    plot(rows, os.path.join(out, "scale.png"), x["name"])
    print("| pattern | op | ranks | nodes | " + " | ".join(CANDS) + " | winner | decide/call | examination loss |")
    print("|---|---|---|---|" + "---|" * len(CANDS) + "---|---|---|")
    for r in rows:
        if r["ranks"] in (2, 16, 128, 1024, 10000):
            gbs = [f"{r['bytes_per_call'] / float(r[k + '_s']) / 1e9:.2f}" for k in CANDS]
            print(f"| {r['pattern']} | {r['op']} | {r['ranks']} | {r['nodes']} | "
                  + " | ".join(gbs) + f" | {r['winner']} | {float(r['decide_s'])*1e6:.0f} us | "
                  f"{float(r['examine_loss_s'])*1e3:.3g} ms ({r['examine_loss_calls']} calls) |")
    print(f"\nwrote {os.path.relpath(path, ROOT)} and scale.png")
    return rows


def plot(rows, path, name):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("model: no matplotlib, no plot", file=sys.stderr)
        return
    keys = [(p, o) for p in PATTERNS for o in ("write", "read")]
    fig, axs = plt.subplots(1, len(keys), figsize=(4 * len(keys), 3.6), sharey=False)
    for ax, (pat, op) in zip(axs, keys):
        sel = [r for r in rows if r["pattern"] == pat and r["op"] == op]
        xs = [r["ranks"] for r in sel]
        for k in CANDS:
            ax.plot(xs, [r["bytes_per_call"] / float(r[k + "_s"]) / 1e9 for r in sel],
                    marker="o", ms=3, label=k)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_title(f"{pat} {op}", fontsize=9)
        ax.set_xlabel("ranks (2 nodes to 128 ranks, then 64 per node)")
        ax.grid(alpha=0.3)
    axs[0].set_ylabel("predicted GB/s per call")
    axs[0].legend(fontsize=7)
    fig.suptitle(f"Orthrus cost model, {name}", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


# ---------------------------------------------------------------- mpich#7935

def mpich7935(x=LUSTRE):
    """4D subarray (Grid's lattice in lexicographic order): 1,024 ranks on 128
    nodes; assumed local lattice 16^4 sites of 576 bytes (a gauge field),
    so each rank holds 16^3 pieces of 16 sites (9 KiB), 37.7 MB"""
    P, N = 1024, 128
    site, loc = 576, 16
    b, k = loc ** 4 * site, loc ** 3
    print(f"mpich#7935: {P} ranks on {N} nodes, {b/1e6:.1f} MB per rank in {k} pieces of "
          f"{loc*site} bytes, {P*b/1e9:.1f} GB per call; {x['name']}: "
          f"{x['tp_aggs']} aggregators for two_phase (one per stripe), clients "
          f"{x['client']['read']/1e9:.2f} GB/s per node")
    print("| op | candidate | GB/s | rounds | collectives | bytes between nodes |")
    print("|---|---|---|---|---|---|")
    out = {}
    for op in ("write", "read"):
        c = case(P, N, op, b, k, 1, ds_read=False)
        for cand in ("two_phase", "two_layer", "view_based", "independent"):
            r = MODEL[cand](x, c)
            out[(op, cand)] = P * b / r["t"] / 1e9
            print(f"| {op} | {cand} | {out[(op, cand)]:.1f} | {r['rounds']} | {r['colls']} | "
                  f"{r['net']/1e9:.1f} GB |")
        c2 = dict(c, aggs=N)
        r = two_phase(x, c2)
        print(f"| {op} | two_phase, cb_nodes = {N} | {P*b/r['t']/1e9:.1f} | {r['rounds']} | "
              f"{r['colls']} | {r['net']/1e9:.1f} GB |")
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--validate", action="store_true")
    ap.add_argument("--scale", action="store_true")
    ap.add_argument("--case", choices=["mpich7935"])
    ap.add_argument("--limits", default=LIMITS)
    ap.add_argument("--out", default=os.path.join(RES, "orthrus", "model"))
    a = ap.parse_args(argv)
    if not (a.validate or a.scale or a.case):
        ap.error("give --validate, --scale or --case")
    if a.validate:
        validate(load_limits(a.limits))
    if a.scale:
        scale(LUSTRE, a.out)
    if a.case == "mpich7935":
        mpich7935()


if __name__ == "__main__":
    main()

"""Checks romio-xt-phases' choice of calibration state for a phase (cold or
warm reads, cache_state) and that every setting's estimate then uses that
state's bandwidths.

  python3 estimate_check.py TOOL

A database with a collective read kind measured cold (100 MB/s under the
default, 50 under cb_nodes=1) and warm (1000 and 2000 MB/s); phases of
10 MB whose time in their calls matches one state or the other.  Exits 1 on
the first mismatch.
"""
import importlib.machinery
import importlib.util
import sys

loader = importlib.machinery.SourceFileLoader("phases", sys.argv[1])
spec = importlib.util.spec_from_loader("phases", loader)
tool = importlib.util.module_from_spec(spec)
loader.exec_module(tool)

MB = 1e6


def ent(op, setting, mbps, cache=None, rep=0):
    e = {"kind": "contiguous", "sharing": "shared", "op": op, "collective": 1, "nprocs": 2,
         "request_size": 1 << 20, "bytes": 100 * MB, "seconds": 100 * MB / (mbps * MB)
         * (1 + 0.01 * rep), "setting": setting, "pieces": 1}
    if cache:
        e["cache"] = cache
    return e


def db(warm=True):
    ents = []
    for rep in range(3):
        ents += [ent("read", "default", 100, None, rep), ent("read", "cb_nodes=1", 50, "cold", rep),
                 ent("write", "default", 200, None, rep), ent("write", "cb_nodes=1", 100, None, rep)]
        if warm:
            ents += [ent("read", "default", 1000, "warm", rep),
                     ent("read", "cb_nodes=1", 2000, "warm", rep)]
    return ents


def phase(op, seconds, outside=0.0):
    return {"phase": 1, "spatiality": "contiguous", "file_strategy": "shared",
            "collective_share": 1.0, "op": op, "ranks": 2, "request_size_median": 1 << 20,
            "bytes": 10 * MB, "duration": seconds + outside, "outside_calls": outside,
            "file_names": ["f"]}


def check(what, got, want):
    ok = abs(got - want) <= 0.03 * want if isinstance(want, float) else got == want
    print(f"{what}: {got} (want {want})")
    if not ok:
        sys.exit(1)


# 10 MB read in 0.011 s (plus 0.5 s outside the calls): warm (1000 MB/s)
e = tool.estimate([phase("read", 0.011, 0.5)], db())[0]
check("fast read: state", e["cache"], "warm")
check("fast read: default", e["absolute"]["default"], 0.010)
check("fast read: cb_nodes=1", e["absolute"]["cb_nodes=1"], 0.005)
# 10 MB read in 0.09 s: cold (100 MB/s)
e = tool.estimate([phase("read", 0.09)], db())[0]
check("slow read: state", e["cache"], "cold")
check("slow read: cb_nodes=1", e["absolute"]["cb_nodes=1"], 0.2)
# without warm entries (an older database): cold
e = tool.estimate([phase("read", 0.011)], db(warm=False))[0]
check("no warm entries: state", e["cache"], "cold")
check("no warm entries: default", e["absolute"]["default"], 0.1)
# writes are cold whatever their time
e = tool.estimate([phase("write", 0.001)], db())[0]
check("write: state", e["cache"], "cold")
check("write: cb_nodes=1", e["absolute"]["cb_nodes=1"], 0.1)
print("estimate_check: all passed")

#!/usr/bin/env python3
"""Fuzzes the .xtt trace reader of romio-xt-phases (read_trace, then phase
detection and the table on what it read).  A trace either reads or is refused
with TraceError naming the file; any other exception is a crash.

usage: fuzz_xtt.py PHASES_TOOL SECONDS SEEDS_DIR      (atheris when installed,
                                                      else a mutation loop)
       fuzz_xtt.py PHASES_TOOL --replay FILE...       (make check: regressions)
"""
import importlib.machinery
import importlib.util
import io
import os
import random
import struct
import sys
import tempfile
import time
import types


def load_tool(path):
    loader = importlib.machinery.SourceFileLoader("romio_xt_phases", path)
    spec = importlib.util.spec_from_loader("romio_xt_phases", loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


class Harness:
    def __init__(self, tool):
        self.t = tool
        self.dir = tempfile.mkdtemp(prefix="xt-fuzz-xtt.")
        self.path = os.path.join(self.dir, "j-0.xtt")
        self.args = types.SimpleNamespace(time_distance=1.0, threshold=0.2)

    def one(self, data):
        with open(self.path, "wb") as f:
            f.write(data)
        try:
            trace = self.t.read_trace(self.path)
        except self.t.TraceError as e:
            if self.path not in str(e):
                raise AssertionError("a refusal names the file: " + str(e))
            return
        ph = self.t.detect([trace], self.args.time_distance, self.args.threshold)
        rows = [p.as_dict(i + 1, self.args.threshold) for i, p in enumerate(ph)]
        out = io.StringIO()
        job = {"title": f"job {trace[0]['job']}", "nprocs": trace[0]["nprocs"],
               "inputs": "1 trace file"}
        self.t.summary(job, rows, out)
        self.t.print_table(rows, out)


def seed_trace():
    t = load_tool.tool
    name = b"/tmp/f.dat"
    hdr = t.HDR.pack(t.MAGIC, 1, t.HDR.size, t.REC.size, 0, 2, 0, 1.0, 0.0, b"job")
    recs = t.REC.pack(0.0, 0.0, 2, len(name), 1, 1, 3, 0) + name.ljust(t.REC.size, b"\0")
    for k in range(6):
        recs += t.REC.pack(0.1 * k, 0.1 * k + 0.05, 4096 * k, 4096, 1, 1, k & 1, 1)
    recs += t.REC.pack(1.0, 1.0, 0, 0, 0, 1, 4, 0)
    return hdr + recs


def mutate(rng, data):
    b = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        kind = rng.randrange(6)
        if kind == 0 and b:
            b[rng.randrange(len(b))] = rng.randrange(256)
        elif kind == 1 and b:
            del b[rng.randrange(len(b)):][:rng.randint(1, 64)]
        elif kind == 2:
            at = rng.randrange(len(b) + 1)
            b[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 32)))
        elif kind == 3 and len(b) >= 8:    # an interesting 8-byte value
            at = rng.randrange(len(b) - 7)
            v = rng.choice([0, -1, 1 << 62, -(1 << 63), 2 ** 63 - 1])
            fmt = rng.choice(["<q", "<d"])
            b[at:at + 8] = struct.pack(fmt, float(v) if fmt == "<d" else v)
        elif kind == 4 and len(b) >= 8:
            at = rng.randrange(len(b) - 7)
            b[at:at + 8] = struct.pack("<d", rng.choice([float("nan"), float("inf"), -1e308, 1e308]))
        elif kind == 5:
            b = b[:rng.randrange(len(b) + 1)]
    return bytes(b)


def mutation_loop(h, seconds, seeds, crash_dir):
    rng = random.Random(1)
    pool = list(seeds)
    n, crashes, t0 = 0, 0, time.time()
    while time.time() - t0 < seconds:
        data = mutate(rng, rng.choice(pool))
        n += 1
        try:
            h.one(data)
        except Exception as e:  # a crash: keep the input
            crashes += 1
            p = os.path.join(crash_dir, f"crash-{crashes}")
            with open(p, "wb") as f:
                f.write(data)
            print(f"crash {type(e).__name__}: {e} -> {p}", flush=True)
        if rng.random() < 0.01 and len(pool) < 256:
            pool.append(data)
    dt = time.time() - t0
    print(f"mutation loop: {n} executions in {dt:.0f} s ({n / dt:.0f}/s), {crashes} crashes")
    return crashes


def main(argv):
    tool = load_tool(argv[1])
    load_tool.tool = tool
    h = Harness(tool)
    if argv[2] == "--replay":
        for p in argv[3:]:
            with open(p, "rb") as f:
                h.one(f.read())
            print(f"replayed {p}")
        return 0
    seconds, seeds_dir = float(argv[2]), argv[3]
    seeds = [seed_trace()]
    for name in sorted(os.listdir(seeds_dir)):
        with open(os.path.join(seeds_dir, name), "rb") as f:
            seeds.append(f.read())
    try:
        import atheris
    except ImportError:
        return 1 if mutation_loop(h, seconds, seeds, seeds_dir + "/..") else 0
    corpus = tempfile.mkdtemp(prefix="xt-fuzz-xtt-corpus.")
    for k, s in enumerate(seeds):
        with open(os.path.join(corpus, f"seed{k}"), "wb") as f:
            f.write(s)
    for obj in list(vars(tool).values()):     # coverage of the tool's own code
        if isinstance(obj, types.FunctionType) and obj.__module__ == tool.__name__:
            setattr(tool, obj.__name__, atheris.instrument_func(obj))
        elif isinstance(obj, type) and obj.__module__ == tool.__name__:
            for k, m in list(vars(obj).items()):
                if isinstance(m, types.FunctionType):
                    setattr(obj, k, atheris.instrument_func(m))
    atheris.Setup([argv[0], f"-max_total_time={int(seconds)}", "-print_final_stats=1",
                   "-artifact_prefix=" + os.path.join(corpus, ""), corpus], h.one)
    atheris.Fuzz()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

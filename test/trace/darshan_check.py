"""Checks romio-xt-phases on the example Darshan logs that ship with PyDarshan.

  python3 darshan_check.py TOOL OUTDIR

For each log: the tool's per-file, per-op bytes and requests (summed over its
phases) must equal PyDarshan's: the DXT segments (to_df) for files with DXT
records (DXT_MPIIO before DXT_POSIX), else libdarshan-util's accumulator
(accumulate_records, as `darshan summary` uses it) over the file's MPI-IO
records, else its POSIX records.  Also the input kind each phase names, the
timeline plot, and one error naming the file for foreign and truncated logs.
Prints one line per log; exits 1 on the first mismatch.
"""
import json
import os
import subprocess
import sys

import darshan
from darshan.backend.cffi_backend import accumulate_records

TOOL, OUT = sys.argv[1], sys.argv[2]
HERE = os.path.dirname(darshan.__file__)
# (path under the package, what it covers, expected input kind of the phases)
LOGS = [
    ("examples/example_logs/ior_hdf5_example.darshan", "HDF5 client, DXT_MPIIO", {"dxt"}),
    ("examples/example_logs/dxt.darshan", "POSIX-only DXT", {"dxt"}),
    ("tests/input/sample-dxt-simple.darshan", "DXT_MPIIO and DXT_POSIX", {"dxt"}),
    ("examples/example_logs/example.darshan", "MPI-IO counters, 2048 ranks", {"counters"}),
    ("examples/example_logs/sample-badost.darshan", "POSIX-only counters, fpp", {"counters"}),
    ("examples/example_logs/shane_macsio_id29959_5-22-32552-7035573431850780836_1590156158"
     ".darshan", "HDF5 client (H5F/H5D), MPI-IO and POSIX counters", {"counters"}),
    ("examples/darshan-graph/pq_app_readAB_writeC_id71326_7-31-5658-2037904274838284930_55623"
     ".darshan", "MPI-IO and POSIX counters, reads and writes", {"counters"}),
]
OPS = (("read", "READ", "READS"), ("write", "WRITTEN", "WRITES"))


def expected(path):
    """{(file name, op): [bytes, requests]} as PyDarshan reports them"""
    rep = darshan.DarshanReport(path, read_all=True)
    names, nprocs, want, done = rep.name_records, rep.metadata["job"]["nprocs"], {}, set()
    for mod in ("DXT_MPIIO", "DXT_POSIX"):
        if mod not in rep.records:
            continue
        ids = set()
        for rec in rep.records[mod].to_df():
            if rec["id"] in done:
                continue
            ids.add(rec["id"])
            for op, key in (("read", "read_segments"), ("write", "write_segments")):
                seg = rec[key]
                if len(seg):
                    t = want.setdefault((names[rec["id"]], op), [0, 0])
                    t[0] += int(seg["length"].sum())
                    t[1] += len(seg)
        done |= ids
    for mod, pre in (("MPI-IO", "MPIIO"), ("POSIX", "POSIX")):
        if mod not in rep.records:
            continue
        df = rep.records[mod].to_df()
        for fid in sorted(set(df["counters"]["id"]) - done):
            sub = {k: v[v["id"] == fid] for k, v in df.items()}
            sr = accumulate_records(sub, mod, nprocs).summary_record["counters"]
            for op, bkey, rkey in OPS:
                nb = int(sr[f"{pre}_BYTES_{bkey}"].iloc[0])
                if mod == "MPI-IO":
                    nr = sum(int(sr[f"MPIIO_{k}_{rkey}"].iloc[0])
                             for k in ("INDEP", "COLL", "SPLIT", "NB"))
                else:
                    nr = int(sr[f"POSIX_{rkey}"].iloc[0])
                if nb or nr:
                    want[(names[fid], op)] = [nb, nr]
            done.add(fid)
    return want


def got(rows):
    tot = {}
    for r in rows:
        for name, t in r["file_totals"].items():
            x = tot.setdefault((name, r["op"]), [0, 0])
            x[0] += t["bytes"]
            x[1] += t["requests"]
    return tot


def check_log(rel, what, kinds):
    path = os.path.join(HERE, rel)
    png = os.path.join(OUT, os.path.basename(rel) + ".png")
    p = subprocess.run([TOOL, "--json", "--png", png, path], capture_output=True, text=True)
    assert p.returncode == 0, (rel, p.stderr)
    rows = [json.loads(line) for line in p.stdout.splitlines()]
    assert rows, f"{rel}: no phases"
    assert "input: Darshan log" in p.stderr and "fields: " in p.stderr, p.stderr
    assert {r["input"] for r in rows} == kinds, (rel, {r["input"] for r in rows})
    assert all(r["log"] == path for r in rows)
    want, have = expected(path), got(rows)
    assert have == want, f"{rel}: tool {sorted(have.items())[:6]} != PyDarshan {sorted(want.items())[:6]}"
    assert sum(r["bytes"] for r in rows) == sum(v[0] for v in want.values())
    if os.environ.get("XT_HAVE_MPL") == "1":
        assert os.path.getsize(png) > 1000, f"{png}: no timeline"
    nbytes = sum(v[0] for v in want.values())
    print(f"{os.path.basename(rel)[:40]:<40} {what}: {len(rows)} phases, {len(want)} (file, op) "
          f"totals equal, {nbytes} bytes")
    return rows


def check_shapes(results):
    """what the counters say about who accessed the files"""
    ex = results["examples/example_logs/example.darshan"]
    assert len(ex) == 1 and ex[0]["ranks"] == 2048 and ex[0]["file_strategy"] == "shared", ex
    assert ex[0]["spatiality"] == "collective" and ex[0]["collective_share"] > 0.99, ex
    bad = results["examples/example_logs/sample-badost.darshan"]
    assert [r["file_strategy"] for r in bad] == ["file-per-process"] and bad[0]["files"] == 2048
    assert bad[0]["spatiality"] == "contiguous", bad


def check_errors():
    src = os.path.join(HERE, "examples/example_logs/dxt.darshan")
    cases = {"foreign.darshan": b"hello, this is not a Darshan log" * 8,
             "truncated.darshan": open(src, "rb").read()[:3000], "empty.darshan": b""}
    for name, data in cases.items():
        path = os.path.join(OUT, name)
        with open(path, "wb") as f:
            f.write(data)
        p = subprocess.run([TOOL, "--png", "", path], capture_output=True, text=True)
        lines = p.stderr.strip().splitlines()
        assert p.returncode == 2 and len(lines) == 1, (name, p.returncode, p.stderr)
        assert lines[0].startswith(f"romio-xt-phases: error: {path}: "), lines
    nop = os.path.join(HERE, "examples/example_logs/noposix.darshan")
    p = subprocess.run([TOOL, "--png", "", nop], capture_output=True, text=True)
    assert p.returncode == 2 and "no MPI-IO, POSIX or DXT records" in p.stderr, p.stderr
    print("foreign, truncated, empty and I/O-less logs: one error naming the file")


def main():
    results = {rel: check_log(rel, what, kinds) for rel, what, kinds in LOGS}
    check_shapes(results)
    check_errors()
    # several logs at once: one table per log
    two = [os.path.join(HERE, LOGS[0][0]), os.path.join(HERE, LOGS[3][0])]
    p = subprocess.run([TOOL, "--png", ""] + two, capture_output=True, text=True)
    assert p.returncode == 0 and p.stdout.count("I/O phases;") == 2, p.stdout + p.stderr


main()

#!/usr/bin/env python3
"""Check a stats record against the I/O t_stats_io did.

usage: check_stats.py STATS_FILE PROGRAM_OUTPUT DATA_FILE
PROGRAM_OUTPUT holds t_stats_io's line "EXPECT key=value ...".
"""
import json
import os
import sys


def main(stats_path, out_path, data_path):
    expect = {}
    for line in open(out_path):
        if line.startswith("EXPECT "):
            expect = {k: int(v) for k, v in (kv.split("=") for kv in line.split()[1:])}
    assert expect, "no EXPECT line in program output"
    records = [json.loads(l) for l in open(stats_path) if l.startswith("{")]
    mine = [r for r in records if r["file"] == data_path]
    assert len(mine) == 1, f"expected one record for {data_path}, got {len(mine)}"
    r = mine[0]
    ops = r["ops"]
    checks = [
        ("version", r.get("version"), os.environ.get("XT_VERSION")),
        ("ranks", r["ranks"], expect["ranks"]),
        ("fs_io_ranks", r["fs_io_ranks"], expect["ranks"]),
        ("fs write ranks", r["fs_requests"]["write"]["ranks"], expect["ranks"]),
        ("fs read ranks", r["fs_requests"]["read"]["ranks"], expect["ranks"]),
        ("romio_xt_stats hint", r["hints"].get("romio_xt_stats"), "enable"),
        ("romio_xt_layers hint", r["hints"].get("romio_xt_layers"), "stats"),
        ("layers", r["layers"], ["stats"]),
        ("bytes_written", r["bytes_written"], expect["bytes_written"]),
        ("bytes_read", r["bytes_read"], expect["bytes_read"]),
        ("write_coll calls", ops["write_coll"]["calls"], expect["write_coll"]),
        ("read_coll calls", ops["read_coll"]["calls"], expect["read_coll"]),
        ("write_strided calls", ops["write_strided"]["calls"], expect["write_strided"]),
    ]
    bad = [f"{name}: got {got!r}, expected {want!r}" for name, got, want in checks if got != want]
    if ops["write_contig"]["calls"] < expect["contig_writes_min"]:
        bad.append(f"write_contig calls {ops['write_contig']['calls']} < {expect['contig_writes_min']}")
    req = r["fs_requests"]
    if req["write"]["bytes"] < expect["bytes_written"]:
        bad.append(f"fs write bytes {req['write']['bytes']} < bytes written {expect['bytes_written']}")
    if req["read"]["count"] < 1 or req["write"]["count"] < 1:
        bad.append(f"fs request counts {req}")
    for name, op in ops.items():
        if op["time_max"] > op["time_sum"] + 1e-9 or op["time_sum"] < 0:
            bad.append(f"{name}: time_max {op['time_max']} > time_sum {op['time_sum']}")
    if bad:
        sys.exit("stats record wrong:\n  " + "\n  ".join(bad) + "\n" + json.dumps(r))
    print("stats record matches the I/O done")


if __name__ == "__main__":
    main(*sys.argv[1:4])

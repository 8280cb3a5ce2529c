#!/usr/bin/env python3
"""Check a t_stats_ranks record: its ranks, fs_io_ranks and hints.

usage: check_stats_ranks.py STATS_FILE PROGRAM_OUTPUT DATA_FILE RANKS FS_IO_RANKS [KEY=VALUE ...]
The record's hints must equal the program's "HINT key hex(value)" lines (what
MPI_File_get_info returned before the close), key for key (where the record
left keys out, hints_left_out of them: the first keys), and hold each
KEY=VALUE given.
"""
import json
import sys


def main(stats_path, out_path, data_path, ranks, fs_io_ranks, *want):
    info = {}
    for line in open(out_path):
        if line.startswith("HINT "):
            parts = line.split()
            info[parts[1]] = bytes.fromhex(parts[2] if len(parts) > 2 else "").decode()
    assert info, "no HINT line in program output"
    mine = [json.loads(l) for l in open(stats_path, encoding="utf-8") if l.startswith("{")]
    mine = [r for r in mine if r["file"] == data_path]
    assert len(mine) == 1, f"expected one record for {data_path}, got {len(mine)}"
    r = mine[0]
    bad = []
    if r["ranks"] != int(ranks):
        bad.append(f"ranks {r['ranks']}, expected {ranks}")
    if r["fs_io_ranks"] != int(fs_io_ranks):
        bad.append(f"fs_io_ranks {r['fs_io_ranks']}, expected {fs_io_ranks}")
    if r["fs_requests"]["write"]["ranks"] != int(fs_io_ranks):
        bad.append(f"fs_requests.write.ranks {r['fs_requests']['write']['ranks']}")
    hints = r.get("hints", {})
    left = r.get("hints_left_out", 0)
    keys = set(hints) if left else set(info) | set(hints)
    if left and (list(hints) != list(info)[:len(hints)] or len(hints) + left != len(info)):
        bad.append(f"{len(hints)} hints and {left} left out: not the first of get_info's {len(info)}")
    for key in sorted(keys):
        if info.get(key) != hints.get(key):
            bad.append(f"hint {key}: record {hints.get(key)!r}, get_info {info.get(key)!r}")
    for kv in want:
        key, val = kv.split("=", 1)
        if hints.get(key) != val:
            bad.append(f"hint {key}: record {hints.get(key)!r}, expected {val!r}")
    if bad:
        sys.exit("stats record wrong:\n  " + "\n  ".join(bad) + "\n" + json.dumps(r))
    print(f"ranks {ranks}, fs_io_ranks {fs_io_ranks}, {len(hints)} hints as get_info's")


if __name__ == "__main__":
    main(*sys.argv[1:])

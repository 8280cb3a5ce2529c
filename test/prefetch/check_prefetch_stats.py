#!/usr/bin/env python3
"""Check the prefetch section of a stats record against t_prefetch scan.

usage: check_prefetch_stats.py STATS_FILE PROGRAM_OUTPUT DATA_FILE RANKS CACHE_BLOCKS BLOCK_SIZE METHOD
PROGRAM_OUTPUT holds the line "EXPECT reads=N got=BYTES" (summed over ranks).
The memory bound: each rank allocates at most CACHE_BLOCKS buffers of
BLOCK_SIZE bytes (the counters are sums over ranks).
"""
import json
import sys


def main(stats_path, out_path, data_path, ranks, cb, bs, method):
    ranks, cb, bs = int(ranks), int(cb), int(bs)
    expect = {}
    for line in open(out_path):
        if line.startswith("EXPECT "):
            expect = {k: int(v) for k, v in (kv.split("=") for kv in line.split()[1:])}
    assert expect, "no EXPECT line in program output"
    recs = [json.loads(l) for l in open(stats_path) if l.startswith("{")]
    mine = [r for r in recs if r["file"] == data_path]
    assert len(mine) == 1, f"expected one record for {data_path}, got {len(mine)}"
    r = mine[0]
    bad = []

    def want(name, ok):
        if not ok:
            bad.append(name)

    want("layers prefetch,stats", r["layers"] == ["prefetch", "stats"])
    p = r["features"].get("prefetch", {})
    want("method", p.get("method") == method)
    want("cache_blocks", p.get("cache_blocks") == cb)
    want("block_size", p.get("block_size") == bs)
    reads, got = expect["reads"], expect["got"]
    fs = r["fs_requests"]["read"]
    want("bytes_from_cache + bytes_from_fs == bytes read",
         p["bytes_from_cache"] + p["bytes_from_fs"] == got)
    want("jumps counted", p["jumps"] >= 0)
    if method == "buffer":
        loaded = p["blocks_prefetched"]
        want(f"buffer_allocs {p['buffer_allocs']} <= ranks x cache_blocks {ranks * cb}",
             0 < p["buffer_allocs"] <= ranks * cb)
        want(f"buffer_peak_bytes {p['buffer_peak_bytes']} <= ranks x cache_blocks x block_size",
             0 < p["buffer_peak_bytes"] <= ranks * cb * bs)
        want(f"buffers reused: {loaded} blocks loaded > {ranks * cb}", loaded > ranks * cb)
        want("served from the cache: hits > 0", p["hits"] > 0)
        want("pieces served >= reads", p["hits"] + p["misses"] >= reads)
        want("bytes_from_cache > 0", p["bytes_from_cache"] > 0)
        want(f"fs read requests {fs['count']} >= blocks loaded {loaded}", fs["count"] >= loaded)
        want("fs read bytes <= blocks loaded x block size + bytes read directly",
             fs["bytes"] <= loaded * bs + p["bytes_from_fs"])
    else:
        want("blocks advised > 0", p["blocks_prefetched"] > 0)
        want("no buffers", p["buffer_allocs"] == 0 and p["buffer_peak_bytes"] == 0)
        want("no cache hits", p["hits"] == 0 and p["bytes_from_cache"] == 0)
        want(f"fs read requests {fs['count']} >= reads {reads}", fs["count"] >= reads)
        want("fs read bytes == bytes read", fs["bytes"] == got)
    if bad:
        sys.exit("prefetch stats wrong:\n  " + "\n  ".join(bad) + "\n" + json.dumps(r))
    print(f"prefetch stats ok: {json.dumps(p)}")


if __name__ == "__main__":
    main(*sys.argv[1:8])

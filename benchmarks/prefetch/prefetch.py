# romio-xt prefetch benchmark: the ROOT-like reader (pf_root.c) under five
# configurations, sweeping the compute per read.  Run by run.sh, which sets
#   PF_DATA     directory holding root.<rank> (made with pf_root --create)
#   PF_BYTES    bytes each reader reads through (its file's size)
#   PF_READERS  concurrent readers (separate processes, one file each)
#   PF_COMPUTE  compute per read in microseconds, comma-separated
#   PF_REPS     repetitions
# Every configuration has the stats layer on (for the file-system request
# counts), so the comparison is stats vs stats + prefetch.
import os

readers = int(os.environ.get("PF_READERS", "1"))
STATS = {"romio_xt_stats": "enable"}
CONFIG = {
    "name": f"prefetch-{readers}reader" + ("s" if readers > 1 else ""),
    "workload": {"source": "pf_root.c", "cflags": ["-O2", "-Wall"]},
    "args": ["--data", os.environ.get("PF_DATA", "."), "--bytes",
             os.environ.get("PF_BYTES", str(1 << 30)), "--compute-us", "{compute_us}",
             "--mode", "{config}", "--seed", "{rep}"],
    "ranks": readers,
    "reps": int(os.environ.get("PF_REPS", "5")),
    "timeout": 300,
    "configs": [
        {"name": "off", "hints": STATS},
        # the paper's straw man: one POSIX_FADV_WILLNEED over the whole file at open
        {"name": "willneed", "hints": STATS},
        {"name": "fadvise", "hints": dict(STATS, romio_prefetch="enable",
                                          romio_prefetch_method="fadvise")},
        {"name": "buffer", "hints": dict(STATS, romio_prefetch="enable",
                                         romio_prefetch_method="buffer")},
        # mode "announce": pf_root announces its next reads by MPI_File_set_info
        # (as ROOT's TTreeCache); the same 32 MiB of cache as buffer's default
        {"name": "announce", "hints": dict(STATS, romio_prefetch="enable",
                                           romio_prefetch_method="buffer",
                                           romio_prefetch_block_size="1m",
                                           romio_prefetch_cache_blocks="32")},
    ],
    "sweep": {"compute_us": [int(c) for c in
                             os.environ.get("PF_COMPUTE", "0,150,300,450,600").split(",")]},
    "metric": "seconds",
    "group_by": ["phase", "readers"],
    "stats_fields": ["fs_requests.read.*", "features.prefetch.*"],
}

# NVM write-behind benchmark, harness config.  The run script
# (run.sh) sets NVC_BENCH_WORKLOAD (collperf-ior | flashio), NVC_CACHE_DIR,
# NVC_FLASHIO (the h5pcc-built flashio binary) and NVC_REPS.
import os

workload = os.environ.get("NVC_BENCH_WORKLOAD", "collperf-ior")
cache_dir = os.environ.get("NVC_CACHE_DIR", "/dev/shm/romio-xt-nvc-bench")
base = {"romio_xt_stats": "enable", "cb_nodes": "{cbn}", "cb_buffer_size": "{cbb}",
        "ind_wr_buffer_size": "524288"}

CONFIG = {
    "name": "nvc-" + workload,
    "ranks": 2,
    "reps": int(os.environ.get("NVC_REPS", "3")),
    "timeout": 300,
    "configs": [
        {"name": "cache-off", "hints": dict(base)},
        {"name": "e10-enable", "hints": dict(base, e10_cache="enable",
                                             e10_cache_path=cache_dir)},
    ],
    "metric": "MBps",
    "group_by": ["phase", "compute"],
    "stats_fields": ["features.nvm_cache.*", "ops.write_contig.time_max",
                     "ops.write_coll.time_max", "ops.flush.time_max"],
}

if workload == "flashio":
    CONFIG["workload"] = {"command": os.environ.get("NVC_FLASHIO", "flashio")}
    CONFIG["args"] = ["--dir", "{workdir}", "--files", "3", "--blocks", "320",
                      "--compute", "{compute}"]
    CONFIG["sweep"] = {"compute": [0, 1.0], "cbn": [2], "cbb": [4194304]}
else:
    CONFIG["workload"] = {"source": "nvc_bench.c", "cflags": ["-O2", "-Wall"]}
    CONFIG["args"] = ["--dir", "{workdir}", "--pattern", "{pattern}", "--files", "3",
                      "--n", "256", "--segments", "8", "--block", "4194304",
                      "--compute", "{compute}"]
    CONFIG["sweep"] = {"pattern": ["collperf", "ior"], "compute": [0, 1.0],
                       "cbn": [1, 2], "cbb": [4194304, 16777216]}

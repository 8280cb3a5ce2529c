# What e10_cache=strict costs, harness config: the checkpoint
# workloads of nvc.py (coll_perf-like and IOR-like, 3 files, 2 ranks), cache
# off vs enable vs strict, all flush_immediate (strict implies it).
# Run: benchmarks/nvm_cache/run-strict.sh.
import os
import runpy

_nvc = runpy.run_path(os.path.join(os.path.dirname(os.path.abspath(__file__)), "nvc.py"))
CONFIG = dict(_nvc["CONFIG"])
_on = dict(_nvc["base"], e10_cache_path=_nvc["cache_dir"])
CONFIG["name"] = "nvc-strict"
CONFIG["configs"] = [
    {"name": "cache-off", "hints": dict(_nvc["base"])},
    {"name": "e10-enable", "hints": dict(_on, e10_cache="enable")},
    {"name": "e10-strict", "hints": dict(_on, e10_cache="strict")},
]
CONFIG["sweep"] = {"pattern": ["collperf", "ior"], "compute": [0, 1.0], "cbn": [1],
                   "cbb": [16777216]}

# The E10 checkpoint workflow, harness config: 2 ranks, 3 files of 256 MiB
# (IOR-like, 4 MiB per rank per write_at_all), each written, then COMPUTE
# seconds of compute, then MPI_File_sync + close; cache off vs e10_cache=enable
# (cache in NVC_CACHE_DIR, /dev/shm), compute 0 and 1.5 s.
# Run: benchmarks/nvm_cache/run-checkpoint.sh
import os
import runpy

_nvc = runpy.run_path(os.path.join(os.path.dirname(os.path.abspath(__file__)), "nvc.py"))
CONFIG = dict(_nvc["CONFIG"])
CONFIG["name"] = "nvc-checkpoint"
CONFIG["reps"] = int(os.environ.get("NVC_REPS", "3"))
CONFIG["args"] = ["--dir", "{workdir}", "--pattern", "ior", "--files", "3", "--segments", "32",
                  "--block", "4194304", "--compute", "{compute}"]
CONFIG["sweep"] = {"compute": [0, 1.5], "cbn": [1], "cbb": [16777216]}

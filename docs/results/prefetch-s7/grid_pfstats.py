# run the no-harm grid's prefetch column once with the stats layer on, to count
# the reads that went through the prefetch window in each cell
import sys, runpy
sys.path.insert(0, "/work/wt15p/benchmarks/noharm")
import run
run.EXT["prefetch"] = {"romio_prefetch": "enable", "romio_xt_stats": "enable"}
run.CONFIGS[:] = [("prefetch", run.EXT["prefetch"])]
sys.argv = ["run.py", "--prefix", "/work/wt15p/install", "--out", "/work/wt15p/bench-out/pfstats",
            "--work", "/work/wt15p/bench-out/pfstats-work", "--apps", "/work/wt15p/_build/apps",
            "--reps", "1", "--only", "prefetch"]
run.main()

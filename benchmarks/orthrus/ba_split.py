#!/usr/bin/env python3
"""ba_split.py CONFIG OUTDIR BASE_LIB [name=value,...]: one harness config per
sweep point of an Orthrus sweep (matrix.json ...), with enable/enable_table
run twice, before (_b: BASE_LIB, e.g. another install's lib, by
LD_LIBRARY_PATH) and after (_a: the harness's --prefix), interleaved per rep.
name=value fixes an argument placeholder ({calls}) or sets a sweep list
(elmtcount=16:1024).  Run each printed config under the bench lock:
  flock /work/bench.lock python3 benchmarks/harness.py --config C --prefix P --out O --reps 5
then ba_summary.py O/logs O/<family>-*.csv (docs/results/orthrus-s9.md)."""
import json, sys, os, itertools
cfg = json.load(open(sys.argv[1]))
out, base_lib = sys.argv[2], sys.argv[3]
over = dict(kv.split("=") for kv in sys.argv[4].split(",")) if len(sys.argv) > 4 else {}
cfg["workload"]["source"] = os.path.join(os.path.dirname(os.path.abspath(sys.argv[1])), cfg["workload"]["source"])
configs = []
for c in cfg["configs"]:
    if c["name"] in ("enable", "enable_table"):
        for tag, env in (("_b", {"LD_LIBRARY_PATH": base_lib}), ("_a", {})):
            h = {k: v.replace("orthrus-table-", "orthrus-table" + tag + "-") for k, v in c["hints"].items()}
            configs.append({"name": c["name"] + tag, "hints": h, "env": env})
    elif c["name"] != "view_based":
        configs.append(c)
cfg["configs"] = configs
names = list(cfg["sweep"])
for k, v in over.items():       # a fixed argument (e.g. calls=100), or a sweep list (elmtcount=16:1024)
    if k in cfg["sweep"]:
        cfg["sweep"][k] = [int(x) for x in v.split(":")]
    else:
        cfg["args"] = [v if a == "{" + k + "}" else a for a in cfg["args"]]
        cfg["sweep"].pop(k, None)
names = list(cfg["sweep"])
for vals in itertools.product(*cfg["sweep"].values()):
    c = dict(cfg)
    c["sweep"] = {n: [v] for n, v in zip(names, vals)}
    tag = "-".join(f"{n}{v}" for n, v in zip(names, vals))
    c["name"] = cfg["name"] + ("-c" + over["calls"] if "calls" in over else "") + "-" + tag
    p = os.path.join(out, c["name"] + ".json")
    json.dump(c, open(p, "w"), indent=1)
    print(p)

#!/usr/bin/env python3
"""Summary of desc_loop.sh output: per config the whole-run medians (min-max, n)
and the median per-call time over calls 2.. (CFGS: the configs, the first is the baseline)."""
import sys, os, statistics as S, collections
calls = collections.defaultdict(list); res = collections.defaultdict(list)
for l in open(sys.argv[1]):
    f = l.split()
    if len(f) < 3: continue
    cfg, rep, kind = f[0], f[1], f[2]
    kv = dict(x.split('=', 1) for x in f[3:] if '=' in x)
    if kind == 'CALL' and int(kv['call']) >= 2:
        calls[(kv['phase'], cfg)].append(float(kv['seconds']))
    elif kind == 'RESULT':
        res[(kv['phase'], cfg)].append(float(kv['seconds']))
cfgs = os.environ.get('CFGS', 'stock listed cached').split()
print("| phase | " + " | ".join(f"{c} ms med [min-max] n" for c in cfgs) + " | " + " | ".join(f"stock/{c}" for c in cfgs[1:]) + " |")
print("|---" * (1 + 2 * len(cfgs) - 1) + "|")
for ph in sorted(set(k[0] for k in res)):
    m = {c: S.median(res[(ph, c)]) for c in cfgs}
    print(f"| {ph} whole | " + " | ".join(f"{m[c]*1e3:.1f} [{min(res[(ph,c)])*1e3:.1f}-{max(res[(ph,c)])*1e3:.1f}] {len(res[(ph,c)])}" for c in cfgs) + " | " + " | ".join(f"{m['stock']/m[c]:.3f}" for c in cfgs[1:]) + " |")
for ph in sorted(set(k[0] for k in calls)):
    m = {c: S.median(calls[(ph, c)]) for c in cfgs}
    print(f"| {ph} per call, median of calls 2.. | " + " | ".join(f"{m[c]*1e3:.3f} ({len(calls[(ph,c)])})" for c in cfgs) + " | " + " | ".join(f"{m['stock']/m[c]:.3f}" for c in cfgs[1:]) + " |")

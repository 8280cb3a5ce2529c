import sys, re, statistics as st
# paired cut per interleaved rep: 1 - mode/off of the same rep (runs are off, block, announce in turn)
for f in sys.argv[1:]:
    reps, cur = [], {}
    for l in open(f):
        m = re.match(r'(\S+) c=\d+ rep=\d+ total=([0-9.]+)', l)
        if not m: continue
        if m.group(1) == 'off' and cur: reps.append(cur); cur = {}
        cur[m.group(1)] = float(m.group(2))
    if cur: reps.append(cur)
    out = []
    for mode in ('block', 'announce'):
        c = sorted(1 - r[mode] / r['off'] for r in reps if mode in r and 'off' in r)
        out.append(f"{mode}: paired cut median {100*st.median(c):.0f}% (min {100*c[0]:.0f}%, max {100*c[-1]:.0f}%, n={len(c)})")
    print(f, '|', '; '.join(out))

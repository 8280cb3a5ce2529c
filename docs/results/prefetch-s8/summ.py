import sys, re, statistics as st
for f in sys.argv[1:]:
    rows = {}
    for l in open(f):
        m = re.match(r'(\S+) c=(\d+) rep=(\d+) (.*)', l)
        if not m: continue
        kv = dict(x.split('=', 1) for x in m.group(4).split() if '=' in x)
        rows.setdefault(m.group(1), []).append(kv)
    off = st.median(float(r['total']) for r in rows.get('off', [{'total': 'nan'}]))
    print(f"== {f}")
    for mode, rs in rows.items():
        t = [float(r['total']) for r in rs]
        med = st.median(t)
        g = lambda k: st.median(float(r.get(k, 'nan')) for r in rs)
        print(f"{mode:10s} n={len(t)} total med {med:.3f} ({min(t):.3f}-{max(t):.3f}) read {g('read'):.3f} compute {g('compute'):.3f} announce {g('announce'):.3f} cut {100*(1-med/off):+.0f}%"
              + (f" fs_bytes {g('fs_read_bytes')/1e6:.0f}MB waits {g('waits_for_thread'):.0f} loaders {g('loader_threads'):.0f}" if 'fs_read_bytes' in rs[0] else ""))

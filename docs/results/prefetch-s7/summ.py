import sys,statistics,collections,re
for f in sys.argv[1:]:
    d=collections.defaultdict(list)
    for l in open(f):
        p=l.split()
        if len(p)<8: continue
        d[p[1]].append((float(p[5]),float(p[6]),float(p[7]), dict(x.split('=') for x in p[8:] if '=' in x)))
    off=statistics.median(x[0] for x in d['off-new'])
    print(f"== {f} (n={len(d['off-new'])})")
    for k in ('off-new','s6','new'):
        v=d[k]; t=[x[0] for x in v]; m=statistics.median(t)
        extra=''
        if v[0][3]:
            extra=' blocks_prefetched med %s, window_did_not_pay med %s, loaders med %s' % (statistics.median(int(x[3].get('blocks_prefetched',0)) for x in v), statistics.median(int(x[3].get('window_did_not_pay',0)) for x in v), statistics.median(int(x[3].get('loader_threads',1)) for x in v))
        print(f"{k:8s} total med {m:.3f} (min {min(t):.3f} max {max(t):.3f}) read med {statistics.median(x[1] for x in v):.3f} compute med {statistics.median(x[2] for x in v):.3f}  cut vs off {100*(1-m/off):+.0f}%{extra}")

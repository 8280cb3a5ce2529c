import csv, statistics as s, sys
f, key = sys.argv[1], sys.argv[2]
rows=list(csv.DictReader(open(f)))
d={}
for r in rows:
    d.setdefault((r['config'],r[key],r['phase']),{})[r['rep']]=float(r['seconds'])
pts=sorted(set(r[key] for r in rows), key=int)
print('whole phase / tail: stock time / config time (median), per-rep min')
for ph in ('write','read'):
  for p in pts:
    out=[]
    for c in ('two_phase','core_first','enable','enable_b3'):
        st=d[('stock',p,ph)]; v=d[(c,p,ph)]
        tl=d[(c,p,ph+'_tail')]; best=min(s.median(d[(x,p,ph+'_tail')].values()) for x in ('two_phase','core_first'))
        out.append('%s=%.2f(tail/best %.2f)'%(c, s.median(st.values())/s.median(v.values()), best/s.median(tl.values())))
    print(ph, p.rjust(7), ' '.join(out))

import sys, statistics as s
d={}
for l in open(sys.argv[1]):
    f=l.split()
    try: d.setdefault(f[2],[]).append(float(f[3].split('=')[1]))
    except Exception: print('bad', l.strip())
base=sys.argv[2] if len(sys.argv)>2 else list(d)[0]
for k,v in d.items():
    r=sorted(b/a for a,b in zip(d[base],v))
    print(f"{k:12s} med {s.median(v):8.1f} min {min(v):8.1f} max {max(v):8.1f}  ratio/{base} med {s.median(r):.3f} [{r[0]:.3f}-{r[-1]:.3f}]")

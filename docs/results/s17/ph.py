import sys, statistics as s
d={}
for l in open(sys.argv[1]):
    f=l.split()
    try: d.setdefault(f[2],[]).append([float(x.split('=')[1]) for x in f[3:7]])
    except Exception: pass
print('%-12s %8s %8s %8s %8s'%('cfg','total','open','write','close'))
for k,v in d.items(): print('%-12s'%k, ' '.join('%8.1f'%s.median(c) for c in zip(*v)))

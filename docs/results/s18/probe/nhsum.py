import re,collections,statistics as S,sys
d=collections.defaultdict(list)
for l in open(sys.argv[1]):
    m=re.match(r'(\S+) RESULT .*op=(\S+) cond=(\S+) .*seconds=(\S+)',l)
    if m: d[(m.group(2)+'-'+m.group(3),m.group(1))].append(float(m.group(4)))
cfgs=sorted({k[1] for k in d}); phs=sorted({k[0] for k in d})
for ph in phs:
    st=S.median(d[(ph,'stock')])
    print('%-11s stock %7.1f us '%(ph,1e6*st)+' '.join('%s %+6.1f'%(c,1e6*(S.median(d[(ph,c)])-st)) for c in cfgs if c!='stock'))

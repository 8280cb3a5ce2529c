import glob,re,collections,statistics as S,sys
E=sys.argv[1]; per='-c' in sys.argv
d=collections.defaultdict(list); calls=collections.defaultdict(list)
for f in glob.glob('/work/s18/pcw/out.%s.*'%E):
    c=f.split('.')[2]; t=open(f).read()
    m=re.search(r'phase=read bytes=\S+ seconds=(\S+)',t); d[c].append(float(m.group(1)))
    calls[c].append([float(x) for x in re.findall(r'CALL phase=read call=\d+ seconds=(\S+)',t)])
st=S.median(d['stock'])
for c in sorted(d):
    print('%-6s med %.4f ratio(stock/cfg) %.3f  '%(c,S.median(d[c]),st/S.median(d[c])), ' '.join('%.4f'%x for x in sorted(d[c])))
    cc=calls[c]
    if per and cc and cc[0]:
        n=len(cc[0]); print('  calls ms:', ' '.join('%.2f'%(1e3*S.median(r[k] for r in cc)) for k in range(n)))

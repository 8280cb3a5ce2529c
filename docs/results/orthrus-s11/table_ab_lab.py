#!/usr/bin/env python3
import os, random, subprocess, sys, json, shutil, statistics as st
reps=int(sys.argv[1]); wls=sys.argv[2:]
P='/work/ci11/install'
W={'mx4k':['/work/l11/matrix','/work/l11/w','4096','4','120','12'],
   'mx64k':['/work/l11/matrix','/work/l11/w','65536','4','120','12'],
   'mx1m':['/work/l11/matrix','/work/l11/w','1048576','4','60'],
   'nc16k':['/work/l11/noncontig','/work/l11/w','16384','4194304','100'],
   'nc1k':['/work/l11/noncontig','/work/l11/w','1024','4194304','100']}
def run(wl,hint,lib):
    open('/work/l11/htab','w').write(hint)
    env=dict(os.environ, MPIR_CVAR_NUM_CLIQUES='2', ROMIO_HINTS='/work/l11/htab')
    if lib=='old': env['LD_LIBRARY_PATH']='/work/l11/oldlib'
    o=subprocess.run([P+'/bin/mpiexec','-n','2']+W[wl],env=env,capture_output=True,text=True,timeout=300).stdout
    d={}
    for line in o.splitlines():
        if line.startswith('RESULT'):
            kv=dict(x.split('=',1) for x in line.split()[1:]); d[kv['phase']]=float(kv['seconds'])
    return d
out=open('/work/l11/tab.jsonl','a')
for wl in wls:
    T='/work/l11/T_%s'%wl
    if os.path.exists(T): os.remove(T)
    run(wl,'romio_orthrus enable\nromio_orthrus_table %s\n'%T,'new')
    shutil.copy(T,T+'.saved'); print(wl, open(T).read())
res={}
for r in range(reps):
  for wl in wls:
    T='/work/l11/T_%s'%wl
    cs=['stock','table_old','table_new']; random.shuffle(cs)
    for c in cs:
        shutil.copy(T+'.saved',T)
        d=run(wl,'' if c=='stock' else 'romio_orthrus enable\nromio_orthrus_table %s\n'%T,'old' if c=='table_old' else 'new')
        out.write(json.dumps(dict(wl=wl,c=c,rep=r,**d))+'\n'); out.flush()
        for ph,v in d.items(): res.setdefault((wl,ph,c),[]).append(v)
for wl in wls:
  for ph in ('read','write'):
    s=st.median(res[(wl,ph,'stock')])
    print(wl,ph,'stock %.2f ms'%(s*1e3),' '.join('%s %.2f (bad<0.8: %d/%d)'%(c,s/st.median(res[(wl,ph,c)]),sum(s/x<0.8 for x in res[(wl,ph,c)]),len(res[(wl,ph,c)])) for c in ('table_old','table_new')))

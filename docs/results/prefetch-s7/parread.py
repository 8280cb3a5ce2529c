import os,sys,time,threading
f=sys.argv[1]; bs=int(sys.argv[2]); nt=int(sys.argv[3]); total=int(sys.argv[4])
fd=os.open(f,os.O_RDONLY); os.posix_fadvise(fd,0,0,os.POSIX_FADV_DONTNEED)
nxt=[0]; lk=threading.Lock()
def w():
    while True:
        with lk:
            off=nxt[0]; nxt[0]+=bs
        if off>=total: return
        os.pread(fd,bs,off)
t=time.time(); th=[threading.Thread(target=w) for _ in range(nt)]
[x.start() for x in th]; [x.join() for x in th]
dt=time.time()-t; print(f"bs={bs} threads={nt} {total/dt/1e6:.0f} MB/s")

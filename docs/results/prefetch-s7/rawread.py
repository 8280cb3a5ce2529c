import os,sys,time
f=sys.argv[1]; bs=int(sys.argv[2]); stride=int(sys.argv[3]); total=int(sys.argv[4])
fd=os.open(f,os.O_RDONLY); os.posix_fadvise(fd,0,0,os.POSIX_FADV_DONTNEED)
t=time.time(); off=0; n=0
while off<total:
    n+=len(os.pread(fd,bs,off)); off+=stride
dt=time.time()-t; print(f"bs={bs} stride={stride} {n/dt/1e6:.0f} MB/s useful, {dt*1e3/(total//stride):.2f} ms/req")

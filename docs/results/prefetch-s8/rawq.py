import os, sys, time, random, threading
# rawq.py FILE ADVICE(normal|random) THREADS: 1177 reads of 50-450 KiB with gaps 0-500 KiB, in THREADS threads
f, adv, nt = sys.argv[1], sys.argv[2], int(sys.argv[3])
random.seed(1)
reads, pos = [], 0
while len(reads) < 1177:
    l = random.randint(50 << 10, 450 << 10); reads.append((pos, l)); pos += l + random.randint(0, 500 << 10)
    if pos > (512 << 20) - (1 << 20): pos = 0
fd = os.open(f, os.O_RDONLY); os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
if adv == "random": os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_RANDOM)
def cpu():
    s = 0
    for p in os.listdir('/proc'):
        if not p.isdigit(): continue
        try:
            c = open(f'/proc/{p}/cmdline').read()
            if 'p8tb' in c and 'mfs' in c:
                x = open(f'/proc/{p}/stat').read().split(')')[1].split(); s += int(x[11]) + int(x[12])
        except Exception: pass
    return s / 100
idx = [0]; lock = threading.Lock(); n = [0]
def w():
    while True:
        with lock:
            if idx[0] >= len(reads): return
            o, l = reads[idx[0]]; idx[0] += 1
        b = os.pread(fd, l, o)
        with lock: n[0] += len(b)
c0 = cpu(); t = time.time()
ts = [threading.Thread(target=w) for _ in range(nt)]; [x.start() for x in ts]; [x.join() for x in ts]
dt = time.time() - t; c1 = cpu()
print(f"{adv} threads={nt} {n[0]/1e6:.0f} MB in {dt:.3f} s = {n[0]/dt/1e6:.0f} MB/s, daemons {c1-c0:.2f} CPU-s")

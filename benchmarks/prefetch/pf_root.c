/* ROOT-like reader for the prefetch benchmark (the paper's "I/O Prefetching in
 * ROOT": mostly increasing offsets with gaps, occasional backward seeks
 * inside a range, ~250 KiB per read, compute after each read).
 *
 *   pf_root --create FILE BYTES        write FILE (every 8-byte word = a hash
 *                                      of its offset) unless it is there
 *   pf_root --data DIR --bytes B --compute-us C --mode MODE [--seed S] [--idle 1]
 *           [--announce K [--announce-every H | --announce-ahead A]]
 *
 * Each rank is an independent reader of its own file DIR/root.<rank>
 * (MPI_COMM_SELF; hints come from ROMIO_HINTS).  Before the run the file is
 * dropped from the page cache (POSIX_FADV_DONTNEED).  MODE "willneed" issues
 * one POSIX_FADV_WILLNEED over the whole file at open (the paper's straw man);
 * other modes only name the run.  Compute is a busy loop of C microseconds
 * after each read (--idle 1: a sleep instead, i.e. time the CPU is free, as
 * when the application waits on the network or on another process).  Three words of each read are checked.  Prints, on rank 0
 * after close:  RESULT phase=root readers=N compute_us=C seconds=S
 * read_seconds=R compute_seconds=C reads=K bytes=B per_read_ms=M file=PATH
 * (seconds: the slowest reader; read_seconds: time inside MPI_File_read_at,
 * max; announce_seconds: time in MPI_File_set_info announcing the next K reads
 * (--announce K: at open and after every H reads, H = K/2 unless given, as
 * ROOT's TTreeCache announces a cluster's baskets); compute_seconds: time in the compute loops, max: above reads x C when
 * the reader lost its core to other work, e.g. a prefetch thread). */
#define _GNU_SOURCE
#include <mpi.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../xt_cold.h"

#define KB 1024LL
#define MB (1024LL * 1024)

static uint64_t word_at(uint64_t off)
{
    uint64_t x = off * 0x9E3779B97F4A7C15ULL;
    return x ^ (x >> 29) ^ 0x5bd1e995;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int idle;                /* --idle 1: compute = sleep (no CPU used) */

static void spin(double us)
{
    double end = now() + us * 1e-6;
    if (idle && us > 0) {
        struct timespec ts = { (time_t) (us * 1e-6), (long) (((long long) us % 1000000) * 1000) };
        nanosleep(&ts, NULL);
        return;
    }
    while (now() < end)
        ;
}

static uint64_t rng;
static long long rnd(long long lo, long long hi)  /* uniform in [lo, hi] */
{
    rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
    return lo + (long long) ((rng >> 17) % (uint64_t) (hi - lo + 1));
}

static int create(const char *path, long long bytes)
{
    struct stat sb;
    if (stat(path, &sb) == 0 && sb.st_size == bytes)
        return 0;
    int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);
    if (fd < 0)
        return perror(path), 1;
    const long long chunk = 4 * MB;
    uint64_t *buf = malloc(chunk);
    for (long long off = 0; off < bytes; off += chunk) {
        long long n = off + chunk > bytes ? bytes - off : chunk;
        for (long long k = 0; k < n / 8; k++)
            buf[k] = word_at(off + 8 * k);
        if (pwrite(fd, buf, n, off) != n)
            return perror(path), 1;
    }
    free(buf);
    fsync(fd);
    close(fd);
    return 0;
}

/* wait for everyone without busy-polling (ch3:nemesis polls in blocking calls) */
static void quiet_barrier(void)
{
    MPI_Request rq;
    int done = 0;
    MPI_Ibarrier(MPI_COMM_WORLD, &rq);
    while (!done) {
        MPI_Test(&rq, &done, MPI_STATUS_IGNORE);
        if (!done)
            usleep(1000);
    }
}

static int check(const char *buf, long long off, long long n)
{
    long long first = (off + 7) / 8 * 8, last = (off + n - 8) / 8 * 8, mid = (first + last) / 16 * 8;
    long long at[3] = { first, mid, last };
    for (int k = 0; k < 3; k++) {
        uint64_t w;
        if (at[k] < off || at[k] + 8 > off + n)
            continue;
        memcpy(&w, buf + (at[k] - off), 8);
        if (w != word_at(at[k])) {
            fprintf(stderr, "pf_root: wrong data at %lld\n", at[k]);
            return 1;
        }
    }
    return 0;
}

struct run {
    int reads, errors;
    long long bytes;
    double seconds, read_seconds, compute_seconds, announce_seconds;
};

struct read {
    long long off, len;
};

/* ranges of 8-64 MiB visited in order; inside one, reads of 50-450 KiB with
 * gaps of 0-500 KiB, and 1 read in 20 seeks back 256 KiB-1 MiB.  Returns the
 * number of reads planned into *plan (the same sequence for a seed as the
 * reads were always made) */
static int plan_reads(long long size, struct read **plan)
{
    int n = 0, cap = 1024;
    struct read *p = malloc(cap * sizeof(*p));
    for (long long range = 0; range < size;) {
        long long end = range + rnd(8 * MB, 64 * MB), pos = range;
        if (end > size)
            end = size;
        while (pos < end) {
            long long len = rnd(50 * KB, 450 * KB);
            if (pos + len > size)
                len = size - pos;
            if (n == cap)
                p = realloc(p, (cap *= 2) * sizeof(*p));
            p[n].off = pos;
            p[n++].len = len;
            if (rnd(1, 20) == 1 && pos - range > MB)
                pos -= rnd(256 * KB, MB);
            else
                pos += len + rnd(0, 500 * KB);
        }
        range = end;
    }
    *plan = p;
    return n;
}

/* --announce K: as ROOT's TTreeCache, which knows the next baskets from the
 * file's index, tell the library the next reads: romio_prefetch_willneed =
 * reads [from, from + K) (as many as fit in a hint value's 255 characters),
 * by MPI_File_set_info; the list replaces the reads announced before.
 * MODE "announce" without --announce: --announce 14 --announce-ahead 56.
 * --announce-ahead A: lists starting with '+' (appended to the reads
 * announced before), sent before a read when at most A - K reads from it on
 * are announced, so A - K to A reads ahead are announced.  Returns the reads announced. */
static int announce_k, announce_every, announce_ahead;

static int announce(MPI_File fh, const struct read *p, int n, int from, double *secs)
{
    char text[256];
    int used = 0, k = from;
    if (announce_ahead)
        text[used++] = '+';
    for (; k < n && k < from + announce_k; k++) {
        char one[48];
        int l = snprintf(one, sizeof(one), "%s%lld:%lld", used > !!announce_ahead ? "," : "",
                         p[k].off, p[k].len);
        if (used + l > 255)
            break;
        memcpy(text + used, one, l + 1);
        used += l;
    }
    if (k == from)
        return 0;
    double t0 = now();
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "romio_prefetch_willneed", text);
    MPI_File_set_info(fh, info);
    MPI_Info_free(&info);
    *secs += now() - t0;
    return k - from;
}

static void root_reads(MPI_File fh, long long size, double compute_us, struct run *r)
{
    char *buf = malloc(450 * KB);
    struct read *p;
    int n = plan_reads(size, &p);
    int upto = 0;               /* reads [0, upto) announced */
    if (announce_k && !announce_ahead)
        upto = announce(fh, p, n, 0, &r->announce_seconds);
    for (int k = 0; k < n; k++) {
        for (int got = 1; announce_ahead && got && upto - k <= announce_ahead - announce_k;)
            upto += got = announce(fh, p, n, upto, &r->announce_seconds);
        long long pos = p[k].off, len = p[k].len;
        MPI_Status st;
        double t1 = now();
        MPI_File_read_at(fh, pos, buf, (int) len, MPI_BYTE, &st);
        r->read_seconds += now() - t1;
        r->errors += check(buf, pos, len);
        r->reads++;
        r->bytes += len;
        if (announce_k && !announce_ahead && (k + 1) % announce_every == 0)
            announce(fh, p, n, k + 1, &r->announce_seconds);
        t1 = now();
        spin(compute_us);
        r->compute_seconds += now() - t1;
    }
    free(p);
    free(buf);
}

int main(int argc, char **argv)
{
    const char *dir = ".", *mode = "off";
    long long bytes = 1024 * MB;
    double compute_us = 0;
    int seed = 1, rank, nprocs;
    if (argc == 4 && strcmp(argv[1], "--create") == 0)
        return create(argv[2], atoll(argv[3]));
    for (int a = 1; a + 1 < argc; a += 2) {
        if (!strcmp(argv[a], "--data")) dir = argv[a + 1];
        else if (!strcmp(argv[a], "--bytes")) bytes = atoll(argv[a + 1]);
        else if (!strcmp(argv[a], "--compute-us")) compute_us = atof(argv[a + 1]);
        else if (!strcmp(argv[a], "--mode")) mode = argv[a + 1];
        else if (!strcmp(argv[a], "--seed")) seed = atoi(argv[a + 1]);
        else if (!strcmp(argv[a], "--idle")) idle = atoi(argv[a + 1]);
        else if (!strcmp(argv[a], "--announce")) announce_k = atoi(argv[a + 1]);
        else if (!strcmp(argv[a], "--announce-every")) announce_every = atoi(argv[a + 1]);
        else if (!strcmp(argv[a], "--announce-ahead")) announce_ahead = atoi(argv[a + 1]);
    }
    if (!strcmp(mode, "announce") && !announce_k) {     /* the benchmark's defaults */
        announce_k = 14;
        announce_ahead = 56;
    }
    if (announce_k > 0 && announce_every <= 0)
        announce_every = announce_k > 1 ? announce_k / 2 : 1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    char path[4096];
    snprintf(path, sizeof(path), "%s/root.%d", dir, rank);
    int pfd = open(path, O_RDONLY);
    struct stat sb;
    if (pfd < 0 || fstat(pfd, &sb) != 0 || sb.st_size < bytes) {
        fprintf(stderr, "pf_root: %s missing or shorter than %lld (run --create)\n", path, bytes);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    xt_cold_drop_fd(pfd);
    quiet_barrier();
    struct run r = { 0 };
    rng = (uint64_t) seed * 7919 + (uint64_t) rank;
    double t0 = now();
    MPI_File fh;
    MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    if (!strcmp(mode, "willneed"))
        posix_fadvise(pfd, 0, 0, POSIX_FADV_WILLNEED);
    root_reads(fh, bytes, compute_us, &r);
    MPI_File_close(&fh);
    r.seconds = now() - t0;
    close(pfd);
    quiet_barrier();
    double secs[4] = { r.seconds, r.read_seconds, r.compute_seconds, r.announce_seconds }, maxs[4];
    long long cnt[3] = { r.reads, r.bytes, r.errors }, sums[3];
    MPI_Reduce(secs, maxs, 4, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Allreduce(cnt, sums, 3, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) {
        snprintf(path, sizeof(path), "%s/root.0", dir);
        printf("RESULT phase=root readers=%d compute_us=%g seconds=%.4f read_seconds=%.4f "
               "compute_seconds=%.4f announce_seconds=%.4f reads=%lld bytes=%lld per_read_ms=%.4f "
               "file=%s\n", nprocs, compute_us, maxs[0], maxs[1], maxs[2], maxs[3], sums[0], sums[1],
               1e3 * maxs[1] / (sums[0] / nprocs), path);
    }
    MPI_Finalize();
    return sums[2] ? 1 : 0;
}

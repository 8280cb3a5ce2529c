/* romio-xt prefetch: every read returns the bytes a model of the file says.
 *
 *   t_prefetch FILE MODE [key=value ...]
 *
 * The hints (key=value) are given to MPI_File_open; run it with prefetch off
 * and on (each method): the reads and their order are the same, so the
 * DIGEST line (a hash of every byte read and every count) must be the same.
 * MODE:
 *   verify   rank 0 creates FILE (stock, no hints); then all ranks read it
 *            in a ROOT-like pattern (increasing offsets with gaps, backward
 *            seeks, jumps, reads across the end), through explicit offsets,
 *            the individual file pointer and iread; through a strided view
 *            (data sieving); collectively (two-phase); with atomic mode; and
 *            interleaved with their own writes (contiguous, iwrite,
 *            strided, collective, past the end of file, set_size) and after
 *            sync-barrier-sync with the other ranks' writes.  Each read is
 *            checked against the model.
 *   threads  the prefetch thread exists while the file is open and is gone
 *            after close: counts /proc/self/task.
 *   scan     rank 0 creates FILE; all read it front to back in 100 KiB pieces
 *            with a backward seek every 10 reads and 2 ms of "compute"
 *            after each piece (so the loader runs even on a loaded
 *            machine: a reader never waits for a queued block); prints
 *            EXPECT reads=N.
 *   wronly   opens FILE write-only: no prefetch layer (romio_xt_layers).
 *   announce rank 0 creates FILE; each rank announces its next reads by
 *            MPI_File_set_info(romio_prefetch_willneed) during the run and
 *            reads them and others (outside, overlapping, past the end,
 *            after a bad list); prints DIGEST.
 *   collscan rank 0 creates FILE; all read it with collective reads through
 *            an interleaved view (two-phase: the aggregators read); prints
 *            EXPECT reads=<calls per rank> got=BYTES. */
#include "../mpi/common.h"

#include <dirent.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

#define KB 1024LL
#define MB (1024LL * 1024)
#define FILE_SIZE (5 * MB + 123)
#define MODEL_CAP (8 * MB)

static unsigned char *model;    /* expected content of the file */
static long long fsize;         /* expected size */
static uint64_t digest = 1469598103934665603ULL;
static long long bytes_got;     /* by the contiguous reads */
static int rank, nprocs;
static MPI_Info hints;

static void mix(const void *p, size_t n)
{
    const unsigned char *c = p;
    for (size_t k = 0; k < n; k++)
        digest = (digest ^ c[k]) * 1099511628211ULL;
}

static uint64_t lcg_state;
static long long rnd(long long n)
{
    lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (long long) ((lcg_state >> 17) % (uint64_t) n);
}

/* rank 0 prints every rank's digest */
static void print_digest(void)
{
    uint64_t all[64] = { 0 };
    MPI_Gather(&digest, 1, MPI_UINT64_T, all, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("DIGEST");
        for (int r = 0; r < nprocs && r < 64; r++)
            printf(" %016llx", (unsigned long long) all[r]);
        printf("\n");
    }
}

static void model_fill(long long off, long long n, int seed)
{
    for (long long k = 0; k < n; k++)
        model[off + k] = t_pattern(off + k, seed);
    if (off + n > fsize) {
        memset(model + fsize, 0, off > fsize ? off - fsize : 0);
        fsize = off + n;
    }
}

/* a contiguous read of n bytes at off returned buf with count got */
static void check_bytes(const char *what, const unsigned char *buf, long long off, long long n,
                        int got)
{
    long long want = off >= fsize ? 0 : (off + n > fsize ? fsize - off : n);
    bytes_got += got;
    mix(&got, sizeof(got));
    mix(buf, got > 0 ? (size_t) got : 0);
    T_CHECK(got == want, "%s at %lld len %lld: count %d, expected %lld", what, off, n, got, want);
    for (long long k = 0; k < want && k < got; k++)
        if (buf[k] != model[off + k]) {
            T_CHECK(0, "%s at %lld len %lld: byte %lld is %d, expected %d", what, off, n,
                    off + k, buf[k], model[off + k]);
            break;
        }
}

static int count_of(MPI_Status *st)
{
    int n;
    MPI_Get_count(st, MPI_BYTE, &n);
    return n;
}

static MPI_File open_file(const char *path, int amode, MPI_Info info)
{
    MPI_File fh;
    T_MPI(MPI_File_open(MPI_COMM_WORLD, path, amode, info, &fh));
    return fh;
}

/* read [off, off + n) one of three ways (k picks) and check it */
static void read_contig(MPI_File fh, long long off, long long n, int k)
{
    unsigned char *buf = calloc(n + 1, 1);
    MPI_Status st;
    MPI_Request rq;
    if (k % 3 == 0) {
        T_MPI(MPI_File_seek(fh, off, MPI_SEEK_SET));
        T_MPI(MPI_File_read(fh, buf, (int) n, MPI_BYTE, &st));
        MPI_Offset pos;
        MPI_File_get_position(fh, &pos);
        T_CHECK(pos == off + count_of(&st), "file pointer %lld after reading %d at %lld",
                (long long) pos, count_of(&st), off);
    } else if (k % 3 == 1) {
        T_MPI(MPI_File_read_at(fh, off, buf, (int) n, MPI_BYTE, &st));
    } else {
        T_MPI(MPI_File_iread_at(fh, off, buf, (int) n, MPI_BYTE, &rq));
        T_MPI(MPI_Wait(&rq, &st));
    }
    check_bytes(k % 3 == 0 ? "read" : k % 3 == 1 ? "read_at" : "iread_at", buf, off, n,
                count_of(&st));
    free(buf);
}

/* ROOT-like: increasing offsets with gaps, backward seeks, jumps, the end */
static void root_like(MPI_File fh, int nreads)
{
    long long pos = rnd(fsize / 4);
    for (int i = 0; i < nreads; i++) {
        long long r = rnd(100), len = 1 + rnd(300 * KB);
        if (r < 10)
            pos = pos > 600 * KB ? pos - rnd(600 * KB) : 0;
        else if (r < 14)
            pos = rnd(fsize + 100 * KB);
        else if (r < 18)
            pos = fsize - rnd(200 * KB);         /* across the end */
        else
            pos += rnd(300 * KB);
        if (pos >= fsize + 200 * KB)
            pos = rnd(fsize);
        read_contig(fh, pos, len, i);
        pos += len;
    }
}

/* view of blocks of b bytes every stride bytes, starting at disp */
static void set_blocks_view(MPI_File fh, long long disp, int b, long long stride)
{
    MPI_Datatype contig, ft;
    MPI_Type_contiguous(b, MPI_BYTE, &contig);
    MPI_Type_create_resized(contig, 0, stride, &ft);
    MPI_Type_commit(&ft);
    T_MPI(MPI_File_set_view(fh, disp, MPI_BYTE, ft, "native", MPI_INFO_NULL));
    MPI_Type_free(&ft);
    MPI_Type_free(&contig);
}

static long long view_to_file(long long v, long long disp, int b, long long stride)
{
    return disp + (v / b) * stride + v % b;
}

/* check n bytes read through the blocks view from view offset v0 */
static void check_view(const char *what, const unsigned char *buf, long long v0, long long n,
                       long long disp, int b, long long stride, int got)
{
    mix(&got, sizeof(got));
    mix(buf, got > 0 ? (size_t) got : 0);
    T_CHECK(got == n, "%s: count %d, expected %lld", what, got, n);
    for (long long k = 0; k < n; k++) {
        long long off = view_to_file(v0 + k, disp, b, stride);
        if (buf[k] != model[off]) {
            T_CHECK(0, "%s: view byte %lld (file %lld) is %d, expected %d", what, v0 + k, off,
                    buf[k], model[off]);
            break;
        }
    }
}

static void strided_reads(MPI_File fh)
{
    const int b = 1000;
    const long long stride = 3000, disp = (rank % 3) * b;
    long long total = (fsize / stride - 2) * b, chunk = 7 * KB;
    unsigned char *buf = malloc(chunk);
    MPI_Status st;
    set_blocks_view(fh, disp, b, stride);
    for (long long v = 0; v < total; v += chunk) {
        long long n = v + chunk > total ? total - v : chunk;
        T_MPI(MPI_File_read(fh, buf, (int) n, MPI_BYTE, &st));
        check_view("strided read", buf, v, n, disp, b, stride, count_of(&st));
    }
    /* a backward jump through the view */
    T_MPI(MPI_File_read_at(fh, total / 3, buf, (int) chunk, MPI_BYTE, &st));
    check_view("strided read_at", buf, total / 3, chunk, disp, b, stride, count_of(&st));
    free(buf);
}

static void collective_reads(MPI_File fh)
{
    const int b = 4000;
    const long long stride = (long long) nprocs * b, disp = (long long) rank * b;
    long long total = (fsize / stride) * b, half = total / 2;
    unsigned char *buf = malloc(total);
    MPI_Status st;
    set_blocks_view(fh, disp, b, stride);
    T_MPI(MPI_File_read_at_all(fh, half, buf, (int) (total - half), MPI_BYTE, &st));
    check_view("read_at_all", buf, half, total - half, disp, b, stride, count_of(&st));
    T_MPI(MPI_File_read_at_all(fh, 0, buf, (int) half, MPI_BYTE, &st));
    check_view("read_at_all", buf, 0, half, disp, b, stride, count_of(&st));
    free(buf);
}

static void byte_view(MPI_File fh)
{
    T_MPI(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
}

static void write_at(MPI_File fh, long long off, long long n, int seed)
{
    unsigned char *buf = malloc(n);
    MPI_Status st;
    for (long long k = 0; k < n; k++)
        buf[k] = t_pattern(off + k, seed);
    T_MPI(MPI_File_write_at(fh, off, buf, (int) n, MPI_BYTE, &st));
    model_fill(off, n, seed);
    free(buf);
}

static long long own_base(int r)
{
    return r * MB + 3 * 4096 + 17;
}

/* the strided write of rank r: view geometry and first view offset */
static void strided_geometry(int r, int *b, long long *stride, long long *disp, long long *v0)
{
    *b = 1000;
    *stride = (long long) nprocs * *b;
    *disp = (long long) r * *b;
    *v0 = ((r * MB + 500 * KB) / *stride) * *b;
}

/* what rank r's own_writes and own_strided_write put in the file */
static void model_own_writes(int r)
{
    int b;
    long long stride, disp, v0;
    model_fill(own_base(r), 60000, 20 + r);
    model_fill(own_base(r) + 100000, 5000, 21 + r);
    model_fill(own_base(r) + 300000, 3000, 22 + r);
    strided_geometry(r, &b, &stride, &disp, &v0);
    for (long long k = 0; k < 20 * b; k++) {
        long long off = view_to_file(v0 + k, disp, b, stride);
        model[off] = t_pattern(off, 30 + r);
    }
}

/* each rank's own region: its writes there are read back without sync */
static void own_writes(MPI_File fh)
{
    long long base = own_base(rank);
    MPI_Status st;
    MPI_Request rq;
    read_contig(fh, base - 2000, 64000, 1);             /* cache the blocks */
    write_at(fh, base, 60000, 20 + rank);
    read_contig(fh, base - 2000, 64000, 1);
    read_contig(fh, base + 100, 500, 2);
    /* through the individual file pointer */
    unsigned char buf[5000];
    for (int k = 0; k < 5000; k++)
        buf[k] = t_pattern(base + 100000 + k, 21 + rank);
    read_contig(fh, base + 99000, 8000, 1);
    T_MPI(MPI_File_seek(fh, base + 100000, MPI_SEEK_SET));
    T_MPI(MPI_File_write(fh, buf, 5000, MPI_BYTE, &st));
    model_fill(base + 100000, 5000, 21 + rank);
    read_contig(fh, base + 99000, 8000, 0);
    /* nonblocking */
    for (int k = 0; k < 3000; k++)
        buf[k] = t_pattern(base + 300000 + k, 22 + rank);
    read_contig(fh, base + 299000, 5000, 2);
    T_MPI(MPI_File_iwrite_at(fh, base + 300000, buf, 3000, MPI_BYTE, &rq));
    T_MPI(MPI_Wait(&rq, &st));
    model_fill(base + 300000, 3000, 22 + rank);
    read_contig(fh, base + 299000, 5000, 1);
}

/* strided independent write (data sieving read-modify-write) in own region */
static void own_strided_write(MPI_File fh)
{
    int b;
    long long stride, disp, v0;
    strided_geometry(rank, &b, &stride, &disp, &v0);
    long long n = 20 * b;
    unsigned char *buf = malloc(n);
    MPI_Status st;
    read_contig(fh, view_to_file(v0, disp, b, stride) - 5000, 100 * KB, 1);
    for (long long k = 0; k < n; k++)
        buf[k] = t_pattern(view_to_file(v0 + k, disp, b, stride), 30 + rank);
    set_blocks_view(fh, disp, b, stride);
    T_MPI(MPI_File_write_at(fh, v0, buf, (int) n, MPI_BYTE, &st));
    for (long long k = 0; k < n; k++)
        model[view_to_file(v0 + k, disp, b, stride)] = buf[k];
    T_MPI(MPI_File_read_at(fh, v0, buf, (int) n, MPI_BYTE, &st));
    check_view("read after strided write", buf, v0, n, disp, b, stride, count_of(&st));
    byte_view(fh);
    read_contig(fh, view_to_file(v0, disp, b, stride) - 5000, 100 * KB, 1);
    free(buf);
}

/* collective write of interleaved pieces; each rank then reads its own */
static void collective_write(MPI_File fh)
{
    const int b = 4000;
    const long long area = 4 * MB, stride = (long long) nprocs * b;
    const long long disp = area + (long long) rank * b;
    long long n = 50 * b;
    unsigned char *buf = malloc(n);
    MPI_Status st;
    read_contig(fh, area, 50 * stride, 0);              /* cache the blocks */
    for (long long k = 0; k < n; k++)
        buf[k] = t_pattern(view_to_file(k, disp, b, stride), 40 + rank);
    set_blocks_view(fh, disp, b, stride);
    T_MPI(MPI_File_write_at_all(fh, 0, buf, (int) n, MPI_BYTE, &st));
    memset(buf, 0, n);
    T_MPI(MPI_File_read_at(fh, 0, buf, (int) n, MPI_BYTE, &st));
    for (int r = 0; r < nprocs; r++)
        for (long long k = 0; k < n; k++) {
            long long off = view_to_file(k, area + (long long) r * b, b, stride);
            model[off] = t_pattern(off, 40 + r);
        }
    check_view("read after write_all", buf, 0, n, disp, b, stride, count_of(&st));
    byte_view(fh);
    free(buf);
}

static void sync_barrier_sync(MPI_File fh)
{
    T_MPI(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    T_MPI(MPI_File_sync(fh));
}

static void read_everything(MPI_File fh)
{
    for (long long off = 0; off < fsize + MB; off += MB)
        read_contig(fh, off, MB, (int) (off / MB));
}

/* the file grows (rank 0 writes past the end), then shrinks (set_size) */
static void grow_and_shrink(MPI_File fh)
{
    long long old = fsize;
    read_contig(fh, old - 1000, 6000, 1);               /* a short block cached */
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        write_at(fh, old + 200000, 3000, 50);
        read_contig(fh, old - 1000, 210000, 1);
    } else {
        model_fill(old + 200000, 3000, 50);
    }
    sync_barrier_sync(fh);
    read_contig(fh, old - 1000, 210000, 2);
    long long small = old - 700000;
    T_MPI(MPI_File_set_size(fh, small));
    fsize = small;
    read_contig(fh, small - 5000, 20000, 0);
    read_contig(fh, small - 5000, 20000, 1);
}

static void atomic_reads(MPI_File fh)
{
    T_MPI(MPI_File_set_atomicity(fh, 1));
    read_contig(fh, 1000, 300 * KB, 1);
    T_MPI(MPI_File_set_atomicity(fh, 0));
    read_contig(fh, 1000, 300 * KB, 2);
}

static void create_file(const char *path)
{
    if (rank == 0) {
        MPI_File fh;
        MPI_Status st;
        MPI_File_delete(path, MPI_INFO_NULL);
        T_MPI(MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_CREATE | MPI_MODE_WRONLY,
                            MPI_INFO_NULL, &fh));
        T_MPI(MPI_File_write_at(fh, 0, model, (int) fsize, MPI_BYTE, &st));
        T_MPI(MPI_File_close(&fh));
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

static void verify(const char *path)
{
    fsize = 0;
    model_fill(0, FILE_SIZE, 1);
    create_file(path);
    MPI_File fh = open_file(path, MPI_MODE_RDWR, hints);
    lcg_state = 12345 + rank;
    root_like(fh, 150);
    strided_reads(fh);
    collective_reads(fh);
    byte_view(fh);
    atomic_reads(fh);
    root_like(fh, 50);
    MPI_Barrier(MPI_COMM_WORLD);        /* from here on each rank writes its own region */
    own_writes(fh);
    own_strided_write(fh);
    MPI_Barrier(MPI_COMM_WORLD);
    for (int r = 0; r < nprocs; r++)    /* visible to all after sync-barrier-sync */
        if (r != rank)
            model_own_writes(r);
    collective_write(fh);
    sync_barrier_sync(fh);
    read_everything(fh);
    grow_and_shrink(fh);
    T_MPI(MPI_File_close(&fh));
    print_digest();
}

static int threads_now(void)
{
    int n = 0;
    DIR *d = opendir("/proc/self/task");
    struct dirent *e;
    while (d && (e = readdir(d)))
        n += e->d_name[0] != '.';
    if (d)
        closedir(d);
    return n;
}

static void threads(const char *path, int expect_extra)
{
    fsize = 0;
    model_fill(0, FILE_SIZE, 1);
    create_file(path);
    int before = threads_now();
    MPI_File fh = open_file(path, MPI_MODE_RDONLY, hints);
    read_contig(fh, 0, 1000, 1);
    int during = threads_now();
    T_MPI(MPI_File_close(&fh));
    /* a joined thread leaves /proc/self/task a moment after pthread_join
     * returns (the kernel reaps it after waking the joiner): up to 1 s */
    int after = threads_now();
    for (int k = 0; k < 100 && after > before; k++) {
        usleep(10000);
        after = threads_now();
    }
    T_CHECK(during == before + expect_extra, "threads: %d before open, %d while open "
            "(expected %d more)", before, during, expect_extra);
    T_CHECK(after == before, "threads: %d before open, %d after close", before, after);
    printf("threads rank %d: before %d during %d after %d\n", rank, before, during, after);
}

/* 2 ms of "compute" between reads: the loaders get to run even on a loaded
 * machine (a reader never waits for a queued block), so hits are counted */
static void compute(void)
{
    nanosleep(&(struct timespec) { 0, 2000000 }, NULL);
}

static void scan(const char *path)
{
    fsize = 0;
    model_fill(0, FILE_SIZE, 1);
    create_file(path);
    MPI_File fh = open_file(path, MPI_MODE_RDONLY, hints);
    int reads = 0;
    for (long long off = 0, k = 0; off < fsize; off += 100 * KB, k++) {
        if (k % 10 == 9) {
            read_contig(fh, off - 250 * KB, 100 * KB, 1);
            reads++;
        }
        read_contig(fh, off, 100 * KB, 1);
        reads++;
        compute();
    }
    T_MPI(MPI_File_close(&fh));
    int total;
    long long got;
    MPI_Reduce(&reads, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Reduce(&bytes_got, &got, 1, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("EXPECT reads=%d got=%lld\n", total, got);
}

static void set_willneed(MPI_File fh, const char *text)
{
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "romio_prefetch_willneed", text);
    T_MPI(MPI_File_set_info(fh, info));
    MPI_Info_free(&info);
    compute();
}

/* announced ranges (MPI_File_set_info during the run, as ROOT's TTreeCache
 * per cluster): each rank announces its own next reads (per process:
 * ranks differ), then reads them, plus reads partly or wholly outside,
 * across extents, past the end of the file, after overlapping, replaced and
 * bad lists, and back to the window of blocks; every read checked */
static void announce(const char *path)
{
    char text[256];
    const long long base = rank * 700 * KB;
    fsize = 0;
    model_fill(0, FILE_SIZE, 1);
    create_file(path);
    MPI_File fh = open_file(path, MPI_MODE_RDONLY, hints);
    for (int round = 0; round < 3; round++) {
        long long at = base + round * 1200 * KB;
        /* four reads with gaps (two close enough to share a fetch), one
         * overlapping the one before, one announced twice */
        snprintf(text, sizeof(text), "%lld:100k,%lld:50k,%lld:300k,%lld:100k,%lld:200k,%lld:200k",
                 at, at + 110 * KB, at + 400 * KB, at + 650 * KB, at + 900 * KB, at + 900 * KB);
        set_willneed(fh, text);
        read_contig(fh, at, 100 * KB, round);
        read_contig(fh, at + 110 * KB, 50 * KB, round + 1);
        read_contig(fh, at + 400 * KB, 300 * KB, round + 2);    /* into the next range */
        read_contig(fh, at + 650 * KB + 10, 1000, round);       /* inside one, done before */
        read_contig(fh, at + 800 * KB, 200 * KB, round + 1);    /* partly before a range */
        read_contig(fh, at + 1100 * KB, 50 * KB, round + 2);    /* outside every range */
        read_contig(fh, at + 20 * KB, 10 * KB, round);          /* a range already passed */
    }
    /* a replaced list: ranges still ahead are dropped, the new ones read */
    set_willneed(fh, "1m:100k,2m:100k,3m:100k");
    read_contig(fh, 1 * MB, 100 * KB, 0);
    set_willneed(fh, "4m:100k,3m:100k");
    read_contig(fh, 4 * MB, 100 * KB, 1);
    read_contig(fh, 3 * MB, 100 * KB, 2);
    read_contig(fh, 2 * MB, 100 * KB, 0);
    /* '+' lists append, each set_info counts even with no read between */
    set_willneed(fh, "1m:50k");
    set_willneed(fh, "+2m:50k,3m:50k");
    set_willneed(fh, "+4m:50k");
    for (int k = 1; k <= 4; k++)
        read_contig(fh, k * MB, 50 * KB, k);
    /* past the end of the file: a short read, then nothing */
    snprintf(text, sizeof(text), "%lld:64k,%lld:64k,%lld:8m", fsize - 1000, fsize + 4096,
             fsize - 5 * MB);
    set_willneed(fh, text);
    read_contig(fh, fsize - 1000, 64 * KB, 1);
    read_contig(fh, fsize + 4096, 64 * KB, 2);
    read_contig(fh, fsize - 5 * MB, 5 * MB, 0);                 /* across 2 extents and EOF */
    /* a bad list: one warning, the ranges before kept */
    set_willneed(fh, "10k:1k,oops");
    read_contig(fh, fsize - 3 * MB, 300 * KB, 1);
    /* length 0: back to the window of blocks */
    set_willneed(fh, "0:0");
    read_contig(fh, 100 * KB, 300 * KB, 2);
    read_contig(fh, 900 * KB, 300 * KB, 0);
    T_MPI(MPI_File_close(&fh));
    print_digest();
}

/* collective reads only: the aggregators' reads are what the layer sees */
static void collscan(const char *path)
{
    const int b = 64 * KB;
    const long long stride = (long long) nprocs * b;
    fsize = 0;
    model_fill(0, FILE_SIZE, 1);
    create_file(path);
    MPI_File fh = open_file(path, MPI_MODE_RDONLY, hints);
    set_blocks_view(fh, (long long) rank * b, b, stride);
    long long per_rank = (fsize / stride) * b, chunk = 4 * b, got = 0;
    unsigned char *buf = malloc(chunk);
    MPI_Status st;
    int calls = 0;
    for (long long v = 0; v < per_rank; v += chunk, calls++) {
        long long n = v + chunk > per_rank ? per_rank - v : chunk;
        T_MPI(MPI_File_read_at_all(fh, v, buf, (int) n, MPI_BYTE, &st));
        check_view("read_at_all", buf, v, n, (long long) rank * b, b, stride, count_of(&st));
        got += count_of(&st);
        compute();
    }
    T_MPI(MPI_File_close(&fh));
    free(buf);
    long long total;
    MPI_Reduce(&got, &total, 1, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("EXPECT reads=%d got=%lld\n", calls, total);
}

static void wronly(const char *path)
{
    char layers[256];
    MPI_File fh = open_file(path, MPI_MODE_CREATE | MPI_MODE_WRONLY, hints);
    t_info_value(fh, "romio_xt_layers", layers, sizeof(layers));
    T_CHECK(strstr(layers, "prefetch") == NULL, "write-only file has layers '%s'", layers);
    write_at(fh, rank * 1000, 1000, 3);
    T_MPI(MPI_File_close(&fh));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    if (argc < 3) {
        fprintf(stderr, "usage: t_prefetch FILE verify|threads|scan [key=value ...]\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    model = calloc(MODEL_CAP, 1);
    MPI_Info_create(&hints);
    int prefetch = 0;
    for (int a = 3; a < argc; a++) {
        char *eq = strchr(argv[a], '=');
        if (!eq)
            continue;
        *eq = '\0';
        MPI_Info_set(hints, argv[a], eq + 1);
        prefetch |= strcmp(argv[a], "romio_prefetch") == 0 && strcmp(eq + 1, "enable") == 0;
    }
    if (strcmp(argv[2], "verify") == 0)
        verify(argv[1]);
    else if (strcmp(argv[2], "wronly") == 0)
        wronly(argv[1]);
    else if (strcmp(argv[2], "announce") == 0)
        announce(argv[1]);
    else if (strcmp(argv[2], "collscan") == 0)
        collscan(argv[1]);
    else if (strcmp(argv[2], "threads") == 0)
        threads(argv[1], prefetch);
    else
        scan(argv[1]);
    MPI_Info_free(&hints);
    free(model);
    return t_finish("t_prefetch");
}

/* NVM write-behind (e10_cache) integration test program.  Hints come from
 * ROMIO_HINTS (the test script writes one file per mode).
 *
 *   t_nvc_io FILE PATTERN [options]
 * PATTERN:
 *   collperf  coll_perf's 3D block-block-block darray of ints, one write_all
 *   ior       IOR-like segments: each rank one block per segment, write_at_all
 *   indep     independent writes: contiguous write_at (one overwritten), an
 *             iwrite_at, and a strided write through a vector view (data
 *             sieving read-modify-write)
 * options:
 *   --before=none|all  before MPI_File_sync, rank 0 checks with POSIX reads
 *                      that the global file is empty (none) or, polling up to
 *                      60 s, complete (all)
 *   --readback         before sync, every rank reads back what it wrote
 *   --sync-error       MPI_File_sync must fail (an injected sync error)
 *   --crash=R          rank R kills itself (SIGKILL) after its write returned
 *   --locked           rank 1 checks with fcntl that rank 0's cached range is
 *                      write-locked until rank 0's MPI_File_sync (coherent)
 *   --verify           only verify FILE (rank 0)
 *   --compute=S        S seconds of "compute" (a sleep) between the writes and
 *                      MPI_File_sync
 *   --twice            then the same again into FILE.2 in the same job
 * Rank 0 prints "GATE <file>: <e10_cache_gate>" from MPI_File_get_info
 * before each close.
 * Every byte of the final file is t_pattern(offset, 5); rank 0 checks it after
 * sync and after close. */
#include "../mpi/common.h"
#include "../mpi/darray.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

enum { N = 64, SEG = 4, BLOCK = 96 * 1024, STRIDE_BLK = 1000, NSTRIDE = 40 };

static int rank, nprocs;

static long long pattern_size(const char *pat)
{
    if (!strcmp(pat, "collperf"))
        return 4LL * N * N * N;
    if (!strcmp(pat, "ior"))
        return (long long) SEG * nprocs * BLOCK;
    return (long long) nprocs * 3 * BLOCK + 2LL * nprocs * STRIDE_BLK * NSTRIDE;
}

static void fill(unsigned char *b, long long off, long long len, int seed)
{
    for (long long k = 0; k < len; k++)
        b[k] = t_pattern(off + k, seed);
}

/* --- the three write patterns; each returns the ranges this rank wrote ---- */
/* writes the darray (check: reads it back with read_all and compares) */
static void write_collperf(MPI_File fh, int check)
{
    struct xt_darray d;
    xt_darray_make(N, nprocs, rank, &d);
    MPI_Datatype darray = d.type;
    long long n = d.count;
    unsigned char *buf = malloc(4 * n), *p = buf;
    for (int i = 0; i < d.ls[0]; i++)
        for (int j = 0; j < d.ls[1]; j++)
            for (int k = 0; k < d.ls[2]; k++, p += 4)
                fill(p, 4 * (xt_darray_row(&d, N, i, j) + k), 4, 5);
    T_MPI(MPI_File_set_view(fh, 0, MPI_INT, darray, "native", MPI_INFO_NULL));
    if (check) {
        unsigned char *in = malloc(4 * n);
        T_MPI(MPI_File_read_all(fh, in, (int) n, MPI_INT, MPI_STATUS_IGNORE));
        T_CHECK(memcmp(in, buf, 4 * n) == 0, "read_all before sync: stale data");
        free(in);
    } else {
        T_MPI(MPI_File_write_all(fh, buf, (int) n, MPI_INT, MPI_STATUS_IGNORE));
    }
    T_MPI(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
    MPI_Type_free(&darray);
    free(buf);
}

static long long ior_off(int seg)
{
    return ((long long) seg * nprocs + rank) * BLOCK;
}

static void write_ior(MPI_File fh)
{
    unsigned char *buf = malloc(BLOCK);
    for (int s = 0; s < SEG; s++) {
        fill(buf, ior_off(s), BLOCK, 5);
        T_MPI(MPI_File_write_at_all(fh, ior_off(s), buf, BLOCK, MPI_BYTE, MPI_STATUS_IGNORE));
    }
    free(buf);
}

static void write_indep(MPI_File fh)
{
    unsigned char *buf = malloc(BLOCK);
    long long base = (long long) rank * 3 * BLOCK;
    MPI_Request req;
    /* block 0 written twice: first with other bytes, then the final ones */
    fill(buf, base, BLOCK, 9);
    T_MPI(MPI_File_write_at(fh, base, buf, BLOCK, MPI_BYTE, MPI_STATUS_IGNORE));
    fill(buf, base + BLOCK, BLOCK, 5);
    T_MPI(MPI_File_write_at(fh, base + BLOCK, buf, BLOCK, MPI_BYTE, MPI_STATUS_IGNORE));
    fill(buf, base, BLOCK, 5);
    T_MPI(MPI_File_write_at(fh, base, buf, BLOCK, MPI_BYTE, MPI_STATUS_IGNORE));
    fill(buf, base + 2 * BLOCK, BLOCK, 5);
    T_MPI(MPI_File_iwrite_at(fh, base + 2 * BLOCK, buf, BLOCK, MPI_BYTE, &req));
    T_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    /* strided: rank r owns block r of every group of nprocs blocks; the holes
     * are written by the other ranks (or, for rank 0, first pre-filled here
     * so data sieving reads back cached data) */
    long long sbase = (long long) nprocs * 3 * BLOCK;
    MPI_Datatype vec, ftype;
    MPI_Type_vector(NSTRIDE, STRIDE_BLK, 2 * nprocs * STRIDE_BLK, MPI_BYTE, &vec);
    MPI_Type_create_resized(vec, 0, 2LL * nprocs * STRIDE_BLK * NSTRIDE, &ftype);
    MPI_Type_commit(&ftype);
    unsigned char *sb = malloc(NSTRIDE * STRIDE_BLK);
    for (int pass = 0; pass < 2; pass++) {
        long long disp = sbase + (long long) (2 * rank + pass) * STRIDE_BLK;
        for (int k = 0; k < NSTRIDE; k++)
            fill(sb + k * STRIDE_BLK, disp + (long long) k * 2 * nprocs * STRIDE_BLK,
                 STRIDE_BLK, 5);
        T_MPI(MPI_File_set_view(fh, disp, MPI_BYTE, ftype, "native", MPI_INFO_NULL));
        T_MPI(MPI_File_write_at(fh, 0, sb, NSTRIDE * STRIDE_BLK, MPI_BYTE, MPI_STATUS_IGNORE));
    }
    T_MPI(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
    MPI_Type_free(&ftype);
    MPI_Type_free(&vec);
    free(sb);
    free(buf);
}

/* rank 0: does the file hold the final pattern?  want_size 0: must be empty */
static int global_ok(const char *path, long long size)
{
    int fd = open(path, O_RDONLY);
    struct stat sb;
    if (fd < 0 || fstat(fd, &sb) != 0)
        return 0;
    int ok = sb.st_size == size;
    unsigned char *b = malloc(size ? size : 1);
    if (ok && size)
        ok = pread(fd, b, size, 0) == size;
    for (long long k = 0; ok && k < size; k++)
        if (b[k] != t_pattern(k, 5)) {
            fprintf(stderr, "byte %lld: %d, want %d\n", k, b[k], t_pattern(k, 5));
            ok = 0;
        }
    free(b);
    close(fd);
    return ok;
}

static void check_before_sync(const char *path, const char *before, long long size)
{
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0 && !strcmp(before, "none")) {
        struct stat sb;
        T_CHECK(stat(path, &sb) == 0 && sb.st_size == 0,
                "flush_onclose: the global file has %lld bytes before sync",
                (long long) sb.st_size);
    }
    if (rank == 0 && !strcmp(before, "all")) {
        int ok = 0;
        for (int t = 0; t < 600 && !(ok = global_ok(path, size)); t++)
            usleep(100000);
        T_CHECK(ok, "flush_immediate: the data did not reach the global file before sync");
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

/* before sync, every rank reads back what it wrote: collperf with read_all
 * through its darray view, ior with read_at_all, indep with read_at */
static void readback(MPI_File fh, const char *pat)
{
    if (!strcmp(pat, "collperf")) {
        write_collperf(fh, 1);
        return;
    }
    unsigned char *b = malloc(3 * BLOCK);
    long long lo = !strcmp(pat, "ior") ? ior_off(SEG - 1) : (long long) rank * 3 * BLOCK;
    int len = !strcmp(pat, "ior") ? BLOCK : 3 * BLOCK;
    if (!strcmp(pat, "ior"))
        T_MPI(MPI_File_read_at_all(fh, lo, b, len, MPI_BYTE, MPI_STATUS_IGNORE));
    else
        T_MPI(MPI_File_read_at(fh, lo, b, len, MPI_BYTE, MPI_STATUS_IGNORE));
    long long bad = -1;
    for (long long k = lo; k < lo + len && bad < 0; k++)
        if (b[k - lo] != t_pattern(k, 5))
            bad = k;
    T_CHECK(bad < 0, "read back before sync: byte %lld is stale", bad);
    free(b);
}

/* coherent: rank 0 wrote [0, BLOCK) (cached, flush_onclose); rank 1 must
 * not get a write lock on it until rank 0 synced */
static void check_locked(const char *path, MPI_File fh)
{
    MPI_Barrier(MPI_COMM_WORLD);
    struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = BLOCK };
    int fd = rank == 1 ? open(path, O_RDWR) : -1;
    if (rank == 1) {
        int rc = fcntl(fd, F_SETLK, &fl);
        T_CHECK(rc != 0 && (errno == EAGAIN || errno == EACCES),
                "coherent: the cached range is not locked (rc %d)", rc);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        T_MPI(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1) {
        T_CHECK(fcntl(fd, F_SETLK, &fl) == 0, "coherent: still locked after sync: %s",
                strerror(errno));
        fl.l_type = F_UNLCK;
        fcntl(fd, F_SETLK, &fl);
        close(fd);
    }
}

/* rank 0: the e10_cache gate's latest answer, as MPI_File_get_info shows it */
static void print_gate(MPI_File fh, const char *path)
{
    MPI_Info info;
    char val[256] = "";
    int found = 0;
    MPI_File_get_info(fh, &info);
    MPI_Info_get(info, "e10_cache_gate", sizeof(val) - 1, val, &found);
    MPI_Info_free(&info);
    if (rank == 0)
        printf("GATE %s: %s\n", path, found ? val : "(none)");
}

/* the pattern into path again in the same job: open, write, compute, sync,
 * close, check */
static void write_again(const char *path, const char *pat, long long size, double compute)
{
    MPI_File fh;
    if (rank == 0)
        unlink(path);
    MPI_Barrier(MPI_COMM_WORLD);
    T_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL,
                        &fh));
    if (!strcmp(pat, "collperf"))
        write_collperf(fh, 0);
    else
        write_ior(fh);
    if (compute > 0)
        usleep((useconds_t) (compute * 1e6));
    T_CHECK(MPI_File_sync(fh) == MPI_SUCCESS, "MPI_File_sync failed");
    print_gate(fh, path);
    T_MPI(MPI_File_close(&fh));
    if (rank == 0)
        T_CHECK(global_ok(path, size), "after close: %s wrong", path);
}

int main(int argc, char **argv)
{
    MPI_File fh;
    const char *before = "", *path = argv[1], *pat = argc > 2 ? argv[2] : "";
    int rb = 0, sync_error = 0, crash = -1, locked = 0, verify = 0, twice = 0;
    double compute = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    for (int a = 3; a < argc; a++) {
        if (!strncmp(argv[a], "--before=", 9))
            before = argv[a] + 9;
        rb |= !strcmp(argv[a], "--readback");
        sync_error |= !strcmp(argv[a], "--sync-error");
        locked |= !strcmp(argv[a], "--locked");
        verify |= !strcmp(argv[a], "--verify");
        if (!strncmp(argv[a], "--crash=", 8))
            crash = atoi(argv[a] + 8);
        if (!strncmp(argv[a], "--compute=", 10))
            compute = atof(argv[a] + 10);
        twice |= !strcmp(argv[a], "--twice");
    }
    long long size = pattern_size(pat);
    if (verify) {
        if (rank == 0)
            T_CHECK(global_ok(path, size), "%s does not hold the expected bytes", path);
        return t_finish("t_nvc_io verify");
    }
    if (rank == 0)
        unlink(path);
    MPI_Barrier(MPI_COMM_WORLD);
    T_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL,
                        &fh));
    if (locked) {
        unsigned char *b = malloc(BLOCK);
        fill(b, 0, BLOCK, 5);
        if (rank == 0)
            T_MPI(MPI_File_write_at(fh, 0, b, BLOCK, MPI_BYTE, MPI_STATUS_IGNORE));
        free(b);
        check_locked(path, fh);
        T_MPI(MPI_File_close(&fh));
        return t_finish("t_nvc_io locked");
    }
    if (!strcmp(pat, "collperf"))
        write_collperf(fh, 0);
    else if (!strcmp(pat, "ior"))
        write_ior(fh);
    else
        write_indep(fh);
    /* every rank's write returned (ior's write_at_all runs independent
     * writes, with no collective after them), then rank R dies */
    if (crash >= 0)
        MPI_Barrier(MPI_COMM_WORLD);
    if (rank == crash)
        raise(SIGKILL);
    if (crash >= 0)
        MPI_Barrier(MPI_COMM_WORLD);    /* the others wait here to be killed */
    if (before[0])
        check_before_sync(path, before, size);
    if (rb)
        readback(fh, pat);
    if (compute > 0)
        usleep((useconds_t) (compute * 1e6));
    int rc = MPI_File_sync(fh);
    if (sync_error) {
        T_CHECK(rc != MPI_SUCCESS, "MPI_File_sync succeeded despite a failed sync thread");
    } else {
        T_CHECK(rc == MPI_SUCCESS, "MPI_File_sync failed");
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0 && !sync_error)
        T_CHECK(global_ok(path, size), "after MPI_File_sync: global file incomplete");
    MPI_Barrier(MPI_COMM_WORLD);
    print_gate(fh, path);
    if (sync_error)     /* the data is not in the file: close says so on every rank */
        T_CHECK(MPI_File_close(&fh) != MPI_SUCCESS, "close succeeded after a failed sync");
    else
        T_MPI(MPI_File_close(&fh));
    if (rank == 0 && !sync_error)
        T_CHECK(global_ok(path, size), "after close: global file wrong");
    if (twice) {
        char p2[4200];
        snprintf(p2, sizeof(p2), "%s.2", path);
        write_again(p2, pat, size, compute);
    }
    return t_finish("t_nvc_io");
}

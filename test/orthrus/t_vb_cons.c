/* view_based write-behind and MPI's consistency rules, byte by byte:
 *   - collective reads see collective writes (same handle);
 *   - independent reads see the rank's own earlier collective writes, with
 *     a contiguous view (ReadContig) and an interleaved one (ReadStrided,
 *     blocking and nonblocking);
 *   - an independent write over the rank's own collective data wins: its own
 *     reads, collective reads and the file see it (also when a background
 *     flush of the older bytes comes after it);
 *   - after sync-barrier-sync a second handle on every process (opened on
 *     MPI_COMM_SELF, stock) reads every byte;
 *   - MPI_File_get_size counts unsettled writes;
 *   - atomic mode writes through: a barrier alone makes the data visible.
 * Usage: t_vb_cons FILE            (all of the above, then close)
 *        t_vb_cons FILE noclose    (sync, more writes, exit without close)
 *        t_vb_cons FILE after      (after noclose: the synced part is there)
 *        t_vb_cons FILE errors-behind|errors-through  (flushes fail, test
 *            hook: every rank gets the error, at sync and close with
 *            write-behind, else at the write) */
#include "t_vb.h"

#include <unistd.h>

static int rank, nprocs;

enum { BL = 40, NB = 6, N = NB * BL, CALLS = 5 };
/* the call whose block an independent write covers in part: the last, the
 * one still dirty when a background flush runs late (test hook) */
enum { OVER = CALLS - 1 };

/* the byte a rank writes at stream position i of call k */
static void fill(char *b, int n, int k, int salt)
{
    for (int i = 0; i < n; i++)
        b[i] = (char) t_pattern(i + 7 * k, rank * 131 + salt);
}

static void check(const char *what, int k, const char *got, const char *want, int n)
{
    int bad = -1;
    for (int i = 0; i < n && bad < 0; i++)
        if (got[i] != want[i])
            bad = i;
    T_CHECK(bad < 0, "%s (call %d): differs at byte %d", what, k, bad);
}

/* part 1: the default (contiguous) view, one block of N bytes per rank per
 * call, the ranks in reverse order (so their ranges interleave in ROMIO's
 * sense and view_based moves the data: in rank order each process would
 * write its own part itself, as stock two-phase does) */
static MPI_Offset at(int k, int r)
{
    return ((MPI_Offset) k * nprocs + (nprocs - 1 - r)) * N;
}

static void contiguous(MPI_File fh)
{
    char buf[N], want[N];
    for (int k = 0; k < CALLS; k++) {
        fill(buf, N, k, 1);
        T_MPI(MPI_File_write_at_all(fh, at(k, rank), buf, N,
                                    MPI_BYTE, MPI_STATUS_IGNORE));
    }
    MPI_Offset size;
    T_MPI(MPI_File_get_size(fh, &size));
    /* at least to the end of this process's own last write */
    T_CHECK(size >= at(CALLS - 1, rank) + N,
            "size %lld before any sync", (long long) size);
    for (int k = 0; k < CALLS; k++) {   /* independent, own data */
        fill(want, N, k, 1);
        memset(buf, 0, N);
        T_MPI(MPI_File_read_at(fh, at(k, rank), buf, N, MPI_BYTE,
                               MPI_STATUS_IGNORE));
        check("independent read of own collective write", k, buf, want, N);
    }
    /* an independent write over half of call OVER's block */
    fill(buf, N / 2, OVER, 50);
    T_MPI(MPI_File_write_at(fh, at(OVER, rank) + N / 4, buf, N / 2,
                            MPI_BYTE, MPI_STATUS_IGNORE));
    fill(want, N, OVER, 1);
    fill(want + N / 4, N / 2, OVER, 50);
    T_MPI(MPI_File_read_at(fh, at(OVER, rank), buf, N, MPI_BYTE,
                           MPI_STATUS_IGNORE));
    check("independent read after independent write", OVER, buf, want, N);
    memset(buf, 0, N);
    T_MPI(MPI_File_read_at_all(fh, at(OVER, rank), buf, N, MPI_BYTE,
                               MPI_STATUS_IGNORE));
    check("collective read after independent write", OVER, buf, want, N);
}

/* part 2: an interleaved view after the contiguous part */
static void strided(MPI_File fh, MPI_Offset base)
{
    char buf[N], want[N];
    MPI_Datatype ft = t_vb_interleaved(rank, nprocs, BL, NB);
    T_MPI(MPI_File_set_view(fh, base, MPI_BYTE, ft, "native", MPI_INFO_NULL));
    for (int k = 0; k < CALLS; k++) {
        fill(buf, N, k, 2);
        T_MPI(MPI_File_write_at_all(fh, (MPI_Offset) k * N, buf, N, MPI_BYTE,
                                    MPI_STATUS_IGNORE));
    }
    for (int k = 0; k < CALLS; k++) {
        fill(want, N, k, 2);
        memset(buf, 0, N);
        T_MPI(MPI_File_read_at_all(fh, (MPI_Offset) k * N, buf, N, MPI_BYTE,
                                   MPI_STATUS_IGNORE));
        check("collective read after collective write", k, buf, want, N);
        memset(buf, 0, N);
        T_MPI(MPI_File_read_at(fh, (MPI_Offset) k * N, buf, N, MPI_BYTE, MPI_STATUS_IGNORE));
        check("independent strided read of own collective write", k, buf, want, N);
        MPI_Request req;
        memset(buf, 0, N);
        T_MPI(MPI_File_iread_at(fh, (MPI_Offset) k * N, buf, N, MPI_BYTE, &req));
        T_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
        check("nonblocking read of own collective write", k, buf, want, N);
    }
    /* an independent strided write over call 3, then reads of it */
    fill(buf, N, 3, 60);
    T_MPI(MPI_File_write_at(fh, (MPI_Offset) 3 * N, buf, N, MPI_BYTE, MPI_STATUS_IGNORE));
    fill(want, N, 3, 60);
    T_MPI(MPI_File_read_at(fh, (MPI_Offset) 3 * N, buf, N, MPI_BYTE, MPI_STATUS_IGNORE));
    check("independent read after independent strided write", 3, buf, want, N);
    T_MPI(MPI_File_read_at_all(fh, (MPI_Offset) 3 * N, buf, N, MPI_BYTE, MPI_STATUS_IGNORE));
    check("collective read after independent strided write", 3, buf, want, N);
    T_MPI(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
    MPI_Type_free(&ft);
}

/* the whole file as every rank wrote it */
static void expected(char *f, MPI_Offset base, int np)
{
    char b[N];
    int me = rank;
    for (rank = 0; rank < np; rank++) {
        for (int k = 0; k < CALLS; k++) {
            char *c = f + at(k, rank);
            fill(c, N, k, 1);
            if (k == OVER)
                fill(c + N / 4, N / 2, OVER, 50);
            fill(b, N, k, 2);
            if (k == 3)
                fill(b, N, 3, 60);
            for (int j = 0; j < NB; j++)
                memcpy(f + base + (MPI_Offset) k * N * np + ((MPI_Offset) j * np + rank) * BL,
                       b + j * BL, BL);
        }
    }
    rank = me;
}

/* every byte through a second, stock handle of this process */
static void other_handle(const char *path, const char *f, MPI_Offset total, const char *what)
{
    MPI_File fh2;
    char *got = calloc(total, 1);
    T_MPI(MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh2));
    T_MPI(MPI_File_read_at(fh2, 0, got, (int) total, MPI_BYTE, MPI_STATUS_IGNORE));
    T_MPI(MPI_File_close(&fh2));
    check(what, -1, got, f, (int) total);
    free(got);
}

/* atomic mode: a collective write is in the file when it returns */
static void atomic(MPI_File fh, const char *path, MPI_Offset where)
{
    char buf[N], want[N];
    T_MPI(MPI_File_set_atomicity(fh, 1));
    fill(buf, N, 9, 3);
    T_MPI(MPI_File_write_at_all(fh, where + (MPI_Offset) rank * N, buf, N, MPI_BYTE,
                                MPI_STATUS_IGNORE));
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File fh2;
    int peer = (rank + 1) % nprocs, me = rank;
    T_MPI(MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh2));
    T_MPI(MPI_File_read_at(fh2, where + (MPI_Offset) peer * N, buf, N, MPI_BYTE,
                           MPI_STATUS_IGNORE));
    T_MPI(MPI_File_close(&fh2));
    rank = peer;
    fill(want, N, 9, 3);
    rank = me;
    check("atomic mode: another process's write after a barrier", 9, buf, want, N);
    T_MPI(MPI_File_set_atomicity(fh, 0));
}

static int all_failed(int e)
{
    int bad = e != MPI_SUCCESS, all = 0;
    MPI_Allreduce(&bad, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    return all;
}

/* every rank learns of a failed flush: with write-behind at sync and at
 * close, else at the write itself */
static void errors(MPI_File fh, int behind)
{
    char buf[N];
    fill(buf, N, 0, 1);
    int e = MPI_File_write_at_all(fh, at(0, rank), buf, N, MPI_BYTE,
                                  MPI_STATUS_IGNORE);
    T_CHECK(behind ? e == MPI_SUCCESS : all_failed(e), "the write's error: %d", e);
    e = MPI_File_sync(fh);
    T_CHECK(behind ? all_failed(e) : e == MPI_SUCCESS, "sync's error: %d", e);
    MPI_File_write_at_all(fh, at(0, rank), buf, N, MPI_BYTE, MPI_STATUS_IGNORE);
    e = MPI_File_close(&fh);
    T_CHECK(behind ? all_failed(e) : e == MPI_SUCCESS, "close's error: %d", e);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    if (argc < 2) {
        fprintf(stderr, "usage: t_vb_cons FILE [noclose|after|errors-behind|errors-through]\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    const char *mode = argc > 2 ? argv[2] : "all", *path = argv[1];
    MPI_Offset base = (MPI_Offset) CALLS * nprocs * N, total = 2 * base;
    char *f = calloc(total + (MPI_Offset) nprocs * N, 1);
    MPI_File fh;
    expected(f, base, nprocs);
    if (!strcmp(mode, "after")) {       /* the contiguous part was synced */
        other_handle(path, f, base, "synced data after a job without close");
        free(f);
        return t_finish("t_vb_cons after");
    }
    if (!strcmp(mode, "all") || !strcmp(mode, "noclose"))
        MPI_File_delete(path, MPI_INFO_NULL);
    MPI_Barrier(MPI_COMM_WORLD);
    T_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL,
                        &fh));
    MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN);
    if (!strncmp(mode, "errors", 6)) {
        errors(fh, !strcmp(mode, "errors-behind"));
        free(f);
        return t_finish("t_vb_cons errors");
    }
    contiguous(fh);
    if (!strcmp(mode, "noclose")) {
        T_MPI(MPI_File_sync(fh));
        MPI_Barrier(MPI_COMM_WORLD);
        T_MPI(MPI_File_sync(fh));
        strided(fh, base);      /* not synced: may be lost */
        fflush(stdout);
        MPI_Barrier(MPI_COMM_WORLD);
        _exit(t_errors ? 1 : 0);
    }
    strided(fh, base);
    char again[N];              /* call 0 once more, the same bytes: sync writes it */
    fill(again, N, 0, 1);
    T_MPI(MPI_File_write_at_all(fh, at(0, rank), again, N, MPI_BYTE,
                                MPI_STATUS_IGNORE));
    T_MPI(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    T_MPI(MPI_File_sync(fh));
    other_handle(path, f, total, "another handle after sync-barrier-sync");
    MPI_Barrier(MPI_COMM_WORLD);
    atomic(fh, path, total);
    T_MPI(MPI_File_close(&fh));
    free(f);
    return t_finish("t_vb_cons");
}

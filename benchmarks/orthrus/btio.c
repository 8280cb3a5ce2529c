/* Orthrus benchmark: a BTIO-like kernel (NAS NPB BT-IO, "full" MPI-IO
 * mode).  The solution array u[N][N][N][5] of doubles is cut into C x C x C
 * cells (C = 2); cell (i, j, k) belongs to rank ((j - i) mod C * C +
 * (k - i) mod C) mod P, BT's diagonal multi-partition, so each rank's view
 * is nested-strided: in every x-plane of its cells, rows of N/C x 5 doubles,
 * N x 5 doubles apart.  Each time step is one collective write
 * (write_at_all) appended to the file; after STEPS writes the file is closed,
 * evicted from the page cache, reopened and every step is read back
 * (read_at_all) and verified byte by byte, as BT's verification does.
 * Usage: btio DIR N STEPS [SKIP]
 * RESULT lines as the other Orthrus workloads (orth_bench.h): phase=write,
 * read (open to close) and *_steady (the calls after the first SKIP, default
 * 12 = an examination of 4 candidates x 3 trials).  With BTIO_COMPUTE_MS=T
 * every write step is followed by T ms of "solver" (a sleep), and
 * phase=write_io is the write phase without those steps. */
#include "orth_bench.h"

#include <time.h>

#define C 2

struct btio {
    int n, rank, nprocs;
    long long step_bytes;       /* the whole array */
    long long mine;             /* this rank's bytes per step */
    int nruns;
    MPI_Aint *offs;
    int *lens;
    MPI_Datatype ftype;
};

static int owner(int i, int j, int k, int nprocs)
{
    return ((((j - i) % C + C) % C) * C + ((k - i) % C + C) % C) % nprocs;
}

/* this rank's rows, in file order, adjacent rows merged */
static void build_view(struct btio *b)
{
    int n = b->n, cell = n / C, row = cell * 5 * 8;
    b->offs = malloc(sizeof(MPI_Aint) * n * n * C);
    b->lens = malloc(sizeof(int) * n * n * C);
    b->nruns = 0;
    b->mine = 0;
    for (int x = 0; x < n; x++)
        for (int y = 0; y < n; y++)
            for (int cz = 0; cz < C; cz++) {
                if (owner(x / cell, y / cell, cz, b->nprocs) != b->rank)
                    continue;
                MPI_Aint off = (((MPI_Aint) x * n + y) * n + (MPI_Aint) cz * cell) * 40;
                if (b->nruns && b->offs[b->nruns - 1] + b->lens[b->nruns - 1] == off)
                    b->lens[b->nruns - 1] += row;
                else {
                    b->offs[b->nruns] = off;
                    b->lens[b->nruns++] = row;
                }
                b->mine += row;
            }
    MPI_Datatype idx;
    MPI_Type_create_hindexed(b->nruns, b->lens, b->offs, MPI_BYTE, &idx);
    MPI_Type_create_resized(idx, 0, (MPI_Aint) b->step_bytes, &b->ftype);
    MPI_Type_commit(&b->ftype);
    MPI_Type_free(&idx);
}

/* this rank's data of step s (or, check != NULL, the mismatches against it) */
static long long step_data(const struct btio *b, int s, char *buf, const char *check)
{
    long long at = 0, bad = 0;
    for (int r = 0; r < b->nruns; r++)
        for (int i = 0; i < b->lens[r]; i++, at++) {
            char want = (char) ob_byte_at((long long) s * b->step_bytes + b->offs[r] + i);
            if (check)
                bad += check[at] != want;
            else
                buf[at] = want;
        }
    return bad;
}

/* the solver's time step between two writes (BTIO_COMPUTE_MS, default 0): a
 * sleep, the node's other cores computing, so helper threads may run */
static double compute_step(void)
{
    const char *s = getenv("BTIO_COMPUTE_MS");
    double ms = s ? atof(s) : 0;
    if (ms <= 0)
        return 0;
    struct timespec ts = {.tv_sec = (time_t) (ms / 1000),
        .tv_nsec = (long) ((ms - 1000 * (time_t) (ms / 1000)) * 1e6) };
    double t0 = MPI_Wtime();
    nanosleep(&ts, NULL);
    return MPI_Wtime() - t0;
}

static long long phase(const struct btio *b, const char *path, int is_write, int steps, int skip)
{
    char *buf = malloc(b->mine + 1);
    long long bad = 0;
    double ts = 0, tt = 0, computed = 0;
    MPI_File fh;
    if (!is_write)
        ob_evict(path, b->rank);
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    MPI_File_open(MPI_COMM_WORLD, path, is_write ? MPI_MODE_CREATE | MPI_MODE_WRONLY :
                  MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    MPI_File_set_view(fh, 0, MPI_BYTE, b->ftype, "native", MPI_INFO_NULL);
    for (int s = 0; s < steps; s++) {
        if (s == skip || s == ob_tail_from(steps)) {
            MPI_Barrier(MPI_COMM_WORLD);
            *(s == skip ? &ts : &tt) = MPI_Wtime();
        }
        MPI_Offset at = (MPI_Offset) s * b->mine;
        if (is_write) {
            step_data(b, s, buf, NULL);
            MPI_File_write_at_all(fh, at, buf, (int) b->mine, MPI_BYTE, MPI_STATUS_IGNORE);
            computed += compute_step();
        } else {
            memset(buf, 0, b->mine);
            MPI_File_read_at_all(fh, at, buf, (int) b->mine, MPI_BYTE, MPI_STATUS_IGNORE);
            bad += step_data(b, s, NULL, buf);
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    double te = MPI_Wtime();
    if (is_write)
        MPI_File_sync(fh);
    MPI_File_close(&fh);
    double whole = MPI_Wtime() - t0;
    double t[2] = { te - ts, te - tt };
    if (b->rank == 0)
        ob_report(is_write ? "write" : "read", (double) b->step_bytes, steps, skip, whole, t,
                  path);
    if (b->rank == 0 && computed > 0)   /* the write phase without the time steps */
        ob_result("write", "_io", (double) b->step_bytes * steps, whole - computed);
    free(buf);
    return bad;
}

int main(int argc, char **argv)
{
    struct btio b;
    ob_init(&argc, &argv, 4, "btio DIR N STEPS [SKIP]", &b.rank, &b.nprocs);
    b.n = atoi(argv[2]);
    int steps = atoi(argv[3]), skip = argc > 4 ? atoi(argv[4]) : 12;
    char path[4096];
    snprintf(path, sizeof(path), "%s/btio.dat", argv[1]);
    b.step_bytes = (long long) b.n * b.n * b.n * 40;
    build_view(&b);
    long long bad = phase(&b, path, 1, steps, skip), total;
    bad += phase(&b, path, 0, steps, skip);
    MPI_Allreduce(&bad, &total, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (b.rank == 0 && total)
        fprintf(stderr, "%s: %lld mismatches\n", path, total);
    if (b.rank == 0)
        unlink(path);
    MPI_Type_free(&b.ftype);
    free(b.offs);
    free(b.lens);
    MPI_Finalize();
    return total ? 1 : 0;
}

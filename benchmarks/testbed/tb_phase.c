/* tb_phase: the testbed workflow benchmark's PMPI shim (LD_PRELOAD), so the
 * real clients run E10's checkpoint workflow unchanged: write, compute,
 * sync/close.
 *   TB_COMPUTE_S=S   before closing a file this process wrote to, "compute"
 *                    for S seconds (a sleep: the CPU stays free, as on a
 *                    node whose other cores compute; TB_COMPUTE_BUSY=1: a
 *                    busy loop instead)
 * It times every MPI_File_write* / read* (blocking, explicit offset or
 * not, collective or not), MPI_File_sync and MPI_File_close, and at
 * MPI_Finalize rank 0 prints
 *   RESULT phase=tb_write bytes=B io_seconds=T perceived_MiBps=P compute_seconds=C
 *   RESULT phase=tb_read bytes=B io_seconds=T MiBps=P
 * io_seconds: the slowest rank's time in write + sync + close (E10's
 * perceived write bandwidth: bytes over the time the application waits for
 * its writes), resp. in the reads; bytes: all ranks together.  Sync and
 * close are collective: an untimed barrier of the file's processes comes
 * first, so a rank's sync or close does not count the wait for a rank that
 * is still reading (coll_perf reads its first handle back before closing
 * it: one rank's read from the servers took 0.7-0.9 s longer than the
 * other's, from its page cache, and that wait landed in the other's close). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define MAXF 64

static double t_write, t_read, t_compute;
static long long b_write, b_read;
static MPI_File written[MAXF];
static int nwritten;

static double now(void)
{
    return PMPI_Wtime();
}

static long long nbytes(int count, MPI_Datatype dt)
{
    int size;
    PMPI_Type_size(dt, &size);
    return (long long) count * size;
}

static void mark(MPI_File fh)
{
    int i;
    for (i = 0; i < nwritten; i++)
        if (written[i] == fh)
            return;
    if (nwritten < MAXF)
        written[nwritten++] = fh;
}

static int was_written(MPI_File fh)
{
    int i;
    for (i = 0; i < nwritten; i++)
        if (written[i] == fh) {
            written[i] = written[--nwritten];
            return 1;
        }
    return 0;
}

static void compute(void)
{
    const char *s = getenv("TB_COMPUTE_S"), *busy = getenv("TB_COMPUTE_BUSY");
    double secs = s ? atof(s) : 0, t0 = now();
    if (secs <= 0)
        return;
    if (busy && atoi(busy)) {
        volatile double x = 1;
        while (now() - t0 < secs)
            x = x * 1.0000001 + 1e-9;
    } else {
        struct timespec ts = { (time_t) secs, (long) ((secs - (time_t) secs) * 1e9) };
        nanosleep(&ts, NULL);
    }
    t_compute += now() - t0;
}

/* IO_FN(NAME, PARAMS, ARGS, T, B, W): NAME timed into T, its bytes into B;
 * W: the file counts as written (compute before its close) */
#define IO_FN(NAME, PARAMS, ARGS, T, B, W)                              \
    int NAME PARAMS                                                     \
    {                                                                   \
        double t = now();                                               \
        int rc = P##NAME ARGS;                                          \
        T += now() - t;                                                 \
        B += nbytes(count, datatype);                                   \
        if (W)                                                          \
            mark(fh);                                                   \
        return rc;                                                      \
    }
#define WRITE_FN(NAME, PARAMS, ARGS) IO_FN(NAME, PARAMS, ARGS, t_write, b_write, 1)
#define READ_FN(NAME, PARAMS, ARGS) IO_FN(NAME, PARAMS, ARGS, t_read, b_read, 0)

/* *INDENT-OFF* */
WRITE_FN(MPI_File_write, (MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
         MPI_Status *status), (fh, buf, count, datatype, status))
WRITE_FN(MPI_File_write_all, (MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
         MPI_Status *status), (fh, buf, count, datatype, status))
WRITE_FN(MPI_File_write_at, (MPI_File fh, MPI_Offset offset, const void *buf, int count,
         MPI_Datatype datatype, MPI_Status *status), (fh, offset, buf, count, datatype, status))
WRITE_FN(MPI_File_write_at_all, (MPI_File fh, MPI_Offset offset, const void *buf, int count,
         MPI_Datatype datatype, MPI_Status *status), (fh, offset, buf, count, datatype, status))
READ_FN(MPI_File_read, (MPI_File fh, void *buf, int count, MPI_Datatype datatype,
        MPI_Status *status), (fh, buf, count, datatype, status))
READ_FN(MPI_File_read_all, (MPI_File fh, void *buf, int count, MPI_Datatype datatype,
        MPI_Status *status), (fh, buf, count, datatype, status))
READ_FN(MPI_File_read_at, (MPI_File fh, MPI_Offset offset, void *buf, int count,
        MPI_Datatype datatype, MPI_Status *status), (fh, offset, buf, count, datatype, status))
READ_FN(MPI_File_read_at_all, (MPI_File fh, MPI_Offset offset, void *buf, int count,
        MPI_Datatype datatype, MPI_Status *status), (fh, offset, buf, count, datatype, status))
/* *INDENT-ON* */

/* untimed: every process of the file enters its collective sync or close
 * (files opened on MPI_COMM_WORLD, as every client here does; others go
 * on at once) */
static void meet(MPI_File fh)
{
    MPI_Group g, w;
    int same;
    PMPI_File_get_group(fh, &g);
    PMPI_Comm_group(MPI_COMM_WORLD, &w);
    PMPI_Group_compare(g, w, &same);
    PMPI_Group_free(&g);
    PMPI_Group_free(&w);
    if (same == MPI_IDENT)
        PMPI_Barrier(MPI_COMM_WORLD);
}

int MPI_File_sync(MPI_File fh)
{
    double t;
    meet(fh);
    t = now();
    int rc = PMPI_File_sync(fh);
    t_write += now() - t;
    return rc;
}

int MPI_File_close(MPI_File *fh)
{
    double t;
    int rc;
    if (was_written(*fh))
        compute();
    meet(*fh);
    t = now();
    rc = PMPI_File_close(fh);
    t_write += now() - t;
    return rc;
}

int MPI_Finalize(void)
{
    double in[3] = { t_write, t_read, t_compute }, mx[3];
    long long bin[2] = { b_write, b_read }, sum[2];
    int rank;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Reduce(in, mx, 3, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    PMPI_Reduce(bin, sum, 2, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        if (sum[0])
            printf("RESULT phase=tb_write bytes=%lld io_seconds=%.6f perceived_MiBps=%.3f "
                   "compute_seconds=%.3f\n", sum[0], mx[0], sum[0] / mx[0] / 1048576.0, mx[2]);
        if (sum[1])
            printf("RESULT phase=tb_read bytes=%lld io_seconds=%.6f MiBps=%.3f\n", sum[1],
                   mx[1], sum[1] / mx[1] / 1048576.0);
        fflush(stdout);
    }
    return PMPI_Finalize();
}

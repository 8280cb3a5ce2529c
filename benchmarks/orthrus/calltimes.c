/* Orthrus benchmark: per-call times of IOR-like collective writes (each rank
 * writes its 64 MiB block of each of 2 segments in 1 MiB
 * MPI_File_write_at_all calls; the processes' pieces never interleave).
 * Prints the slowest rank's median, 90th percentile and longest call and the
 * whole loop's time: what stock ROMIO's automatic choice costs per call
 * against romio_cb_write=disable (docs/results/orthrus/short-jobs.md).
 * Usage: calltimes FILE   (hints from ROMIO_HINTS) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { XFER = 1 << 20, SEGS = 2 };
#define BLOCK (64LL << 20)

static int by_value(const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    int rank, nprocs, k = 0, n = (int) (BLOCK / XFER) * SEGS;
    MPI_File fh;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    if (argc < 2)
        MPI_Abort(MPI_COMM_WORLD, 2);
    char *buf = malloc(XFER);
    double *t = malloc(n * sizeof(double)), loc[4], mx[4];
    memset(buf, rank + 1, XFER);
    MPI_File_open(MPI_COMM_WORLD, argv[1], MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
    double t0 = MPI_Wtime();
    for (int s = 0; s < SEGS; s++)
        for (long long o = 0; o < BLOCK; o += XFER) {
            double a = MPI_Wtime();
            MPI_File_write_at_all(fh, ((long long) s * nprocs + rank) * BLOCK + o, buf, XFER,
                                  MPI_BYTE, MPI_STATUS_IGNORE);
            t[k++] = MPI_Wtime() - a;
        }
    double all = MPI_Wtime() - t0;
    MPI_File_close(&fh);
    qsort(t, n, sizeof(double), by_value);
    loc[0] = t[n / 2];
    loc[1] = t[n * 9 / 10];
    loc[2] = t[n - 1];
    loc[3] = all;
    MPI_Reduce(loc, mx, 4, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("calls %d: median %.3f ms p90 %.3f ms max %.3f ms, all calls %.3f s (%.0f MB/s)\n",
               n, mx[0] * 1e3, mx[1] * 1e3, mx[2] * 1e3, mx[3],
               (double) nprocs * BLOCK * SEGS / mx[3] / 1e6);
    free(t);
    free(buf);
    MPI_Finalize();
    return 0;
}

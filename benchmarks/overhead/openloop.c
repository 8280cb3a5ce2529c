/* openloop DIR N [BYTES]: N x (MPI_File_open, write BYTES at rank*BYTES with
 * MPI_File_write_at_all, close) on DIR/open.dat.  Prints the median, mean
 * and 10th percentile per cycle, and the medians of open, write and close
 * alone (each the slowest rank's).  The per-open cost of hints and of the
 * collectives at open (docs/noharm.md). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp(const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (argc < 3) {
        if (!rank)
            fprintf(stderr, "usage: openloop DIR N [BYTES]\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int n = atoi(argv[2]);
    long bytes = argc > 3 ? atol(argv[3]) : 4096;
    char path[4096];
    snprintf(path, sizeof path, "%s/open.dat", argv[1]);
    char *buf = malloc(bytes ? bytes : 1);
    memset(buf, 7, bytes);
    double *t[4], sum = 0;
    for (int k = 0; k < 4; k++)
        t[k] = malloc(n * sizeof(double));
    for (int i = 0; i < n; i++) {
        MPI_File fh;
        double d[4], mx[4];
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
        double t1 = MPI_Wtime();
        if (bytes)
            MPI_File_write_at_all(fh, rank * bytes, buf, (int) bytes, MPI_BYTE,
                                  MPI_STATUS_IGNORE);
        double t2 = MPI_Wtime();
        MPI_File_close(&fh);
        double t3 = MPI_Wtime();
        d[0] = t3 - t0, d[1] = t1 - t0, d[2] = t2 - t1, d[3] = t3 - t2;
        MPI_Allreduce(d, mx, 4, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        for (int k = 0; k < 4; k++)
            t[k][i] = mx[k];
        sum += mx[0];
    }
    for (int k = 0; k < 4; k++)
        qsort(t[k], n, sizeof(double), cmp);
    if (!rank)
        printf("median_us=%.1f mean_us=%.1f p10_us=%.1f open=%.1f write=%.1f close=%.1f\n",
               t[0][n / 2] * 1e6, sum / n * 1e6, t[0][n / 10] * 1e6, t[1][n / 2] * 1e6,
               t[2][n / 2] * 1e6, t[3][n / 2] * 1e6);
    MPI_Finalize();
    return 0;
}

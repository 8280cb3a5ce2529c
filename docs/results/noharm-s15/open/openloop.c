/* openloop DIR N [BYTES]: N x (open, write BYTES at rank*BYTES, close) on one
 * file; prints the median and mean time per iteration (slowest rank) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static int cmp(const void *a, const void *b) { double x = *(double *) a, y = *(double *) b; return x < y ? -1 : x > y; }
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank; MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int n = atoi(argv[2]); long bytes = argc > 3 ? atol(argv[3]) : 4096;
    char path[4096]; snprintf(path, sizeof path, "%s/open.dat", argv[1]);
    char *buf = malloc(bytes); memset(buf, 7, bytes);
    double *t = malloc(n * sizeof(double)), sum = 0;
    for (int i = 0; i < n; i++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        MPI_File fh;
        MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
        if (bytes) MPI_File_write_at_all(fh, rank * bytes, buf, (int) bytes, MPI_BYTE, MPI_STATUS_IGNORE);
        MPI_File_close(&fh);
        double dt = MPI_Wtime() - t0, mx;
        MPI_Allreduce(&dt, &mx, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        t[i] = mx; sum += mx;
    }
    qsort(t, n, sizeof(double), cmp);
    if (!rank) printf("median_us=%.1f mean_us=%.1f p10_us=%.1f\n", t[n / 2] * 1e6, sum / n * 1e6, t[n / 10] * 1e6);
    MPI_Finalize();
    return 0;
}

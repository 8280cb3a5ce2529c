/* The paper's checkpoint workflow, shared by nvc_bench.c and flashio.c: per
 * file open + write, a compute phase (sleep: it leaves the cores to the sync
 * threads, as real compute on other cores would; or, with nvc_busy set, a
 * fixed amount of arithmetic that takes that long on an idle core, so helper
 * threads sharing the process's core make it longer), MPI_File_sync, close.
 * Prints one RESULT line per file (rank 0), times of the rank with the
 * longest write + sync + close:
 *   write   open + all writes (the application's write phase)
 *   sync    MPI_File_sync after the compute phase (not hidden sync)
 *   close   MPI_File_close
 *   MBps    bytes / (write + sync + close): the perceived bandwidth
 *   TBWMBps bytes / write: the bandwidth if syncing were free (TBW) */
#ifndef NVC_TIMING_H
#define NVC_TIMING_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

struct nvc_times {
    double t0, write, compute, sync, close;
};

static int nvc_busy;            /* compute by arithmetic, not sleep */
static double nvc_rate;         /* its iterations per second on an idle core */
static volatile double nvc_sink;

static inline void nvc_spin(long long n)
{
    double x = 0;
    for (long long i = 0; i < n; i++)
        x += (double) i * 1e-9;
    nvc_sink = x;
}

/* before any file is open (no helper thread yet) */
static inline void nvc_calibrate(void)
{
    long long n = 1 << 20;
    for (;;) {
        double c0 = MPI_Wtime();
        nvc_spin(n);
        double took = MPI_Wtime() - c0;
        if (took > 0.2) {
            nvc_rate = n / took;
            return;
        }
        n *= 2;
    }
}

static inline void nvc_compute(struct nvc_times *t, double seconds)
{
    double c0 = MPI_Wtime();
    if (seconds > 0 && nvc_busy)
        nvc_spin((long long) (seconds * nvc_rate));
    else if (seconds > 0)
        usleep((useconds_t) (seconds * 1e6));
    t->compute = MPI_Wtime() - c0;
}

static inline void nvc_report(const char *phase, int iter, long long bytes, struct nvc_times *t,
                              double compute, const char *file)
{
    /* the critical path: the rank with the longest write + sync + close,
     * with its own parts (a rank waiting in close for a slower rank's sync
     * is not counted twice) */
    double mine[4] = { t->write, t->sync, t->close, t->compute }, *all = NULL;
    int rank, nprocs, slow = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    if (rank == 0)
        all = (double *) malloc(4 * nprocs * sizeof(double));
    MPI_Gather(mine, 4, MPI_DOUBLE, all, 4, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        double job = 0;         /* the slowest rank's write + compute + sync + close */
        for (int r = 0; r < nprocs; r++) {
            double *a = all + 4 * r, *b = all + 4 * slow;
            if (a[0] + a[1] + a[2] > b[0] + b[1] + b[2])
                slow = r;
            job = a[0] + a[1] + a[2] + a[3] > job ? a[0] + a[1] + a[2] + a[3] : job;
        }
        double *mx = all + 4 * slow, perceived = mx[0] + mx[1] + mx[2];
        printf("RESULT phase=%s iter=%d compute=%g bytes=%lld write=%.6f sync=%.6f close=%.6f "
               "seconds=%.6f MBps=%.2f TBWMBps=%.2f job=%.6f file=%s\n", phase, iter, compute,
               bytes, mx[0], mx[1], mx[2], perceived, bytes / perceived / 1e6,
               bytes / mx[0] / 1e6, job, file);
        fflush(stdout);
        free(all);
    }
}

#endif

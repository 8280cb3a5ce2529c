/* The seed's checkpoint workflow, shared by nvc_bench.c and flashio.c: per
 * file open + write, a compute phase (sleep: it leaves the cores to the sync
 * threads, as real compute on other cores would), MPI_File_sync, close.
 * Prints one RESULT line per file (rank 0), times are maxima over ranks:
 *   write   open + all writes (the application's write phase)
 *   sync    MPI_File_sync after the compute phase (not hidden sync)
 *   close   MPI_File_close
 *   MBps    bytes / (write + sync + close): the perceived bandwidth
 *   TBWMBps bytes / write: the bandwidth if syncing were free (TBW) */
#ifndef NVC_TIMING_H
#define NVC_TIMING_H

#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

struct nvc_times {
    double t0, write, compute, sync, close;
};

static inline void nvc_compute(struct nvc_times *t, double seconds)
{
    double c0 = MPI_Wtime();
    if (seconds > 0)
        usleep((useconds_t) (seconds * 1e6));
    t->compute = MPI_Wtime() - c0;
}

static inline void nvc_report(const char *phase, int iter, long long bytes, struct nvc_times *t,
                              double compute, const char *file)
{
    double mine[3] = { t->write, t->sync, t->close }, mx[3];
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Reduce(mine, mx, 3, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        double perceived = mx[0] + mx[1] + mx[2];
        printf("RESULT phase=%s iter=%d compute=%g bytes=%lld write=%.6f sync=%.6f close=%.6f "
               "seconds=%.6f MBps=%.2f TBWMBps=%.2f file=%s\n", phase, iter, compute, bytes,
               mx[0], mx[1], mx[2], perceived, bytes / perceived / 1e6, bytes / mx[0] / 1e6,
               file);
        fflush(stdout);
    }
}

#endif

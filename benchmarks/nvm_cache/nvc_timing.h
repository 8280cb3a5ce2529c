/* The paper's checkpoint workflow, shared by nvc_bench.c and flashio.c: per
 * file open + write, a compute phase (sleep: it leaves the cores to the sync
 * threads, as real compute on other cores would), MPI_File_sync, close.
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
    /* the critical path: the rank with the longest write + sync + close,
     * with its own parts (a rank waiting in close for a slower rank's sync
     * is not counted twice) */
    double mine[3] = { t->write, t->sync, t->close }, *all = NULL;
    int rank, nprocs, slow = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    if (rank == 0)
        all = (double *) malloc(3 * nprocs * sizeof(double));
    MPI_Gather(mine, 3, MPI_DOUBLE, all, 3, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        for (int r = 1; r < nprocs; r++)
            if (all[3 * r] + all[3 * r + 1] + all[3 * r + 2] >
                all[3 * slow] + all[3 * slow + 1] + all[3 * slow + 2])
                slow = r;
        double *mx = all + 3 * slow, perceived = mx[0] + mx[1] + mx[2];
        printf("RESULT phase=%s iter=%d compute=%g bytes=%lld write=%.6f sync=%.6f close=%.6f "
               "seconds=%.6f MBps=%.2f TBWMBps=%.2f file=%s\n", phase, iter, compute, bytes,
               mx[0], mx[1], mx[2], perceived, bytes / perceived / 1e6, bytes / mx[0] / 1e6,
               file);
        fflush(stdout);
        free(all);
    }
}

#endif

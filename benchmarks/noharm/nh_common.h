/* Shared pieces of the no-harm grid kernels (noharm.c, nh_hdf5.c): the data
 * pattern, eviction from the page cache, the timed phase sequence and the
 * RESULT lines run.py reads.  Header-only: each kernel is one translation
 * unit (nh_hdf5.c is built by Debian's mpicc.mpich against libhdf5-mpich). */
#ifndef NH_COMMON_H
#define NH_COMMON_H

#include <mpi.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../xt_cold.h"

/* element i of rank r's data stream, for write number `gen` */
static inline uint32_t nh_word(int rank, long long i, int gen)
{
    return (uint32_t) (i * 2654435761u) ^ (uint32_t) (rank * 40503 + gen * 7919 + 1);
}

static inline void nh_fill(uint32_t *buf, long long first, long long n, int rank, int gen)
{
    for (long long k = 0; k < n; k++)
        buf[k] = nh_word(rank, first + k, gen);
}

/* number of words of buf that differ from the pattern */
static inline long long nh_check(const uint32_t *buf, long long first, long long n, int rank,
                                 int gen)
{
    long long bad = 0;
    for (long long k = 0; k < n; k++)
        bad += buf[k] != nh_word(rank, first + k, gen);
    return bad;
}

/* write the file's dirty pages and drop it from the page cache (rank 0;
 * ../xt_cold.h) */
static inline void nh_evict(const char *path, int rank)
{
    if (rank == 0)
        xt_cold_evict(path);
    MPI_Barrier(MPI_COMM_WORLD);
}

/* One run = 4 timed phases, each open..close, slowest rank:
 *   write cold  (a new file), read cold (evicted, verified),
 *   read warm (cached, verified), write warm (overwrite of the cached file).
 * phase(rw, gen) does open, I/O and close and returns the words that
 * differed (reads) or -1 on an error. */
typedef long long (*nh_phase_fn)(int write, int gen, void *ctx);

static inline int nh_run(const char *wl, const char *path, long long bytes_per_rank,
                         nh_phase_fn phase, void *ctx)
{
    static const struct { const char *op, *cond; int write, gen, evict, unlink; } ph[] = {
        {"write", "cold", 1, 1, 0, 1}, {"read", "cold", 0, 1, 1, 0},
        {"read", "warm", 0, 1, 0, 0}, {"write", "warm", 1, 2, 0, 0}};
    int rank, np, rc = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    for (unsigned p = 0; p < sizeof ph / sizeof ph[0]; p++) {
        if (ph[p].unlink && rank == 0)
            unlink(path);
        if (ph[p].evict)
            nh_evict(path, rank);
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        long long bad = phase(ph[p].write, ph[p].gen, ctx);
        double dt = MPI_Wtime() - t0, tmax;
        long long badsum;
        MPI_Reduce(&dt, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        MPI_Allreduce(&bad, &badsum, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
        if (badsum != 0) {
            if (rank == 0)
                fprintf(stderr, "noharm %s %s %s: %lld bad words or errors\n", wl, ph[p].op,
                        ph[p].cond, badsum);
            rc = 1;
        }
        if (rank == 0)
            printf("RESULT wl=%s op=%s cond=%s bytes=%lld seconds=%.6f ok=%d\n", wl, ph[p].op,
                   ph[p].cond, bytes_per_rank * np, tmax, badsum == 0);
    }
    fflush(stdout);
    return rc;
}

#endif

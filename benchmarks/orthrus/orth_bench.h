/* The Orthrus benchmark driver shared by matrix.c and noncontig.c.  Both
 * access, in each collective call, `depth` blocks of `block` bytes per
 * process, consecutive blocks `row` bytes apart in the file (the processes'
 * blocks interleaved); they differ in how the view is built and addressed.
 * A run = `calls` collective writes, then cold collective reads of the same
 * data, verified; RESULT lines for the harness (whole run, open to close;
 * the steady phase after the first `skip` calls; the tail, the last third
 * of the calls, after any examination of 60 calls has ended); optional per-call
 * output and an interference marker for the dynamic run.  Header-only (each
 * workload is one translation unit). */
#ifndef ORTH_BENCH_H
#define ORTH_BENCH_H

#include <mpi.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../xt_cold.h"

/* MPI_Init, rank and size; aborts with the usage line when fewer than
 * nargs arguments (program name included) were given */
static inline void ob_init(int *argc, char ***argv, int nargs, const char *usage, int *rank,
                           int *nprocs)
{
    MPI_Init(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    MPI_Comm_size(MPI_COMM_WORLD, nprocs);
    if (*argc < nargs) {
        if (*rank == 0)
            fprintf(stderr, "usage: %s\n", usage);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
}

/* the expected byte at file offset off */
static inline unsigned char ob_byte_at(long long off)
{
    return (unsigned char) ((off * 131 + (off >> 11)) & 0xff);
}

/* drop the file's pages from the page cache (rank 0), so reads are cold
 * (../xt_cold.h: also from the host's cache's whims) */
static inline void ob_evict(const char *path, int rank)
{
    if (rank == 0)
        xt_cold_evict(path);
}

/* per-call output and the interference marker, from the environment:
 * ORTH_BENCH_CALLS=1 prints "CALL phase k seconds" (rank 0) after each call;
 * ORTH_BENCH_MARK=PATH and ORTH_BENCH_MARK_CALL=K create PATH before call K
 * of the phase named by ORTH_BENCH_MARK_PHASE (default read) */
struct ob_calls {
    int print, mark_call;
    const char *mark, *mark_phase;
};

static inline void ob_calls_init(struct ob_calls *oc)
{
    const char *s = getenv("ORTH_BENCH_CALLS"), *k = getenv("ORTH_BENCH_MARK_CALL");
    oc->print = s && *s == '1';
    oc->mark = getenv("ORTH_BENCH_MARK");
    oc->mark_call = k ? atoi(k) : -1;
    oc->mark_phase = getenv("ORTH_BENCH_MARK_PHASE");
    if (!oc->mark_phase)
        oc->mark_phase = "read";
}

/* before call k of phase `name`: create the marker when it is due (waits a
 * moment, so the interference is running when the call starts) */
static inline void ob_before_call(const struct ob_calls *oc, const char *name, int k, int rank)
{
    if (oc->mark && k == oc->mark_call && !strcmp(name, oc->mark_phase)) {
        if (rank == 0) {
            FILE *f = fopen(oc->mark, "w");
            if (f) {
                fprintf(f, "%d\n", k);
                fclose(f);
            }
            usleep(500 * 1000);
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
}

static inline void ob_after_call(const struct ob_calls *oc, const char *name, int k, int rank,
                                 double t0)
{
    if (!oc->print)
        return;
    double t = MPI_Wtime() - t0, tmax;
    MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("CALL phase=%s call=%d seconds=%.6f\n", name, k, tmax);
}

/* the calls of the tail window: the last third (Orthrus's steady state,
 * once the examination is over; Matrix's 60 calls: the last 20) */
static inline int ob_tail_from(int calls)
{
    return calls - calls / 3;
}

static inline void ob_result(const char *name, const char *suffix, double bytes, double secs)
{
    printf("RESULT phase=%s%s bytes=%.0f seconds=%.6f MBps=%.3f\n", name, suffix, bytes, secs,
           bytes / secs / 1e6);
}

/* RESULT lines of one phase: the whole run (open..close), the steady
 * phase (calls after the first skip) and the tail (t[0]: steady's
 * seconds, t[1]: the tail's) */
static inline void ob_report(const char *name, double bytes_per_call, int calls, int skip,
                             double whole, const double *t, const char *path)
{
    printf("RESULT phase=%s bytes=%.0f seconds=%.6f MBps=%.3f file=%s\n",
           name, bytes_per_call * calls, whole, bytes_per_call * calls / whole / 1e6, path);
    if (calls > skip)
        ob_result(name, "_steady", bytes_per_call * (calls - skip), t[0]);
    if (ob_tail_from(calls) > skip && ob_tail_from(calls) < calls)
        ob_result(name, "_tail", bytes_per_call * (calls - ob_tail_from(calls)), t[1]);
    fflush(stdout);
}

/* one process's access pattern */
struct ob_pattern {
    MPI_Datatype ftype;         /* file type (tiles once per call) */
    MPI_Offset disp;            /* view displacement */
    MPI_Datatype mtype;         /* memory type of one call (count 1), or MPI_BYTE */
    long long block, row, depth;        /* file: depth blocks of block bytes, row apart */
    long long mem_stride;       /* memory: block i at i * mem_stride */
    long long first;            /* file offset of this process's first byte */
    int explicit_offsets;       /* *_at_all at k * call bytes, else the file pointer */
};

static inline long long ob_file_off(const struct ob_pattern *p, int k, long long i)
{
    return p->first + (long long) k * p->depth * p->row + (i / p->block) * p->row + i % p->block;
}

static inline char *ob_mem_at(const struct ob_pattern *p, char *buf, long long i)
{
    return buf + (i / p->block) * p->mem_stride + i % p->block;
}

static inline void ob_call(MPI_File fh, const struct ob_pattern *p, int is_write, int k, char *buf)
{
    long long n = p->block * p->depth;
    int count = p->mtype == MPI_BYTE ? (int) n : 1;
    MPI_Offset at = (MPI_Offset) k * n;
    if (is_write && p->explicit_offsets)
        MPI_File_write_at_all(fh, at, buf, count, p->mtype, MPI_STATUS_IGNORE);
    else if (is_write)
        MPI_File_write_all(fh, buf, count, p->mtype, MPI_STATUS_IGNORE);
    else if (p->explicit_offsets)
        MPI_File_read_at_all(fh, at, buf, count, p->mtype, MPI_STATUS_IGNORE);
    else
        MPI_File_read_all(fh, buf, count, p->mtype, MPI_STATUS_IGNORE);
}

/* one phase (write or read) of the run; returns the mismatches */
static int ob_phase(const struct ob_pattern *p, const char *path, int is_write, int calls,
                    int skip, int rank, int nprocs, const struct ob_calls *oc)
{
    const char *name = is_write ? "write" : "read";
    long long n = p->block * p->depth;
    size_t size = (size_t) ((p->depth - 1) * p->mem_stride + p->block);
    char *buf = calloc(size, 1);
    int errors = 0;
    double ts = 0, tt = 0;
    MPI_File fh;
    if (!is_write)
        ob_evict(path, rank);
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    MPI_File_open(MPI_COMM_WORLD, path, is_write ? MPI_MODE_CREATE | MPI_MODE_WRONLY :
                  MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    MPI_File_set_view(fh, p->disp, MPI_BYTE, p->ftype, "native", MPI_INFO_NULL);
    for (int k = 0; k < calls; k++) {
        if (k == skip || k == ob_tail_from(calls)) {
            MPI_Barrier(MPI_COMM_WORLD);
            *(k == skip ? &ts : &tt) = MPI_Wtime();
        }
        if (is_write)
            for (long long i = 0; i < n; i++)
                *ob_mem_at(p, buf, i) = (char) ob_byte_at(ob_file_off(p, k, i));
        ob_before_call(oc, name, k, rank);
        double tc = MPI_Wtime();
        ob_call(fh, p, is_write, k, buf);
        ob_after_call(oc, name, k, rank, tc);
        if (!is_write)
            for (long long i = 0; i < n; i += 97)
                if ((unsigned char) *ob_mem_at(p, buf, i) != ob_byte_at(ob_file_off(p, k, i)))
                    errors++;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    double te = MPI_Wtime();
    if (is_write)
        MPI_File_sync(fh);
    MPI_File_close(&fh);
    double whole = MPI_Wtime() - t0;
    double t[2] = { te - ts, te - tt };
    if (rank == 0)
        ob_report(name, (double) n * nprocs, calls, skip, whole, t, path);
    free(buf);
    return errors;
}

/* the whole run: write, cold read, verify; returns the exit status */
static int ob_run(const struct ob_pattern *p, const char *path, int calls, int skip)
{
    int rank, nprocs, errors = 0, total;
    struct ob_calls oc;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    ob_calls_init(&oc);
    /* ORTH_BENCH_PHASES=write|read: one phase only (read: a file an earlier
     * run wrote and kept); ORTH_BENCH_KEEP=1: the file stays */
    const char *ph = getenv("ORTH_BENCH_PHASES"), *keep = getenv("ORTH_BENCH_KEEP");
    for (int is_write = 1; is_write >= 0; is_write--)
        if (!ph || !strcmp(ph, is_write ? "write" : "read"))
            errors += ob_phase(p, path, is_write, calls, skip, rank, nprocs, &oc);
    MPI_Allreduce(&errors, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && total)
        fprintf(stderr, "%s: %d mismatches\n", path, total);
    if (rank == 0 && !(keep && !strcmp(keep, "1")) && !(ph && !strcmp(ph, "write")))
        unlink(path);
    return total ? 1 : 0;
}

#endif

/* romio-xt Orthrus: the aggregator's work, shared by core_first and
 * disk_first.  The pieces received from each source, with their bytes in the
 * same order, are sorted by offset, merged where adjacent or overlapping
 * (never across a hole) and accessed run by run in ascending offset order
 * through the stacked table (ADIO_WriteContig/ADIO_ReadContig, as two-phase
 * aggregators do). */
#include "orth.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* one piece at the aggregator */
struct orth_piece {
    ADIO_Offset off, len;
    int64_t spos;               /* position in the received stream */
    int64_t fpos;               /* position in the run buffer */
};

static int cmp_piece(const void *a, const void *b)
{
    const struct orth_piece *x = a, *y = b;
    if (x->off != y->off)
        return x->off < y->off ? -1 : 1;
    return x->spos < y->spos ? -1 : x->spos > y->spos;
}

/* sorted pieces with run-buffer positions; returns the run buffer's size */
static int64_t plan(const struct orth_gather *g, struct orth_piece *p)
{
    int64_t spos = 0;
    for (int i = 0; i < g->total; i++) {
        p[i].off = g->offs[i];
        p[i].len = g->lens[i];
        p[i].spos = spos;
        spos += g->lens[i];
    }
    qsort(p, g->total, sizeof(*p), cmp_piece);
    int64_t base = 0;
    ADIO_Offset run_off = 0, run_end = 0;
    for (int i = 0; i < g->total; i++) {
        if (i == 0 || p[i].off > run_end) {     /* a hole: a new run */
            base += run_end - run_off;
            run_off = run_end = p[i].off;
        }
        p[i].fpos = base + (p[i].off - run_off);
        if (p[i].off + p[i].len > run_end)
            run_end = p[i].off + p[i].len;
    }
    return base + (run_end - run_off);
}

/* writes (is_write) or reads each run of the sorted pieces through fd->fns */
static void access_runs(ADIO_File fd, const struct orth_piece *p, int n, char *fbuf,
                        int is_write, int *err)
{
    ADIO_Status status;
    int i = 0;
    while (i < n && *err == MPI_SUCCESS) {
        ADIO_Offset off = p[i].off, end = p[i].off + p[i].len;
        int64_t fpos = p[i].fpos;
        for (i++; i < n && p[i].off <= end; i++)
            if (p[i].off + p[i].len > end)
                end = p[i].off + p[i].len;
        if (is_write)
            ADIO_WriteContig(fd, fbuf + fpos, (int) (end - off), MPI_BYTE,
                             ADIO_EXPLICIT_OFFSET, off, &status, err);
        else
            ADIO_ReadContig(fd, fbuf + fpos, (int) (end - off), MPI_BYTE,
                            ADIO_EXPLICIT_OFFSET, off, &status, err);
    }
}

void orth_aggregate(ADIO_File fd, const struct orth_gather *g, char *stream, int is_write,
                    int *err)
{
    if (g->total == 0)
        return;
    struct orth_piece *p = ADIOI_Malloc(g->total * sizeof(*p));
    int64_t size = plan(g, p);
    char *fbuf = ADIOI_Malloc(size + 1);
    if (is_write)
        for (int i = 0; i < g->total; i++)
            memcpy(fbuf + p[i].fpos, stream + p[i].spos, p[i].len);
    access_runs(fd, p, g->total, fbuf, is_write, err);
    if (!is_write)
        for (int i = 0; i < g->total; i++)
            memcpy(stream + p[i].spos, fbuf + p[i].fpos, p[i].len);
    ADIOI_Free(fbuf);
    ADIOI_Free(p);
}

/* any rank's error becomes every rank's (MPI_ERR_IO where it had none) */
void orth_agree_error(ADIO_File fd, int *err)
{
    int mine = *err != MPI_SUCCESS, any = 0;
    MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, fd->comm);
    if (any && !mine)
        *err = xt_io_error(fd, "orthrus: another process's part of the call", EIO);
}

/* the end of a call run by an Orthrus candidate: file pointers and status as
 * stock two-phase leaves them */
void orth_finish(struct orth_call *c, int *err)
{
    orth_agree_error(c->fd, err);
    xt_call_done(c->fd, ADIO_INDIVIDUAL, c->end_fp, -1, c->status, c->dt, c->bytes);
}

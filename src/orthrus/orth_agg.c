/* romio-xt Orthrus: the aggregator's work in one round, shared by core_first
 * and disk_first.  The round's pieces, from every source, are sorted by
 * offset, placed in a buffer without the holes between them, merged where
 * adjacent or overlapping (never across a hole) and accessed run by run in
 * ascending offset order through the stacked table (ADIO_WriteContig /
 * ADIO_ReadContig, as two-phase aggregators do); and the node communicator
 * both candidates' aggregator choice needs. */
#include "orth.h"

#include <errno.h>
#include <stdlib.h>

static int cmp_piece(const void *a, const void *b)
{
    const struct orth_piece *x = a, *y = b;
    if (x->off != y->off)
        return x->off < y->off ? -1 : 1;
    if (x->src != y->src)
        return x->src < y->src ? -1 : 1;
    return (x->seq > y->seq) - (x->seq < y->seq);
}

int64_t orth_plan(struct orth_piece *p, int n, int *overlap)
{
    int sorted = 1;
    for (int i = 1; i < n && sorted; i++)
        sorted = cmp_piece(&p[i - 1], &p[i]) < 0;
    if (!sorted)
        qsort(p, n, sizeof(*p), cmp_piece);
    int64_t base = 0;
    ADIO_Offset run_off = 0, run_end = 0;
    *overlap = 0;
    for (int i = 0; i < n; i++) {
        if (i == 0 || p[i].off > run_end) {     /* a hole: a new run */
            base += run_end - run_off;
            run_off = run_end = p[i].off;
        } else if (p[i].off < run_end)
            *overlap = 1;
        p[i].fpos = base + (p[i].off - run_off);
        if (p[i].off + p[i].len > run_end)
            run_end = p[i].off + p[i].len;
    }
    return base + (run_end - run_off);
}

void orth_access(ADIO_File fd, const struct orth_piece *p, int n, char *buf, int is_write,
                 int *err)
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
            ADIO_WriteContig(fd, buf + fpos, (int) (end - off), MPI_BYTE,
                             ADIO_EXPLICIT_OFFSET, off, &status, err);
        else
            ADIO_ReadContig(fd, buf + fpos, (int) (end - off), MPI_BYTE,
                            ADIO_EXPLICIT_OFFSET, off, &status, err);
    }
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
    if (c->agree)
        c->agree(c, err);
    else
        orth_agree_error(c->fd, err);
    xt_call_done(c->fd, ADIO_INDIVIDUAL, c->end_fp, -1, c->status, c->dt, c->bytes);
}

void orth_pieces(struct orth_call *c)
{
    ADIO_Offset start, end, fp = c->fd->fp_ind;
    if (c->offs)
        return;
    c->fd->fp_ind = c->orig_fp;
    ADIOI_Calc_my_off_len(c->fd, c->count, c->dt, c->fpt, c->off, &c->offs, &c->lens,
                          &start, &end, &c->n);
    c->end_fp = c->fd->fp_ind;
    c->fd->fp_ind = fp;
}

/* the node communicator and the number of nodes, made at the first call of
 * a candidate that needs them (collective over fd->comm: every rank runs the
 * same candidate), so that files never running one pay nothing at open */
void orth_nodes(ADIO_File fd, struct orth_state *st)
{
    int rank, node_rank, leader;
    if (st->node != MPI_COMM_NULL)
        return;
    MPI_Comm_rank(fd->comm, &rank);
    MPI_Comm_split_type(fd->comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &st->node);
    MPI_Comm_rank(st->node, &node_rank);
    leader = node_rank == 0;
    MPI_Allreduce(&leader, &st->nnodes, 1, MPI_INT, MPI_SUM, fd->comm);
}

void orth_nodes_setup(struct orth_call *c)
{
    orth_nodes(c->fd, c->st);
}

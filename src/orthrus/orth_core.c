/* romio-xt Orthrus: core_first.  One aggregator per node (the node's process
 * with the most data) gathers the node's pieces, sorts them by offset, merges
 * adjacent and overlapping ones (never across a hole) and accesses the runs
 * through the stacked table (ADIO_WriteContig/ADIO_ReadContig, like two-phase
 * aggregators); reads are scattered back.  Data never leaves the node. */
#include "orth.h"

#include <stdlib.h>
#include <string.h>

/* one piece at the aggregator */
struct orth_piece {
    ADIO_Offset off, len;
    int64_t spos;               /* position in the gathered stream */
    int64_t fpos;               /* position in the run buffer */
};

/* the node's pieces as gathered at the aggregator */
struct orth_gather {
    int *npieces, *pdispl;      /* per node rank: pieces */
    int *nbytes, *bdispl;       /* per node rank: stream bytes */
    ADIO_Offset *offs, *lens;
    int total;
    int64_t total_bytes;
};

static int cmp_piece(const void *a, const void *b)
{
    const struct orth_piece *x = a, *y = b;
    if (x->off != y->off)
        return x->off < y->off ? -1 : 1;
    return x->spos < y->spos ? -1 : x->spos > y->spos;
}

/* the node rank with the most bytes (lowest on ties) */
static int pick_aggregator(MPI_Comm node, int64_t bytes)
{
    int ns;
    MPI_Comm_size(node, &ns);
    int64_t *all = ADIOI_Malloc(ns * sizeof(int64_t));
    MPI_Allgather(&bytes, 1, MPI_INT64_T, all, 1, MPI_INT64_T, node);
    int agg = 0;
    for (int i = 1; i < ns; i++)
        if (all[i] > all[agg])
            agg = i;
    ADIOI_Free(all);
    return agg;
}

/* this rank's nonempty pieces, compacted in place */
static int compact(struct orth_call *c)
{
    int n = 0;
    for (int i = 0; i < c->n; i++)
        if (c->lens[i] > 0) {
            c->offs[n] = c->offs[i];
            c->lens[n++] = c->lens[i];
        }
    return n;
}

static void displs(const int *cnt, int *dis, int n)
{
    dis[0] = 0;
    for (int i = 1; i < n; i++)
        dis[i] = dis[i - 1] + cnt[i - 1];
}

static void gather_pieces(struct orth_call *c, MPI_Comm node, int agg, int me,
                          struct orth_gather *g)
{
    int ns, n = compact(c), nb = (int) c->bytes;
    MPI_Comm_size(node, &ns);
    memset(g, 0, sizeof(*g));
    if (me == agg) {
        g->npieces = ADIOI_Malloc(4 * ns * sizeof(int));
        g->pdispl = g->npieces + ns;
        g->nbytes = g->pdispl + ns;
        g->bdispl = g->nbytes + ns;
    }
    MPI_Gather(&n, 1, MPI_INT, g->npieces, 1, MPI_INT, agg, node);
    MPI_Gather(&nb, 1, MPI_INT, g->nbytes, 1, MPI_INT, agg, node);
    if (me == agg) {
        displs(g->npieces, g->pdispl, ns);
        displs(g->nbytes, g->bdispl, ns);
        g->total = g->pdispl[ns - 1] + g->npieces[ns - 1];
        g->total_bytes = (int64_t) g->bdispl[ns - 1] + g->nbytes[ns - 1];
        g->offs = ADIOI_Malloc((2 * (size_t) g->total + 1) * sizeof(ADIO_Offset));
        g->lens = g->offs + g->total;
    }
    MPI_Gatherv(c->offs, n, ADIO_OFFSET, g->offs, g->npieces, g->pdispl, ADIO_OFFSET, agg, node);
    MPI_Gatherv(c->lens, n, ADIO_OFFSET, g->lens, g->npieces, g->pdispl, ADIO_OFFSET, agg, node);
}

static void free_gather(struct orth_gather *g)
{
    if (g->npieces)
        ADIOI_Free(g->npieces);
    if (g->offs)
        ADIOI_Free(g->offs);
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
    ADIO_Offset run_off = 0, run_end = -1;
    for (int i = 0; i < g->total; i++) {
        if (p[i].off > run_end) {       /* a hole (or the first piece): new run */
            base += run_end - run_off;
            run_off = p[i].off;
            run_end = p[i].off;
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

/* the aggregator's part: stream holds the node's bytes in gather order */
static void aggregate(ADIO_File fd, const struct orth_gather *g, char *stream, int is_write,
                      int *err)
{
    struct orth_piece *p = ADIOI_Malloc((g->total + 1) * sizeof(*p));
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

static void agree_error(ADIO_File fd, int *err)
{
    int mine = *err != MPI_SUCCESS, any = 0;
    MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, fd->comm);
    if (any && !mine)
        *err = MPI_ERR_IO;
}

void orth_core_first(struct orth_call *c, int *err)
{
    struct orth_state *st = xt_slot_of(c->fd, &orth_layer)->state;
    MPI_Comm node = st->node;
    int me, pos = 0, nb = (int) c->bytes;
    struct orth_gather g;
    MPI_Comm_rank(node, &me);
    *err = MPI_SUCCESS;
    int agg = pick_aggregator(node, c->bytes);
    gather_pieces(c, node, agg, me, &g);
    char *mine = ADIOI_Malloc(nb + 1), *stream = me == agg ? ADIOI_Malloc(g.total_bytes + 1) : NULL;
    if (c->is_write) {
        MPI_Pack(c->buf, c->count, c->dt, mine, nb, &pos, MPI_COMM_SELF);
        MPI_Gatherv(mine, nb, MPI_BYTE, stream, g.nbytes, g.bdispl, MPI_BYTE, agg, node);
    }
    if (me == agg)
        aggregate(c->fd, &g, stream, c->is_write, err);
    if (!c->is_write) {
        MPI_Scatterv(stream, g.nbytes, g.bdispl, MPI_BYTE, mine, nb, MPI_BYTE, agg, node);
        MPI_Unpack(mine, nb, &pos, c->buf, c->count, c->dt, MPI_COMM_SELF);
    }
    ADIOI_Free(mine);
    if (stream)
        ADIOI_Free(stream);
    free_gather(&g);
    agree_error(c->fd, err);
    c->fd->fp_ind = c->end_fp;
    c->fd->fp_sys_posn = -1;
#ifdef HAVE_STATUS_SET_BYTES
    if (c->status)
        MPIR_Status_set_bytes(c->status, c->dt, c->bytes);
#endif
}

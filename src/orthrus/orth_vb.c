/* romio-xt Orthrus view_based: one collective call.  Every rank publishes
 * the interval [s0, s1) of its view's data stream the call covers (plus its
 * file hull and whether writes bypassed the cache); then, round by round,
 * each aggregator serves one of its domain blocks: ranks and aggregator both
 * map the block's bounds through the rank's view, so the counts of the
 * all-to-all are known on both sides without any exchange; the aggregator
 * describes each rank's pieces in the block as one datatype, so the bytes go
 * straight between the rank's stream and the block.  The aggregator keeps
 * the block in its cache; with
 * write-behind written blocks stay dirty there (and each rank logs its own
 * data, orth_vb_log.c), else they go to the file before the call returns. */
#include "orth_vb.h"

#include <stdlib.h>
#include <string.h>

enum { I_S0, I_S1, I_FLO, I_FHI, I_NRG, I_FOREIGN, I_LOG, I_N };

struct vb_run {
    struct orth_call *c;
    struct orth_vb *vb;
    int64_t *iv;                /* I_N per rank */
    char *stream;               /* this rank's data, packed, in view order */
    int *sc, *sd;               /* this rank's part of the stream per rank */
    /* the aggregator's pieces in a round: offset in the block, length */
    ADIO_Offset *pc;
    int npc, cpc;
    int *pstart;                /* pieces of rank p: pc entries pstart[p] .. pstart[p + 1] */
};

static void add_piece(void *arg, ADIO_Offset off, ADIO_Offset len, ADIO_Offset spos)
{
    struct vb_run *r = arg;
    (void) spos;                /* the pieces come in stream order */
    if (r->npc == r->cpc) {
        r->cpc = r->cpc ? 2 * r->cpc : 64;
        r->pc = r->pc ? ADIOI_Realloc(r->pc, 2 * (size_t) r->cpc * sizeof(ADIO_Offset))
            : ADIOI_Malloc(2 * (size_t) r->cpc * sizeof(ADIO_Offset));
    }
    ADIO_Offset *p = r->pc + 2 * r->npc++;
    p[0] = off;
    p[1] = len;
}

/* [s0, s1) of this rank, its file hull, and the same of every rank */
static void intervals(struct vb_run *r)
{
    struct orth_call *c = r->c;
    struct orth_vb *vb = r->vb;
    int64_t me[I_N];
    me[I_S0] = c->fpt == ADIO_EXPLICIT_OFFSET ? c->off * c->fd->etype_size
        : vb_vpos(&vb->mine, c->orig_fp);
    me[I_S1] = me[I_S0] + c->bytes;
    me[I_FLO] = c->bytes ? vb_foff(&vb->mine, me[I_S0]) : INT64_MAX;
    me[I_FHI] = c->bytes ? vb_foff(&vb->mine, me[I_S1] - 1) + 1 : -1;
    me[I_NRG] = vb->nrg;
    me[I_FOREIGN] = vb->foreign;
    me[I_LOG] = vb->wb && c->is_write ? vb->log_bytes + c->bytes : 0;
    r->iv = ADIOI_Malloc((size_t) I_N * vb->nprocs * sizeof(int64_t));
    MPI_Allgather(me, I_N, MPI_INT64_T, r->iv, I_N, MPI_INT64_T, c->fd->comm);
}

/* the stream segment of view v in [lo, hi), clipped to [s0, s1) */
static ADIO_Offset segment(const struct vb_view *v, const int64_t *iv, ADIO_Offset lo,
                           ADIO_Offset hi, ADIO_Offset *x)
{
    ADIO_Offset a = vb_vpos(v, lo), b = vb_vpos(v, hi);
    *x = a > iv[I_S0] ? a : iv[I_S0];
    b = b < iv[I_S1] ? b : iv[I_S1];
    return b > *x ? b - *x : 0;
}

/* aggregator a's block in the round starting at block b0 */
static int64_t block_of(const struct orth_vb *vb, int64_t b0, int a)
{
    return b0 + ((a - b0 % vb->naggs) + vb->naggs) % vb->naggs;
}

/* the sender's counts: a contiguous part of its stream per aggregator */
static void sender_counts(struct vb_run *r, int64_t b0)
{
    struct orth_vb *vb = r->vb;
    const int64_t *me = r->iv + I_N * xt_file(r->c->fd)->rank;
    memset(r->sc, 0, 2 * vb->nprocs * sizeof(int));
    for (int a = 0; a < vb->naggs && r->c->bytes; a++) {
        ADIO_Offset lo = block_of(vb, b0, a) * vb->unit, x;
        ADIO_Offset n = segment(&vb->mine, me, lo, lo + vb->unit, &x);
        r->sc[vb->aggs[a]] = (int) n;
        r->sd[vb->aggs[a]] = n ? (int) (x - me[I_S0]) : 0;
    }
}

/* the aggregator's pieces of block blk, rank by rank */
static void receiver_plan(struct vb_run *r, int64_t blk)
{
    struct orth_vb *vb = r->vb;
    ADIO_Offset lo = blk * vb->unit, x;
    r->npc = 0;
    for (int p = 0; p < vb->nprocs; p++) {
        const int64_t *iv = r->iv + I_N * p;
        ADIO_Offset n = vb->myagg < 0 || iv[I_S1] <= iv[I_S0] ? 0
            : segment(&vb->views[p], iv, lo, lo + vb->unit, &x);
        r->pstart[p] = r->npc;
        if (n)
            vb_pieces(&vb->views[p], x, x + n, add_piece, r);
    }
    r->pstart[vb->nprocs] = r->npc;
    for (int i = 0; i < r->npc; i++)
        r->pc[2 * i] -= lo;
}

/* a read of block b's pieces: served from the cache, or the hull (the whole
 * block with romio_vb_prefetch) read from the file first */
static void fill_block(struct vb_run *r, struct vb_block *b, int *err)
{
    ADIO_File fd = r->c->fd;
    ADIO_Offset lo = r->vb->unit, hi = 0;
    int hit = 1;
    for (int i = 0; i < r->npc; i++) {
        ADIO_Offset *p = r->pc + 2 * i;
        hit &= vb_ivl_covers(&b->valid, p[0], p[0] + p[1]);
        lo = p[0] < lo ? p[0] : lo;
        hi = p[0] + p[1] > hi ? p[0] + p[1] : hi;
    }
    xt_count(fd, XT_LAYER_orth, hit ? VB_C_HITS : VB_C_MISSES, 1);
    if (hit)
        return;
    if (r->vb->prefetch) {
        xt_count(fd, XT_LAYER_orth, VB_C_PREFETCHED, r->vb->unit - (hi - lo));
        lo = 0;
        hi = r->vb->unit;
    }
    vb_block_flush(fd, r->vb, b, VB_F_READ_MISS, err);
    ADIO_Status st;
    ADIO_Offset pair[2] = { lo, hi };
    memset(b->buf + lo, 0, hi - lo);    /* beyond the end of the file */
    ADIO_ReadContig(fd, b->buf + lo, (int) (hi - lo), MPI_BYTE, ADIO_EXPLICIT_OFFSET,
                    b->blk * r->vb->unit + lo, &st, err);
    if (*err == MPI_SUCCESS)
        vb_ivl_add(&b->valid, pair, 1);
}

/* the aggregator's block of this round (a read's pieces filled), or NULL */
static struct vb_block *round_block(struct vb_run *r, int64_t blk, int *err)
{
    if (r->npc == 0)
        return NULL;
    struct vb_block *b = vb_block_get(r->c->fd, r->vb, blk, 1, err);
    if (!r->c->is_write)
        fill_block(r, b, err);
    return b;
}

/* rank p's pieces in the block as one datatype (count 1), so the exchange
 * moves them straight between the block and the rank's stream: no copy
 * through a round buffer (two_phase's derived-datatype exchange does the
 * same) */
static void piece_types(struct vb_run *r, MPI_Datatype *t, int *cnt)
{
    for (int p = 0; p < r->vb->nprocs; p++) {
        int n = r->pstart[p + 1] - r->pstart[p];
        t[p] = MPI_BYTE;
        cnt[p] = n ? 1 : 0;
        if (!n)
            continue;
        int *len = ADIOI_Malloc((size_t) n * sizeof(int));
        MPI_Aint *off = ADIOI_Malloc((size_t) n * sizeof(MPI_Aint));
        for (int i = 0; i < n; i++) {
            const ADIO_Offset *q = r->pc + 2 * (r->pstart[p] + i);
            off[i] = (MPI_Aint) q[0];
            len[i] = (int) q[1];
        }
        MPI_Type_create_hindexed(n, len, off, MPI_BYTE, &t[p]);
        MPI_Type_commit(&t[p]);
        ADIOI_Free(len);
        ADIOI_Free(off);
    }
}

/* a write's pieces are in the block: valid and dirty */
static void mark_written(struct vb_run *r, struct vb_block *b)
{
    ADIO_Offset *pairs = ADIOI_Malloc(2 * (size_t) r->npc * sizeof(ADIO_Offset));
    for (int i = 0; i < r->npc; i++) {
        pairs[2 * i] = r->pc[2 * i];
        pairs[2 * i + 1] = r->pc[2 * i] + r->pc[2 * i + 1];
    }
    vb_ivl_add(&b->valid, pairs, r->npc);
    vb_ivl_add(&b->dirty, pairs, r->npc);
    ADIOI_Free(pairs);
}

/* does any rank's file hull meet [lo, hi)? */
static int round_used(const struct vb_run *r, ADIO_Offset lo, ADIO_Offset hi)
{
    for (int p = 0; p < r->vb->nprocs; p++)
        if (r->iv[I_N * p + I_FLO] < hi && r->iv[I_N * p + I_FHI] > lo)
            return 1;
    return 0;
}

static void round_at(struct vb_run *r, int64_t b0, int *err)
{
    struct orth_vb *vb = r->vb;
    int np = vb->nprocs;
    MPI_Comm comm = r->c->fd->comm;
    int64_t blk = vb->myagg >= 0 ? block_of(vb, b0, vb->myagg) : -1;
    sender_counts(r, b0);
    receiver_plan(r, blk);
    struct vb_block *b = round_block(r, blk, err);
    MPI_Datatype *bt = ADIOI_Malloc(2 * (size_t) np * sizeof(MPI_Datatype)), *by = bt + np;
    int *cnt = ADIOI_Calloc(2 * (size_t) np, sizeof(int)), *zero = cnt + np;
    piece_types(r, bt, cnt);
    for (int p = 0; p < np; p++)
        by[p] = MPI_BYTE;
    char *blkbuf = b ? b->buf : NULL;
    if (r->c->is_write) {
        MPI_Alltoallw(r->stream, r->sc, r->sd, by, blkbuf, cnt, zero, bt, comm);
        if (b)
            mark_written(r, b);
    } else
        MPI_Alltoallw(blkbuf, cnt, zero, bt, r->stream, r->sc, r->sd, by, comm);
    for (int p = 0; p < np; p++)
        if (cnt[p])
            MPI_Type_free(&bt[p]);
    ADIOI_Free(bt);
    ADIOI_Free(cnt);
}

/* before the rounds: the ranks' independent writes reach the cache, and a
 * rank whose log would outgrow romio_vb_cache_size has everything settled */
static void catch_up(struct vb_run *r, int *err)
{
    struct orth_vb *vb = r->vb;
    int64_t foreign = 0, log = 0;
    for (int p = 0; p < vb->nprocs; p++) {
        const int64_t *iv = r->iv + I_N * p;
        foreign += iv[I_FOREIGN];
        log = iv[I_LOG] > log ? iv[I_LOG] : log;
    }
    vb_share_ranges(r->c->fd, vb, r->iv + I_NRG, I_N);
    vb->foreign = 0;
    if (foreign)                /* the file changed behind the cache */
        vb_drop_clean(r->c->fd, vb);
    if (log > vb->log_max && vb->dirty) {
        int e = MPI_SUCCESS;
        vb->in_call = 0;
        vb_settle(r->c->fd, vb, VB_F_LOG_FULL, &e);
        vb->in_call = 1;
        *err = *err == MPI_SUCCESS ? e : *err;
    }
}

/* without a striping_unit, the first call that moves data sizes the blocks
 * so that its extent spreads over all aggregators (a 16 MiB block holding a
 * whole 10 MB call left one aggregator idle in every call); the pool holds
 * no block yet, so it is only sized again */
static void first_unit(ADIO_File fd, struct orth_vb *vb, int64_t flo, int64_t fhi)
{
    if (!vb->unit_auto || fhi <= flo)
        return;
    vb->unit_auto = 0;
    ADIO_Offset unit = orth_vb_unit(flo, fhi, vb->naggs, vb->unit);
    if (unit == vb->unit)
        return;
    vb->unit = unit;
    if (vb->myagg >= 0) {
        vb_pool_free(vb);
        vb_pool_init(fd, vb);
    }
}

static void run_rounds(struct vb_run *r, int *err)
{
    struct orth_vb *vb = r->vb;
    int64_t flo = INT64_MAX, fhi = -1;
    for (int p = 0; p < vb->nprocs; p++) {
        const int64_t *iv = r->iv + I_N * p;
        flo = iv[I_FLO] < flo ? iv[I_FLO] : flo;
        fhi = iv[I_FHI] > fhi ? iv[I_FHI] : fhi;
    }
    first_unit(r->c->fd, vb, flo, fhi);
    catch_up(r, err);
    if (r->c->is_write && vb->wb && fhi > vb->eof)
        vb->eof = fhi;
    if (fhi < 0)
        return;
    for (int64_t b0 = flo / vb->unit; b0 <= (fhi - 1) / vb->unit; b0 += vb->naggs)
        if (round_used(r, b0 * vb->unit, (b0 + vb->naggs) * vb->unit))
            round_at(r, b0, err);
}

/* do the processes' file ranges interleave?  ROMIO's own test (rank order,
 * inclusive ends; ad_write_coll.c): where they do not, stock two-phase
 * lets every process access its part itself, without moving data, and
 * view_based does the same by running it (romio_cb_write/read=enable
 * forces the exchange, as in stock) */
static int interleaved(const struct vb_run *r)
{
    ADIO_File fd = r->c->fd;
    int cb = r->c->is_write ? fd->hints->cb_write : fd->hints->cb_read;
    if (cb == ADIOI_HINT_ENABLE)
        return 1;
    for (int p = 1; p < r->vb->nprocs; p++) {
        const int64_t *prev = r->iv + I_N * (p - 1), *cur = r->iv + I_N * p;
        if (cur[I_FHI] > cur[I_FLO] && cur[I_FLO] < prev[I_FHI] - 1)
            return 1;
    }
    return 0;
}

void orth_view_based(struct orth_call *c, int *err)
{
    struct orth_vb *vb = vb_of(c->fd);
    *err = MPI_SUCCESS;
    vb_bg_quiesce(c->fd, vb);
    if (vb->stale)
        vb_exchange(c->fd, vb, 1);
    if (vb->fallback) {
        vb_other_call(c->fd, c->is_write);
        orth_two_phase(c, err);
        return;
    }
    struct vb_run r = {.c = c,.vb = vb };
    int np = vb->nprocs, nb = (int) c->bytes, pos = 0;
    r.sc = ADIOI_Calloc(3 * (size_t) np + 1, sizeof(int));
    r.sd = r.sc + np;
    r.pstart = r.sd + np;
    vb->in_call = 1;
    intervals(&r);
    if (!interleaved(&r)) {
        vb->in_call = 0;
        ADIOI_Free(r.iv);
        ADIOI_Free(r.sc);
        vb_other_call(c->fd, c->is_write);
        orth_two_phase(c, err);
        return;
    }
    /* the user's buffer itself when it is contiguous, else a packed copy */
    r.stream = vb_packed(c->buf, c->count, c->dt, nb, c->is_write);
    int contig = r.stream == c->buf;
    run_rounds(&r, err);
    if (c->is_write && vb->wb) {
        vb_log_add(vb, r.iv[I_N * xt_file(c->fd)->rank + I_S0],
                   r.iv[I_N * xt_file(c->fd)->rank + I_S1], r.stream);
        vb->dirty = 1;
        vb_bg_kick(c->fd, vb);
    } else if (c->is_write)
        vb_flush_all(c->fd, vb, VB_F_CALL_END, err);
    else if (!contig)
        MPI_Unpack(r.stream, nb, &pos, c->buf, c->count, c->dt, MPI_COMM_SELF);
    vb->in_call = 0;
    if (!contig)
        ADIOI_Free(r.stream);
    ADIOI_Free(r.iv);
    VB_FREE(r.pc);
    ADIOI_Free(r.sc);
    /* its agreement on errors (an all-reduce) also keeps every rank from
     * going on (to an independent write, say) while an aggregator may still
     * write an older dirty block of this call */
    orth_finish(c, err);
}

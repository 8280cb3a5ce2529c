/* romio-xt Orthrus: the layer.  Overrides ReadStridedColl and
 * WriteStridedColl; every other operation (independent I/O included) goes
 * to the layer below untouched. */
#include "orth_vb.h"

#include <stdio.h>
#include <string.h>

/* bigger calls always run stock two-phase (a rank's packed bytes are an int count) */
#define ORTH_MAX_BYTES (1LL << 30)

/* calls that stay with the stock routine, unexamined: the same on all ranks */
static int stock_only(ADIO_File fd, int is_write)
{
    int cb = is_write ? fd->hints->cb_write : fd->hints->cb_read;
    return cb == ADIOI_HINT_DISABLE || fd->hints->deferred_open || fd->atomicity;
}

/* this rank's pieces, and the signature from the call's one reduction (which
 * also settles the previous call: its slowest time, the ranks' agreement) */
static void describe(struct orth_call *c, struct orth_sig *sig)
{
    struct orth_state *st = c->st;
    ADIO_Offset start, end;
    int64_t loc[ORTH_R_N] = { 0 }, sum[ORTH_R_N];
    c->orig_fp = c->fd->fp_ind;
    ADIOI_Calc_my_off_len(c->fd, c->count, c->dt, c->fpt, c->off, &c->offs, &c->lens,
                          &start, &end, &c->n);
    c->end_fp = c->fd->fp_ind;
    c->fd->fp_ind = c->orig_fp;
    ADIO_Offset prev_end = -1;
    for (int i = 0; i < c->n; i++) {
        if (c->lens[i] <= 0)
            continue;
        if (prev_end >= 0)
            loc[ORTH_R_GAPS] += c->offs[i] - prev_end;  /* gap to the previous piece */
        prev_end = c->offs[i] + c->lens[i];
        loc[ORTH_R_NREQS]++;
        loc[ORTH_R_BYTES] += c->lens[i];
    }
    c->bytes = loc[ORTH_R_BYTES];
    loc[ORTH_R_NPROCS] = loc[ORTH_R_BYTES] > 0;
    orth_fill_record(st, loc);
    MPI_Allreduce(loc, sum, 1, st->rec, st->op, c->fd->comm);
    orth_settle(c->fd, st, sum);
    sig->is_write = c->is_write;
    sig->nprocs = sum[ORTH_R_NPROCS];
    sig->nreqs = sum[ORTH_R_NREQS];
    sig->bytes = sum[ORTH_R_BYTES];
    sig->rel_offset = sig->nreqs > sig->nprocs ?
        sum[ORTH_R_GAPS] / (sig->nreqs - sig->nprocs) : 0;
}

/* core_first where every node holds one process is independent I/O: each
 * process accesses its own pieces, one system call each, where two_phase's
 * aggregators merge the processes' pieces.  Measured here with pieces below
 * this size on average: 3x two_phase's time at 64 B (write and read), 2x for
 * 256 B writes; from 1 KiB on it can win (docs/results/orthrus-predict-s7.md),
 * so below it its trial is skipped. */
#define ORTH_MIN_PIECE 1024

/* 1 when the view predicts that candidate c (orth_cands index) loses by more
 * than the drop rule (only under the regret bound: budget 0 examines every
 * candidate); may make the node communicator (collective: called on every
 * rank for the same agreed trial) */
static int predicted_slow(ADIO_File fd, struct orth_state *st, const struct orth_sig *sig,
                          int c)
{
    int nprocs;
    if (st->sel.budget <= 0 || c != ORTH_core_first || sig->bytes >= ORTH_MIN_PIECE * sig->nreqs)
        return 0;
    orth_nodes(fd, st);
    MPI_Comm_size(fd->comm, &nprocs);
    return st->nnodes == nprocs;
}

/* the candidate (orth_cands index) for this call, and its selection entry;
 * a trial the view predicts to lose is skipped when it is due */
static int choose(ADIO_File fd, struct orth_state *st, const struct orth_sig *sig,
                  struct orth_entry **e)
{
    *e = NULL;
    if (sig->bytes == 0 || sig->bytes > ORTH_MAX_BYTES)
        return -1;
    if (st->forced >= 0)
        return st->forced;
    *e = orth_sel_entry(&st->sel, sig);
    for (int k = 0; k < st->sel.ncand && (*e)->phase == ORTH_EXAMINING &&
         (*e)->cur != st->sel.home && orth_sel_pick(*e) == (*e)->cur &&
         predicted_slow(fd, st, sig, st->rotation[(*e)->cur]); k++)
        orth_sel_skip(&st->sel, *e, (*e)->cur);
    return st->rotation[orth_sel_pick(*e)];
}

static void run_call(ADIO_File fd, struct orth_call *c, int *err)
{
    struct orth_state *st = c->st;
    struct orth_sig sig;
    struct orth_entry *e;
    describe(c, &sig);
    st->ncalls++;
    int cand = choose(fd, st, &sig, &e);
    if (c->is_write && (cand < 0 || orth_cands[cand].run != orth_view_based))
        vb_bypassed_write(fd, 1);
    if (cand < 0) {
        st->bypassed++;
        orth_two_phase(c, err);
        return;
    }
    st->runs[cand]++;
    /* the layers below (e.g. e10_cache) see a collective call they do not run */
    struct xt_coll xc = {.count = c->count,.dt = c->dt,.fpt = c->fpt,.off = c->off,
        .is_write = c->is_write
    };
    int own = orth_cands[cand].run != orth_two_phase;
    /* their first-use setup (made lazily, collective) is not timed as the call:
     * the node communicator, and view_based's first view exchange in the file
     * (later ones, after a new view, are part of their call) */
    if (cand == ORTH_core_first || cand == ORTH_disk_first)
        orth_nodes(fd, c->st);
    if (cand == ORTH_view_based && st->runs[cand] == 1 && vb_of(fd)->stale)
        vb_exchange(fd, vb_of(fd), 1);
    if (own)
        xt_coll_notify(fd, XT_LAYER_orth, &xc, 0);
    double t0 = xt_now();
    orth_cands[cand].run(c, err);
    if (own)
        xt_coll_notify(fd, XT_LAYER_orth, &xc, 1);
    if (!e)
        return;
    /* timed now, recorded when the next call (or the close) reduces it */
    st->pend = (struct orth_pending) {.active = 1,.e = e,.pick = orth_sel_pick(e),
        .bytes = (double) sig.bytes,.t_end = xt_now(),.no = st->ncalls
    };
    st->pend.t_local = st->pend.t_end - t0;
}

static void coll(ADIO_File fd, void *buf, int count, MPI_Datatype dt, int fpt,
                 ADIO_Offset off, ADIO_Status *status, int *err, int is_write)
{
    struct orth_call c = {.fd = fd,.buf = buf,.count = count,.dt = dt,.fpt = fpt,
        .off = off,.status = status,.is_write = is_write,.orig_fp = fd->fp_ind,
        .st = xt_state(fd, XT_LAYER_orth),.lower = xt_lower(fd, XT_LAYER_orth)
    };
    if (stock_only(fd, is_write)) {
        if (is_write)
            vb_bypassed_write(fd, 1);
        orth_two_phase(&c, err);
        return;
    }
    run_call(fd, &c, err);
    ADIOI_Free(c.offs);
}

static void ADIOI_ORTH_WriteStridedColl(ADIO_File fd, const void *buf, int count,
                                        MPI_Datatype dt, int fpt, ADIO_Offset off,
                                        ADIO_Status *status, int *err)
{
    coll(fd, (void *) buf, count, dt, fpt, off, status, err, 1);
}

static void ADIOI_ORTH_ReadStridedColl(ADIO_File fd, void *buf, int count, MPI_Datatype dt,
                                       int fpt, ADIO_Offset off, ADIO_Status *status, int *err)
{
    coll(fd, buf, count, dt, fpt, off, status, err, 0);
}

static const ADIOI_Fns orth_ops = {
    .ADIOI_xxx_ReadStridedColl = ADIOI_ORTH_ReadStridedColl,
    .ADIOI_xxx_WriteStridedColl = ADIOI_ORTH_WriteStridedColl,
    /* view_based's consistency guards (orth_vb_layer.c) */
    .ADIOI_xxx_WriteContig = vb_WriteContig,
    .ADIOI_xxx_WriteStrided = vb_WriteStrided,
    .ADIOI_xxx_IwriteContig = vb_IwriteContig,
    .ADIOI_xxx_IwriteStrided = vb_IwriteStrided,
    .ADIOI_xxx_Flush = vb_Flush,
    .ADIOI_xxx_Resize = vb_Resize,
    .ADIOI_xxx_Fcntl = vb_Fcntl,
};

/* another layer wrote the file directly */
static void orth_wrote(ADIO_File fd, void *state, ADIO_Offset off, ADIO_Offset len)
{
    (void) state;
    (void) off;
    (void) len;
    vb_bypassed_write(fd, 0);
}

static int orth_wanted(const struct xt_file *xf)
{
    return xf->hints[XT_H_ORTH].i == XT_H_ORTH_enable ||
        xf->hints[XT_H_ORTH_FORCE].i != XT_H_ORTH_FORCE_none;
}

const struct xt_layer orth_layer = {
    .name = "orthrus",
    .wanted = orth_wanted,
    .ops = &orth_ops,
    .state_size = sizeof(struct orth_state),
    .open = orth_open,
    .close = orth_close,
    .report = orth_report,
    .counters = vb_counter_names,
    .ncounters = VB_NCOUNTERS,
    .wrote = orth_wrote,
    .view = vb_set_view,
    .direct_io_ok = 1,          /* view_based's cache holds nothing the file lacks between calls */
};

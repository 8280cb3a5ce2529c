/* romio-xt Orthrus: the layer.  Overrides ReadStridedColl and
 * WriteStridedColl; every other operation (independent I/O included) goes
 * to the layer below untouched. */
#include "orth.h"
#include "orth_counters.h"

#include <stdio.h>
#include <string.h>


/* calls that stay with the stock routine, unexamined: the same on all ranks */
static int stock_only(ADIO_File fd, int is_write)
{
    int cb = is_write ? fd->hints->cb_write : fd->hints->cb_read;
    return cb == ADIOI_HINT_DISABLE || fd->hints->deferred_open || fd->atomicity;
}

/* d's description from c's listed pieces */
static void sum_pieces(const struct orth_call *c, struct orth_desc *d)
{
    ADIO_Offset prev_end = -1;
    d->nreqs = d->bytes = d->gaps = 0;
    for (int i = 0; i < c->n; i++) {
        if (c->lens[i] <= 0)
            continue;
        if (prev_end >= 0)
            d->gaps += c->offs[i] - prev_end;   /* gap to the previous piece */
        prev_end = c->offs[i] + c->lens[i];
        d->nreqs++;
        d->bytes += c->lens[i];
    }
}

/* d's key for call c, and the call's *base (orth_desc.h); 0 when the call
 * is not cached: a contiguous filetype (one piece, listed at no cost) or
 * a call without a place in the view */
static int key_of(const struct orth_call *c, struct orth_desc *d, int64_t *base)
{
    ADIO_File fd = c->fd;
    int contig;
    MPI_Count ft_size, dt_size;
    MPI_Aint lb, ext;
    ADIOI_Datatype_iscontig(fd->filetype, &contig);
    if (contig || c->st->desc_mode == ORTH_DESC_LIST)
        return 0;
    MPI_Type_size_x(fd->filetype, &ft_size);
    MPI_Type_get_extent(fd->filetype, &lb, &ext);
    MPI_Type_size_x(c->dt, &dt_size);
    if (ft_size <= 0)
        return 0;
    ADIOI_Flatlist_node *flat = xt_flatten(fd->filetype);
    d->geom = (struct orth_geom) {.disp = fd->disp,.etype = fd->etype_size,.ft_size = ft_size,
        .ft_extent = ext,.first = flat->indices[0]
    };
    d->gen = c->st->view_gen;
    d->indiv = c->fpt == ADIO_INDIVIDUAL;
    d->size = (int64_t) c->count * dt_size;
    return orth_desc_place(&d->geom, d->indiv, c->orig_fp, c->off, &d->phase, base);
}

/* a cached description that differs from the listing (ORTH_DESC_CHECK) */
static void check_hit(const struct orth_call *c, const struct orth_desc *hit,
                      const struct orth_desc *d)
{
    if (hit->nreqs == d->nreqs && hit->bytes == d->bytes && hit->gaps == d->gaps &&
        (!d->indiv || hit->end_rel == d->end_rel))
        return;
    fprintf(stderr, "romio-xt: orthrus: cached description differs from the listing "
            "(%lld/%lld pieces, %lld/%lld gaps, %lld/%lld end)\n", (long long) hit->nreqs,
            (long long) d->nreqs, (long long) hit->gaps, (long long) d->gaps,
            (long long) hit->end_rel, (long long) d->end_rel);
    MPI_Abort(c->fd->comm, 1);
}

/* this rank's description of call c and c->end_fp, c->bytes: from the cache
 * when its view and place were seen before, else from its pieces, listed */
static void local_desc(struct orth_call *c, struct orth_desc *d)
{
    struct orth_desc_cache *cache = &c->st->desc;
    int64_t base = 0;
    int keyed = key_of(c, d, &base);
    const struct orth_desc *hit = keyed ? orth_desc_find(cache, d) : NULL;
    if (hit && c->st->desc_mode != ORTH_DESC_CHECK) {
        *d = *hit;
        cache->hits++;
        c->end_fp = d->indiv ? d->geom.disp + base + d->end_rel : c->orig_fp;
        c->bytes = d->bytes;
        return;
    }
    orth_pieces(c);
    sum_pieces(c, d);
    /* freed at once (a candidate that needs them lists them again): kept
     * through the call they sat in the heap under stock two_phase's own
     * buffers, and glibc then trimmed and re-faulted those every call
     * (Noncontig 2r/2n writes: 0.86x stock, page faults in
     * ADIOI_W_Exchange_data; freed here: 1.00x) */
    ADIOI_Free(c->offs);
    c->offs = c->lens = NULL;
    c->bytes = d->bytes;
    d->end_rel = c->end_fp - d->geom.disp - base;
    if (hit)
        check_hit(c, hit, d);
    if (keyed && !hit)
        orth_desc_put(cache, d);
    cache->misses += keyed && !hit;
}

/* the call's description into its reduction record */
static void desc_record(const struct orth_desc *d, int64_t *loc)
{
    loc[ORTH_R_GAPS] = d->gaps;
    loc[ORTH_R_NREQS] = d->nreqs;
    loc[ORTH_R_BYTES] = d->bytes;
    loc[ORTH_R_NPROCS] = d->bytes > 0;
}

/* a process about to describe a call first checks that what the
 * candidates' exchange needs of it (its part up to a collective buffer, its
 * request list) can be allocated; the test hook ROMIO_XT_TEST_ALLOC_FAIL
 * reaches it (xt_can_alloc) */
static int lacks_memory(const struct orth_call *c, const struct orth_desc *d)
{
    int64_t cb = c->fd->hints->cb_buffer_size > 0 ? c->fd->hints->cb_buffer_size : 1 << 24;
    int64_t want = (d->bytes < cb ? d->bytes : cb) + 3 * 8 * (int64_t) d->nreqs;
    return !xt_can_alloc((size_t) want);
}

/* the signature from the call's reduction (which also settles the previous
 * call and the quiet run's calls: their slowest times, the ranks' agreement);
 * returns nonzero when a process lacks the call's working memory: the same
 * answer on every process, from the same reduction */
static int describe(struct orth_call *c, struct orth_sig *sig)
{
    struct orth_state *st = c->st;
    struct orth_desc d = { 0 };
    int64_t sum[ORTH_R_N];
    local_desc(c, &d);
    desc_record(&d, st->quiet.recs[0]);
    st->nomem = lacks_memory(c, &d);
    if (st->nomem)
        xt_warn(c->fd, XT_WARN_SELF, "orthrus: rank %d: out of memory for a collective "
                "call's exchange; every process runs such a call with ROMIO's two-phase",
                xt_file(c->fd)->rank);
    orth_reduce(c->fd, st, sum);
    st->nomem = 0;
    orth_sig_of(sum, c->is_write, sig);
    return sum[ORTH_R_ERR] != 0;
}

/* core_first where every node holds one process is independent I/O: each
 * process accesses its own pieces, one system call each, where two_phase's
 * aggregators merge the processes' pieces.  Measured here with pieces below
 * this size on average: 3x two_phase's time at 64 B (write and read), 2x for
 * 256 B writes; from 1 KiB on it can win (docs/orthrus.md),
 * so below it its trial is skipped.  disk_first too, on any layout: its
 * exchange handles every piece (cut, sorted, one block of a message each);
 * whole runs of Noncontig forced, against two_phase: 1.6x/2.4x (write/read)
 * at 64 B, 1.6x/1.8x at 256 B, 1.1x/0.9x at 1 KiB
 * (docs/orthrus.md). */
#define ORTH_MIN_PIECE 1024
/* Over a write-behind cache (e10_cache), a candidate that writes each
 * process's pieces (writes_pieces) has each piece copied to the file system
 * as a request of its own, after its trial has timed only the cache's
 * appends.  On the testbed's hdd profile (MooseFS), Noncontig's 1 KiB pieces
 * written by core_first left 8,748 cached extents whose copies took 4.9 s
 * against 0.5 s for two_phase's 48 (0.45x e10_cache alone).  Below this
 * average piece, such a write trial is predicted to lose. */
#define ORTH_HELD_MIN_PIECE (64 << 10)

/* the processes' bytes per process at or above which a pattern where each
 * process accesses one range (no gap between its pieces) is left to the
 * candidates that do not aggregate: every process already issues one large
 * request, and aggregation can only add copies and messages (IOR's 1 MiB
 * transfers, 2 ranks: forced view_based's first call took 0.5 s against
 * 2 ms per two_phase call; docs/orthrus.md) */
#define ORTH_ONE_RANGE (256 * 1024)

/* each process accesses one range of at least ORTH_ONE_RANGE bytes */
static int one_range(const struct orth_sig *sig)
{
    return sig->rel_offset == 0 && sig->nprocs > 0 &&
        sig->bytes >= ORTH_ONE_RANGE * sig->nprocs;
}

/* data sieving copies every piece and hole once more than a read of the
 * piece in place: from this average piece on the copies cost more than the
 * system calls they save (Matrix reads, 40 calls, 2 processes on /dev/shm,
 * whole phase forced independent / forced core_first: 0.8-1.15x at 16 KiB,
 * 1.3-1.5x at 64 KiB, 1.6-2.4x at 256 KiB) */
#define ORTH_SIEVE_MAX_PIECE (32 << 10)

/* a read whose pieces are neither small nor large and fill at least half of
 * each process's hull: data sieving reads the hull once, at most twice the
 * bytes, where two_phase moves most of them to an aggregator (Matrix 4 KiB
 * reads, 2 processes, 40 calls on /dev/shm: forced independent the fastest;
 * docs/orthrus.md) */
static int dense_read(const struct orth_sig *sig)
{
    int64_t piece = sig->nreqs ? sig->bytes / sig->nreqs : 0;
    return !sig->is_write && piece >= ORTH_MIN_PIECE && piece < ORTH_SIEVE_MAX_PIECE &&
        sig->rel_offset <= piece;
}

/* two_layer adds an exchange inside each node before the one between the
 * nodes: it can pay only where many processes per node would otherwise each
 * exchange with every aggregator.  A rule, not yet measured (the machine
 * here runs at most 4 processes): at least this many processes per node */
#define ORTH_TWO_LAYER_RPN 8

/* two nodes or more with ORTH_TWO_LAYER_RPN processes each on average, and
 * pieces not small (may make the node communicator: collective) */
static int many_per_node(ADIO_File fd, struct orth_state *st, const struct orth_sig *sig)
{
    int nprocs;
    orth_nodes(fd, st);
    MPI_Comm_size(fd->comm, &nprocs);
    return st->nnodes > 1 && nprocs >= ORTH_TWO_LAYER_RPN * st->nnodes &&
        sig->bytes >= ORTH_MIN_PIECE * sig->nreqs;
}

/* every node holds one process (may make the node communicator: collective,
 * called on every rank for the same agreed call) */
static int one_per_node(ADIO_File fd, struct orth_state *st)
{
    int nprocs;
    orth_nodes(fd, st);
    MPI_Comm_size(fd->comm, &nprocs);
    return st->nnodes == nprocs;
}

/* 1 when the view predicts that candidate c (orth_cands index) loses by more
 * than the drop rule (only under the regret bound: budget 0 examines every
 * candidate) */
static int predicted_slow(ADIO_File fd, struct orth_state *st, const struct orth_sig *sig,
                          int c)
{
    if (st->sel.budget <= 0)
        return 0;
    if (sig->is_write && st->held_below && orth_cands[c]->writes_pieces &&
        sig->bytes < ORTH_HELD_MIN_PIECE * sig->nreqs)
        return 1;
    if (c == ORTH_independent)  /* a strided write is data-sieved: read-modify-write of
                                 * its hull, other processes' bytes included, locked */
        return sig->is_write && sig->rel_offset > 0;
    if (c != ORTH_two_phase && one_range(sig))
        return 1;
    if (c == ORTH_two_layer)
        return !many_per_node(fd, st, sig);
    if (sig->bytes >= ORTH_MIN_PIECE * sig->nreqs)
        return 0;
    if (c != ORTH_core_first)
        return c == ORTH_disk_first;
    return one_per_node(fd, st);
}

/* 1 when the view forecasts candidate c no slower than two_phase: it
 * accesses each process's pieces where they are, with no exchange, where
 * two_phase moves most of the bytes to an aggregator: independent on one
 * range per process and on dense reads, core_first where every node holds
 * one process and the pieces are not small (orth_sel_forecast); and
 * two_layer on interleaved pieces from many processes per node
 * (many_per_node) */
static int forecast_fast(ADIO_File fd, struct orth_state *st, const struct orth_sig *sig,
                         int c)
{
    if (st->sel.budget <= 0)
        return 0;
    if (c == ORTH_independent)
        return one_range(sig) || dense_read(sig);
    if (c == ORTH_two_layer)    /* interleaved pieces: aggregation is needed */
        return sig->rel_offset > 0 && !one_range(sig) && many_per_node(fd, st, sig);
    return c == ORTH_core_first && sig->bytes >= ORTH_MIN_PIECE * sig->nreqs &&
        one_per_node(fd, st);
}

/* a call where each process accesses one range, while stock's collective
 * routine decides by itself (romio_cb_write/romio_cb_read automatic): stock
 * runs such a call independently, after gathering every process's range
 * (two MPI_Allgather in every call); the independent candidate is that path
 * without the gathers.  Examining the two measures noise: IOR-like writes on
 * /dev/shm, 2 ranks, two_phase kept most calls in 8 of 10 runs and enable
 * ran at 0.70-0.77x romio_cb_write=disable; IOR-like reads on the testbed's
 * hdd profile wait for home's I/O-bound reads and never tried independent,
 * which reads 1.22x stock there (docs/results/orthrus/short-jobs.md,
 * docs/testbed.md) */
static int stock_runs_independently(ADIO_File fd, const struct orth_state *st,
                                    const struct orth_sig *sig)
{
    int cb = sig->is_write ? fd->hints->cb_write : fd->hints->cb_read;
    return cb == ADIOI_HINT_AUTO && one_range(sig) && st->sel.budget > 0 &&
        st->sel.free >= 0 && st->rotation[st->sel.home] == ORTH_two_phase;
}

/* a new pattern's forecasts (orth_sel_forecast) */
static void forecast(ADIO_File fd, struct orth_state *st, struct orth_entry *e)
{
    for (int r = 0; r < st->sel.ncand; r++)
        if (r != st->sel.home && forecast_fast(fd, st, &e->sig, st->rotation[r]))
            orth_sel_forecast(&st->sel, e, r);
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
    if (orth_unexamined(st, sig))
        return -1;
    *e = orth_sel_entry(&st->sel, sig);
    /* the view decides a pattern's winner at its first call in the file,
     * also over one adopted from the job's memory or a saved table (a read
     * winner from there would first run home's calls, on probation) */
    if ((*e)->calls == 0 && !(*e)->decided && stock_runs_independently(fd, st, sig))
        orth_sel_decide(&st->sel, *e, st->sel.free);
    else if ((*e)->calls == 0 && !(*e)->exams && !(*e)->adopted)
        forecast(fd, st, *e);
    /* also while home runs the call (the trial waits for the budget or for
     * home's reads): a forecast candidate behind a predicted loser must not
     * wait for it */
    for (int k = 0; k < st->sel.ncand && (*e)->phase == ORTH_EXAMINING &&
         (*e)->cur != st->sel.home && predicted_slow(fd, st, sig, st->rotation[(*e)->cur]); k++)
        orth_sel_skip(&st->sel, *e, (*e)->cur);
    return st->rotation[orth_sel_pick(*e)];
}

/* the candidates that run a call without any reduction before it, when
 * forced: two_phase or independent (nothing to decide) */
static int runs_quietly(const struct orth_state *st)
{
    return st->forced == ORTH_two_phase || st->forced == ORTH_independent;
}

/* candidate cand (orth_cands index) runs call c; the layers below (e.g.
 * e10_cache) are told of a collective call they do not run themselves */
static void run_cand(ADIO_File fd, struct orth_call *c, int cand, int *err)
{
    int own = !orth_cands[cand]->stock;
    struct xt_coll xc = {.count = c->count,.dt = c->dt,.fpt = c->fpt,.off = c->off,
        .is_write = c->is_write
    };
    if (own)
        xt_coll_notify(fd, XT_LAYER_orth, &xc, 0);
    orth_cands[cand]->run(c, err);
    if (own)
        xt_coll_notify(fd, XT_LAYER_orth, &xc, 1);
}

/* a call of a quiet run (orth_sel_quiet), or of a file that forces
 * two_phase or independent: that candidate runs it without a reduction; a
 * quiet call's description and local time are kept for the run's reduction
 * (orth_reduce).  Returns 0 for a call that is neither. */
static int quiet_call(ADIO_File fd, struct orth_call *c, int *err)
{
    struct orth_state *st = c->st;
    struct orth_quiet *q = &st->quiet;
    if (!q->left && !runs_quietly(st))
        return 0;
    st->ncalls++;
    int cand = q->left ? st->rotation[q->cand] : st->forced;
    orth_cands_other(fd, cand, c->is_write);
    if (!q->left) {             /* forced: nothing to decide */
        st->runs[cand]++;
        run_cand(fd, c, cand, err);
        return 1;
    }
    struct orth_desc d = { 0 };
    int64_t *r = q->recs[1 + q->n];
    local_desc(c, &d);
    desc_record(&d, r);
    r[ORTH_R_CAND_MIN] = r[ORTH_R_CAND_MAX] = q->cand;
    r[ORTH_R_DIGEST_MIN] = r[ORTH_R_DIGEST_MAX] = q->digest;
    q->is_write[1 + q->n] = c->is_write;
    q->left--;
    st->quiet_calls++;
    double t0 = xt_now(), io0 = st->io;
    run_cand(fd, c, cand, err);
    q->t_end[1 + q->n] = xt_now();
    r[ORTH_R_TIME_NS] = (int64_t) ((q->t_end[1 + q->n] - t0) * 1e9);
    r[ORTH_R_IO_NS] = (int64_t) ((st->io - io0) * 1e9);
    q->n++;
    return 1;
}

/* after call c of entry e was chosen: the quiet run that follows it (run by
 * home when home is two_phase, or by a chosen winner that communicates
 * nothing: independent), or the riding run that starts at it (the chosen
 * winner is core_first or disk_first) */
static void start_quiet(struct orth_state *st, struct orth_entry *e, struct orth_call *c)
{
    struct orth_quiet *q = &st->quiet;
    int pick = orth_sel_pick(e), w = st->rotation[pick];
    int free = pick == st->sel.free && pick != st->sel.home;
    q->cand = free ? pick : st->sel.home;
    q->left = free || st->rotation[st->sel.home] == ORTH_two_phase ?
        orth_sel_quiet(&st->sel, e, ORTH_QUIET_MAX) : 0;
    q->first = st->ncalls + 1;
    q->digest = orth_sel_digest(&st->sel);
    if (orth_sel_ride(&st->sel, e) && (w == ORTH_core_first || w == ORTH_disk_first)) {
        q->ride = orth_sel_pick(e);
        q->ride_e = e;
        c->ride = ORTH_RIDE_FIRST;
        c->agree = orth_ride_end;
    }
}

/* a call of a riding run: its description for the record (reduced at its
 * end); a process whose part is too big for the candidate's exchange (an
 * int count) takes part in it with no data and accesses its part itself */
static int ride_on(struct orth_call *c, int *big)
{
    struct orth_state *st = c->st;
    struct orth_desc d = { 0 };
    local_desc(c, &d);
    desc_record(&d, st->quiet.recs[0]);
    c->ride = ORTH_RIDE_ON;
    c->agree = orth_ride_end;
    *big = d.bytes > st->big;
    st->ncalls++;
    return st->rotation[st->quiet.ride];
}

/* a big part of a riding call (ride_on): the candidate runs an empty call
 * (the file pointer stays), then this process's own access */
static void run_big(struct orth_call *c, int cand, int *err)
{
    struct orth_call none = *c;
    int err2 = MPI_SUCCESS;
    none.count = 0;
    none.bytes = 0;
    none.offs = none.lens = NULL;
    none.n = 0;
    none.end_fp = c->orig_fp;
    orth_cands[cand]->run(&none, err);
    c->fd->fp_ind = c->orig_fp;
    if (c->is_write)
        c->lower->ADIOI_xxx_WriteStrided(c->fd, c->buf, c->count, c->dt, c->fpt, c->off,
                                         c->status, &err2);
    else
        c->lower->ADIOI_xxx_ReadStrided(c->fd, c->buf, c->count, c->dt, c->fpt, c->off,
                                        c->status, &err2);
    *err = *err == MPI_SUCCESS ? err2 : *err;
}

static void run_call(ADIO_File fd, struct orth_call *c, int *err)
{
    struct orth_state *st = c->st;
    struct orth_sig sig;
    struct orth_entry *e = NULL;
    int cand, big = 0;
    if (quiet_call(fd, c, err))
        return;
    if (st->quiet.ride >= 0)
        cand = ride_on(c, &big);
    else {
        int nomem = describe(c, &sig);
        st->ncalls++;
        if (nomem) {            /* every process: ROMIO's own, unexamined */
            st->nomem_calls++;
            cand = -1;
        } else
            cand = choose(fd, st, &sig, &e);
        if (e)
            start_quiet(st, e, c);
    }
    orth_cands_other(fd, cand, c->is_write);
    if (cand < 0) {
        st->bypassed++;
        orth_two_phase(c, err);
        return;
    }
    st->runs[cand]++;
    xt_coll_ran(fd, cand + 1);  /* two_phase, run as a fallback, says so itself */
    /* its first-use setup (made lazily, collective) is not timed as the call */
    orth_cand_setup(c, cand);
    double limit = e && !big ? orth_sel_piece_limit(&st->sel, e, orth_sel_pick(e)) : 0;
    double t0 = st->quiet.t0 = xt_now(), io0 = st->io, piece = 0;
    int cut = 0;
    if (big || limit > 0) {     /* the layers below are told, as by run_cand */
        struct xt_coll xc = {.count = c->count,.dt = c->dt,.fpt = c->fpt,.off = c->off,
            .is_write = c->is_write
        };
        xt_coll_notify(fd, XT_LAYER_orth, &xc, 0);
        if (big)
            run_big(c, cand, err);
        else
            cut = orth_run_piece(c, cand, st->rotation[st->sel.home], limit, &piece, err);
        xt_coll_notify(fd, XT_LAYER_orth, &xc, 1);
    } else
        run_cand(fd, c, cand, err);
    if (cut) {                  /* counted, charged and logged now, from the agreed piece time */
        struct orth_pending p = {.active = 1,.e = e,.pick = orth_sel_pick(e),
            .bytes = (double) sig.bytes,.t_end = xt_now(),.no = st->ncalls
        };
        orth_log_call(st, &p, piece, ORTH_EXAMINING, orth_sel_cut(&st->sel, e, p.pick, piece));
        return;
    }
    if (!e || c->ride)          /* a riding call is recorded at its end */
        return;
    /* timed now, recorded when the next call (or the close) reduces it */
    st->pend = (struct orth_pending) {.active = 1,.e = e,.pick = orth_sel_pick(e),
        .bytes = (double) sig.bytes,.t_end = xt_now(),.no = st->ncalls
    };
    st->pend.t_local = st->pend.t_end - t0;
    st->pend.io_local = st->io - io0;
}

static void coll(ADIO_File fd, void *buf, int count, MPI_Datatype dt, int fpt,
                 ADIO_Offset off, ADIO_Status *status, int *err, int is_write)
{
    struct orth_call c = {.fd = fd,.buf = buf,.count = count,.dt = dt,.fpt = fpt,
        .off = off,.status = status,.is_write = is_write,.orig_fp = fd->fp_ind,
        .st = xt_state(fd, XT_LAYER_orth),.lower = xt_lower(fd, XT_LAYER_orth)
    };
    if (stock_only(fd, is_write)) {
        orth_cands_other(fd, ORTH_two_phase, is_write);
        orth_two_phase(&c, err);
        return;
    }
    run_call(fd, &c, err);
    if (c.offs)
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

/* the layer below's contiguous reads (two-phase's file-domain reads among
 * them), timed: a read pattern's trials wait while home's calls are
 * I/O-bound (orth_select.c) */
static void ADIOI_ORTH_ReadContig(ADIO_File fd, void *buf, int count, MPI_Datatype dt, int fpt,
                                  ADIO_Offset off, ADIO_Status *status, int *err)
{
    struct orth_state *st = xt_state(fd, XT_LAYER_orth);
    double t0 = xt_now();
    /* the candidates' guards see it after it (orth_guard.c); what the layers
     * below do in it is not part of it */
    struct orth_io io = {.buf = buf,.count = count,.dt = dt,.fpt = fpt,.off = off,
        .kind = ORTH_IO_READ,.contig = 1,.before = fd->fp_ind
    };
    xt_lower(fd, XT_LAYER_orth)->ADIOI_xxx_ReadContig(fd, buf, count, dt, fpt, off, status, err);
    st->io += xt_now() - t0;
    orth_cands_indep(fd, &io, 1);
}

static const ADIOI_Fns orth_ops = {
    .ADIOI_xxx_ReadStridedColl = ADIOI_ORTH_ReadStridedColl,
    .ADIOI_xxx_ReadContig = ADIOI_ORTH_ReadContig,
    .ADIOI_xxx_WriteStridedColl = ADIOI_ORTH_WriteStridedColl,
    /* the candidates' guards (orth_guard.c) */
    .ADIOI_xxx_WriteContig = orth_guard_WriteContig,
    .ADIOI_xxx_WriteStrided = orth_guard_WriteStrided,
    .ADIOI_xxx_IwriteContig = orth_guard_IwriteContig,
    .ADIOI_xxx_IwriteStrided = orth_guard_IwriteStrided,
    .ADIOI_xxx_ReadStrided = orth_guard_ReadStrided,
    .ADIOI_xxx_IreadContig = orth_guard_IreadContig,
    .ADIOI_xxx_IreadStrided = orth_guard_IreadStrided,
    .ADIOI_xxx_Flush = orth_guard_Flush,
    .ADIOI_xxx_Resize = orth_guard_Resize,
    .ADIOI_xxx_Fcntl = orth_guard_Fcntl,
};

/* another layer wrote the file directly */
static void orth_wrote(ADIO_File fd, void *state, ADIO_Offset off, ADIO_Offset len)
{
    (void) state;
    (void) off;
    (void) len;
    orth_cands_wrote(fd);
}

static int orth_wanted(const struct xt_file *xf)
{
    return xf->hints[XT_H_ORTH].i == XT_H_ORTH_enable ||
        xf->hints[XT_H_ORTH_FORCE].i != XT_H_ORTH_FORCE_none;
}

/* a new view: the descriptions cached for the old one are never found again */
static void orth_view(ADIO_File fd, void *state, int error_code)
{
    ((struct orth_state *) state)->view_gen++;
    orth_cands_view(fd, error_code);
}

const struct xt_layer orth_layer = {
    .name = "orthrus",
    .wanted = orth_wanted,
    .ops = &orth_ops,
    .state_size = sizeof(struct orth_state),
    .open = orth_open,
    .close = orth_close,
    .report = orth_report,
    .counters = orth_counter_names,
    .ncounters = ORTH_NCOUNTERS,
    .wrote = orth_wrote,
    .view = orth_view,
    /* direct_io_ok stays 0: a candidate (view_based) may hold written data the
     * file lacks */
};

/* romio-xt Orthrus: the layer.  Overrides ReadStridedColl and
 * WriteStridedColl; every other operation (independent I/O included) goes
 * to the layer below untouched. */
#include "orth.h"

#include <stdio.h>
#include <string.h>

/* bigger calls always run stock two-phase (core_first's counts are ints) */
#define ORTH_MAX_BYTES (1LL << 30)

/* calls that stay with the stock routine, unexamined: the same on all ranks */
static int stock_only(ADIO_File fd, int is_write)
{
    int cb = is_write ? fd->hints->cb_write : fd->hints->cb_read;
    return cb == ADIOI_HINT_DISABLE || fd->hints->deferred_open || fd->atomicity;
}

/* this rank's pieces, and the signature from allreduced sums */
static void describe(struct orth_call *c, struct orth_sig *sig)
{
    ADIO_Offset start, end;
    int64_t loc[4] = { 0 }, sum[4];
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
            loc[3] += c->offs[i] - prev_end;    /* gap to the previous piece */
        prev_end = c->offs[i] + c->lens[i];
        loc[1]++;
        loc[2] += c->lens[i];
    }
    c->bytes = loc[2];
    loc[0] = loc[2] > 0;
    MPI_Allreduce(loc, sum, 4, MPI_INT64_T, MPI_SUM, c->fd->comm);
    sig->is_write = c->is_write;
    sig->nprocs = sum[0];
    sig->nreqs = sum[1];
    sig->bytes = sum[2];
    sig->rel_offset = sum[1] > sum[0] ? sum[3] / (sum[1] - sum[0]) : 0;
}

/* the candidate (orth_cands index) for this call, and its selection entry */
static int choose(struct orth_state *st, const struct orth_sig *sig, struct orth_entry **e)
{
    *e = NULL;
    if (sig->bytes == 0 || sig->bytes > ORTH_MAX_BYTES)
        return -1;
    if (st->forced >= 0)
        return st->forced;
    *e = orth_sel_entry(&st->sel, sig);
    return st->rotation[orth_sel_pick(*e)];
}

static void run_call(ADIO_File fd, struct orth_call *c, int *err)
{
    struct orth_state *st = xt_slot_of(fd, &orth_layer)->state;
    struct orth_sig sig;
    struct orth_entry *e;
    describe(c, &sig);
    int cand = choose(st, &sig, &e);
    if (cand < 0) {
        st->bypassed++;
        orth_two_phase(c, err);
        return;
    }
    st->runs[cand]++;
    double t0 = xt_now();
    orth_cands[cand].run(c, err);
    double t = xt_now() - t0, tmax;
    if (!e)
        return;
    MPI_Allreduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, fd->comm);
    orth_sel_record(&st->sel, e, orth_sel_pick(e), (double) sig.bytes, tmax);
}

static void coll(ADIO_File fd, void *buf, int count, MPI_Datatype dt, int fpt,
                 ADIO_Offset off, ADIO_Status *status, int *err, int is_write)
{
    struct orth_call c = {.fd = fd,.buf = buf,.count = count,.dt = dt,.fpt = fpt,
        .off = off,.status = status,.is_write = is_write,.orig_fp = fd->fp_ind
    };
    if (stock_only(fd, is_write)) {
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
};

static int orth_wanted(const struct xt_file *xf)
{
    return xf->hints[XT_H_ORTH].i == 1 || xf->hints[XT_H_ORTH_FORCE].i != 0;
}

/* the rotation from romio_orthrus_candidates; unknown names are warned about */
static void parse_candidates(ADIO_File fd, struct orth_state *st)
{
    char list[256], bad[700] = "";
    const char *given = xt_hint(fd, XT_H_ORTH_CANDIDATES)->s;
    snprintf(list, sizeof(list), "%s", given);
    int n = 0;
    for (char *save, *w = strtok_r(list, ", ", &save); w; w = strtok_r(NULL, ", ", &save)) {
        int c = orth_cand_find(w);
        int dup = 0;
        for (int i = 0; i < n; i++)
            dup |= st->rotation[i] == c;
        if (c < 0 && !bad[0])
            snprintf(bad, sizeof(bad), "hint romio_orthrus_candidates: unknown candidate '%s' "
                     "in '%s'; skipped", w, given);
        else if (c >= 0 && !dup && n < ORTH_MAX_CAND)
            st->rotation[n++] = c;
    }
    if (n == 0) {
        for (n = 0; n < orth_ncands && n < ORTH_MAX_CAND; n++)
            st->rotation[n] = n;
        if (!bad[0])
            snprintf(bad, sizeof(bad), "hint romio_orthrus_candidates: no candidate in '%s'; "
                     "using all", given);
    }
    xt_warn_once(fd, bad);
    orth_sel_init(&st->sel, n, (int) xt_hint(fd, XT_H_ORTH_TRIALS)->i,
                  xt_hint(fd, XT_H_ORTH_THRESHOLD)->d);
}

static int orth_open(ADIO_File fd, void *state)
{
    struct orth_state *st = state;
    int rank;
    const char *force = xt_hint(fd, XT_H_ORTH_FORCE)->s;
    st->forced = strcmp(force, "none") == 0 ? -1 : orth_cand_find(force);
    parse_candidates(fd, st);
    MPI_Comm_rank(fd->comm, &rank);
    MPI_Comm_split_type(fd->comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &st->node);
    int node_rank, leader;
    MPI_Comm_rank(st->node, &node_rank);
    leader = node_rank == 0;
    MPI_Allreduce(&leader, &st->nnodes, 1, MPI_INT, MPI_SUM, fd->comm);
    return 0;
}

static void orth_close(ADIO_File fd, void *state, int *err)
{
    struct orth_state *st = state;
    (void) fd;
    (void) err;
    if (st->node != MPI_COMM_NULL)
        MPI_Comm_free(&st->node);
}

static void report_entry(const struct orth_state *st, const struct orth_entry *e,
                         struct xt_json *j)
{
    xt_json_open(j, NULL, '{');
    xt_json_str(j, "op", e->sig.is_write ? "write" : "read");
    xt_json_int(j, "nprocs", e->sig.nprocs);
    xt_json_int(j, "requests", e->sig.nreqs);
    xt_json_int(j, "bytes", e->sig.bytes);
    xt_json_int(j, "rel_offset", e->sig.rel_offset);
    xt_json_int(j, "calls", e->calls);
    xt_json_int(j, "examinations", e->exams);
    xt_json_int(j, "reexaminations", e->reexams);
    xt_json_num(j, "examination_seconds", e->exam_time);
    xt_json_str(j, "winner", e->winner >= 0 ? orth_cands[st->rotation[e->winner]].name : "");
    xt_json_str(j, "phase", e->phase == ORTH_CHOSEN ? "chosen" : "examining");
    xt_json_num(j, "winner_throughput", e->winner_avg);
    xt_json_open(j, "throughput", '{');
    for (int c = 0; c < st->sel.ncand && e->exams; c++)
        xt_json_num(j, orth_cands[st->rotation[c]].name, e->tput[c]);
    xt_json_close(j);
    xt_json_close(j);
}

/* rank 0's table equals every rank's: it is built from allreduced values */
static void orth_report(ADIO_File fd, void *state, struct xt_json *j)
{
    struct orth_state *st = state;
    (void) fd;
    xt_json_str(j, "forced", st->forced >= 0 ? orth_cands[st->forced].name : "none");
    xt_json_open(j, "candidates", '[');
    for (int c = 0; c < st->sel.ncand; c++)
        xt_json_str(j, NULL, orth_cands[st->rotation[c]].name);
    xt_json_close(j);
    xt_json_int(j, "stock_calls", st->bypassed);
    xt_json_open(j, "runs", '{');
    for (int c = 0; c < orth_ncands; c++)
        xt_json_int(j, orth_cands[c].name, st->runs[c]);
    xt_json_close(j);
    xt_json_int(j, "signature_evictions", st->sel.evictions);
    xt_json_open(j, "signatures", '[');
    for (int i = 0; i < st->sel.nsig; i++)
        report_entry(st, &st->sel.sigs[i], j);
    xt_json_close(j);
}

const struct xt_layer orth_layer = {
    .name = "orthrus",
    .wanted = orth_wanted,
    .ops = &orth_ops,
    .state_size = sizeof(struct orth_state),
    .open = orth_open,
    .close = orth_close,
    .report = orth_report,
    .direct_io_ok = 1,          /* keeps no data: everything goes to the file */
};

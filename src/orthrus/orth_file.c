/* romio-xt Orthrus: the per-file work around the calls: open (candidates,
 * nodes, the reduction), settling each call's timing from the next call's
 * reduction with the ranks' agreement check, the per-call log
 * (romio_orthrus_log), the table saved across runs (romio_orthrus_table),
 * close and the stats report. */
#include "orth.h"
#include "orth_counters.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* the layer's counters (orth_counters.h) */
const char *const orth_counter_names[] = {
    "vb_cache_hits", "vb_cache_misses", "vb_bytes_flushed", "vb_flushes_call_end",
    "vb_flushes_pool_full", "vb_flushes_sync", "vb_flushes_close", "vb_flushes_set_view",
    "vb_flushes_read_miss", "vb_flushes_other_call", "vb_flushes_log_full",
    "vb_flushes_background",
    "vb_view_bytes_sent", "vb_view_exchanges", "vb_view_fallbacks",
    "vb_prefetched_bytes", "vb_cache_drops", "vb_pool_grown", "vb_bytes_rewritten",
};
_Static_assert(sizeof(orth_counter_names) / sizeof(orth_counter_names[0]) == ORTH_NCOUNTERS,
               "one name per counter");

static void reduce_fn(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void) dt;
    for (int i = 0; i < *len; i++)
        orth_red_combine((int64_t *) in + i * ORTH_R_N, (int64_t *) inout + i * ORTH_R_N);
}

static const char *const *rotation_names(const struct orth_state *st, const char **names)
{
    for (int c = 0; c < st->sel.ncand; c++)
        names[c] = orth_cands[st->rotation[c]]->name;
    return names;
}

/* rank 0's saved winners, from the table file and then from the job's
 * memory of earlier files (orth_memo.c), given to every rank */
static void load_table(ADIO_File fd, struct orth_state *st)
{
    const char *path = xt_hint(fd, XT_H_ORTH_TABLE)->s;
    char msg[700] = "";
    if (xt_file(fd)->rank == 0) {
        const char *names[ORTH_MAX_CAND];
        FILE *f = path[0] ? fopen(path, "r") : NULL;
        if (f && orth_table_read(f, &st->sel, rotation_names(st, names)) < 0)
            snprintf(msg, sizeof(msg), "hint romio_orthrus_table: '%s' has a malformed line; "
                     "using the %d entries before it", path, st->sel.nsig);
        if (f)
            fclose(f);
        if (xt_hint(fd, XT_H_ORTH_MEMORY)->i == XT_H_ORTH_MEMORY_enable)
            st->from_memory = orth_memo_adopt(&st->sel, st->rotation);
        st->sel.evictions = 0;
    }
    MPI_Bcast(&st->sel, (int) sizeof(st->sel), MPI_BYTE, 0, fd->comm);
    MPI_Bcast(&st->from_memory, 1, MPI_INT, 0, fd->comm);
    xt_warn(fd, XT_WARN_ALL, msg[0] ? "%s" : NULL, msg);
}

/* rank 0 writes the table (a new file renamed over the old one) */
static void save_table(ADIO_File fd, struct orth_state *st)
{
    const char *path = xt_hint(fd, XT_H_ORTH_TABLE)->s;
    if (!path[0] || xt_file(fd)->rank != 0)
        return;
    char tmp[4200];
    const char *names[ORTH_MAX_CAND];
    snprintf(tmp, sizeof(tmp), "%s.%d.tmp", path, (int) getpid());
    FILE *f = fopen(tmp, "w");
    int ok = f != NULL;
    if (f) {
        fprintf(f, "# romio-xt Orthrus winners: is_write nprocs requests bytes rel_offset "
                "winner candidate=B/s...\n");
        orth_table_write(f, &st->sel, rotation_names(st, names));
        ok = fclose(f) == 0 && rename(tmp, path) == 0;
    }
    if (!ok) {
        xt_warn(fd, XT_WARN_SELF, "hint romio_orthrus_table: cannot write '%s'; the winners "
                "of this run are not saved", path);
        unlink(tmp);
    }
}

static void open_log(ADIO_File fd, struct orth_state *st)
{
    const char *path = xt_hint(fd, XT_H_ORTH_LOG)->s;
    char msg[700] = "";
    st->t_open = xt_now();
    if (path[0] && xt_file(fd)->rank == 0) {
        st->log = fopen(path, "a");
        if (!st->log)
            snprintf(msg, sizeof(msg), "hint romio_orthrus_log: cannot open '%s'; no log", path);
        else if (ftell(st->log) == 0)
            fprintf(st->log, "call,time,op,signature,candidate,phase,bytes,seconds,event\n");
    }
    /* only rank 0 opens the log: its warning needs no collective (once per job) */
    if (msg[0])
        xt_warn(fd, XT_WARN_SELF, "%s", msg);
}

/* one CSV line per recorded call (rank 0): the phase it ran in, and the
 * event it caused (the end of an examination, a re-examination, or a failed
 * probation: "revert:" and the candidate home took the pattern back from) */
void orth_log_call(struct orth_state *st, const struct orth_pending *p, double secs, int was,
                   int event)
{
    if (!st->log)
        return;
    const struct orth_entry *e = p->e;
    int revert = event && was == ORTH_CHOSEN && e->phase == ORTH_CHOSEN;
    const char *ev = !event ? "" : was == ORTH_EXAMINING ? "chose:" : revert ? "revert:" :
        "reexamine";
    const char *won = event && was == ORTH_EXAMINING ?
        orth_cands[st->rotation[e->winner]]->name : revert ? orth_cands[st->rotation[p->pick]]->name :
        "";
    fprintf(st->log, "%lld,%.6f,%s,%d,%s,%s,%.0f,%.9f,%s%s\n", (long long) p->no,
            p->t_end - st->t_open, e->sig.is_write ? "write" : "read",
            (int) (e - st->sel.sigs), orth_cands[st->rotation[p->pick]]->name,
            was == ORTH_CHOSEN ? "chosen" : "examining", p->bytes, secs, ev, won);
}

/* ranks that disagree would run different collective routines: stop in a
 * debug build; otherwise pin two_phase for the rest of the file */
static void disagreement(ADIO_File fd, struct orth_state *st)
{
    st->disagreements++;
#ifdef XT_DEBUG
    fprintf(stderr, "romio-xt: orthrus: ranks disagree on the candidate or the selection "
            "state (rank %d)\n", xt_file(fd)->rank);
    MPI_Abort(fd->comm, 1);
#endif
    if (st->forced < 0)
        xt_warn(fd, XT_WARN_ALL, "orthrus: ranks disagree on the selection; using two_phase "
                "for the rest of this file");
    st->forced = ORTH_two_phase;
}

static void fill_record(const struct orth_state *st, int64_t *loc)
{
    const struct orth_pending *p = &st->pend;
    loc[ORTH_R_TIME_NS] = p->active ? (int64_t) (p->t_local * 1e9) : 0;
    loc[ORTH_R_IO_NS] = p->active ? (int64_t) (p->io_local * 1e9) : 0;
    loc[ORTH_R_CAND_MIN] = loc[ORTH_R_CAND_MAX] = p->active ? p->pick : -1;
    loc[ORTH_R_DIGEST_MIN] = loc[ORTH_R_DIGEST_MAX] = orth_sel_digest(&st->sel);
    loc[ORTH_R_ERR] = st->nomem;     /* the call's working memory (orth_layer.c) */
}

/* records call p, run in secs (slowest rank) with io_ns in file reads (the
 * slowest reader's), in the selection and the log */
static void record(struct orth_state *st, const struct orth_pending *p, double secs,
                   int64_t io_ns)
{
    int was = p->e->phase;
    orth_sel_io(&st->sel, p->e, p->pick, (double) io_ns * 1e-9, secs);
    int event = orth_sel_record(&st->sel, p->e, p->pick, p->bytes, secs);
    orth_log_call(st, p, secs, was, event);
}

void orth_sig_of(const int64_t *sum, int is_write, struct orth_sig *sig)
{
    sig->is_write = is_write;
    sig->nprocs = sum[ORTH_R_NPROCS];
    sig->nreqs = sum[ORTH_R_NREQS];
    sig->bytes = sum[ORTH_R_BYTES];
    sig->rel_offset = sig->nreqs > sig->nprocs ?
        sum[ORTH_R_GAPS] / (sig->nreqs - sig->nprocs) : 0;
}

/* one process with data and no hole between its pieces: every candidate
 * reads or writes the same one range from the same process, and their trials
 * only cost (measured at 1 rank, Noncontig: core_first 7.6 ms, view_based
 * 12.6 ms against two_phase's 1.6 ms); stock two_phase runs it unexamined
 * (only under the regret bound, and when two_phase is the home candidate) */
static int one_contiguous(const struct orth_state *st, const struct orth_sig *sig)
{
    return st->sel.budget > 0 && sig->nprocs == 1 && sig->rel_offset == 0 &&
        st->rotation[st->sel.home] == ORTH_two_phase;
}

int orth_unexamined(const struct orth_state *st, const struct orth_sig *sig)
{
    return sig->bytes == 0 || sig->bytes > ORTH_MAX_BYTES || one_contiguous(st, sig);
}

/* the quiet run's calls, reduced (r[0..n-1]), in order: each was run by
 * the run's candidate (home, or the chosen independent winner); those
 * choose() would have passed to home unexamined are counted as such, and a
 * call of another pattern than the independent winner's as a stray */
static void replay(ADIO_File fd, struct orth_state *st, int64_t (*r)[ORTH_R_N], int n)
{
    const struct orth_quiet *q = &st->quiet;
    for (int i = 0; i < n; i++) {
        struct orth_sig sig;
        if (orth_red_disagree(r[i]))
            disagreement(fd, st);
        orth_sig_of(r[i], q->is_write[1 + i], &sig);
        int cand = st->rotation[q->cand];
        if (st->forced >= 0 || orth_unexamined(st, &sig)) {
            st->bypassed += st->forced < 0 && cand == ORTH_two_phase;
            st->runs[cand] += st->forced >= 0 || cand != ORTH_two_phase;
            continue;
        }
        st->runs[cand]++;
        struct orth_pending p = {.active = 1,.e = orth_sel_entry(&st->sel, &sig),
            .pick = q->cand,.bytes = (double) sig.bytes,.t_end = q->t_end[1 + i],
            .no = q->first + i
        };
        if (q->cand != st->sel.home && p.e->cur != q->cand) {
            orth_sel_stray(&st->sel, p.e);      /* another pattern's call: counted, not timed */
            st->strays++;
            continue;
        }
        record(st, &p, (double) r[i][ORTH_R_TIME_NS] * 1e-9, r[i][ORTH_R_IO_NS]);
    }
}

void orth_reduce(ADIO_File fd, struct orth_state *st, int64_t *sum0)
{
    struct orth_quiet *q = &st->quiet;
    int n = q->n;
    int64_t sum[ORTH_QUIET_MAX + 1][ORTH_R_N];
    fill_record(st, q->recs[0]);
    MPI_Allreduce(q->recs, sum, 1 + n, st->rec, st->op, fd->comm);
    st->reductions++;
    q->n = 0;
    if (orth_red_disagree(sum[0]))
        disagreement(fd, st);
    if (st->pend.active)
        record(st, &st->pend, (double) sum[0][ORTH_R_TIME_NS] * 1e-9, sum[0][ORTH_R_IO_NS]);
    st->pend.active = 0;
    replay(fd, st, sum + 1, n);
    memcpy(sum0, sum[0], sizeof(sum[0]));
}

void orth_ride_end(struct orth_call *c, int *err)
{
    struct orth_state *st = c->st;
    struct orth_quiet *q = &st->quiet;
    int64_t *r = q->recs[0], sum[ORTH_R_N];
    double t_end = xt_now();
    r[ORTH_R_TIME_NS] = (int64_t) ((t_end - q->t0) * 1e9);
    r[ORTH_R_CAND_MIN] = r[ORTH_R_CAND_MAX] = q->ride;
    r[ORTH_R_DIGEST_MIN] = r[ORTH_R_DIGEST_MAX] = orth_sel_digest(&st->sel);
    r[ORTH_R_IO_NS] = 0;         /* not home's call: its reads do not count */
    r[ORTH_R_ERR] = *err != MPI_SUCCESS;
    MPI_Allreduce(r, sum, 1, st->rec, st->op, c->fd->comm);
    if (sum[ORTH_R_ERR] && *err == MPI_SUCCESS)
        *err = xt_io_error(c->fd, "orthrus: another process's part of the call", EIO);
    if (orth_red_disagree(sum))
        disagreement(c->fd, st);
    st->ride_calls++;
    struct orth_sig sig;
    struct orth_entry *e = q->ride_e;
    orth_sig_of(sum, c->is_write, &sig);
    if (st->forced >= 0 || orth_unexamined(st, &sig)) {
        q->ride = -1;
        return;
    }
    int stray = !orth_sig_equal(&sig, &e->sig);
    if (c->ride == ORTH_RIDE_ON)        /* as choose() would have, had it reduced first */
        e = orth_sel_entry(&st->sel, &sig);
    struct orth_pending p = {.active = 1,.e = e,.pick = q->ride,.bytes = (double) sig.bytes,
        .t_end = t_end,.no = st->ncalls
    };
    double secs = (double) sum[ORTH_R_TIME_NS] * 1e-9;
    if (stray) {                /* another pattern's call: counted, not timed */
        orth_sel_stray(&st->sel, e);
        orth_log_call(st, &p, secs, e->phase, 0);
        st->strays++;
        q->ride = -1;
        return;
    }
    record(st, &p, secs, 0);
    if (e->phase != ORTH_CHOSEN || e->cur != q->ride)
        q->ride = -1;           /* re-examined */
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
    /* the list is agreed (rank 0's): a warning, or none, on every rank alike */
    if (bad[0])
        xt_warn(fd, XT_WARN_ALL, "%s", bad);
    orth_sel_init(&st->sel, n, (int) xt_hint(fd, XT_H_ORTH_TRIALS)->i,
                  xt_hint(fd, XT_H_ORTH_THRESHOLD)->d);
    int home = 0, free = -1;
    for (int c = 0; c < n; c++) {
        home = st->rotation[c] == ORTH_two_phase ? c : home;
        free = st->rotation[c] == ORTH_independent ? c : free;
    }
    orth_sel_budget(&st->sel, xt_hint(fd, XT_H_ORTH_BUDGET)->d, home);
    orth_sel_free(&st->sel, free);
    orth_sel_io_bound(&st->sel, xt_hint(fd, XT_H_ORTH_IO_BOUND)->d);
}

int orth_open(ADIO_File fd, void *state)
{
    struct orth_state *st = state;
    int64_t force = xt_hint(fd, XT_H_ORTH_FORCE)->i;
    st->forced = force == XT_H_ORTH_FORCE_none ? -1 : ORTH_FORCED_CAND(force);
    parse_candidates(fd, st);
    st->held_below = xt_writes_held_below(fd, XT_LAYER_orth);
    st->node = MPI_COMM_NULL;   /* orth_nodes(), at the first call that needs it */
    st->quiet.ride = -1;
    st->desc_mode = (int) xt_test_hook("ROMIO_XT_ORTHRUS_TEST_DESC", ORTH_DESC_CACHE);
    st->big = xt_test_hook("ROMIO_XT_ORTHRUS_TEST_BIG", ORTH_MAX_BYTES);
    MPI_Type_contiguous(ORTH_R_N, MPI_INT64_T, &st->rec);
    MPI_Type_commit(&st->rec);
    MPI_Op_create(reduce_fn, 1, &st->op);
    open_log(fd, st);
    if (st->forced < 0)
        load_table(fd, st);
    orth_cands_open(fd, st);
    return 0;
}

void orth_close(ADIO_File fd, void *state, int *err)
{
    struct orth_state *st = state;
    orth_cands_close(fd, st, err);
    if (st->pend.active || st->quiet.n) {       /* the last calls' timing */
        int64_t r[ORTH_R_N];
        memset(st->quiet.recs[0], 0, sizeof(st->quiet.recs[0]));
        orth_reduce(fd, st, r);
    }
    if (st->forced < 0) {
        save_table(fd, st);
        if (xt_hint(fd, XT_H_ORTH_MEMORY)->i == XT_H_ORTH_MEMORY_enable)
            orth_memo_save(&st->sel, st->rotation);
    }
    if (st->log)
        fclose(st->log);
    MPI_Op_free(&st->op);
    MPI_Type_free(&st->rec);
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
    xt_json_int(j, "from_table", e->adopted);
    xt_json_int(j, "decided_by_view", e->decided);
    xt_json_num(j, "examination_seconds", e->exam_time);
    xt_json_str(j, "winner", e->winner >= 0 ? orth_cands[st->rotation[e->winner]]->name : "");
    xt_json_str(j, "phase", e->phase == ORTH_CHOSEN ? "chosen" : "examining");
    xt_json_int(j, "chosen_after_calls", e->chosen_at);
    xt_json_num(j, "winner_throughput", e->winner_avg);
    if (e->reexams) {           /* why the last re-examination started */
        xt_json_open(j, "last_reexamination", '{');
        xt_json_num(j, "window_throughput", e->why[0]);
        xt_json_num(j, "winner_examination_throughput", e->why[1]);
        xt_json_num(j, "runner_up_examination_throughput", e->why[2]);
        xt_json_close(j);
    }
    if (!e->sig.is_write && e->io_share >= 0)    /* reads' share of home's time, last taken */
        xt_json_num(j, "home_read_share", e->io_share);
    if (!e->sig.is_write && e->first_io >= 0)    /* ... in home's first call */
        xt_json_num(j, "home_first_read_share", e->first_io);
    if (e->reverts) {           /* read winners that lost their probation to two_phase */
        xt_json_int(j, "probation_reverts", e->reverts);
        xt_json_open(j, "last_revert", '{');
        xt_json_num(j, "probation_throughput", e->prob_why[0]);
        xt_json_num(j, "home_throughput", e->prob_why[1]);
        xt_json_close(j);
    }
    int lost = 0;
    for (int c = 0; c < st->sel.ncand; c++)
        lost += e->lost[c];
    if (lost) {                 /* winners re-examined away (2: out of later examinations) */
        xt_json_open(j, "lost", '{');
        for (int c = 0; c < st->sel.ncand; c++)
            xt_json_int(j, orth_cands[st->rotation[c]]->name, e->lost[c]);
        xt_json_close(j);
    }
    xt_json_open(j, "throughput", '{');
    for (int c = 0; c < st->sel.ncand && (e->exams || e->adopted); c++)
        xt_json_num(j, orth_cands[st->rotation[c]]->name, e->tput[c]);
    xt_json_close(j);
    xt_json_close(j);
}

/* rank 0's table equals every rank's: it is built from allreduced values */
void orth_report(ADIO_File fd, void *state, struct xt_json *j)
{
    struct orth_state *st = state;
    (void) fd;
    xt_json_str(j, "forced", st->forced >= 0 ? orth_cands[st->forced]->name : "none");
    xt_json_open(j, "candidates", '[');
    for (int c = 0; c < st->sel.ncand; c++)
        xt_json_str(j, NULL, orth_cands[st->rotation[c]]->name);
    xt_json_close(j);
    xt_json_int(j, "stock_calls", st->bypassed);
    xt_json_int(j, "stock_calls_no_memory", st->nomem_calls);
    xt_json_int(j, "patterns_from_memory", st->from_memory);
    xt_json_num(j, "budget", st->sel.budget);
    xt_json_int(j, "deferred_trials", st->sel.deferred);
    xt_json_int(j, "io_bound_waits", st->sel.io_waits);
    xt_json_int(j, "postponed_trials", st->sel.postponed);
    xt_json_int(j, "postponed_retries", st->sel.retries);
    xt_json_num(j, "trial_seconds_lost", st->sel.spent);
    xt_json_num(j, "trial_cost", st->sel.trial_cost);
    xt_json_int(j, "skipped_trials", st->sel.skipped);
    xt_json_int(j, "decided_by_view", st->sel.decided);
    xt_json_int(j, "cut_trials", st->sel.cut);
    xt_json_int(j, "packed_pieces", st->packed_pieces);
    xt_json_open(j, "runs", '{');
    for (int c = 0; c < orth_ncands; c++)
        xt_json_int(j, orth_cands[c]->name, st->runs[c]);
    xt_json_close(j);
    xt_json_int(j, "signature_evictions", st->sel.evictions);
    xt_json_int(j, "disagreements", st->disagreements);
    xt_json_int(j, "reductions", st->reductions);
    xt_json_int(j, "quiet_calls", st->quiet_calls);
    xt_json_int(j, "riding_calls", st->ride_calls);
    xt_json_int(j, "stray_calls", st->strays);
    xt_json_int(j, "descriptions_cached", st->desc.hits);
    xt_json_int(j, "descriptions_listed", st->desc.misses);
    xt_json_int(j, "exchange_rounds", st->rounds);
    xt_json_int(j, "bytes_in_place", st->moved[ORTH_IN_PLACE]);
    xt_json_int(j, "bytes_sent", st->moved[ORTH_SENT]);
    xt_json_int(j, "bytes_copied", st->moved[ORTH_COPIED]);
    xt_json_open(j, "signatures", '[');
    for (int i = 0; i < st->sel.nsig; i++)
        report_entry(st, &st->sel.sigs[i], j);
    xt_json_close(j);
}


/* romio-xt Orthrus: examination, choice, monitoring (pure, no MPI). */
#include "orth_select.h"

#include <string.h>

/* a call faster than this is timed as this (no division by zero) */
#define ORTH_MIN_TIME 1e-9
/* from this many calls on, a window's slowest call is left out of its
 * throughput: one descheduled process or first-use cost (a connection set up,
 * a buffer allocated) would otherwise decide the examination */
#define ORTH_TRIM_FROM 3
/* a candidate whose fastest call is this many times slower than another's
 * fastest is dropped from the examination (after its first call) */
#define ORTH_DROP 1.5
/* re-examinations that keep the winner double the monitoring window, up to
 * trials << ORTH_MAX_BACKOFF calls */
#define ORTH_MAX_BACKOFF 3
/* a trial is budgeted as if it took this many times home's call time (a
 * candidate 1.5x slower is dropped after one call) until a trial of the file
 * took longer: then as the slowest trial so far, up to ORTH_TRIAL_COST_MAX
 * (a longer trial would still let a long run try the rest) */
#define ORTH_TRIAL_COST 2.0
#define ORTH_TRIAL_COST_MAX 8.0
/* another candidate than home (stock) wins an examination only when it is
 * this much faster than home: within it the two are a tie, and a switch
 * only risks (cold reads: a trial that follows home's calls reads what
 * their read-ahead brought in, and looks faster than it runs alone) */
#define ORTH_SWITCH 1.05
/* a candidate that won and was then re-examined away this many times (its
 * calls fell below the runner-up's examination throughput) sits out the
 * pattern's later examinations: no churn between a candidate that only wins
 * its trials and the one that wins the run */
#define ORTH_MAX_LOST 2

/* out[c] of an examination: dropped (too slow, or predicted to be), or
 * postponed: its trial did not fit the regret bound when its turn came while
 * another candidate could go on (orth_sel_entry).  A postponed candidate is
 * tried in a re-examination of the pattern once a trial fits (retry): the
 * winner, home and it (measured on Matrix 256 KiB writes x 60: disk_first's
 * 2.8x trial raised the estimate for view_based, whose trial then waited
 * for the rest of the run, and core_first, 1.1x two_phase, never won) */
enum { ORTH_IN, ORTH_DROPPED, ORTH_POSTPONED };

/* a read pattern's winner other than home must then win ORTH_PROBATION calls
 * in a row: their rate, no call left out, at least home's rate over all its
 * calls (its slowest left out), else home takes the pattern back and the
 * candidate sits out its later examinations.  Why: on a cold file, trials
 * that follow home's sequential reads read what home's read-ahead brought in
 * and look faster than the candidate runs on its own (measured on Matrix
 * 64 KiB x 120 reads: core_first trials won, then ran at 0.13-0.37 ms a call
 * against two_phase's 0.18); the cost of such a candidate shows only over
 * calls in a row.  The other candidates' trials of that examination borrowed
 * the same read-ahead: they sit out too (else a re-examination picked the
 * next one, which failed its probation in turn).  Writes keep their winners
 * (no read-ahead to borrow). */
#define ORTH_PROBATION 6

/* A read pattern's trials wait while home's calls spend at least a share
 * (romio_orthrus_read_io_bound, default 0.5) of their time in the file
 * system's reads (ROMIO's contiguous reads, the slowest reader's), over all
 * home's calls of the pattern but its first (cold, with first-use costs),
 * checked every ORTH_IO_CALLS of them: a cold read's time comes in bursts
 * (Matrix 64 KiB: 0.1 ms calls, and every 14th one 3.6 ms: the read-ahead),
 * so a block of 8 calls could miss them.  The other candidates read the same
 * bytes in more, smaller requests from more processes at once: they can only
 * save the rest of the call, and on a cold file here they lose the read-ahead
 * (measured: stock's cold reads spend 0.57-0.74 of their time in reads on
 * Matrix 64 KiB-1 MiB and Noncontig, where forced core_first and disk_first
 * ran at 0.45-0.9x; 0.15 on Matrix 4 KiB, where core_first ran at 2.4x).
 * A cold file's first calls are I/O-bound everywhere (read-ahead starts up),
 * so this is checked again and again instead of decided once. */

/* adds one call to a window, remembering its slowest call */
static void add_call(struct orth_window *w, double b, double t)
{
    w->bytes += b;
    w->time += t;
    w->n++;
    double r = b / (t < ORTH_MIN_TIME ? ORTH_MIN_TIME : t);
    if (r > w->fast)
        w->fast = r;
    if (t > w->slow_time) {
        w->slow_time = t;
        w->slow_bytes = b;
    }
}

/* a window's throughput, without its slowest call when trim */
static double rate(const struct orth_window *w, int trim)
{
    double bytes = w->bytes - (trim ? w->slow_bytes : 0);
    double time = w->time - (trim ? w->slow_time : 0);
    return bytes / (time < ORTH_MIN_TIME ? ORTH_MIN_TIME : time);
}

/* a window's throughput, without its slowest call when it has enough calls */
static double window_tput(const struct orth_window *w)
{
    return rate(w, w->n >= ORTH_TRIM_FROM);
}

void orth_sel_init(struct orth_sel *s, int ncand, int trials, double threshold)
{
    memset(s, 0, sizeof(*s));
    s->ncand = ncand < 1 ? 1 : ncand > ORTH_MAX_CAND ? ORTH_MAX_CAND : ncand;
    s->trials = trials < 1 ? 1 : trials;
    s->threshold = threshold;
    s->trial_cost = ORTH_TRIAL_COST;
    s->io_bound = 0.5;
    s->last = -1;
    s->free = -1;
}

void orth_sel_free(struct orth_sel *s, int c)
{
    s->free = c >= 0 && c < s->ncand ? c : -1;
}

void orth_sel_forecast(struct orth_sel *s, struct orth_entry *e, int c)
{
    (void) s;
    e->forecast[c] = 1;
}

void orth_sel_io_bound(struct orth_sel *s, double share)
{
    s->io_bound = share;
}

void orth_sel_budget(struct orth_sel *s, double budget, int home)
{
    s->budget = budget > 0 ? budget : 0;
    s->home = home >= 0 && home < s->ncand ? home : 0;
}

/* home's time for one call of e at its rate over all its calls, the slowest
 * left out (0: not run yet) */
static double home_time(const struct orth_sel *s, const struct orth_entry *e)
{
    (void) s;
    return e->ref.n ? e->sig.bytes / window_tput(&e->ref) : 0;
}

/* the file's calls so far as home would run them (each pattern's calls at
 * its home rate): one descheduled call or a cold first call does not pay for
 * trials */
static double home_total(const struct orth_sel *s)
{
    double t = 0;
    for (int i = 0; i < s->nsig; i++)
        t += s->sigs[i].calls * home_time(s, &s->sigs[i]);
    return t;
}

/* a trial of candidate c of e in home calls: its own calls' rate when it ran
 * in this examination (a candidate faster than home costs nothing, and its
 * next rounds need not wait for a slower one's estimate: the budget grows
 * with the gain its first trial shows), else the view's forecast, else
 * trial_cost */
static double trial_cost(const struct orth_sel *s, const struct orth_entry *e, int c, double ref)
{
    const struct orth_window *w = &e->exam[c];
    /* a forecast candidate's second call (the drop rule's shield) too */
    if (e->forecast[c] > 0 && w->n < 2 && e->exams + e->adopted == 0)
        return e->forecast[c];
    return w->n && w->bytes > 0 ? e->sig.bytes / window_tput(w) / ref :
        e->forecast[c] > 0 ? e->forecast[c] : s->trial_cost;
}

/* one more trial of `cost` home calls fits the regret bound */
static int fits(const struct orth_sel *s, const struct orth_entry *e, double cost, double ref)
{
    return cost <= 1 || s->spent + (cost - 1) * ref <= s->budget * home_total(s);
}

int orth_sel_affordable(const struct orth_sel *s, const struct orth_entry *e)
{
    if (s->budget <= 0 || e->phase != ORTH_EXAMINING || e->cur == s->home)
        return 1;
    double ref = home_time(s, e);
    return ref > 0 && fits(s, e, trial_cost(s, e, e->cur, ref), ref);
}

int orth_sig_equal(const struct orth_sig *a, const struct orth_sig *b)
{
    return a->is_write == b->is_write && a->nprocs == b->nprocs && a->nreqs == b->nreqs &&
        a->bytes == b->bytes && a->rel_offset == b->rel_offset;
}

static int next_candidate(const struct orth_sel *s, const struct orth_entry *e, int after);

/* a candidate that lost ORTH_MAX_LOST times is out from the start (never home) */
static void start_examination(const struct orth_sel *s, struct orth_entry *e)
{
    e->phase = ORTH_EXAMINING;
    e->trial = 0;
    memset(e->exam, 0, sizeof(e->exam));
    for (int c = 0; c < ORTH_MAX_CAND; c++)
        e->out[c] = c != s->home && e->lost[c] >= ORTH_MAX_LOST ? ORTH_DROPPED : ORTH_IN;
    e->cur = e->run = next_candidate(s, e, -1);
}

static int advance(struct orth_sel *s, struct orth_entry *e, int c, int left);

static int candidates_in(const struct orth_sel *s, const struct orth_entry *e)
{
    int left = 0;
    for (int c = 0; c < s->ncand; c++)
        left += !e->out[c];
    return left;
}

/* cur's trial does not fit the regret bound now: it is postponed when the
 * trial of another candidate than home still in the examination fits (that
 * one goes on meanwhile, e.g. one faster than home); else home runs the
 * calls until a trial fits */
static void postpone(struct orth_sel *s, struct orth_entry *e)
{
    while (e->phase == ORTH_EXAMINING && e->cur != s->home && !orth_sel_affordable(s, e)) {
        double ref = home_time(s, e);
        int others = 0;
        if (ref <= 0)           /* home's rate not known yet: nothing fits */
            return;
        for (int c = 0; c < s->ncand; c++)
            others += c != s->home && c != e->cur && !e->out[c] &&
                fits(s, e, trial_cost(s, e, c, ref), ref);
        if (!others)
            return;
        e->out[e->cur] = ORTH_POSTPONED;
        s->postponed++;
        advance(s, e, e->cur, candidates_in(s, e));
    }
}

static int forecast_goes(const struct orth_sel *s, const struct orth_entry *e, int c);

/* a read trial of c would wait for home's reads (io_waiting) from the
 * start of a re-examination: home's share not measured yet, or I/O-bound */
static int waits_for_io(const struct orth_sel *s, const struct orth_entry *e, int c)
{
    return s->io_bound < 1 && !e->sig.is_write && !forecast_goes(s, e, c) &&
        (e->io_share < 0 || e->io_share >= s->io_bound);
}

/* a chosen pattern with postponed candidates: a re-examination of them, the
 * winner and home (unless dropped) once one trial (at the trials' estimate)
 * fits the bound and one of them would not wait for home's reads (it would
 * be postponed again at once: an examining call, with a reduction, every
 * other call); returns 1 when it started */
static int retry(struct orth_sel *s, struct orth_entry *e)
{
    int any = 0;
    for (int c = 0; c < s->ncand; c++)
        any |= e->out[c] == ORTH_POSTPONED && !waits_for_io(s, e, c);
    double ref = home_time(s, e);
    if (!any || ref <= 0 || !fits(s, e, s->trial_cost, ref))
        return 0;
    /* home, dropped from the examination as too slow, is not run again: its
     * rate is known (a 40-call job cannot afford its calls twice) */
    int keep[ORTH_MAX_CAND], home_in = e->out[s->home] != ORTH_DROPPED;
    for (int c = 0; c < ORTH_MAX_CAND; c++)
        keep[c] = (c == s->home && home_in) || c == e->winner || e->out[c] == ORTH_POSTPONED;
    start_examination(s, e);
    for (int c = 0; c < s->ncand; c++)
        e->out[c] = keep[c] ? e->out[c] : ORTH_DROPPED;
    e->cur = e->run = next_candidate(s, e, -1);
    s->retries++;
    return 1;
}

/* candidate c of e is forecast and its read trials need not wait for
 * home's reads: unless home's first call of the pattern was mostly reading
 * (ORTH_FIRST_IO: storage slower than the node, where every candidate reads
 * the same bytes and the forecast's saving is in the part that is not
 * reading; on the testbed's hdd profile forecast read trials of BTIO-like
 * and Noncontig ran at 2x home's call time, 0.73-0.81x stock) */
static int forecast_goes(const struct orth_sel *s, const struct orth_entry *e, int c)
{
    double bound = s->io_bound > ORTH_FIRST_IO ? s->io_bound : ORTH_FIRST_IO;
    return e->forecast[c] > 0 && e->first_io < bound;
}

/* a trial of e waits for home's reads: a read pattern in examination whose
 * home calls were I/O-bound when last measured, or not measured yet */
static int io_waiting(const struct orth_sel *s, const struct orth_entry *e)
{
    return e->phase == ORTH_EXAMINING && e->cur != s->home && waits_for_io(s, e, e->cur);
}

/* a read trial that waits for home's reads is postponed while a forecast
 * candidate of the examination can go on (forecast_goes: it does not wait):
 * a short job must not run home for the I/O-bound check first */
static void postpone_io(struct orth_sel *s, struct orth_entry *e)
{
    while (io_waiting(s, e)) {
        int other = 0;
        for (int c = 0; c < s->ncand; c++)
            other |= c != e->cur && c != s->home && !e->out[c] && forecast_goes(s, e, c);
        if (!other)
            return;
        e->out[e->cur] = ORTH_POSTPONED;
        s->postponed++;
        advance(s, e, e->cur, candidates_in(s, e));
    }
}

struct orth_entry *orth_sel_entry(struct orth_sel *s, const struct orth_sig *sig)
{
    struct orth_entry *e = NULL;
    s->clock++;
    for (int i = 0; i < s->nsig; i++)
        if (orth_sig_equal(&s->sigs[i].sig, sig))
            e = &s->sigs[i];
    if (!e) {
        if (s->nsig < ORTH_MAX_SIG)
            e = &s->sigs[s->nsig++];
        else {
            e = &s->sigs[0];
            for (int i = 1; i < s->nsig; i++)
                if (s->sigs[i].last_use < e->last_use)
                    e = &s->sigs[i];
            s->evictions++;
        }
        memset(e, 0, sizeof(*e));
        e->sig = *sig;
        e->winner = -1;
        e->io_share = e->first_io = -1;
        start_examination(s, e);
    }
    e->last_use = s->clock;
    /* io_waiting is asked once (after postpone_io): when it is false,
     * postpone() can only move cur on (home, or another candidate with the
     * same pattern's io_share) or end the examination, and it stays false */
    postpone_io(s, e);
    int wait = io_waiting(s, e);
    if (!wait)
        postpone(s, e);
    e->run = !wait && orth_sel_affordable(s, e) ? e->cur : s->home;
    if (e - s->sigs != s->last) {
        s->longest = s->streak > s->longest ? s->streak : s->longest;
        s->streak = 0;
        s->last = (int) (e - s->sigs);
    }
    s->streak++;
    return e;
}

int orth_sel_pick(const struct orth_entry *e)
{
    return e->run;
}

static void chosen(struct orth_entry *e, int w)
{
    e->probation = 0;
    e->phase = ORTH_CHOSEN;
    e->chosen_at = e->calls;
    e->cur = e->run = e->winner = w;
    e->winner_avg = e->tput[w];
    memset(&e->mon, 0, sizeof(e->mon));
}

void orth_sel_adopt(struct orth_sel *s, const struct orth_sig *sig, int w, const double *tput)
{
    int last = s->last;
    int64_t streak = s->streak, longest = s->longest;
    struct orth_entry *e = orth_sel_entry(s, sig);
    s->last = last;             /* not a call: the streaks stay */
    s->streak = streak;
    s->longest = longest;
    memcpy(e->tput, tput, s->ncand * sizeof(double));
    chosen(e, w);
    e->adopted = 1;
    /* a saved read winner was measured on another run's page cache: home
     * runs the first calls (its rate), then the winner is on probation */
    if (!sig->is_write && w != s->home) {
        e->baseline = ORTH_TRIM_FROM;
        e->cur = e->run = s->home;
    }
}

void orth_sel_decide(struct orth_sel *s, struct orth_entry *e, int w)
{
    chosen(e, w);
    e->baseline = 0;            /* no home calls first (an adopted read winner's) */
    e->decided = 1;
    s->decided++;
}

static void start_probation(struct orth_entry *e)
{
    e->probation = ORTH_PROBATION;
    memset(&e->prob, 0, sizeof(e->prob));
}

/* the examination is over: the highest throughput among the candidates not
 * dropped wins (lowest index on ties), but home keeps it unless beaten by
 * ORTH_SWITCH; a re-examination that keeps the winner lengthens the
 * monitoring window (churn on noisy calls), a new winner resets it */
static void choose(struct orth_sel *s, struct orth_entry *e)
{
    int best = -1, prev = e->exams + e->adopted > 0 ? e->winner : -1, h = s->home;
    for (int c = 0; c < s->ncand; c++) {
        e->tput[c] = window_tput(&e->exam[c]);
        if (!e->out[c] && (best < 0 || e->tput[c] > e->tput[best]))
            best = c;
    }
    best = best < 0 ? 0 : best;
    if (best != h && !e->out[h] && e->exam[h].n && e->tput[best] < ORTH_SWITCH * e->tput[h])
        best = h;
    e->backoff = best != prev ? 0 : e->backoff < ORTH_MAX_BACKOFF ? e->backoff + 1 : e->backoff;
    chosen(e, best);
    e->exams++;
    if (!e->sig.is_write && best != h && e->ref.n >= ORTH_TRIM_FROM)
        start_probation(e);
}

/* a probation call of e's winner; returns 1 when it ended the probation
 * with home taking the pattern back */
static int probation(struct orth_sel *s, struct orth_entry *e, double bytes, double time)
{
    add_call(&e->prob, bytes, time);
    if (--e->probation > 0)
        return 0;
    double mine = rate(&e->prob, 0), home = window_tput(&e->ref);
    if (mine >= home)
        return 0;
    e->prob_why[0] = mine;
    e->prob_why[1] = home;
    e->reverts++;
    /* the other candidates' trials borrowed the same read-ahead: all sit out */
    for (int c = 0; c < s->ncand; c++)
        e->lost[c] = c == s->home ? e->lost[c] : ORTH_MAX_LOST;
    e->tput[s->home] = home > e->tput[s->home] ? home : e->tput[s->home];
    chosen(e, s->home);
    return 1;
}

/* the throughput of the fastest call of e's examination so far (0: none) */
static double fastest(const struct orth_sel *s, const struct orth_entry *e)
{
    double best = 0;
    for (int c = 0; c < s->ncand; c++)
        best = e->exam[c].fast > best ? e->exam[c].fast : best;
    return best;
}

/* a read pattern's first call by home took the shield (2 x ORTH_DROP)
 * times longer than a forecast candidate's first call, both with their
 * first-use costs: home needs no second call to go (Matrix 256 KiB reads on
 * /dev/shm: 1.4 ms against core_first's 0.3 ms, and two_phase's second call
 * 0.8 ms, 6% of the 40-call phase) */
static int home_far_behind(const struct orth_sel *s, const struct orth_entry *e)
{
    double home = e->exam[s->home].fast;
    if (e->sig.is_write || e->exam[s->home].n != 1)
        return 0;
    for (int c = 0; c < s->ncand; c++)
        if (c != s->home && e->forecast[c] > 0 && e->exam[c].n &&
            e->exam[c].fast >= 2 * ORTH_DROP * home)
            return 1;
    return 0;
}

/* after each call: a candidate whose fastest call is ORTH_DROP times slower
 * than the fastest call of the examination is dropped (it could hardly win,
 * every further call of it only costs); returns the candidates left */
static int drop_slow(const struct orth_sel *s, struct orth_entry *e)
{
    double best = fastest(s, e);
    int left = 0;
    /* the first call of a new pattern pays its first-use costs (buffers,
     * page cache, connections): its candidate needs a second call to go; so
     * does a forecast candidate in the pattern's first examination whose
     * call was less than twice the drop rule slower (one noisy call must not
     * undo the forecast; a candidate far off was forecast wrong) */
    int fresh = e->exams + e->adopted == 0;
    int first = fresh && !home_far_behind(s, e) ? 0 : -1;
    for (int c = 0; c < s->ncand; c++) {
        int shield = c == first ||
            (fresh && e->forecast[c] > 0 && e->exam[c].fast * 2 * ORTH_DROP > best);
        if (e->exam[c].n > shield && e->exam[c].fast * ORTH_DROP <= best)
            e->out[c] = e->out[c] ? e->out[c] : ORTH_DROPPED;
        left += !e->out[c];
    }
    return left;
}

/* the next candidate of the round after cur, or -1 at the round's end */
static int next_candidate(const struct orth_sel *s, const struct orth_entry *e, int after)
{
    for (int c = after + 1; c < s->ncand; c++)
        if (!e->out[c])
            return c;
    return -1;
}

/* a trial's loss (time - ref, ref = home's time for the call) is charged to
 * the budget, and a trial slower than the trials' estimate raises it */
static void learn_trial(struct orth_sel *s, double time, double ref)
{
    s->spent += time - ref;
    if (ref > 0 && time / ref > s->trial_cost)
        s->trial_cost = time / ref < ORTH_TRIAL_COST_MAX ? time / ref : ORTH_TRIAL_COST_MAX;
}

/* after candidate c's turn (left: candidates not dropped): the next
 * candidate of the round, the next round, or the choice (returns 1) */
static int advance(struct orth_sel *s, struct orth_entry *e, int c, int left)
{
    int next = next_candidate(s, e, c);
    if (next >= 0) {
        e->cur = next;
        return 0;
    }
    if (++e->trial < s->trials && left > 1) {
        e->cur = next_candidate(s, e, -1);
        return 0;
    }
    choose(s, e);
    return 1;
}

/* an examination runs the candidates in rounds, one call each per round, so
 * a drift during the examination (page cache filling, read-ahead ramping up,
 * other jobs) hits them alike; `trials` rounds, or fewer when one candidate
 * is left, then the choice */
static int examine(struct orth_sel *s, struct orth_entry *e, int c, double bytes, double time)
{
    if (c != e->cur) {          /* home ran while cur's trial waited for the budget */
        /* in the first round home's turn is its latest call before the
         * trials, so they are compared at the same point of the run (a cold
         * file warms up, read-ahead ramps up); later its own turns */
        if (e->trial == 0) {
            memset(&e->exam[c], 0, sizeof(e->exam[c]));
            add_call(&e->exam[c], bytes, time);
        }
        s->deferred++;
        s->io_waits += io_waiting(s, e);
        return 0;
    }
    if (c != s->home && s->budget > 0)
        learn_trial(s, time, home_time(s, e));
    add_call(&e->exam[c], bytes, time);
    e->exam_time += time;
    return advance(s, e, c, drop_slow(s, e));
}

/* the best examination throughput among the losers */
static double runner_up(const struct orth_sel *s, const struct orth_entry *e)
{
    double best = 0;
    for (int c = 0; c < s->ncand; c++)
        if (c != e->winner && e->tput[c] > best)
            best = e->tput[c];
    return best;
}

/* the winner's throughput over a window of `trials << backoff` calls,
 * against its examination average: a re-examination when it fell by more than
 * the threshold, also below the runner-up's examination throughput (a drop
 * that may have changed the ranking; the examination average of the fastest
 * of several noisy candidates is biased high, so a drop alone is common) */
static int monitor(struct orth_sel *s, struct orth_entry *e, double bytes, double time)
{
    add_call(&e->mon, bytes, time);
    if (e->mon.n < s->trials << e->backoff)
        return 0;
    double tput = window_tput(&e->mon);
    memset(&e->mon, 0, sizeof(e->mon));
    double second = runner_up(s, e), keep = 1 - s->threshold;
    if (s->ncand < 2 || tput >= keep * e->winner_avg || tput >= keep * second)
        return 0;
    e->why[0] = tput;
    e->why[1] = e->winner_avg;
    e->why[2] = second;
    e->reexams++;
    e->lost[e->winner] += e->winner != s->home;
    start_examination(s, e);
    return 1;
}

void orth_sel_io(struct orth_sel *s, struct orth_entry *e, int c, double io, double time)
{
    if (c != s->home || e->sig.is_write)
        return;
    if (e->calls == 0) {        /* cold, with first-use costs: only for forecast_goes */
        e->first_io = time > 0 ? io / time : 0;
        return;
    }
    e->io_read += io;
    e->io_time += time;
    if (++e->io_n < ORTH_IO_CALLS)
        return;
    e->io_share = e->io_time > 0 ? e->io_read / e->io_time : 0;
    e->io_n = 0;
}

int orth_sel_record(struct orth_sel *s, struct orth_entry *e, int c, double bytes, double time)
{
    e->calls++;
    if (c == s->home)
        add_call(&e->ref, bytes, time);
    if (e->phase == ORTH_EXAMINING)
        return examine(s, e, c, bytes, time);
    if (e->baseline > 0) {      /* a saved read winner waits for home's rate */
        if (c == s->home && --e->baseline == 0) {
            e->cur = e->run = e->winner;
            start_probation(e);
        }
        return 0;
    }
    /* a quiet call (home ran it without a reduction) of a pattern whose
     * winner is another candidate says nothing about the winner */
    if (c != e->cur)
        return 0;
    if (e->probation > 0)
        return probation(s, e, bytes, time);
    return monitor(s, e, bytes, time) || retry(s, e);
}

/* e's pattern has run steadily: the calls in a row of the latest pattern */
static int steady(const struct orth_sel *s, const struct orth_entry *e)
{
    return e - s->sigs == s->last && s->streak > 2 * s->longest + 1;
}

int orth_sel_ride(const struct orth_sel *s, const struct orth_entry *e)
{
    return e->phase == ORTH_CHOSEN && e->run != s->home && steady(s, e);
}

void orth_sel_stray(struct orth_sel *s, struct orth_entry *e)
{
    (void) s;
    e->calls++;
}

int orth_sel_quiet(const struct orth_sel *s, const struct orth_entry *e, int kmax)
{
    kmax = kmax < s->streak ? kmax : (int) s->streak;
    if (kmax > 0 && e->phase == ORTH_CHOSEN && e->run == s->free && e->run != s->home &&
        !e->probation && steady(s, e))
        return kmax;
    if (kmax <= 0 || e->run != s->home || !steady(s, e) || e->baseline > 0)
        return 0;
    if (e->phase == ORTH_CHOSEN)
        return kmax;
    if (io_waiting(s, e)) {     /* until home's next block of reads is measured */
        int left = ORTH_IO_CALLS - e->io_n;
        return e->io_share < 0 ? 0 : left < kmax ? left : kmax;
    }
    double ref = home_time(s, e);
    if (e->cur == s->home || s->budget <= 0 || ref <= 0)
        return 0;
    /* home's calls (this one included) until one more trial fits the bound,
     * if they run at home's rate: the run ends one call before */
    double need = (s->spent + (trial_cost(s, e, e->cur, ref) - 1) * ref) / s->budget
        - home_total(s);
    double calls = need / ref - 1;
    if (calls >= kmax)
        return kmax;
    int k = calls > 0 ? (int) calls : 0;
    return k + (k < calls);
}

int orth_sel_skip(struct orth_sel *s, struct orth_entry *e, int c)
{
    if (e->phase != ORTH_EXAMINING || c == s->home || e->out[c])
        return 0;
    e->out[c] = ORTH_DROPPED;
    s->skipped++;
    int ended = c == e->cur ? advance(s, e, c, candidates_in(s, e)) : 0;
    e->run = orth_sel_affordable(s, e) ? e->cur : s->home;
    return ended;
}

/* the time of e's call at the fastest call of its examination so far (0:
 * none yet) */
static double best_call(const struct orth_sel *s, const struct orth_entry *e)
{
    double fast = fastest(s, e);
    return fast > 0 ? e->sig.bytes / fast : 0;
}

double orth_sel_piece_limit(const struct orth_sel *s, const struct orth_entry *e, int c)
{
    double ref = home_time(s, e);
    if (s->budget <= 0 || e->phase != ORTH_EXAMINING || c == s->home || c != e->cur ||
        e->exam[c].n || ref <= 0)
        return 0;
    /* a forecast candidate may take up to the drop rule's shield (3x its
     * forecast) before its piece is called wrong */
    int shield = e->forecast[c] > 0;
    double cost = shield ? 2 * ORTH_DROP * e->forecast[c] : trial_cost(s, e, c, ref);
    double limit = 2 * cost * ref / ORTH_PIECE_DIV, best = best_call(s, e);
    /* nor beyond what the drop rule would drop it for after the whole call,
     * against the fastest call of the examination so far (Matrix 256 KiB
     * reads: a forecast independent trial took 10x core_first's call) */
    double drop = (shield ? 2 * ORTH_DROP : ORTH_DROP) * best;
    return best > 0 && 2 * drop / ORTH_PIECE_DIV < limit ? 2 * drop / ORTH_PIECE_DIV : limit;
}

int orth_sel_cut(struct orth_sel *s, struct orth_entry *e, int c, double piece_secs)
{
    double ref = home_time(s, e);
    e->calls++;
    e->exam_time += piece_secs;
    s->spent += piece_secs - ref / ORTH_PIECE_DIV;
    s->cut++;
    e->out[c] = ORTH_DROPPED;
    int ended = c == e->cur ? advance(s, e, c, candidates_in(s, e)) : 0;
    e->run = orth_sel_affordable(s, e) ? e->cur : s->home;
    return ended;
}

int64_t orth_sel_digest(const struct orth_sel *s)
{
    uint64_t h = 1469598103934665603ULL;
    for (int i = 0; i < s->nsig; i++) {
        const struct orth_entry *e = &s->sigs[i];
        int64_t v[] = { e->sig.bytes, e->sig.nreqs, e->phase, e->cur, e->run, e->trial, e->winner,
            e->mon.n, e->calls, (int64_t) e->last_use, e->backoff, e->probation, e->reverts,
            e->baseline, e->io_share < 0 ? -1 : e->io_share >= s->io_bound, e->io_n,
            e->lost[0] | e->lost[1] << 8 | e->lost[2] << 16 | (int64_t) e->lost[3] << 24 |
                (int64_t) e->lost[4] << 32 | (int64_t) e->lost[5] << 40
        };
        for (size_t k = 0; k < sizeof(v) / sizeof(v[0]); k++)
            h = (h ^ (uint64_t) v[k]) * 1099511628211ULL;
    }
    int64_t run[] = { s->last, s->streak, s->longest };        /* they decide quiet runs */
    for (size_t k = 0; k < sizeof(run) / sizeof(run[0]); k++)
        h = (h ^ (uint64_t) run[k]) * 1099511628211ULL;
    return (int64_t) (h >> 1);
}

void orth_red_combine(const int64_t *in, int64_t *io)
{
    for (int k = ORTH_R_NPROCS; k <= ORTH_R_GAPS; k++)
        io[k] += in[k];
    for (int k = ORTH_R_CAND_MIN; k <= ORTH_R_DIGEST_MIN; k++)
        io[k] = in[k] < io[k] ? in[k] : io[k];
    for (int k = ORTH_R_CAND_MAX; k <= ORTH_R_DIGEST_MAX; k++)
        io[k] = in[k] > io[k] ? in[k] : io[k];
    io[ORTH_R_TIME_NS] = in[ORTH_R_TIME_NS] > io[ORTH_R_TIME_NS] ? in[ORTH_R_TIME_NS]
        : io[ORTH_R_TIME_NS];
    io[ORTH_R_IO_NS] = in[ORTH_R_IO_NS] > io[ORTH_R_IO_NS] ? in[ORTH_R_IO_NS] : io[ORTH_R_IO_NS];
    io[ORTH_R_ERR] = in[ORTH_R_ERR] > io[ORTH_R_ERR] ? in[ORTH_R_ERR] : io[ORTH_R_ERR];
}

int orth_red_disagree(const int64_t *r)
{
    return r[ORTH_R_CAND_MIN] != r[ORTH_R_CAND_MAX] ||
        r[ORTH_R_DIGEST_MIN] != r[ORTH_R_DIGEST_MAX];
}

int64_t orth_vb_unit(int64_t flo, int64_t fhi, int naggs, int64_t max)
{
    const int64_t mib = 1 << 20;
    int64_t share = fhi > flo && naggs > 0 ? (fhi - flo + naggs - 1) / naggs : 0;
    int64_t unit = (share + mib - 1) / mib * mib;
    unit = unit > max ? max : unit;
    return unit < mib ? (max < mib ? max : mib) : unit;
}

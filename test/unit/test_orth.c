/* Orthrus selection logic (src/orthrus/orth_select.c). */
#include <check.h>
#include "unit.h"
#include "orth_select.h"
#include "orth_desc.h"

#include <stdio.h>
#include <string.h>

static struct orth_sig sig_of(int64_t bytes)
{
    struct orth_sig s = {.is_write = 1,.nprocs = 2,.nreqs = 8,.bytes = bytes,.rel_offset = 4096 };
    return s;
}

/* sig_of(1 MiB) as a read */
static struct orth_sig read_sig(void)
{
    struct orth_sig s = sig_of(1 << 20);
    s.is_write = 0;
    return s;
}

/* a selection of ncand candidates under the default budget whose sig's new
 * pattern has candidate c forecast */
static struct orth_entry *forecast_sel_of(struct orth_sel *s, const struct orth_sig *sig,
                                          int ncand, int c)
{
    orth_sel_init(s, ncand, 3, 0.15);
    orth_sel_budget(s, 0.05, 0);
    struct orth_entry *e = orth_sel_entry(s, sig);
    orth_sel_forecast(s, e, c);
    return e;
}

/* ... of 3 candidates with candidate 1 forecast */
static struct orth_entry *forecast_sel(struct orth_sel *s, const struct orth_sig *sig)
{
    return forecast_sel_of(s, sig, 3, 1);
}

/* runs one call of sig; candidate c takes time[c] (per MB); returns the candidate */
static int call(struct orth_sel *s, const struct orth_sig *sig, const double *time, int *changed)
{
    struct orth_entry *e = orth_sel_entry(s, sig);
    int c = orth_sel_pick(e);
    int r = orth_sel_record(s, e, c, (double) sig->bytes, time[c] * sig->bytes / 1e6);
    if (changed)
        *changed = r;
    return c;
}

/* as call(), with home's (candidate 0's) reads taking share of its time */
static int call_io(struct orth_sel *s, const struct orth_sig *sig, const double *time,
                   double share)
{
    struct orth_entry *e = orth_sel_entry(s, sig);
    int c = orth_sel_pick(e);
    double t = time[c] * sig->bytes / 1e6;
    orth_sel_io(s, e, c, share * t, t);
    orth_sel_record(s, e, c, (double) sig->bytes, t);
    return c;
}

/* ncalls calls of sig; candidate c's k-th call takes t[c][k]; the entry */
static struct orth_entry *exam(struct orth_sel *s, const struct orth_sig *sig, double t[][3],
                               int ncalls)
{
    for (int i = 0; i < ncalls; i++) {
        struct orth_entry *e = orth_sel_entry(s, sig);
        int c = orth_sel_pick(e);
        ck_assert_int_eq(c, i % s->ncand);      /* rounds: one call per candidate */
        orth_sel_record(s, e, c, (double) sig->bytes, t[c][e->exam[c].n]);
    }
    return orth_sel_entry(s, sig);
}

START_TEST(examination_rotates_then_picks_fastest)
{
    struct orth_sel s;
    struct orth_sig sig = sig_of(1 << 20);
    double t[3] = { 0.3, 0.1, 0.2 };
    orth_sel_init(&s, 3, 3, 0.15);
    /* one call per candidate: 2 (2x slower than 1) is dropped after its
     * first call, 0 (3x) after its second (the pattern's first call pays
     * first-use costs), then 1 is left */
    int seq[5];
    for (int i = 0; i < 5; i++)
        seq[i] = call(&s, &sig, t, NULL);
    int want[5] = { 0, 1, 2, 0, 1 };
    for (int i = 0; i < 5; i++)
        ck_assert_int_eq(seq[i], want[i]);
    for (int i = 0; i < 20; i++)
        ck_assert_int_eq(call(&s, &sig, t, NULL), 1);
    struct orth_entry *e = orth_sel_entry(&s, &sig);
    ck_assert_int_eq(e->exams, 1);
    ck_assert_int_eq(e->reexams, 0);
    ck_assert(e->tput[1] > e->tput[2] && e->tput[2] > e->tput[0]);
    ck_assert_int_eq(e->winner, 1);
}
END_TEST

/* ranks feed their local times through an allreduce (max): whatever the local
 * timings, the decisions made from the reduced values are identical */
START_TEST(ranks_decide_identically_from_reduced_times)
{
    enum { NR = 4, NCALLS = 40 };
    struct orth_sel s[NR];
    struct orth_sig sig = sig_of(4 << 20);
    for (int r = 0; r < NR; r++)
        orth_sel_init(&s[r], 2, 3, 0.15);
    for (int k = 0; k < NCALLS; k++) {
        double local[NR], tmax = 0;
        int c[NR];
        struct orth_entry *e[NR];
        for (int r = 0; r < NR; r++) {
            e[r] = orth_sel_entry(&s[r], &sig);
            c[r] = orth_sel_pick(e[r]);
            ck_assert_int_eq(c[r], c[0]);
            /* rank r's local time differs per rank; candidate 1 is slow on rank 3 */
            local[r] = 0.01 * (1 + r) + (c[r] == 1 && r == 3 ? 0.2 : 0) + 0.001 * (k % 3);
            if (local[r] > tmax)
                tmax = local[r];
        }
        for (int r = 0; r < NR; r++)
            orth_sel_record(&s[r], e[r], c[r], (double) sig.bytes, tmax);
    }
    for (int r = 0; r < NR; r++) {
        struct orth_entry *e = orth_sel_entry(&s[r], &sig);
        ck_assert_int_eq(e->phase, ORTH_CHOSEN);
        ck_assert_int_eq(e->cur, 0);    /* the slowest rank decides: candidate 1 loses */
        ck_assert_int_eq(e->exams, s[0].sigs[0].exams);
    }
}
END_TEST

START_TEST(deviation_triggers_reexamination_and_switch)
{
    struct orth_sel s;
    struct orth_sig sig = sig_of(1 << 20);
    double t[2] = { 0.1, 0.2 };
    orth_sel_init(&s, 2, 3, 0.15);
    for (int i = 0; i < 2; i++)         /* 1 is dropped after its first call */
        call(&s, &sig, t, NULL);
    ck_assert_int_eq(orth_sel_entry(&s, &sig)->phase, ORTH_CHOSEN);
    ck_assert_int_eq(orth_sel_entry(&s, &sig)->chosen_at, 2);
    /* within the threshold: no re-examination */
    double t_ok[2] = { 0.11, 0.2 };
    for (int i = 0; i < 12; i++)
        ck_assert_int_eq(call(&s, &sig, t_ok, NULL), 0);
    ck_assert_int_eq(orth_sel_entry(&s, &sig)->reexams, 0);
    /* faster, or slower but still ahead of the runner-up: no re-examination */
    double t_fast[2] = { 0.05, 0.2 }, t_slower[2] = { 0.15, 0.2 };
    for (int i = 0; i < 12; i++) {
        ck_assert_int_eq(call(&s, &sig, t_fast, NULL), 0);
        ck_assert_int_eq(call(&s, &sig, t_slower, NULL), 0);
    }
    ck_assert_int_eq(orth_sel_entry(&s, &sig)->reexams, 0);
    /* interference: candidate 0 becomes 4x slower */
    double t_bad[2] = { 0.4, 0.2 };
    int calls = 0, c = 0;
    while (c != 1 || orth_sel_entry(&s, &sig)->phase != ORTH_CHOSEN) {
        c = call(&s, &sig, t_bad, NULL);
        ck_assert_int_lt(++calls, 100);
    }
    /* detected within one window, then one examination: <= 2 x trials x candidates */
    ck_assert_int_le(calls, 2 * 3 * 2);
    ck_assert_int_eq(orth_sel_entry(&s, &sig)->reexams, 1);
    ck_assert_int_eq(orth_sel_entry(&s, &sig)->winner, 1);
    /* the stats' chosen_after_calls: when the re-examination ended */
    ck_assert_int_gt(orth_sel_entry(&s, &sig)->chosen_at, 2 + 12 + 24);
    ck_assert_int_le(orth_sel_entry(&s, &sig)->chosen_at, orth_sel_entry(&s, &sig)->calls);
    const double *why = orth_sel_entry(&s, &sig)->why;  /* 2.5 MB/s, was 10, runner-up 5 */
    ck_assert(why[0] > 2.4e6 && why[0] < 2.6e6 && why[1] > 9.9e6 && why[2] > 4.9e6);
    ck_assert_int_eq(call(&s, &sig, t_bad, NULL), 1);
}
END_TEST

START_TEST(returning_pattern_pays_one_examination)
{
    struct orth_sel s;
    struct orth_sig chk = sig_of(8 << 20), plt = sig_of(1 << 20);
    plt.nreqs = 3;
    double tc[2] = { 0.2, 0.1 }, tp[2] = { 0.1, 0.2 };
    orth_sel_init(&s, 2, 3, 0.15);
    for (int loop = 0; loop < 5; loop++) {
        for (int i = 0; i < 8; i++)
            call(&s, &chk, tc, NULL);
        for (int i = 0; i < 8; i++)
            call(&s, &plt, tp, NULL);
    }
    ck_assert_int_eq(s.nsig, 2);
    ck_assert_int_eq(orth_sel_entry(&s, &chk)->exams, 1);
    ck_assert_int_eq(orth_sel_entry(&s, &plt)->exams, 1);
    ck_assert_int_eq(orth_sel_entry(&s, &chk)->cur, 1);
    ck_assert_int_eq(orth_sel_entry(&s, &plt)->cur, 0);
}
END_TEST

START_TEST(table_evicts_least_recently_used)
{
    struct orth_sel s;
    double t[2] = { 0.1, 0.2 };
    orth_sel_init(&s, 2, 1, 0.15);
    struct orth_sig keep = sig_of(1);
    call(&s, &keep, t, NULL);
    call(&s, &keep, t, NULL);
    for (int i = 0; i < ORTH_MAX_SIG + 3; i++) {
        struct orth_sig other = sig_of(100 + i);
        call(&s, &other, t, NULL);
        call(&s, &keep, t, NULL);     /* keep stays recently used */
    }
    ck_assert_int_eq(s.nsig, ORTH_MAX_SIG);
    ck_assert_int_eq(s.evictions, 4);
    ck_assert_int_eq(orth_sel_entry(&s, &keep)->exams, 1);
}
END_TEST

START_TEST(single_candidate_and_zero_time)
{
    struct orth_sel s;
    struct orth_sig sig = sig_of(1000);
    double t[1] = { 0 };
    orth_sel_init(&s, 1, 0, 0.15);      /* trials clamped to 1 */
    ck_assert_int_eq(s.trials, 1);
    for (int i = 0; i < 5; i++)
        ck_assert_int_eq(call(&s, &sig, t, NULL), 0);
    ck_assert_int_eq(orth_sel_entry(&s, &sig)->reexams, 0);
}
END_TEST

/* one slow call (descheduled, first use) does not decide an examination */
START_TEST(one_outlier_call_does_not_decide)
{
    struct orth_sel s;
    struct orth_sig sig = sig_of(1 << 20);
    double t[2][3] = { {0.1, 5.0, 0.1}, {0.12, 0.12, 0.12} };   /* candidate 0: one 50x call */
    orth_sel_init(&s, 2, 3, 0.15);
    struct orth_entry *e = exam(&s, &sig, t, 6);
    ck_assert_int_eq(e->phase, ORTH_CHOSEN);
    ck_assert_int_eq(e->winner, 0);
    ck_assert(e->tput[0] > 1.19 * e->tput[1] && e->tput[0] < 1.21 * e->tput[1]);
    /* with two trials every call counts: the slow call decides */
    orth_sel_init(&s, 2, 2, 0.15);
    ck_assert_int_eq(exam(&s, &sig, t, 4)->winner, 1);
}
END_TEST

/* a candidate whose fastest call is 1.5x slower than the examination's
 * fastest is dropped after that call; the others go on; the examination
 * ends when one is left */
START_TEST(slow_candidate_dropped_after_one_call)
{
    struct orth_sel s;
    struct orth_sig sig = sig_of(1 << 20);
    double t[3] = { 0.1, 0.35, 0.14 };
    orth_sel_init(&s, 3, 3, 0.15);
    int seq[7], want[7] = { 0, 1, 2, 0, 2, 0, 2 };
    for (int i = 0; i < 7; i++)
        seq[i] = call(&s, &sig, t, NULL);
    for (int i = 0; i < 7; i++)
        ck_assert_int_eq(seq[i], want[i]);
    struct orth_entry *e = orth_sel_entry(&s, &sig);
    ck_assert_int_eq(e->phase, ORTH_CHOSEN);
    ck_assert_int_eq(e->winner, 0);
    ck_assert_int_eq(e->exam[1].n, 1);
    ck_assert(e->tput[1] > 0 && e->tput[1] < e->tput[2]);
    /* a later candidate can drop an earlier one: 1 goes after 2's call, 0
     * after its second */
    double u[3] = { 0.3, 0.25, 0.1 };
    orth_sel_init(&s, 3, 3, 0.15);
    for (int i = 0; i < 5; i++)
        ck_assert_int_eq(call(&s, &sig, u, NULL), i < 3 ? i : 2 * (i - 3));
    e = orth_sel_entry(&s, &sig);
    ck_assert_int_eq(e->phase, ORTH_CHOSEN);
    ck_assert_int_eq(e->winner, 2);
    /* the price: a slow first call (first use) drops a candidate that would
     * have won by 10% */
    double first[2][3] = { {0.1, 0.1, 0.1}, {0.9, 0.09, 0.09} };
    orth_sel_init(&s, 2, 3, 0.15);
    for (int i = 0; i < 2; i++)
        orth_sel_record(&s, orth_sel_entry(&s, &sig), i, (double) sig.bytes, first[i][0]);
    e = orth_sel_entry(&s, &sig);
    ck_assert_int_eq(e->exam[1].n, 1);
    ck_assert_int_eq(e->winner, 0);
    /* but the very first call of a new pattern does not drop its candidate:
     * 0 gets a second call, and wins */
    double cold[2][3] = { {0.9, 0.1, 0.1}, {0.12, 0.12, 0.12} };
    orth_sel_init(&s, 2, 3, 0.15);
    e = exam(&s, &sig, cold, 6);
    ck_assert_int_eq(e->exam[0].n, 3);
    ck_assert_int_eq(e->winner, 0);
}
END_TEST

/* 2 candidates, 3 trials: the examination's 6 calls with times t; the entry */
static struct orth_entry *examined(struct orth_sel *s, const struct orth_sig *sig,
                                   const double *t)
{
    orth_sel_init(s, 2, 3, 0.15);
    for (int i = 0; i < 6; i++)
        call(s, sig, t, NULL);
    return orth_sel_entry(s, sig);
}

/* a re-examination that keeps the winner doubles the monitoring window (up
 * to 8 x trials); one that changes it resets the window */
START_TEST(confirmed_winner_lengthens_window)
{
    struct orth_sel s;
    struct orth_sig sig = sig_of(1 << 20);
    double fast[2] = { 0.1, 0.12 }, dip[2] = { 0.2, 0.12 };
    struct orth_entry *e = examined(&s, &sig, fast);
    ck_assert_int_eq(e->winner, 0);
    int want[5] = { 3, 6, 12, 24, 24 };
    for (int k = 0; k < 5; k++) {
        /* the winner dips for a whole window: a re-examination after
         * exactly one window, which confirms the winner */
        int n = 0, changed = 0;
        while (!changed) {
            call(&s, &sig, dip, &changed);
            n++;
        }
        ck_assert_int_eq(n, want[k]);
        for (int i = 0; i < 6; i++)
            call(&s, &sig, fast, NULL);
        ck_assert_int_eq(e->winner, 0);
        ck_assert_int_eq(e->backoff, k < 3 ? k + 1 : 3);
    }
    /* a re-examination that changes the winner: the window is trials again */
    double slow0[2] = { 0.3, 0.12 };
    int changed = 0;
    while (e->winner == 0)
        call(&s, &sig, slow0, &changed);
    ck_assert_int_eq(e->backoff, 0);
}
END_TEST

/* a winner within the threshold of the runner-up is not re-examined on a
 * dip that leaves it close to the runner-up (cold-read churn) */
START_TEST(close_runner_up_no_churn)
{
    struct orth_sel s;
    struct orth_sig sig = sig_of(1 << 20);
    double t[2] = { 0.10, 0.11 }, noisy[2] = { 0.125, 0.11 };
    examined(&s, &sig, t);
    for (int i = 0; i < 60; i++)        /* 0.8 x its average, 0.88 x the runner-up */
        call(&s, &sig, noisy, NULL);
    ck_assert_int_eq(orth_sel_entry(&s, &sig)->reexams, 0);
}
END_TEST

/* the call's one reduction: sums, the slowest time, and agreement */
START_TEST(reduction_sums_max_and_detects_disagreement)
{
    int64_t a[ORTH_R_N] = { 1, 4, 4096, 100, 2000, 1, 77, 1, 77 };
    int64_t b[ORTH_R_N] = { 1, 2, 1024, 50, 9000, 1, 77, 1, 77 };
    orth_red_combine(a, b);
    ck_assert_int_eq(b[ORTH_R_NPROCS], 2);
    ck_assert_int_eq(b[ORTH_R_NREQS], 6);
    ck_assert_int_eq(b[ORTH_R_BYTES], 5120);
    ck_assert_int_eq(b[ORTH_R_GAPS], 150);
    ck_assert_int_eq(b[ORTH_R_TIME_NS], 9000);
    ck_assert(!orth_red_disagree(b));
    int64_t c[ORTH_R_N] = { 0, 0, 0, 0, 0, 2, 77, 2, 77 };      /* another candidate */
    orth_red_combine(c, b);
    ck_assert(orth_red_disagree(b));
    int64_t d[ORTH_R_N] = { 0, 0, 0, 0, 0, 1, 78, 1, 78 }, e[ORTH_R_N];
    memcpy(e, a, sizeof(e));
    orth_red_combine(d, e);     /* the same candidate, another selection state */
    ck_assert(orth_red_disagree(e));
}
END_TEST

/* the digest follows every decision-relevant change of the state */
START_TEST(digest_changes_with_the_state)
{
    struct orth_sel s, t;
    struct orth_sig sig = sig_of(1 << 20);
    double time[2] = { 0.1, 0.2 };
    orth_sel_init(&s, 2, 3, 0.15);
    orth_sel_init(&t, 2, 3, 0.15);
    ck_assert(orth_sel_digest(&s) == orth_sel_digest(&t));
    call(&s, &sig, time, NULL);
    ck_assert(orth_sel_digest(&s) != orth_sel_digest(&t));
    call(&t, &sig, time, NULL);
    ck_assert(orth_sel_digest(&s) == orth_sel_digest(&t));
    int64_t before = orth_sel_digest(&s);
    call(&s, &sig, time, NULL);
    ck_assert(orth_sel_digest(&s) != before);
}
END_TEST

/* winners saved by one run start the next run chosen, without examination */
START_TEST(table_round_trip)
{
    static const char *const names[2] = { "two_phase", "core_first" };
    struct orth_sel s, t;
    struct orth_sig a = sig_of(1 << 20), b = sig_of(4096), c = sig_of(777);
    double ta[2] = { 0.2, 0.1 }, tb[2] = { 0.1, 0.2 };
    orth_sel_init(&s, 2, 2, 0.15);
    for (int i = 0; i < 4; i++) {
        call(&s, &a, ta, NULL);
        call(&s, &b, tb, NULL);
    }
    call(&s, &c, ta, NULL);     /* still examining: not saved */
    char text[4096];
    FILE *f = fmemopen(text, sizeof(text), "w");
    ck_assert_int_eq(orth_table_write(f, &s, names), 2);
    fclose(f);
    orth_sel_init(&t, 2, 2, 0.15);
    f = fmemopen(text, strlen(text), "r");
    ck_assert_int_eq(orth_table_read(f, &t, names), 2);
    fclose(f);
    struct orth_entry *e = orth_sel_entry(&t, &a);
    ck_assert_int_eq(e->phase, ORTH_CHOSEN);
    ck_assert_int_eq(e->winner, 1);
    ck_assert_int_eq(e->adopted, 1);
    ck_assert_int_eq(e->exams, 0);
    ck_assert(e->tput[1] > e->tput[0] && e->winner_avg == e->tput[1]);
    ck_assert_int_eq(orth_sel_entry(&t, &b)->winner, 0);
    ck_assert_int_eq(call(&t, &a, ta, NULL), 1);        /* no examination */
    /* a winner that is not a candidate here is skipped; a bad line stops */
    static const char *const other[2] = { "two_phase", "disk_first" };
    orth_sel_init(&t, 2, 2, 0.15);
    f = fmemopen(text, strlen(text), "r");
    ck_assert_int_eq(orth_table_read(f, &t, other), 1);
    fclose(f);
    char bad[] = "# comment\n1 2 8 1048576 4096 two_phase two_phase=5\n1 2 x\n";
    orth_sel_init(&t, 2, 2, 0.15);
    f = fmemopen(bad, strlen(bad), "r");
    ck_assert_int_eq(orth_table_read(f, &t, names), -1);
    fclose(f);
    ck_assert_int_eq(t.nsig, 1);
}
END_TEST

/* the regret bound: home (stock) runs the calls until one more trial,
 * budgeted at 2x home's call, fits within budget x the time so far */
START_TEST(budget_defers_trials_until_affordable)
{
    struct orth_sel s;
    struct orth_sig sig = sig_of(1 << 20);
    double t[3] = { 0.1, 0.15, 0.1 };   /* per MB: home 0.1 s a call */
    orth_sel_init(&s, 3, 3, 0.15);
    orth_sel_budget(&s, 0.05, 0);
    int first = -1;
    for (int i = 0; i < 60 && first < 0; i++)
        if (call(&s, &sig, t, NULL) != 0)
            first = i;
    /* 0.05 x total >= 0.1 (one trial's estimate beyond home): after 20 calls */
    ck_assert(first >= 19 && first <= 21);
    ck_assert_int_eq(s.deferred, first - 1);
    /* candidate 1 lost ~0.05 s against home: the next trial waits for more */
    ck_assert(s.spent > 0.04 && s.spent < 0.06);
    ck_assert_int_eq(orth_sel_entry(&s, &sig)->run, 0);
    ck_assert_int_eq(orth_sel_entry(&s, &sig)->cur, 2);
    ck_assert(!orth_sel_affordable(&s, orth_sel_entry(&s, &sig)));
}
END_TEST

/* whatever the other candidates cost, the whole run stays within the budget
 * of home-only (plus one trial's excess over its estimate) */
START_TEST(budget_bounds_the_whole_run)
{
    double slow[3][3] = { {0.1, 0.3, 0.4}, {0.1, 0.12, 0.3}, {0.1, 0.5, 0.11} };
    for (int k = 0; k < 3; k++)
        for (int n = 5; n <= 200; n *= 2) {
            struct orth_sel s;
            struct orth_sig sig = sig_of(1 << 20);
            orth_sel_init(&s, 3, 3, 0.15);
            orth_sel_budget(&s, 0.05, 0);
            double total = 0;
            for (int i = 0; i < n; i++) {
                int c = call(&s, &sig, slow[k], NULL);
                total += slow[k][c] * sig.bytes / 1e6;
            }
            double home = n * slow[k][0] * sig.bytes / 1e6, excess = 0.4 * sig.bytes / 1e6;
            ck_assert(total <= 1.05 * home + excess);
            if (n < 20)         /* short runs: stock only */
                ck_assert(total < home * (1 + 1e-9));
        }
}
END_TEST

/* a budgeted selector of 3 candidates (home 0) called with times t until
 * it has chosen, at most max calls; the number of calls */
static int calls_until_chosen(struct orth_sel *s, const struct orth_sig *sig, const double *t,
                              int max)
{
    int i = 0;
    orth_sel_init(s, 3, 3, 0.15);
    orth_sel_budget(s, 0.05, 0);
    while (orth_sel_entry(s, sig)->phase != ORTH_CHOSEN && i < max) {
        call(s, sig, t, NULL);
        i++;
    }
    return i;
}

/* a faster candidate pays back its trial: the examination goes on at once
 * and ends with it */
START_TEST(budget_gain_lets_the_examination_go_on)
{
    struct orth_sel s;
    struct orth_sig sig = sig_of(1 << 20);
    double t[3] = { 0.1, 0.04, 0.09 };
    int i = calls_until_chosen(&s, &sig, t, 100);
    /* 20 stock calls, then trials paid by candidate 1's gain */
    ck_assert_int_le(i, 30);
    ck_assert_int_eq(orth_sel_entry(&s, &sig)->winner, 1);
    ck_assert(s.spent < 0);
    ck_assert_int_eq(call(&s, &sig, t, NULL), 1);
}
END_TEST

/* home need not be the rotation's first candidate: it runs first, and the
 * others wait for its time */
START_TEST(budget_home_not_first)
{
    struct orth_sel s;
    struct orth_sig sig = sig_of(1 << 20);
    double t[2] = { 0.1, 0.1 };
    orth_sel_init(&s, 2, 3, 0.15);
    orth_sel_budget(&s, 0.05, 1);
    for (int i = 0; i < 10; i++)
        ck_assert_int_eq(call(&s, &sig, t, NULL), 1);
    /* no bound: the rotation from its first candidate */
    orth_sel_init(&s, 2, 3, 0.15);
    orth_sel_budget(&s, 0, 1);
    ck_assert_int_eq(call(&s, &sig, t, NULL), 0);
}
END_TEST

/* one descheduled (50x) home call does not pay for a trial: the budget is
 * counted at home's rate without its slowest call */
START_TEST(budget_outlier_pays_nothing)
{
    struct orth_sel s;
    struct orth_sig sig = sig_of(1 << 20);
    orth_sel_init(&s, 2, 3, 0.15);
    orth_sel_budget(&s, 0.05, 0);
    for (int i = 0; i < 19; i++) {
        struct orth_entry *e = orth_sel_entry(&s, &sig);
        ck_assert_int_eq(orth_sel_pick(e), 0);
        orth_sel_record(&s, e, 0, (double) sig.bytes, i == 2 ? 5.0 : 0.1);
    }
    ck_assert_int_eq(orth_sel_pick(orth_sel_entry(&s, &sig)), 0);
}
END_TEST

/* a trial slower than the trials' estimate (2x home) raises the estimate:
 * the next trial waits until the budget holds one of those (up to 8x) */
START_TEST(budget_learns_the_trial_cost)
{
    struct orth_sel s;
    struct orth_sig sig = sig_of(1 << 20);
    double t[3] = { 0.1, 0.37, 0.1 };   /* candidate 1: 3.7x home */
    orth_sel_init(&s, 3, 3, 0.15);
    orth_sel_budget(&s, 0.05, 0);
    ck_assert(s.trial_cost == 2.0);
    int first = -1, second = -1;
    for (int i = 0; i < 200 && second < 0; i++) {
        int c = call(&s, &sig, t, NULL);
        if (c == 1 && first < 0)
            first = i;
        if (c == 2)
            second = i;
    }
    ck_assert(first >= 19 && first <= 21);
    ck_assert(s.trial_cost > 3.69 && s.trial_cost < 3.71);
    /* lost 2.7 calls, one more trial budgeted at 2.7: 5.4 <= 0.05 x calls
     * (a fixed 2x budget would give 3.7 <= 0.05 x calls, call 74) */
    ck_assert(second >= 107 && second <= 110);
    /* capped: a 20x trial is budgeted at 8x */
    double u[3] = { 0.1, 2.0, 0.1 };
    orth_sel_init(&s, 3, 3, 0.15);
    orth_sel_budget(&s, 0.05, 0);
    for (int i = 0; i < 30; i++)
        call(&s, &sig, u, NULL);
    ck_assert(s.trial_cost == 8.0);
}
END_TEST

/* a candidate the view predicts to lose is skipped: it never runs in this
 * examination, the examination goes on with the next, and it is back in
 * the next examination */
START_TEST(skipped_candidate_never_runs)
{
    struct orth_sel s;
    struct orth_sig sig = sig_of(1 << 20);
    double t[3] = { 0.1, 0.01, 0.12 };  /* 1 would win, but is skipped */
    orth_sel_init(&s, 3, 3, 0.15);
    ck_assert_int_eq(call(&s, &sig, t, NULL), 0);
    struct orth_entry *e = orth_sel_entry(&s, &sig);
    ck_assert_int_eq(e->cur, 1);
    ck_assert_int_eq(orth_sel_skip(&s, e, 1), 0);
    ck_assert_int_eq(orth_sel_skip(&s, e, 1), 0);       /* once */
    ck_assert_int_eq(orth_sel_skip(&s, e, 0), 0);       /* never home */
    ck_assert_int_eq(s.skipped, 1);
    ck_assert_int_eq(orth_sel_pick(e), 2);
    for (int i = 0; i < 5; i++)
        ck_assert_int_ne(call(&s, &sig, t, NULL), 1);
    e = orth_sel_entry(&s, &sig);
    ck_assert_int_eq(e->phase, ORTH_CHOSEN);
    ck_assert_int_eq(e->winner, 0);
    ck_assert_int_eq(e->exam[1].n, 0);
    /* skipping the last one left ends the examination with the choice */
    orth_sel_init(&s, 2, 3, 0.15);
    call(&s, &sig, t, NULL);
    e = orth_sel_entry(&s, &sig);
    ck_assert_int_eq(orth_sel_skip(&s, e, 1), 1);
    ck_assert_int_eq(e->phase, ORTH_CHOSEN);
    ck_assert_int_eq(e->winner, 0);
    /* under the budget: a skip does not wait, the next trial is checked
     * for affordability at once */
    double v[3] = { 0.1, 0.1, 0.1 };
    orth_sel_init(&s, 3, 3, 0.15);
    orth_sel_budget(&s, 0.05, 0);
    for (int i = 0; i < 25; i++) {
        e = orth_sel_entry(&s, &sig);
        if (e->cur == 1)
            orth_sel_skip(&s, e, 1);
        int c = orth_sel_pick(e);
        ck_assert_int_ne(c, 1);
        orth_sel_record(&s, e, c, (double) sig.bytes, v[c]);
    }
    ck_assert_int_eq(orth_sel_entry(&s, &sig)->exam[2].n > 0, 1);
}
END_TEST


/* under the budget, home's first-round turn is its latest call before the
 * trials: a cold start (home's first calls 5x slower) does not make a
 * slower candidate win; the budget still counts every home call */
START_TEST(deferred_home_compared_at_the_trials)
{
    struct orth_sel s;
    struct orth_sig sig = sig_of(1 << 20);
    orth_sel_init(&s, 2, 3, 0.15);
    orth_sel_budget(&s, 0.05, 0);
    struct orth_entry *e = NULL;
    int i = 0;
    for (; i < 200 && (!e || e->phase != ORTH_CHOSEN); i++) {
        e = orth_sel_entry(&s, &sig);
        int c = orth_sel_pick(e);
        double t = c == 1 ? 0.12 : i < 10 ? 0.5 : 0.1;     /* home warms up after 10 calls */
        orth_sel_record(&s, e, c, (double) sig.bytes, t);
    }
    ck_assert_int_eq(e->phase, ORTH_CHOSEN);
    ck_assert_int_eq(e->exam[1].n, 3);
    ck_assert_int_eq(e->winner, 0);
    ck_assert(e->tput[0] > 1.15 * e->tput[1]);
    /* every home call in the budget's rate: more than the 3 compared */
    ck_assert_int_eq(e->ref.n, i - 3);
    ck_assert(e->ref.time > 9 * 0.5);
}
END_TEST

/* another candidate must beat home by 5% to win; a tie keeps stock */
START_TEST(switch_needs_a_margin)
{
    struct orth_sel s;
    struct orth_sig sig = sig_of(1 << 20);
    double close[2] = { 0.1, 0.097 }, clear[2] = { 0.1, 0.09 };
    orth_sel_init(&s, 2, 3, 0.15);
    for (int i = 0; i < 6; i++)
        call(&s, &sig, close, NULL);
    ck_assert_int_eq(orth_sel_entry(&s, &sig)->phase, ORTH_CHOSEN);
    ck_assert_int_eq(orth_sel_entry(&s, &sig)->winner, 0);
    ck_assert(orth_sel_entry(&s, &sig)->tput[1] > orth_sel_entry(&s, &sig)->tput[0]);
    orth_sel_init(&s, 2, 3, 0.15);
    for (int i = 0; i < 6; i++)
        call(&s, &sig, clear, NULL);
    ck_assert_int_eq(orth_sel_entry(&s, &sig)->winner, 1);
    /* with home not first in the rotation, the margin is still home's */
    orth_sel_init(&s, 2, 3, 0.15);
    orth_sel_budget(&s, 0, 1);
    double close1[2] = { 0.097, 0.1 };
    for (int i = 0; i < 6; i++)
        call(&s, &sig, close1, NULL);
    ck_assert_int_eq(orth_sel_entry(&s, &sig)->winner, 1);
}
END_TEST

/* a candidate fast in its trials but slow when it runs alone (it read what
 * home's read-ahead brought in) wins, is re-examined away, wins again, and
 * after its second loss sits out: then home keeps the pattern */
START_TEST(twice_lost_sits_out)
{
    struct orth_sel s;
    struct orth_sig sig = sig_of(1 << 20);
    orth_sel_init(&s, 2, 3, 0.15);
    int wins = 0, last = -1;
    for (int i = 0; i < 300; i++) {
        struct orth_entry *e = orth_sel_entry(&s, &sig);
        int c = orth_sel_pick(e);
        double t = c == 0 ? 0.1 : e->phase == ORTH_EXAMINING ? 0.05 : 0.3;
        if (orth_sel_record(&s, e, c, (double) sig.bytes, t) && e->phase == ORTH_CHOSEN)
            wins += e->winner == 1;
        if (i == 150)
            last = (int) e->reexams;
    }
    struct orth_entry *e = orth_sel_entry(&s, &sig);
    ck_assert_int_eq(wins, 2);
    ck_assert_int_eq(e->lost[1], 2);
    ck_assert_int_eq(e->lost[0], 0);
    ck_assert_int_eq(e->reexams, 2);
    ck_assert_int_eq(last, 2);
    ck_assert_int_eq(e->winner, 0);
    ck_assert_int_eq(e->exam[1].n, 0);  /* the third examination: home alone */
    ck_assert_int_eq(e->phase, ORTH_CHOSEN);
    /* home's own dips never count as losses */
    double dip[2] = { 0.3, 0.2 };
    for (int i = 0; i < 30; i++)
        call(&s, &sig, dip, NULL);
    ck_assert_int_eq(e->lost[0], 0);
}
END_TEST

/* a candidate that was faster than home in its first trial runs its next
 * rounds at once, even after another candidate's slow trial raised the
 * estimate (5x): the examination ends within the run */
START_TEST(faster_candidate_goes_on_at_once)
{
    struct orth_sel s;
    struct orth_sig sig = sig_of(1 << 20);
    double t[3] = { 0.1, 0.07, 0.5 };
    int i = calls_until_chosen(&s, &sig, t, 200);
    ck_assert(s.trial_cost > 4.9);
    ck_assert_int_le(i, 30);
    ck_assert_int_eq(orth_sel_entry(&s, &sig)->winner, 1);
    ck_assert_int_eq(orth_sel_entry(&s, &sig)->exam[2].n, 1);
    /* a slower one (1.2x) goes on at its own cost, while the untried one's
     * trial (budgeted at 2x) does not fit: that one is postponed, home
     * wins, and the postponed one is tried once a trial fits */
    double u[3] = { 0.1, 0.12, 0.5 };
    orth_sel_init(&s, 3, 3, 0.15);
    orth_sel_budget(&s, 0.05, 0);
    for (i = 0; i < 30; i++)
        call(&s, &sig, u, NULL);
    struct orth_entry *e = &s.sigs[0];
    ck_assert_int_eq(e->phase, ORTH_CHOSEN);
    ck_assert_int_eq(e->winner, 0);
    ck_assert_int_eq(e->exam[1].n, 3);
    ck_assert_int_eq(e->exam[2].n, 0);
    ck_assert_int_ge(s.postponed, 1);
    ck_assert_int_eq(s.retries, 0);
    for (i = 0; i < 200 && e->exam[2].n == 0; i++)
        call(&s, &sig, u, NULL);
    ck_assert_int_eq(s.retries, 1);
    ck_assert_int_eq(e->exam[2].n, 1);
    for (i = 0; i < 20; i++)
        call(&s, &sig, u, NULL);
    ck_assert_int_eq(e->phase, ORTH_CHOSEN);
    ck_assert_int_eq(e->winner, 0);
}
END_TEST

/* Matrix 256 KiB writes as measured: candidate 1 is 1.1x home, 2 is slow
 * (its trial raises the estimate), 3 untried: 3's trial does not fit for
 * the rest of a 60-call run.  It is postponed, the examination ends with
 * candidate 1 well within the run, and only home's and 1's calls follow */
START_TEST(postponed_trial_lets_a_faster_one_win)
{
    struct orth_sel s;
    struct orth_sig sig = sig_of(1 << 20);
    double t[4] = { 0.1, 0.09, 0.28, 0.3 };
    orth_sel_init(&s, 4, 3, 0.15);
    orth_sel_budget(&s, 0.05, 0);
    int runs[4] = { 0 }, chosen_at = -1;
    for (int i = 0; i < 60; i++) {
        runs[call(&s, &sig, t, NULL)]++;
        if (chosen_at < 0 && s.sigs[0].phase == ORTH_CHOSEN)
            chosen_at = i;
    }
    struct orth_entry *e = &s.sigs[0];
    ck_assert_int_eq(e->winner, 1);
    ck_assert(chosen_at > 0 && chosen_at < 40);
    ck_assert_int_eq(runs[2], 1);
    ck_assert_int_eq(runs[3], 0);
    ck_assert_int_eq(s.postponed, 1);
    ck_assert_int_ge(runs[1], 60 - chosen_at - 1 + 3);
    /* without candidate 1 the untried one waits as before: home runs */
    double u[4] = { 0.1, 0.3, 0.28, 0.3 };
    orth_sel_init(&s, 4, 3, 0.15);
    orth_sel_budget(&s, 0.05, 0);
    for (int i = 0; i < 60; i++)
        call(&s, &sig, u, NULL);
    ck_assert_int_eq(s.sigs[0].phase, ORTH_EXAMINING);
    ck_assert_int_eq(s.postponed, 0);
}
END_TEST

/* a read pattern's home, whose first call took 3x (the shield) a forecast
 * candidate's first call or more, is dropped without a second call; a write
 * pattern's home, or one only 2x slower, gets its second call */
START_TEST(read_home_far_behind_goes_after_one_call)
{
    struct orth_sig rd = read_sig(), wr = sig_of(1 << 20);
    double far[2] = { 0.4, 0.1 }, near[2] = { 0.2, 0.1 };
    struct { const struct orth_sig *sig; const double *t; int home_calls; } cases[] = {
        { &rd, far, 1 }, { &wr, far, 2 }, { &rd, near, 2 } };
    for (int k = 0; k < 3; k++) {
        struct orth_sel s;
        forecast_sel_of(&s, cases[k].sig, 2, 1);
        int homes = 0;
        for (int i = 0; i < 10; i++)
            homes += call_io(&s, cases[k].sig, cases[k].t, 0.3) == 0;
        ck_assert_int_eq(homes, cases[k].home_calls);
        ck_assert_int_eq(orth_sel_entry(&s, cases[k].sig)->winner, 1);
    }
}
END_TEST

/* a trial's piece may not take longer than the drop rule allows against
 * the fastest call of the examination so far (here a forecast candidate
 * 5x faster than home): the limit shrinks with that call */
START_TEST(piece_limit_follows_the_fastest_call)
{
    struct orth_sel s;
    struct orth_sig sig = sig_of(1 << 20);
    double t[3] = { 0.1, 0.02, 0.5 };
    struct orth_entry *e = forecast_sel(&s, &sig);
    orth_sel_forecast(&s, e, 2);
    ck_assert_int_eq(call(&s, &sig, t, NULL), 0);
    e = orth_sel_entry(&s, &sig);
    double ref = 0.1 * sig.bytes / 1e6, before = orth_sel_piece_limit(&s, e, 1);
    ck_assert_int_eq(call(&s, &sig, t, NULL), 1);
    e = orth_sel_entry(&s, &sig);
    ck_assert_int_eq(orth_sel_pick(e), 2);
    double lim = orth_sel_piece_limit(&s, e, 2), best = 0.02 * sig.bytes / 1e6;
    ck_assert(before > 0.7 * ref);      /* 2 x 3 forecast calls / 8 */
    ck_assert(lim > 0 && lim <= 2 * 3 * best / 8 * 1.0001);
    ck_assert(lim < before / 2);
}
END_TEST

/* a read pattern won by a forecast candidate keeps it: a candidate
 * postponed because it would wait for home's reads, which home never
 * measures again, starts no re-examination (each would postpone it at once:
 * an examining call every other call) */
START_TEST(no_retry_while_postponed_reads_would_wait)
{
    struct orth_sel s;
    struct orth_sig sig = read_sig();
    double t[3] = { 0.4, 0.2, 0.05 };
    forecast_sel_of(&s, &sig, 3, 2);
    int runs[3] = { 0 };
    for (int i = 0; i < 40; i++)
        runs[call_io(&s, &sig, t, 0.3)]++;
    struct orth_entry *e = orth_sel_entry(&s, &sig);
    ck_assert_int_eq(e->winner, 2);
    ck_assert_int_eq(e->out[1], 2);     /* ORTH_POSTPONED */
    ck_assert_int_eq(runs[1], 0);
    ck_assert_int_eq(s.retries, 0);
    ck_assert_int_eq(e->exams, 1);
}
END_TEST

/* --- quiet runs (orth_sel_quiet): the layer's reductions, simulated --- */
enum { QS_RANKS = 3, QS_MAX = 16 };

/* rank r's local time for candidate c (per MB): home 0.1, the others t[c];
 * every rank differs (up to +40%) and every call a little */
static double qs_local(const double *t, int c, int r, int k)
{
    return t[c] * (1 + 0.2 * r) * (1 + 0.01 * ((k * 7 + r * 3) % 5));
}

/* ncalls calls of sig on QS_RANKS ranks as the layer makes them: a call
 * reduces (records the pending call and the quiet run's calls, each at its
 * slowest rank's time), picks, and a pick of home starts a quiet run of
 * orth_sel_quiet(kmax) calls that home runs without a reduction.  Asserts
 * every rank picks alike; returns the reductions, first[0] = the first call
 * of another candidate (-1: none) */
static int qs_run(struct orth_sel *s, const struct orth_sig *sig, const double *t, int ncalls,
                  int kmax, int *first)
{
    int left = 0, pend_c = -1, nq = 0, reductions = 0;
    double pend[QS_RANKS], q[QS_MAX][QS_RANKS];
    *first = -1;
    for (int k = 0; k <= ncalls; k++) {
        if (left > 0 && k < ncalls) {   /* a quiet call: home, times kept */
            for (int r = 0; r < QS_RANKS; r++)
                q[nq][r] = qs_local(t, s[0].home, r, k) * sig->bytes / 1e6;
            nq++;
            left--;
            continue;
        }
        reductions++;           /* the call's reduction (or the close's) */
        double tmax = 0, qmax[QS_MAX] = { 0 };
        for (int r = 0; r < QS_RANKS; r++) {
            tmax = pend[r] > tmax ? pend[r] : tmax;
            for (int i = 0; i < nq; i++)
                qmax[i] = q[i][r] > qmax[i] ? q[i][r] : qmax[i];
        }
        int pick = -1;
        for (int r = 0; r < QS_RANKS; r++) {
            if (pend_c >= 0)
                orth_sel_record(&s[r], orth_sel_entry(&s[r], sig), pend_c, sig->bytes, tmax);
            for (int i = 0; i < nq; i++)
                orth_sel_record(&s[r], orth_sel_entry(&s[r], sig), s[r].home, sig->bytes,
                                qmax[i]);
            ck_assert_int_eq(orth_sel_digest(&s[r]), orth_sel_digest(&s[0]));
        }
        for (int r = 0; r < QS_RANKS && k < ncalls; r++) {
            struct orth_entry *e = orth_sel_entry(&s[r], sig);
            int c = orth_sel_pick(e), n = c == s[r].home ? orth_sel_quiet(&s[r], e, kmax) : 0;
            ck_assert(r == 0 || (c == pick && n == left));
            pick = c;
            left = n;
            pend[r] = qs_local(t, c, r, k) * sig->bytes / 1e6;
        }
        pend_c = pick;
        nq = 0;
        if (pick != s[0].home && *first < 0)
            *first = k;
    }
    return reductions;
}

/* with quiet runs the ranks still decide alike from the reduced times, the
 * trials start at the same call as with a reduction per call, the same
 * winner is chosen, and once home has won a reduction covers 17 calls */
START_TEST(quiet_runs_keep_the_decisions)
{
    double faster[3] = { 0.1, 0.08, 0.2 }, slower[3] = { 0.1, 0.13, 0.2 };
    const double *ts[2] = { faster, slower };
    struct orth_sig sig = sig_of(1 << 20);
    for (int v = 0; v < 2; v++) {
        struct orth_sel a[QS_RANKS], b[QS_RANKS];
        int fa, fb;
        for (int r = 0; r < QS_RANKS; r++) {
            orth_sel_init(&a[r], 3, 3, 0.15);
            orth_sel_budget(&a[r], 0.05, 0);
            orth_sel_init(&b[r], 3, 3, 0.15);
            orth_sel_budget(&b[r], 0.05, 0);
        }
        int na = qs_run(a, &sig, ts[v], 300, 0, &fa), nb = qs_run(b, &sig, ts[v], 300, QS_MAX, &fb);
        ck_assert_int_eq(na, 301);      /* every call, and the close */
        ck_assert(fa > 15 && fa < 40);
        ck_assert_int_eq(fb, fa);       /* the first trial: at the same call */
        struct orth_entry *ea = orth_sel_entry(&a[0], &sig), *eb = orth_sel_entry(&b[0], &sig);
        ck_assert_int_eq(ea->phase, ORTH_CHOSEN);
        ck_assert_int_eq(eb->phase, ORTH_CHOSEN);
        ck_assert_int_eq(eb->winner, ea->winner);
        ck_assert_int_eq(eb->winner, v == 0 ? 1 : 0);
        ck_assert_int_eq(eb->calls, 300);
        if (v == 1)             /* home won: ~300 / 17 reductions after the examination */
            ck_assert_int_lt(nb, 60);
    }
}
END_TEST

/* the run's length: the whole run (kmax) while home is the chosen winner;
 * none in an examination's own turns nor for another winner; while a trial
 * waits for the budget, the calls until it is affordable, less one */
/* an examination of a read (or write) pattern where candidate 1 (0.10 s/MB)
 * beats home (0.11); returns the entry, chosen */
static struct orth_entry *exam_won_by_1(struct orth_sel *s, struct orth_sig *sig, int is_write)
{
    double t[2] = { 0.11, 0.10 };
    orth_sel_init(s, 2, 3, 0.15);
    *sig = sig_of(1 << 20);
    sig->is_write = is_write;
    /* a read's trials wait for a block of home's calls (after the first)
     * that is not I/O-bound */
    int wait = is_write ? 0 : ORTH_IO_CALLS;
    for (int i = 0; i < 6 + wait; i++)
        ck_assert_int_eq(call_io(s, sig, t, 0.2), i < 1 + wait ? 0 : (i - wait) % 2);
    struct orth_entry *e = orth_sel_entry(s, sig);
    ck_assert_int_eq(e->phase, ORTH_CHOSEN);
    ck_assert_int_eq(e->winner, 1);
    return e;
}

/* a read pattern whose home calls spend most of their time in file reads
 * is never tried by the others (they would read the same bytes, and lose
 * the read-ahead), and runs home quietly; when its reads stop being the
 * bulk of home's time (read-ahead caught up), the trials start at once;
 * writes are tried from their second call whatever the share */
START_TEST(io_bound_reads_wait_for_trials)
{
    struct orth_sel s;
    struct orth_sig sig = sig_of(1 << 20);
    double t[2] = { 0.11, 0.05 };
    sig.is_write = 0;
    orth_sel_init(&s, 2, 3, 0.15);
    orth_sel_budget(&s, 0.05, 0);
    for (int i = 0; i < 10 * ORTH_IO_CALLS; i++)
        ck_assert_int_eq(call_io(&s, &sig, t, 0.7), 0);
    struct orth_entry *e = orth_sel_entry(&s, &sig);
    ck_assert_int_eq(e->phase, ORTH_EXAMINING);
    ck_assert_int_gt(s.io_waits, 9 * ORTH_IO_CALLS);
    ck_assert_int_gt(orth_sel_quiet(&s, e, 16), 0);     /* no reduction per call */
    /* at a share of 0.1 the pattern's share (all home's calls but the
     * first) falls below 0.5 after k = 40 more calls (0.7 x 79 + 0.1 x k <
     * 0.5 x (79 + k)), taken every 8 calls: then the next call is candidate
     * 1's trial */
    int n = 0;
    while (call_io(&s, &sig, t, 0.1) == 0)
        ck_assert_int_le(++n, 40 + ORTH_IO_CALLS);
    ck_assert_int_ge(n, 40);
    /* the same pattern as writes, I/O-bound or not: trials from call 2 (and
     * a read with no regret bound waits all the same) */
    struct orth_sel w;
    sig.is_write = 1;
    orth_sel_init(&w, 2, 3, 0.15);     /* no regret bound: nothing else defers */
    ck_assert_int_eq(call_io(&w, &sig, t, 0.9), 0);
    ck_assert_int_eq(call_io(&w, &sig, t, 0.9), 1);
    ck_assert_int_eq(w.io_waits, 0);
    sig.is_write = 0;
    orth_sel_init(&w, 2, 3, 0.15);
    for (int i = 0; i < 3 * ORTH_IO_CALLS; i++)
        ck_assert_int_eq(call_io(&w, &sig, t, 0.9), 0);
}
END_TEST

/* a read winner that runs slower than home on its own calls (it won trials
 * that read what home's read-ahead brought in) is taken back after its
 * probation, and sits out later examinations */
START_TEST(read_winner_fails_probation)
{
    struct orth_sel s;
    struct orth_sig sig;
    struct orth_entry *e = exam_won_by_1(&s, &sig, 0);
    ck_assert_int_gt(e->probation, 0);
    double slow[2] = { 0.11, 0.13 };
    int changed = 0, n = 0;
    while (!changed) {
        ck_assert_int_eq(call(&s, &sig, slow, &changed), 1);
        ck_assert_int_le(++n, 6);
    }
    ck_assert_int_eq(n, 6);
    e = orth_sel_entry(&s, &sig);
    ck_assert_int_eq(e->phase, ORTH_CHOSEN);
    ck_assert_int_eq(e->winner, 0);
    ck_assert_int_eq(e->reverts, 1);
    ck_assert_int_eq(e->probation, 0);
    ck_assert(e->prob_why[0] < e->prob_why[1]);
    for (int i = 0; i < 40; i++)
        ck_assert_int_eq(call(&s, &sig, slow, NULL), 0);
    /* a later examination (home slowed down) leaves candidate 1 out */
    double home_bad[2] = { 0.5, 0.13 };
    for (int i = 0; i < 60; i++)
        ck_assert_int_eq(call(&s, &sig, home_bad, NULL), 0);
    ck_assert_int_eq(orth_sel_entry(&s, &sig)->reverts, 1);
    /* 3 candidates: one failed probation bars the other's trials as well */
    double t3[3] = { 0.11, 0.10, 0.105 }, slow3[3] = { 0.11, 0.13, 0.09 };
    orth_sel_init(&s, 3, 3, 0.15);
    sig = sig_of(1 << 20);
    sig.is_write = 0;
    for (int i = 0; i < 9 + ORTH_IO_CALLS; i++)
        call_io(&s, &sig, t3, 0.2);
    ck_assert_int_eq(orth_sel_entry(&s, &sig)->winner, 1);
    for (int i = 0; i < 6; i++)
        ck_assert_int_eq(call(&s, &sig, slow3, NULL), 1);
    double home_bad3[3] = { 0.5, 0.13, 0.09 };
    for (int i = 0; i < 60; i++)
        ck_assert_int_eq(call(&s, &sig, home_bad3, NULL), 0);
}
END_TEST

/* a read winner as fast on its own calls as in its trials keeps the pattern;
 * a write winner has no probation */
START_TEST(read_winner_passes_probation_writes_have_none)
{
    struct orth_sel s;
    struct orth_sig sig;
    struct orth_entry *e = exam_won_by_1(&s, &sig, 0);
    double same[2] = { 0.11, 0.10 };
    for (int i = 0; i < 30; i++)
        ck_assert_int_eq(call(&s, &sig, same, NULL), 1);
    e = orth_sel_entry(&s, &sig);
    ck_assert_int_eq(e->reverts, 0);
    ck_assert_int_eq(e->probation, 0);
    /* the same examination on a write pattern */
    e = exam_won_by_1(&s, &sig, 1);
    ck_assert_int_eq(e->probation, 0);
    double slow[2] = { 0.11, 0.13 };
    for (int i = 0; i < 6; i++)
        call(&s, &sig, slow, NULL);
    ck_assert_int_eq(orth_sel_entry(&s, &sig)->reverts, 0);
}
END_TEST

/* a saved read winner other than home: home runs the first calls, then the
 * winner is on probation against home's rate; a saved write winner runs at once */
START_TEST(saved_read_winner_proves_itself)
{
    struct orth_sel s;
    struct orth_sig sig = sig_of(1 << 20);
    double tput[2] = { 1e7, 2e7 }, slow[2] = { 0.11, 0.13 }, fast[2] = { 0.11, 0.05 };
    sig.is_write = 0;
    orth_sel_init(&s, 2, 3, 0.15);
    orth_sel_adopt(&s, &sig, 1, tput);
    for (int i = 0; i < 3; i++) {
        ck_assert_int_eq(call(&s, &sig, slow, NULL), 0);
        ck_assert_int_eq(orth_sel_quiet(&s, orth_sel_entry(&s, &sig), 16), 0);
    }
    int changed = 0;
    for (int i = 0; i < 6; i++)
        ck_assert_int_eq(call(&s, &sig, slow, &changed), 1);
    ck_assert_int_eq(changed, 1);
    struct orth_entry *e = orth_sel_entry(&s, &sig);
    ck_assert_int_eq(e->winner, 0);
    ck_assert_int_eq(e->reverts, 1);
    /* as fast as saved: kept */
    orth_sel_init(&s, 2, 3, 0.15);
    orth_sel_adopt(&s, &sig, 1, tput);
    for (int i = 0; i < 3; i++)
        ck_assert_int_eq(call(&s, &sig, fast, NULL), 0);
    for (int i = 0; i < 20; i++)
        ck_assert_int_eq(call(&s, &sig, fast, NULL), 1);
    ck_assert_int_eq(orth_sel_entry(&s, &sig)->reverts, 0);
    /* a write winner from the table runs from the first call */
    sig.is_write = 1;
    orth_sel_init(&s, 2, 3, 0.15);
    orth_sel_adopt(&s, &sig, 1, tput);
    ck_assert_int_eq(call(&s, &sig, slow, NULL), 1);
}
END_TEST

START_TEST(quiet_run_length)
{
    struct orth_sel s;
    struct orth_sig sig = sig_of(1 << 20);
    double t[2] = { 0.1, 0.2 };
    orth_sel_init(&s, 2, 3, 0.15);
    orth_sel_budget(&s, 0.05, 0);
    struct orth_entry *e = orth_sel_entry(&s, &sig);
    ck_assert_int_eq(orth_sel_quiet(&s, e, 16), 0);     /* home's own turn, no rate yet */
    call(&s, &sig, t, NULL);
    e = orth_sel_entry(&s, &sig);
    ck_assert_int_eq(e->run, 0);
    ck_assert_int_eq(e->cur, 1);
    /* at most the pattern's streak so far (3 calls) */
    ck_assert_int_eq(s.streak, 3);
    ck_assert_int_eq(orth_sel_quiet(&s, e, 100), 3);
    for (int i = 0; i < 20; i++)
        orth_sel_entry(&s, &sig);
    /* 1 home call of 0.1 s recorded; a trial of 2x needs 0.05 x total >= 0.1:
     * 20 calls recorded, so 19 more: this one and a run of 18 */
    ck_assert_int_eq(orth_sel_quiet(&s, e, 100), 18);
    ck_assert_int_eq(orth_sel_quiet(&s, e, 16), 16);
    ck_assert_int_eq(orth_sel_quiet(&s, e, 0), 0);
    for (int i = 0; i < 18; i++)
        orth_sel_record(&s, e, 0, (double) sig.bytes, 0.1);
    ck_assert_int_eq(orth_sel_quiet(&s, orth_sel_entry(&s, &sig), 16), 0);
    ck_assert_int_eq(orth_sel_entry(&s, &sig)->run, 0);
    orth_sel_record(&s, e, 0, (double) sig.bytes, 0.1);
    ck_assert_int_eq(orth_sel_entry(&s, &sig)->run, 1);
    ck_assert_int_eq(orth_sel_quiet(&s, e, 16), 0);     /* a trial */
    /* chosen: home 16, another winner 0 */
    double t3[3] = { 0.1, 0.2, 0.3 }, u3[3] = { 0.1, 0.05, 0.3 };
    ck_assert_int_lt(calls_until_chosen(&s, &sig, t3, 300), 300);
    ck_assert_int_eq(orth_sel_entry(&s, &sig)->winner, 0);
    ck_assert_int_eq(orth_sel_quiet(&s, orth_sel_entry(&s, &sig), 16), 16);
    calls_until_chosen(&s, &sig, u3, 300);
    e = orth_sel_entry(&s, &sig);
    ck_assert_int_eq(e->winner, 1);
    ck_assert_int_eq(orth_sel_quiet(&s, e, 16), 0);
    /* a quiet call (home) of a pattern another candidate won leaves its
     * monitoring window alone */
    int mon = e->mon.n;
    ck_assert_int_eq(orth_sel_record(&s, e, 0, (double) sig.bytes, 9.9), 0);
    ck_assert_int_eq(e->mon.n, mon);
    ck_assert_int_eq(e->phase, ORTH_CHOSEN);
}
END_TEST

/* a file alternating two patterns (bursts of 4 calls) never runs quietly
 * nor rides once both were seen: the next pattern's calls would run the
 * other's candidate unexamined; a steady pattern does, its winner rides */
START_TEST(alternating_patterns_never_run_quietly)
{
    struct orth_sel s;
    struct orth_sig a = sig_of(1 << 20), b = sig_of(1 << 18);
    double ta[3] = { 0.1, 0.2, 0.3 }, tb[3] = { 0.1, 0.05, 0.3 };
    orth_sel_init(&s, 3, 3, 0.15);
    for (int i = 0; i < 400; i++) {
        int is_a = i / 4 % 2 == 0;
        struct orth_entry *e = orth_sel_entry(&s, is_a ? &a : &b);
        if (i >= 8) {
            ck_assert_int_eq(orth_sel_quiet(&s, e, 16), 0);
            ck_assert(!orth_sel_ride(&s, e));
        }
        const double *t = is_a ? ta : tb;
        int c = orth_sel_pick(e);
        orth_sel_record(&s, e, c, (double) e->sig.bytes, t[c] * e->sig.bytes / 1e6);
    }
    ck_assert_int_eq(orth_sel_entry(&s, &a)->winner, 0);
    ck_assert_int_eq(orth_sel_entry(&s, &b)->winner, 1);
    /* b alone from now: it rides once its streak is over 2 x 4 + 1 */
    int first = -1;
    for (int i = 0; i < 20; i++) {
        struct orth_entry *e = orth_sel_entry(&s, &b);
        if (orth_sel_ride(&s, e) && first < 0)
            first = i;
        orth_sel_record(&s, e, orth_sel_pick(e), (double) b.bytes, 0.05 * b.bytes / 1e6);
    }
    ck_assert_int_eq(first, 8);        /* its 10th call in a row (the lookups above count) */
    /* a saved table's entries are not calls: the streaks stay (and they are
     * kept as an index, the table being broadcast from rank 0) */
    struct orth_sel t;
    double tput[3] = { 1, 2, 3 };
    orth_sel_init(&t, 3, 3, 0.15);
    orth_sel_adopt(&t, &a, 1, tput);
    orth_sel_adopt(&t, &b, 1, tput);
    ck_assert_int_eq(t.last, -1);
    ck_assert_int_eq(t.streak, 0);
    ck_assert_int_eq(t.longest, 0);
    orth_sel_entry(&t, &b);
    orth_sel_entry(&t, &b);
    ck_assert(orth_sel_ride(&t, orth_sel_entry(&t, &b)));
    ck_assert_int_eq(orth_sel_quiet(&s, orth_sel_entry(&s, &b), 16), 0);     /* not home */
}
END_TEST

/* --- the description cache (orth_desc.c) --- */
static const struct orth_geom geom = {.disp = 100,.etype = 4,.ft_size = 32,.ft_extent = 128,
    .first = 8
};

START_TEST(desc_place_individual_moves_by_whole_extents)
{
    int64_t phase = -1, base = -1;
    ck_assert(orth_desc_place(&geom, 1, 100 + 8, 0, &phase, &base));
    ck_assert_int_eq(phase, 0);
    ck_assert_int_eq(base, 0);
    /* 3 extents and 20 bytes past the first block: the same phase as 20 bytes in */
    ck_assert(orth_desc_place(&geom, 1, 100 + 8 + 3 * 128 + 20, 0, &phase, &base));
    ck_assert_int_eq(phase, 20);
    ck_assert_int_eq(base, 3 * 128);
    ck_assert(orth_desc_place(&geom, 1, 100 + 8 + 127, 0, &phase, &base));
    ck_assert_int_eq(phase, 127);
    ck_assert_int_eq(base, 0);
    /* before the view's first block: no place (listed) */
    phase = base = -1;
    ck_assert(!orth_desc_place(&geom, 1, 100 + 7, 0, &phase, &base));
    ck_assert(!orth_desc_place(&geom, 1, 0, 0, &phase, &base));
    ck_assert_int_eq(phase, -1);
    ck_assert_int_eq(base, -1);
}
END_TEST

START_TEST(desc_place_explicit_counts_etypes)
{
    int64_t phase, base;
    /* 8 etypes per filetype: offset 19 is etype 3 of the third instance */
    ck_assert(orth_desc_place(&geom, 0, 12345, 19, &phase, &base));
    ck_assert_int_eq(phase, 3);
    ck_assert_int_eq(base, 2 * 128);
    ck_assert(orth_desc_place(&geom, 0, 0, 8, &phase, &base));
    ck_assert_int_eq(phase, 0);
    ck_assert_int_eq(base, 128);
    ck_assert(!orth_desc_place(&geom, 0, 0, -1, &phase, &base));
    /* a filetype that is not whole etypes, zero size or extent: none */
    struct orth_geom g = geom;
    g.ft_size = 30;
    ck_assert(!orth_desc_place(&g, 0, 0, 8, &phase, &base));
    g = geom;
    g.ft_size = 0;
    ck_assert(!orth_desc_place(&g, 0, 0, 8, &phase, &base));
    ck_assert(!orth_desc_place(&g, 1, 1000, 0, &phase, &base));
    g = geom;
    g.ft_extent = 0;
    ck_assert(!orth_desc_place(&g, 1, 1000, 0, &phase, &base));
}
END_TEST

static struct orth_desc desc_key(uint64_t gen, int indiv, int64_t phase, int64_t size)
{
    struct orth_desc d = {.gen = gen,.geom = geom,.indiv = indiv,.phase = phase,.size = size,
        .nreqs = 7,.bytes = size,.gaps = 96,.end_rel = 136
    };
    return d;
}

START_TEST(desc_cache_keys_on_view_pointer_phase_size)
{
    struct orth_desc_cache c = { 0 };
    struct orth_desc d = desc_key(1, 1, 20, 64), k;
    ck_assert_ptr_null(orth_desc_find(&c, &d));
    orth_desc_put(&c, &d);
    k = desc_key(1, 1, 20, 64);
    k.nreqs = k.gaps = k.end_rel = 0;   /* the value is not part of the key */
    const struct orth_desc *hit = orth_desc_find(&c, &k);
    ck_assert_ptr_nonnull(hit);
    ck_assert_int_eq(hit->nreqs, 7);
    ck_assert_int_eq(hit->gaps, 96);
    ck_assert_int_eq(hit->end_rel, 136);
    /* another view (a set_view), pointer kind, phase or size: not found */
    k = desc_key(2, 1, 20, 64);
    ck_assert_ptr_null(orth_desc_find(&c, &k));
    k = desc_key(1, 0, 20, 64);
    ck_assert_ptr_null(orth_desc_find(&c, &k));
    k = desc_key(1, 1, 21, 64);
    ck_assert_ptr_null(orth_desc_find(&c, &k));
    k = desc_key(1, 1, 20, 60);
    ck_assert_ptr_null(orth_desc_find(&c, &k));
    /* the same generation with other view numbers (a changed disp, etype,
     * filetype size, extent or first block): not found */
    int64_t *fields[] = { &k.geom.disp, &k.geom.etype, &k.geom.ft_size, &k.geom.ft_extent,
        &k.geom.first
    };
    for (int i = 0; i < 5; i++) {
        k = desc_key(1, 1, 20, 64);
        (*fields[i])++;
        ck_assert_ptr_null(orth_desc_find(&c, &k));
    }
}
END_TEST

START_TEST(desc_cache_replaces_the_oldest)
{
    struct orth_desc_cache c = { 0 };
    for (int i = 0; i < ORTH_DESC_N + 2; i++) {
        struct orth_desc d = desc_key(1, 1, i, 64);
        orth_desc_put(&c, &d);
    }
    ck_assert_int_eq(c.n, ORTH_DESC_N);
    for (int i = 0; i < ORTH_DESC_N + 2; i++) {
        struct orth_desc k = desc_key(1, 1, i, 64);
        if (i < 2)
            ck_assert_ptr_null(orth_desc_find(&c, &k));
        else
            ck_assert_ptr_nonnull(orth_desc_find(&c, &k));
    }
}
END_TEST

/* a forecast candidate's first trial runs right after home's first call,
 * under a budget that would otherwise hold every trial back for ~20 calls;
 * a candidate without a forecast still waits */
START_TEST(forecast_trial_runs_at_once)
{
    struct orth_sel s;
    struct orth_sig sig = sig_of(1 << 20);
    double t[3] = { 0.3, 0.1, 0.5 };
    struct orth_entry *e = forecast_sel(&s, &sig);
    int seq[5];
    for (int i = 0; i < 5; i++)
        seq[i] = call(&s, &sig, t, NULL);
    /* home, the forecast candidate at once; home 3x slower is dropped after
     * its second call, candidate 2 did not fit the budget (postponed): 1 won */
    int want[5] = { 0, 1, 0, 1, 1 };
    for (int i = 0; i < 5; i++)
        ck_assert_int_eq(seq[i], want[i]);
    e = orth_sel_entry(&s, &sig);
    ck_assert_int_eq(e->winner, 1);
    /* the trials gained: the budget grew by what they saved, and pays for
     * the postponed candidate's trial at once */
    ck_assert(s.spent < 0);
    ck_assert_int_eq(e->phase, ORTH_EXAMINING);
    int twos = 0;
    for (int i = 0; i < 10; i++)
        twos += call(&s, &sig, t, NULL) == 2;
    ck_assert_int_eq(twos, 1);          /* 5x slower than 1: dropped after one */
    ck_assert_int_eq(orth_sel_entry(&s, &sig)->winner, 1);
    /* the same run without the forecast: home runs the first calls */
    struct orth_sel s2;
    orth_sel_init(&s2, 3, 3, 0.15);
    orth_sel_budget(&s2, 0.05, 0);
    for (int i = 0; i < 6; i++)
        ck_assert_int_eq(call(&s2, &sig, t, NULL), 0);
}
END_TEST

/* a forecast read trial does not wait for home's I/O-bound check */
START_TEST(forecast_read_skips_the_io_wait)
{
    struct orth_sel s;
    struct orth_sig sig = read_sig();
    double t[2] = { 0.3, 0.1 };
    forecast_sel_of(&s, &sig, 2, 1);
    ck_assert_int_eq(call_io(&s, &sig, t, 0.6), 0);     /* below ORTH_FIRST_IO */
    ck_assert_int_eq(call_io(&s, &sig, t, 0.9), 1);
    struct orth_sel s2;
    orth_sel_init(&s2, 2, 3, 0.15);
    orth_sel_budget(&s2, 0.05, 0);
    for (int i = 0; i < 12; i++)
        ck_assert_int_eq(call_io(&s2, &sig, t, 0.9), 0);
    /* a candidate without a forecast ahead of the forecast one is
     * postponed, not waited for */
    struct orth_sel s3;
    double t3[3] = { 0.3, 0.2, 0.1 };
    forecast_sel_of(&s3, &sig, 3, 2);
    ck_assert_int_eq(call_io(&s3, &sig, t3, 0.3), 0);
    ck_assert_int_eq(call_io(&s3, &sig, t3, 0.9), 2);
    ck_assert_int_eq(orth_sel_entry(&s3, &sig)->out[1], 2);    /* ORTH_POSTPONED */
    ck_assert_int_eq(s3.postponed, 1);
}
END_TEST

/* a forecast read trial waits with the others when home's first call of
 * the pattern was I/O-bound (a cold file on slow storage), and runs once
 * home's reads fall below the bound */
START_TEST(forecast_read_waits_after_an_io_bound_first_call)
{
    struct orth_sel s;
    struct orth_sig sig = read_sig();
    double t[2] = { 0.3, 0.1 };
    forecast_sel_of(&s, &sig, 2, 1);
    for (int i = 0; i < 4 * ORTH_IO_CALLS; i++)
        ck_assert_int_eq(call_io(&s, &sig, t, 0.9), 0);
    ck_assert_int_gt(s.io_waits, 3 * ORTH_IO_CALLS);
    ck_assert_int_eq(s.postponed, 0);
    int n = 0;
    while (call_io(&s, &sig, t, 0.0) == 0)
        ck_assert_int_le(++n, 8 * ORTH_IO_CALLS);
    ck_assert_int_ge(n, ORTH_IO_CALLS - 1);
}
END_TEST

/* a forecast that is wrong costs the candidate's calls until the drop rule:
 * a candidate 4x slower than home is dropped after its first trial */
START_TEST(wrong_forecast_costs_one_trial)
{
    struct orth_sel s;
    struct orth_sig sig = sig_of(1 << 20);
    double t[2] = { 0.1, 0.4 };
    orth_sel_init(&s, 2, 3, 0.15);
    orth_sel_budget(&s, 0.05, 0);
    orth_sel_forecast(&s, orth_sel_entry(&s, &sig), 1);
    int ones = 0;
    for (int i = 0; i < 40; i++)
        ones += call(&s, &sig, t, NULL) == 1;
    ck_assert_int_eq(ones, 1);
    ck_assert_int_eq(orth_sel_entry(&s, &sig)->winner, 0);
}
END_TEST

/* the chosen winner that communicates nothing runs quiet runs; a winner
 * that communicates does not; home's quiet runs are unchanged */
START_TEST(free_winner_runs_quietly)
{
    struct orth_sel s;
    struct orth_sig sig = sig_of(1 << 20);
    double t[3] = { 0.3, 0.1, 0.2 };
    orth_sel_init(&s, 3, 3, 0.15);
    orth_sel_free(&s, 1);
    for (int i = 0; i < 12; i++)
        call(&s, &sig, t, NULL);
    struct orth_entry *e = orth_sel_entry(&s, &sig);
    ck_assert_int_eq(e->winner, 1);
    ck_assert_int_eq(orth_sel_quiet(&s, e, 16), s.streak < 16 ? (int) s.streak : 16);
    ck_assert(orth_sel_quiet(&s, e, 16) > 0);
    orth_sel_free(&s, 2);
    ck_assert_int_eq(orth_sel_quiet(&s, e, 16), 0);
}
END_TEST

/* a pattern the view decides runs its winner from the first call, in
 * quiet runs, and stays with it even when home would have been faster
 * (no examination: home's rate is never measured) */
START_TEST(decided_pattern_never_examines)
{
    struct orth_sel s;
    struct orth_sig sig = sig_of(1 << 20);
    double t[3] = { 0.1, 0.3, 0.2 };
    orth_sel_init(&s, 3, 3, 0.15);
    orth_sel_budget(&s, 0.05, 0);
    orth_sel_free(&s, 2);
    orth_sel_decide(&s, orth_sel_entry(&s, &sig), 2);
    for (int i = 0; i < 100; i++)
        ck_assert_int_eq(call(&s, &sig, t, NULL), 2);
    struct orth_entry *e = orth_sel_entry(&s, &sig);
    ck_assert_int_eq(e->winner, 2);
    ck_assert_int_eq(e->exams + e->reexams, 0);
    ck_assert_int_eq(e->decided, 1);
    ck_assert_int_eq(s.decided, 1);
    ck_assert(orth_sel_quiet(&s, e, 16) > 0);
}
END_TEST

/* winners remembered at one file's close are adopted by the next file of
 * the same rotation, not by a file with another rotation, and never evict
 * the file's own patterns */
START_TEST(memo_carries_winners_across_files)
{
    struct orth_sel a, b, c;
    struct orth_sig sig = sig_of(1 << 20), other = sig_of(1 << 19);
    double t[3] = { 0.3, 0.1, 0.2 };
    int rot[3] = { 0, 1, 4 }, rot2[3] = { 0, 1, 2 };
    orth_memo_clear();
    orth_sel_init(&a, 3, 3, 0.15);
    for (int i = 0; i < 12; i++)
        call(&a, &sig, t, NULL);
    orth_sel_entry(&a, &other);         /* still examining: not remembered */
    orth_memo_save(&a, rot);
    orth_sel_init(&b, 3, 3, 0.15);
    ck_assert_int_eq(orth_memo_adopt(&b, rot), 1);
    struct orth_entry *e = orth_sel_entry(&b, &sig);
    ck_assert_int_eq(e->phase, ORTH_CHOSEN);
    ck_assert_int_eq(e->winner, 1);
    ck_assert_int_eq(e->adopted, 1);
    ck_assert_int_eq(call(&b, &sig, t, NULL), 1);       /* no examination */
    orth_sel_init(&c, 3, 3, 0.15);
    ck_assert_int_eq(orth_memo_adopt(&c, rot2), 0);
    /* a full table adopts nothing */
    orth_sel_init(&c, 3, 3, 0.15);
    for (int i = 0; i < ORTH_MAX_SIG; i++)
        orth_sel_entry(&c, &(struct orth_sig) {.is_write = 1,.nprocs = 2,.nreqs = 2,
                       .bytes = 4096 + i });
    ck_assert_int_eq(orth_memo_adopt(&c, rot), 0);
    ck_assert_int_eq(c.evictions, 0);
    orth_memo_clear();
    orth_sel_init(&c, 3, 3, 0.15);
    ck_assert_int_eq(orth_memo_adopt(&c, rot), 0);
}
END_TEST



/* a candidate's first trial starts with a piece, limited to its share of
 * the trial's budget (a forecast candidate's: 3x its forecast); cut, it
 * leaves the examination and the call is charged as the piece plus home's
 * time for the rest; later trials run whole */
START_TEST(pathological_trial_is_cut_after_a_piece)
{
    struct orth_sel s;
    struct orth_sig sig = sig_of(1 << 20);
    double t[3] = { 0.1, 0.1, 0.1 };
    struct orth_entry *e = forecast_sel(&s, &sig);
    ck_assert(orth_sel_piece_limit(&s, e, 0) == 0);     /* home, and home's rate unknown */
    ck_assert_int_eq(call(&s, &sig, t, NULL), 0);
    e = orth_sel_entry(&s, &sig);
    ck_assert_int_eq(orth_sel_pick(e), 1);
    double ref1 = 0.1 * (1 << 20) / 1e6, flim = orth_sel_piece_limit(&s, e, 1);
    ck_assert(flim > 0.7 * ref1 && flim < 0.8 * ref1);  /* twice 3 home calls / 8 */
    ck_assert_int_eq(call(&s, &sig, t, NULL), 1);
    ck_assert(orth_sel_piece_limit(&s, orth_sel_entry(&s, &sig), 1) == 0);  /* ran: whole */
    /* candidate 2 waits for the budget; with it, its first call has a limit */
    double ref = 0.1 * (1 << 20) / 1e6, lim = 0;
    for (int i = 0; i < 200 && !lim; i++) {
        e = orth_sel_entry(&s, &sig);
        if (orth_sel_pick(e) == 2)
            lim = orth_sel_piece_limit(&s, e, 2);
        else
            orth_sel_record(&s, e, orth_sel_pick(e), sig.bytes, ref);
    }
    ck_assert(lim > 0 && lim < 0.6 * ref);      /* twice 2 home calls / 8 */
    double spent = s.spent;
    int64_t calls = e->calls;
    orth_sel_cut(&s, e, 2, 50 * ref);   /* 400x slower than home */
    ck_assert_int_eq(e->out[2], 1);
    ck_assert_int_eq(e->calls, calls + 1);
    ck_assert(s.spent > spent + 49 * ref && s.spent < spent + 50 * ref);
    ck_assert_int_eq(s.cut, 1);
    for (int i = 0; i < 20; i++)
        ck_assert_int_ne(call(&s, &sig, t, NULL), 2);
}
END_TEST


/* a wrong forecast (the candidate 15x slower) is cut after its first piece:
 * it costs about 2 home calls, not 15 */
START_TEST(wrong_forecast_is_cut_after_a_piece)
{
    struct orth_sel s;
    struct orth_sig sig = sig_of(1 << 20);
    double t[3] = { 0.1, 1.5, 0.1 };
    struct orth_entry *e = forecast_sel(&s, &sig);
    ck_assert_int_eq(call(&s, &sig, t, NULL), 0);
    e = orth_sel_entry(&s, &sig);
    ck_assert_int_eq(orth_sel_pick(e), 1);
    double ref = 0.1 * (1 << 20) / 1e6, lim = orth_sel_piece_limit(&s, e, 1);
    double piece = 1.5 * (1 << 20) / 1e6 / 8;  /* its piece: 15x its share */
    ck_assert(piece > lim);
    double spent = s.spent;
    orth_sel_cut(&s, e, 1, piece);
    ck_assert_int_eq(e->out[1], 1);
    ck_assert(s.spent - spent < 2 * ref);
    for (int i = 0; i < 20; i++)
        ck_assert_int_ne(call(&s, &sig, t, NULL), 1);
}
END_TEST

/* one noisy first call of a forecast candidate (under 3x slower) does not
 * drop it: it gets a second call, and wins */
START_TEST(forecast_survives_one_noisy_call)
{
    struct orth_sel s;
    struct orth_sig sig = sig_of(1 << 20);
    orth_sel_init(&s, 2, 3, 0.15);
    orth_sel_budget(&s, 0.05, 0);
    struct orth_entry *e = orth_sel_entry(&s, &sig);
    orth_sel_forecast(&s, e, 1);
    double b = sig.bytes, t[] = { 0.01, 0.02, 0.01, 0.003 };      /* home, 1, home, 1 */
    for (int i = 0; i < 4; i++) {
        e = orth_sel_entry(&s, &sig);
        ck_assert_int_eq(orth_sel_pick(e), i % 2);
        orth_sel_record(&s, e, i % 2, b, t[i]);
    }
    ck_assert_int_eq(e->out[1], 0);
    ck_assert_int_eq(e->out[0], 1);     /* home, 3x slower than 1's best: dropped */
}
END_TEST

/* a 10 MiB BTIO step on 2 aggregators: 5 MiB blocks, so both serve it
 * (16 MiB blocks held whole steps); small calls get 1 MiB, never above max */
START_TEST(vb_unit_spreads_a_call_over_the_aggregators)
{
    const int64_t mib = 1 << 20;
    int64_t step = 64 * 64 * 64 * 40, lo = 3 * step;
    int64_t u = orth_vb_unit(lo, lo + step, 2, 16 * mib);
    ck_assert_int_eq(u, 5 * mib);
    ck_assert_int_eq(orth_vb_unit(0, 10 * mib + 1, 2, 16 * mib), 6 * mib);
    ck_assert_int_lt(lo / u, (lo + step - 1) / u);     /* two blocks or more */
    ck_assert_int_eq(orth_vb_unit(0, 32 * 1024, 2, 16 * mib), mib);
    ck_assert_int_eq(orth_vb_unit(0, 512 * mib, 2, 16 * mib), 16 * mib);
    ck_assert_int_eq(orth_vb_unit(0, 4 * mib, 1, 16 * mib), 4 * mib);
    ck_assert_int_eq(orth_vb_unit(0, 4 * mib, 2, 512 * 1024), 512 * 1024);
    ck_assert_int_eq(orth_vb_unit(5, 5, 2, 16 * mib), mib);
}
END_TEST

Suite *orth_suite(void)
{
    Suite *s = suite_create("orthrus");
    TCase *tc = tcase_create("select");
    tcase_add_test(tc, examination_rotates_then_picks_fastest);
    tcase_add_test(tc, ranks_decide_identically_from_reduced_times);
    tcase_add_test(tc, deviation_triggers_reexamination_and_switch);
    tcase_add_test(tc, returning_pattern_pays_one_examination);
    tcase_add_test(tc, table_evicts_least_recently_used);
    tcase_add_test(tc, single_candidate_and_zero_time);
    tcase_add_test(tc, one_outlier_call_does_not_decide);
    tcase_add_test(tc, slow_candidate_dropped_after_one_call);
    tcase_add_test(tc, confirmed_winner_lengthens_window);
    tcase_add_test(tc, close_runner_up_no_churn);
    tcase_add_test(tc, reduction_sums_max_and_detects_disagreement);
    tcase_add_test(tc, digest_changes_with_the_state);
    tcase_add_test(tc, table_round_trip);
    tcase_add_test(tc, budget_defers_trials_until_affordable);
    tcase_add_test(tc, budget_bounds_the_whole_run);
    tcase_add_test(tc, budget_gain_lets_the_examination_go_on);
    tcase_add_test(tc, budget_home_not_first);
    tcase_add_test(tc, budget_outlier_pays_nothing);
    tcase_add_test(tc, budget_learns_the_trial_cost);
    tcase_add_test(tc, postponed_trial_lets_a_faster_one_win);
    tcase_add_test(tc, skipped_candidate_never_runs);
    tcase_add_test(tc, deferred_home_compared_at_the_trials);
    tcase_add_test(tc, switch_needs_a_margin);
    tcase_add_test(tc, twice_lost_sits_out);
    tcase_add_test(tc, faster_candidate_goes_on_at_once);
    tcase_add_test(tc, quiet_runs_keep_the_decisions);
    tcase_add_test(tc, quiet_run_length);
    tcase_add_test(tc, read_winner_fails_probation);
    tcase_add_test(tc, read_winner_passes_probation_writes_have_none);
    tcase_add_test(tc, saved_read_winner_proves_itself);
    tcase_add_test(tc, alternating_patterns_never_run_quietly);
    tcase_add_test(tc, io_bound_reads_wait_for_trials);
    tcase_add_test(tc, forecast_trial_runs_at_once);
    tcase_add_test(tc, forecast_read_skips_the_io_wait);
    tcase_add_test(tc, forecast_read_waits_after_an_io_bound_first_call);
    tcase_add_test(tc, wrong_forecast_costs_one_trial);
    tcase_add_test(tc, free_winner_runs_quietly);
    tcase_add_test(tc, decided_pattern_never_examines);
    tcase_add_test(tc, memo_carries_winners_across_files);
    tcase_add_test(tc, pathological_trial_is_cut_after_a_piece);
    tcase_add_test(tc, wrong_forecast_is_cut_after_a_piece);
    tcase_add_test(tc, forecast_survives_one_noisy_call);
    tcase_add_test(tc, read_home_far_behind_goes_after_one_call);
    tcase_add_test(tc, piece_limit_follows_the_fastest_call);
    tcase_add_test(tc, no_retry_while_postponed_reads_would_wait);
    tcase_add_test(tc, desc_place_individual_moves_by_whole_extents);
    tcase_add_test(tc, desc_place_explicit_counts_etypes);
    tcase_add_test(tc, desc_cache_keys_on_view_pointer_phase_size);
    tcase_add_test(tc, desc_cache_replaces_the_oldest);
    tcase_add_test(tc, vb_unit_spreads_a_call_over_the_aggregators);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_SUITE(orth_suite)

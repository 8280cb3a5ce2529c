/* The prefetch window, the willneed ranges and the slot table (pure logic). */
#include <stdio.h>
#include <string.h>
#include "unit.h"
#include "pf_window.h"
#include "pf_slots.h"

static const struct pf_range whole = { 0, 0 };

/* ROOT-like defaults: 8 blocks, 4 ahead, so 3 kept behind */
static void window8(struct pf_window *w)
{
    pf_window_init(w, 100, 8, 4, &whole, 1);
}

START_TEST(ranges_parse)
{
    struct pf_range r[4];
    char why[128];
    ck_assert_int_eq(pf_ranges_parse("0:0", r, 4, why, sizeof(why)), 1);
    ck_assert_int_eq(r[0].off, 0);
    ck_assert_int_eq(r[0].len, 0);
    ck_assert_int_eq(pf_ranges_parse("4k:1m, 1g:0", r, 4, why, sizeof(why)), 2);
    ck_assert_int_eq(r[0].off, 4096);
    ck_assert_int_eq(r[0].len, 1 << 20);
    ck_assert_int_eq(r[1].off, 1LL << 30);
    ck_assert_int_eq(r[1].len, 0);
}
END_TEST

START_TEST(ranges_reject)
{
    struct pf_range r[2];
    char why[128];
    const char *bad[] = { "", "12", "a:1", "1:-5", "0:0,", "1:1,2:2,3:3", ":4" };
    for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
        why[0] = '\0';
        ck_assert_msg(pf_ranges_parse(bad[k], r, 2, why, sizeof(why)) == -1, "%s", bad[k]);
        ck_assert_msg(why[0] != '\0', "no reason for '%s'", bad[k]);
    }
    pf_ranges_parse("1:1,2:2,3:3", r, 2, why, sizeof(why));
    ck_assert_str_eq(why, "more than 2 ranges");
}
END_TEST

START_TEST(window_forward_progress_advances)
{
    struct pf_window w;
    window8(&w);
    ck_assert_int_eq(pf_window_wanted(&w, 0), -1);     /* no window yet */
    ck_assert_int_eq(pf_window_access(&w, 10), PF_FIRST);
    ck_assert_int_eq(pf_window_wanted(&w, 0), 10);
    ck_assert_int_eq(pf_window_wanted(&w, 4), 14);
    ck_assert_int_eq(pf_window_wanted(&w, 5), -1);
    ck_assert_int_eq(pf_window_access(&w, 10), PF_STAY);
    ck_assert_int_eq(pf_window_access(&w, 12), PF_ADVANCE);     /* a gap inside */
    ck_assert_int_eq(w.cur, 12);
    ck_assert(pf_window_keeps(&w, 9));
    ck_assert(pf_window_keeps(&w, 16));
    ck_assert(!pf_window_keeps(&w, 8));
    ck_assert(!pf_window_keeps(&w, 17));
}
END_TEST

START_TEST(window_backward_seek_inside_is_kept)
{
    struct pf_window w;
    window8(&w);
    pf_window_access(&w, 10);
    ck_assert_int_eq(pf_window_access(&w, 7), PF_STAY);        /* cur - back */
    ck_assert_int_eq(w.cur, 10);
    ck_assert_int_eq(pf_window_access(&w, 8), PF_STAY);
    ck_assert_int_eq(pf_window_access(&w, 6), PF_JUMP);        /* one too far */
    ck_assert_int_eq(w.cur, 6);
    ck_assert(pf_window_keeps(&w, 3) && pf_window_keeps(&w, 10));     /* [6-3, 6+4] */
    ck_assert(!pf_window_keeps(&w, 2) && !pf_window_keeps(&w, 11));
}
END_TEST

START_TEST(window_jump_forward_restarts)
{
    struct pf_window w;
    window8(&w);
    pf_window_access(&w, 0);
    ck_assert_int_eq(pf_window_access(&w, 4), PF_ADVANCE);     /* cur + ahead */
    ck_assert_int_eq(pf_window_access(&w, 9), PF_JUMP);        /* cur + ahead + 1 */
    ck_assert_int_eq(w.cur, 9);
    ck_assert_int_eq(pf_window_wanted(&w, 0), 9);
}
END_TEST

START_TEST(window_ahead_clamped)
{
    struct pf_window w;
    pf_window_init(&w, 4096, 2, 10, &whole, 1);
    ck_assert_int_eq(w.ahead, 1);
    ck_assert_int_eq(w.back, 0);
    pf_window_init(&w, 4096, 1, 4, &whole, 1);
    ck_assert_int_eq(w.ahead, 0);
    pf_window_access(&w, 3);
    ck_assert_int_eq(pf_window_access(&w, 4), PF_JUMP);
}
END_TEST

START_TEST(window_willneed_ranges)
{
    struct pf_window w;
    struct pf_range r[2] = { {150, 100}, {1000, 0} };  /* blocks 1-2, and 10 on */
    pf_window_init(&w, 100, 8, 4, r, 2);
    ck_assert(!pf_window_covers(&w, 0));
    ck_assert(pf_window_covers(&w, 1) && pf_window_covers(&w, 2));
    ck_assert(!pf_window_covers(&w, 3) && !pf_window_covers(&w, 9));
    ck_assert(pf_window_covers(&w, 10) && pf_window_covers(&w, 1000000));
    ck_assert_int_eq(pf_window_access(&w, 0), PF_OUTSIDE);
    ck_assert_int_eq(w.cur, -1);
    ck_assert_int_eq(pf_window_access(&w, 1), PF_FIRST);
    ck_assert_int_eq(pf_window_wanted(&w, 1), 2);
    ck_assert_int_eq(pf_window_wanted(&w, 2), -1);     /* block 3 not wanted */
    ck_assert_int_eq(pf_window_access(&w, 5), PF_OUTSIDE);
    ck_assert_int_eq(w.cur, 1);
}
END_TEST

/* the slot tests' table: 8 slots over a ROOT-like window (fresh per test:
 * Check runs each test in its own process) */
static struct pf_window w;
static struct pf_slot s[8];
static struct pf_slots t;
static struct pf_plan plan;

static void fixture8(void)
{
    window8(&w);
    pf_slots_init(&t, s, 8);
}

static int count_state(const struct pf_slots *t, enum pf_state st)
{
    int n = 0;
    for (int k = 0; k < t->n; k++)
        n += t->s[k].state == st;
    return n;
}

/* collects dropped blocks */
struct drops {
    int n;
    int64_t b[64];
};

static void note_drop(void *arg, int64_t block)
{
    struct drops *d = arg;
    d->b[d->n++] = block;
}

START_TEST(slots_queue_in_window_order)
{
    fixture8();
    pf_window_access(&w, 20);
    pf_slots_reconcile(&t, &w, &plan, NULL, NULL);
    ck_assert_int_eq(plan.nqueued, 5);
    for (int64_t b = 20; b <= 24; b++) {
        struct pf_slot *n = pf_slots_next(&t);
        ck_assert_int_eq(n->block, b);
        n->state = PF_SLOT_LOADING;
        ck_assert(pf_slots_loaded(&t, n, 100, 100));
    }
    ck_assert_ptr_null(pf_slots_next(&t));
    /* reconcile again: nothing new */
    pf_slots_reconcile(&t, &w, &plan, NULL, NULL);
    ck_assert_int_eq(plan.nqueued, 0);
    ck_assert_int_eq(plan.ndropped, 0);
}
END_TEST

static void load_all(struct pf_slots *t, int64_t len)
{
    struct pf_slot *n;
    while ((n = pf_slots_next(t))) {
        n->state = PF_SLOT_LOADING;
        pf_slots_loaded(t, n, len, 100);
    }
}

START_TEST(slots_follow_window_and_stay_bounded)
{
    struct drops d = { 0 };
    fixture8();
    /* walk forward one block at a time: each step queues one, drops one */
    for (int64_t b = 0; b < 40; b++) {
        pf_window_access(&w, b);
        pf_slots_reconcile(&t, &w, &plan, note_drop, &d);
        ck_assert_int_le(8 - count_state(&t, PF_SLOT_FREE), 8);
        load_all(&t, 100);
        pf_slots_find(&t, b)->used = 1;
    }
    /* 40 + 4 blocks loaded, 8 live: 36 dropped, in block order */
    ck_assert_int_eq(d.n, 36);
    for (int k = 0; k < d.n; k++)
        ck_assert_int_eq(d.b[k], k);
    for (int64_t b = 36; b <= 43; b++)
        ck_assert_ptr_nonnull(pf_slots_find(&t, b));
    /* a backward seek inside the window is a hit: nothing moves */
    pf_window_access(&w, 37);
    pf_slots_reconcile(&t, &w, &plan, NULL, NULL);
    ck_assert_int_eq(plan.nqueued + plan.ndropped, 0);
    ck_assert_int_eq(pf_slots_find(&t, 37)->state, PF_SLOT_READY);
    /* a jump far away drops everything (blocks read ahead, never used) */
    pf_window_access(&w, 1000);
    pf_slots_reconcile(&t, &w, &plan, NULL, NULL);
    ck_assert_int_eq(plan.ndropped, 8);
    ck_assert_int_eq(plan.dropped_unused, 4);
    ck_assert_int_eq(plan.nqueued, 5);
}
END_TEST

START_TEST(slots_loading_drop_is_deferred)
{
    fixture8();
    pf_window_access(&w, 0);
    pf_slots_reconcile(&t, &w, &plan, NULL, NULL);
    struct pf_slot *a = pf_slots_next(&t);
    a->state = PF_SLOT_LOADING;         /* block 0 in flight */
    pf_window_access(&w, 100);          /* jump */
    pf_slots_reconcile(&t, &w, &plan, NULL, NULL);
    /* the loading slot still counts: only 7 free slots for 5 wanted blocks,
     * so all 5 are queued and the in-flight one is marked */
    ck_assert_int_eq(a->state, PF_SLOT_LOADING);
    ck_assert(a->drop);
    ck_assert_ptr_null(pf_slots_find(&t, 0));
    ck_assert_int_eq(count_state(&t, PF_SLOT_QUEUED), 5);
    ck_assert(!pf_slots_loaded(&t, a, 100, 100));
    ck_assert_int_eq(a->state, PF_SLOT_FREE);
    ck_assert(!a->drop);
}
END_TEST

START_TEST(slots_full_table_waits_for_slot)
{
    pf_window_init(&w, 100, 2, 1, &whole, 1);
    pf_slots_init(&t, s, 2);        /* 2 slots, 1 ahead */
    pf_window_access(&w, 0);
    pf_slots_reconcile(&t, &w, &plan, NULL, NULL);
    s[0].state = s[1].state = PF_SLOT_LOADING;
    pf_window_access(&w, 50);
    pf_slots_reconcile(&t, &w, &plan, NULL, NULL);
    ck_assert_int_eq(plan.nqueued, 0);          /* both slots still busy */
    ck_assert(!pf_slots_loaded(&t, &s[0], 100, 100));
    pf_slots_reconcile(&t, &w, &plan, NULL, NULL);
    ck_assert_int_eq(plan.nqueued, 1);
    ck_assert_int_eq(pf_slots_next(&t)->block, 50);
}
END_TEST

START_TEST(slots_end_of_file)
{
    fixture8();
    pf_window_access(&w, 0);
    pf_slots_reconcile(&t, &w, &plan, NULL, NULL);
    struct pf_slot *n;
    while ((n = pf_slots_next(&t))) {   /* the file ends inside block 2 */
        n->state = PF_SLOT_LOADING;
        pf_slots_loaded(&t, n, n->block < 2 ? 100 : n->block == 2 ? 30 : 0, 100);
    }
    ck_assert_int_eq(t.eof_block, 2);
    ck_assert_int_eq(pf_slots_find(&t, 2)->len, 30);
    pf_window_access(&w, 3);
    pf_slots_reconcile(&t, &w, &plan, NULL, NULL);
    ck_assert_int_eq(plan.nqueued, 0);          /* nothing past the end */
    /* a failed load frees its slot */
    pf_slots_invalidate(&t, 0, -1, 100);
    pf_slots_reconcile(&t, &w, &plan, NULL, NULL);
    n = pf_slots_next(&t);
    n->state = PF_SLOT_LOADING;
    ck_assert(!pf_slots_loaded(&t, n, -1, 100));
    ck_assert_int_eq(n->state, PF_SLOT_FREE);
}
END_TEST

START_TEST(slots_invalidate)
{
    fixture8();
    pf_window_access(&w, 10);
    pf_slots_reconcile(&t, &w, &plan, NULL, NULL);
    load_all(&t, 100);
    pf_window_access(&w, 11);
    pf_slots_reconcile(&t, &w, &plan, NULL, NULL);
    struct pf_slot *inflight = pf_slots_next(&t);      /* block 15 */
    inflight->state = PF_SLOT_LOADING;
    ck_assert_int_eq(pf_slots_invalidate(&t, 12, 12, 100), 2);  /* 12, and 15 in flight */
    ck_assert_ptr_null(pf_slots_find(&t, 12));
    ck_assert_ptr_null(pf_slots_find(&t, 15));
    ck_assert(inflight->drop);
    ck_assert_ptr_nonnull(pf_slots_find(&t, 11));
    ck_assert_ptr_nonnull(pf_slots_find(&t, 13));
    ck_assert_int_eq(pf_slots_invalidate(&t, 0, -1, 100), 4);   /* 10, 11, 13, 14 */
    ck_assert_int_eq(count_state(&t, PF_SLOT_READY), 0);
    /* the window wants them again */
    pf_slots_reconcile(&t, &w, &plan, NULL, NULL);
    ck_assert_int_eq(plan.nqueued, 5);          /* 11..15; 15 again beside the stale load */
    ck_assert_int_eq(count_state(&t, PF_SLOT_FREE), 2);
}
END_TEST

START_TEST(slots_invalidate_drops_short_blocks)
{
    fixture8();
    pf_window_access(&w, 0);
    pf_slots_reconcile(&t, &w, &plan, NULL, NULL);
    load_all(&t, 40);                   /* every block short: the file was tiny */
    /* a write far away may have grown the file: short blocks must go */
    ck_assert_int_eq(pf_slots_invalidate(&t, 1000, 1000, 100), 5);
    ck_assert_int_eq(t.eof_block, INT64_MAX);
}
END_TEST

Suite *prefetch_suite(void)
{
    Suite *s = suite_create("prefetch");
    TCase *tc = tcase_create("window");
    tcase_add_test(tc, ranges_parse);
    tcase_add_test(tc, ranges_reject);
    tcase_add_test(tc, window_forward_progress_advances);
    tcase_add_test(tc, window_backward_seek_inside_is_kept);
    tcase_add_test(tc, window_jump_forward_restarts);
    tcase_add_test(tc, window_ahead_clamped);
    tcase_add_test(tc, window_willneed_ranges);
    suite_add_tcase(s, tc);
    tc = tcase_create("slots");
    tcase_add_test(tc, slots_queue_in_window_order);
    tcase_add_test(tc, slots_follow_window_and_stay_bounded);
    tcase_add_test(tc, slots_loading_drop_is_deferred);
    tcase_add_test(tc, slots_full_table_waits_for_slot);
    tcase_add_test(tc, slots_end_of_file);
    tcase_add_test(tc, slots_invalidate);
    tcase_add_test(tc, slots_invalidate_drops_short_blocks);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_SUITE(prefetch_suite)

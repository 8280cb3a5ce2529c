/* The queue of announced prefetch ranges (pure logic, src/prefetch/pf_queue.h). */
#include <string.h>
#include "unit.h"
#include "pf_queue.h"

static struct pf_queue q;
static struct pf_slot s[4];
static struct pf_slots t;
static struct pf_plan plan;

static void ext_is(int i, int64_t off, int64_t len)
{
    ck_assert_int_eq(q.ext[i].off, off);
    ck_assert_int_eq(q.ext[i].len, len);
}

static int live(void)
{
    int n = 0;
    for (int k = 0; k < t.n; k++)
        n += s[k].state != PF_SLOT_FREE && !s[k].drop;
    return n;
}

/* the loader: every queued slot in order, each fetch returning `got` or all it wants */
static void load_all(int64_t got)
{
    struct pf_slot *n;
    while ((n = pf_slots_next(&t))) {
        n->state = PF_SLOT_LOADING;
        ck_assert(pf_slots_loaded(&t, n, got < 0 ? n->want : got, 1000));
    }
}

START_TEST(queue_build_keeps_order_and_coalesces)
{
    /* bs 1000, gap 50: 0-100 and 140-200 share a fetch (gap 40); 300 is 100
     * past the end: a new extent; 2500 long is cut into pieces of bs; a
     * range inside the previous extent adds nothing; a backward range is
     * its own extent */
    struct pf_range r[] = { {0, 100}, {140, 60}, {300, 100}, {1000, 2500}, {3100, 100},
                            {500, 10} };
    pf_queue_build(&q, r, 6, 1000, 50);
    ck_assert_int_eq(q.n, 6);
    ext_is(0, 0, 200);
    ext_is(1, 300, 100);
    ext_is(2, 1000, 1000);
    ext_is(3, 2000, 1000);
    ext_is(4, 3000, 500);
    ext_is(5, 500, 10);
    ck_assert_int_eq(q.head, 0);
    ck_assert(!q.truncated);
}
END_TEST

START_TEST(queue_build_overlap_and_block_limit)
{
    /* overlapping ranges join; a join that would pass bs does not */
    struct pf_range r[] = { {0, 600}, {500, 300}, {790, 300}, {2000, 10} };
    pf_queue_build(&q, r, 4, 1000, 0);
    ck_assert_int_eq(q.n, 3);
    ext_is(0, 0, 800);
    ext_is(1, 790, 300);
    ext_is(2, 2000, 10);
    /* length 0 or negative ranges are skipped (the caller never passes them) */
    struct pf_range z[] = { {0, 0}, {10, -5}, {20, 5} };
    pf_queue_build(&q, z, 3, 1000, 0);
    ck_assert_int_eq(q.n, 1);
    ext_is(0, 20, 5);
}
END_TEST

START_TEST(queue_build_truncates)
{
    struct pf_range r = { 0, (int64_t) (PF_QUEUE_MAX + 10) * 10 };
    pf_queue_build(&q, &r, 1, 10, 0);
    ck_assert_int_eq(q.n, PF_QUEUE_MAX);
    ck_assert(q.truncated);
    ext_is(PF_QUEUE_MAX - 1, (int64_t) (PF_QUEUE_MAX - 1) * 10, 10);
}
END_TEST

START_TEST(queue_find_from_head)
{
    struct pf_range r[] = { {0, 100}, {500, 100}, {50, 10} };
    pf_queue_build(&q, r, 3, 1000, 0);
    ck_assert_int_eq(pf_queue_find(&q, 0), 0);
    ck_assert_int_eq(pf_queue_find(&q, 99), 0);
    ck_assert_int_eq(pf_queue_find(&q, 100), -1);      /* between extents */
    ck_assert_int_eq(pf_queue_find(&q, 550), 1);
    q.head = 1;                         /* extent 0 done: byte 55 is in extent 2 */
    ck_assert_int_eq(pf_queue_find(&q, 55), 2);
    ck_assert_int_eq(pf_queue_find(&q, 10), -1);
    q.head = 3;
    ck_assert_int_eq(pf_queue_find(&q, 550), -1);
}
END_TEST

START_TEST(queue_slots_bounded_in_order)
{
    struct pf_range r[] = { {0, 100}, {1000, 100}, {2000, 100}, {3000, 100}, {4000, 100},
                            {5000, 100} };
    pf_slots_init(&t, s, 4);
    pf_queue_build(&q, r, 6, 1000, 0);
    pf_queue_reconcile(&t, &q, &plan);
    ck_assert_int_eq(plan.nqueued, 4);          /* 4 slots: the memory bound */
    for (int i = 0; i < 4; i++) {
        struct pf_slot *n = pf_slots_next(&t);
        ck_assert_int_eq(n->off, i * 1000);     /* fetched in announced order */
        ck_assert_int_eq(n->want, 100);
        ck_assert_int_eq(n->block, -1);
        n->state = PF_SLOT_LOADING;
        ck_assert(pf_slots_loaded(&t, n, 100, 1000));
        ck_assert_int_eq(t.eof_block, INT64_MAX);      /* no block: says nothing of EOF */
    }
    ck_assert_ptr_nonnull(pf_queue_slot(&t, &q, 3));
    ck_assert_ptr_null(pf_queue_slot(&t, &q, 4));
    /* the reader reaches extent 2: 0 and 1 are freed, 4 and 5 queued */
    q.head = 2;
    pf_queue_reconcile(&t, &q, &plan);
    ck_assert_int_eq(plan.ndropped, 2);
    ck_assert_int_eq(plan.nqueued, 2);
    ck_assert_int_eq(live(), 4);
    ck_assert_int_eq(pf_slots_next(&t)->off, 4000);
}
END_TEST

START_TEST(queue_new_announcement_keeps_what_it_holds)
{
    struct pf_range a[] = { {0, 100}, {1000, 100}, {2000, 100} };
    struct pf_range b[] = { {1000, 100}, {2050, 20}, {7000, 100} };
    pf_slots_init(&t, s, 4);
    pf_queue_build(&q, a, 3, 1000, 0);
    pf_queue_reconcile(&t, &q, &plan);
    load_all(-1);
    /* the next list: 1000 again, a piece inside 2000-2100, and a new one */
    pf_queue_build(&q, b, 3, 1000, 0);
    pf_queue_reconcile(&t, &q, &plan);
    ck_assert_int_eq(plan.ndropped, 1);         /* only 0-100 */
    ck_assert_int_eq(plan.dropped_unused, 1);
    ck_assert_int_eq(plan.nqueued, 1);          /* only 7000 */
    ck_assert_int_eq(pf_queue_slot(&t, &q, 1)->off, 2000);      /* held by the old fetch */
    ck_assert_int_eq(pf_slots_next(&t)->off, 7000);
}
END_TEST

START_TEST(queue_loading_slot_dropped_late)
{
    struct pf_range a[] = { {0, 100} }, b[] = { {5000, 100} };
    pf_slots_init(&t, s, 1);
    pf_queue_build(&q, a, 1, 1000, 0);
    pf_queue_reconcile(&t, &q, &plan);
    struct pf_slot *n = pf_slots_next(&t);
    n->state = PF_SLOT_LOADING;
    pf_queue_build(&q, b, 1, 1000, 0);
    pf_queue_reconcile(&t, &q, &plan);
    ck_assert(n->drop);                 /* freed by its loader */
    ck_assert_int_eq(plan.nqueued, 0);  /* no slot free yet: the bound holds */
    ck_assert(!pf_slots_loaded(&t, n, 100, 1000));
    pf_queue_reconcile(&t, &q, &plan);
    ck_assert_int_eq(plan.nqueued, 1);
    ck_assert_int_eq(pf_slots_next(&t)->off, 5000);
}
END_TEST

START_TEST(queue_past_eof_and_invalidate)
{
    struct pf_range r[] = { {0, 100}, {900, 200} };
    pf_slots_init(&t, s, 4);
    pf_queue_build(&q, r, 2, 1000, 0);
    pf_queue_reconcile(&t, &q, &plan);
    struct pf_slot *a = pf_slots_next(&t);
    a->state = PF_SLOT_LOADING;
    pf_slots_loaded(&t, a, 100, 1000);
    struct pf_slot *b = pf_slots_next(&t);     /* the file ends at 950 */
    b->state = PF_SLOT_LOADING;
    ck_assert(pf_slots_loaded(&t, b, 50, 1000));
    ck_assert_int_eq(b->len, 50);
    /* a write into block 0 (bytes 0-999) touches both; short slots go anyway */
    ck_assert_int_eq(pf_slots_invalidate(&t, 5, 5, 1000), 1);  /* block 5: only the short one */
    ck_assert_ptr_nonnull(pf_queue_slot(&t, &q, 0));
    ck_assert_ptr_null(pf_queue_slot(&t, &q, 1));
    ck_assert_int_eq(pf_slots_invalidate(&t, 0, 0, 1000), 1);
    ck_assert_ptr_null(pf_queue_slot(&t, &q, 0));
    pf_queue_reconcile(&t, &q, &plan);
    ck_assert_int_eq(plan.nqueued, 2);          /* fetched again */
}
END_TEST

START_TEST(queue_add_appends_after_the_head)
{
    struct pf_range a[] = { {0, 100}, {1000, 100}, {2000, 100} };
    struct pf_range b[] = { {2110, 50}, {3000, 100} };
    pf_slots_init(&t, s, 4);
    pf_queue_build(&q, a, 3, 1000, 50);
    pf_queue_reconcile(&t, &q, &plan);
    load_all(-1);
    q.head = 2;                         /* extents 0 and 1 are done */
    pf_queue_add(&q, b, 2, 1000, 50);
    /* the ones done are forgotten; 2110 would join 2000-2100 within the gap,
     * but a slot holds that one: it stays, the new one is its own extent */
    ck_assert_int_eq(q.head, 0);
    ck_assert_int_eq(q.n, 3);
    ext_is(0, 2000, 100);
    ext_is(1, 2110, 50);
    ext_is(2, 3000, 100);
    pf_queue_reconcile(&t, &q, &plan);
    ck_assert_int_eq(plan.ndropped, 2);         /* 0 and 1000 */
    ck_assert_int_eq(plan.nqueued, 2);
    ck_assert_int_eq(pf_queue_slot(&t, &q, 0)->state, PF_SLOT_READY);
    /* appending to a full queue keeps what fits and says so */
    struct pf_range big = { 10000, (int64_t) PF_QUEUE_MAX * 10 };
    pf_queue_add(&q, &big, 1, 10, 0);
    ck_assert_int_eq(q.n, PF_QUEUE_MAX);
    ck_assert(q.truncated);
}
END_TEST

Suite *pf_queue_suite(void)
{
    Suite *su = suite_create("pf_queue");
    TCase *tc = tcase_create("queue");
    tcase_add_test(tc, queue_build_keeps_order_and_coalesces);
    tcase_add_test(tc, queue_build_overlap_and_block_limit);
    tcase_add_test(tc, queue_build_truncates);
    tcase_add_test(tc, queue_find_from_head);
    tcase_add_test(tc, queue_slots_bounded_in_order);
    tcase_add_test(tc, queue_new_announcement_keeps_what_it_holds);
    tcase_add_test(tc, queue_loading_slot_dropped_late);
    tcase_add_test(tc, queue_past_eof_and_invalidate);
    tcase_add_test(tc, queue_add_appends_after_the_head);
    suite_add_tcase(su, tc);
    return su;
}

UNIT_SUITE(pf_queue_suite)

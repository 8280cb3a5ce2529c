/* No-harm decisions (issue 15): when the E10 cache writes straight through
 * (nvc_gate); the prefetcher's gate is tested in test_pf_gate.c. */
#include "unit.h"
#include "nvc_gate.h"

#define MIB (1 << 20)

START_TEST(cache_only_when_threads_keep_up)
{
    ck_assert_int_eq(nvc_gate_cache(0, 0, MIB), 1);
    ck_assert_int_eq(nvc_gate_cache(0, 1, MIB), 0);
    ck_assert_int_eq(nvc_gate_cache(0, 64 * MIB, 4096), 0);
    ck_assert_int_eq(nvc_gate_cache(1, 64 * MIB, MIB), 1);      /* flush_onclose */
    ck_assert_int_eq(nvc_gate_cache(0, 0, 0), 0);
}
END_TEST

START_TEST(pending_counts_unsynced_items)
{
    struct nvc_queue q = {0};
    ck_assert_int_eq(nvc_queue_pending(&q), 0);
    nvc_queue_push(&q, 0, 100, 0);
    nvc_queue_push(&q, 100, 50, 1);
    q.release = q.n;
    ck_assert_int_eq(nvc_queue_pending(&q), 150);
    long i = nvc_queue_take(&q);
    ck_assert_int_eq(nvc_queue_pending(&q), 150);       /* in flight: not synced yet */
    nvc_queue_done(&q, (size_t) i);
    ck_assert_int_eq(nvc_queue_pending(&q), 50);
    nvc_queue_done(&q, (size_t) nvc_queue_take(&q));
    ck_assert_int_eq(nvc_queue_pending(&q), 0);
    nvc_queue_free(&q);
}
END_TEST

Suite *noharm_suite(void)
{
    Suite *s = suite_create("noharm");
    TCase *tc = tcase_create("gates");
    tcase_add_test(tc, cache_only_when_threads_keep_up);
    tcase_add_test(tc, pending_counts_unsynced_items);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_SUITE(noharm_suite)

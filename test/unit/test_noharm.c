/* No-harm decisions (docs/noharm.md): when the E10 cache writes straight through
 * (nvc_gate); the prefetcher's gate is tested in test_pf_gate.c. */
#include "unit.h"
#include "nvc_gate.h"

#include <string.h>

#define MIB (1 << 20)

/* nothing measured yet: the job's first write is cached; flush_onclose and
 * the test hook always cache; an empty write never */
START_TEST(cache_from_the_first_write)
{
    struct nvc_tiers t = {0};
    struct nvc_rates r = {0};
    ck_assert_int_eq(nvc_gate_cache(0, 0, MIB, &t, &r), NVC_GATE_CACHE);
    ck_assert_int_eq(nvc_gate_cache(0, 64 * MIB, MIB, &t, &r), NVC_GATE_CACHE);
    ck_assert_int_eq(nvc_gate_cache(0, 0, 0, &t, &r), NVC_GATE_DIRECT);
    t.no_compute = 1;
    ck_assert_int_eq(nvc_gate_cache(1, 64 * MIB, MIB, &t, &r), NVC_GATE_CACHE);
    ck_assert_int_eq(nvc_gate_cache(0, 0, MIB, &t, NULL), NVC_GATE_CACHE);
}
END_TEST

/* a sync or close right after the writes: write through until a compute
 * phase is seen again */
START_TEST(no_compute_phase_writes_through)
{
    struct nvc_tiers t = {0};
    struct nvc_rates r = {.cache = 0.3 };
    nvc_gate_phase(&t, 0.01);
    ck_assert_int_eq(nvc_gate_cache(0, 0, MIB, &t, &r), NVC_GATE_NO_COMPUTE);
    nvc_gate_phase(&t, 1.5);
    ck_assert_int_eq(nvc_gate_cache(0, 0, MIB, &t, &r), NVC_GATE_CACHE);
    ck_assert(t.compute_s == 1.5);
    nvc_gate_phase(&t, 0);
    ck_assert_int_eq(nvc_gate_cache(0, 0, MIB, &t, &r), NVC_GATE_NO_COMPUTE);
    ck_assert(t.compute_s == 1.5);      /* the latest compute phase stays */
}
END_TEST

/* the global file system's sustained cost counts only once a write-back
 * was timed: a copy into a client's buffer alone looks as fast as the cache */
START_TEST(sustained_rate_decides)
{
    struct nvc_tiers t = {.drain_bytes = 100.0 * MIB, .drain_secs = 0.04 };
    struct nvc_rates r = {0};
    nvc_rate_note(&r, MIB, 0.0003);     /* the cache: 0.29 ns per byte */
    ck_assert(nvc_gate_drain_cost(&t) > 0.38 && nvc_gate_drain_cost(&t) < 0.39);
    ck_assert_int_eq(nvc_gate_cache(0, 0, MIB, &t, &r), NVC_GATE_CACHE);   /* no write-back yet */
    t.writebacks = 1;
    ck_assert_int_eq(nvc_gate_cache(0, 0, MIB, &t, &r), NVC_GATE_NOT_FASTER);
    int cached = 0;
    for (int k = 0; k < 2 * NVC_RECACHE; k++)
        cached += nvc_gate_cache(0, 0, MIB, &t, &r) == NVC_GATE_CACHE;
    ck_assert_int_eq(cached, 2);        /* now and then, to measure again */
    t.drain_secs += 0.5;                /* the write-back was slow: a disk */
    ck_assert_int_eq(nvc_gate_cache(0, 0, MIB, &t, &r), NVC_GATE_CACHE);
    nvc_rate_note(&r, MIB, 0.1);        /* one slow cache write only drifts */
    ck_assert(r.cache < 0.29 * (1 + NVC_RATE_DRIFT) + 1e-9);
    nvc_rate_note(&r, 0, 1);            /* ignored */
    nvc_rate_note(&r, MIB, -1);
    ck_assert(r.cache < 0.29 * (1 + NVC_RATE_DRIFT) + 1e-9);
}
END_TEST

/* a backlog that would outlast the latest compute phase goes straight
 * through; without a compute phase measured, nothing bounds it */
START_TEST(backlog_bounded_by_the_compute_phase)
{
    struct nvc_tiers t = {.drain_bytes = 1e9, .drain_secs = 2.0 };     /* 2 ns per byte */
    struct nvc_rates r = {.cache = 0.3 };
    ck_assert_int_eq(nvc_gate_cache(0, 400 * MIB, MIB, &t, &r), NVC_GATE_CACHE);
    nvc_gate_phase(&t, 0.5);            /* 250 MB drain in 0.5 s */
    ck_assert_int_eq(nvc_gate_cache(0, 100 * MIB, MIB, &t, &r), NVC_GATE_CACHE);
    ck_assert_int_eq(nvc_gate_cache(0, 300 * MIB, MIB, &t, &r), NVC_GATE_BUSY);
    ck_assert_int_eq(nvc_gate_cache(0, 0, 300 * MIB, &t, &r), NVC_GATE_CACHE);
    ck_assert_str_eq(nvc_gate_text(NVC_GATE_CACHE), "cache");
    ck_assert(strstr(nvc_gate_text(NVC_GATE_BUSY), "write-through") != NULL);
}
END_TEST

START_TEST(size_classes)
{
    ck_assert_int_eq(nvc_rate_class(1), 0);
    ck_assert_int_eq(nvc_rate_class(16 * 1024), 0);
    ck_assert_int_eq(nvc_rate_class(32 * 1024), 1);
    ck_assert_int_eq(nvc_rate_class(MIB / 2 - 1), 1);
    ck_assert_int_eq(nvc_rate_class(MIB), 2);
    ck_assert_int_eq(nvc_rate_class(16 * MIB), 3);
    ck_assert_int_eq(nvc_rate_class(INT64_MAX), NVC_RATE_CLASSES - 1);
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
    tcase_add_test(tc, cache_from_the_first_write);
    tcase_add_test(tc, no_compute_phase_writes_through);
    tcase_add_test(tc, sustained_rate_decides);
    tcase_add_test(tc, backlog_bounded_by_the_compute_phase);
    tcase_add_test(tc, size_classes);
    tcase_add_test(tc, pending_counts_unsynced_items);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_SUITE(noharm_suite)

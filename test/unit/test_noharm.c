/* No-harm decisions (docs/noharm.md): when the E10 cache writes straight through
 * (nvc_gate); the prefetcher's gate is tested in test_pf_gate.c. */
#include "unit.h"
#include "nvc_gate.h"

#define MIB (1 << 20)

START_TEST(cache_only_when_threads_keep_up)
{
    ck_assert_int_eq(nvc_gate_cache(0, 0, MIB, 1, NULL), 1);
    ck_assert_int_eq(nvc_gate_cache(0, 1, MIB, 1, NULL), 0);
    ck_assert_int_eq(nvc_gate_cache(0, 64 * MIB, 4096, 1, NULL), 0);
    ck_assert_int_eq(nvc_gate_cache(1, 64 * MIB, MIB, 1, NULL), 1);        /* flush_onclose */
    ck_assert_int_eq(nvc_gate_cache(0, 0, 0, 1, NULL), 0);
    struct nvc_rates r = {.direct = 10, .cache = 1};
    ck_assert_int_eq(nvc_gate_cache(0, 1, MIB, 1, &r), 0);         /* busy beats fast */
}
END_TEST

/* the global file first, then the cache, then the faster one by a margin */
START_TEST(cache_only_when_the_cache_is_faster)
{
    struct nvc_rates r = {0};
    for (int k = 0; k < NVC_WARMUP; k++) {
        ck_assert_int_eq(nvc_gate_cache(0, 0, MIB, 1, &r), 0);     /* time the global file */
        nvc_rate_note(&r, 0, MIB, k ? 0.001 : 0.02);    /* the first write into a file: slow */
    }
    ck_assert(r.direct > 0.953 && r.direct < 0.954);            /* ns per byte, the lowest */
    ck_assert_int_eq(nvc_gate_cache(0, 0, MIB, 1, &r), NVC_GATE_PROBE);    /* then the cache */
    nvc_rate_note(&r, 1, MIB, 0.0009);                          /* only 1.1x faster */
    for (int k = 0; k < NVC_REPROBE - 1; k++)
        ck_assert_int_eq(nvc_gate_cache(0, 0, MIB, 1, &r), 0);
    ck_assert_int_eq(nvc_gate_cache(0, 0, MIB, 1, &r), NVC_GATE_PROBE);    /* now and then */
    ck_assert_int_eq(nvc_gate_cache(0, 0, MIB, 1, &r), 0);
    nvc_rate_note(&r, 0, MIB, 0.1);                             /* one slow write: */
    ck_assert(r.direct < 0.954 * (1 + NVC_RATE_DRIFT) + 1e-9);  /* only drifts */
    ck_assert_int_eq(nvc_gate_cache(0, 0, MIB, 1, &r), 0);
    for (int k = 0; k < 20; k++)                                /* the global file slows */
        nvc_rate_note(&r, 0, MIB, 0.004);
    ck_assert_int_eq(nvc_gate_cache(0, 0, MIB, 1, &r), 1);
    ck_assert_int_eq(nvc_gate_cache(0, MIB, MIB, 1, &r), 0);       /* but not while busy */
    ck_assert_int_eq(nvc_gate_cache(1, MIB, MIB, 1, &r), 1);       /* flush_onclose */
    nvc_rate_note(&r, 1, 0, 1);                                 /* ignored */
    nvc_rate_note(&r, 1, MIB, -1);
    ck_assert_int_eq(nvc_gate_cache(0, 0, MIB, 1, &r), 1);
}
END_TEST

/* no compute phase seen yet (a sync long after the last write): a cached
 * write's copy back could not hide, so even a faster cache is not used */
START_TEST(no_compute_phase_writes_direct)
{
    struct nvc_rates r = {.direct = 10, .cache = 1, .ndirect = NVC_WARMUP};
    ck_assert_int_eq(nvc_gate_cache(0, 0, MIB, 0, &r), NVC_GATE_DIRECT);
    ck_assert_int_eq(nvc_gate_cache(0, 0, MIB, 1, &r), NVC_GATE_CACHE);
    ck_assert_int_eq(nvc_gate_cache(1, 0, MIB, 0, &r), NVC_GATE_CACHE);   /* flush_onclose */
    ck_assert_int_eq(nvc_gate_cache(0, 0, MIB, 0, NULL), NVC_GATE_CACHE); /* test hook */
    struct nvc_rates fresh = {.ndirect = NVC_WARMUP};
    ck_assert_int_eq(nvc_gate_cache(0, 0, MIB, 0, &fresh), NVC_GATE_DIRECT); /* no probe either */
    ck_assert_int_eq(fresh.since_probe, 0);
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
    ck_assert_int_eq(nvc_probe_bytes(MIB / 4), MIB / 32);
    ck_assert_int_eq(nvc_probe_bytes(MIB), NVC_PROBE_MAX);
    ck_assert_int_eq(nvc_probe_bytes(16 * 1024), NVC_PROBE_MIN);
    ck_assert_int_eq(nvc_probe_bytes(100), 100);        /* a whole small write */
    ck_assert_int_eq(nvc_probe_bytes(64 * MIB), NVC_PROBE_MAX);     /* capped */
    ck_assert_int_eq(nvc_probe_bytes(8 * NVC_PROBE_MAX), NVC_PROBE_MAX);
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
    tcase_add_test(tc, cache_only_when_the_cache_is_faster);
    tcase_add_test(tc, no_compute_phase_writes_direct);
    tcase_add_test(tc, size_classes);
    tcase_add_test(tc, pending_counts_unsynced_items);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_SUITE(noharm_suite)

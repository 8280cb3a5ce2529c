/* The prefetch gate (src/prefetch/pf_gate.h): which reads pass straight to
 * the file system and which go through the prefetch window.  The clock is
 * passed in, so the decisions are tested on exact, made-up timings. */
#include "unit.h"
#include "pf_gate.h"

#define KIB 1024
#define MIB (1 << 20)
#define US 1e-6

/* a read of len at off that starts at *t and takes cost seconds (hit
 * seconds through the window), then gap seconds of compute; the verdict */
/* one read: `cost` passed or `hit` through the window, then the
 * application's gap after it (`hit_gap` after a window read) */
static enum pf_gate_verdict step3(struct pf_gate *g, double *t, int64_t off, int64_t len,
                                  double cost, double gap, double hit, double hit_gap)
{
    enum pf_gate_verdict v = pf_gate_check(g, off, len, *t);
    int window = v == PF_GATE_PREFETCH;
    double took = window ? hit : cost;
    if (window)                 /* served by the thread's work: a warm window */
        pf_gate_warm(g);
    pf_gate_done(g, v, *t, *t + took);
    *t += took + (window ? hit_gap : gap);
    return v;
}

static enum pf_gate_verdict step2(struct pf_gate *g, double *t, int64_t off, int64_t len,
                                  double cost, double hit, double gap)
{
    return step3(g, t, off, len, cost, gap, hit, gap);
}

static enum pf_gate_verdict step(struct pf_gate *g, double *t, int64_t off, int64_t len,
                                 double cost, double gap)
{
    return step2(g, t, off, len, cost, cost, gap);
}

START_TEST(sequential_stream_passes)
{
    struct pf_gate g;
    double t = 0;
    pf_gate_init(&g, 4 * MIB);
    ck_assert_int_eq(step(&g, &t, 0, 256 * KIB, 1e-3, 1e-3), PF_GATE_FIRST);
    /* even with compute between reads: the kernel reads a stream ahead */
    for (int k = 1; k < 64; k++)
        ck_assert_int_eq(step(&g, &t, (int64_t) k * 256 * KIB, 256 * KIB, 1e-3, 1e-3),
                         PF_GATE_SEQUENTIAL);
}
END_TEST

START_TEST(large_reads_pass)
{
    struct pf_gate g;
    double t = 0;
    pf_gate_init(&g, 4 * MIB);
    /* two-phase aggregators, data sieving, HDF5's 1 MiB reads: far apart,
     * slow, with compute between them */
    for (int k = 0; k < 10; k++)
        ck_assert_int_eq(step(&g, &t, (int64_t) k * 16 * MIB, MIB, 2e-3, 5e-3), PF_GATE_LARGE);
    ck_assert_int_eq(step(&g, &t, 500 * MIB, 16 * MIB, 2e-3, 5e-3), PF_GATE_LARGE);
    /* the limit is the block size when that is smaller than 1 MiB */
    pf_gate_init(&g, 256 * KIB);
    ck_assert_int_eq(pf_gate_check(&g, 0, 256 * KIB, 0), PF_GATE_LARGE);
    ck_assert_int_eq(pf_gate_check(&g, MIB, 256 * KIB - 1, 0), PF_GATE_BUSY);
}
END_TEST

/* ROOT-like: forward with gaps, 250 KiB reads of 300 us, compute gap */
static int root_like(struct pf_gate *g, double cost, double gap, int reads)
{
    double t = 0;
    int prefetched = 0;
    pf_gate_init(g, 4 * MIB);
    for (int k = 0; k < reads; k++)
        prefetched += step2(g, &t, (int64_t) k * 400 * KIB, 250 * KIB, cost, cost / 5, gap) ==
            PF_GATE_PREFETCH;
    return prefetched;
}

START_TEST(jumps_with_compute_are_prefetched)
{
    struct pf_gate g;
    /* compute = read time: the first read and PF_GATE_WARMUP timed ones pass */
    ck_assert_int_eq(root_like(&g, 300 * US, 300 * US, 50), 50 - 1 - PF_GATE_WARMUP);
    ck_assert_int_eq(root_like(&g, 300 * US, 200 * US, 50), 50 - 1 - PF_GATE_WARMUP);
}
END_TEST

START_TEST(jumps_without_compute_pass)
{
    struct pf_gate g;
    double t = 0;
    /* back to back (interleaved ranks: 16 KiB every 32 KiB, cold) */
    ck_assert_int_eq(root_like(&g, 300 * US, 5 * US, 50), 0);
    pf_gate_init(&g, 4 * MIB);
    for (int k = 0; k < 100; k++) {
        enum pf_gate_verdict v = step(&g, &t, (int64_t) k * 32 * KIB, 16 * KIB, 200 * US, 2 * US);
        ck_assert_int_eq(v, k == 0 ? PF_GATE_FIRST : PF_GATE_BUSY);
    }
    /* compute, but the reads come from the page cache: nothing to hide */
    ck_assert_int_eq(root_like(&g, 30 * US, 300 * US, 50), 0);
}
END_TEST

START_TEST(stops_and_restarts_with_the_gaps)
{
    struct pf_gate g;
    double t = 0;
    int64_t off = 0;
    pf_gate_init(&g, 4 * MIB);
    for (int k = 0; k < 10; k++, off += 400 * KIB)
        step2(&g, &t, off, 250 * KIB, 300 * US, 5 * US, 300 * US);
    ck_assert_int_eq(g.on, 1);
    /* prefetched reads are fast: that must not switch it off */
    for (int k = 0; k < 10; k++, off += 400 * KIB)
        ck_assert_int_eq(step2(&g, &t, off, 250 * KIB, 300 * US, 5 * US, 300 * US),
                         PF_GATE_PREFETCH);
    /* the compute stops: it stops within a few reads */
    int pf = 0;
    for (int k = 0; k < 10; k++, off += 400 * KIB)
        pf += step2(&g, &t, off, 250 * KIB, 300 * US, 5 * US, 1 * US) == PF_GATE_PREFETCH;
    ck_assert_int_lt(pf, 10);
    ck_assert_int_eq(g.on, 0);
    ck_assert_int_eq(step(&g, &t, off += 400 * KIB, 250 * KIB, 300 * US, 1 * US), PF_GATE_BUSY);
    /* and it comes back */
    for (int k = 0; k < 10; k++, off += 400 * KIB)
        step2(&g, &t, off, 250 * KIB, 300 * US, 5 * US, 400 * US);
    ck_assert_int_eq(g.on, 1);
}
END_TEST

/* prefetching that does not make the reads faster backs off, doubling */
START_TEST(backs_off_when_it_does_not_pay)
{
    struct pf_gate g;
    double t = 0;
    int64_t off = 0;
    int on = 0, k;
    pf_gate_init(&g, 4 * MIB);
    /* through the window the reads take longer than passing did (300 us) */
    for (k = 0; k < 1 + PF_GATE_WARMUP + 1 + PF_GATE_PROBE; k++, off += 400 * KIB) {
        enum pf_gate_verdict v = pf_gate_check(&g, off, 250 * KIB, t);
        double cost = v == PF_GATE_PREFETCH ? 600 * US : 300 * US;
        on += v == PF_GATE_PREFETCH;
        if (v == PF_GATE_PREFETCH)
            pf_gate_warm(&g);
        pf_gate_done(&g, v, t, t + cost);
        t += cost + 300 * US;
    }
    ck_assert_int_eq(on, 1 + PF_GATE_PROBE);
    ck_assert_int_eq(g.failures, 1);
    ck_assert_int_eq(g.on, 0);
    /* the next PF_GATE_BACKOFF jumping reads pass, then it tries again */
    for (k = 0; k < PF_GATE_BACKOFF; k++, off += 400 * KIB)
        ck_assert_int_eq(step(&g, &t, off, 250 * KIB, 300 * US, 300 * US), PF_GATE_BUSY);
    ck_assert_int_eq(step(&g, &t, off += 400 * KIB, 250 * KIB, 600 * US, 300 * US),
                     PF_GATE_PREFETCH);
    for (k = 0; k < PF_GATE_PROBE; k++, off += 400 * KIB)
        step(&g, &t, off, 250 * KIB, 600 * US, 300 * US);
    ck_assert_int_eq(g.failures, 2);
    ck_assert_int_eq(g.backoff, 2 * PF_GATE_BACKOFF);
}
END_TEST

/* the reads through the window are fast, but the thread takes the CPU the
 * application computes on (no spare core): the gaps grow, it backs off */
START_TEST(backs_off_when_the_gaps_grow)
{
    struct pf_gate g;
    double t = 0;
    int64_t off = 0;
    pf_gate_init(&g, 4 * MIB);
    for (int k = 0; k < 40; k++, off += 400 * KIB)
        step3(&g, &t, off, 250 * KIB, 300 * US, 300 * US, 60 * US, 900 * US);
    ck_assert_int_eq(g.failures, 1);
    ck_assert_int_gt(g.backoff, 0);
}
END_TEST

/* prefetching that pays stays on */
START_TEST(stays_on_when_it_pays)
{
    struct pf_gate g;
    double t = 0;
    int64_t off = 0;
    pf_gate_init(&g, 4 * MIB);
    for (int k = 0; k < 200; k++, off += 400 * KIB) {
        enum pf_gate_verdict v = pf_gate_check(&g, off, 250 * KIB, t);
        /* the first read through the window loads the block itself: slow */
        double cost = v != PF_GATE_PREFETCH ? 300 * US : g.serveds < 0 ? 5e-3 : 60 * US;
        if (v == PF_GATE_PREFETCH)
            pf_gate_warm(&g);
        pf_gate_done(&g, v, t, t + cost);
        t += cost + 300 * US;
    }
    ck_assert_int_eq(g.failures, 0);
    ck_assert_int_eq(g.on, 1);
}
END_TEST

START_TEST(sequential_after_a_jump_passes)
{
    struct pf_gate g;
    pf_gate_init(&g, 4 * MIB);
    pf_gate_check(&g, 0, 512, 0);       /* HDF5: superblock, then the data */
    ck_assert_int_eq(pf_gate_check(&g, 2048, 100 * KIB, 0), PF_GATE_BUSY);
    ck_assert_int_eq(pf_gate_check(&g, 2048 + 100 * KIB, 100 * KIB, 0), PF_GATE_SEQUENTIAL);
    ck_assert_int_eq(pf_gate_check(&g, 2048 + 100 * KIB, 100, 0), PF_GATE_BUSY);     /* back */
}
END_TEST

/* the window's first reads, while the thread loads its first blocks, are
 * not judged (the reader reads those itself, beside the thread: slow); the
 * probe starts at the first read the thread's work served */
START_TEST(ramp_is_not_judged)
{
    struct pf_gate g;
    double t = 0;
    int64_t off = 0;
    int k;
    pf_gate_init(&g, 4 * MIB);
    for (k = 0; k < 1 + PF_GATE_WARMUP; k++, off += 400 * KIB)
        step(&g, &t, off, 250 * KIB, 2e-3, 2e-3);
    /* 12 cold window reads at 4 ms (twice a passed read) */
    for (k = 0; k < 12; k++, off += 400 * KIB) {
        ck_assert_int_eq(pf_gate_check(&g, off, 250 * KIB, t), PF_GATE_PREFETCH);
        pf_gate_done(&g, PF_GATE_PREFETCH, t, t + 4e-3);
        t += 4e-3 + 2e-3;
    }
    ck_assert_int_eq(g.failures, 0);
    /* then warm: 100 us reads; it stays on */
    for (k = 0; k < 4 * PF_GATE_PROBE; k++, off += 400 * KIB)
        ck_assert_int_eq(step3(&g, &t, off, 250 * KIB, 2e-3, 2e-3, 100 * US, 2e-3),
                         PF_GATE_PREFETCH);
    ck_assert_int_eq(g.failures, 0);
    ck_assert_int_eq(g.on, 1);
}
END_TEST

/* a window that never warms up (the thread never gets ahead) did not pay */
START_TEST(never_warm_backs_off)
{
    struct pf_gate g;
    double t = 0;
    int64_t off = 0;
    int k, on = 0;
    pf_gate_init(&g, 4 * MIB);
    for (k = 0; k < 1 + PF_GATE_WARMUP + PF_GATE_RAMP + 5; k++, off += 400 * KIB) {
        enum pf_gate_verdict v = pf_gate_check(&g, off, 250 * KIB, t);
        on += v == PF_GATE_PREFETCH;
        pf_gate_done(&g, v, t, t + 2e-3);
        t += 4e-3;
    }
    ck_assert_int_eq(on, PF_GATE_RAMP);
    ck_assert_int_eq(g.failures, 1);
    ck_assert_int_eq(g.backoff, PF_GATE_BACKOFF - 5);
}
END_TEST

/* a read that finds its block being loaded: wait for the thread when the
 * rest of the load is below the reader's own read, at most that long */
START_TEST(waits_for_a_load_about_to_land)
{
    /* a 13 ms block load, 10 ms in; a piece costs 2 ms: wait (<= 2 ms) */
    ck_assert(pf_gate_wait(13e-3, 12e-3, 2e-3) == 2e-3);
    ck_assert(pf_gate_wait(13e-3, 20e-3, 2e-3) == 2e-3);        /* late: still wait, bounded */
    /* just started: 13 ms left, read the piece now */
    ck_assert(pf_gate_wait(13e-3, 0, 2e-3) == 0);
    ck_assert(pf_gate_wait(13e-3, 11e-3, 2e-3) == 0);           /* 2 ms left: not below */
    /* nothing measured yet: never wait */
    ck_assert(pf_gate_wait(0, 5e-3, 2e-3) == 0);
    ck_assert(pf_gate_wait(13e-3, 12e-3, 0) == 0);
}
END_TEST

/* loaders: enough that their blocks arrive as fast as the reader uses them */
START_TEST(loaders_keep_up_with_the_reader)
{
    ck_assert_int_eq(pf_gate_loaders(13e-3, 10e-3, 4), 2);      /* the testbed */
    ck_assert_int_eq(pf_gate_loaders(13e-3, 13e-3, 4), 1);
    ck_assert_int_eq(pf_gate_loaders(5e-3, 20e-3, 4), 1);       /* one is ahead */
    ck_assert_int_eq(pf_gate_loaders(50e-3, 10e-3, 4), 4);      /* capped */
    ck_assert_int_eq(pf_gate_loaders(50e-3, 10e-3, 3), 3);      /* by the read-ahead */
    ck_assert_int_eq(pf_gate_loaders(50e-3, 10e-3, 0), 1);
    ck_assert_int_eq(pf_gate_loaders(0, 10e-3, 4), 1);          /* nothing measured */
    ck_assert_int_eq(pf_gate_loaders(13e-3, 0, 4), 1);
}
END_TEST

Suite *pf_gate_suite(void)
{
    Suite *s = suite_create("pf_gate");
    TCase *tc = tcase_create("gate");
    tcase_add_test(tc, sequential_stream_passes);
    tcase_add_test(tc, large_reads_pass);
    tcase_add_test(tc, jumps_with_compute_are_prefetched);
    tcase_add_test(tc, jumps_without_compute_pass);
    tcase_add_test(tc, stops_and_restarts_with_the_gaps);
    tcase_add_test(tc, backs_off_when_it_does_not_pay);
    tcase_add_test(tc, backs_off_when_the_gaps_grow);
    tcase_add_test(tc, stays_on_when_it_pays);
    tcase_add_test(tc, sequential_after_a_jump_passes);
    tcase_add_test(tc, waits_for_a_load_about_to_land);
    tcase_add_test(tc, ramp_is_not_judged);
    tcase_add_test(tc, never_warm_backs_off);
    tcase_add_test(tc, loaders_keep_up_with_the_reader);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_SUITE(pf_gate_suite)

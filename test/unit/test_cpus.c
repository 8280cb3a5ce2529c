/* Cores for helper threads (src/core/xt_cpus.c): the cores of the node no
 * process is bound to, and their text. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <sched.h>
#include <string.h>
#include "unit.h"
#include "xt_cpus.h"
#include "unit_cpus.h"

/* 8 processes bound one core each on a 16-core node: cores 8-15 are idle */
/* the process's own cores hold the core it runs on, and a restricted
 * mask reads back as set */
START_TEST(self_holds_the_running_core)
{
    struct xt_cpus me, one;
    cpu_set_t saved, only;
    ck_assert_int_eq(xt_cpus_self(&me), 0);
    int cpu = sched_getcpu();
    ck_assert(me.w[cpu / 64] >> (cpu % 64) & 1);
    ck_assert_int_eq(sched_getaffinity(0, sizeof(saved), &saved), 0);
    CPU_ZERO(&only);
    CPU_SET(cpu, &only);
    ck_assert_int_eq(sched_setaffinity(0, sizeof(only), &only), 0);
    ck_assert_int_eq(xt_cpus_self(&one), 0);
    ck_assert_int_eq(sched_setaffinity(0, sizeof(saved), &saved), 0);
    int count = 0;
    for (int w = 0; w < XT_CPU_WORDS; w++)
        count += __builtin_popcountll(one.w[w]);
    ck_assert_int_eq(count, 1);
    ck_assert(one.w[cpu / 64] >> (cpu % 64) & 1);
}
END_TEST

START_TEST(bound_processes_leave_the_rest_idle)
{
    struct xt_cpus online = range(0, 15), masks[8], idle;
    char text[64];
    for (int k = 0; k < 8; k++)
        masks[k] = range(k, k);
    ck_assert_int_eq(xt_cpus_idle(&online, masks, 8, &idle), 8);
    xt_cpus_text(&idle, text, sizeof(text));
    ck_assert_str_eq(text, "8-15");
}
END_TEST

/* one process not bound (its mask is every core): nothing is idle, the
 * helpers inherit */
START_TEST(an_unbound_process_leaves_nothing_idle)
{
    struct xt_cpus online = range(0, 15), idle;
    struct xt_cpus masks[2] = { range(0, 0), range(0, 15) };
    ck_assert_int_eq(xt_cpus_idle(&online, masks, 2, &idle), 0);
}
END_TEST

/* masks over the word boundary, cores beyond the online ones ignored */
START_TEST(idle_across_words_and_text)
{
    struct xt_cpus online = range(0, 129), idle;
    struct xt_cpus masks[2] = { range(0, 62), range(66, 200) };
    char text[64];
    ck_assert_int_eq(xt_cpus_idle(&online, masks, 2, &idle), 3);
    xt_cpus_text(&idle, text, sizeof(text));
    ck_assert_str_eq(text, "63-65");
    struct xt_cpus odd = range(1, 1);
    odd.w[0] |= 1ull << 5;
    xt_cpus_text(&odd, text, sizeof(text));
    ck_assert_str_eq(text, "1,5");
    xt_cpus_text(&odd, text, 3);        /* truncated, terminated */
    ck_assert_str_eq(text, "1,");
}
END_TEST

Suite *cpus_suite(void)
{
    Suite *s = suite_create("cpus");
    TCase *t = tcase_create("idle");
    tcase_add_test(t, self_holds_the_running_core);
    tcase_add_test(t, bound_processes_leave_the_rest_idle);
    tcase_add_test(t, an_unbound_process_leaves_nothing_idle);
    tcase_add_test(t, idle_across_words_and_text);
    suite_add_tcase(s, t);
    return s;
}

UNIT_SUITE(cpus_suite)

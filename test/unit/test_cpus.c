/* Cores for helper threads (src/core/xt_cpus.c): the cores of the node no
 * process is bound to, and their text. */
#include <string.h>
#include "unit.h"
#include "xt_cpus.h"
#include "unit_cpus.h"

/* 8 processes bound one core each on a 16-core node: cores 8-15 are idle */
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
    tcase_add_test(t, bound_processes_leave_the_rest_idle);
    tcase_add_test(t, an_unbound_process_leaves_nothing_idle);
    tcase_add_test(t, idle_across_words_and_text);
    suite_add_tcase(s, t);
    return s;
}

UNIT_SUITE(cpus_suite)

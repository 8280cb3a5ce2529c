/* Timed waits on the monotonic clock (src/core/xt_wait.c): the condition
 * variable's clock is the one its deadlines are given in. */
#include <errno.h>
#include <pthread.h>
#include <time.h>
#include "unit.h"
#include "xt_wait.h"

static double mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

/* A deadline 50 ms ahead on CLOCK_MONOTONIC: the wait lasts that long.  (A
 * condition variable on the wall clock would take it for a time decades
 * past and return at once.) */
START_TEST(waits_until_a_monotonic_deadline)
{
    pthread_cond_t c;
    ck_assert_int_eq(xt_cond_init(&c), 0);
    pthread_mutex_lock(&mu);
    double t0 = mono();
    int rc;
    while ((rc = xt_cond_wait_until(&c, &mu, t0 + 0.05)) == 0)
        continue;               /* a spurious wakeup */
    double took = mono() - t0;
    pthread_mutex_unlock(&mu);
    ck_assert_int_eq(rc, ETIMEDOUT);
    ck_assert_double_ge(took, 0.049);
    ck_assert_double_lt(took, 5.0);
    pthread_cond_destroy(&c);
}
END_TEST

START_TEST(past_deadline_returns_at_once)
{
    pthread_cond_t c;
    ck_assert_int_eq(xt_cond_init(&c), 0);
    pthread_mutex_lock(&mu);
    double t0 = mono();
    ck_assert_int_eq(xt_cond_wait_until(&c, &mu, t0 - 1.0), ETIMEDOUT);
    pthread_mutex_unlock(&mu);
    ck_assert_double_lt(mono() - t0, 1.0);
    pthread_cond_destroy(&c);
}
END_TEST

static pthread_cond_t sig_c;
static int sig_flag;

static void *signaller(void *arg)
{
    (void) arg;
    pthread_mutex_lock(&mu);
    sig_flag = 1;
    pthread_cond_signal(&sig_c);
    pthread_mutex_unlock(&mu);
    return NULL;
}

START_TEST(signal_ends_the_wait)
{
    pthread_t th;
    ck_assert_int_eq(xt_cond_init(&sig_c), 0);
    pthread_mutex_lock(&mu);
    sig_flag = 0;
    double t0 = mono();
    ck_assert_int_eq(pthread_create(&th, NULL, signaller, NULL), 0);
    while (!sig_flag && xt_cond_wait_until(&sig_c, &mu, t0 + 30) == 0)
        continue;
    pthread_mutex_unlock(&mu);
    pthread_join(th, NULL);
    ck_assert_int_eq(sig_flag, 1);
    ck_assert_double_lt(mono() - t0, 30);
    pthread_cond_destroy(&sig_c);
}
END_TEST

START_TEST(coarse_clock_is_the_monotonic_one)
{
    double a = mono(), c = xt_coarse_now(), b = mono();
    ck_assert_double_ge(c, a - 0.05);       /* within a tick */
    ck_assert_double_le(c, b);
}
END_TEST

Suite *wait_suite(void)
{
    Suite *s = suite_create("wait");
    TCase *t = tcase_create("monotonic");
    tcase_add_test(t, waits_until_a_monotonic_deadline);
    tcase_add_test(t, past_deadline_returns_at_once);
    tcase_add_test(t, signal_ends_the_wait);
    tcase_add_test(t, coarse_clock_is_the_monotonic_one);
    suite_add_tcase(s, t);
    return s;
}

UNIT_SUITE(wait_suite)

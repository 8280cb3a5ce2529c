/* romio-xt: timed waits on the monotonic clock. */
#include "xt_wait.h"

#include <time.h>

int xt_cond_init(pthread_cond_t *cond)
{
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    int rc = pthread_cond_init(cond, &ca);
    pthread_condattr_destroy(&ca);
    return rc;
}

int xt_cond_wait_until(pthread_cond_t *cond, pthread_mutex_t *mu, double until)
{
    struct timespec ts;
    ts.tv_sec = (time_t) until;
    ts.tv_nsec = (long) ((until - (double) ts.tv_sec) * 1e9);
    return pthread_cond_timedwait(cond, mu, &ts);
}

double xt_coarse_now(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC_COARSE, &now);
    return now.tv_sec + now.tv_nsec * 1e-9;
}

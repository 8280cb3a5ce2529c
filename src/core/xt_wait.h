/* romio-xt: timed waits on the monotonic clock (no MPI, no ROMIO: the unit
 * tests compile it too). */
#ifndef XT_WAIT_H
#define XT_WAIT_H

#include <pthread.h>

/* a condition variable whose timed waits run on CLOCK_MONOTONIC (xt_now's
 * clock), so that a change of the wall clock (NTP, an administrator) neither
 * ends a wait early nor stretches it; pthread_cond_init's result */
int xt_cond_init(pthread_cond_t *cond);
/* with mu held: wait on cond (made by xt_cond_init) until signalled or
 * monotonic time `until` (s) passes; pthread_cond_timedwait's result
 * (ETIMEDOUT: it passed) */
int xt_cond_wait_until(pthread_cond_t *cond, pthread_mutex_t *mu, double until);
/* seconds on CLOCK_MONOTONIC_COARSE (a tick, 1-4 ms, for 6 ns instead of
 * 27 ns): comparable with xt_cond_wait_until's `until` within a tick */
double xt_coarse_now(void);

#endif

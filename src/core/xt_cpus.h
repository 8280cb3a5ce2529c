/* romio-xt: where the layers' helper threads run (romio_xt_helper_cpus).
 * A process bound to a few cores hands its mask to every thread it starts,
 * so an e10 sync thread or a prefetch loader takes its CPU time from the
 * process's own compute.  At open, xt_helper_cpus_open finds the cores of
 * the node that no process of the file's communicator is bound to;
 * xt_thread_create starts helpers there. */
#ifndef XT_CPUS_H
#define XT_CPUS_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#define XT_CPU_WORDS 16         /* 1024 cores, as glibc's cpu_set_t */

/* a set of cores as 64-bit words (bit c of word c / 64: core c) */
struct xt_cpus {
    uint64_t w[XT_CPU_WORDS];
};

/* pure: idle = online less every mask of masks[0..n); returns its count */
int xt_cpus_idle(const struct xt_cpus *online, const struct xt_cpus *masks, int n,
                 struct xt_cpus *idle);
/* this process's cores (sched_getaffinity); -1, with s empty, when the
 * system does not say */
int xt_cpus_self(struct xt_cpus *s);
/* pure: the set as a list "0-3,8" (empty set: ""); truncated to len */
void xt_cpus_text(const struct xt_cpus *s, char *out, size_t len);

#endif

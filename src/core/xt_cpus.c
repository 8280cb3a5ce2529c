/* romio-xt: sets of cores for helper threads (pure: no MPI, no ROMIO). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE             /* sched_getaffinity */
#endif
#include "xt_cpus.h"

#include <sched.h>
#include <stdio.h>
#include <string.h>

int xt_cpus_self(struct xt_cpus *s)
{
    _Static_assert(sizeof(*s) >= sizeof(cpu_set_t), "xt_cpus holds a cpu_set_t");
    memset(s, 0, sizeof(*s));
    if (sched_getaffinity(0, sizeof(cpu_set_t), (cpu_set_t *) s) == 0)
        return 0;
    memset(s, 0, sizeof(*s));
    return -1;
}

int xt_cpus_idle(const struct xt_cpus *online, const struct xt_cpus *masks, int n,
                 struct xt_cpus *idle)
{
    int count = 0;
    for (int w = 0; w < XT_CPU_WORDS; w++) {
        uint64_t used = 0;
        for (int k = 0; k < n; k++)
            used |= masks[k].w[w];
        idle->w[w] = online->w[w] & ~used;
        count += __builtin_popcountll(idle->w[w]);
    }
    return count;
}

static int has(const struct xt_cpus *s, int c)
{
    return (s->w[c / 64] >> (c % 64)) & 1;
}

void xt_cpus_text(const struct xt_cpus *s, char *out, size_t len)
{
    size_t at = 0;
    out[0] = '\0';
    for (int c = 0; c < XT_CPU_WORDS * 64 && at < len; c++) {
        if (!has(s, c))
            continue;
        int e = c;
        while (e + 1 < XT_CPU_WORDS * 64 && has(s, e + 1))
            e++;
        int n = e > c ? snprintf(out + at, len - at, "%s%d-%d", at ? "," : "", c, e)
            : snprintf(out + at, len - at, "%s%d", at ? "," : "", c);
        at += n > 0 ? (size_t) n : 0;
        c = e;
    }
}

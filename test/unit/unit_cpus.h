/* The unit tests' sets of cores (xt_cpus.h). */
#ifndef UNIT_CPUS_H
#define UNIT_CPUS_H
#include <string.h>
#include "xt_cpus.h"

/* cores lo..hi (lo > hi: none) */
static inline struct xt_cpus range(int lo, int hi)
{
    struct xt_cpus s;
    memset(&s, 0, sizeof(s));
    for (int c = lo; c <= hi; c++)
        s.w[c / 64] |= 1ull << (c % 64);
    return s;
}
#endif

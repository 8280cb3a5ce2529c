/* romio-xt prefetch: which reads are worth prefetching for (pf_gate.h). */
#include "pf_gate.h"

void pf_gate_init(struct pf_gate *g, int64_t bs)
{
    g->bs = bs > 0 ? bs : 1;
    g->next = -1;
}

enum pf_gate_verdict pf_gate_check(struct pf_gate *g, int64_t off, int64_t len)
{
    int64_t prev = g->next;
    g->next = off + len;
    if (len >= g->bs)
        return PF_GATE_LARGE;
    if (prev < 0)
        return PF_GATE_FIRST;
    return off == prev ? PF_GATE_SEQUENTIAL : PF_GATE_PREFETCH;
}

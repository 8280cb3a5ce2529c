/* romio-xt NVM write-behind: when caching a write pays (nvc_gate.h). */
#include "nvc_gate.h"

int nvc_gate_cache(int held_back, int64_t pending, int64_t len)
{
    return len > 0 && (held_back || pending == 0);
}

int64_t nvc_queue_pending(const struct nvc_queue *q)
{
    int64_t n = 0;
    for (size_t i = q->low; i < q->n; i++)
        n += q->v[i].state != NVC_DONE ? q->v[i].len : 0;
    return n;
}

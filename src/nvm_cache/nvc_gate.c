/* romio-xt NVM write-behind: when caching a write pays (nvc_gate.h). */
#include "nvc_gate.h"

int nvc_gate_cache(int held_back, int64_t pending, int64_t len, int compute_seen,
                   struct nvc_rates *r)
{
    if (len <= 0)
        return NVC_GATE_DIRECT;
    if (held_back)
        return NVC_GATE_CACHE;
    if (pending > 0)
        return NVC_GATE_DIRECT;
    if (!r)
        return NVC_GATE_CACHE;
    if (!compute_seen)
        return NVC_GATE_DIRECT; /* the copy back could not hide: no probe either */
    if (r->ndirect < NVC_WARMUP)
        return NVC_GATE_DIRECT; /* time the global file first */
    int faster = r->cache > 0 && r->cache * NVC_MIN_SPEEDUP <= r->direct;
    if (r->cache <= 0 || ++r->since_probe >= NVC_REPROBE) {
        r->since_probe = 0;     /* time the cache */
        return faster ? NVC_GATE_CACHE : NVC_GATE_PROBE;
    }
    return faster ? NVC_GATE_CACHE : NVC_GATE_DIRECT;
}

int64_t nvc_probe_bytes(int64_t len)
{
    int64_t p = len / 8 < NVC_PROBE_MIN ? NVC_PROBE_MIN
        : len / 8 > NVC_PROBE_MAX ? NVC_PROBE_MAX : len / 8;
    return p < len ? p : len;
}

int nvc_rate_class(int64_t len)
{
    /* < 32 KiB, < 512 KiB, < 8 MiB, larger */
    int c = 0;
    for (int64_t b = 32 * 1024; c < NVC_RATE_CLASSES - 1 && len >= b; b *= 16)
        c++;
    return c;
}

void nvc_rate_note(struct nvc_rates *r, int cached, int64_t len, double seconds)
{
    if (len <= 0 || seconds < 0)
        return;
    double x = seconds * 1e9 / (double) len, *rate = cached ? &r->cache : &r->direct;
    if (*rate <= 0 || x < *rate)
        *rate = x;
    else if (x > *rate * (1 + NVC_RATE_DRIFT))
        *rate *= 1 + NVC_RATE_DRIFT;
    else
        *rate = x;
    r->ndirect += !cached;
}

int64_t nvc_queue_pending(const struct nvc_queue *q)
{
    int64_t n = 0;
    for (size_t i = q->low; i < q->n; i++)
        n += q->v[i].state != NVC_DONE ? q->v[i].len : 0;
    return n;
}

/* romio-xt NVM write-behind: when caching a write pays (nvc_gate.h). */
#include "nvc_gate.h"

double nvc_gate_drain_cost(const struct nvc_tiers *t)
{
    return t->drain_bytes > 0 ? t->drain_secs * 1e9 / t->drain_bytes : 0;
}

/* rule 2: the cache is not enough cheaper than the global file system's
 * sustained cost, measured with a write-back */
static int not_faster(const struct nvc_tiers *t, const struct nvc_rates *r)
{
    double d = nvc_gate_drain_cost(t);
    return t->writebacks > 0 && d > 0 && r->cache > 0 && r->cache * NVC_MIN_SPEEDUP > d;
}

/* rule 3: the backlog would outlast the latest compute phase */
static int backlogged(const struct nvc_tiers *t, int64_t pending, int64_t len)
{
    double d = nvc_gate_drain_cost(t);
    return pending > 0 && d > 0 && t->compute_s > 0 &&
        (double) (pending + len) * d * 1e-9 > t->compute_s;
}

int nvc_gate_cache(int held_back, int64_t pending, int64_t len, const struct nvc_tiers *t,
                   struct nvc_rates *r)
{
    if (len <= 0)
        return NVC_GATE_DIRECT;
    if (held_back || !r)
        return NVC_GATE_CACHE;
    if (t->no_compute)
        return NVC_GATE_NO_COMPUTE;
    if (not_faster(t, r)) {
        if (++r->since_recache < NVC_RECACHE)
            return NVC_GATE_NOT_FASTER;
        r->since_recache = 0;
        return NVC_GATE_CACHE;
    }
    return backlogged(t, pending, len) ? NVC_GATE_BUSY : NVC_GATE_CACHE;
}

void nvc_gate_phase(struct nvc_tiers *t, double quiet)
{
    t->no_compute = quiet < NVC_FLUSH_QUIET_S;
    if (!t->no_compute)
        t->compute_s = quiet;
}

const char *nvc_gate_text(int way)
{
    switch (way) {
    case NVC_GATE_NO_COMPUTE:
        return "write-through: no compute phase before the last sync or close";
    case NVC_GATE_NOT_FASTER:
        return "write-through: the cache is not faster than the file system's sustained rate";
    case NVC_GATE_BUSY:
        return "write-through: the backlog would outlast the last compute phase";
    case NVC_GATE_CACHE:
        return "cache";
    default:
        return "write-through";
    }
}

int nvc_rate_class(int64_t len)
{
    /* < 32 KiB, < 512 KiB, < 8 MiB, larger */
    int c = 0;
    for (int64_t b = 32 * 1024; c < NVC_RATE_CLASSES - 1 && len >= b; b *= 16)
        c++;
    return c;
}

void nvc_rate_note(struct nvc_rates *r, int64_t len, double seconds)
{
    if (len <= 0 || seconds < 0)
        return;
    double x = seconds * 1e9 / (double) len;
    if (r->cache <= 0 || x < r->cache)
        r->cache = x;
    else if (x > r->cache * (1 + NVC_RATE_DRIFT))
        r->cache *= 1 + NVC_RATE_DRIFT;
    else
        r->cache = x;
}

int64_t nvc_queue_pending(const struct nvc_queue *q)
{
    int64_t n = 0;
    for (size_t i = q->low; i < q->n; i++)
        n += q->v[i].state != NVC_DONE ? q->v[i].len : 0;
    return n;
}

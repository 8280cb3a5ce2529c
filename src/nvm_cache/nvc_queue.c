/* romio-xt NVM write-behind: the queue of cached items (see nvc_store.h). */
#include "nvc_store.h"

#include <stdlib.h>

static int overlap(const struct nvc_item *it, int64_t off, int64_t len)
{
    return it->off < off + len && off < it->off + it->len;
}

int nvc_queue_push(struct nvc_queue *q, int64_t off, int64_t len, int64_t rec)
{
    if (q->n == q->cap) {
        size_t cap = q->cap ? 2 * q->cap : 256;
        struct nvc_item *v = realloc(q->v, cap * sizeof(*v));
        if (!v)
            return -1;
        q->v = v;
        q->cap = cap;
    }
    q->v[q->n++] = (struct nvc_item) {.off = off, .len = len, .rec = rec, .state = NVC_QUEUED };
    if (off + len > q->max_end)
        q->max_end = off + len;
    return 0;
}

long nvc_queue_take(struct nvc_queue *q)
{
    if (q->next >= q->n || q->next >= q->release)
        return -1;
    struct nvc_item *it = &q->v[q->next];
    for (size_t i = q->low; i < q->next; i++)
        if (q->v[i].state == NVC_INFLIGHT && overlap(&q->v[i], it->off, it->len))
            return -1;
    it->state = NVC_INFLIGHT;
    return (long) q->next++;
}

void nvc_queue_done(struct nvc_queue *q, size_t idx)
{
    q->v[idx].state = NVC_DONE;
    while (q->low < q->n && q->v[q->low].state == NVC_DONE)
        q->low++;
}

int nvc_queue_idle(const struct nvc_queue *q)
{
    return q->low == q->n;
}

size_t nvc_queue_last_overlap(const struct nvc_queue *q, int64_t off, int64_t len)
{
    for (size_t i = q->n; i > q->low; i--)
        if (q->v[i - 1].state != NVC_DONE && overlap(&q->v[i - 1], off, len))
            return i;
    return 0;
}

void nvc_queue_reset(struct nvc_queue *q)
{
    q->release = q->release > q->n ? q->release : 0;
    q->n = q->next = q->low = 0;
    q->max_end = 0;
}

void nvc_queue_free(struct nvc_queue *q)
{
    free(q->v);
    q->v = NULL;
    q->n = q->cap = q->next = q->low = 0;
}

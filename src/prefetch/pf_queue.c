/* romio-xt prefetch: the queue of announced ranges (pure). */
#include "pf_queue.h"

#include <string.h>

static void append(struct pf_queue *q, int64_t off, int64_t len)
{
    if (q->n == PF_QUEUE_MAX) {
        q->truncated = 1;
        return;
    }
    q->ext[q->n].off = off;
    q->ext[q->n].len = len;
    q->n++;
}

void pf_queue_build(struct pf_queue *q, const struct pf_range *ranges, int nranges, int64_t bs,
                    int64_t gap)
{
    memset(q, 0, sizeof(*q));
    pf_queue_add(q, ranges, nranges, bs, gap);
}

void pf_queue_add(struct pf_queue *q, const struct pf_range *ranges, int nranges, int64_t bs,
                  int64_t gap)
{
    if (bs < 1)
        bs = 1;
    if (q->head > 0) {          /* the extents done make room */
        memmove(q->ext, q->ext + q->head, sizeof(q->ext[0]) * (size_t) (q->n - q->head));
        q->n -= q->head;
        q->head = 0;
    }
    const int first = q->n;     /* joins only inside this list: a slot may hold the ones before */
    for (int r = 0; r < nranges; r++) {
        int64_t off = ranges[r].off, end = off + ranges[r].len;
        if (ranges[r].len <= 0)
            continue;
        struct pf_range *last = q->n > first ? &q->ext[q->n - 1] : NULL;
        if (last && off >= last->off && off <= last->off + last->len + gap) {
            int64_t lend = last->off + last->len, nend = end > lend ? end : lend;
            if (nend - last->off <= bs) {       /* joins the previous extent */
                last->len = nend - last->off;
                continue;
            }
            if (end <= lend)                    /* inside it already */
                continue;
        }
        for (; off < end; off += bs)
            append(q, off, end - off < bs ? end - off : bs);
    }
}

int pf_queue_find(const struct pf_queue *q, int64_t off)
{
    for (int i = q->head; i < q->n; i++)
        if (off >= q->ext[i].off && off < q->ext[i].off + q->ext[i].len)
            return i;
    return -1;
}

static int holds(const struct pf_slot *s, const struct pf_range *e)
{
    return s->state != PF_SLOT_FREE && !s->drop && s->off <= e->off &&
        s->off + s->want >= e->off + e->len;
}

struct pf_slot *pf_queue_slot(struct pf_slots *t, const struct pf_queue *q, int i)
{
    for (int k = 0; k < t->n; k++)
        if (holds(&t->s[k], &q->ext[i]))
            return &t->s[k];
    return NULL;
}

void pf_queue_reconcile(struct pf_slots *t, const struct pf_queue *q, struct pf_plan *plan)
{
    memset(plan, 0, sizeof(*plan));
    for (int k = 0; k < t->n; k++) {
        struct pf_slot *s = &t->s[k];
        int keep = 0;
        for (int i = q->head; i < q->n && !keep && s->state != PF_SLOT_FREE && !s->drop; i++)
            keep = holds(s, &q->ext[i]);
        if (s->state != PF_SLOT_FREE && !s->drop && !keep)
            pf_slots_give_up(s, plan);
    }
    for (int i = q->head; i < q->n; i++) {
        if (pf_queue_slot(t, q, i))
            continue;
        struct pf_slot *s = pf_slots_free_slot(t);
        if (!s)
            break;
        pf_slots_queue(t, s, -1, q->ext[i].off, q->ext[i].len);
        plan->nqueued++;
    }
}

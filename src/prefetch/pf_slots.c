/* romio-xt prefetch: the table of cache slots (pure bookkeeping). */
#include "pf_slots.h"

#include <string.h>

void pf_slots_init(struct pf_slots *t, struct pf_slot *slots, int n)
{
    memset(slots, 0, sizeof(*slots) * n);
    t->n = n;
    t->s = slots;
    t->seq = 0;
    t->eof_block = INT64_MAX;
}

struct pf_slot *pf_slots_find(struct pf_slots *t, int64_t block)
{
    for (int k = 0; k < t->n; k++) {
        struct pf_slot *s = &t->s[k];
        if (s->state != PF_SLOT_FREE && !s->drop && s->block == block)
            return s;
    }
    return NULL;
}

void pf_slots_give_up(struct pf_slot *s, struct pf_plan *plan)
{
    if (plan) {
        plan->ndropped++;
        plan->dropped_unused += s->state == PF_SLOT_READY && !s->used;
    }
    if (s->state == PF_SLOT_LOADING)
        s->drop = 1;
    else
        s->state = PF_SLOT_FREE;
}

struct pf_slot *pf_slots_free_slot(struct pf_slots *t)
{
    for (int k = 0; k < t->n; k++)
        if (t->s[k].state == PF_SLOT_FREE)
            return &t->s[k];
    return NULL;
}

void pf_slots_reconcile(struct pf_slots *t, const struct pf_window *w, struct pf_plan *plan,
                        pf_drop_fn drop, void *arg)
{
    memset(plan, 0, sizeof(*plan));
    for (int k = 0; k < t->n; k++) {
        struct pf_slot *s = &t->s[k];
        if (s->state != PF_SLOT_FREE && !s->drop && !pf_window_keeps(w, s->block)) {
            pf_slots_give_up(s, plan);
            if (drop)
                drop(arg, s->block);
        }
    }
    for (int k = 0; k <= w->ahead; k++) {
        int64_t b = pf_window_wanted(w, k);
        if (b < 0 || b > t->eof_block || pf_slots_find(t, b))
            continue;
        struct pf_slot *s = pf_slots_free_slot(t);
        if (!s)
            break;
        pf_slots_queue(t, s, b, b * w->bs, w->bs);
        plan->nqueued++;
    }
}

void pf_slots_queue(struct pf_slots *t, struct pf_slot *s, int64_t block, int64_t off,
                    int64_t want)
{
    s->state = PF_SLOT_QUEUED;
    s->block = block;
    s->off = off;
    s->want = want;
    s->seq = t->seq++;
    s->len = 0;
    s->drop = 0;
    s->used = 0;
}

struct pf_slot *pf_slots_next(struct pf_slots *t)
{
    struct pf_slot *best = NULL;
    for (int k = 0; k < t->n; k++) {
        struct pf_slot *s = &t->s[k];
        if (s->state == PF_SLOT_QUEUED && (!best || s->seq < best->seq))
            best = s;
    }
    return best;
}

int pf_slots_loaded(struct pf_slots *t, struct pf_slot *s, int64_t len, int64_t bs)
{
    if (s->drop || len < 0) {
        s->state = PF_SLOT_FREE;
        s->drop = 0;
        return 0;
    }
    if (len < s->want && s->block >= 0 && s->block < t->eof_block)
        t->eof_block = s->block;
    s->state = PF_SLOT_READY;
    s->len = len;
    s->used = 0;
    return 1;
}

int pf_slots_invalidate(struct pf_slots *t, int64_t lo, int64_t hi, int64_t bs)
{
    int n = 0;
    for (int k = 0; k < t->n; k++) {
        struct pf_slot *s = &t->s[k];
        if (s->state == PF_SLOT_FREE || s->drop)
            continue;
        /* a load in flight or a short block may miss a write that moved
         * the end of the file */
        if (hi < 0 || (s->off < (hi + 1) * bs && s->off + s->want > lo * bs) ||
            s->state == PF_SLOT_LOADING || (s->state == PF_SLOT_READY && s->len < s->want)) {
            pf_slots_give_up(s, NULL);
            n++;
        }
    }
    t->eof_block = INT64_MAX;
    return n;
}

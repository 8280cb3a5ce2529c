/* romio-xt prefetch: the table of cache slots (pure bookkeeping, no I/O, no
 * locks: the caller holds the lock; unit-tested).
 *
 * There are exactly cache_blocks slots, so the blocks held or being loaded
 * never exceed cache_blocks.  A slot's buffer, when a method has one, is
 * allocated once and reused.  Slot life: FREE -> QUEUED (wanted by the window)
 * -> LOADING (someone reads it) -> READY; a slot leaves the window or is
 * invalidated: FREE at once, or, while LOADING, marked `drop` and freed by
 * its loader when the read ends (its data may be stale).
 */
#ifndef PF_SLOTS_H
#define PF_SLOTS_H

#include "pf_window.h"

enum pf_state { PF_SLOT_FREE, PF_SLOT_QUEUED, PF_SLOT_LOADING, PF_SLOT_READY };

struct pf_slot {
    enum pf_state state;
    int64_t block;              /* the window's block; -1 for an announced extent */
    int64_t off, want;          /* the bytes it fetches: [off, off + want), want <= bs */
    int64_t seq;                /* queue order */
    int64_t len;                /* READY: valid bytes (< bs at the end of file) */
    int drop;                   /* LOADING: discard the data when the read ends */
    int used;                   /* READY: served a read since it was loaded */
    double started;             /* LOADING: when the load began (s, the caller's clock) */
    char *data;                 /* the method's buffer, NULL until needed */
};

struct pf_slots {
    int n;
    struct pf_slot *s;
    int64_t seq;
    int64_t eof_block;          /* first block known to be short or empty; INT64_MAX unknown */
};

/* what pf_slots_reconcile did */
struct pf_plan {
    int nqueued;
    int ndropped;               /* blocks given up */
    int dropped_unused;         /* of those, READY ones no read used */
};

/* called for each block given up (e.g. to advise POSIX_FADV_DONTNEED) */
typedef void (*pf_drop_fn)(void *arg, int64_t block);

void pf_slots_init(struct pf_slots *t, struct pf_slot *slots, int n);
/* the live slot holding block (not being dropped), or NULL */
struct pf_slot *pf_slots_find(struct pf_slots *t, int64_t block);
/* frees slots outside the window and queues the wanted blocks missing */
void pf_slots_reconcile(struct pf_slots *t, const struct pf_window *w, struct pf_plan *plan,
                        pf_drop_fn drop, void *arg);
/* the shared steps (pf_queue.c uses them too): a free slot or NULL; queue
 * slot s for [off, off + want) (block: the window's block, or -1); give a
 * live slot up (counted in plan when not NULL) */
struct pf_slot *pf_slots_free_slot(struct pf_slots *t);
void pf_slots_queue(struct pf_slots *t, struct pf_slot *s, int64_t block, int64_t off,
                    int64_t want);
void pf_slots_give_up(struct pf_slot *s, struct pf_plan *plan);
/* the QUEUED slot to load next (lowest seq), or NULL */
struct pf_slot *pf_slots_next(struct pf_slots *t);
/* a load ended with len bytes (-1: error): READY, or FREE when dropped or
 * failed.  Returns 1 when the slot is READY. */
int pf_slots_loaded(struct pf_slots *t, struct pf_slot *s, int64_t len, int64_t bs);
/* a write touched blocks lo..hi (inclusive; hi < 0: anything may have
 * changed): forget them, every load in flight, every short block and what is
 * known of the end of file; returns how many slots were given up */
int pf_slots_invalidate(struct pf_slots *t, int64_t lo, int64_t hi, int64_t bs);

#endif

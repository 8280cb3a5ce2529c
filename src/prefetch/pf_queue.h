/* romio-xt prefetch: the queue of announced ranges (pure logic, no MPI, no
 * threads, no I/O; unit-tested in test/unit/test_pf_queue.c).
 *
 * An application that knows its next reads (ROOT's TTreeCache knows the
 * next baskets from the file's index) announces them during the run with
 * MPI_File_set_info(romio_prefetch_willneed = "off:len,..."), every range
 * with a length.  Each announcement replaces the ranges still ahead, or,
 * starting with '+', is appended to them (so the reads announced ahead are
 * not limited by a hint value's 255 characters).  The
 * ranges become extents, in the order given: a range that starts inside the
 * previous extent or at most `gap` bytes after its end joins it while the
 * extent stays within bs bytes (one slot's buffer); a longer range is cut
 * into pieces of bs.  The loaders fetch exactly these extents, in order, into
 * the cache_blocks slots (so the memory bound stays cache_blocks x bs);
 * a read inside an extent at or after the head is served from its slot and
 * moves the head there (the extents before it are done and their slots
 * freed); a read outside every extent ahead passes to the file system. */
#ifndef PF_QUEUE_H
#define PF_QUEUE_H

#include "pf_slots.h"

#define PF_QUEUE_MAX 256        /* extents kept of one announcement; the rest pass */

struct pf_queue {
    int n, head;                /* extents [head, n) are ahead */
    int truncated;              /* the announcement had more extents than PF_QUEUE_MAX */
    struct pf_range ext[PF_QUEUE_MAX];
};

/* build the extents of nranges ranges (every len > 0), bs >= 1, gap >= 0 */
void pf_queue_build(struct pf_queue *q, const struct pf_range *ranges, int nranges, int64_t bs,
                    int64_t gap);
/* append the extents of a further list (a '+' list): the extents done
 * (before the head) are forgotten first, the new ones never join the ones
 * before (a slot may hold those) */
void pf_queue_add(struct pf_queue *q, const struct pf_range *ranges, int nranges, int64_t bs,
                  int64_t gap);
/* the first extent at or after the head that holds byte off, or -1 */
int pf_queue_find(const struct pf_queue *q, int64_t off);
/* the live slot (not being dropped) whose bytes contain extent i, or NULL */
struct pf_slot *pf_queue_slot(struct pf_slots *t, const struct pf_queue *q, int i);
/* frees the slots that hold no extent ahead, then queues the extents ahead
 * that no slot holds, in order, while slots are free (plan as for
 * pf_slots_reconcile) */
void pf_queue_reconcile(struct pf_slots *t, const struct pf_queue *q, struct pf_plan *plan);

#endif

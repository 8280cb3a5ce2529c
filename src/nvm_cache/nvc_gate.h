/* romio-xt NVM write-behind: when caching a write pays (pure logic, no MPI,
 * no threads; unit-tested in test/unit/test_noharm.c).
 *
 * A cached write costs a second copy (cache file -> global file).  It pays
 * when the cache tier takes writes faster than the global file system
 * absorbs them for good, and the copy hides behind a compute phase before
 * the next MPI_File_sync or close.  The gate judges from sustained rates,
 * measured per process over all its files:
 *
 * - the cache tier's cost (ns per byte, per size class) from the cache
 *   writes themselves;
 * - the global file system's sustained cost (ns per byte) from the sync
 *   threads: the time they take to copy cached data to the global file plus
 *   the time its write-back takes (the flush behind the copies, and
 *   MPI_File_sync's own flush), over all bytes copied.  A short write into
 *   the global file measures only its client's buffer: a FUSE client's
 *   write-back or the page cache take 64 KiB as fast as /dev/shm while the
 *   file system sustains a fraction of that;
 * - the compute phases: the quiet time between a process's last write and
 *   its next MPI_File_sync or close (NVC_FLUSH_QUIET_S or more: a compute
 *   phase).
 *
 * The rules, in order:
 * 0. flush_onclose: the threads hold everything back until sync/close, as
 *    asked: always cached.
 * 1. The process's latest sync or close came right after its writes (no
 *    compute phase): nothing hides the copy, write through
 *    (direct_no_compute_phase) until a compute phase is seen again.
 * 2. The sustained cost is known (it includes a write-back) and the cache is
 *    not NVC_MIN_SPEEDUP times cheaper: write through
 *    (direct_cache_not_faster), except every NVC_RECACHE-th such write, which
 *    is cached to measure the global file system again.
 * 3. The backlog (bytes not yet copied, this write included) would take the
 *    sync threads longer than the latest compute phase: write through
 *    (direct_threads_busy), the sync or close after it would wait.
 * 4. Otherwise cache, from the job's first write on: nothing measured yet
 *    means nothing shows the cache cannot win.  Where romio_xt=auto turned
 *    the cache on, rule 1 holds until the process has seen a compute phase
 *    (nvc_layer.c): a job that never computes before a sync or close pays no
 *    copy.
 *
 * So a job whose first file is written and closed without compute pays the
 * copy of that file (the close waits for it); its later files go straight
 * through.  A global file system as fast as the cache (tmpfs) is found out
 * at its first write-back.
 *
 * After the threads catch up, and after writes that went straight to the
 * global file, a sync thread writes the global file back (fdatasync) so
 * MPI_File_sync finds little to flush.  That only pays if nothing follows
 * at once: it waits until no write came for NVC_FLUSH_QUIET_S seconds and
 * skips it when the queue fills or the file is closed first (stock ROMIO's
 * close does not flush).  For writes that go straight through, the thread
 * is started only once a compute phase was seen.  sync, close and reads copy
 * the items no thread has taken themselves (no waiting for a thread to be
 * scheduled). */
#ifndef NVC_GATE_H
#define NVC_GATE_H

#include <stdint.h>
#include "nvc_store.h"

#define NVC_FLUSH_QUIET_S 0.1
#define NVC_MIN_SPEEDUP 1.5
#define NVC_RECACHE 64
#define NVC_RATE_DRIFT 0.05
#define NVC_RATE_CLASSES 4

/* one size class's measured cost of cache writes (ns per byte, the lowest
 * seen, rising by NVC_RATE_DRIFT per slower sample; 0: none yet) */
struct nvc_rates {
    double cache;
    long since_recache;         /* writes sent through since the last rule-2 recache */
};

/* what the process measured of the global file system and its own phases */
struct nvc_tiers {
    double drain_bytes;         /* bytes the sync threads copied */
    double drain_secs;          /* their copies' seconds plus the write-backs' */
    long writebacks;            /* write-backs timed (rule 2 waits for the first) */
    int no_compute;             /* the latest sync/close came right after writes */
    double compute_s;           /* the latest compute phase (seconds; 0: none seen) */
};

/* where a write goes, and why not to the cache */
enum { NVC_GATE_DIRECT, NVC_GATE_CACHE, NVC_GATE_NO_COMPUTE, NVC_GATE_NOT_FASTER,
    NVC_GATE_BUSY };
/* a write of len bytes.  held_back: flush_onclose; pending: bytes of
 * earlier writes not yet synced; t: the process's measurements; r: the
 * class's rates of len (NULL: always cache, test hook
 * ROMIO_XT_NVC_TEST_ALWAYS_CACHE).  Counts r->since_recache. */
int nvc_gate_cache(int held_back, int64_t pending, int64_t len, const struct nvc_tiers *t,
                   struct nvc_rates *r);
/* the global file system's sustained cost, ns per byte (0: not measured) */
double nvc_gate_drain_cost(const struct nvc_tiers *t);
/* a sync or close, quiet seconds after the process's last write (only when
 * it wrote since its previous sync or close): rule 1's state */
void nvc_gate_phase(struct nvc_tiers *t, double quiet);
/* the text MPI_File_get_info and the stats show for a gate answer */
const char *nvc_gate_text(int way);
/* the size class of a write of len bytes, 0 .. NVC_RATE_CLASSES-1 */
int nvc_rate_class(int64_t len);
/* adds a sample: len bytes took seconds into the cache */
void nvc_rate_note(struct nvc_rates *r, int64_t len, double seconds);
/* bytes of the queue's items not yet synced */
int64_t nvc_queue_pending(const struct nvc_queue *q);

#endif

/* romio-xt NVM write-behind: when caching a write pays (pure logic, no MPI,
 * no threads; unit-tested in test/unit/test_noharm.c).
 *
 * A cached write costs a second copy (cache file -> global file) that only
 * pays when the cache device takes the write sooner than the global file
 * does, and the sync threads can copy it while the application computes.
 *
 * 0. A cached write pays only if its copy to the global file hides behind
 *    a compute phase.  Until the process has called MPI_File_sync or
 *    MPI_File_close NVC_FLUSH_QUIET_S or more after its last write (a
 *    compute phase: compute_seen), every write goes straight through,
 *    without a probe: a sync or close right after the writes (coll_perf-like
 *    without compute; the no-harm grid, which never syncs) would wait for
 *    every cached byte to be copied (measured: 0.72-0.93x cache-off on the
 *    coll_perf-like run when the cache was timed faster than a disk under
 *    load).  The first compute phase of a process is not used.
 * 1. When a write arrives and the threads still have data of earlier writes
 *    to copy, the application is writing faster than they drain (no compute
 *    phase between the calls): caching more only adds copies that the next
 *    sync or close waits for (no-harm grid: 0.13-0.4x cache-off).  Such a
 *    write goes straight to the global file.
 * 2. The process times its writes to the global file and to the cache file
 *    (ns per byte, per size class: small writes cost a system call more than
 *    bytes).  A write is cached only when the cache takes writes of its size
 *    at least NVC_MIN_SPEEDUP times faster than the global file.  Each cost
 *    is the lowest seen, rising by NVC_RATE_DRIFT per slower sample: other
 *    jobs on the machine (or the sync threads) only ever add time, and one
 *    slow write (the first one into a new file) must not decide, while a
 *    file system that stays slower is noticed within some writes.  The first
 *    NVC_WARMUP idle writes of a class go to the global file, the next idle
 *    one too, and then a piece of it is written to the cache file once more
 *    (a probe, nvc_probe_bytes), to measure both; every NVC_REPROBE-th idle
 *    write probes again, so a global file that slows down later (e.g. its page
 *    cache fills) is noticed.  Where the global file's page cache is as fast
 *    as the cache device (a local disk and /dev/shm), writes go straight
 *    through and the layer costs almost nothing (no-harm grid;
 *    docs/nvm_cache.md).
 * 3. With flush_onclose the threads hold everything back until sync/close,
 *    as asked: always cached.
 *
 * After the threads catch up, and after writes that went straight to the
 * global file, a sync thread writes the global file back (fdatasync) so
 * MPI_File_sync finds little to flush (the benefit that stays with a compute
 * phase when the cache device is no faster).  That only pays if nothing
 * follows at once: it waits until no write came for NVC_FLUSH_QUIET_S
 * seconds and skips it when the queue fills or the file is closed first
 * (stock ROMIO's close does not flush).  For writes that go straight
 * through, it only pays for a later MPI_File_sync, so the thread is started
 * only once the process has called MPI_File_sync NVC_FLUSH_QUIET_S or more
 * after its last write (a compute phase before a sync): a thread costs
 * 0.05-several ms to start and join under load, as much as a whole small
 * file's writes, and an fdatasync inside a loaded write phase costs what
 * stock never pays.  sync, close and reads copy the items no
 * thread has taken themselves (no waiting for a thread to be scheduled). */
#ifndef NVC_GATE_H
#define NVC_GATE_H

#include <stdint.h>
#include "nvc_store.h"

#define NVC_FLUSH_QUIET_S 0.1
#define NVC_MIN_SPEEDUP 1.5
#define NVC_REPROBE 1024
#define NVC_WARMUP 2
#define NVC_RATE_DRIFT 0.05
#define NVC_RATE_CLASSES 4

/* one size class's measured costs (ns per byte, moving average; 0: none yet) */
struct nvc_rates {
    double direct, cache;
    long ndirect;               /* samples of the global file */
    long since_probe;           /* idle writes since the cache was last timed */
};

/* where a write goes: the global file, the cache, or the global file and a
 * piece of it to the cache file only to time the cache (a probe: nothing is
 * queued, no sync thread started, nothing copied back) */
enum { NVC_GATE_DIRECT, NVC_GATE_CACHE, NVC_GATE_PROBE };
/* a write of len bytes.  held_back: flush_onclose; pending: bytes of
 * earlier writes not yet synced; compute_seen: this process saw a compute
 * phase (rule 0); r: the class's rates of len (NULL: cache whenever the
 * threads are idle; test hook ROMIO_XT_NVC_TEST_ALWAYS_CACHE).  Counts
 * r->since_probe. */
int nvc_gate_cache(int held_back, int64_t pending, int64_t len, int compute_seen,
                   struct nvc_rates *r);
/* a probe writes the first nvc_probe_bytes(len) bytes of the write to the
 * cache file as well: 1/8 of the write, at least NVC_PROBE_MIN and at most
 * NVC_PROBE_MAX bytes (the extra write stays small; the cache is timed with
 * the smaller piece, whose fixed costs weigh more per byte: the safe side) */
#define NVC_PROBE_MIN 4096
#define NVC_PROBE_MAX (64 * 1024)
int64_t nvc_probe_bytes(int64_t len);
/* the size class of a write of len bytes, 0 .. NVC_RATE_CLASSES-1 */
int nvc_rate_class(int64_t len);
/* adds a sample: len bytes took seconds, to the cache or the global file */
void nvc_rate_note(struct nvc_rates *r, int cached, int64_t len, double seconds);
/* bytes of the queue's items not yet synced */
int64_t nvc_queue_pending(const struct nvc_queue *q);

#endif

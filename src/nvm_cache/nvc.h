/* romio-xt NVM write-behind (E10 hints): internal interfaces of the layer. */
#ifndef NVC_H
#define NVC_H

#include "../core/xt_layer.h"
#include "nvc_store.h"
#include "nvc_gate.h"

#include <limits.h>
#include <pthread.h>

/* counters in the stats record's "nvm_cache" section (summed over ranks) */
#define NVC_COUNTERS(X) \
    X(EXTENTS, "extents_cached") X(BYTES_CACHED, "bytes_cached") \
    X(BYTES_SYNCED, "bytes_synced") X(BYTES_DIRECT, "bytes_direct") \
    X(CACHE_USEC, "cache_write_usec") X(SYNC_USEC, "sync_usec") \
    X(WAIT_USEC, "not_hidden_sync_usec") X(READ_WAITS, "read_waits") \
    X(SYNC_ERRORS, "sync_errors") X(FB_PATH, "fallback_path") \
    X(FB_SPACE, "fallback_cache_write") X(FB_ATOMIC, "direct_atomic") \
    X(DIRECT_BUSY, "direct_threads_busy") X(FLUSH_SKIPPED, "flush_behind_skipped") \
    X(DIRECT_SLOWER, "direct_cache_not_faster") \
    X(DIRECT_NO_COMPUTE, "direct_no_compute_phase")
#define NVC_ENUM(id, name) NVC_C_##id,
enum { NVC_COUNTERS(NVC_ENUM) NVC_NCOUNTERS };
#undef NVC_ENUM

struct nvc_state;

/* e10_cache_flush_flag: when cached items may start syncing */
struct nvc_flush_policy {
    /* the queue's release mark after a write was queued */
    size_t (*release_after_write)(const struct nvc_queue *q);
};

/* e10_cache enable | coherent | strict: what guards a cached extent in the global file */
struct nvc_lock_policy {
    /* main thread, before an extent is cached; 0 or an MPI error code */
    int (*before_cache)(struct nvc_state *st, ADIO_File fd, int64_t off, int64_t len);
    /* whichever thread sees the queue idle, with st->mu held */
    void (*when_idle)(struct nvc_state *st);
    /* strict: only writes inside collective calls are cached, and a
     * collective write returns once they are synced (nothing unsynced is
     * left between calls, so any read sees every process's data) */
    int write_through;
};

/* a sync thread copies up to this many items, whose hull spans up to
 * NVC_RUN_BYTES, under one range lock (nvc_sync.c) */
#define NVC_RUN_ITEMS 1024
#define NVC_RUN_BYTES (64 << 20)

struct nvc_state {
    const struct nvc_flush_policy *flush;
    const struct nvc_lock_policy *lock;
    ADIO_File fd;
    int direct;                 /* write straight to the global file from now on */
    int bypass;                 /* inside an operation that must not be cached */
    int copy_locks;             /* the copies lock their range (romio_ds_write not disabled) */
    int in_coll;                /* inside a collective call (after settling) */
    int discard;
    int cfd;                    /* cache file, -1 when none */
    char cpath[PATH_MAX];
    int64_t tail, chunk;
    pthread_mutex_t mu;
    pthread_cond_t work, done;
    struct nvc_queue q;
    int nthreads, shutdown;
    pthread_t *threads;
    int err;                    /* first sync-thread errno not yet reported */
    int kept_error;             /* a sync failed: keep the cache file */
    int locking, locked;        /* coherent: a lock being taken / held */
    int dirty;                  /* synced data not yet written back (fdatasync) */
    double last_write;          /* xt_coarse_now() at the last write (flush-behind waits) */
    int wrote;                  /* written since the last sync or close (nvc_note_quiet) */
    int gate;                   /* the gate's latest answer (NVC_GATE_*, nvc_gate.h) */
    int always;                 /* test only: cache whenever the threads are idle */
    int cautious;               /* romio_xt=auto turned it on: no cached write before a
                                 * compute phase was seen (rule 1, nvc_gate.h) */
    int warned;
    int64_t fail_after;         /* test only: cache writes past this many bytes fail */
    long fail_sync_at;          /* test only: this sync item (1-based) fails */
    long items_synced;
    char *mainbuf;              /* the main thread's copy buffer (nvc_drain) */
};

extern const struct xt_layer nvc_layer;
extern const struct nvc_flush_policy nvc_flush_policies[];   /* by hint choice */
extern const struct nvc_lock_policy nvc_lock_policies[];     /* by e10_cache choice */

/* main thread, leaving a bypass section: release idle locks (when_idle) */
void nvc_bypass_end(struct nvc_state *st, int direct);
/* when nothing is queued, the lock policy's when_idle */
void nvc_release_idle(struct nvc_state *st);
/* nvc_sync.c: the thread pool */
int nvc_threads_start(struct nvc_state *st, int n);
void nvc_threads_stop(struct nvc_state *st);
/* wait until items [0, upto) are synced, starting them if held back */
void nvc_drain(struct nvc_state *st, size_t upto);
/* a sync thread's error not yet reported, as an MPI error code (cleared) */
int nvc_take_error(struct nvc_state *st);
/* with st->mu held: forget synced items, cut the cache file when allowed */
void nvc_compact(struct nvc_state *st);

/* nvc_open.c; nvc_start_*: on the first write (threads) / cached write (cache
 * file); 0 or an errno, with a reason in why */
int nvc_start_threads(ADIO_File fd, struct nvc_state *st);
int nvc_start_cache_file(ADIO_File fd, struct nvc_state *st);
int nvc_open(ADIO_File fd, void *state);
void nvc_check_hints(const struct xt_file *xf, char *warn, size_t len);
void nvc_close(ADIO_File fd, void *state, int *error_code);
/* once per file: warn and write straight to the global file from now on */
void nvc_fall_back(struct nvc_state *st, int counter, const char *what, int err);
/* nvc_sync.c: the process's measurements for the gate (nvc_gate.h; any
 * thread, no MPI).  The sync threads copied bytes in secs, or (writeback)
 * the global file's write-back took secs: the global file system's
 * sustained cost */
void nvc_note_drain(int64_t bytes, double secs, int writeback);
/* a copy of the measurements */
void nvc_tiers_get(struct nvc_tiers *t);
/* a sync or close quiet seconds after the process's last write (nvc_gate_phase) */
void nvc_tiers_phase(double quiet);

#endif

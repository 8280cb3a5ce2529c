/* romio-xt prefetch layer: per-file state, counters and the methods.
 *
 * The layer overrides ReadContig (every read that reaches the file system
 * goes through it: independent, strided/data sieving and the aggregators'
 * reads in two-phase collective I/O call it through fd->fns) and the write,
 * sync and resize paths (to invalidate).  The method (fadvise or buffer) is
 * one const struct pf_method; the window logic is pure (pf_window.c,
 * pf_slots.c). */
#ifndef PF_H
#define PF_H

#include "../core/xt_layer.h"
#include "pf_window.h"
#include "pf_slots.h"
#include "pf_gate.h"
#include "pf_queue.h"

#include <pthread.h>

#define PF_COUNTERS(X) \
    X(PREFETCHED, "blocks_prefetched") \
    X(HITS, "hits") X(MISSES, "misses") X(JUMPS, "jumps") \
    X(BYTES_CACHE, "bytes_from_cache") X(BYTES_FS, "bytes_from_fs") \
    X(WAIT_US, "wait_us") X(INVALIDATED, "blocks_invalidated") \
    X(DROPPED_UNUSED, "blocks_dropped_unused") X(ALLOCS, "buffer_allocs") \
    X(PEAK_BYTES, "buffer_peak_bytes") X(DISABLED, "cache_disabled") \
    X(PASS_SEQ, "reads_passed_sequential") X(PASS_LARGE, "reads_passed_large") \
    X(PASS_BUSY, "reads_passed_no_gap") X(UNPAID, "window_did_not_pay") \
    X(WAITED, "waits_for_thread") X(WAIT_MISSED, "waits_timed_out") \
    X(MISS_LOADING, "misses_block_loading") X(MISS_QUEUED, "misses_block_queued") \
    X(LOADERS, "loader_threads") X(ANNOUNCED, "announcements") \
    X(PASS_OUTSIDE, "reads_passed_unannounced")

#define PF_ENUM(id, name) PF_C_##id,
enum pf_counter { PF_COUNTERS(PF_ENUM) PF_NCOUNTERS };
#undef PF_ENUM

struct pf_file;

/* announced ranges this close (bytes) share one fetch (pf_queue.h) */
#define PF_QUEUE_GAP 65536

/* loader threads per file, at most (pf_gate_loaders picks how many) */
#define PF_MAX_LOADERS 4

/* one prefetch method; every member is set */
struct pf_method {
    const char *name;
    int holds_data;             /* READY slots hold the bytes (buffer), or only say the
                                 * kernel was advised (fadvise) */
    /* on the background thread, without the lock: fetch block s->block
     * (read it into s->data, or advise the kernel); returns the bytes it
     * holds (short at the end of file) or -1.  Never calls MPI or ROMIO. */
    int64_t (*fetch)(struct pf_file *pf, struct pf_slot *s);
    /* read [off, off + len), all inside block `block`, into buf; *got < len
     * only at the end of the file or on error */
    void (*piece)(ADIO_File fd, struct pf_file *pf, int64_t block, char *buf,
                  ADIO_Offset off, ADIO_Offset len, ADIO_Offset *got, int *error_code);
    /* a write touched blocks lo..hi (hi < 0: anything) */
    void (*invalidate)(ADIO_File fd, struct pf_file *pf, int64_t lo, int64_t hi);
};

extern const struct pf_method pf_fadvise_method, pf_buffer_method;

struct pf_file {
    const struct pf_method *m;
    struct pf_window w;
    struct pf_slots t;
    struct pf_slot *slots;
    struct pf_gate gate;        /* which reads go through the window */
    int all_reads;              /* test only (ROMIO_XT_PF_TEST_ALL_READS): no gate */
    int min_loaders;            /* test only (ROMIO_XT_PF_TEST_LOADERS): at least this many */
    int started, off;           /* off: pass every call through */
    /* the background thread; lock guards w and t */
    pthread_mutex_t lock;
    pthread_cond_t work, done;
    pthread_t thread[PF_MAX_LOADERS];
    int have_thread, stop;      /* have_thread: loader threads running */
    double advanced_at;         /* when the window last moved forward (s), under lock */
    double consume_avg;         /* the reader's average time per block (s), under lock */
    int consumes;
    double load_avg;            /* the thread's average time per block (s), under lock */
    double own_avg;             /* average time of a piece read from the file system
                                 * by the reader (s); the reader's own */
    int loads, owns;
    int64_t served;             /* pieces served by the thread's work (buffer: from its
                                 * buffers; fadvise: blocks it had advised); the reader's */
    ADIO_File fd;
    /* announced ranges (pf_announce.c): the text last applied, and whether
     * the queue (not the window) drives the loaders */
    char text[256];
    int queued;
    struct pf_queue q;
    /* the loaders' own descriptor for announced extents (lfd_ok: open),
     * advised POSIX_FADV_RANDOM: they read exactly the bytes wanted, and
     * the kernel's read-ahead behind each would read bytes nobody wants */
    int lfd, lfd_ok;
};

extern const struct xt_layer pf_layer;

static inline int64_t pf_block_of(const struct pf_file *pf, ADIO_Offset off)
{
    return off / pf->w.bs;
}

/* the background thread (pf_thread.c): it fetches the QUEUED slots in
 * order with the method's fetch.  start: nonzero when it cannot run. */
int pf_thread_start(ADIO_File fd, struct pf_file *pf);
/* with pf->lock held: start more loaders when one cannot keep up with the
 * reader (pf_gate_loaders) */
void pf_thread_more(struct pf_file *pf);
/* stops and joins them, frees the slots' buffers */
void pf_thread_stop(struct pf_file *pf);
/* fetch a QUEUED slot now (the thread); called and returns with pf->lock
 * held, drops it during the fetch */
void pf_load(struct pf_file *pf, struct pf_slot *s);

/* the window moves to block (counting jumps) and the slots follow it;
 * under the method's lock when it has one */
enum pf_move pf_access(ADIO_File fd, struct pf_file *pf, int64_t block, struct pf_plan *plan,
                       pf_drop_fn drop, void *arg);
/* the gate backed off: forget the window and every block queued or held, so
 * the thread stops fetching (what it is fetching now is dropped) */
void pf_cancel(ADIO_File fd, struct pf_file *pf);
/* may this read use the prefetcher (starts the loaders at the first)? */
int pf_usable(ADIO_File fd, struct pf_file *pf);
/* drop everything and pass every later call through */
void pf_switch_off(ADIO_File fd, struct pf_file *pf);
/* copy from a READY slot holding off; returns the bytes copied (short at end
 * of file) */
ADIO_Offset pf_copy_out(struct pf_file *pf, struct pf_slot *s, char *buf, ADIO_Offset off,
                        ADIO_Offset len);

/* announced ranges (pf_announce.c), in the application's thread.  At
 * MPI_File_set_info (the layer's SetInfo): apply a romio_prefetch_willneed
 * list in info (a bad one: one warning, the ranges before are kept) */
void pf_announce_info(ADIO_File fd, struct pf_file *pf, MPI_Info info);
/* at a read: apply the file's romio_prefetch_willneed text if it changed
 * otherwise; returns 1 when the queue of announced ranges drives the reads */
int pf_announce_check(ADIO_File fd, struct pf_file *pf);
/* does an extent ahead hold byte off? */
int pf_queue_covers(struct pf_file *pf, ADIO_Offset off);
/* the read [off, off + len) through the queue */
void pf_queue_read(ADIO_File fd, struct pf_file *pf, char *buf, ADIO_Offset off,
                   ADIO_Offset len, ADIO_Offset *nread, int *error_code);

/* read [off, off + len) from the file system through the table below,
 * counting it as a file-system request */
void pf_read_lower(ADIO_File fd, char *buf, ADIO_Offset off, ADIO_Offset len,
                   ADIO_Offset *nread, int *error_code);

#endif

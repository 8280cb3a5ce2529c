/* romio-xt prefetch, method buffer: the background thread reads the blocks
 * the window wants into cache_blocks buffers (one per slot, allocated once),
 * with pread on fd->fd_sys, and reads are served from them. */
#include "pf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* where the slot's bytes start in its buffer: at the file offset's place
 * in a page, so the read into it has no slow copy skew (xt_bad_skew; a
 * malloc'd buffer sits 16 bytes past a page: reads into it ran ~10x slower
 * on this machine's CPU, docs/ds_adaptive.md) */
static char *slot_bytes(const struct pf_slot *s)
{
    return xt_placed(s->data, s->off, 0);
}

/* the thread's fetch: the block into the slot's buffer (allocated once,
 * page-aligned, a page longer than a block, on the reader's NUMA node with
 * romio_xt_numa_place) */
static int64_t buffer_fetch(struct pf_file *pf, struct pf_slot *s)
{
    ADIO_File fd = pf->fd;
    int64_t bs = pf->w.bs, n = -1;
    if (!s->data && (s->data = xt_page_alloc_near(fd, (size_t) bs)) != NULL) {
        xt_count(fd, XT_LAYER_pf, PF_C_ALLOCS, 1);      /* the page is slack */
        xt_count(fd, XT_LAYER_pf, PF_C_PEAK_BYTES, bs);
    }
    if (s->data)        /* an announced extent: the loaders' own descriptor */
        n = xt_pread_full(s->block < 0 && pf->lfd_ok ? pf->lfd : fd->fd_sys, slot_bytes(s),
                       s->want, s->off);
    if (n >= 0)                 /* a read past the end is a request too */
        xt_note_request_async(fd, 0, n);
    return n;
}

ADIO_Offset pf_copy_out(struct pf_file *pf, struct pf_slot *s, char *buf,
                            ADIO_Offset off, ADIO_Offset len)
{
    ADIO_Offset at = off - s->off, n = s->len - at;
    if (n > len)
        n = len;
    if (n <= 0)
        return 0;
    memcpy(buf, slot_bytes(s) + at, (size_t) n);
    s->used = 1;
    return n;
}

/* wait (pf->lock held) until the block is READY, given up, or `until` (s,
 * xt_now's clock) passes; returns its slot when READY, else NULL */
static struct pf_slot *wait_ready(struct pf_file *pf, int64_t block, double until)
{
    for (;;) {
        struct pf_slot *s = pf_slots_find(&pf->t, block);
        if (!s || s->state != PF_SLOT_LOADING)
            return s && s->state == PF_SLOT_READY ? s : NULL;
        if (xt_cond_wait_until(&pf->done, &pf->lock, until) == ETIMEDOUT) {
            s = pf_slots_find(&pf->t, block);
            return s && s->state == PF_SLOT_READY ? s : NULL;
        }
    }
}

static void buffer_piece(ADIO_File fd, struct pf_file *pf, int64_t block, char *buf,
                         ADIO_Offset off, ADIO_Offset len, ADIO_Offset *got, int *error_code)
{
    struct pf_plan plan;
    struct pf_slot *s = NULL;
    enum pf_counter kind = PF_C_HITS;
    int waited = 0;
    double t0 = xt_now();
    pthread_mutex_lock(&pf->lock);
    enum pf_move mv = pf_access(fd, pf, block, &plan, NULL, NULL);
    if (plan.nqueued)
        pthread_cond_broadcast(&pf->work);    /* every idle loader */
    /* a block not READY yet: the reader does not wait for a queued one (a
     * whole block for one piece stalled every window restart, 45 ms each on
     * a loaded machine), it reads the piece from the file system and the
     * thread goes on behind it; a block being loaded it waits for when the
     * rest of the load is predicted to take less than reading the piece
     * (pf_gate_wait), at most that long */
    if (mv != PF_OUTSIDE)
        s = pf_slots_find(&pf->t, block);
    if (s && s->state == PF_SLOT_LOADING) {
        /* a jumping read's cost as the gate measured it (a piece's own
         * time is no measure: pieces at block ends are a few KiB) */
        double own = pf->gate.costs ? pf->gate.cost : pf->owns ? pf->own_avg : 0;
        double w = pf_gate_wait(pf->load_avg, t0 - s->started, own);
        if (w > 0) {
            s = wait_ready(pf, block, t0 + w);
            waited = 1;
            xt_count(fd, XT_LAYER_pf, s ? PF_C_WAITED : PF_C_WAIT_MISSED, 1);
        } else
            xt_count(fd, XT_LAYER_pf, PF_C_MISS_LOADING, 1);
    } else if (s && s->state == PF_SLOT_QUEUED)
        xt_count(fd, XT_LAYER_pf, PF_C_MISS_QUEUED, 1);
    if (s && s->state == PF_SLOT_READY) {
        *got = pf_copy_out(pf, s, buf, off, len);
        *error_code = MPI_SUCCESS;
        pf->served++;
        pthread_mutex_unlock(&pf->lock);
    } else {                    /* not in the cache: read it here */
        pthread_mutex_unlock(&pf->lock);
        double t1 = xt_now();
        pf_read_lower(fd, buf, off, len, got, error_code);
        pf->own_avg = pf->owns++ ? 0.75 * pf->own_avg + 0.25 * (xt_now() - t1) : xt_now() - t1;
        kind = PF_C_MISSES;
    }
    xt_count(fd, XT_LAYER_pf, kind, 1);
    xt_count(fd, XT_LAYER_pf, kind == PF_C_MISSES ? PF_C_BYTES_FS : PF_C_BYTES_CACHE, *got);
    if (kind != PF_C_HITS || waited)
        xt_count(fd, XT_LAYER_pf, PF_C_WAIT_US, (int64_t) ((xt_now() - t0) * 1e6));
}

static void buffer_invalidate(ADIO_File fd, struct pf_file *pf, int64_t lo, int64_t hi)
{
    pthread_mutex_lock(&pf->lock);
    int n = pf_slots_invalidate(&pf->t, lo, hi, pf->w.bs);
    pthread_mutex_unlock(&pf->lock);
    xt_count(fd, XT_LAYER_pf, PF_C_INVALIDATED, n);
}

const struct pf_method pf_buffer_method = {
    .name = "buffer",
    .holds_data = 1,
    .fetch = buffer_fetch,
    .piece = buffer_piece,
    .invalidate = buffer_invalidate,
};

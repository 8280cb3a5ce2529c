/* romio-xt NVM write-behind: the sync thread pool.
 *
 * Threads copy queued items from the cache file to the global file with
 * pread/pwrite on plain file descriptors; they never call MPI or ROMIO.
 * Everything shared is under st->mu. */
#include "nvc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

/* per process, all files: the global file system's sustained cost and the
 * compute phases (nvc_gate.h); any thread */
static pthread_mutex_t tiers_mu = PTHREAD_MUTEX_INITIALIZER;
static struct nvc_tiers tiers;

void nvc_note_drain(int64_t bytes, double secs, int writeback)
{
    pthread_mutex_lock(&tiers_mu);
    tiers.drain_bytes += (double) bytes;
    tiers.drain_secs += secs;
    tiers.writebacks += writeback;
    pthread_mutex_unlock(&tiers_mu);
}

void nvc_tiers_get(struct nvc_tiers *t)
{
    pthread_mutex_lock(&tiers_mu);
    *t = tiers;
    pthread_mutex_unlock(&tiers_mu);
}

void nvc_tiers_phase(double quiet)
{
    pthread_mutex_lock(&tiers_mu);
    nvc_gate_phase(&tiers, quiet);
    pthread_mutex_unlock(&tiers_mu);
}

static int64_t usec(double seconds)
{
    return (int64_t) (seconds * 1e6);
}

/* a run's range write-locked in the global file while it is copied, so
 * another process's data-sieving read-modify-write (under ROMIO's lock)
 * cannot interleave; unlocking also ends coherent mode's lock on it */
static void range_lock(int gfd, int64_t off, int64_t len, short type)
{
    struct flock fl = {.l_type = type, .l_whence = SEEK_SET, .l_start = off, .l_len = len };
    while (fcntl(gfd, type == F_UNLCK ? F_SETLK : F_SETLKW, &fl) != 0 && errno == EINTR)
        continue;               /* other errors (no locking here): copy anyway */
}

/* one item, without st->mu: 0 or -errno */
static int sync_item(struct nvc_state *st, const struct nvc_item *it, int gfd, long nth, char *buf)
{
    if (st->fail_sync_at > 0 && nth == st->fail_sync_at)
        return -EIO;            /* test-only injected failure (ROMIO_XT_NVC_TEST_SYNC_EIO) */
    int rc = nvc_file_copy(st->cfd, it->rec, gfd, it->off, it->len, buf);
    return rc ? rc : nvc_file_mark_synced(st->cfd, it->rec);
}

/* all caught up: write the global file back now, with st->mu held (and
 * released meanwhile), so that MPI_File_sync finds little left to flush */
static void flush_behind(struct nvc_state *st, int gfd)
{
    st->dirty = 0;
    pthread_mutex_unlock(&st->mu);
    double t0 = xt_now();
    if (fdatasync(gfd) != 0) {
        /* MPI_File_sync's own flush reports it */
    }
    double secs = xt_now() - t0;
    xt_count(st->fd, XT_LAYER_nvc, NVC_C_SYNC_USEC, usec(secs));
    if (!xt_slot_of(st->fd, XT_LAYER_nvc)->counters[NVC_C_BYTES_DIRECT])
        nvc_note_drain(0, secs, 1);     /* the copies' write-back (nvc_gate.h) */
    pthread_mutex_lock(&st->mu);
}

/* with st->mu held: nothing queued and no write for NVC_FLUSH_QUIET_S
 * seconds, and no close (nvc_gate.h); counts a skipped flush */
static int stays_quiet(struct nvc_state *st)
{
    while (nvc_queue_idle(&st->q) && !st->shutdown) {
        double t = st->last_write + NVC_FLUSH_QUIET_S;
        if (xt_now() >= t)
            return 1;
        xt_cond_wait_until(&st->work, &st->mu, t);
    }
    xt_count(st->fd, XT_LAYER_nvc, NVC_C_FLUSH_SKIPPED, 1);
    return 0;
}

/* with st->mu held: takes the items after first while the run's hull (the
 * range from its lowest to its highest byte) stays within NVC_RUN_BYTES, up
 * to NVC_RUN_ITEMS, below index upto; their indexes into idx, the hull into
 * *lo, *hi */
static int take_run(struct nvc_state *st, long first, size_t upto, long *idx, int64_t *lo,
                    int64_t *hi)
{
    int n = 1;
    *lo = st->q.v[first].off;
    *hi = *lo + st->q.v[first].len;
    idx[0] = first;
    while (n < NVC_RUN_ITEMS && st->q.next < upto && st->q.next < st->q.n) {
        const struct nvc_item *nx = &st->q.v[st->q.next];
        int64_t l = nx->off < *lo ? nx->off : *lo, h = nx->off + nx->len > *hi ?
            nx->off + nx->len : *hi;
        long k = h - l <= NVC_RUN_BYTES ? nvc_queue_take(&st->q) : -1;
        if (k < 0)
            break;
        idx[n++] = k;
        *lo = l;
        *hi = h;
    }
    return n;
}

/* copies item first, just taken from the queue, and the items after it
 * (take_run), under one lock of their hull: on a file system whose unlock
 * writes the range back (a FUSE client's, MooseFS), a lock per item made
 * every item a synchronous write (24,586 small items of a BTIO-like run
 * under core_first: 35 s of copies).  With st->mu held (released meanwhile); a
 * sync thread's or a draining main thread's. */
static void sync_taken(struct nvc_state *st, long first, size_t upto, char *buf)
{
    long idx[NVC_RUN_ITEMS];
    struct nvc_item it[NVC_RUN_ITEMS];
    int64_t lo, hi;
    int rc[NVC_RUN_ITEMS], n = take_run(st, first, upto, idx, &lo, &hi);
    for (int k = 0; k < n; k++)
        it[k] = st->q.v[idx[k]];
    long nth = st->items_synced + 1;
    st->items_synced += n;
    int gfd = st->fd->fd_sys;
    pthread_mutex_unlock(&st->mu);

    /* not while the main thread is inside ROMIO's strided write: it holds
     * ROMIO's lock, which our unlock would cut; the run is copied under it */
    int lock = st->copy_locks && __atomic_load_n(&st->bypass, __ATOMIC_ACQUIRE) == 0;
    if (lock && buf)
        range_lock(gfd, lo, hi - lo, F_WRLCK);
    for (int k = 0; k < n; k++) {
        double t0 = xt_now();
        rc[k] = buf ? sync_item(st, &it[k], gfd, nth + k, buf) : -ENOMEM;
        double secs = xt_now() - t0;
        xt_count(st->fd, XT_LAYER_nvc, NVC_C_SYNC_USEC, usec(secs));
        if (!rc[k])
            nvc_note_drain(it[k].len, secs, 0);
        xt_count(st->fd, XT_LAYER_nvc, rc[k] ? NVC_C_SYNC_ERRORS : NVC_C_BYTES_SYNCED,
                 rc[k] ? 1 : it[k].len);
        if (!rc[k])
            xt_note_request_async(st->fd, 1, it[k].len);
    }
    if (lock && buf) {          /* the write-back at unlock is part of the copies' cost */
        double t0 = xt_now();
        range_lock(gfd, lo, hi - lo, F_UNLCK);
        double secs = xt_now() - t0;
        xt_count(st->fd, XT_LAYER_nvc, NVC_C_SYNC_USEC, usec(secs));
        nvc_note_drain(0, secs, 0);
    }

    pthread_mutex_lock(&st->mu);
    for (int k = 0; k < n; k++) {
        if (rc[k] && !st->err)
            st->err = -rc[k];
        st->kept_error |= rc[k] != 0;
        st->dirty |= rc[k] == 0;
        nvc_queue_done(&st->q, idx[k]);
    }
    if (nvc_queue_idle(&st->q))
        st->lock->when_idle(st);
    pthread_cond_broadcast(&st->done);
    pthread_cond_broadcast(&st->work);     /* an item waiting on this one may go */
}

static void *worker(void *arg)
{
    struct nvc_state *st = arg;
    char *buf = xt_page_alloc_near(st->fd, st->chunk);  /* the owner's node */
    pthread_mutex_lock(&st->mu);
    for (;;) {
        long idx = nvc_queue_take(&st->q);
        if (idx < 0) {
            if (st->shutdown)
                break;
            /* caught up, or writes went straight to the global file */
            if (st->dirty && nvc_queue_idle(&st->q)) {
                if (stays_quiet(st))
                    flush_behind(st, st->fd->fd_sys);
                continue;
            }
            pthread_cond_wait(&st->work, &st->mu);
            continue;
        }
        sync_taken(st, idx, SIZE_MAX, buf);
    }
    pthread_mutex_unlock(&st->mu);
    free(buf);
    return NULL;
}

int nvc_threads_start(struct nvc_state *st, int n)
{
    st->threads = calloc(n, sizeof(pthread_t));
    if (!st->threads)
        return ENOMEM;
    for (st->nthreads = 0; st->nthreads < n; st->nthreads++) {
        int rc = xt_thread_create(st->fd, &st->threads[st->nthreads], worker, st);
        if (rc) {
            nvc_threads_stop(st);
            return rc;
        }
    }
    return 0;
}

void nvc_threads_stop(struct nvc_state *st)
{
    pthread_mutex_lock(&st->mu);
    st->shutdown = 1;
    pthread_cond_broadcast(&st->work);
    pthread_mutex_unlock(&st->mu);
    for (int k = 0; k < st->nthreads; k++)
        pthread_join(st->threads[k], NULL);
    free(st->threads);
    st->threads = NULL;
    st->nthreads = 0;
}

void nvc_release_idle(struct nvc_state *st)
{
    pthread_mutex_lock(&st->mu);
    if (nvc_queue_idle(&st->q))
        st->lock->when_idle(st);
    pthread_mutex_unlock(&st->mu);
}

void nvc_bypass_end(struct nvc_state *st, int direct)
{
    if (!__atomic_sub_fetch(&st->bypass, direct, __ATOMIC_RELEASE) && direct)
        nvc_release_idle(st);
}

void nvc_drain(struct nvc_state *st, size_t upto)
{
    double t0 = xt_now();
    pthread_mutex_lock(&st->mu);
    if (upto > st->q.n)
        upto = st->q.n;
    if (st->q.low < upto) {
        if (upto > st->q.release) {
            st->q.release = upto;
            pthread_cond_broadcast(&st->work);
        }
        /* copy what no thread has taken yet ourselves: no waiting for a
         * thread to be scheduled, and no threads needed at all */
        if (!st->mainbuf)
            st->mainbuf = xt_page_alloc_near(st->fd, st->chunk);
        while (st->q.low < upto) {
            long idx = st->mainbuf && st->q.next < upto ? nvc_queue_take(&st->q) : -1;
            if (idx >= 0)
                sync_taken(st, idx, upto, st->mainbuf);
            else
                pthread_cond_wait(&st->done, &st->mu);
        }
        xt_count(st->fd, XT_LAYER_nvc, NVC_C_WAIT_USEC, usec(xt_now() - t0));
    }
    nvc_compact(st);
    pthread_mutex_unlock(&st->mu);
}

int nvc_take_error(struct nvc_state *st)
{
    pthread_mutex_lock(&st->mu);
    int err = st->err;
    st->err = 0;
    pthread_mutex_unlock(&st->mu);
    return err ? xt_io_error(st->fd, "e10_cache sync thread", err) : MPI_SUCCESS;
}

void nvc_compact(struct nvc_state *st)
{
    if (!nvc_queue_idle(&st->q) || st->q.n == 0)
        return;
    nvc_queue_reset(&st->q);
    if (st->discard && !st->kept_error && st->cfd >= 0 && ftruncate(st->cfd, NVC_HDR_SIZE) == 0)
        st->tail = NVC_HDR_SIZE;
}

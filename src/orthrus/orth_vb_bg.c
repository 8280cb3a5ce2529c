/* romio-xt Orthrus view_based: background flushing
 * (romio_vb_write_behind=background).  After a collective write an
 * aggregator's thread writes the pool's dirty blocks to the file while the
 * program computes; every operation that touches the pool (a view_based
 * call, a settle, another candidate's call) takes it back first: the
 * thread stops after the piece it is writing (at most VB_BG_PIECE bytes).
 * The thread calls no MPI and no ROMIO: pwrite on fd_sys, so it is used only
 * where ROMIO's own writes are plain pwrites (xt_fs_has XT_FS_PLAIN_RW) and
 * no layer below Orthrus sees the writes (e10_cache, prefetch, adaptive
 * data sieving).  A block is clean once all its dirty bytes are written; a
 * failed write leaves it dirty, and the error is reported at the next sync
 * or close (vb->werr).  Consistency: an independent write of a process over
 * its own unsettled collective write can meet an older background flush of
 * the same bytes; vb_rewrite_own (orth_vb_log.c) writes it again at the
 * next collective operation. */
#include "orth_vb.h"
#include "xt_io.h"

#include <errno.h>
#include <pthread.h>
#include <string.h>

enum { VB_BG_PIECE = 1 << 20 };

struct vb_bg {
    pthread_t th;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int started, quit;
    int work;                   /* dirty blocks to write */
    int busy;                   /* the thread has the pool */
    int stop;                   /* the application's thread wants it back */
    int late;                   /* test hook: write only when asked back */
    int fail;                   /* test hook: every write fails */
    int fdsys;
    struct orth_vb *vb;
    int err;                    /* errno of the first failure, not yet reported */
    int64_t bytes, blocks;      /* written since the last quiesce */
};

static int bg_stopped(struct vb_bg *bg)
{
    return !bg->late && __atomic_load_n(&bg->stop, __ATOMIC_RELAXED);
}

/* block b's dirty bytes; 0: all written, 1: stopped, -1: failed */
static int write_block(struct vb_bg *bg, struct vb_block *b)
{
    ADIO_Offset base = (ADIO_Offset) b->blk * bg->vb->unit;
    for (int i = 0; i < b->dirty.n; i++)
        for (ADIO_Offset lo = b->dirty.v[2 * i]; lo < b->dirty.v[2 * i + 1];) {
            ADIO_Offset n = b->dirty.v[2 * i + 1] - lo;
            n = n > VB_BG_PIECE ? VB_BG_PIECE : n;
            if (bg_stopped(bg))
                return 1;
            errno = EIO;
            if (bg->fail || xt_pwrite_full(bg->fdsys, b->buf + lo, n, base + lo) < 0) {
                bg->err = bg->err ? bg->err : errno;
                return -1;
            }
            bg->bytes += n;
            lo += n;
        }
    b->dirty.n = 0;             /* clean (the array is freed with the block) */
    bg->blocks++;
    return 0;
}

static void write_dirty(struct vb_bg *bg)
{
    struct orth_vb *vb = bg->vb;
    for (int i = 0; vb->pool && i < vb->cap; i++) {
        struct vb_block *b = &vb->pool[i];
        if (b->blk >= 0 && b->dirty.n && write_block(bg, b) != 0)
            return;
    }
}

static void *bg_main(void *arg)
{
    struct vb_bg *bg = arg;
    pthread_mutex_lock(&bg->mu);
    for (;;) {
        while (!bg->quit && !(bg->work && (!bg->late || bg->stop)))
            pthread_cond_wait(&bg->cv, &bg->mu);
        if (bg->quit)
            break;
        bg->work = 0;
        bg->busy = 1;
        pthread_mutex_unlock(&bg->mu);
        write_dirty(bg);
        pthread_mutex_lock(&bg->mu);
        bg->busy = 0;
        pthread_cond_broadcast(&bg->cv);
    }
    pthread_mutex_unlock(&bg->mu);
    return NULL;
}

void vb_bg_open(ADIO_File fd, struct orth_vb *vb, int want)
{
    const char *why = NULL;
    if (!want)
        return;
    if (!xt_fs_has(fd, XT_FS_PLAIN_RW))
        why = "its file system's driver does more than pwrite";
    else if (xt_slot_of(fd, XT_LAYER_nvc) || xt_slot_of(fd, XT_LAYER_pf)
             || xt_slot_of(fd, XT_LAYER_ads))
        why = "e10_cache, prefetch or adaptive data sieving sees its writes below Orthrus";
    xt_warn(fd, XT_WARN_ALL, why ? "hint romio_vb_write_behind: 'background' cannot flush "
            "a file in the background when %s; using 'enable' (write-behind flushed at sync, "
            "close and when the pool needs room)" : NULL, why);
    vb->bg_on = why == NULL;
    if (!vb->bg_on || vb->myagg < 0)
        return;
    struct vb_bg *bg = vb->bg = ADIOI_Calloc(1, sizeof(*bg));
    pthread_mutex_init(&bg->mu, NULL);
    pthread_cond_init(&bg->cv, NULL);
    bg->vb = vb;
    bg->fdsys = fd->fd_sys;
    bg->late = (int) xt_test_hook("ROMIO_XT_TEST_VB_BG_LATE", 0);
}

void vb_bg_kick(ADIO_File fd, struct orth_vb *vb)
{
    struct vb_bg *bg = vb->bg;
    if (!bg)
        return;
    bg->fail = (int) xt_test_hook("ROMIO_XT_TEST_VB_FLUSH_FAIL", 0);
    if (!bg->started && pthread_create(&bg->th, NULL, bg_main, bg) != 0)
        return;                 /* the settles write the blocks */
    bg->started = 1;
    pthread_mutex_lock(&bg->mu);
    bg->work = 1;
    pthread_cond_signal(&bg->cv);
    pthread_mutex_unlock(&bg->mu);
    (void) fd;
}

void vb_bg_quiesce(ADIO_File fd, struct orth_vb *vb)
{
    struct vb_bg *bg = vb->bg;
    if (!bg || !bg->started)
        return;
    pthread_mutex_lock(&bg->mu);
    if (!bg->late)
        bg->work = 0;           /* not begun: the pool is needed now */
    __atomic_store_n(&bg->stop, 1, __ATOMIC_RELAXED);
    pthread_cond_broadcast(&bg->cv);
    while (bg->busy || bg->work)
        pthread_cond_wait(&bg->cv, &bg->mu);
    __atomic_store_n(&bg->stop, 0, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&bg->mu);
    if (bg->bytes) {
        xt_count(fd, XT_LAYER_orth, VB_C_BYTES_FLUSHED, bg->bytes);
        xt_count(fd, XT_LAYER_orth, VB_C_FLUSH0 + VB_F_BACKGROUND, bg->blocks);
    }
    bg->bytes = bg->blocks = 0;
    if (bg->err && vb->werr == MPI_SUCCESS)
        vb->werr = xt_io_error(fd, "view_based background flush", bg->err);
    bg->err = 0;
}

void vb_bg_close(struct orth_vb *vb)
{
    struct vb_bg *bg = vb->bg;
    if (!bg)
        return;
    if (bg->started) {
        pthread_mutex_lock(&bg->mu);
        bg->quit = 1;
        pthread_cond_broadcast(&bg->cv);
        pthread_mutex_unlock(&bg->mu);
        pthread_join(bg->th, NULL);
    }
    pthread_mutex_destroy(&bg->mu);
    pthread_cond_destroy(&bg->cv);
    ADIOI_Free(bg);
    vb->bg = NULL;
}

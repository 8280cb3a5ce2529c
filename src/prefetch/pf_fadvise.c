/* romio-xt prefetch, method fadvise: as Mercury did, POSIX_FADV_WILLNEED for
 * each block entering the window (issued by the background thread, as
 * Mercury's advisor thread did: the call can take a while).  Unlike Mercury,
 * no POSIX_FADV_DONTNEED for blocks leaving it: that evicted pages the
 * application, another rank or the next open still wanted (measured: warm
 * strided writes after a prefetched read ran at 0.56-0.62x stock, their
 * read-modify-write found the file evicted); the kernel's LRU frees them.
 * The kernel's page cache holds the data, so reads go to the file system
 * unchanged and writes need no invalidation.  The slots only record which
 * blocks are advised. */
#include "pf.h"

#include <fcntl.h>

static int64_t fadvise_fetch(struct pf_file *pf, struct pf_slot *s)
{
    (void) posix_fadvise(pf->fd->fd_sys, (off_t) s->off, (off_t) s->want, POSIX_FADV_WILLNEED);
    return s->want;
}

static void fadvise_piece(ADIO_File fd, struct pf_file *pf, int64_t block, char *buf,
                          ADIO_Offset off, ADIO_Offset len, ADIO_Offset *got, int *error_code)
{
    struct pf_plan plan;
    pthread_mutex_lock(&pf->lock);
    if (pf_access(fd, pf, block, &plan, NULL, NULL) != PF_OUTSIDE) {
        struct pf_slot *s = pf_slots_find(&pf->t, block);
        pf->served += s && s->state == PF_SLOT_READY;   /* advised before this read */
    }
    if (plan.nqueued)
        pthread_cond_broadcast(&pf->work);    /* every idle loader */
    pthread_mutex_unlock(&pf->lock);
    pf_read_lower(fd, buf, off, len, got, error_code);
    xt_count(fd, XT_LAYER_pf, PF_C_BYTES_FS, *got);
}

/* the page cache is coherent with writes */
static void fadvise_invalidate(ADIO_File fd, struct pf_file *pf, int64_t lo, int64_t hi)
{
}

const struct pf_method pf_fadvise_method = {
    .name = "fadvise",
    .holds_data = 0,
    .fetch = fadvise_fetch,
    .piece = fadvise_piece,
    .invalidate = fadvise_invalidate,
};

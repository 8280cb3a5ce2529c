/* romio-xt prefetch, method fadvise: as Mercury did, POSIX_FADV_WILLNEED for
 * each block entering the window and POSIX_FADV_DONTNEED for each block
 * leaving it.  The kernel's page cache holds the data, so reads go to the
 * file system unchanged and writes need no invalidation.  The slots only
 * record which blocks are advised. */
#include "pf.h"

#include <fcntl.h>

static void advise(struct pf_file *pf, int64_t block, int advice)
{
    (void) posix_fadvise(pf->fd->fd_sys, (off_t) (block * pf->w.bs), (off_t) pf->w.bs, advice);
}

static void dontneed(void *arg, int64_t block)
{
    advise(arg, block, POSIX_FADV_DONTNEED);
}

static int fadvise_start(ADIO_File fd, struct pf_file *pf)
{
    return 0;
}

static void fadvise_piece(ADIO_File fd, struct pf_file *pf, int64_t block, char *buf,
                          ADIO_Offset off, ADIO_Offset len, ADIO_Offset *got, int *error_code)
{
    struct pf_plan plan;
    struct pf_slot *s;
    if (pf_access(fd, pf, block, &plan, dontneed, pf) != PF_OUTSIDE) {
        while ((s = pf_slots_next(&pf->t))) {
            advise(pf, s->block, POSIX_FADV_WILLNEED);
            s->state = PF_SLOT_LOADING;
            pf_slots_loaded(&pf->t, s, pf->w.bs, pf->w.bs);
            xt_count(fd, &pf_layer, PF_C_PREFETCHED, 1);
        }
    }
    pf_read_lower(fd, buf, off, len, got, error_code);
    xt_count(fd, &pf_layer, PF_C_BYTES_FS, *got);
}

/* the page cache is coherent with writes */
static void fadvise_invalidate(ADIO_File fd, struct pf_file *pf, int64_t lo, int64_t hi)
{
}

static void fadvise_stop(ADIO_File fd, struct pf_file *pf)
{
}

const struct pf_method pf_fadvise_method = {
    .name = "fadvise",
    .start = fadvise_start,
    .piece = fadvise_piece,
    .invalidate = fadvise_invalidate,
    .stop = fadvise_stop,
};

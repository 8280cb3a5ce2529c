/* romio-xt Orthrus view_based: the aggregator's buffer cache.  A bounded
 * pool of domain blocks (romio_vb_cache_size / unit, at least one); each
 * block knows which of its bytes are valid (equal to or newer than the file)
 * and which are dirty (newer).  A full pool writes back and reuses its least
 * recently used block. */
#include "orth_vb.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int cmp_pair(const void *a, const void *b)
{
    const ADIO_Offset *x = a, *y = b;
    return (x[0] > y[0]) - (x[0] < y[0]);
}

/* l := l united with the n [lo, hi) pairs (any order; pairs is reordered) */
void vb_ivl_add(struct vb_ivl *l, ADIO_Offset *pairs, int n)
{
    int tot = l->n + n, k = 0;
    ADIO_Offset *all = ADIOI_Malloc((2 * (size_t) tot + 2) * sizeof(ADIO_Offset));
    if (l->n)                   /* l->v may be NULL */
        memcpy(all, l->v, 2 * (size_t) l->n * sizeof(ADIO_Offset));
    if (n)
        memcpy(all + 2 * l->n, pairs, 2 * (size_t) n * sizeof(ADIO_Offset));
    qsort(all, tot, 2 * sizeof(ADIO_Offset), cmp_pair);
    for (int i = 0; i < tot; i++) {
        if (k > 0 && all[2 * i] <= all[2 * k - 1]) {
            if (all[2 * i + 1] > all[2 * k - 1])
                all[2 * k - 1] = all[2 * i + 1];
            continue;
        }
        all[2 * k] = all[2 * i];
        all[2 * k + 1] = all[2 * i + 1];
        k++;
    }
    VB_FREE(l->v);
    l->v = all;
    l->n = k;
    l->cap = tot;
}

int vb_ivl_covers(const struct vb_ivl *l, ADIO_Offset lo, ADIO_Offset hi)
{
    int a = 0, b = l->n - 1;
    if (lo >= hi)
        return 1;
    if (l->n == 0)
        return 0;
    while (a < b) {             /* the last interval starting at or below lo */
        int m = (a + b + 1) / 2;
        if (l->v[2 * m] <= lo)
            a = m;
        else
            b = m - 1;
    }
    return l->v[2 * a] <= lo && hi <= l->v[2 * a + 1];
}

static void ivl_clear(struct vb_ivl *l)
{
    VB_FREE(l->v);
    memset(l, 0, sizeof(*l));
}

/* l := l without [lo, hi) */
static void ivl_sub(struct vb_ivl *l, ADIO_Offset lo, ADIO_Offset hi)
{
    int k = 0;
    ADIO_Offset *v = ADIOI_Malloc((2 * (size_t) l->n + 4) * sizeof(ADIO_Offset));
    for (int i = 0; i < l->n; i++) {
        ADIO_Offset a = l->v[2 * i], b = l->v[2 * i + 1];
        if (a < lo) {
            v[2 * k] = a;
            v[2 * k++ + 1] = b < lo ? b : lo;
        }
        if (b > hi) {
            v[2 * k] = a > hi ? a : hi;
            v[2 * k++ + 1] = b;
        }
    }
    VB_FREE(l->v);
    l->v = v;
    l->n = k;
    l->cap = k;
}

/* The pool starts with VB_POOL_START blocks and doubles (up to
 * romio_vb_cache_size) each time a block it evicted is wanted again, and,
 * with write-behind, each time it would have to evict a dirty block: a job
 * that never comes back to its data touches no more memory than two_phase's
 * buffer (64 MiB of fresh blocks cost a page fault per 4 KiB: BTIO-like
 * reads ran at 0.71x two_phase, with a 10 MiB pool at 1.0x). */
enum { VB_POOL_START = 2 };

void vb_pool_init(ADIO_File fd, struct orth_vb *vb)
{
    int64_t size = xt_hint(fd, XT_H_VB_CACHE_SIZE)->i;
    int64_t cap = size / vb->unit;
    vb->cap = cap < 1 ? 1 : cap > 65536 ? 65536 : (int) cap;
    vb->active = vb->cap < VB_POOL_START ? vb->cap : VB_POOL_START;
    vb->pool = ADIOI_Calloc(vb->cap, sizeof(struct vb_block));
    vb->ghost = ADIOI_Malloc(vb->cap * sizeof(int64_t));
    vb->ghost_at = 0;
    for (int i = 0; i < vb->cap; i++)
        vb->pool[i].blk = vb->ghost[i] = -1;
}

/* a free slot among the active ones, else the least recently used */
static struct vb_block *pool_victim(struct orth_vb *vb)
{
    struct vb_block *lru = NULL;
    for (int i = 0; i < vb->active; i++) {
        struct vb_block *b = &vb->pool[i];
        if (!lru || (lru->blk >= 0 && (b->blk < 0 || b->used < lru->used)))
            lru = b;
    }
    return lru;
}

static void pool_grow(ADIO_File fd, struct orth_vb *vb)
{
    vb->active = 2 * vb->active < vb->cap ? 2 * vb->active : vb->cap;
    xt_count(fd, XT_LAYER_orth, VB_C_POOL_GROWN, 1);
}

/* blk was evicted lately: the pool grows */
static void pool_grow_if_back(ADIO_File fd, struct orth_vb *vb, int64_t blk)
{
    for (int i = 0; vb->active < vb->cap && i < vb->cap; i++)
        if (vb->ghost[i] == blk) {
            pool_grow(fd, vb);
            return;
        }
}

void vb_block_flush(ADIO_File fd, struct orth_vb *vb, struct vb_block *b, int cause, int *err)
{
    ADIO_Status status;
    int64_t bytes = 0;
    if (b->blk < 0 || b->dirty.n == 0)
        return;
    ADIO_Offset base = (ADIO_Offset) b->blk * vb->unit;
    int fail = (int) xt_test_hook("ROMIO_XT_TEST_VB_FLUSH_FAIL", 0);
    for (int i = 0; i < b->dirty.n; i++) {
        ADIO_Offset lo = b->dirty.v[2 * i], len = b->dirty.v[2 * i + 1] - lo;
        int e = MPI_SUCCESS;
        if (fail)               /* fault injection: the write fails */
            e = xt_io_error(fd, "view_based flush (test hook)", EIO);
        else
            ADIO_WriteContig(fd, b->buf + lo, (int) len, MPI_BYTE, ADIO_EXPLICIT_OFFSET,
                             base + lo, &status, &e);
        if (e != MPI_SUCCESS && *err == MPI_SUCCESS)
            *err = e;
        if (e != MPI_SUCCESS && vb->wb && vb->werr == MPI_SUCCESS)
            vb->werr = e;       /* reported again at the next sync or close */
        bytes += len;
    }
    ivl_clear(&b->dirty);
    xt_count(fd, XT_LAYER_orth, VB_C_BYTES_FLUSHED, bytes);
    xt_count(fd, XT_LAYER_orth, VB_C_FLUSH0 + cause, 1);
}

static void block_free(struct vb_block *b)
{
    ivl_clear(&b->valid);
    ivl_clear(&b->dirty);
    b->blk = -1;
}

/* block blk of this aggregator's domains; create: take a slot for it
 * (evicting the least recently used block) */
struct vb_block *vb_block_get(ADIO_File fd, struct orth_vb *vb, int64_t blk, int create,
                              int *err)
{
    struct vb_block *lru;
    for (int i = 0; i < vb->cap; i++) {
        struct vb_block *b = &vb->pool[i];
        if (b->blk == blk) {
            b->used = ++vb->clock;
            return b;
        }
    }
    if (!create)
        return NULL;
    pool_grow_if_back(fd, vb, blk);
    lru = pool_victim(vb);
    if (vb->wb && lru->blk >= 0 && lru->dirty.n && vb->active < vb->cap) {
        pool_grow(fd, vb);      /* write-behind: hold dirty blocks while the pool allows */
        lru = pool_victim(vb);
    }
    if (lru->blk >= 0) {
        vb->ghost[vb->ghost_at] = lru->blk;
        vb->ghost_at = (vb->ghost_at + 1) % vb->cap;
    }
    vb_block_flush(fd, vb, lru, VB_F_POOL_FULL, err);
    block_free(lru);
    if (!lru->buf)
        lru->buf = ADIOI_Malloc(vb->unit);
    lru->blk = blk;
    lru->used = ++vb->clock;
    return lru;
}

void vb_flush_all(ADIO_File fd, struct orth_vb *vb, int cause, int *err)
{
    for (int i = 0; vb->pool && i < vb->cap; i++)
        vb_block_flush(fd, vb, &vb->pool[i], cause, err);
}

/* forget every block (they hold nothing the file lacks: flushed first) */
void vb_drop_all(ADIO_File fd, struct orth_vb *vb)
{
    int any = 0;
    for (int i = 0; vb->pool && i < vb->cap; i++) {
        any |= vb->pool[i].blk >= 0;
        block_free(&vb->pool[i]);
    }
    if (any)
        xt_count(fd, XT_LAYER_orth, VB_C_DROPS, 1);
}

void vb_drop_clean(ADIO_File fd, struct orth_vb *vb)
{
    int any = 0;
    for (int i = 0; vb->pool && i < vb->cap; i++) {
        struct vb_block *b = &vb->pool[i];
        if (b->blk < 0)
            continue;
        any = 1;
        if (b->dirty.n == 0) {
            block_free(b);
            continue;
        }
        ivl_clear(&b->valid);
        vb_ivl_add(&b->valid, b->dirty.v, b->dirty.n);
    }
    if (any)
        xt_count(fd, XT_LAYER_orth, VB_C_DROPS, 1);
}

void vb_forget_ranges(struct orth_vb *vb, const ADIO_Offset *rg, int n)
{
    for (int i = 0; vb->pool && i < n; i++) {
        ADIO_Offset lo = rg[2 * i], hi = rg[2 * i + 1];
        for (int64_t blk = lo / vb->unit; hi > lo && blk <= (hi - 1) / vb->unit; blk++) {
            struct vb_block *b = blk % vb->naggs == vb->myagg ?
                vb_block_get(NULL, vb, blk, 0, NULL) : NULL;
            ADIO_Offset base = blk * vb->unit;
            if (!b)
                continue;
            ivl_sub(&b->valid, lo - base, hi - base);
            ivl_sub(&b->dirty, lo - base, hi - base);
        }
    }
}

void vb_pool_free(struct orth_vb *vb)
{
    for (int i = 0; vb->pool && i < vb->cap; i++) {
        block_free(&vb->pool[i]);
        VB_FREE(vb->pool[i].buf);
    }
    VB_FREE(vb->pool);
    VB_FREE(vb->ghost);
    vb->pool = NULL;
    vb->ghost = NULL;
}

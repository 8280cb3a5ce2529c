/* romio-xt Orthrus view_based: views as one period of pieces, the mapping
 * between view coordinates (bytes of the view's data stream) and file
 * offsets, and the exchange of the views with the aggregators. */
#include "orth_vb.h"

#include <stdlib.h>
#include <string.h>

/* bigger flattened views fall back to two_phase */
#define VB_MAX_PIECES (1 << 20)
/* the period given to a contiguous filetype (bytes, rounded up to a
 * multiple of its extent): longer than any call (ORTH_MAX_BYTES) */
#define VB_CONTIG_PERIOD (1LL << 40)

/* data bytes of v at file offsets below f */
ADIO_Offset vb_vpos(const struct vb_view *v, ADIO_Offset f)
{
    ADIO_Offset first = v->disp + v->idx[0];
    if (f <= first)
        return 0;
    ADIO_Offset k = (f - first) / v->extent, rel = f - v->disp - k * v->extent;
    int lo = 0, hi = v->n - 1;
    while (lo < hi) {           /* the last piece starting below rel */
        int mid = (lo + hi + 1) / 2;
        if (v->idx[mid] < rel)
            lo = mid;
        else
            hi = mid - 1;
    }
    ADIO_Offset in = rel - v->idx[lo];
    return k * v->size + v->pre[lo] + (in < v->len[lo] ? in : v->len[lo]);
}

/* the piece holding stream byte r of a period */
static int piece_of(const struct vb_view *v, ADIO_Offset r)
{
    int lo = 0, hi = v->n - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (v->pre[mid] <= r)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* the file offset of stream byte s */
ADIO_Offset vb_foff(const struct vb_view *v, ADIO_Offset s)
{
    ADIO_Offset k = s / v->size, r = s % v->size;
    int i = piece_of(v, r);
    return v->disp + k * v->extent + v->idx[i] + (r - v->pre[i]);
}

void vb_pieces(const struct vb_view *v, ADIO_Offset s0, ADIO_Offset s1,
               void (*fn)(void *arg, ADIO_Offset off, ADIO_Offset len, ADIO_Offset spos),
               void *arg)
{
    if (s0 >= s1)
        return;
    ADIO_Offset k = s0 / v->size, s = s0;
    int i = piece_of(v, s0 % v->size);
    while (s < s1) {
        ADIO_Offset skip = s - (k * v->size + v->pre[i]), len = v->len[i] - skip;
        if (len > s1 - s)
            len = s1 - s;
        fn(arg, v->disp + k * v->extent + v->idx[i] + skip, len, s);
        s += len;
        if (++i == v->n) {
            i = 0;
            k++;
        }
    }
}

void vb_view_free(struct vb_view *v)
{
    VB_FREE(v->idx);
    memset(v, 0, sizeof(*v));
}

static void view_alloc(struct vb_view *v, int n)
{
    v->n = n;
    v->idx = ADIOI_Malloc((3 * (size_t) n + 1) * sizeof(ADIO_Offset));
    v->len = v->idx + n;
    v->pre = v->len + n;
}

static void view_prefix(struct vb_view *v)
{
    v->size = 0;
    for (int i = 0; i < v->n; i++) {
        v->pre[i] = v->size;
        v->size += v->len[i];
    }
}

/* this rank's view, adjacent pieces merged; 0 when view_based cannot use it
 * (too many pieces, no data, pieces out of order or beyond the period) */
static int view_local(ADIO_File fd, struct vb_view *v)
{
    ADIOI_Flatlist_node *flat = xt_flatten(fd->filetype);
    MPI_Aint lb, ext;
    MPI_Type_get_extent(fd->filetype, &lb, &ext);
    if (!flat || flat->count > VB_MAX_PIECES || ext <= 0)
        return 0;
    view_alloc(v, (int) flat->count);
    int n = 0, ok = 1;
    for (MPI_Count i = 0; i < flat->count; i++) {
        ADIO_Offset off = flat->indices[i], len = flat->blocklens[i];
        if (len <= 0)
            continue;
        if (n > 0 && off < v->idx[n - 1] + v->len[n - 1])
            ok = 0;
        if (n > 0 && off == v->idx[n - 1] + v->len[n - 1])
            v->len[n - 1] += len;
        else {
            v->idx[n] = off;
            v->len[n++] = len;
        }
    }
    v->n = n;
    v->disp = fd->disp;
    v->extent = ext;
    ok = ok && n > 0 && v->idx[0] >= 0 && v->idx[n - 1] + v->len[n - 1] <= v->idx[0] + ext;
    if (ok && n == 1 && v->idx[0] == 0 && v->len[0] == ext) {
        /* a contiguous filetype: one period as long as a whole call can be,
         * so a call is one piece, not one per filetype extent */
        v->extent = v->len[0] = ext * (VB_CONTIG_PERIOD / ext + 1);
    }
    if (ok) {
        struct vb_view c;       /* repacked for the final n */
        view_alloc(&c, n);
        memcpy(c.idx, v->idx, n * sizeof(ADIO_Offset));
        memcpy(c.len, v->len, n * sizeof(ADIO_Offset));
        c.disp = v->disp;
        c.extent = v->extent;
        vb_view_free(v);
        *v = c;
        view_prefix(v);
    }
    return ok;
}

static void unpack_view(struct vb_view *v, const int64_t *p)
{
    view_alloc(v, (int) p[3]);
    v->disp = p[0];
    v->extent = p[1];
    memcpy(v->idx, p + 4, v->n * sizeof(int64_t));
    memcpy(v->len, p + 4 + v->n, v->n * sizeof(int64_t));
    view_prefix(v);
}

void vb_exchange_free(struct orth_vb *vb)
{
    vb_view_free(&vb->mine);
    for (int p = 0; vb->views && p < vb->nprocs; p++)
        vb_view_free(&vb->views[p]);
    VB_FREE(vb->views);
    vb->views = NULL;
}

/* every rank's view to every aggregator (one all-to-all of counts, one of
 * the pieces) */
static void send_views(ADIO_File fd, struct orth_vb *vb)
{
    int np = vb->nprocs, n = vb->mine.n, m = 4 + 2 * n;
    int *c = ADIOI_Calloc(4 * (size_t) np, sizeof(int)), *sd = c + np, *rc = sd + np,
        *rd = rc + np;
    int64_t *pk = ADIOI_Malloc((size_t) m * sizeof(int64_t));
    pk[0] = vb->mine.disp;
    pk[1] = vb->mine.extent;
    pk[2] = vb->mine.size;
    pk[3] = n;
    memcpy(pk + 4, vb->mine.idx, n * sizeof(int64_t));
    memcpy(pk + 4 + n, vb->mine.len, n * sizeof(int64_t));
    for (int a = 0; a < vb->naggs; a++)
        c[vb->aggs[a]] = m;
    MPI_Alltoall(c, 1, MPI_INT, rc, 1, MPI_INT, fd->comm);
    orth_displs(rc, rd, np);
    int64_t *rb = ADIOI_Malloc(((size_t) rd[np - 1] + rc[np - 1] + 1) * sizeof(int64_t));
    MPI_Alltoallv(pk, c, sd, MPI_INT64_T, rb, rc, rd, MPI_INT64_T, fd->comm);
    if (vb->myagg >= 0) {
        vb->views = ADIOI_Calloc(np, sizeof(struct vb_view));
        for (int p = 0; p < np; p++)
            unpack_view(&vb->views[p], rb + rd[p]);
    }
    xt_count(fd, XT_LAYER_orth, VB_C_VIEW_BYTES, (int64_t) m * 8 * vb->naggs);
    ADIOI_Free(rb);
    ADIOI_Free(pk);
    ADIOI_Free(c);
}

void vb_exchange(ADIO_File fd, struct orth_vb *vb, int ok)
{
    int all = 0;
    vb_exchange_free(vb);
    ok = ok && view_local(fd, &vb->mine);
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, fd->comm);
    vb->stale = 0;
    vb->fallback = !all;
    if (xt_file(fd)->rank == 0)
        xt_count(fd, XT_LAYER_orth, all ? VB_C_VIEW_EXCHANGES : VB_C_FALLBACKS, 1);
    if (all)
        send_views(fd, vb);
    else
        vb_exchange_free(vb);
}

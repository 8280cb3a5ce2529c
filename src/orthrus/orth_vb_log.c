/* romio-xt Orthrus view_based: write-behind's bookkeeping.  Each rank logs
 * its own collective writes that may still sit dirty at an aggregator (the
 * view does not change while any does: MPI_File_set_view settles first), so
 * its independent reads see them; its independent writes update the log and
 * leave their file ranges, which the aggregators forget (no longer valid or
 * dirty) at the next collective operation, so an older dirty byte never
 * overwrites a newer independent one.  A settle writes every dirty block and
 * agrees on errors. */
#include "orth_vb.h"

#include <errno.h>
#include <string.h>

struct orth_vb *vb_of(ADIO_File fd)
{
    struct xt_slot *s = xt_slot_of(fd, XT_LAYER_orth);
    return s ? ((struct orth_state *) s->state)->cand[ORTH_view_based] : NULL;
}

void vb_log_add(struct orth_vb *vb, ADIO_Offset s0, ADIO_Offset s1, const char *data)
{
    if (s1 <= s0)
        return;
    if (vb->nlog == vb->clog) {
        vb->clog = vb->clog ? 2 * vb->clog : 16;
        vb->log = vb->log ? ADIOI_Realloc(vb->log, vb->clog * sizeof(*vb->log))
            : ADIOI_Malloc(vb->clog * sizeof(*vb->log));
    }
    struct vb_logent *e = &vb->log[vb->nlog++];
    e->s0 = s0;
    e->s1 = s1;
    e->data = ADIOI_Malloc(s1 - s0);
    memcpy(e->data, data, s1 - s0);
    vb->log_bytes += s1 - s0;
}

void vb_log_clear(struct orth_vb *vb)
{
    for (int i = 0; i < vb->nlog; i++)
        ADIOI_Free(vb->log[i].data);
    VB_FREE(vb->log);
    vb->log = NULL;
    vb->nlog = vb->clog = 0;
    vb->log_bytes = 0;
}

/* bytes [lo, hi) of entry e and buf (which starts at stream byte s0) */
static void log_copy(struct vb_logent *e, ADIO_Offset lo, ADIO_Offset hi, char *at, int write)
{
    if (write)
        memcpy(e->data + (lo - e->s0), at, hi - lo);
    else
        memcpy(at, e->data + (lo - e->s0), hi - lo);
}

void vb_log_stream(struct orth_vb *vb, ADIO_Offset s0, ADIO_Offset n, char *buf, int write)
{
    for (int i = 0; i < vb->nlog; i++) {        /* in order: later writes win */
        struct vb_logent *e = &vb->log[i];
        ADIO_Offset lo = s0 > e->s0 ? s0 : e->s0, hi = s0 + n < e->s1 ? s0 + n : e->s1;
        if (lo < hi)
            log_copy(e, lo, hi, buf + (lo - s0), write);
    }
}

struct file_copy {
    struct vb_logent *e;
    ADIO_Offset off;
    char *buf;
    int write;
};

static void file_piece(void *arg, ADIO_Offset off, ADIO_Offset len, ADIO_Offset spos)
{
    struct file_copy *f = arg;
    log_copy(f->e, spos, spos + len, f->buf + (off - f->off), f->write);
}

void vb_log_file(struct orth_vb *vb, ADIO_Offset off, ADIO_Offset n, char *buf, int write)
{
    if (!vb->nlog || n <= 0)
        return;
    /* the stream bytes at file offsets [off, off + n) */
    ADIO_Offset a = vb_vpos(&vb->mine, off), b = vb_vpos(&vb->mine, off + n);
    for (int i = 0; i < vb->nlog; i++) {
        struct file_copy f = {.e = &vb->log[i],.off = off,.buf = buf,.write = write };
        ADIO_Offset lo = a > f.e->s0 ? a : f.e->s0, hi = b < f.e->s1 ? b : f.e->s1;
        vb_pieces(&vb->mine, lo, hi, file_piece, &f);
    }
}

void vb_add_range(struct orth_vb *vb, ADIO_Offset lo, ADIO_Offset hi)
{
    if (hi <= lo)
        return;
    if (vb->nrg && vb->rg[2 * vb->nrg - 1] == lo) {
        vb->rg[2 * vb->nrg - 1] = hi;
        return;
    }
    if (vb->nrg == vb->crg) {
        vb->crg = vb->crg ? 2 * vb->crg : 16;
        vb->rg = vb->rg ? ADIOI_Realloc(vb->rg, 2 * (size_t) vb->crg * sizeof(ADIO_Offset))
            : ADIOI_Malloc(2 * (size_t) vb->crg * sizeof(ADIO_Offset));
    }
    vb->rg[2 * vb->nrg] = lo;
    vb->rg[2 * vb->nrg + 1] = hi;
    vb->nrg++;
}

void vb_share_ranges(ADIO_File fd, struct orth_vb *vb, const int64_t *n, int stride)
{
    int np = vb->nprocs, *c = ADIOI_Malloc(2 * (size_t) np * sizeof(int)), *d = c + np;
    int64_t tot = 0;
    for (int p = 0; p < np; p++) {
        c[p] = (int) (2 * n[(size_t) p * stride]);
        d[p] = (int) tot;
        tot += c[p];
    }
    if (tot) {
        vb_rewrite_own(fd, vb); /* before any aggregator can read the bytes */
        ADIO_Offset *all = ADIOI_Malloc(tot * sizeof(ADIO_Offset));
        MPI_Allgatherv(vb->rg, 2 * vb->nrg, MPI_INT64_T, all, c, d, MPI_INT64_T, fd->comm);
        vb_forget_ranges(vb, all, (int) (tot / 2));
        ADIOI_Free(all);
    }
    vb->nrg = 0;
    ADIOI_Free(c);
}

void vb_settle(ADIO_File fd, struct orth_vb *vb, int cause, int *err)
{
    int np = vb->nprocs, bad, any = 0;
    int64_t me[2] = { vb->nrg, vb->foreign }, *all = ADIOI_Malloc(2 * (size_t) np * 8);
    vb_bg_quiesce(fd, vb);
    vb->in_call = 1;
    MPI_Allgather(me, 2, MPI_INT64_T, all, 2, MPI_INT64_T, fd->comm);
    vb_share_ranges(fd, vb, all, 2);
    for (int p = 0; p < np; p++)
        any |= all[2 * p + 1] != 0;
    if (any)
        vb_drop_clean(fd, vb);
    vb->foreign = 0;
    ADIOI_Free(all);
    vb_flush_all(fd, vb, cause, &vb->werr);
    *err = vb->werr;
    if (vb->dirty) {            /* every rank returns after every flush */
        bad = vb->werr != MPI_SUCCESS;
        MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, fd->comm);
        if (any && *err == MPI_SUCCESS)
            *err = xt_io_error(fd, "view_based write-behind (another process's flush)", EIO);
    }
    vb->werr = MPI_SUCCESS;
    vb->dirty = 0;
    vb->eof = 0;
    vb_log_clear(vb);
    vb->in_call = 0;
}

struct rewrite {
    ADIO_File fd;
    struct orth_vb *vb;
    struct vb_logent *e;
    int64_t bytes;
};

/* the parts of a log piece (file [off, off + len), stream spos) that this
 * rank's independent writes covered: the log holds their bytes */
static void rewrite_piece(void *arg, ADIO_Offset off, ADIO_Offset len, ADIO_Offset spos)
{
    struct rewrite *w = arg;
    ADIO_Status st;
    for (int i = 0; i < w->vb->nrg; i++) {
        ADIO_Offset lo = w->vb->rg[2 * i], hi = w->vb->rg[2 * i + 1];
        lo = lo > off ? lo : off;
        hi = hi < off + len ? hi : off + len;
        if (lo >= hi)
            continue;
        int ec = MPI_SUCCESS;
        ADIO_WriteContig(w->fd, w->e->data + (spos + (lo - off) - w->e->s0), (int) (hi - lo),
                         MPI_BYTE, ADIO_EXPLICIT_OFFSET, lo, &st, &ec);
        if (ec != MPI_SUCCESS && w->vb->werr == MPI_SUCCESS)
            w->vb->werr = ec;
        w->bytes += hi - lo;
    }
}

void vb_rewrite_own(ADIO_File fd, struct orth_vb *vb)
{
    if (!vb->bg_on || !vb->nrg || !vb->nlog)
        return;
    struct rewrite w = {.fd = fd,.vb = vb };
    for (int i = 0; i < vb->nlog; i++) {
        w.e = &vb->log[i];
        vb_pieces(&vb->mine, w.e->s0, w.e->s1, rewrite_piece, &w);
    }
    xt_count(fd, XT_LAYER_orth, VB_C_REWRITTEN, w.bytes);
}

static void range_piece(void *arg, ADIO_Offset off, ADIO_Offset len, ADIO_Offset spos)
{
    (void) spos;
    vb_add_range(arg, off, off + len);
}

void vb_ranges_of(struct orth_vb *vb, ADIO_Offset s0, ADIO_Offset s1)
{
    vb_pieces(&vb->mine, s0, s1, range_piece, vb);
}

char *vb_packed(const void *buf, int count, MPI_Datatype dt, ADIO_Offset n, int pack)
{
    int contig, pos = 0;
    MPI_Aint lb, ext;
    ADIOI_Datatype_iscontig(dt, &contig);
    MPI_Type_get_true_extent(dt, &lb, &ext);
    if (contig && lb == 0)
        return (char *) buf;
    char *p = ADIOI_Malloc(n + 1);
    if (pack)
        MPI_Pack(buf, count, dt, p, (int) n, &pos, MPI_COMM_SELF);
    return p;
}

void vb_other_call(ADIO_File fd, int is_write)
{
    struct orth_vb *vb = vb_of(fd);
    if (!vb || vb->in_call)
        return;
    vb_bg_quiesce(fd, vb);
    if (vb->dirty || vb->nrg)
        vb_settle(fd, vb, VB_F_OTHER_CALL, &vb->werr);  /* reported at sync or close */
    if (is_write)
        vb_drop_all(fd, vb);
}

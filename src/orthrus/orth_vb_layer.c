/* romio-xt Orthrus view_based: the per-file state (open, set_view, close)
 * and the consistency guards.  MPI_File_sync, MPI_File_set_size,
 * MPI_File_set_atomicity, MPI_File_set_view, MPI_File_close and a collective
 * call run by another candidate settle the file (every dirty block written,
 * on every aggregator, before any rank goes on).  Between them, independent
 * reads see the rank's own collective writes (its log), independent writes
 * leave their ranges for the aggregators (orth_vb_log.c), other layers'
 * writes make the aggregators drop their clean bytes.  Atomic mode runs stock
 * two-phase (as every Orthrus call does), after a settle. */
#include "orth_vb.h"

#include <string.h>


const char *const vb_counter_names[] = {
    "vb_cache_hits", "vb_cache_misses", "vb_bytes_flushed", "vb_flushes_call_end",
    "vb_flushes_pool_full", "vb_flushes_sync", "vb_flushes_close", "vb_flushes_set_view",
    "vb_flushes_read_miss", "vb_flushes_other_call", "vb_flushes_log_full",
    "vb_flushes_background",
    "vb_view_bytes_sent", "vb_view_exchanges", "vb_view_fallbacks",
    "vb_prefetched_bytes", "vb_cache_drops", "vb_pool_grown", "vb_bytes_rewritten",
};
_Static_assert(sizeof(vb_counter_names) / sizeof(vb_counter_names[0]) == VB_NCOUNTERS,
               "one name per view_based counter");

/* the file-domain block: striping_unit, else cb_buffer_size (one round of
 * an aggregator is one block) until the first call sizes it (orth_vb.c) */
static ADIO_Offset domain_unit(ADIO_File fd)
{
    if (fd->hints->striping_unit > 0)
        return fd->hints->striping_unit;
    return fd->hints->cb_buffer_size > 0 ? fd->hints->cb_buffer_size : 16 * 1024 * 1024;
}

void vb_open(ADIO_File fd, struct orth_state *st)
{
    int vbi = ORTH_view_based, used = st->forced == vbi;
    for (int c = 0; c < st->sel.ncand && st->forced < 0; c++)
        used |= st->rotation[c] == vbi;
    if (!used)
        return;
    struct orth_vb *vb = st->vb = ADIOI_Calloc(1, sizeof(*vb));
    MPI_Comm_size(fd->comm, &vb->nprocs);
    vb->naggs = fd->hints->cb_nodes > 0 ? fd->hints->cb_nodes : 1;
    vb->aggs = fd->hints->ranklist;
    vb->myagg = -1;
    for (int a = 0; a < vb->naggs; a++)
        if (vb->aggs[a] == xt_file(fd)->rank)
            vb->myagg = a;
    vb->unit = domain_unit(fd);
    vb->unit_auto = fd->hints->striping_unit <= 0;
    /* in a selection, view_based may never run (romio_orthrus_budget): its
     * view goes with its first call, set_view costs nothing until then */
    vb->lazy = xt_hint(fd, XT_H_VB_LAZY)->i == XT_H_VB_LAZY_enable || st->forced < 0;
    vb->prefetch = xt_hint(fd, XT_H_VB_PREFETCH)->i == XT_H_VB_PREFETCH_enable;
    vb->stale = 1;              /* the view set at open goes with the first call */
    int64_t wb = xt_hint(fd, XT_H_VB_WRITE_BEHIND)->i;
    vb->wb = wb == XT_H_VB_WRITE_BEHIND_enable || wb == XT_H_VB_WRITE_BEHIND_background;
    vb->log_max = xt_hint(fd, XT_H_VB_CACHE_SIZE)->i;
    if (vb->myagg >= 0)
        vb_pool_init(fd, vb);
    vb_bg_open(fd, vb, wb == XT_H_VB_WRITE_BEHIND_background);
}

void vb_close(ADIO_File fd, struct orth_state *st, int *err)
{
    struct orth_vb *vb = st->vb;
    if (!vb)
        return;
    vb_settle(fd, vb, VB_F_CLOSE, err);
    vb_bg_close(vb);
    vb_pool_free(vb);
    vb_exchange_free(vb);
    VB_FREE(vb->rg);
    ADIOI_Free(vb);
    st->vb = NULL;
}

void vb_set_view(ADIO_File fd, void *state, int error_code)
{
    struct orth_vb *vb = ((struct orth_state *) state)->vb;
    if (!vb)
        return;
    vb_settle(fd, vb, VB_F_SET_VIEW, &vb->werr);        /* reported at sync or close */
    if (vb->lazy)
        vb->stale = 1;
    else
        vb_exchange(fd, vb, error_code == MPI_SUCCESS);
}

void vb_bypassed_write(ADIO_File fd, int collective)
{
    struct orth_vb *vb = vb_of(fd);
    if (!vb || vb->in_call)
        return;
    if (collective)
        vb_other_call(fd, 1);
    else
        vb->foreign++;
}

/* an independent write of count x dt at (fpt, off), before it runs */
static void indep_write(ADIO_File fd, const void *buf, int count, MPI_Datatype dt, int fpt,
                        ADIO_Offset off, int contig)
{
    struct orth_vb *vb = vb_of(fd);
    if (!vb || vb->in_call)
        return;
    if (!vb->dirty || vb->stale) {      /* nothing unsettled: the clean cache goes */
        vb->foreign++;
        return;
    }
    MPI_Count size;
    MPI_Type_size_x(dt, &size);
    ADIO_Offset n = (ADIO_Offset) count * size;
    if (contig) {
        ADIO_Offset at = fpt == ADIO_EXPLICIT_OFFSET ? off : fd->fp_ind;
        vb_add_range(vb, at, at + n);
        vb_log_file(vb, at, n, (char *) buf, 1);
        return;
    }
    ADIO_Offset s0 = fpt == ADIO_EXPLICIT_OFFSET ? off * fd->etype_size
        : vb_vpos(&vb->mine, fd->fp_ind);
    vb_ranges_of(vb, s0, s0 + n);
    char *packed = vb_packed(buf, count, dt, n, 1);
    vb_log_stream(vb, s0, n, packed, 1);
    if (packed != buf)
        ADIOI_Free(packed);
}

void vb_read_overlay(ADIO_File fd, void *buf, int count, MPI_Datatype dt, int fpt,
                     ADIO_Offset off, ADIO_Offset before, int contig)
{
    struct orth_vb *vb = vb_of(fd);
    if (!vb || vb->in_call || !vb->nlog)
        return;
    MPI_Count size;
    MPI_Type_size_x(dt, &size);
    ADIO_Offset n = (ADIO_Offset) count * size;
    if (contig) {
        vb_log_file(vb, fpt == ADIO_EXPLICIT_OFFSET ? off : before, n, buf, 0);
        return;
    }
    ADIO_Offset s0 = fpt == ADIO_EXPLICIT_OFFSET ? off * fd->etype_size
        : vb_vpos(&vb->mine, before);
    char *packed = vb_packed(buf, count, dt, n, 1);
    vb_log_stream(vb, s0, n, packed, 0);
    if (packed != buf) {
        int pos = 0;
        MPI_Unpack(packed, (int) n, &pos, buf, count, dt, MPI_COMM_SELF);
        ADIOI_Free(packed);
    }
}

/* the guards: writes below Orthrus that did not come from view_based (a
 * guard's own lower calls, e.g. data sieving's, are not seen twice) */
#define VB_NESTED(fd, call) do { struct orth_vb *v_ = vb_of(fd); \
        int o_ = v_ ? v_->in_call : 0; if (v_) v_->in_call = 1; call; \
        if (v_) v_->in_call = o_; } while (0)

void vb_WriteContig(ADIO_File fd, const void *buf, int count, MPI_Datatype dt, int fpt,
                    ADIO_Offset off, ADIO_Status *status, int *err)
{
    indep_write(fd, buf, count, dt, fpt, off, 1);
    VB_NESTED(fd, xt_lower(fd, XT_LAYER_orth)->ADIOI_xxx_WriteContig(fd, buf, count, dt, fpt,
                                                                   off, status, err));
}

void vb_WriteStrided(ADIO_File fd, const void *buf, int count, MPI_Datatype dt, int fpt,
                     ADIO_Offset off, ADIO_Status *status, int *err)
{
    indep_write(fd, buf, count, dt, fpt, off, 0);
    VB_NESTED(fd, xt_lower(fd, XT_LAYER_orth)->ADIOI_xxx_WriteStrided(fd, buf, count, dt, fpt,
                                                                    off, status, err));
}

void vb_IwriteContig(ADIO_File fd, const void *buf, int count, MPI_Datatype dt, int fpt,
                     ADIO_Offset off, ADIO_Request *req, int *err)
{
    indep_write(fd, buf, count, dt, fpt, off, 1);
    VB_NESTED(fd, xt_lower(fd, XT_LAYER_orth)->ADIOI_xxx_IwriteContig(fd, buf, count, dt, fpt,
                                                                    off, req, err));
}

void vb_IwriteStrided(ADIO_File fd, const void *buf, int count, MPI_Datatype dt, int fpt,
                      ADIO_Offset off, ADIO_Request *req, int *err)
{
    indep_write(fd, buf, count, dt, fpt, off, 0);
    VB_NESTED(fd, xt_lower(fd, XT_LAYER_orth)->ADIOI_xxx_IwriteStrided(fd, buf, count, dt,
                                                                     fpt, off, req, err));
}

void vb_ReadStrided(ADIO_File fd, void *buf, int count, MPI_Datatype dt, int fpt,
                    ADIO_Offset off, ADIO_Status *status, int *err)
{
    ADIO_Offset before = fd->fp_ind;
    VB_NESTED(fd, xt_lower(fd, XT_LAYER_orth)->ADIOI_xxx_ReadStrided(fd, buf, count, dt, fpt,
                                                                   off, status, err));
    vb_read_overlay(fd, buf, count, dt, fpt, off, before, 0);
}

/* a nonblocking read that meets the log runs blocking (as ROMIO's own
 * nonblocking reads do on most file systems) */
static int iread_blocking(ADIO_File fd, void *buf, int count, MPI_Datatype dt, int fpt,
                          ADIO_Offset off, ADIO_Request *req, int *err, int contig)
{
    struct orth_vb *vb = vb_of(fd);
    if (!vb || vb->in_call || !vb->nlog)
        return 0;
    ADIO_Status st;
    MPI_Count size;
    MPI_Type_size_x(dt, &size);
    if (contig)
        ADIO_ReadContig(fd, buf, count, dt, fpt, off, &st, err);
    else
        vb_ReadStrided(fd, buf, count, dt, fpt, off, &st, err);
    MPIO_Completed_request_create(&fd, *err == MPI_SUCCESS ? (MPI_Offset) count * size : 0,
                                  err, req);
    return 1;
}

void vb_IreadContig(ADIO_File fd, void *buf, int count, MPI_Datatype dt, int fpt,
                    ADIO_Offset off, ADIO_Request *req, int *err)
{
    if (!iread_blocking(fd, buf, count, dt, fpt, off, req, err, 1))
        xt_lower(fd, XT_LAYER_orth)->ADIOI_xxx_IreadContig(fd, buf, count, dt, fpt, off, req,
                                                           err);
}

void vb_IreadStrided(ADIO_File fd, void *buf, int count, MPI_Datatype dt, int fpt,
                     ADIO_Offset off, ADIO_Request *req, int *err)
{
    if (!iread_blocking(fd, buf, count, dt, fpt, off, req, err, 0))
        xt_lower(fd, XT_LAYER_orth)->ADIOI_xxx_IreadStrided(fd, buf, count, dt, fpt, off, req,
                                                            err);
}

/* collective operations that settle the file */
static void settle_then(ADIO_File fd, int cause, int *err)
{
    struct orth_vb *vb = vb_of(fd);
    *err = MPI_SUCCESS;
    if (vb && !vb->in_call)
        vb_settle(fd, vb, cause, err);
}

void vb_Flush(ADIO_File fd, int *err)
{
    int e;
    settle_then(fd, VB_F_SYNC, &e);
    xt_lower(fd, XT_LAYER_orth)->ADIOI_xxx_Flush(fd, err);
    if (e != MPI_SUCCESS)
        *err = e;
}

void vb_Resize(ADIO_File fd, ADIO_Offset size, int *err)
{
    int e;
    settle_then(fd, VB_F_SYNC, &e);
    xt_lower(fd, XT_LAYER_orth)->ADIOI_xxx_Resize(fd, size, err);
    if (e != MPI_SUCCESS)
        *err = e;
}

void vb_Fcntl(ADIO_File fd, int flag, ADIO_Fcntl_t * fs, int *err)
{
    struct orth_vb *vb = vb_of(fd);
    int e = MPI_SUCCESS;
    if (flag == ADIO_FCNTL_SET_ATOMICITY)
        settle_then(fd, VB_F_SYNC, &e);
    if (flag == ADIO_FCNTL_SET_DISKSPACE)      /* rank 0 alone rewrites bytes it read */
        VB_NESTED(fd, xt_lower(fd, XT_LAYER_orth)->ADIOI_xxx_Fcntl(fd, flag, fs, err));
    else
        xt_lower(fd, XT_LAYER_orth)->ADIOI_xxx_Fcntl(fd, flag, fs, err);
    if (flag == ADIO_FCNTL_GET_FSIZE && vb && vb->dirty && fs->fsize < vb->eof)
        fs->fsize = vb->eof;    /* unsettled writes count */
    if (e != MPI_SUCCESS)
        *err = e;
}

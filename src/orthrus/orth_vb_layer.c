/* romio-xt Orthrus view_based: the per-file state (open, set_view, close)
 * and the consistency guards.  Written blocks reach the file before each
 * collective call returns; the cache keeps them for later collective reads.
 * Writes that bypass the cache (independent writes, other candidates' or
 * stock collective writes, other layers' direct writes) make every
 * aggregator drop its blocks at the next view_based call; MPI_File_sync,
 * MPI_File_set_size and MPI_File_set_atomicity write back and drop them
 * (atomic mode itself runs stock two-phase). */
#include "orth_vb.h"

#include <string.h>

const char *const vb_counter_names[] = {
    "vb_cache_hits", "vb_cache_misses", "vb_bytes_flushed", "vb_flushes_call_end",
    "vb_flushes_pool_full", "vb_flushes_sync", "vb_flushes_close", "vb_flushes_set_view",
    "vb_flushes_read_miss", "vb_view_bytes_sent", "vb_view_exchanges", "vb_view_fallbacks",
    "vb_prefetched_bytes", "vb_cache_drops",
};
_Static_assert(sizeof(vb_counter_names) / sizeof(vb_counter_names[0]) == VB_NCOUNTERS,
               "one name per view_based counter");

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
    vb->unit = fd->hints->striping_unit > 0 ? fd->hints->striping_unit
        : fd->hints->cb_buffer_size > 0 ? fd->hints->cb_buffer_size : 16 * 1024 * 1024;
    /* in a selection, view_based may never run (romio_orthrus_budget): its
     * view goes with its first call, set_view costs nothing until then */
    vb->lazy = xt_hint(fd, XT_H_VB_LAZY)->i == XT_H_VB_LAZY_enable || st->forced < 0;
    vb->prefetch = xt_hint(fd, XT_H_VB_PREFETCH)->i == XT_H_VB_PREFETCH_enable;
    vb->stale = 1;              /* the view set at open goes with the first call */
    if (vb->myagg >= 0)
        vb_pool_init(fd, vb);
}

/* flush (collective callers only: every rank calls it) */
static void write_back(ADIO_File fd, struct orth_vb *vb, int cause, int *err)
{
    vb->in_call = 1;
    vb_flush_all(fd, vb, cause, err);
    vb->in_call = 0;
}

void vb_close(ADIO_File fd, struct orth_state *st, int *err)
{
    struct orth_vb *vb = st->vb;
    if (!vb)
        return;
    write_back(fd, vb, VB_F_CLOSE, err);
    vb_pool_free(vb);
    vb_exchange_free(vb);
    ADIOI_Free(vb);
    st->vb = NULL;
}

void vb_set_view(ADIO_File fd, void *state, int error_code)
{
    struct orth_vb *vb = ((struct orth_state *) state)->vb;
    int err = MPI_SUCCESS;
    if (!vb)
        return;
    write_back(fd, vb, VB_F_SET_VIEW, &err);
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
        vb_drop_all(fd, vb);
    else
        vb->indep_writes++;
}

/* the guards: writes below Orthrus that did not come from view_based */
void vb_WriteContig(ADIO_File fd, const void *buf, int count, MPI_Datatype dt, int fpt,
                           ADIO_Offset off, ADIO_Status *status, int *err)
{
    vb_bypassed_write(fd, 0);
    xt_lower(fd, XT_LAYER_orth)->ADIOI_xxx_WriteContig(fd, buf, count, dt, fpt, off, status, err);
}

void vb_WriteStrided(ADIO_File fd, const void *buf, int count, MPI_Datatype dt, int fpt,
                            ADIO_Offset off, ADIO_Status *status, int *err)
{
    vb_bypassed_write(fd, 0);
    xt_lower(fd, XT_LAYER_orth)->ADIOI_xxx_WriteStrided(fd, buf, count, dt, fpt, off, status, err);
}

void vb_IwriteContig(ADIO_File fd, const void *buf, int count, MPI_Datatype dt, int fpt,
                            ADIO_Offset off, ADIO_Request *req, int *err)
{
    vb_bypassed_write(fd, 0);
    xt_lower(fd, XT_LAYER_orth)->ADIOI_xxx_IwriteContig(fd, buf, count, dt, fpt, off, req, err);
}

void vb_IwriteStrided(ADIO_File fd, const void *buf, int count, MPI_Datatype dt, int fpt,
                             ADIO_Offset off, ADIO_Request *req, int *err)
{
    vb_bypassed_write(fd, 0);
    xt_lower(fd, XT_LAYER_orth)->ADIOI_xxx_IwriteStrided(fd, buf, count, dt, fpt, off, req, err);
}

/* collective operations after which the cache must not be trusted */
static void write_back_drop(ADIO_File fd, int cause, int *err)
{
    struct orth_vb *vb = vb_of(fd);
    if (!vb)
        return;
    write_back(fd, vb, cause, err);
    vb_drop_all(fd, vb);
}

void vb_Flush(ADIO_File fd, int *err)
{
    int e = MPI_SUCCESS;
    write_back_drop(fd, VB_F_SYNC, &e);
    xt_lower(fd, XT_LAYER_orth)->ADIOI_xxx_Flush(fd, err);
    if (*err == MPI_SUCCESS)
        *err = e;
}

void vb_Resize(ADIO_File fd, ADIO_Offset size, int *err)
{
    int e = MPI_SUCCESS;
    write_back_drop(fd, VB_F_SYNC, &e);
    xt_lower(fd, XT_LAYER_orth)->ADIOI_xxx_Resize(fd, size, err);
    if (*err == MPI_SUCCESS)
        *err = e;
}

void vb_Fcntl(ADIO_File fd, int flag, ADIO_Fcntl_t * fs, int *err)
{
    int e = MPI_SUCCESS;
    if (flag == ADIO_FCNTL_SET_ATOMICITY)
        write_back_drop(fd, VB_F_SYNC, &e);
    xt_lower(fd, XT_LAYER_orth)->ADIOI_xxx_Fcntl(fd, flag, fs, err);
    if (*err == MPI_SUCCESS)
        *err = e;
}

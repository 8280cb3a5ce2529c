/* romio-xt Orthrus view_based: the candidate's hooks (orth_cand): its
 * per-file state (open, set_view, close) and its consistency guards.  MPI_File_sync, MPI_File_set_size,
 * MPI_File_set_atomicity, MPI_File_set_view, MPI_File_close and a collective
 * call run by another candidate settle the file (every dirty block written,
 * on every aggregator, before any rank goes on).  Between them, independent
 * reads see the rank's own collective writes (its log), independent writes
 * leave their ranges for the aggregators (orth_vb_log.c), other layers'
 * writes make the aggregators drop their clean bytes.  Atomic mode runs stock
 * two-phase (as every Orthrus call does), after a settle. */
#include "orth_vb.h"

#include <string.h>



/* the file-domain block: striping_unit, else cb_buffer_size (one round of
 * an aggregator is one block) until the first call sizes it (orth_vb.c) */
static ADIO_Offset domain_unit(ADIO_File fd)
{
    if (fd->hints->striping_unit > 0)
        return fd->hints->striping_unit;
    return fd->hints->cb_buffer_size > 0 ? fd->hints->cb_buffer_size : 16 * 1024 * 1024;
}

static void vb_open(ADIO_File fd, struct orth_state *st)
{
    struct orth_vb *vb = st->cand[ORTH_view_based] = ADIOI_Calloc(1, sizeof(*vb));
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

/* after its settle at close (orth_cands_close) */
static void vb_close(ADIO_File fd, struct orth_state *st)
{
    struct orth_vb *vb = st->cand[ORTH_view_based];
    (void) fd;
    if (!vb)
        return;
    vb_bg_close(vb);
    vb_pool_free(vb);
    vb_exchange_free(vb);
    VB_FREE(vb->rg);
    ADIOI_Free(vb);
    st->cand[ORTH_view_based] = NULL;
}

/* after its settle at ORTH_AT_VIEW (orth_cands_view) */
static void vb_view(ADIO_File fd, int error_code)
{
    struct orth_vb *vb = vb_of(fd);
    if (!vb)
        return;
    if (vb->lazy)
        vb->stale = 1;
    else
        vb_exchange(fd, vb, error_code == MPI_SUCCESS);
}

/* another layer wrote the file directly */
static void vb_wrote(ADIO_File fd)
{
    struct orth_vb *vb = vb_of(fd);
    if (vb && !vb->in_call)
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

/* an independent read's bytes that this rank wrote collectively and that
 * may not be in the file yet (before: fd->fp_ind before the read) */
static void read_overlay(ADIO_File fd, void *buf, int count, MPI_Datatype dt, int fpt,
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

/* the guard around an operation below Orthrus: an independent write is
 * logged before it; while a nested one runs, what the layers below write
 * in it is not another layer's (a guard's own lower calls, e.g. data
 * sieving's, are not seen twice); an independent read gets this rank's
 * unsettled collective writes after it */
static void vb_indep(ADIO_File fd, struct orth_io *io, int after)
{
    struct orth_vb *vb = vb_of(fd);
    if (!vb)
        return;
    if (!after && io->kind == ORTH_IO_WRITE)
        indep_write(fd, io->buf, io->count, io->dt, io->fpt, io->off, io->contig);
    if (io->nest && !after) {
        io->mark[ORTH_view_based] = vb->in_call;
        vb->in_call = 1;
    } else if (io->nest)
        vb->in_call = io->mark[ORTH_view_based];
    if (after && io->kind == ORTH_IO_READ)
        read_overlay(fd, (void *) io->buf, io->count, io->dt, io->fpt, io->off, io->before,
                     io->contig);
}

/* a nonblocking read that meets the log runs blocking */
static int vb_blocks(ADIO_File fd)
{
    struct orth_vb *vb = vb_of(fd);
    return vb && !vb->in_call && vb->nlog;
}

/* the quiesce points: sync, set_size and set_atomicity (not inside one of
 * its own calls), set_view and close */
static void vb_settle_at(ADIO_File fd, int at, int *err)
{
    static const int cause[] = {[ORTH_AT_SYNC] = VB_F_SYNC,[ORTH_AT_VIEW] = VB_F_SET_VIEW,
        [ORTH_AT_CLOSE] = VB_F_CLOSE
    };
    struct orth_vb *vb = vb_of(fd);
    if (!vb || (at == ORTH_AT_SYNC && vb->in_call))
        return;
    vb_settle(fd, vb, cause[at], err ? err : &vb->werr);        /* NULL: reported at sync
                                                                 * or close */
}

/* unsettled writes count in the file's size */
static void vb_fsize(ADIO_File fd, ADIO_Offset *size)
{
    struct orth_vb *vb = vb_of(fd);
    if (vb && vb->dirty && *size < vb->eof)
        *size = vb->eof;
}

/* its first view exchange in the file is first-use setup, not timed as the
 * call (later ones, after a new view, are part of their call) */
static void vb_setup(struct orth_call *c)
{
    struct orth_vb *vb = vb_of(c->fd);
    if (c->st->runs[ORTH_view_based] == 1 && vb->stale)
        vb_exchange(c->fd, vb, 1);
}

const struct orth_cand orth_view_based_cand = {.name = "view_based",.run = orth_view_based,
    .open = vb_open,.close = vb_close,.setup = vb_setup,.other = vb_other_call,
    .settle = vb_settle_at,.view = vb_view,.indep = vb_indep,.blocks = vb_blocks,
    .fsize = vb_fsize,.wrote = vb_wrote
};

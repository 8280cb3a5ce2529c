/* romio-xt prefetch: what the methods (pf_fadvise.c, pf_buffer.c) and the
 * layer share: the window's move, the reads through the table below, and
 * whether the prefetcher is usable (starting the loaders). */
#include "pf.h"

#include <string.h>

enum pf_move pf_access(ADIO_File fd, struct pf_file *pf, int64_t block, struct pf_plan *plan,
                       pf_drop_fn drop, void *arg)
{
    int64_t was = pf->w.cur;
    enum pf_move mv = pf_window_access(&pf->w, block);
    memset(plan, 0, sizeof(*plan));
    if (mv == PF_OUTSIDE)
        return mv;
    if (mv != PF_STAY) {        /* how fast the reader moves through the blocks */
        double now = xt_now();
        if (mv == PF_ADVANCE && pf->advanced_at >= 0) {
            double per = (now - pf->advanced_at) / (double) (block - was);
            pf->consume_avg = pf->consumes++ ? 0.75 * pf->consume_avg + 0.25 * per : per;
        }
        pf->advanced_at = now;
        if (pf->have_thread)
            pf_thread_more(pf);
    }
    if (mv == PF_JUMP)
        xt_count(fd, XT_LAYER_pf, PF_C_JUMPS, 1);
    pf_slots_reconcile(&pf->t, &pf->w, plan, drop, arg);
    xt_count(fd, XT_LAYER_pf, PF_C_DROPPED_UNUSED, plan->dropped_unused);
    return mv;
}

/* drop everything and pass every later call through */
void pf_switch_off(ADIO_File fd, struct pf_file *pf)
{
    if (pf->off)
        return;
    pf->off = 1;
    if (pf->started)
        pf_thread_stop(pf);
    xt_count(fd, XT_LAYER_pf, PF_C_DISABLED, 1);
}

int pf_usable(ADIO_File fd, struct pf_file *pf)
{
    if (pf->off)
        return 0;
    if (fd->atomicity) {        /* other ranks' writes must show at once */
        if (pf->started)
            pf->m->invalidate(fd, pf, 0, -1);
        return 0;
    }
    if (!pf->started) {
        pf->started = 1;
        pf->fd = fd;
        if (fd->fd_sys < 0 || pf_thread_start(fd, pf) != 0) {
            pf->started = 0;
            pf_switch_off(fd, pf);
            return 0;
        }
    }
    return 1;
}

void pf_read_lower(ADIO_File fd, char *buf, ADIO_Offset off, ADIO_Offset len,
                   ADIO_Offset *nread, int *error_code)
{
    ADIO_Status st;
    int n = 0;
    xt_lower(fd, XT_LAYER_pf)->ADIOI_xxx_ReadContig(fd, buf, (int) len, MPI_BYTE,
                                                 ADIO_EXPLICIT_OFFSET, off, &st, error_code);
    if (*error_code == MPI_SUCCESS)
        MPI_Get_count(&st, MPI_BYTE, &n);
    *nread = n;
    xt_note_request(fd, 0, n);
}

void pf_cancel(ADIO_File fd, struct pf_file *pf)
{
    if (!pf->started || pf->off)
        return;
    pthread_mutex_lock(&pf->lock);
    pf_slots_invalidate(&pf->t, 0, -1, pf->w.bs);
    pf->w.cur = -1;             /* the next read through the window starts it afresh */
    pthread_mutex_unlock(&pf->lock);
}

/* romio-xt prefetch: the background thread, shared by the methods (as
 * Mercury's advisor thread), and more loaders like it when one cannot keep
 * up with the reader (pf_thread_more).  They take the QUEUED slots in window order,
 * fetch them with the method's fetch (pread into the slot's buffer, or
 * POSIX_FADV_WILLNEED), never call MPI or ROMIO, hold no lock during a
 * fetch, and stop at close.  One mutex guards the window and the slots. */
#include "pf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

void pf_load(struct pf_file *pf, struct pf_slot *s)
{
    double t0 = xt_now();
    s->state = PF_SLOT_LOADING;
    s->started = t0;
    pthread_mutex_unlock(&pf->lock);
    int64_t n = pf->m->fetch(pf, s);
    double took = xt_now() - t0;
    pthread_mutex_lock(&pf->lock);
    if (n >= 0)                 /* running average: 3/4 old + 1/4 new */
        pf->load_avg = pf->loads++ ? 0.75 * pf->load_avg + 0.25 * took : took;
    /* counted when fetched, even when the window left it meanwhile (the
     * file system read it all the same) */
    (void) pf_slots_loaded(&pf->t, s, n, pf->w.bs);
    if (n >= 0)
        xt_count(pf->fd, XT_LAYER_pf, PF_C_PREFETCHED, 1);
    pthread_cond_broadcast(&pf->done);
}

/* with pf->lock held: give up the slots the window or the queue no longer
 * wants, queue the ones they want */
static void reconcile(struct pf_file *pf, struct pf_plan *plan)
{
    if (pf->queued)
        pf_queue_reconcile(&pf->t, &pf->q, plan);
    else
        pf_slots_reconcile(&pf->t, &pf->w, plan, NULL, NULL);
}

static void *loader(void *arg)
{
    struct pf_file *pf = arg;
    struct pf_plan plan;
    pthread_mutex_lock(&pf->lock);
    while (!pf->stop) {
        struct pf_slot *s = pf_slots_next(&pf->t);
        if (!s) {
            pthread_cond_wait(&pf->work, &pf->lock);
            continue;
        }
        pf_load(pf, s);
        /* a dropped fetch freed its slot: the window may want another block */
        reconcile(pf, &plan);
    }
    pthread_mutex_unlock(&pf->lock);
    return NULL;
}

int pf_thread_start(ADIO_File fd, struct pf_file *pf)
{
    pthread_mutex_init(&pf->lock, NULL);
    pthread_cond_init(&pf->work, NULL);
    xt_cond_init(&pf->done);    /* readers wait on it until an xt_now() time */
    pf->stop = 0;
    pf->load_avg = pf->own_avg = 0;
    pf->loads = pf->owns = 0;
    pf->advanced_at = -1;
    pf->consume_avg = 0;
    pf->consumes = 0;
    int err = xt_thread_create(fd, &pf->thread[0], loader, pf);
    if (err) {
        xt_warn(fd, XT_WARN_SELF, "hint romio_prefetch: cannot start the prefetch thread for "
                "'%s' (%s); reading without prefetch", fd->filename, strerror(err));
        pthread_cond_destroy(&pf->done);
        pthread_cond_destroy(&pf->work);
        pthread_mutex_destroy(&pf->lock);
        return -1;
    }
    pf->have_thread = 1;
    xt_count(fd, XT_LAYER_pf, PF_C_LOADERS, 1);
    return 0;
}

void pf_thread_more(struct pf_file *pf)
{
    int ahead = pf->queued ? pf->t.n - 1 : pf->w.ahead;
    int max = ahead < PF_MAX_LOADERS ? ahead : PF_MAX_LOADERS;
    int want = pf_gate_loaders(pf->load_avg, pf->consume_avg, max);
    if (want < pf->min_loaders)         /* test hook */
        want = pf->min_loaders < PF_MAX_LOADERS ? pf->min_loaders : PF_MAX_LOADERS;
    while (pf->have_thread > 0 && pf->have_thread < want &&
           xt_thread_create(pf->fd, &pf->thread[pf->have_thread], loader, pf) == 0) {
        pf->have_thread++;
        xt_count(pf->fd, XT_LAYER_pf, PF_C_LOADERS, 1);
    }
}

void pf_thread_stop(struct pf_file *pf)
{
    if (!pf->have_thread)
        return;
    pthread_mutex_lock(&pf->lock);
    pf->stop = 1;
    pthread_cond_broadcast(&pf->work);
    pthread_mutex_unlock(&pf->lock);
    for (int k = 0; k < pf->have_thread; k++)
        pthread_join(pf->thread[k], NULL);
    if (pf->lfd_ok)
        close(pf->lfd);
    pf->lfd_ok = 0;
    for (int k = 0; k < pf->t.n; k++) {
        free(pf->t.s[k].data);
        pf->t.s[k].data = NULL;
        pf->t.s[k].state = PF_SLOT_FREE;
    }
    pthread_cond_destroy(&pf->done);
    pthread_cond_destroy(&pf->work);
    pthread_mutex_destroy(&pf->lock);
    pf->have_thread = 0;
}

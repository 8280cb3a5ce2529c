/* romio-xt prefetch: ranges the application announces during the run
 * (pf_queue.h).  MPI_File_set_info passes through the layer's SetInfo
 * before core's hint pass stores the text in the file's hints: the layer
 * takes each romio_prefetch_willneed list there, call by call (a text that
 * reached the hints otherwise is taken at the next read: one strcmp with
 * the last one applied).  A list whose ranges all have a length replaces
 * the queue ahead (one starting with '+' is appended to it); a list with a
 * length-0 range goes back to the window of blocks over its ranges.  The
 * queue is changed only in the application's thread, under pf->lock (the
 * loaders read it). */
#include "pf.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* with pf->lock held: the reader is at extent i; the ones before are done */
static void advance(ADIO_File fd, struct pf_file *pf, int i)
{
    struct pf_plan plan;
    if (i > pf->q.head || pf->advanced_at < 0) {
        double now = xt_now();
        if (i > pf->q.head && pf->advanced_at >= 0) {
            double per = (now - pf->advanced_at) / (double) (i - pf->q.head);
            pf->consume_avg = pf->consumes++ ? 0.75 * pf->consume_avg + 0.25 * per : per;
        }
        pf->advanced_at = now;
        pf->q.head = i;
        pf_thread_more(pf);
    }
    pf_queue_reconcile(&pf->t, &pf->q, &plan);
    if (plan.nqueued == 1)      /* the common step: one slot freed, one queued */
        pthread_cond_signal(&pf->work);
    else if (plan.nqueued)
        pthread_cond_broadcast(&pf->work);
    xt_count(fd, XT_LAYER_pf, PF_C_DROPPED_UNUSED, plan.dropped_unused);
}

/* the loaders' descriptor (pf.h); on MooseFS, 1177 reads of the ROOT-like
 * pattern with 4 threads: 1.26-1.56 s and 1.5 CPU-s of the file system's
 * daemons through a normal descriptor, 0.88-0.90 s and 1.1 CPU-s with
 * POSIX_FADV_RANDOM.  Without it (no /proc), the loaders use fd_sys. */
static void open_loader_fd(struct pf_file *pf)
{
    char path[64];
    if (pf->lfd_ok || !pf->m->holds_data)
        return;
    snprintf(path, sizeof(path), "/proc/self/fd/%d", pf->fd->fd_sys);
    pf->lfd = open(path, O_RDONLY | O_CLOEXEC);
    pf->lfd_ok = pf->lfd >= 0;
    if (pf->lfd_ok)
        (void) posix_fadvise(pf->lfd, 0, 0, POSIX_FADV_RANDOM);
}

/* with pf->lock held: switch to the queue (all ranges have a length; add:
 * append them to the extents ahead) or back to the window of blocks over the
 * ranges */
static void apply(ADIO_File fd, struct pf_file *pf, const struct pf_range *r, int n, int add)
{
    int queue = n > 0;
    for (int k = 0; k < n; k++)
        queue &= r[k].len > 0;
    if (queue != pf->queued) {  /* what the other mode holds is of no use */
        pf_slots_invalidate(&pf->t, 0, -1, pf->w.bs);
        pf->load_avg = pf->consume_avg = 0;
        pf->loads = pf->consumes = 0;
        pf->advanced_at = -1;
    }
    pf->queued = queue;
    if (!queue) {
        pf_window_init(&pf->w, pf->w.bs, pf->t.n, pf->w.ahead, r, n);
        pf_slots_invalidate(&pf->t, 0, -1, pf->w.bs);
        pf->q.n = pf->q.head = 0;
        return;
    }
    pf->w.cur = -1;
    open_loader_fd(pf);
    if (add && pf->q.n)
        pf_queue_add(&pf->q, r, n, pf->w.bs, PF_QUEUE_GAP);
    else
        pf_queue_build(&pf->q, r, n, pf->w.bs, PF_QUEUE_GAP);
    xt_count(fd, XT_LAYER_pf, PF_C_ANNOUNCED, 1);
    advance(fd, pf, 0);
}

/* a new list: parse and apply it (a bad one: one warning, nothing changes) */
static void announce_text(ADIO_File fd, struct pf_file *pf, const char *text)
{
    struct pf_range r[PF_MAX_RANGES];
    char why[160], warn[1400];
    const int add = text[0] == '+';
    int n = pf_ranges_parse(text + add, r, PF_MAX_RANGES, why, sizeof(why));
    for (int k = 0; add && k < n; k++)
        if (r[k].len <= 0) {
            snprintf(why, sizeof(why), "a '+' list needs a length > 0 in every range");
            n = -1;
        }
    if (n < 0) {
        xt_hint_bad_warning(warn, sizeof(warn), &xt_hint_defs[XT_H_PF_WILLNEED], text, why,
                            pf->text);
        xt_warn(fd, XT_WARN_SELF, "%s", warn);
        return;
    }
    snprintf(pf->text, sizeof(pf->text), "%s", text);
    if (!pf_usable(fd, pf))     /* starts the loaders */
        return;
    pthread_mutex_lock(&pf->lock);
    apply(fd, pf, r, n, add);
    pthread_mutex_unlock(&pf->lock);
}

void pf_announce_info(ADIO_File fd, struct pf_file *pf, MPI_Info info)
{
    char text[1024];
    int flag = 0;
    if (info == MPI_INFO_NULL || pf->off)
        return;
    ADIOI_Info_get(info, xt_hint_defs[XT_H_PF_WILLNEED].name, sizeof(text) - 1, text, &flag);
    if (flag && strlen(text) < sizeof(pf->text))        /* longer: core's pass refuses it */
        announce_text(fd, pf, text);
}

int pf_announce_check(ADIO_File fd, struct pf_file *pf)
{
    struct xt_hint_value *wn = &xt_file(fd)->hints[XT_H_PF_WILLNEED];
    if (strcmp(wn->s, pf->text) != 0) {
        announce_text(fd, pf, wn->s);
        /* a bad list: get_info shows the one in use */
        snprintf(wn->s, sizeof(wn->s), "%s", pf->text);
    }
    return pf->queued;
}

int pf_queue_covers(struct pf_file *pf, ADIO_Offset off)
{
    return pf_queue_find(&pf->q, off) >= 0;     /* q changes only in this thread */
}

/* with pf->lock held: the slot holding extent i once it is loaded (waiting
 * for a loader that has it, loading it here when it is still queued), or
 * NULL when it is not held */
static struct pf_slot *loaded(ADIO_File fd, struct pf_file *pf, int i)
{
    struct pf_slot *s = pf_queue_slot(&pf->t, &pf->q, i);
    if (s && s->state == PF_SLOT_QUEUED && pf->m->holds_data) {
        xt_count(fd, XT_LAYER_pf, PF_C_MISS_QUEUED, 1);
        pf_load(pf, s);         /* the bytes are wanted now: read them here */
        return pf_queue_slot(&pf->t, &pf->q, i);
    }
    if (s && s->state == PF_SLOT_LOADING)
        xt_count(fd, XT_LAYER_pf, PF_C_WAITED, 1);
    while (s && s->state == PF_SLOT_LOADING) {
        pthread_cond_wait(&pf->done, &pf->lock);
        s = pf_queue_slot(&pf->t, &pf->q, i);
    }
    return s;
}

void pf_queue_read(ADIO_File fd, struct pf_file *pf, char *buf, ADIO_Offset off,
                   ADIO_Offset len, ADIO_Offset *nread, int *error_code)
{
    *error_code = MPI_SUCCESS;
    *nread = 0;
    while (*nread < len) {
        ADIO_Offset at = off + *nread, want = len - *nread, got = 0;
        double t0 = xt_now();
        struct pf_slot *s = NULL;
        int instant = 0;        /* READY at once: no wait counted */
        pthread_mutex_lock(&pf->lock);
        int i = pf_queue_find(&pf->q, at);
        if (i >= 0) {
            ADIO_Offset end = pf->q.ext[i].off + pf->q.ext[i].len;
            if (want > end - at)
                want = end - at;
            advance(fd, pf, i);
            s = pf_queue_slot(&pf->t, &pf->q, i);
            instant = s && s->state == PF_SLOT_READY;
            s = loaded(fd, pf, i);
        }
        int ready = s && s->state == PF_SLOT_READY;
        pf->served += ready;
        if (ready && pf->m->holds_data) {
            got = pf_copy_out(pf, s, buf + *nread, at, want);
            pthread_mutex_unlock(&pf->lock);
            xt_count(fd, XT_LAYER_pf, PF_C_HITS, 1);
            xt_count(fd, XT_LAYER_pf, PF_C_BYTES_CACHE, got);
        } else {
            pthread_mutex_unlock(&pf->lock);
            pf_read_lower(fd, buf + *nread, at, want, &got, error_code);
            xt_count(fd, XT_LAYER_pf, i < 0 ? PF_C_PASS_OUTSIDE : PF_C_MISSES, 1);
            xt_count(fd, XT_LAYER_pf, PF_C_BYTES_FS, got);
        }
        if (!instant)
            xt_count(fd, XT_LAYER_pf, PF_C_WAIT_US, (int64_t) ((xt_now() - t0) * 1e6));
        *nread += got;
        if (*error_code != MPI_SUCCESS || got < want)
            break;
    }
}

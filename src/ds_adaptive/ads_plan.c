/* romio-xt adaptive data sieving: the planner (pure). */
#include "ads_plan.h"

int64_t ads_extra_bytes(int64_t off, int64_t gap, int64_t align)
{
    if (gap <= 0)
        return 0;
    if (align <= 1)
        return gap;
    if ((align & (align - 1)) == 0) {   /* a power of two: shifts */
        int64_t mask = align - 1;
        int64_t first = (off + mask) & ~mask, last = (off + gap) & ~mask;
        return last > first ? last - first : 0;
    }
    /* units fully inside the gap, excluding those the neighbours touch */
    int64_t first = (off + align - 1) / align;      /* first unit starting in the gap */
    int64_t last = (off + gap) / align;             /* unit holding the next piece */
    return last > first ? (last - first) * align : 0;
}

int ads_cold_stream(int64_t prev_gap, int64_t next_gap, int64_t len)
{
    if (prev_gap < 0 && next_gap < 0)
        return 1;
    return (prev_gap >= 0 && prev_gap <= len) || (next_gap >= 0 && next_gap <= len);
}

void ads_plan_init(struct ads_plan *p, const struct ads_method *m, const struct ads_ctx *warm,
                   const struct ads_ctx *cold, int (*probe)(void *), void *arg, int max_pieces)
{
    *p = (struct ads_plan) {.m = m, .warm = *warm, .cold = cold ? *cold : *warm,
        .probe = probe, .arg = arg, .max_pieces = max_pieces};
    if (m->prepare) {
        m->prepare(&p->warm);
        m->prepare(&p->cold);
    }
    if (!cold || !probe)
        p->x = &p->warm;
}

static int decide(struct ads_plan *p, int64_t gap, int64_t len)
{
    if (!p->x) {
        int w = p->m->through(&p->warm, &p->w, gap, len);
        if (w == p->m->through(&p->cold, &p->w, gap, len))
            return w;
        p->probed = 1;
        p->x = p->probe(p->arg) ? &p->cold : &p->warm;
    }
    return p->m->through(p->x, &p->w, gap, len);
}

/* decide for the next n gaps at once: 1, 0, or -1 (they differ) */
static int decide_run(struct ads_plan *p, int64_t gap, int64_t len, int64_t n)
{
    int (*run)(const struct ads_ctx *, const struct ads_window *, int64_t, int64_t, int64_t)
        = p->m->through_run;
    if (!run)
        return -1;
    if (!p->x) {
        int w = run(&p->warm, &p->w, gap, len, n), c = run(&p->cold, &p->w, gap, len, n);
        if (w == c || w < 0 || c < 0)
            return w == c ? w : -1;     /* -1: the pieces decide (and probe) one by one */
        p->probed = 1;
        p->x = p->probe(p->arg) ? &p->cold : &p->warm;
    }
    return run(p->x, &p->w, gap, len, n);
}

void ads_plan_start(struct ads_plan *p, int64_t off, int64_t len)
{
    p->w = (struct ads_window) {.start = off, .end = off + len, .npieces = 1, .data = len};
    p->tail_end = 0;
}

int ads_plan_splits(struct ads_plan *p, int64_t len, int64_t stride, int64_t n)
{
    if (p->warm.is_write || n < 1 || stride <= len || p->w.npieces != 1 ||
        decide_run(p, stride - len, len, n) != 0)
        return 0;
    p->split += n;
    return 1;
}

void ads_plan_clear(struct ads_plan *p)
{
    p->w = (struct ads_window) {0};
    p->tail_end = 0;
}

/* a window cut by the buffer may run on to the next piece: a read keeps the
 * stream sequential for the kernel's read-ahead; a write with holes that
 * ends past the end of file writes zeros up to the next window, so the file
 * gets no hole between windows (ext4: fewer extents, 32 MiB of 1 KiB pieces
 * every 16 KiB ~10% faster, as stock's windows) */
static int tail_ok(const struct ads_plan *p)
{
    return !p->warm.is_write || (p->w.holes > 0 && p->w.end >= p->warm.eof);
}

int ads_plan_join(struct ads_plan *p, int64_t off, int64_t len)
{
    struct ads_window *w = &p->w;
    if (w->npieces == 0) {
        ads_plan_start(p, off, len);
        return 1;
    }
    int64_t gap = off - w->end;
    if (gap < 0 || w->npieces >= p->max_pieces)
        return 0;
    if (gap > 0 || w->holes > 0) {
        /* a window with holes is buffered: it must fit.  One cut here only
         * by the buffer runs on up to the next piece (or the buffer's end)
         * when the method would go through the gap (tail_ok) */
        if (off + len - w->start > p->warm.max_window) {
            if (gap > 0 && tail_ok(p) && decide(p, gap, len))
                p->tail_end = off < w->start + p->warm.max_window ? off
                    : w->start + p->warm.max_window;
            return 0;
        }
        if (gap > 0) {
            if (!decide(p, gap, len)) {
                p->split++;
                return 0;
            }
            p->through++;
        }
    }
    w->end = off + len;
    w->holes += gap;
    w->data += len;
    w->npieces++;
    return 1;
}

int64_t ads_plan_join_run(struct ads_plan *p, int64_t off, int64_t len, int64_t stride, int64_t n)
{
    struct ads_window *w = &p->w;
    int64_t k = 0, gap = stride - len;
    /* the first two one by one: the window's first gap is special */
    for (; k < n && k < 2; k++)
        if (!ads_plan_join(p, off + k * stride, len))
            return k;
    if (k == n)
        return k;
    int64_t m = n - k;      /* pieces left that may join */
    if (m > p->max_pieces - w->npieces)
        m = p->max_pieces - w->npieces;
    if (w->holes > 0 && m > (p->warm.max_window - (w->end - w->start)) / stride)
        m = (p->warm.max_window - (w->end - w->start)) / stride;
    if (m <= 0)
        return k;
    int d = gap > 0 ? decide_run(p, gap, len, m) : 1;
    if (d < 0) {
        for (; k < n; k++)
            if (!ads_plan_join(p, off + k * stride, len))
                break;
        return k;
    }
    if (d == 0) {
        p->split++;
        return k;
    }
    w->end += m * stride;
    w->holes += m * gap;
    w->data += m * len;
    w->npieces += (int) m;
    p->through += gap > 0 ? m : 0;
    /* the next piece is refused by the limits: offered as a piece it notes
     * where the window may end */
    for (k += m; k < n; k++)
        if (!ads_plan_join(p, off + k * stride, len))
            break;
    return k;
}

struct ads_window ads_plan_window(const struct ads_plan *p)
{
    struct ads_window w = p->w;
    int64_t end = p->m->end(&p->warm, &w);
    if (p->tail_end > end)
        end = p->tail_end;
    if (end > w.end) {
        w.holes += end - w.end;
        w.end = end;
    }
    return w;
}

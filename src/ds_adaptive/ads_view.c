/* romio-xt adaptive data sieving: view arithmetic (pure). */
#include "ads_view.h"

int64_t ads_view_init(struct ads_view *v, int64_t base, int64_t extent, int n,
                      const int64_t *idx, const int64_t *len, int64_t *cum)
{
    v->base = base;
    v->extent = extent;
    v->n = n;
    v->idx = idx;
    v->len = len;
    v->cum = cum;
    cum[0] = 0;
    v->reg_len = n > 0 && len[0] > 0 ? len[0] : 0;
    v->reg_stride = n > 1 ? idx[1] - idx[0] : extent;
    for (int i = 0; i < n; i++) {
        cum[i + 1] = cum[i] + len[i];
        if (len[i] != v->reg_len || (i > 0 && idx[i] - idx[i - 1] != v->reg_stride))
            v->reg_len = 0;
    }
    if (v->reg_stride < v->reg_len)
        v->reg_len = 0;
    v->reg_tiles = v->reg_len > 0 && extent == n * v->reg_stride;
    return cum[n];
}

/* the block holding data byte r of a tile: last i with cum[i] <= r (len[i] > 0) */
static int block_of(const struct ads_view *v, int64_t r)
{
    int lo = 0, hi = v->n - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (v->cum[mid] <= r)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

int64_t ads_view_addr(const struct ads_view *v, int64_t pos)
{
    int64_t size = v->cum[v->n];
    int64_t t = pos / size, r = pos % size;
    int i = block_of(v, r);
    return v->base + t * v->extent + v->idx[i] + (r - v->cum[i]);
}

int64_t ads_view_pos(const struct ads_view *v, int64_t addr)
{
    int64_t size = v->cum[v->n], a = addr - v->base;
    int64_t t = (a - v->idx[0]) / v->extent;
    if (a - v->idx[0] < 0)
        t = 0;
    int64_t local = a - t * v->extent;
    for (int i = 0; i < v->n; i++)
        if (v->len[i] > 0 && v->idx[i] + v->len[i] > local)
            return t * size + v->cum[i] + (local > v->idx[i] ? local - v->idx[i] : 0);
    return (t + 1) * size;      /* past the last block: the next tile's start */
}

void ads_run_begin(struct ads_run_iter *it, const struct ads_view *v, int64_t pos, int64_t count)
{
    *it = (struct ads_run_iter) {.v = v, .pos = pos, .end = pos + count};
}

int ads_run_next(struct ads_run_iter *it, int64_t *addr, int64_t *len)
{
    const struct ads_view *v = it->v;
    if (it->pos >= it->end)
        return 0;
    int64_t size = v->cum[v->n];
    if (!it->started) {
        it->tile = it->pos / size;
        it->blk = block_of(v, it->pos % size);
        it->started = 1;
    }
    while (v->len[it->blk] == 0 ||
           it->pos >= it->tile * size + v->cum[it->blk] + v->len[it->blk]) {
        if (++it->blk == v->n) {        /* next tile */
            it->blk = 0;
            it->tile++;
        }
    }
    int64_t r = it->pos - it->tile * size - v->cum[it->blk];
    int64_t n = v->len[it->blk] - r;
    if (n > it->end - it->pos)
        n = it->end - it->pos;
    *addr = v->base + it->tile * v->extent + v->idx[it->blk] + r;
    *len = n;
    it->pos += n;
    return 1;
}

void ads_piece_begin(struct ads_piece_iter *it, const struct ads_view *file, int64_t file_pos,
                     const struct ads_view *mem, int64_t mem_pos, int64_t count)
{
    ads_run_begin(&it->file, file, file_pos, count);
    ads_run_begin(&it->mem, mem, mem_pos, count);
    it->f_left = it->m_left = 0;
}

int ads_piece_next(struct ads_piece_iter *it, struct ads_piece *p)
{
    if (it->f_left == 0 && !ads_run_next(&it->file, &it->f_addr, &it->f_left))
        return 0;
    if (it->m_left == 0 && !ads_run_next(&it->mem, &it->m_addr, &it->m_left))
        return 0;
    int64_t n = it->f_left < it->m_left ? it->f_left : it->m_left;
    *p = (struct ads_piece) {.off = it->f_addr, .mem = it->m_addr, .len = n};
    it->f_addr += n;
    it->f_left -= n;
    it->m_addr += n;
    it->m_left -= n;
    return 1;
}

/* the whole blocks of a regular view right after the run it last gave (which
 * ended a block): at most max; skips over them */
static int64_t take_blocks(struct ads_run_iter *it, int64_t max)
{
    const struct ads_view *v = it->v;
    int64_t k = (it->end - it->pos) / v->reg_len;
    if (!v->reg_tiles && k > v->n - 1 - it->blk)
        k = v->n - 1 - it->blk;     /* the next tile starts elsewhere */
    if (k > max)
        k = max;
    if (k <= 0)
        return 0;
    int64_t b = it->blk + k;
    it->tile += b / v->n;
    it->blk = (int) (b % v->n);
    it->pos += k * v->reg_len;
    return k;
}

int ads_seg_next(struct ads_piece_iter *it, struct ads_seg *s, int64_t max)
{
    struct ads_piece p;
    if (!ads_piece_next(it, &p))
        return 0;
    const struct ads_view *fv = it->file.v;
    *s = (struct ads_seg) {.off = p.off, .mem = p.mem, .len = p.len, .stride = p.len,
        .mstride = p.len, .count = 1};
    /* p is a whole block of a regular view, and memory goes on contiguously */
    if (fv->reg_len == 0 || p.len != fv->reg_len || it->f_left != 0 || max <= 1)
        return 1;
    int64_t k = take_blocks(&it->file, it->m_left / p.len < max - 1 ? it->m_left / p.len : max - 1);
    it->m_addr += k * p.len;
    it->m_left -= k * p.len;
    s->count += k;
    s->stride = k ? fv->reg_stride : p.len;
    return 1;
}

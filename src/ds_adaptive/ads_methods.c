/* romio-xt adaptive data sieving: the decision methods.  Each is one const
 * struct; its heuristic lives in its functions. */
#include "ads_plan.h"
#include "xt_hints.h"

#include <string.h>

static int64_t min64(int64_t a, int64_t b)
{
    return a < b ? a : b;
}

static int64_t extent_end(const struct ads_ctx *x, const struct ads_window *w)
{
    return w->end;
}

/* fill the buffer as ROMIO does: the window runs to max_window bytes or to
 * the end of the access, even past its last piece */
static int64_t fill_end(const struct ads_ctx *x, const struct ads_window *w)
{
    if (w->holes == 0)
        return w->end;      /* contiguous: nothing to sieve */
    return min64(w->start + x->max_window, x->access_end);
}

static int never(const struct ads_ctx *x, const struct ads_window *w, int64_t gap, int64_t len)
{
    return 0;
}

static int never_run(const struct ads_ctx *x, const struct ads_window *w, int64_t gap,
                     int64_t len, int64_t n)
{
    return 0;
}

static int always_run(const struct ads_ctx *x, const struct ads_window *w, int64_t gap,
                      int64_t len, int64_t n)
{
    return 1;
}

static int always(const struct ads_ctx *x, const struct ads_window *w, int64_t gap, int64_t len)
{
    return 1;
}

/* Chen et al.: the hole costs less to transfer than a new request, i.e. it
 * is shorter than latency x bandwidth bytes */
static void model_prepare(struct ads_ctx *x)
{
    const struct ads_cost *k = x->is_write ? &x->c->write : &x->c->read;
    x->t[0] = (k->lat + (x->is_write ? x->c->fill_lat : 0)) * k->bw;
}

static int hole_cheaper(const struct ads_ctx *x, const struct ads_window *w, int64_t gap,
                        int64_t len)
{
    return gap < x->t[0];
}

static int hole_cheaper_run(const struct ads_ctx *x, const struct ads_window *w, int64_t gap,
                            int64_t len, int64_t n)
{
    return gap < x->t[0];
}

static double read_time(const struct ads_cost *k, int64_t bytes)
{
    return bytes > 0 ? bytes / k->bw : 0;
}

/* a small write past the end of file (it extends the file) */
static double append_lat(const struct ads_costs *c)
{
    return c->append_lat > 0 ? c->append_lat : c->write.lat;
}

/* t[0]: hole bytes a read request is worth; t[1]: hole bytes below EOF a
 * write request of whole alignment units is worth (read and written back);
 * t[3]: the same for a request that covers part of a unit (it reads the
 * unit first when it is not cached); t[2]: past EOF (written) */
static void adaptive_prepare(struct ads_ctx *x)
{
    const struct ads_costs *c = x->c;
    x->t[0] = c->read.lat * c->read.bw;
    x->t[1] = c->write.lat / (1 / c->write.bw + 1 / c->read.bw);
    x->t[3] = (c->write.lat + c->fill_lat) / (1 / c->write.bw + 1 / c->read.bw);
    x->t[2] = append_lat(c) * c->write.bw;
}

/* do pieces of len bytes, gap bytes apart, cover parts of alignment units? */
static int partial_units(const struct ads_ctx *x, int64_t gap, int64_t len)
{
    int64_t a = x->c->align;
    return a > 1 && (len % a != 0 || gap % a != 0);
}

/* hole bytes below EOF worth a write request of such pieces (t[1] or t[3]) */
static double write_worth(const struct ads_ctx *x, int64_t gap, int64_t len)
{
    return partial_units(x, gap, len) ? x->t[3] : x->t[1];
}

/* reads: only alignment units the neighbours do not touch cost anything,
 * and nothing past the end of file costs anything */
static int adaptive_read(const struct ads_ctx *x, int64_t off, int64_t gap)
{
    int64_t below_eof = min64(gap, x->eof - off);
    return ads_extra_bytes(off, below_eof, x->c->align) < x->t[0];
}

/* writes: going through the gap means read-modify-write.  The first gap of a
 * window pays the read of the window; judge it by the window the pattern
 * would fill (pieces of len bytes every gap + len bytes, up to max_window
 * and the end of the access) against writing those pieces one by one.  Later
 * gaps cost their bytes, read (below EOF) and written back, against one more
 * write request. */
static int adaptive_write(const struct ads_ctx *x, const struct ads_window *w, int64_t gap,
                          int64_t len)
{
    const struct ads_costs *c = x->c;
    if (w->holes > 0)
        return w->end + gap <= x->eof ? gap < write_worth(x, gap, len) : gap < x->t[2];
    int64_t span = min64(x->max_window - (w->end - w->start), x->access_end - w->end);
    int64_t k = span / (gap + len);
    if (k < 1)
        k = 1;
    int64_t window = (w->end - w->start) + k * (gap + len);
    int64_t below_eof = min64(window, x->eof - w->start);
    double rmw = (below_eof > 0 ? c->read.lat + read_time(&c->read, below_eof) : 0)
        + c->write.lat + window / c->write.bw;
    double lat = below_eof > 0 ? c->write.lat + (partial_units(x, gap, len) ? c->fill_lat : 0)
        : append_lat(c);
    double separate = (1 + k) * lat + (w->data + k * len) / c->write.bw;
    return rmw < separate;
}

static int adaptive(const struct ads_ctx *x, const struct ads_window *w, int64_t gap, int64_t len)
{
    return x->is_write ? adaptive_write(x, w, gap, len) : adaptive_read(x, w->end, gap);
}

/* the next n gaps of a regular run, in a window with holes already: reads
 * count the alignment units inside a gap, floor(gap / align) or one less
 * depending on where it starts; writes compare against the end of file */
static int adaptive_run(const struct ads_ctx *x, const struct ads_window *w, int64_t gap,
                        int64_t len, int64_t n)
{
    int64_t last_end = w->end + n * (gap + len);
    if (x->is_write) {
        int lo = gap < write_worth(x, gap, len), hi = gap < x->t[2];
        return last_end - len <= x->eof ? lo : w->end + gap > x->eof ? hi : lo == hi ? lo : -1;
    }
    if (last_end - len > x->eof)
        return -1;          /* past the end of file: gap by gap */
    int64_t a = x->c->align > 1 ? x->c->align : 1;
    int64_t most = gap / a * a, least = a > 1 && most >= a ? most - a : most;
    if (most < x->t[0])
        return 1;
    return least >= x->t[0] ? 0 : -1;
}

static const struct ads_method ads_naive = {
    .name = "naive", .doc = "one request per contiguous piece; never through a hole",
    .through = never, .end = extent_end, .through_run = never_run,
};
static const struct ads_method ads_romio = {
    .name = "romio", .doc = "always through holes, filling the buffer (stock ROMIO's rule)",
    .through = always, .end = fill_end, .through_run = always_run,
};
static const struct ads_method ads_model = {
    .name = "model", .doc = "through a hole when transferring it costs less than a request "
        "(Chen et al.); fills the buffer",
    .prepare = model_prepare, .through = hole_cheaper, .end = fill_end,
    .through_run = hole_cheaper_run,
};
static const struct ads_method ads_extent = {
    .name = "extent", .doc = "as model, but never past the last needed byte",
    .prepare = model_prepare, .through = hole_cheaper, .end = extent_end,
    .through_run = hole_cheaper_run,
};
static const struct ads_method ads_adaptive = {
    .name = "adaptive", .doc = "model + extent + block/stripe alignment + separate read and "
        "write costs + end-of-file and page-cache awareness",
    .prepare = adaptive_prepare, .through = adaptive, .end = extent_end,
    .through_run = adaptive_run,
};

/* by romio_ads_method's choice (ADS_METHOD_LIST, ads_hints.def) */
#define ADS_METHOD(h, name) [h##_##name] = &ads_##name,
const struct ads_method *const ads_methods[] = { ADS_METHOD_LIST(ADS_METHOD, XT_H_ADS_METHOD) };
#undef ADS_METHOD
XT_STATIC_ASSERT_CHOICES(ads_methods, XT_H_ADS_METHOD);
const int ads_nmethods = sizeof(ads_methods) / sizeof(ads_methods[0]);

const struct ads_method *ads_method_find(const char *name)
{
    for (int k = 0; k < ads_nmethods; k++)
        if (strcmp(ads_methods[k]->name, name) == 0)
            return ads_methods[k];
    return NULL;
}

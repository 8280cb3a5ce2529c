/* romio-xt prefetch: the sliding window and the willneed ranges (pure). */
#include "pf_window.h"
#include "xt_hints.h"

#include <stdio.h>
#include <string.h>

/* one size with an optional k/m/g suffix, through the hint table's parser */
static int parse_size(const char *text, size_t n, int64_t *out, char *why, size_t whylen)
{
    static const struct xt_hint_def size_def = {
        .name = "size", .type = XT_SIZE, .defval = "0", .min = 0, .max = 9.2e18,
    };
    char buf[64], reason[96];
    struct xt_hint_value v;
    if (n == 0 || n >= sizeof(buf)) {
        snprintf(why, whylen, "'%.*s' is not a size", (int) (n < 40 ? n : 40), text);
        return -1;
    }
    memcpy(buf, text, n);
    buf[n] = '\0';
    if (xt_hint_parse(&size_def, buf, &v, reason, sizeof(reason)) != 0) {
        snprintf(why, whylen, "'%s': %s", buf, reason);
        return -1;
    }
    *out = v.i;
    return 0;
}

int pf_ranges_parse(const char *text, struct pf_range *out, int max, char *why, size_t whylen)
{
    int n = 0;
    const char *p = text;
    if (!p || !*p) {
        snprintf(why, whylen, "empty list");
        return -1;
    }
    while (*p) {
        const char *comma = strchr(p, ',');
        const char *end = comma ? comma : p + strlen(p);
        const char *colon = memchr(p, ':', (size_t) (end - p));
        if (!colon) {
            snprintf(why, whylen, "'%.*s' is not offset:length", (int) (end - p), p);
            return -1;
        }
        if (n == max) {
            snprintf(why, whylen, "more than %d ranges", max);
            return -1;
        }
        if (parse_size(p, (size_t) (colon - p), &out[n].off, why, whylen) != 0 ||
            parse_size(colon + 1, (size_t) (end - colon - 1), &out[n].len, why, whylen) != 0)
            return -1;
        n++;
        p = comma ? comma + 1 : end;
        if (comma && !*p) {
            snprintf(why, whylen, "trailing comma");
            return -1;
        }
    }
    return n;
}

void pf_window_init(struct pf_window *w, int64_t bs, int cache_blocks, int ahead,
                    const struct pf_range *ranges, int nranges)
{
    memset(w, 0, sizeof(*w));
    w->bs = bs > 0 ? bs : 1;
    if (cache_blocks < 1)
        cache_blocks = 1;
    w->ahead = ahead < 0 ? 0 : ahead > cache_blocks - 1 ? cache_blocks - 1 : ahead;
    w->back = cache_blocks - 1 - w->ahead;
    w->cur = -1;
    w->nranges = nranges < 0 ? 0 : nranges > PF_MAX_RANGES ? PF_MAX_RANGES : nranges;
    memcpy(w->ranges, ranges, sizeof(*ranges) * w->nranges);
}

int pf_window_covers(const struct pf_window *w, int64_t block)
{
    if (block < 0)
        return 0;
    int64_t lo = block * w->bs, hi = lo + w->bs;
    for (int r = 0; r < w->nranges; r++) {
        const struct pf_range *g = &w->ranges[r];
        if (g->off < hi && (g->len == 0 || g->off + g->len > lo))
            return 1;
    }
    return 0;
}

static int in_window(const struct pf_window *w, int64_t block)
{
    return w->cur >= 0 && block >= w->cur - w->back && block <= w->cur + w->ahead;
}

enum pf_move pf_window_access(struct pf_window *w, int64_t block)
{
    if (!pf_window_covers(w, block))
        return PF_OUTSIDE;
    if (w->cur < 0) {
        w->cur = block;
        return PF_FIRST;
    }
    if (!in_window(w, block)) {
        w->cur = block;
        return PF_JUMP;
    }
    if (block <= w->cur)
        return PF_STAY;
    w->cur = block;
    return PF_ADVANCE;
}

int pf_window_keeps(const struct pf_window *w, int64_t block)
{
    return in_window(w, block) && pf_window_covers(w, block);
}

int64_t pf_window_wanted(const struct pf_window *w, int k)
{
    if (w->cur < 0 || k < 0 || k > w->ahead)
        return -1;
    return pf_window_covers(w, w->cur + k) ? w->cur + k : -1;
}

/* romio-xt: validation of ROMIO's own hints (xt_romiohints.h). */
#include "xt_romiohints.h"
#include "xt_hints.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum romio_kind {
    R_SIZE,     /* bytes: a whole number, k/m/g suffix rewritten to bytes */
    R_COUNT,    /* a whole number */
    R_SWITCH,   /* enable|disable|automatic (ROMIO also takes requested) */
    R_BOOL,     /* true|false */
    R_AGGS,     /* cb_config_list: name[:count|*] items, comma separated */
};

/* ROMIO's hints (adio/common/ad_hints.c), their defaults (adioi.h) and the
 * range that ROMIO survives: a buffer ROMIO allocates at open stays <= 1 GiB.
 * romio_ds_read/romio_ds_write are rows of romio-xt's own table
 * (ds_adaptive): its hint pass checks them. */
static const struct romio_hint {
    const char *name;
    enum romio_kind kind;
    long long min, max;
    const char *dflt;
} hints[] = {
    {"cb_buffer_size", R_SIZE, 1, 1LL << 30, "16777216"},
    {"ind_rd_buffer_size", R_SIZE, 1, 1LL << 30, "4194304"},
    {"ind_wr_buffer_size", R_SIZE, 1, 1LL << 30, "524288"},
    {"striping_unit", R_SIZE, 0, INT_MAX, "0"},
    {"striping_factor", R_COUNT, 0, INT_MAX, "0"},
    {"cb_nodes", R_COUNT, 1, INT_MAX, "as many aggregators as cb_config_list names"},
    {"cb_config_list", R_AGGS, 0, 0, "*:1"},
    {"romio_cb_read", R_SWITCH, 0, 0, "automatic"},
    {"romio_cb_write", R_SWITCH, 0, 0, "automatic"},
    {"romio_cb_alltoall", R_SWITCH, 0, 0, "automatic"},
    {"romio_cb_pfr", R_SWITCH, 0, 0, "disable"},
    {"romio_cb_fr_type", R_COUNT, -2, INT_MAX, "0"},
    {"romio_cb_fr_alignment", R_SIZE, 1, INT_MAX, "1"},
    {"romio_cb_ds_threshold", R_COUNT, 0, INT_MAX, "0"},
    {"romio_no_indep_rw", R_BOOL, 0, 0, "false"},
    {"romio_min_fdomain_size", R_SIZE, 0, INT_MAX, "0"},
    {"romio_synchronized_flush", R_SWITCH, 0, 0, "disable"},
};
enum { NHINTS = sizeof(hints) / sizeof(hints[0]) };

int xt_romio_nhints(void)
{
    return NHINTS;
}

const char *xt_romio_name(int k)
{
    return k >= 0 && k < NHINTS ? hints[k].name : NULL;
}

static const struct romio_hint *find(const char *key)
{
    for (int k = 0; k < NHINTS; k++)
        if (strcmp(hints[k].name, key) == 0)
            return &hints[k];
    return NULL;
}

/* a whole number (R_SIZE: with a unit) in [min, max]: 0 and *v, else -1 and why */
static int whole(const struct romio_hint *h, const char *raw, long long *v, char *why,
                 size_t wl)
{
    char *end;
    errno = 0;
    long long n = strtoll(raw, &end, 10), mult = 1;
    if (end == raw || errno == ERANGE) {
        snprintf(why, wl, end == raw ? "not a whole number" : "out of range [%lld, %lld]",
                 h->min, h->max);
        return -1;
    }
    while (isspace((unsigned char) *end))
        end++;
    if (*end && (h->kind != R_SIZE || !(mult = xt_size_unit(end)))) {
        snprintf(why, wl, h->kind == R_SIZE ? "not a size (bytes, or with k/m/g)"
                 : "not a whole number");
        return -1;
    }
    if (__builtin_mul_overflow(n, mult, v) || *v < h->min || *v > h->max) {
        snprintf(why, wl, "out of range [%lld, %lld]", h->min, h->max);
        return -1;
    }
    return 0;
}

/* ROMIO's spellings: exactly lower or upper case */
static int one_of(const char *raw, const char *const *words)
{
    for (; *words; words++) {
        char upper[16];
        size_t n = strlen(*words);
        for (size_t i = 0; i <= n && i < sizeof(upper); i++)
            upper[i] = (char) toupper((unsigned char) (*words)[i]);
        if (strcmp(raw, *words) == 0 || strcmp(raw, upper) == 0)
            return 1;
    }
    return 0;
}

/* one cb_config_list item: '*' or a name without '*', then optionally ':'
 * and a positive count or '*' */
static int aggs_item(const char *s, size_t n)
{
    const char *colon = memchr(s, ':', n);
    size_t nl = colon ? (size_t) (colon - s) : n;
    if (nl == 0 || (memchr(s, '*', nl) && nl != 1))
        return 0;
    if (!colon)
        return 1;
    const char *c = colon + 1;
    size_t cl = n - nl - 1;
    if (cl == 1 && *c == '*')
        return 1;
    if (cl == 0 || cl > 9 || *c == '0')
        return 0;
    for (size_t i = 0; i < cl; i++)
        if (!isdigit((unsigned char) c[i]))
            return 0;
    return 1;
}

static int aggs_ok(const char *raw)
{
    if (!*raw)
        return 0;
    for (const char *p = raw;;) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t) (comma - p) : strlen(p);
        if (!aggs_item(p, n))
            return 0;
        if (!comma)
            return 1;
        p = comma + 1;
    }
}

/* the warning; what is used: used, ROMIO's default (at open: a value in
 * quotes, a description after a colon) or the current value */
static void say(char *warn, size_t wl, const struct romio_hint *h, const char *raw,
                const char *why, const char *used, int at_open)
{
    char what[96];
    if (used)
        snprintf(what, sizeof(what), "'%s'", used);
    else if (at_open)
        snprintf(what, sizeof(what), strchr(h->dflt, ' ') ? "ROMIO's default: %s" :
                 "ROMIO's default '%s'", h->dflt);
    else
        snprintf(what, sizeof(what), "the current value");
    snprintf(warn, wl, "ROMIO hint %s: bad value '%.64s' (%s); using %s", h->name, raw, why,
             what);
}

static enum xt_romio_verdict check_words(const struct romio_hint *h, const char *raw,
                                         int at_open, char *warn, size_t wl)
{
    static const char *const sw[] = { "enable", "disable", "automatic", "requested", NULL };
    static const char *const tf[] = { "true", "false", NULL };
    char why[96];
    if (h->kind == R_SWITCH && one_of(raw, sw))
        return XT_ROMIO_OK;
    if (h->kind == R_BOOL && one_of(raw, tf))
        return XT_ROMIO_OK;
    if (h->kind == R_AGGS && strlen(raw) < 1024 && aggs_ok(raw))
        return XT_ROMIO_OK;
    snprintf(why, sizeof(why), "%s", h->kind == R_SWITCH ? "expected enable|disable|automatic"
             : h->kind == R_BOOL ? "expected true|false" :
             "expected name[:count],... with name * or a host and count >= 1 or *");
    say(warn, wl, h, raw, why, NULL, at_open);
    return XT_ROMIO_DROP;
}

enum xt_romio_verdict xt_romio_check(const char *key, const char *raw, int at_open,
                                     char *fixed, size_t flen, char *warn, size_t wl)
{
    const struct romio_hint *h = find(key);
    char why[96];
    long long v;
    if (!h)
        return XT_ROMIO_OK;
    if (h->kind != R_SIZE && h->kind != R_COUNT)
        return check_words(h, raw, at_open, warn, wl);
    if (whole(h, raw, &v, why, sizeof(why)) != 0) {
        say(warn, wl, h, raw, why, NULL, at_open);
        return XT_ROMIO_DROP;
    }
    if (atoll(raw) == v)        /* ROMIO's atoi reads the same */
        return XT_ROMIO_OK;
    snprintf(fixed, flen, "%lld", v);
    say(warn, wl, h, raw, "ROMIO reads whole bytes only", fixed, at_open);
    return XT_ROMIO_FIX;
}

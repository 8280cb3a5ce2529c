/* romio-xt: hint table instance and pure parsing/validation. */
#include "xt_hints.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define XT_PREFIX(p)
#define XT_AUTO(hint, value, needs, gate)
#define XT_RULE(kind, a, b)
#define XT_HINT(id_, name_, type_, def_, min_, max_, choices_, flags_, env_, doc_) \
    [id_] = {.name = name_, .type = type_, .defval = def_, .min = min_, .max = max_, \
             .choices = XT_LIST_TEXT(choices_, XT_BAR_TEXT), .flags = flags_, .env = env_, \
             .doc = doc_},
const struct xt_hint_def xt_hint_defs[XT_NHINTS] = {
#include "xt_modules.h"
};
#undef XT_HINT
#undef XT_RULE
#define XT_HINT(...)
#define XT_RULE(kind_, a_, b_) {.kind = kind_, .a = a_, .b = b_},
const struct xt_hint_rule xt_hint_rules[XT_NRULES + 1] = {
#include "xt_modules.h"
};
#undef XT_RULE
#undef XT_PREFIX
#define XT_RULE(kind, a, b)
#define XT_PREFIX(p) p,
const char *const xt_hint_prefixes[] = {
#include "xt_modules.h"
    NULL
};
#undef XT_PREFIX
#define XT_PREFIX(p)
#undef XT_AUTO
#define XT_AUTO(hint_, value_, needs_, gate_) \
    {.hint = hint_, .value = value_, .needs = needs_, .gate = gate_},
const struct xt_auto_row xt_auto_rows[XT_NAUTO] = {
#include "xt_modules.h"
};
#undef XT_AUTO
#undef XT_PREFIX
#undef XT_RULE
#undef XT_HINT

int xt_auto_needed(int h)
{
    for (int k = 0; k < XT_NAUTO; k++)
        if (xt_auto_rows[k].needs == h)
            return 1;
    return 0;
}

unsigned xt_auto_choose(struct xt_hint_value *vals, const char *const *given)
{
    unsigned chose = 0;
    char why[160];
    if (vals[XT_H_XT].i != XT_H_XT_auto)
        return 0;
    for (int k = 0; k < XT_NAUTO; k++) {
        const struct xt_auto_row *r = &xt_auto_rows[k];
        if (given[r->hint] || (r->needs != XT_AUTO_ANY && !given[r->needs]))
            continue;
        if (xt_hint_parse(&xt_hint_defs[r->hint], r->value, &vals[r->hint], why,
                          sizeof(why)) == 0)
            chose |= 1u << k;
    }
    return chose;
}

int xt_hint_rule_check(const struct xt_hint_rule *r, struct xt_hint_value *vals, char *warn,
                       size_t len)
{
    struct xt_hint_value *a = &vals[r->a];
    int64_t b = vals[r->b].i;
    char raw[32], why[160];
    if (r->kind != XT_BELOW || a->i < b)
        return 0;
    snprintf(raw, sizeof(raw), "%lld", (long long) a->i);
    snprintf(why, sizeof(why), "must be below %s=%lld", xt_hint_defs[r->b].name, (long long) b);
    a->i = b - 1;
    a->d = (double) a->i;
    snprintf(a->s, sizeof(a->s), "%lld", (long long) a->i);
    xt_hint_bad_warning(warn, len, &xt_hint_defs[r->a], raw, why, a->s);
    return 1;
}

int xt_choice_index(const char *choices, const char *word)
{
    size_t wlen = strlen(word);
    int idx = 0;
    for (const char *p = choices; p && *p; idx++) {
        const char *bar = strchr(p, '|');
        size_t n = bar ? (size_t) (bar - p) : strlen(p);
        if (n == wlen && strncasecmp(p, word, n) == 0)
            return idx;
        p = bar ? bar + 1 : NULL;
    }
    return -1;
}

static void choice_text(const char *choices, int idx, char *out, size_t len)
{
    const char *p = choices;
    for (int i = 0; i < idx && p; i++) {
        p = strchr(p, '|');
        p = p ? p + 1 : NULL;
    }
    const char *bar = p ? strchr(p, '|') : NULL;
    size_t n = p ? (bar ? (size_t) (bar - p) : strlen(p)) : 0;
    snprintf(out, len, "%.*s", (int) n, p ? p : "");
}

/* Boolean spellings accepted where the choices are disable|enable. */
static int bool_alias(const char *choices, const char *raw)
{
    static const char *const on[] = { "1", "true", "yes", "on" };
    static const char *const off[] = { "0", "false", "no", "off" };
    for (size_t k = 0; k < 4; k++) {
        if (strcasecmp(raw, on[k]) == 0)
            return xt_choice_index(choices, "enable");
        if (strcasecmp(raw, off[k]) == 0)
            return xt_choice_index(choices, "disable");
    }
    return -1;
}

static int parse_enum(const struct xt_hint_def *def, const char *raw,
                      struct xt_hint_value *out, char *why, size_t whylen)
{
    int idx = xt_choice_index(def->choices, raw);
    if (idx < 0)
        idx = bool_alias(def->choices, raw);
    if (idx < 0) {
        snprintf(why, whylen, "expected one of %s", def->choices);
        return -1;
    }
    out->i = idx;
    out->d = idx;
    choice_text(def->choices, idx, out->s, sizeof(out->s));
    return 0;
}

int64_t xt_size_unit(const char *suffix)
{
    static const struct { const char *s; int64_t m; } units[] = {
        {"", 1}, {"k", 1LL << 10}, {"kb", 1LL << 10}, {"kib", 1LL << 10},
        {"m", 1LL << 20}, {"mb", 1LL << 20}, {"mib", 1LL << 20},
        {"g", 1LL << 30}, {"gb", 1LL << 30}, {"gib", 1LL << 30},
    };
    for (size_t k = 0; k < sizeof(units) / sizeof(units[0]); k++)
        if (strcasecmp(suffix, units[k].s) == 0)
            return units[k].m;
    return 0;
}

static int parse_integer(const struct xt_hint_def *def, const char *raw,
                         struct xt_hint_value *out, char *why, size_t whylen)
{
    char *end;
    errno = 0;
    long long v = strtoll(raw, &end, 10);
    if (end == raw || errno == ERANGE) {
        snprintf(why, whylen, "not a whole number");
        return -1;
    }
    while (isspace((unsigned char) *end))
        end++;
    int64_t mult = def->type == XT_SIZE ? xt_size_unit(end) : (*end ? 0 : 1);
    if (mult == 0) {
        snprintf(why, whylen, def->type == XT_SIZE ? "not a size (bytes, or with k/m/g)"
                 : "not a whole number");
        return -1;
    }
    if (def->type == XT_SIZE && v < 0) {
        snprintf(why, whylen, "negative size");
        return -1;
    }
    if (v > INT64_MAX / mult || v < INT64_MIN / mult) {
        snprintf(why, whylen, "out of range [%.0f, %.0f]", def->min, def->max);
        return -1;
    }
    v *= mult;
    if ((double) v < def->min || (double) v > def->max) {
        snprintf(why, whylen, "out of range [%.0f, %.0f]", def->min, def->max);
        return -1;
    }
    out->i = v;
    out->d = (double) v;
    snprintf(out->s, sizeof(out->s), "%lld", (long long) v);
    return 0;
}

static int parse_double(const struct xt_hint_def *def, const char *raw,
                        struct xt_hint_value *out, char *why, size_t whylen)
{
    char *end;
    errno = 0;
    double v = strtod(raw, &end);
    while (end != raw && isspace((unsigned char) *end))
        end++;
    if (end == raw || *end || errno == ERANGE || !isfinite(v)) {
        snprintf(why, whylen, "not a number");
        return -1;
    }
    if (v < def->min || v > def->max) {
        snprintf(why, whylen, "out of range [%g, %g]", def->min, def->max);
        return -1;
    }
    out->d = v;
    out->i = (int64_t) v;
    snprintf(out->s, sizeof(out->s), "%.17g", v);
    /* shortest text that reads back the same */
    for (int prec = 1; prec < 17; prec++) {
        char tmp[64];
        snprintf(tmp, sizeof(tmp), "%.*g", prec, v);
        if (strtod(tmp, NULL) == v) {
            snprintf(out->s, sizeof(out->s), "%s", tmp);
            break;
        }
    }
    return 0;
}

static int parse_string(const char *raw, struct xt_hint_value *out, char *why, size_t whylen)
{
    if (!*raw || strlen(raw) >= sizeof(out->s)) {
        snprintf(why, whylen, *raw ? "longer than %zu characters" : "empty",
                 sizeof(out->s) - 1);
        return -1;
    }
    out->i = 0;
    out->d = 0;
    snprintf(out->s, sizeof(out->s), "%s", raw);
    return 0;
}

int xt_hint_parse(const struct xt_hint_def *def, const char *raw,
                  struct xt_hint_value *out, char *why, size_t whylen)
{
    char buf[sizeof(out->s)];
    /* trim surrounding blanks: ROMIO_HINTS files and job scripts carry them */
    while (isspace((unsigned char) *raw))
        raw++;
    size_t n = strlen(raw);
    while (n > 0 && isspace((unsigned char) raw[n - 1]))
        n--;
    if (n >= sizeof(buf)) {     /* never parse a cut-off value */
        snprintf(why, whylen, "longer than %zu characters", sizeof(buf) - 1);
        return -1;
    }
    memcpy(buf, raw, n);
    buf[n] = '\0';
    switch (def->type) {
        case XT_ENUM:
            return parse_enum(def, buf, out, why, whylen);
        case XT_INT:
        case XT_SIZE:
            return parse_integer(def, buf, out, why, whylen);
        case XT_DOUBLE:
            return parse_double(def, buf, out, why, whylen);
        case XT_STRING:
            return parse_string(buf, out, why, whylen);
    }
    snprintf(why, whylen, "unknown hint type");
    return -1;
}

void xt_hint_default(const struct xt_hint_def *def, struct xt_hint_value *out)
{
    char why[128];
    memset(out, 0, sizeof(*out));
    if (def->type == XT_STRING && !*def->defval)
        return; /* empty default: "not set" */
    if (xt_hint_parse(def, def->defval, out, why, sizeof(why)) != 0)
        snprintf(out->s, sizeof(out->s), "%s", def->defval);
}

void xt_hint_bad_warning(char *buf, size_t len, const struct xt_hint_def *def,
                         const char *raw, const char *why, const char *used)
{
    snprintf(buf, len, "hint %s: bad value '%s' (%s); using '%s'",
             def->name, raw, why, used);
}

static struct xt_hint_value defaults[XT_NHINTS];
static pthread_once_t defaults_once = PTHREAD_ONCE_INIT;

static void make_defaults(void)
{
    for (int h = 0; h < XT_NHINTS; h++)
        xt_hint_default(&xt_hint_defs[h], &defaults[h]);
}

const struct xt_hint_value *xt_hint_defaults(void)
{
    pthread_once(&defaults_once, make_defaults);
    return defaults;
}

int xt_hint_find(const char *name)
{
    for (int h = 0; h < XT_NHINTS; h++)
        if (strcmp(xt_hint_defs[h].name, name) == 0)
            return h;
    return -1;
}

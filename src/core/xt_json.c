/* romio-xt: a small JSON writer. */
#include "xt_json.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void xt_json_init(struct xt_json *j)
{
    memset(j, 0, sizeof(*j));
    j->first[0] = 1;
}

void xt_json_free(struct xt_json *j)
{
    free(j->buf);
    memset(j, 0, sizeof(*j));
}

static void put(struct xt_json *j, const char *s, size_t n)
{
    if (j->oom)
        return;
    if (j->len + n + 1 > j->cap) {
        size_t cap = j->cap ? j->cap : 256;
        while (cap < j->len + n + 1)
            cap *= 2;
        char *nb = realloc(j->buf, cap);
        if (!nb) {
            j->oom = 1;
            return;
        }
        j->buf = nb;
        j->cap = cap;
    }
    memcpy(j->buf + j->len, s, n);
    j->len += n;
    j->buf[j->len] = '\0';
}

static void putf(struct xt_json *j, const char *fmt, ...)
{
    char tmp[64];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
    va_end(ap);
    put(j, tmp, (size_t) n < sizeof(tmp) ? (size_t) n : sizeof(tmp) - 1);
}

/* runs of plain characters go in one put, escapes one by one */
static void put_string(struct xt_json *j, const char *s)
{
    put(j, "\"", 1);
    for (const unsigned char *p = (const unsigned char *) s; *p;) {
        size_t run = 0;
        while (p[run] && p[run] != '"' && p[run] != '\\' && p[run] >= 0x20)
            run++;
        put(j, (const char *) p, run);
        p += run;
        if (!*p)
            break;
        if (*p == '"' || *p == '\\') {
            char esc[2] = { '\\', (char) *p };
            put(j, esc, 2);
        } else {
            putf(j, "\\u%04x", *p);
        }
        p++;
    }
    put(j, "\"", 1);
}

static void member(struct xt_json *j, const char *key)
{
    if (!j->first[j->depth])
        put(j, ",", 1);
    j->first[j->depth] = 0;
    if (key) {
        put_string(j, key);
        put(j, ":", 1);
    }
}

void xt_json_open(struct xt_json *j, const char *key, char bracket)
{
    member(j, key);
    put(j, &bracket, 1);
    if (j->depth + 1 >= XT_JSON_MAX_DEPTH) {
        j->oom = 1;
        return;
    }
    j->depth++;
    j->first[j->depth] = 1;
    j->closer[j->depth] = bracket == '[' ? ']' : '}';
}

void xt_json_close(struct xt_json *j)
{
    if (j->depth == 0)
        return;
    put(j, &j->closer[j->depth], 1);
    j->depth--;
}

void xt_json_str(struct xt_json *j, const char *key, const char *val)
{
    member(j, key);
    put_string(j, val ? val : "");
}

/* decimal digits by hand: a stats line has ~100 integers, and snprintf costs
 * ~1000 instructions each (measured with callgrind: 2/3 of a close's report) */
void xt_json_int(struct xt_json *j, const char *key, int64_t val)
{
    char tmp[24], *p = tmp + sizeof(tmp);
    uint64_t u = val < 0 ? 0 - (uint64_t) val : (uint64_t) val;
    member(j, key);
    do
        *--p = (char) ('0' + u % 10);
    while ((u /= 10) != 0);
    if (val < 0)
        *--p = '-';
    put(j, p, (size_t) (tmp + sizeof(tmp) - p));
}

void xt_json_num(struct xt_json *j, const char *key, double val)
{
    member(j, key);
    if (isfinite(val))
        putf(j, "%.9g", val);
    else
        put(j, "null", 4);
}

const char *xt_json_text(const struct xt_json *j)
{
    return (j->oom || !j->buf) ? "" : j->buf;
}

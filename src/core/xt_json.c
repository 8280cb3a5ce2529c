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
        size_t cap = j->cap ? j->cap : 4096;   /* a stats line: ~2 KB */
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

/* the length of the well-formed UTF-8 sequence at p (RFC 3629: no
 * overlong forms, surrogates or code points past U+10FFFF), or 0 */
static int utf8_len(const unsigned char *p)
{
    int n = p[0] >= 0xf0 ? 4 : p[0] >= 0xe0 ? 3 : p[0] >= 0xc2 ? 2 : 0;
    if (n == 0 || p[0] > 0xf4)
        return 0;
    for (int k = 1; k < n; k++)
        if ((p[k] & 0xc0) != 0x80)
            return 0;
    if ((p[0] == 0xe0 && p[1] < 0xa0) || (p[0] == 0xed && p[1] >= 0xa0) ||
        (p[0] == 0xf0 && p[1] < 0x90) || (p[0] == 0xf4 && p[1] >= 0x90))
        return 0;
    return n;
}

/* the length of the run at p that goes out as it is: printable ASCII other
 * than '"' and '\\', and well-formed UTF-8 */
static size_t plain_run(const unsigned char *p)
{
    size_t run = 0;
    for (;;) {
        if (p[run] >= 0x80) {
            int n = utf8_len(p + run);
            if (n == 0)
                return run;
            run += (size_t) n;
        } else if (p[run] >= 0x20 && p[run] != '"' && p[run] != '\\') {
            run++;
        } else {
            return run;
        }
    }
}

/* runs of plain characters go in one put, escapes one by one: '"' and '\\'
 * by a backslash, control characters and bytes that are not UTF-8 as \u00XX
 * (a byte read as Latin-1), so that every record is valid JSON */
static void put_string(struct xt_json *j, const char *s)
{
    put(j, "\"", 1);
    for (const unsigned char *p = (const unsigned char *) s; *p;) {
        size_t run = plain_run(p);
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

/* the unsigned decimal digits of u, most significant first; their count.
 * By hand: a stats line has ~100 integers, and snprintf costs ~1000
 * instructions each (measured with callgrind: 2/3 of a close's report) */
static int digits(char *out, uint64_t u)
{
    char tmp[24];
    int n = 0;
    do
        tmp[n++] = (char) ('0' + u % 10);
    while ((u /= 10) != 0);
    for (int k = 0; k < n; k++)
        out[k] = tmp[n - 1 - k];
    return n;
}

void xt_json_int(struct xt_json *j, const char *key, int64_t val)
{
    char tmp[24];
    int n = val < 0;
    member(j, key);
    tmp[0] = '-';
    n += digits(tmp + n, val < 0 ? 0 - (uint64_t) val : (uint64_t) val);
    put(j, tmp, (size_t) n);
}

/* 10^k for k = 0..22: exact doubles */
static const double pow10_exact[] = {
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
    1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22
};

/* %.9g's form of a finite a > 0 with a decimal exponent in [-14, 14]: 9
 * significant digits (the last may differ from printf's by one where the
 * scaling rounds), trailing zeros dropped; the length, or 0 outside that
 * range.  printf costs ~2000 instructions a number; a stats line has a
 * dozen times and rates */
static int g9(char *out, double a)
{
    if (a < 1e-14 || a >= 1e15)
        return 0;
    int e = -14;        /* floor(log10(a)), without libm */
    while (e < 14 && a >= (e + 1 >= 0 ? pow10_exact[e + 1] : 1 / pow10_exact[-e - 1]))
        e++;
    double scaled = 8 - e >= 0 ? a * pow10_exact[8 - e] : a / pow10_exact[e - 8];
    uint64_t m = (uint64_t) (scaled + 0.5);
    if (m >= 1000000000ULL) {   /* log10 rounded up to the next power */
        m = (m + 5) / 10;
        e++;
    } else if (m < 100000000ULL) {
        m = (uint64_t) (scaled * 10 + 0.5);
        e--;
    }
    char d[24];
    int nd = digits(d, m);
    while (nd > 1 && d[nd - 1] == '0')
        nd--;
    int n = 0;
    if (e < -4 || e >= 9) {     /* d.ddde+XX */
        out[n++] = d[0];
        if (nd > 1)
            out[n++] = '.';
        memcpy(out + n, d + 1, (size_t) (nd - 1));
        n += nd - 1;
        out[n++] = 'e';
        out[n++] = e < 0 ? '-' : '+';
        out[n++] = (char) ('0' + (e < 0 ? -e : e) / 10);
        out[n++] = (char) ('0' + (e < 0 ? -e : e) % 10);
    } else if (e < 0) {         /* 0.000ddd */
        out[n++] = '0';
        out[n++] = '.';
        for (int k = 0; k < -e - 1; k++)
            out[n++] = '0';
        memcpy(out + n, d, (size_t) nd);
        n += nd;
    } else {                    /* ddd.ddd */
        for (int k = 0; k <= e; k++)
            out[n++] = k < nd ? d[k] : '0';
        if (nd > e + 1) {
            out[n++] = '.';
            memcpy(out + n, d + e + 1, (size_t) (nd - e - 1));
            n += nd - e - 1;
        }
    }
    return n;
}

void xt_json_num(struct xt_json *j, const char *key, double val)
{
    char tmp[40];
    int n = 0;
    member(j, key);
    if (!isfinite(val)) {
        put(j, "null", 4);
        return;
    }
    if (val == 0) {
        put(j, "0", 1);
        return;
    }
    if (val < 0)
        tmp[n++] = '-';
    int k = g9(tmp + n, fabs(val));
    if (k > 0)
        put(j, tmp, (size_t) (n + k));
    else
        putf(j, "%.9g", val);
}

const char *xt_json_text(const struct xt_json *j)
{
    return (j->oom || !j->buf) ? "" : j->buf;
}

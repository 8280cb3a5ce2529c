/* Fuzzes the hint value parsers: romio-xt's table (xt_hint_parse) and ROMIO's
 * own hints (xt_romio_check).  Input: one byte choosing the hint, the value.
 * Checks beyond "no crash": a parsed value's canonical text parses to the
 * same value; a rejected value gets a warning naming the hint and the value.
 * romio_prefetch_willneed's text also goes through its range parser. */
#include "xt_hints.h"
#include "xt_romiohints.h"
#include "pf_window.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void check_xt(int h, const char *raw)
{
    const struct xt_hint_def *def = &xt_hint_defs[h];
    struct xt_hint_value v, again;
    char why[160], warn[600];
    if (xt_hint_parse(def, raw, &v, why, sizeof(why)) != 0) {
        if (!why[0])
            abort();            /* a rejection always says why */
        xt_hint_bad_warning(warn, sizeof(warn), def, raw, why, "x");
        if (!strstr(warn, def->name))
            abort();
        return;
    }
    if (xt_hint_parse(def, v.s, &again, why, sizeof(why)) != 0 || again.i != v.i ||
        strcmp(again.s, v.s) != 0)
        abort();                /* the canonical text reads back the same */
    if ((def->type == XT_INT || def->type == XT_SIZE) &&
        ((double) v.i < def->min || (double) v.i > def->max))
        abort();
}

static void check_ranges(const char *raw)
{
    struct pf_range r[PF_MAX_RANGES];
    char why[160] = "";
    int n = pf_ranges_parse(raw, r, PF_MAX_RANGES, why, sizeof(why));
    if (n < -1 || n > PF_MAX_RANGES || (n < 0 && !why[0]))
        abort();
    for (int k = 0; k < n; k++)
        if (r[k].off < 0 || r[k].len < 0)
            abort();
}

static void check_romio(int k, const char *raw)
{
    char fixed[32] = "", warn[600] = "";
    const char *name = xt_romio_name(k);
    enum xt_romio_verdict v = xt_romio_check(name, raw, k & 1, fixed, sizeof(fixed), warn,
                                             sizeof(warn));
    if (v != XT_ROMIO_OK && !strstr(warn, name))
        abort();
    if (v == XT_ROMIO_FIX &&
        xt_romio_check(name, fixed, 1, fixed, sizeof(fixed), warn, sizeof(warn)) != XT_ROMIO_OK)
        abort();                /* what replaces a bad value is valid */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 4096)
        return 0;
    char *raw = malloc(size);
    memcpy(raw, data + 1, size - 1);
    raw[size - 1] = '\0';
    int n = XT_NHINTS + xt_romio_nhints(), k = data[0] % n;
    if (k < XT_NHINTS)
        check_xt(k, raw);
    if (k == XT_H_PF_WILLNEED)
        check_ranges(raw);
    if (k >= XT_NHINTS)
        check_romio(k - XT_NHINTS, raw);
    free(raw);
    return 0;
}

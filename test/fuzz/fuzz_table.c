/* Fuzzes the Orthrus winner table reader (romio_orthrus_table,
 * orth_table_read): any text reads as entries or is refused (-1), never a
 * crash; what it read writes back as a table that reads back as the same
 * table (the text of read-write is a fixed point). */
#define _GNU_SOURCE
#include "orth_select.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const names[] = { "two_phase", "view_based", "stock", "lazy" };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct orth_sel s, t;
    if (size > 65536)
        return 0;
    FILE *f = fmemopen(size ? (void *) data : (void *) "", size, "r");
    if (!f)
        return 0;
    orth_sel_init(&s, 3, 3, 0.15);
    int n = orth_table_read(f, &s, names);
    fclose(f);
    if (n < 0)
        return 0;
    char *text = NULL, *again = NULL;
    size_t len = 0, len2 = 0;
    FILE *w = open_memstream(&text, &len);
    orth_table_write(w, &s, names);
    fclose(w);
    f = fmemopen(len ? text : (char *) "", len, "r");
    orth_sel_init(&t, 3, 3, 0.15);
    if (orth_table_read(f, &t, names) < 0)
        abort();                /* a written table is always readable */
    fclose(f);
    w = open_memstream(&again, &len2);
    orth_table_write(w, &t, names);
    fclose(w);
    if (len != len2 || memcmp(text, again, len) != 0)
        abort();                /* and reads back as the same table */
    free(text);
    free(again);
    return 0;
}

/* romio-xt: hint definitions and pure parsing/validation (no MPI). */
#ifndef XT_HINTS_H
#define XT_HINTS_H

#include <stddef.h>
#include <stdint.h>
#include "xt_hint_table.h"

enum xt_hint_type { XT_ENUM, XT_INT, XT_SIZE, XT_DOUBLE, XT_STRING };

enum xt_hint_flags { XT_AGREE = 1, XT_OPEN_ONLY = 2 };

struct xt_hint_def {
    const char *name;
    enum xt_hint_type type;
    const char *defval;
    double min, max;
    const char *choices;
    unsigned flags;
    const char *env;
    const char *doc;
};

#define XT_HINT_ID(id, ...) id,
enum xt_hint_id { XT_HINT_TABLE(XT_HINT_ID) XT_NHINTS };
#undef XT_HINT_ID

extern const struct xt_hint_def xt_hint_defs[XT_NHINTS];

/* A parsed value: i for ENUM (choice index), INT and SIZE; d for DOUBLE;
 * s is always the canonical text (what MPI_File_get_info returns). */
struct xt_hint_value {
    int64_t i;
    double d;
    char s[256];
};

/* Parses raw for def.  Returns 0 and fills *out, or -1 and writes a short
 * reason ("expected one of a|b", "not a number", ...) into why. */
int xt_hint_parse(const struct xt_hint_def *def, const char *raw,
                  struct xt_hint_value *out, char *why, size_t whylen);

/* The default value of def (the table's defaults always parse). */
void xt_hint_default(const struct xt_hint_def *def, struct xt_hint_value *out);

/* Formats the one warning for a bad value: names the hint, the bad value and
 * the value used. */
void xt_hint_bad_warning(char *buf, size_t len, const struct xt_hint_def *def,
                         const char *raw, const char *why, const char *used);

/* Finds a hint by name, or returns -1. */
int xt_hint_find(const char *name);

/* Index of choice in a "a|b|c" list (case-insensitive), or -1. */
int xt_choice_index(const char *choices, const char *word);

#endif

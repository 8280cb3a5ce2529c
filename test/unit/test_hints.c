/* Hint table, parsing and validation. */
#include <stdio.h>
#include <string.h>
#include "unit.h"
#include "xt_hints.h"

static const struct xt_hint_def enum_def = {
    .name = "t_enum", .type = XT_ENUM, .defval = "disable", .choices = "disable|enable|automatic"
};
static const struct xt_hint_def size_def = {
    .name = "t_size", .type = XT_SIZE, .defval = "4m", .min = 1, .max = 1LL << 40
};
static const struct xt_hint_def int_def = {
    .name = "t_int", .type = XT_INT, .defval = "3", .min = 1, .max = 100
};
static const struct xt_hint_def dbl_def = {
    .name = "t_dbl", .type = XT_DOUBLE, .defval = "0.15", .min = 0, .max = 1
};
static const struct xt_hint_def str_def = {
    .name = "t_str", .type = XT_STRING, .defval = ""
};

static int parse(const struct xt_hint_def *d, const char *raw, struct xt_hint_value *v)
{
    char why[160];
    return xt_hint_parse(d, raw, v, why, sizeof(why));
}

START_TEST(enum_keywords)
{
    struct xt_hint_value v;
    ck_assert_int_eq(parse(&enum_def, "enable", &v), 0);
    ck_assert_int_eq(v.i, 1);
    ck_assert_str_eq(v.s, "enable");
    ck_assert_int_eq(parse(&enum_def, " AUTOMATIC ", &v), 0);
    ck_assert_int_eq(v.i, 2);
    ck_assert_str_eq(v.s, "automatic");
    ck_assert_int_eq(parse(&enum_def, "maybe", &v), -1);
    ck_assert_int_eq(parse(&enum_def, "", &v), -1);
    ck_assert_int_eq(parse(&enum_def, "enabled", &v), -1);
}
END_TEST

START_TEST(enum_boolean_aliases)
{
    struct xt_hint_value v;
    ck_assert_int_eq(parse(&enum_def, "1", &v), 0);
    ck_assert_str_eq(v.s, "enable");
    ck_assert_int_eq(parse(&enum_def, "off", &v), 0);
    ck_assert_str_eq(v.s, "disable");
    ck_assert_int_eq(parse(&enum_def, "True", &v), 0);
    ck_assert_str_eq(v.s, "enable");
}
END_TEST

START_TEST(size_suffixes_and_range)
{
    struct xt_hint_value v;
    ck_assert_int_eq(parse(&size_def, "4096", &v), 0);
    ck_assert_int_eq(v.i, 4096);
    ck_assert_int_eq(parse(&size_def, "4k", &v), 0);
    ck_assert_int_eq(v.i, 4096);
    ck_assert_int_eq(parse(&size_def, "2MiB", &v), 0);
    ck_assert_int_eq(v.i, 2 << 20);
    ck_assert_str_eq(v.s, "2097152");
    ck_assert_int_eq(parse(&size_def, "1g", &v), 0);
    ck_assert_int_eq(v.i, 1 << 30);
    ck_assert_int_eq(parse(&size_def, "-5", &v), -1);
    ck_assert_int_eq(parse(&size_def, "0", &v), -1);        /* below min */
    ck_assert_int_eq(parse(&size_def, "12q", &v), -1);
    ck_assert_int_eq(parse(&size_def, "lots", &v), -1);
    ck_assert_int_eq(parse(&size_def, "99999999999999999999", &v), -1);
    ck_assert_int_eq(parse(&size_def, "9000000000g", &v), -1); /* overflows */
}
END_TEST

START_TEST(size_reasons)
{
    struct xt_hint_value v;
    char why[160];
    ck_assert_int_eq(xt_hint_parse(&size_def, "-1", &v, why, sizeof(why)), -1);
    ck_assert_str_eq(why, "negative size");
    ck_assert_int_eq(xt_hint_parse(&enum_def, "x", &v, why, sizeof(why)), -1);
    ck_assert_str_eq(why, "expected one of disable|enable|automatic");
}
END_TEST

START_TEST(int_and_double)
{
    struct xt_hint_value v;
    ck_assert_int_eq(parse(&int_def, "7", &v), 0);
    ck_assert_int_eq(v.i, 7);
    ck_assert_int_eq(parse(&int_def, "7k", &v), -1);        /* no suffix on plain ints */
    ck_assert_int_eq(parse(&int_def, "101", &v), -1);
    ck_assert_int_eq(parse(&int_def, "3.5", &v), -1);
    ck_assert_int_eq(parse(&dbl_def, "0.25", &v), 0);
    ck_assert(v.d == 0.25);
    ck_assert_str_eq(v.s, "0.25");
    ck_assert_int_eq(parse(&dbl_def, "1.5", &v), -1);
    ck_assert_int_eq(parse(&dbl_def, "nan", &v), -1);
    ck_assert_int_eq(parse(&dbl_def, "0.1x", &v), -1);
}
END_TEST

START_TEST(strings)
{
    struct xt_hint_value v;
    ck_assert_int_eq(parse(&str_def, " /tmp/cache ", &v), 0);
    ck_assert_str_eq(v.s, "/tmp/cache");
    ck_assert_int_eq(parse(&str_def, "", &v), -1);
    xt_hint_default(&str_def, &v);
    ck_assert_str_eq(v.s, "");
}
END_TEST

/* a value longer than a hint holds is refused, never cut off (a path cut at
 * 255 characters would name another directory); blanks around it don't count */
START_TEST(too_long_is_refused)
{
    struct xt_hint_value v;
    char raw[sizeof(v.s) + 8], why[160];
    memset(raw, 'p', sizeof(v.s) - 1);
    raw[sizeof(v.s) - 1] = '\0';
    ck_assert_int_eq(parse(&str_def, raw, &v), 0);
    ck_assert_uint_eq(strlen(v.s), sizeof(v.s) - 1);
    snprintf(raw + sizeof(v.s) - 1, 9, "  ");
    ck_assert_int_eq(parse(&str_def, raw, &v), 0);
    raw[sizeof(v.s) - 1] = 'q';
    ck_assert_int_eq(xt_hint_parse(&str_def, raw, &v, why, sizeof(why)), -1);
    ck_assert_ptr_nonnull(strstr(why, "longer than 255"));
    ck_assert_int_eq(parse(&enum_def, raw, &v), -1);
}
END_TEST

START_TEST(warning_names_hint_value_and_used)
{
    char buf[512];
    xt_hint_bad_warning(buf, sizeof(buf), &size_def, "-5", "negative size", "4194304");
    ck_assert_ptr_nonnull(strstr(buf, "t_size"));
    ck_assert_ptr_nonnull(strstr(buf, "'-5'"));
    ck_assert_ptr_nonnull(strstr(buf, "negative size"));
    ck_assert_ptr_nonnull(strstr(buf, "using '4194304'"));
}
END_TEST

/* every row of the real table: its default parses, names are unique and
 * documented, enum defaults are among the choices */
START_TEST(table_is_consistent)
{
    for (int h = 0; h < XT_NHINTS; h++) {
        const struct xt_hint_def *d = &xt_hint_defs[h];
        struct xt_hint_value v;
        ck_assert_ptr_nonnull(d->name);
        ck_assert_ptr_nonnull(d->doc);
        ck_assert(strlen(d->doc) > 10);
        ck_assert_int_eq(xt_hint_find(d->name), h);
        if (d->type != XT_STRING || d->defval[0])
            ck_assert_msg(parse(d, d->defval, &v) == 0, "default of %s", d->name);
        if (d->type == XT_ENUM)
            ck_assert_int_ge(xt_choice_index(d->choices, d->defval), 0);
    }
    ck_assert_int_eq(xt_hint_find("no_such_hint"), -1);
}
END_TEST

START_TEST(stats_hint_row)
{
    int h = xt_hint_find("romio_xt_stats");
    ck_assert_int_ge(h, 0);
    ck_assert_str_eq(xt_hint_defs[h].env, "ROMIO_XT_STATS");
    ck_assert(xt_hint_defs[h].flags & XT_AGREE);
    struct xt_hint_value v;
    xt_hint_default(&xt_hint_defs[h], &v);
    ck_assert_str_eq(v.s, "disable");
}
END_TEST

/* every XT_ENUM hint's generated enum: each <id>_<word> is the index of word
 * in the parsed choice text, <id>_N their number */
#define XT_PREFIX(p)
#define XT_AUTO(hint, value, needs, gate)
#define XT_RULE(kind, a, b)
#define CHOICE(h, c) {h, #c, h##_##c},
#define XT_HINT(id, name, type, def, min, max, choices, ...) choices(CHOICE, id)
static const struct { int h; const char *word; int value; } all_choices[] = {
#include "xt_modules.h"
};
#undef XT_HINT
#define XT_HINT(id, name, type, def, min, max, choices, ...) id##_N,
static const int nchoices[XT_NHINTS] = {
#include "xt_modules.h"
};
#undef XT_HINT
#undef CHOICE
#undef XT_RULE
#undef XT_AUTO
#undef XT_PREFIX

START_TEST(choice_enums_match_the_text)
{
    int total = 0;
    for (size_t k = 0; k < sizeof(all_choices) / sizeof(all_choices[0]); k++)
        ck_assert_int_eq(xt_choice_index(xt_hint_defs[all_choices[k].h].choices,
                                         all_choices[k].word), all_choices[k].value);
    for (int h = 0; h < XT_NHINTS; h++) {
        const char *c = xt_hint_defs[h].choices;
        int bars = 0;
        for (; c && *c; c++)
            bars += *c == '|';
        ck_assert_int_eq(nchoices[h], xt_hint_defs[h].choices ? bars + 1 : 0);
        ck_assert_int_eq(xt_hint_defs[h].type == XT_ENUM, xt_hint_defs[h].choices != NULL);
        total += nchoices[h];
    }
    ck_assert_int_eq(total, (int) (sizeof(all_choices) / sizeof(all_choices[0])));
}
END_TEST

/* every XT_BELOW rule: a >= b is fixed to b - 1 with one warning naming both */
START_TEST(rules_below)
{
    struct xt_hint_value v[XT_NHINTS];
    char warn[512], want[512];
    ck_assert_int_ge(XT_NRULES, 1);
    for (int r = 0; r < XT_NRULES; r++) {
        const struct xt_hint_rule *rule = &xt_hint_rules[r];
        const char *a = xt_hint_defs[rule->a].name, *b = xt_hint_defs[rule->b].name;
        for (int h = 0; h < XT_NHINTS; h++)
            xt_hint_default(&xt_hint_defs[h], &v[h]);
        ck_assert_int_eq(xt_hint_rule_check(rule, v, warn, sizeof(warn)), 0);
        v[rule->b].i = 4;
        v[rule->a].i = 6;
        ck_assert_int_eq(xt_hint_rule_check(rule, v, warn, sizeof(warn)), 1);
        ck_assert_int_eq(v[rule->a].i, 3);
        ck_assert_str_eq(v[rule->a].s, "3");
        snprintf(want, sizeof(want), "hint %s: bad value '6' (must be below %s=4); using '3'",
                 a, b);
        ck_assert_str_eq(warn, want);
        ck_assert_int_eq(xt_hint_rule_check(rule, v, warn, sizeof(warn)), 0);
    }
}
END_TEST

/* romio_xt=auto: each row's value parses; disable sets nothing; auto sets
 * each row's hint unless given; a row with a needs hint only when that is
 * given (e10_cache: e10_cache_path) */
START_TEST(auto_chooses)
{
    struct xt_hint_value v[XT_NHINTS];
    const char *given[XT_NHINTS] = { 0 };
    char why[160];
    int pf = -1, e10 = -1;
    ck_assert_int_ge(XT_NAUTO, 5);
    for (int h = 0; h < XT_NHINTS; h++)
        xt_hint_default(&xt_hint_defs[h], &v[h]);
    ck_assert_uint_eq(xt_auto_choose(v, given), 0);
    ck_assert_int_eq(xt_hint_parse(&xt_hint_defs[XT_H_XT], "auto", &v[XT_H_XT], why,
                                   sizeof(why)), 0);
    for (int k = 0; k < XT_NAUTO; k++) {
        struct xt_hint_value tmp;
        ck_assert_int_eq(xt_hint_parse(&xt_hint_defs[xt_auto_rows[k].hint],
                                       xt_auto_rows[k].value, &tmp, why, sizeof(why)), 0);
        ck_assert_ptr_nonnull(xt_auto_rows[k].gate);
        pf = xt_auto_rows[k].hint == XT_H_PF ? k : pf;
        e10 = xt_auto_rows[k].hint == XT_H_E10_CACHE ? k : e10;
    }
    ck_assert_int_ge(pf, 0);
    ck_assert_int_ge(e10, 0);
    ck_assert_int_eq(xt_auto_rows[e10].needs, XT_H_E10_CACHE_PATH);
    ck_assert(xt_auto_needed(XT_H_E10_CACHE_PATH));
    ck_assert(!xt_auto_needed(XT_H_PF));
    unsigned all = (XT_NAUTO == 32 ? ~0u : (1u << XT_NAUTO) - 1);
    ck_assert_uint_eq(xt_auto_choose(v, given), all & ~(1u << e10));
    ck_assert_str_eq(v[XT_H_PF].s, "enable");
    ck_assert_str_eq(v[XT_H_DS_READ].s, "adaptive");
    ck_assert_str_eq(v[XT_H_E10_CACHE].s, "disable");
    given[XT_H_E10_CACHE_PATH] = "/local";
    xt_hint_default(&xt_hint_defs[XT_H_PF], &v[XT_H_PF]);
    given[XT_H_PF] = "disable";
    ck_assert_uint_eq(xt_auto_choose(v, given), all & ~(1u << pf));
    ck_assert_str_eq(v[XT_H_PF].s, "disable");
    ck_assert_str_eq(v[XT_H_E10_CACHE].s, "enable");
}
END_TEST

Suite *hints_suite(void)
{
    Suite *s = suite_create("hints");
    TCase *tc = tcase_create("parse");
    tcase_add_test(tc, enum_keywords);
    tcase_add_test(tc, too_long_is_refused);
    tcase_add_test(tc, enum_boolean_aliases);
    tcase_add_test(tc, size_suffixes_and_range);
    tcase_add_test(tc, size_reasons);
    tcase_add_test(tc, int_and_double);
    tcase_add_test(tc, strings);
    tcase_add_test(tc, warning_names_hint_value_and_used);
    tcase_add_test(tc, table_is_consistent);
    tcase_add_test(tc, stats_hint_row);
    tcase_add_test(tc, choice_enums_match_the_text);
    tcase_add_test(tc, rules_below);
    tcase_add_test(tc, auto_chooses);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_SUITE(hints_suite)

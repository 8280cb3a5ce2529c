/* The stats JSON writer. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "xt_json.h"

START_TEST(nested_objects_and_arrays)
{
    struct xt_json j;
    xt_json_init(&j);
    xt_json_open(&j, NULL, '{');
    xt_json_str(&j, "file", "/tmp/a");
    xt_json_int(&j, "ranks", 4);
    xt_json_open(&j, "layers", '[');
    xt_json_str(&j, NULL, "stats");
    xt_json_str(&j, NULL, "ads");
    xt_json_close(&j);
    xt_json_open(&j, "ops", '{');
    xt_json_open(&j, "write_contig", '{');
    xt_json_int(&j, "calls", 2);
    xt_json_num(&j, "time_sum", 0.5);
    xt_json_close(&j);
    xt_json_close(&j);
    xt_json_open(&j, "empty", '{');
    xt_json_close(&j);
    xt_json_close(&j);
    ck_assert_str_eq(xt_json_text(&j),
                     "{\"file\":\"/tmp/a\",\"ranks\":4,\"layers\":[\"stats\",\"ads\"],"
                     "\"ops\":{\"write_contig\":{\"calls\":2,\"time_sum\":0.5}},\"empty\":{}}");
    xt_json_free(&j);
}
END_TEST

START_TEST(string_escapes)
{
    struct xt_json j;
    xt_json_init(&j);
    xt_json_str(&j, NULL, "a\"b\\c\nd\x01");
    ck_assert_str_eq(xt_json_text(&j), "\"a\\\"b\\\\c\\u000ad\\u0001\"");
    xt_json_free(&j);
}
END_TEST

/* UTF-8 goes out as it is; a byte that is not part of well-formed UTF-8
 * (a Latin-1 name, a cut sequence, an overlong form, a surrogate) as \u00XX */
START_TEST(string_bytes_not_utf8)
{
    struct xt_json j;
    xt_json_init(&j);
    xt_json_open(&j, NULL, '[');
    xt_json_str(&j, NULL, "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
    xt_json_str(&j, NULL, "caf\xe9");
    xt_json_str(&j, NULL, "a\xe2\x82");
    xt_json_str(&j, NULL, "\xc0\xaf\xed\xa0\x80\xf4\x90\x80\x80");
    xt_json_close(&j);
    ck_assert_str_eq(xt_json_text(&j), "[\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\","
                     "\"caf\\u00e9\",\"a\\u00e2\\u0082\","
                     "\"\\u00c0\\u00af\\u00ed\\u00a0\\u0080\\u00f4\\u0090\\u0080\\u0080\"]");
    xt_json_free(&j);
}
END_TEST

START_TEST(numbers)
{
    struct xt_json j;
    xt_json_init(&j);
    xt_json_open(&j, NULL, '[');
    xt_json_int(&j, NULL, -9007199254740993LL);
    xt_json_int(&j, NULL, 0);
    xt_json_int(&j, NULL, INT64_MIN);
    xt_json_int(&j, NULL, INT64_MAX);
    xt_json_num(&j, NULL, 1e-9);
    xt_json_num(&j, NULL, NAN);
    xt_json_num(&j, NULL, INFINITY);
    xt_json_close(&j);
    ck_assert_str_eq(xt_json_text(&j), "[-9007199254740993,0,-9223372036854775808,9223372036854775807,1e-09,null,null]");
    xt_json_free(&j);
}
END_TEST

/* doubles without printf: printf's %.9g text for usual values; within one
 * rounding of the 9th digit (read back) elsewhere in [1e-14, 1e15) */
START_TEST(doubles_as_printf)
{
    static const double exact[] = { 0.5, 1e-9, 123, 0.001, 1e10, 2.5e-7, -3.75, 1234567.5,
        0.1, 100, 1e-5, 99999.9999, 1e14, 4.43962902e9, 6.19443369e-07, 0.000123456789 };
    char want[64];
    for (size_t k = 0; k < sizeof(exact) / sizeof(exact[0]); k++) {
        struct xt_json j;
        xt_json_init(&j);
        xt_json_num(&j, NULL, exact[k]);
        snprintf(want, sizeof(want), "%.9g", exact[k]);
        ck_assert_str_eq(xt_json_text(&j), want);
        xt_json_free(&j);
    }
    uint64_t x = 88172645463325252ULL;
    int differ = 0;
    for (int k = 0; k < 20000; k++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        double v = (double) (x >> 11) / (double) (1ULL << 53) * pow(10, (int) (x % 29) - 14);
        struct xt_json j;
        xt_json_init(&j);
        xt_json_num(&j, NULL, v);
        double back = strtod(xt_json_text(&j), NULL);
        ck_assert_msg(fabs(back - v) <= 5.01e-9 * fabs(v), "%.17g written as %s", v,
                      xt_json_text(&j));
        snprintf(want, sizeof(want), "%.9g", v);
        differ += strcmp(want, xt_json_text(&j)) != 0;
        xt_json_free(&j);
    }
    ck_assert_int_le(differ, 20);       /* 0 of 200000 seen: the last digit, should scaling round */
}
END_TEST

START_TEST(long_output_grows)
{
    struct xt_json j;
    char key[32];
    xt_json_init(&j);
    xt_json_open(&j, NULL, '{');
    for (int k = 0; k < 1000; k++) {
        snprintf(key, sizeof(key), "k%d", k);
        xt_json_int(&j, key, k);
    }
    xt_json_close(&j);
    const char *t = xt_json_text(&j);
    ck_assert(strlen(t) > 8000);
    ck_assert_ptr_nonnull(strstr(t, "\"k999\":999}"));
    ck_assert_int_eq(t[0], '{');
    xt_json_free(&j);
}
END_TEST

START_TEST(too_deep_is_flagged_not_overflowed)
{
    struct xt_json j;
    xt_json_init(&j);
    for (int k = 0; k < XT_JSON_MAX_DEPTH + 4; k++)
        xt_json_open(&j, NULL, '[');
    ck_assert_str_eq(xt_json_text(&j), "");     /* refused, not corrupted */
    xt_json_free(&j);
}
END_TEST

Suite *json_suite(void)
{
    Suite *s = suite_create("json");
    TCase *tc = tcase_create("writer");
    tcase_add_test(tc, nested_objects_and_arrays);
    tcase_add_test(tc, string_escapes);
    tcase_add_test(tc, string_bytes_not_utf8);
    tcase_add_test(tc, numbers);
    tcase_add_test(tc, doubles_as_printf);
    tcase_add_test(tc, long_output_grows);
    tcase_add_test(tc, too_deep_is_flagged_not_overflowed);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_SUITE(json_suite)

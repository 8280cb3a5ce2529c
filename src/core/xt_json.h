/* romio-xt: a small JSON writer for the one-line stats records (no MPI). */
#ifndef XT_JSON_H
#define XT_JSON_H

#include <stddef.h>
#include <stdint.h>

#define XT_JSON_MAX_DEPTH 16

struct xt_json {
    char *buf;
    size_t len, cap;
    int depth;
    int first[XT_JSON_MAX_DEPTH];   /* nothing written yet at this level */
    char closer[XT_JSON_MAX_DEPTH]; /* '}' or ']' for each open level */
    int oom;
};

void xt_json_init(struct xt_json *j);
void xt_json_free(struct xt_json *j);
/* key is NULL inside arrays and for the outermost value */
void xt_json_open(struct xt_json *j, const char *key, char bracket);  /* '{' or '[' */
void xt_json_close(struct xt_json *j);
void xt_json_str(struct xt_json *j, const char *key, const char *val);
void xt_json_int(struct xt_json *j, const char *key, int64_t val);
void xt_json_num(struct xt_json *j, const char *key, double val);
/* The text so far, NUL-terminated ("" after an allocation failure). */
const char *xt_json_text(const struct xt_json *j);

#endif

#ifndef UNIT_H
#define UNIT_H
#include <check.h>
/* A test file registers each of its suites with UNIT_SUITE(make) (make
 * returns the Suite); check_xt runs every registered one. */
void unit_add(Suite *(*make)(void));
#define UNIT_SUITE(make) \
    Suite *make(void); \
    __attribute__((constructor)) static void unit_add_##make(void) \
    { \
        unit_add(make); \
    }
#endif

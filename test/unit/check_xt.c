/* romio-xt unit tests (pure logic, no MPI): every suite a test file
 * registered with UNIT_SUITE (unit.h); the modules' test files come from
 * their module.mk. */
#include <stdio.h>
#include <stdlib.h>
#include "unit.h"

#define UNIT_MAX_SUITES 64
static Suite *(*suites[UNIT_MAX_SUITES])(void);
static int nsuites;

void unit_add(Suite *(*make)(void))
{
    if (nsuites == UNIT_MAX_SUITES) {
        fprintf(stderr, "check_xt: more than %d suites\n", UNIT_MAX_SUITES);
        exit(EXIT_FAILURE);
    }
    suites[nsuites++] = make;
}

int main(void)
{
    if (nsuites == 0)
        return EXIT_FAILURE;
    /* Check's 4 s per test fails heavy planner tests on a loaded 2-core
     * machine; a hang is still caught (the environment can override) */
    setenv("CK_DEFAULT_TIMEOUT", "60", 0);
    SRunner *sr = srunner_create(suites[0]());
    for (int k = 1; k < nsuites; k++)
        srunner_add_suite(sr, suites[k]());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

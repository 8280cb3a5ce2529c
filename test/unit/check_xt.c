/* romio-xt unit tests (pure logic, no MPI). */
#include <stdlib.h>
#include "unit.h"

int main(void)
{
    SRunner *sr = srunner_create(hints_suite());
    srunner_add_suite(sr, json_suite());
    srunner_add_suite(sr, ads_suite());
    srunner_add_suite(sr, prefetch_suite());
    srunner_add_suite(sr, nvc_suite());
    srunner_add_suite(sr, orth_suite());
    srunner_add_suite(sr, noharm_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

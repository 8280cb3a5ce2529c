#ifndef UNIT_H
#define UNIT_H
#include <check.h>
Suite *hints_suite(void);
Suite *json_suite(void);
Suite *ads_suite(void);
Suite *prefetch_suite(void);
Suite *nvc_suite(void);
Suite *orth_suite(void);
Suite *noharm_suite(void);
#endif

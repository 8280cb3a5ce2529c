/* Aggregators from the node's topology (src/core/xt_topo.c): which of a
 * node's processes aggregate for its NUMA domains or network cards, and the
 * targets hwloc reads from a synthetic topology and from an XML file
 * (test/unit/topo-2nic.xml: 2 packages of 2 NUMA domains and 2 cores, an
 * InfiniBand card on each package, an Ethernet card on the machine). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "xt_topo.h"
#include "unit_cpus.h"

static struct xt_cpus none(void)
{
    return range(1, 0);
}

/* 2 NUMA domains of 8 cores, 8 processes bound 2 cores each in rank
 * order: the first bound inside each domain, processes 0 and 4 */
START_TEST(bound_processes_one_per_domain)
{
    struct xt_cpus doms[2] = { range(0, 7), range(8, 15) }, masks[8];
    int chosen[8];
    for (int k = 0; k < 8; k++)
        masks[k] = range(2 * k, 2 * k + 1);
    ck_assert_int_eq(xt_topo_choose(doms, 2, masks, 8, chosen), 2);
    ck_assert_int_eq(chosen[0], 0);
    ck_assert_int_eq(chosen[1], 4);
}
END_TEST

/* bound round robin (process k on domain k % 2), domains in the other
 * order: still one per domain, processes 0 and 1 */
START_TEST(bound_round_robin)
{
    struct xt_cpus doms[2] = { range(8, 15), range(0, 7) }, masks[6];
    int chosen[6];
    for (int k = 0; k < 6; k++)
        masks[k] = k % 2 ? range(8 + k, 8 + k) : range(k, k);
    ck_assert_int_eq(xt_topo_choose(doms, 2, masks, 6, chosen), 2);
    ck_assert_int_eq(chosen[0], 0);
    ck_assert_int_eq(chosen[1], 1);
}
END_TEST

/* not bound: spread evenly (8 processes, 4 domains: 0, 2, 4, 6) */
START_TEST(unbound_processes_spread_evenly)
{
    struct xt_cpus doms[4] = { range(0, 3), range(4, 7), range(8, 11), range(12, 15) };
    struct xt_cpus masks[8];
    int chosen[8];
    for (int k = 0; k < 8; k++)
        masks[k] = none();
    ck_assert_int_eq(xt_topo_choose(doms, 4, masks, 8, chosen), 4);
    for (int k = 0; k < 4; k++)
        ck_assert_int_eq(chosen[k], 2 * k);
}
END_TEST

/* one bound process (3, in domain 2), the rest not: 3, and 3 more spread
 * over 0 1 2 4 5 (0, 1, 4) */
START_TEST(bound_and_unbound_mixed)
{
    struct xt_cpus doms[4] = { range(0, 3), range(4, 7), range(8, 11), range(12, 15) };
    struct xt_cpus masks[6];
    int chosen[6], want[4] = { 0, 1, 3, 4 };
    for (int k = 0; k < 6; k++)
        masks[k] = none();
    masks[3] = range(9, 9);
    ck_assert_int_eq(xt_topo_choose(doms, 4, masks, 6, chosen), 4);
    for (int k = 0; k < 4; k++)
        ck_assert_int_eq(chosen[k], want[k]);
}
END_TEST

/* more domains than processes: every process; one domain (a node of one
 * NUMA domain): the first process, as ROMIO's default cb_config_list *:1 */
START_TEST(capped_by_processes_and_one_domain_is_stock)
{
    struct xt_cpus doms[4] = { range(0, 3), range(4, 7), range(8, 11), range(12, 15) };
    struct xt_cpus masks[3] = { range(5, 5), none(), range(0, 15) };
    int chosen[3];
    ck_assert_int_eq(xt_topo_choose(doms, 4, masks, 2, chosen), 2);
    ck_assert_int_eq(chosen[0], 0);
    ck_assert_int_eq(chosen[1], 1);
    struct xt_cpus one = range(0, 15), free2[2] = { none(), none() };
    ck_assert_int_eq(xt_topo_choose(&one, 1, free2, 2, chosen), 1);
    ck_assert_int_eq(chosen[0], 0);
    ck_assert_int_eq(xt_topo_choose(&one, 1, masks, 3, chosen), 1);
    ck_assert_int_eq(chosen[0], 0);
}
END_TEST

#ifdef XT_HAVE_HWLOC
/* hwloc's synthetic topology: 2 packages of 2 NUMA domains of 4 cores */
START_TEST(numa_domains_of_a_synthetic_topology)
{
    struct xt_cpus t[XT_TOPO_MAX], want = range(4, 7);
    setenv("HWLOC_SYNTHETIC", "pack:2 numa:2 core:4 pu:1", 1);
    ck_assert_int_eq(xt_topo_targets(XT_TOPO_NUMA, t, XT_TOPO_MAX), 4);
    ck_assert_mem_eq(&t[1], &want, sizeof(want));
    ck_assert_int_eq(xt_topo_targets(XT_TOPO_NUMA, t, 3), 3);
    ck_assert_int_eq(xt_topo_targets(XT_TOPO_NIC, t, XT_TOPO_MAX), 0);  /* no I/O */
    unsetenv("HWLOC_SYNTHETIC");
}
END_TEST

/* hwloc's XML topology: the two InfiniBand cards (their OpenFabrics
 * devices, one per card though each has a network device too; the
 * Ethernet card left out), each with its package's cores */
START_TEST(nics_of_an_xml_topology)
{
    struct xt_cpus t[XT_TOPO_MAX], pack0 = range(0, 3), pack1 = range(4, 7);
    char path[4096];
    const char *dir = getenv("XT_SRCDIR");
    snprintf(path, sizeof(path), "%s/test/unit/topo-2nic.xml", dir ? dir : ".");
    setenv("HWLOC_XMLFILE", path, 1);
    ck_assert_int_eq(xt_topo_targets(XT_TOPO_NIC, t, XT_TOPO_MAX), 2);
    ck_assert_mem_eq(&t[0], &pack0, sizeof(pack0));
    ck_assert_mem_eq(&t[1], &pack1, sizeof(pack1));
    ck_assert_int_eq(xt_topo_targets(XT_TOPO_NUMA, t, XT_TOPO_MAX), 4);
    unsetenv("HWLOC_XMLFILE");
}
END_TEST
#endif

Suite *topo_suite(void)
{
    Suite *s = suite_create("topo");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, bound_processes_one_per_domain);
    tcase_add_test(tc, bound_round_robin);
    tcase_add_test(tc, unbound_processes_spread_evenly);
    tcase_add_test(tc, bound_and_unbound_mixed);
    tcase_add_test(tc, capped_by_processes_and_one_domain_is_stock);
#ifdef XT_HAVE_HWLOC
    tcase_add_test(tc, numa_domains_of_a_synthetic_topology);
    tcase_add_test(tc, nics_of_an_xml_topology);
#endif
    suite_add_tcase(s, tc);
    return s;
}

UNIT_SUITE(topo_suite)

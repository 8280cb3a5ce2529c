/* Memory placement on the owner's NUMA node (src/core/xt_numa.c): the whole
 * pages of a buffer, the node of a set of cores, and no system call unless
 * there is more than one node. */
#include <stdlib.h>
#include <string.h>
#include "unit.h"
#include "unit_cpus.h"
#include "xt_numa.h"

/* a buffer's whole pages only: the pages it shares with others keep theirs */
START_TEST(span_rounds_inward_to_whole_pages)
{
    uintptr_t start;
    size_t n;
    ck_assert_int_eq(xt_numa_span((void *) 8192, 3 * 4096, 4096, &start, &n), 1);
    ck_assert_uint_eq(start, 8192);
    ck_assert_uint_eq(n, 3 * 4096);
    ck_assert_int_eq(xt_numa_span((void *) 8208, 3 * 4096, 4096, &start, &n), 1);
    ck_assert_uint_eq(start, 12288);
    ck_assert_uint_eq(n, 2 * 4096);
    /* less than a whole page */
    ck_assert_int_eq(xt_numa_span((void *) 8200, 4096, 4096, &start, &n), 0);
    ck_assert_uint_eq(n, 0);
    ck_assert_int_eq(xt_numa_span((void *) 8192, 0, 4096, &start, &n), 0);
}
END_TEST

/* two sockets of 8 cores: 0-7 on node 0, 8-15 on node 1 */
START_TEST(pick_the_node_of_the_bound_cores)
{
    int node[16];
    for (int c = 0; c < 16; c++)
        node[c] = c / 8;
    struct xt_cpus one = range(9, 9), most = range(6, 12), all = range(0, 15);
    ck_assert_int_eq(xt_numa_pick(node, 16, &one, 9), 1);
    ck_assert_int_eq(xt_numa_pick(node, 16, &most, 6), 1);      /* 5 of 7 on node 1 */
    /* not bound: a tie, the core it runs on decides */
    ck_assert_int_eq(xt_numa_pick(node, 16, &all, 3), 0);
    ck_assert_int_eq(xt_numa_pick(node, 16, &all, 12), 1);
    ck_assert_int_eq(xt_numa_pick(node, 16, &all, -1), 0);
    /* no core of the mask known */
    struct xt_cpus none = range(20, 21);
    ck_assert_int_eq(xt_numa_pick(node, 16, &none, 3), -1);
    node[9] = -1;
    ck_assert_int_eq(xt_numa_pick(node, 16, &one, 9), -1);
}
END_TEST

static long fake_calls;
static uintptr_t fake_start;
static unsigned long fake_len, fake_mask0;
static int fake_mode;

static long fake_mbind(void *addr, unsigned long len, int mode, const unsigned long *mask,
                       unsigned long maxnode, unsigned flags)
{
    (void) maxnode;
    (void) flags;
    fake_calls++;
    fake_start = (uintptr_t) addr;
    fake_len = len;
    fake_mode = mode;
    fake_mask0 = mask[0];
    return 0;
}

/* one node, or no libnuma: no mbind at all; two nodes: one call on the
 * buffer's whole pages, preferring the node */
START_TEST(place_calls_mbind_only_with_nodes_to_choose)
{
    struct xt_numa_sys sys = {.status = XT_NUMA_ONE_NODE, .nodes = 1, .mbind = fake_mbind };
    char *buf = aligned_alloc(4096, 4 * 4096);
    fake_calls = 0;
    ck_assert_int_eq(xt_numa_place_with(&sys, buf, 4 * 4096, 0), 0);
    sys.status = XT_NUMA_NO_LIB;
    ck_assert_int_eq(xt_numa_place_with(&sys, buf, 4 * 4096, 0), 0);
    ck_assert_int_eq(fake_calls, 0);
    ck_assert_int_eq(sys.calls, 0);
    sys.status = XT_NUMA_ON;
    sys.nodes = 2;
    ck_assert_int_eq(xt_numa_place_with(&sys, buf + 16, 4 * 4096 - 16, 1), 1);
    ck_assert_int_eq(fake_calls, 1);
    ck_assert_int_eq(sys.calls, 1);
    ck_assert_uint_eq(fake_start, (uintptr_t) buf + 4096);
    ck_assert_uint_eq(fake_len, 3 * 4096);
    ck_assert_int_eq(fake_mode, 1);     /* MPOL_PREFERRED */
    ck_assert_uint_eq(fake_mask0, 2);   /* node 1 */
    /* nothing to place: no node, no whole page */
    ck_assert_int_eq(xt_numa_place_with(&sys, buf, 4 * 4096, -1), 0);
    ck_assert_int_eq(xt_numa_place_with(&sys, buf + 16, 4096, 0), 0);
    ck_assert_int_eq(fake_calls, 1);
    free(buf);
}
END_TEST

/* this process's own system: whatever it has, a machine with fewer than two
 * nodes (or without libnuma) makes no mbind call */
START_TEST(this_machine_places_only_with_two_nodes)
{
    struct xt_numa_sys *sys = xt_numa_sys_load(0);
    char *buf = aligned_alloc(4096, 2 * 4096);
    long before = xt_numa_calls();
    int node = xt_numa_node_of_self();
    int moved = xt_numa_place(buf, 2 * 4096, node < 0 ? 0 : node);
    if (sys->status != XT_NUMA_ON) {
        ck_assert_int_eq(moved, 0);
        ck_assert_int_eq(xt_numa_calls(), before);
        ck_assert_int_eq(node, sys->status == XT_NUMA_ONE_NODE ? 0 : -1);
    } else {
        ck_assert_int_ge(sys->nodes, 2);
        ck_assert_int_eq(xt_numa_calls(), before + 1);
    }
    ck_assert_str_eq(xt_numa_status_text(sys->status),
                     sys->status == XT_NUMA_ON ? "on" :
                     sys->status == XT_NUMA_ONE_NODE ? "one_node" : "no_libnuma");
    free(buf);
}
END_TEST

Suite *numa_suite(void)
{
    Suite *s = suite_create("numa");
    TCase *t = tcase_create("place");
    tcase_add_test(t, span_rounds_inward_to_whole_pages);
    tcase_add_test(t, pick_the_node_of_the_bound_cores);
    tcase_add_test(t, place_calls_mbind_only_with_nodes_to_choose);
    tcase_add_test(t, this_machine_places_only_with_two_nodes);
    suite_add_tcase(s, t);
    return s;
}

UNIT_SUITE(numa_suite)

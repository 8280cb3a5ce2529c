/* romio-xt: aggregators from the node's topology (xt_topo.h); no MPI. */
#include "xt_topo.h"

#include <stdlib.h>
#include <string.h>

static int empty(const struct xt_cpus *s)
{
    for (int w = 0; w < XT_CPU_WORDS; w++)
        if (s->w[w])
            return 0;
    return 1;
}

/* a non-empty a inside b */
static int inside(const struct xt_cpus *a, const struct xt_cpus *b)
{
    for (int w = 0; w < XT_CPU_WORDS; w++)
        if (a->w[w] & ~b->w[w])
            return 0;
    return !empty(a);
}

/* per target, the first process bound inside it that is not picked yet */
static int pick_bound(const struct xt_cpus *targets, int k, const struct xt_cpus *masks,
                      int n, int m, char *used)
{
    int count = 0;
    for (int t = 0; t < k && count < m; t++)
        for (int r = 0; r < n; r++)
            if (!used[r] && inside(&masks[r], &targets[t])) {
                used[r] = 1;
                count++;
                break;
            }
    return count;
}

/* rest more, spread evenly over the processes not picked yet */
static void pick_spread(int n, int rest, char *used)
{
    int left = 0, seen = 0, j = 0;
    for (int r = 0; r < n; r++)
        left += !used[r];
    for (int r = 0; r < n && j < rest; r++) {
        if (used[r])
            continue;
        if (seen++ == (int) ((long long) j * left / rest)) {
            used[r] = 2;
            j++;
        }
    }
}

int xt_topo_choose(const struct xt_cpus *targets, int k, const struct xt_cpus *masks, int n,
                   int *chosen)
{
    int m = k < n ? k : n, count = 0;
    if (m <= 0)
        return 0;
    char *used = calloc((size_t) n, 1);
    if (!used)
        return -1;
    pick_spread(n, m - pick_bound(targets, k, masks, n, m, used), used);
    for (int r = 0; r < n; r++)
        if (used[r])
            chosen[count++] = r;
    free(used);
    return count;
}

#ifdef XT_HAVE_HWLOC
#include <hwloc.h>

int xt_topo_available(void)
{
    return 1;
}

static void to_cpus(hwloc_const_cpuset_t set, struct xt_cpus *out)
{
    int c;
    memset(out, 0, sizeof(*out));
    if (!set)
        return;
    hwloc_bitmap_foreach_begin(c, set)
        if (c < XT_CPU_WORDS * 64)
            out->w[c / 64] |= 1ull << (c % 64);
    hwloc_bitmap_foreach_end();
}

static int numa_targets(hwloc_topology_t topo, struct xt_cpus *targets, int max)
{
    int n = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_NUMANODE);
    if (n > max)
        n = max;
    for (int i = 0; i < n; i++)
        to_cpus(hwloc_get_obj_by_type(topo, HWLOC_OBJ_NUMANODE, i)->cpuset, &targets[i]);
    return n;
}

/* the cards with an OS device of type: one target per card (its PCI
 * device), the cores of its closest non-I/O ancestor */
static int cards(hwloc_topology_t topo, hwloc_obj_osdev_type_t type, struct xt_cpus *targets,
                 int max)
{
    hwloc_obj_t dev = NULL, seen[XT_TOPO_MAX];
    int n = 0;
    while (n < max && n < XT_TOPO_MAX && (dev = hwloc_get_next_osdev(topo, dev))) {
        int dup = 0;
        if (dev->attr->osdev.type != type)
            continue;
        for (int i = 0; i < n; i++)
            dup |= seen[i] == dev->parent;
        if (dup)
            continue;
        seen[n] = dev->parent;
        to_cpus(hwloc_get_non_io_ancestor_obj(topo, dev)->cpuset, &targets[n++]);
    }
    return n;
}

/* hwloc's own variables name a topology to use instead of this machine's:
 * honoured here also where HWLOC_COMPONENTS is set, which makes hwloc ignore
 * them (the sanitizer tier sets HWLOC_COMPONENTS=-pci) */
static void given_source(hwloc_topology_t topo)
{
    const char *xml = getenv("HWLOC_XMLFILE"), *syn = getenv("HWLOC_SYNTHETIC");
    if (xml && *xml)
        hwloc_topology_set_xml(topo, xml);
    else if (syn && *syn)
        hwloc_topology_set_synthetic(topo, syn);
}

int xt_topo_targets(enum xt_topo_kind kind, struct xt_cpus *targets, int max)
{
    hwloc_topology_t topo;
    int n = -1;
    if (hwloc_topology_init(&topo) != 0)
        return -1;
    given_source(topo);
    if (kind == XT_TOPO_NIC)
        hwloc_topology_set_io_types_filter(topo, HWLOC_TYPE_FILTER_KEEP_IMPORTANT);
    if (hwloc_topology_load(topo) == 0) {
        if (kind == XT_TOPO_NUMA)
            n = numa_targets(topo, targets, max);
        else if ((n = cards(topo, HWLOC_OBJ_OSDEV_OPENFABRICS, targets, max)) == 0)
            n = cards(topo, HWLOC_OBJ_OSDEV_NETWORK, targets, max);
    }
    hwloc_topology_destroy(topo);
    return n;
}
#else
int xt_topo_available(void)
{
    return 0;
}

int xt_topo_targets(enum xt_topo_kind kind, struct xt_cpus *targets, int max)
{
    (void) kind;
    (void) targets;
    (void) max;
    return -1;
}
#endif

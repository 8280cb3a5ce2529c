/* romio-xt: memory on the owner's NUMA node (xt_numa.h; no MPI, no ROMIO). */
#define _GNU_SOURCE
#include "xt_numa.h"

#include <dlfcn.h>
#include <sched.h>
#include <string.h>
#include <sys/sysinfo.h>

/* the kernel's values (numaif.h) */
#define XT_MPOL_PREFERRED 1
#define XT_MPOL_MF_MOVE 2
#define XT_MAX_NODES 1024

const char *xt_numa_status_text(int status)
{
    static const char *const text[] = { "off", "no_libnuma", "one_node", "on" };
    return status >= 0 && status <= XT_NUMA_ON ? text[status] : "off";
}

int xt_numa_span(const void *p, size_t len, size_t page, uintptr_t *start, size_t *n)
{
    uintptr_t lo = ((uintptr_t) p + page - 1) / page * page;
    uintptr_t hi = ((uintptr_t) p + len) / page * page;
    *start = lo;
    *n = hi > lo ? hi - lo : 0;
    return *n > 0;
}

static int has(const struct xt_cpus *s, int c)
{
    return (s->w[c / 64] >> (c % 64)) & 1;
}

int xt_numa_pick(const int *cpu_node, int ncpu, const struct xt_cpus *mask, int cur)
{
    static int count[XT_MAX_NODES];     /* application thread only */
    int best = -1;
    memset(count, 0, sizeof(count));
    for (int c = 0; c < ncpu && c < XT_CPU_WORDS * 64; c++)
        if (has(mask, c) && cpu_node[c] >= 0 && cpu_node[c] < XT_MAX_NODES)
            count[cpu_node[c]]++;
    for (int k = 0; k < XT_MAX_NODES; k++)
        if (count[k] && (best < 0 || count[k] > count[best]))
            best = k;
    int mine = cur >= 0 && cur < ncpu ? cpu_node[cur] : -1;
    if (best >= 0 && mine >= 0 && mine < XT_MAX_NODES && count[mine] == count[best])
        best = mine;
    return best;
}

int xt_numa_place_with(struct xt_numa_sys *sys, void *p, size_t len, int node)
{
    uintptr_t start;
    size_t n;
    if (sys->status != XT_NUMA_ON || node < 0 || node >= XT_MAX_NODES || !p ||
        !xt_numa_span(p, len, 4096, &start, &n))
        return 0;
    unsigned long mask[XT_MAX_NODES / (8 * sizeof(unsigned long))] = { 0 };
    mask[node / (8 * sizeof(unsigned long))] = 1ul << (node % (8 * sizeof(unsigned long)));
    __atomic_add_fetch(&sys->calls, 1, __ATOMIC_RELAXED);
    return sys->mbind((void *) start, n, XT_MPOL_PREFERRED, mask, XT_MAX_NODES + 1,
                      XT_MPOL_MF_MOVE) == 0;
}

static struct xt_numa_sys the_sys = {.status = XT_NUMA_NO_LIB };

#ifdef XT_HAVE_LIBNUMA
static int fake_node_of_cpu(int cpu)
{
    (void) cpu;
    return 0;
}

/* libnuma.so.1's calls, or 0 */
static int load_lib(struct xt_numa_sys *s)
{
    void *h = dlopen("libnuma.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h)
        return 0;
    int (*available)(void) = (int (*)(void)) dlsym(h, "numa_available");
    int (*configured)(void) = (int (*)(void)) dlsym(h, "numa_num_configured_nodes");
    s->node_of_cpu = (int (*)(int)) dlsym(h, "numa_node_of_cpu");
    s->mbind = (long (*)(void *, unsigned long, int, const unsigned long *, unsigned long,
                         unsigned)) dlsym(h, "mbind");
    if (!available || !configured || !s->node_of_cpu || !s->mbind) {
        dlclose(h);
        return 0;
    }
    s->nodes = available() < 0 ? 1 : configured();
    return 1;                   /* the library stays loaded for the process */
}
#endif

struct xt_numa_sys *xt_numa_sys_load(int fake_nodes)
{
    static int loaded;
    if (loaded)
        return &the_sys;
    loaded = 1;
#ifdef XT_HAVE_LIBNUMA
    if (fake_nodes >= 0 && load_lib(&the_sys)) {
        if (fake_nodes > 0 && the_sys.nodes == 1) {
            the_sys.nodes = fake_nodes;         /* test hook: every core on node 0 */
            the_sys.node_of_cpu = fake_node_of_cpu;
        }
        the_sys.status = the_sys.nodes > 1 ? XT_NUMA_ON : XT_NUMA_ONE_NODE;
    }
#else
    (void) fake_nodes;
#endif
    return &the_sys;
}

int xt_numa_node_of_self(void)
{
    if (the_sys.status == XT_NUMA_ONE_NODE)
        return 0;
    if (the_sys.status != XT_NUMA_ON)
        return -1;
    static int cpu_node[XT_CPU_WORDS * 64];     /* application thread only */
    struct xt_cpus mask;
    int ncpu = get_nprocs_conf();
    if (ncpu > XT_CPU_WORDS * 64)
        ncpu = XT_CPU_WORDS * 64;
    if (xt_cpus_self(&mask) != 0)
        memset(&mask, 0xff, sizeof(mask));     /* unknown: every core */
    for (int c = 0; c < ncpu; c++)
        cpu_node[c] = has(&mask, c) ? the_sys.node_of_cpu(c) : -1;
    return xt_numa_pick(cpu_node, ncpu, &mask, sched_getcpu());
}

int xt_numa_place(void *p, size_t len, int node)
{
    return xt_numa_place_with(&the_sys, p, len, node);
}

long xt_numa_calls(void)
{
    return __atomic_load_n(&the_sys.calls, __ATOMIC_RELAXED);
}

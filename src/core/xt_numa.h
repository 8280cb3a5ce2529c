/* romio-xt: memory on the NUMA node of the process that owns it
 * (romio_xt_numa_place, docs/numa.md).  The helper threads that fill
 * e10_cache's copy buffers and the prefetch cache's blocks may run on cores
 * of another node (romio_xt_helper_cpus=auto takes the idle ones): their
 * first touch would put the pages there.  xt_numa_place binds a buffer to
 * the owner's node before its first touch (mbind, MPOL_PREFERRED, moving
 * pages already there).  libnuma is loaded (dlopen) when the hint asks for
 * it, so the library needs no libnuma to load.  On a machine with one node
 * every call returns at once.  No MPI, no ROMIO: unit-tested. */
#ifndef XT_NUMA_H
#define XT_NUMA_H

#include <stddef.h>
#include <stdint.h>

#include "xt_cpus.h"

/* what placement does in this process */
enum xt_numa_status {
    XT_NUMA_OFF,                /* the hint is disable */
    XT_NUMA_NO_LIB,             /* built without libnuma, or libnuma.so.1 is missing */
    XT_NUMA_ONE_NODE,           /* one node (or numa_available() < 0): nothing to do */
    XT_NUMA_ON,                 /* buffers are bound to the owner's node */
};
/* the status as the stats record writes it: "off", "no_libnuma", "one_node", "on" */
const char *xt_numa_status_text(int status);

/* what the system offers (libnuma's calls; a unit test fakes them) */
struct xt_numa_sys {
    int status;                 /* XT_NUMA_NO_LIB, XT_NUMA_ONE_NODE or XT_NUMA_ON */
    int nodes;
    int (*node_of_cpu)(int cpu);
    long (*mbind)(void *addr, unsigned long len, int mode, const unsigned long *mask,
                  unsigned long maxnode, unsigned flags);
    long calls;                 /* mbind calls made (atomic) */
};

/* pure: the whole pages of [p, p + len): *start, *n; 0 when there is none */
int xt_numa_span(const void *p, size_t len, size_t page, uintptr_t *start, size_t *n);
/* pure: the node holding most cores of mask (cpu_node[c]: core c's node,
 * < 0 unknown; ncpu cores); a tie goes to cur's node (the core the caller
 * runs on), else to the lowest node; -1 when no core of mask is known */
int xt_numa_pick(const int *cpu_node, int ncpu, const struct xt_cpus *mask, int cur);
/* [p, p + len)'s whole pages preferred on node (sys->status XT_NUMA_ON,
 * node >= 0), best effort; returns 1 when mbind was called and succeeded.
 * Any other status: returns 0 at once, no system call. */
int xt_numa_place_with(struct xt_numa_sys *sys, void *p, size_t len, int node);

/* the process's system: libnuma loaded once (test hooks: fake_nodes > 1
 * pretends a machine with one node has that many, every core on node 0;
 * fake_nodes < 0 pretends libnuma is missing).  Application thread, before
 * any helper thread uses it. */
struct xt_numa_sys *xt_numa_sys_load(int fake_nodes);
/* the node of the cores this process is bound to (-1: unknown or one node);
 * needs xt_numa_sys_load */
int xt_numa_node_of_self(void);
/* xt_numa_place_with on the process's system (any thread, after the load) */
int xt_numa_place(void *p, size_t len, int node);
/* the process's mbind calls so far (any thread) */
long xt_numa_calls(void);

#endif

/* romio-xt: ROMIO's aggregator list from the nodes' topology
 * (romio_xt_cb_topology, xt_topo.h).  At open, after ROMIO read its hints and
 * before it builds its list from cb_config_list: a list set here is the one
 * ROMIO keeps (as on Blue Gene, ad_open.c), so ROMIO's two-phase I/O and
 * Orthrus's two_phase and view_based see these aggregators. */
#define _GNU_SOURCE
#include "xt_layer.h"
#include "xt_topo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>

/* what each process contributes to the list */
enum {
    AGG_ME = 1,                 /* it aggregates */
    AGG_GIVEN = 2,              /* its info gives cb_nodes or cb_config_list */
    AGG_NO_TOPO = 4,            /* its node's topology is unknown: one, its first */
    AGG_NO_NIC = 8,             /* nic: its node has no card, numa's are used */
};

/* this process's cores; empty when it is not bound (it may use every core) */
static void my_mask(struct xt_cpus *mine)
{
    int n = 0;
    xt_cpus_self(mine);         /* unknown: empty */
    for (int w = 0; w < XT_CPU_WORDS; w++)
        n += __builtin_popcountll(mine->w[w]);
    if (n >= get_nprocs())
        memset(mine, 0, sizeof(*mine));
}

/* the node's targets of kind, read once per process (the topology does not
 * change during a job; only the hooks touch this, under ROMIO's lock):
 * their count and *targets, or -1 */
static int targets_of(enum xt_topo_kind kind, const struct xt_cpus **targets)
{
    static struct xt_cpus *known[2];
    static int count[2];
    if (!known[kind]) {
        struct xt_cpus *t = calloc(XT_TOPO_MAX, sizeof(*t));
        if (!t)
            return -1;
        count[kind] = xt_topo_targets(kind, t, XT_TOPO_MAX);
        known[kind] = t;
    }
    *targets = known[kind];
    return count[kind];
}

/* on a node's first process: the flags of its n processes (each carries
 * the node's fallback bits) */
static void node_choose(int nic, const struct xt_cpus *masks, int n, int *flags)
{
    const struct xt_cpus *targets = NULL;
    int *chosen = calloc((size_t) n, sizeof(int)), bits = 0, k = -1, c = -1;
    if (chosen) {
        k = targets_of(nic ? XT_TOPO_NIC : XT_TOPO_NUMA, &targets);
        if (nic && k == 0) {
            bits = AGG_NO_NIC;
            k = targets_of(XT_TOPO_NUMA, &targets);
        }
        if (xt_test_hook("ROMIO_XT_TEST_TOPO_FAIL", 0))
            k = -1;             /* as when hwloc cannot read the topology */
        c = k > 0 ? xt_topo_choose(targets, k, masks, n, chosen) : -1;
    }
    if (c <= 0)                 /* as cb_config_list *:1: the node's first */
        bits = AGG_NO_TOPO;
    for (int i = 0; i < n; i++)
        flags[i] = bits;
    for (int i = 0; i < c; i++)
        flags[chosen[i]] |= AGG_ME;
    if (c <= 0)
        flags[0] |= AGG_ME;
    free(chosen);
}

/* this process's flags (its node's first process chooses); -1 on every
 * rank when a rank lacks memory (ok 0: the caller's) */
static int node_flags(ADIO_File fd, MPI_Comm node, int nic, int ok)
{
    struct xt_cpus mine, *masks = NULL;
    int me, n, *flags = NULL, f = -1;
    MPI_Comm_rank(node, &me);
    MPI_Comm_size(node, &n);
    if (me == 0) {
        masks = xt_calloc((size_t) n, sizeof(*masks));
        flags = xt_calloc((size_t) n, sizeof(int));
        ok &= masks && flags;
    }
    if (xt_all_ok(fd, ok, "romio_xt_cb_topology")) {
        my_mask(&mine);
        MPI_Gather(&mine, sizeof(mine), MPI_BYTE, masks, sizeof(mine), MPI_BYTE, 0, node);
        if (me == 0)
            node_choose(nic, masks, n, flags);
        MPI_Scatter(flags, 1, MPI_INT, &f, 1, MPI_INT, 0, node);
    }
    free(masks);
    free(flags);
    return f;
}

static int given(MPI_Info info)
{
    return xt_info_has(info, "cb_nodes") || xt_info_has(info, "cb_config_list");
}

/* rank 0: one warning for the nodes that fell back */
static void warn_fallbacks(ADIO_File fd, const int *all, int nprocs, int nic)
{
    int bits = 0;
    for (int r = 0; r < nprocs; r++)
        bits |= all[r];
    if (bits & AGG_NO_TOPO)
        xt_warn(fd, XT_WARN_SELF, "hint romio_xt_cb_topology: '%s', but hwloc cannot read "
                "the topology of a node; using one aggregator on that node (as cb_config_list "
                "*:1)", nic ? "nic" : "numa");
    if (bits & AGG_NO_NIC)
        xt_warn(fd, XT_WARN_SELF, "hint romio_xt_cb_topology: 'nic', but hwloc finds no "
                "network card on a node; using 'numa' on that node");
}

/* ROMIO's list: the ranks whose AGG_ME is set, ascending */
static void install(ADIO_File fd, const int *all, int nprocs)
{
    int count = 0, k = 0;
    char text[32];
    for (int r = 0; r < nprocs; r++)
        count += all[r] & AGG_ME;
    fd->hints->ranklist = ADIOI_Malloc(sizeof(int) * count);
    for (int r = 0; r < nprocs; r++)
        if (all[r] & AGG_ME)
            fd->hints->ranklist[k++] = r;
    fd->hints->cb_nodes = count;
    snprintf(text, sizeof(text), "%d", count);
    ADIOI_Info_set(fd->info, "cb_nodes", text);
}

void xt_topo_open(ADIO_File fd, MPI_Info users_info, int mode)
{
    const int nic = mode == XT_H_CB_TOPOLOGY_nic;
    int rank, nprocs, *all;
    MPI_Comm node;
    if (mode == XT_H_CB_TOPOLOGY_disable || fd->hints->ranklist)
        return;
    MPI_Comm_rank(fd->comm, &rank);
    MPI_Comm_size(fd->comm, &nprocs);
    if (!xt_topo_available()) {
        if (rank == 0)
            xt_warn(fd, XT_WARN_SELF, "hint romio_xt_cb_topology: '%s' needs hwloc, which "
                    "this library was built without; using ROMIO's cb_config_list",
                    nic ? "nic" : "numa");
        return;
    }
    all = xt_calloc((size_t) nprocs, sizeof(int));
    MPI_Comm_split_type(fd->comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
    int f = node_flags(fd, node, nic, all != NULL);
    MPI_Comm_free(&node);
    if (f < 0) {
        free(all);
        return;
    }
    f |= given(users_info) ? AGG_GIVEN : 0;
    MPI_Allgather(&f, 1, MPI_INT, all, 1, MPI_INT, fd->comm);
    if (!(all[0] & AGG_GIVEN)) {
        if (rank == 0)
            warn_fallbacks(fd, all, nprocs, nic);
        install(fd, all, nprocs);
    }
    free(all);
}

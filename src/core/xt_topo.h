/* romio-xt: aggregators from the node's topology (romio_xt_cb_topology).
 * At open each node's first process reads the node's topology with hwloc
 * (HWLOC_SYNTHETIC and HWLOC_XMLFILE give it a made-up one): its NUMA
 * domains, or its network cards and the cores close to each.  Of the node's
 * processes it picks one per such target (xt_topo_choose); the list of all
 * nodes' picks becomes ROMIO's aggregator list (xt_topo_open, xt_aggs.c). */
#ifndef XT_TOPO_H
#define XT_TOPO_H

#include "xt_cpus.h"

enum xt_topo_kind { XT_TOPO_NUMA, XT_TOPO_NIC };

#define XT_TOPO_MAX 256         /* targets per node */

/* pure: of a node's n processes with masks[0..n) (the cores each is bound
 * to; an empty mask: not bound), min(k, n) aggregators for the k targets
 * (each a set of cores): per target the first process bound inside it not
 * yet picked, the rest spread evenly over the processes left.  chosen[]
 * (n entries) gets their indexes, ascending; returns the count, or -1
 * without memory. */
int xt_topo_choose(const struct xt_cpus *targets, int k, const struct xt_cpus *masks, int n,
                   int *chosen);

/* the node's targets of kind (at most max) from hwloc: their count, 0 when
 * the node has none of that kind, -1 when hwloc cannot read the topology
 * or the library was built without it */
int xt_topo_targets(enum xt_topo_kind kind, struct xt_cpus *targets, int max);

/* whether the library was built with hwloc */
int xt_topo_available(void);

#endif

/* romio-xt Orthrus: core_first.  One aggregator per node (the node's process
 * with the most data) receives the node's pieces, accesses them in ascending
 * offset order in rounds of cb_buffer_size bytes (orth_exchange) and, for
 * reads, sends the data back: data never leaves the node. */
#include "orth.h"

/* the node rank with the most bytes (lowest on ties) */
static int pick_aggregator(MPI_Comm node, int64_t bytes)
{
    int ns;
    MPI_Comm_size(node, &ns);
    int64_t *all = ADIOI_Malloc(ns * sizeof(int64_t));
    MPI_Allgather(&bytes, 1, MPI_INT64_T, all, 1, MPI_INT64_T, node);
    int agg = 0;
    for (int i = 1; i < ns; i++)
        if (all[i] > all[agg])
            agg = i;
    ADIOI_Free(all);
    return agg;
}

static int to_node_aggregator(const struct orth_route *rt, ADIO_Offset off)
{
    (void) off;
    return rt->agg;
}

static void core_first(struct orth_call *c, int *err)
{
    struct orth_state *st = c->st;
    orth_nodes(c->fd, st);
    struct orth_route rt = {.comm = st->node,.unit = 0,.dest = to_node_aggregator };
    rt.agg = pick_aggregator(st->node, c->bytes);
    orth_exchange(c, &rt, err);
    orth_finish(c, err);
}

const struct orth_cand orth_core_first_cand = {.name = "core_first",.run = core_first,
    .setup = orth_nodes_setup,.writes_pieces = 1
};

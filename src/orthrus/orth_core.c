/* romio-xt Orthrus: core_first.  One aggregator per node (the node's process
 * with the most data) gathers the node's pieces and bytes, accesses them in
 * ascending offset order (orth_aggregate) and, for reads, scatters the data
 * back: data never leaves the node. */
#include "orth.h"

#include <string.h>

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

static void gather_pieces(struct orth_call *c, MPI_Comm node, int agg, int me,
                          struct orth_gather *g)
{
    int ns, n = orth_compact(c), nb = (int) c->bytes;
    MPI_Comm_size(node, &ns);
    memset(g, 0, sizeof(*g));
    if (me == agg)
        orth_gather_alloc(g, ns);
    MPI_Gather(&n, 1, MPI_INT, g->npieces, 1, MPI_INT, agg, node);
    MPI_Gather(&nb, 1, MPI_INT, g->nbytes, 1, MPI_INT, agg, node);
    if (me == agg)
        orth_gather_size(g, ns);
    MPI_Gatherv(c->offs, n, ADIO_OFFSET, g->offs, g->npieces, g->pdispl, ADIO_OFFSET, agg, node);
    MPI_Gatherv(c->lens, n, ADIO_OFFSET, g->lens, g->npieces, g->pdispl, ADIO_OFFSET, agg, node);
}

void orth_core_first(struct orth_call *c, int *err)
{
    struct orth_state *st = xt_slot_of(c->fd, &orth_layer)->state;
    MPI_Comm node = st->node;
    int me, pos = 0, nb = (int) c->bytes;
    struct orth_gather g;
    MPI_Comm_rank(node, &me);
    *err = MPI_SUCCESS;
    int agg = pick_aggregator(node, c->bytes);
    gather_pieces(c, node, agg, me, &g);
    char *mine = ADIOI_Malloc(nb + 1);
    char *stream = me == agg ? ADIOI_Malloc(g.total_bytes + 1) : NULL;
    if (c->is_write) {
        MPI_Pack(c->buf, c->count, c->dt, mine, nb, &pos, MPI_COMM_SELF);
        MPI_Gatherv(mine, nb, MPI_BYTE, stream, g.nbytes, g.bdispl, MPI_BYTE, agg, node);
    }
    if (me == agg)
        orth_aggregate(c->fd, &g, stream, c->is_write, err);
    if (!c->is_write) {
        MPI_Scatterv(stream, g.nbytes, g.bdispl, MPI_BYTE, mine, nb, MPI_BYTE, agg, node);
        MPI_Unpack(mine, nb, &pos, c->buf, c->count, c->dt, MPI_COMM_SELF);
    }
    ADIOI_Free(mine);
    if (stream)
        ADIOI_Free(stream);
    orth_gather_free(&g);
    orth_finish(c, err);
}

/* romio-xt Orthrus: disk_first.  As many aggregators as data servers
 * (striping_factor; when unknown, the number of nodes), aggregator a owning
 * the stripes with (offset / striping_unit) mod factor == a, so each server
 * sees one aggregator issuing its requests in ascending offset order.  Every
 * process sends each aggregator its pieces (cut at stripe boundaries) in that
 * aggregator's stripes (orth_exchange: all-to-all, in rounds). */
#include "orth.h"

/* stripe size when the file system does not say */
#define ORTH_DISK_UNIT (64 * 1024)

/* aggregators spread over the ranks: a * nprocs / naggs */
static int to_stripe_owner(const struct orth_route *rt, ADIO_Offset off)
{
    int a = (int) ((off / rt->unit) % rt->naggs);
    return (int) ((int64_t) a * rt->nprocs / rt->naggs);
}

void orth_disk_first(struct orth_call *c, int *err)
{
    struct orth_state *st = xt_slot_of(c->fd, &orth_layer)->state;
    struct orth_route rt = {.comm = c->fd->comm,.dest = to_stripe_owner };
    int factor = c->fd->hints->striping_factor;
    MPI_Comm_size(c->fd->comm, &rt.nprocs);
    rt.naggs = factor > 0 ? factor : st->nnodes;
    rt.naggs = rt.naggs > rt.nprocs ? rt.nprocs : rt.naggs < 1 ? 1 : rt.naggs;
    rt.unit = c->fd->hints->striping_unit > 0 ? c->fd->hints->striping_unit : ORTH_DISK_UNIT;
    orth_exchange(c, &rt, err);
    orth_finish(c, err);
}

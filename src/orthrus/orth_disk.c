/* romio-xt Orthrus: disk_first.  As many aggregators as data servers
 * (romio_orthrus_servers, else striping_factor, else the number of nodes),
 * aggregator a owning
 * the stripes with (offset / striping_unit) mod factor == a, so each server
 * sees one aggregator issuing its requests in ascending offset order.  Every
 * process sends each aggregator its pieces (cut at stripe boundaries) in that
 * aggregator's stripes (orth_exchange: all-to-all, in rounds). */
#include "orth.h"

/* stripe size when the file system does not say (a local disk, NFS): 4 MiB.
 * The requests are larger and disk_first's writes are as fast (0.95-1.02x
 * stock against 0.71-1.05x with 64 KiB, docs/orthrus.md).  Files written in
 * 64 KiB requests can seem to read back cold slower, but that is the test
 * VM's free page reporting, not the file; the unit is not re-measured with
 * settled cold reads */
#define ORTH_DISK_UNIT (4 * 1024 * 1024)

int orth_stripe_owner(const struct orth_route *rt, ADIO_Offset off)
{
    int a = (int) ((off / rt->unit) % rt->naggs);
    return (int) ((int64_t) a * rt->nprocs / rt->naggs);
}

ADIO_Offset orth_stripe_unit(ADIO_File fd)
{
    ADIO_Offset unit = (ADIO_Offset) xt_hint(fd, XT_H_ORTH_STRIPE)->i;
    unit = unit > 0 ? unit : fd->hints->striping_unit;
    return unit > 0 ? unit : ORTH_DISK_UNIT;
}

static void disk_first(struct orth_call *c, int *err)
{
    struct orth_state *st = c->st;
    struct orth_route rt = {.comm = c->fd->comm,.dest = orth_stripe_owner };
    int factor = (int) xt_hint(c->fd, XT_H_ORTH_SERVERS)->i;
    factor = factor > 0 ? factor : c->fd->hints->striping_factor;
    MPI_Comm_size(c->fd->comm, &rt.nprocs);
    if (factor <= 0)
        orth_nodes(c->fd, st);
    rt.naggs = factor > 0 ? factor : st->nnodes;
    rt.naggs = rt.naggs > rt.nprocs ? rt.nprocs : rt.naggs < 1 ? 1 : rt.naggs;
    rt.unit = orth_stripe_unit(c->fd);
    orth_exchange(c, &rt, err);
    orth_finish(c, err);
}

const struct orth_cand orth_disk_first_cand = {.name = "disk_first",.run = disk_first,
    .setup = orth_nodes_setup
};

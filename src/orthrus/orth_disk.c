/* romio-xt Orthrus: disk_first.  As many aggregators as data servers
 * (striping_factor; when unknown, the number of nodes), aggregator a owning
 * the stripes with (offset / striping_unit) mod factor == a, so each server
 * sees one aggregator issuing its requests in ascending offset order.  Every
 * process sends each aggregator the pieces (cut at stripe boundaries) in its
 * stripes: an all-to-all exchange. */
#include "orth.h"

#include <string.h>

/* stripe size when the file system does not say */
#define ORTH_DISK_UNIT (64 * 1024)

struct orth_disk {
    int nprocs, naggs;
    ADIO_Offset unit;
    int *pcnt, *pdis, *bcnt, *bdis;     /* per destination: pieces, bytes */
    ADIO_Offset *offs, *lens;   /* pieces by destination */
    char *buf;                  /* their bytes by destination */
};

static int dest_of(const struct orth_disk *d, ADIO_Offset off)
{
    int a = (int) ((off / d->unit) % d->naggs);
    return (int) ((int64_t) a * d->nprocs / d->naggs);
}

/* calls fn for each stripe-cut fragment of the pieces, in view order */
#define ORTH_FOR_FRAGMENTS(c, d, OFF, LEN, SPOS, BODY)                             \
    do {                                                                          \
        int64_t SPOS = 0;                                                         \
        for (int i_ = 0; i_ < (c)->n; i_++) {                                     \
            ADIO_Offset OFF = (c)->offs[i_], end_ = OFF + (c)->lens[i_];          \
            while (OFF < end_) {                                                  \
                ADIO_Offset LEN = ((OFF / (d)->unit) + 1) * (d)->unit - OFF;      \
                if (LEN > end_ - OFF)                                             \
                    LEN = end_ - OFF;                                             \
                BODY;                                                             \
                OFF += LEN;                                                       \
                SPOS += LEN;                                                      \
            }                                                                     \
        }                                                                         \
    } while (0)

static void count_fragments(const struct orth_call *c, struct orth_disk *d)
{
    memset(d->pcnt, 0, 2 * d->nprocs * sizeof(int));
    ORTH_FOR_FRAGMENTS(c, d, off, len, spos, {
        int t = dest_of(d, off);
        d->pcnt[t]++;
        d->bcnt[t] += (int) len;
        (void) spos;
    });
    orth_displs(d->pcnt, d->pdis, d->nprocs);
    orth_displs(d->bcnt, d->bdis, d->nprocs);
}

/* lays the fragments out by destination; to_dest: copy the stream's bytes
 * into d->buf, else copy them back from d->buf into the stream */
static void layout(const struct orth_call *c, struct orth_disk *d, char *stream, int to_dest)
{
    int *pcur = ADIOI_Malloc(2 * d->nprocs * sizeof(int)), *bcur = pcur + d->nprocs;
    memcpy(pcur, d->pdis, d->nprocs * sizeof(int));
    memcpy(bcur, d->bdis, d->nprocs * sizeof(int));
    ORTH_FOR_FRAGMENTS(c, d, off, len, spos, {
        int t = dest_of(d, off);
        d->offs[pcur[t]] = off;
        d->lens[pcur[t]++] = len;
        if (to_dest)
            memcpy(d->buf + bcur[t], stream + spos, len);
        else
            memcpy(stream + spos, d->buf + bcur[t], len);
        bcur[t] += (int) len;
    });
    ADIOI_Free(pcur);
}

static void setup(struct orth_call *c, struct orth_disk *d)
{
    struct orth_state *st = xt_slot_of(c->fd, &orth_layer)->state;
    int factor = c->fd->hints->striping_factor;
    MPI_Comm_size(c->fd->comm, &d->nprocs);
    d->naggs = factor > 0 ? factor : st->nnodes;
    if (d->naggs > d->nprocs)
        d->naggs = d->nprocs;
    if (d->naggs < 1)
        d->naggs = 1;
    d->unit = c->fd->hints->striping_unit > 0 ? c->fd->hints->striping_unit : ORTH_DISK_UNIT;
    d->pcnt = ADIOI_Malloc(4 * d->nprocs * sizeof(int));
    d->bcnt = d->pcnt + d->nprocs;
    d->pdis = d->bcnt + d->nprocs;
    d->bdis = d->pdis + d->nprocs;
    orth_compact(c);
    count_fragments(c, d);
    int nfrag = d->pdis[d->nprocs - 1] + d->pcnt[d->nprocs - 1];
    d->offs = ADIOI_Malloc((2 * (size_t) nfrag + 1) * sizeof(ADIO_Offset));
    d->lens = d->offs + nfrag;
    d->buf = ADIOI_Malloc(c->bytes + 1);
}

static void exchange_pieces(struct orth_call *c, struct orth_disk *d, struct orth_gather *g)
{
    MPI_Comm comm = c->fd->comm;
    orth_gather_alloc(g, d->nprocs);
    MPI_Alltoall(d->pcnt, 1, MPI_INT, g->npieces, 1, MPI_INT, comm);
    MPI_Alltoall(d->bcnt, 1, MPI_INT, g->nbytes, 1, MPI_INT, comm);
    orth_gather_size(g, d->nprocs);
    MPI_Alltoallv(d->offs, d->pcnt, d->pdis, ADIO_OFFSET, g->offs, g->npieces, g->pdispl,
                  ADIO_OFFSET, comm);
    MPI_Alltoallv(d->lens, d->pcnt, d->pdis, ADIO_OFFSET, g->lens, g->npieces, g->pdispl,
                  ADIO_OFFSET, comm);
}

void orth_disk_first(struct orth_call *c, int *err)
{
    struct orth_disk d;
    struct orth_gather g = { 0 };
    int nb = (int) c->bytes, pos = 0;
    MPI_Comm comm = c->fd->comm;
    *err = MPI_SUCCESS;
    setup(c, &d);
    char *mine = ADIOI_Malloc(nb + 1);
    if (c->is_write)
        MPI_Pack(c->buf, c->count, c->dt, mine, nb, &pos, MPI_COMM_SELF);
    layout(c, &d, mine, 1);
    exchange_pieces(c, &d, &g);
    char *stream = ADIOI_Malloc(g.total_bytes + 1);
    if (c->is_write)
        MPI_Alltoallv(d.buf, d.bcnt, d.bdis, MPI_BYTE, stream, g.nbytes, g.bdispl, MPI_BYTE, comm);
    orth_aggregate(c->fd, &g, stream, c->is_write, err);
    if (!c->is_write) {
        MPI_Alltoallv(stream, g.nbytes, g.bdispl, MPI_BYTE, d.buf, d.bcnt, d.bdis, MPI_BYTE, comm);
        layout(c, &d, mine, 0);
        MPI_Unpack(mine, nb, &pos, c->buf, c->count, c->dt, MPI_COMM_SELF);
    }
    ADIOI_Free(stream);
    ADIOI_Free(mine);
    ADIOI_Free(d.buf);
    ADIOI_Free(d.offs);
    ADIOI_Free(d.pcnt);
    orth_gather_free(&g);
    orth_finish(c, err);
}

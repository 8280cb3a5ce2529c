/* romio-xt Orthrus: the exchange engine shared by core_first and disk_first.
 * A route names the processes that exchange (a communicator), where each
 * byte of the file goes (its aggregator) and where pieces are cut (stripe
 * boundaries).  Every process sends each aggregator the description of its
 * pieces once; each aggregator cuts what it will receive into rounds of at
 * most cb_buffer_size bytes (by file offset) and publishes the round bounds;
 * then, round by round, the data of one window per aggregator is exchanged
 * (alltoallv) and accessed in ascending offset order (orth_aggregate), so an
 * aggregator never holds more than about cb_buffer_size bytes of the call. */
#include "orth.h"

#include <stdlib.h>
#include <string.h>

/* exclusive prefix sums: displacements for counts cnt[0..n-1] */
void orth_displs(const int *cnt, int *dis, int n)
{
    dis[0] = 0;
    for (int i = 1; i < n; i++)
        dis[i] = dis[i - 1] + cnt[i - 1];
}

/* this rank's nonempty pieces, compacted in place; returns their number */
static int orth_compact(struct orth_call *c)
{
    int n = 0;
    for (int i = 0; i < c->n; i++)
        if (c->lens[i] > 0) {
            c->offs[n] = c->offs[i];
            c->lens[n++] = c->lens[i];
        }
    return c->n = n;
}

struct xchg {
    const struct orth_route *rt;
    int np, me;
    int *scnt, *sdis, *rcnt, *rdis;     /* pieces per destination / source */
    ADIO_Offset *soff, *slen, *roff, *rlen;
    int64_t *spos;              /* a sent piece's position in the packed stream */
    int *nb, *bdis;             /* round bounds of each aggregator */
    ADIO_Offset *bounds;
    int rounds;
    int *sb, *sbd, *rb, *rbd;   /* bytes per destination / source in a round */
};

#define ORTH_END ((ADIO_Offset) 1 << 62)

/* calls BODY for each piece of c cut at multiples of unit (OFF, LEN, SPOS) */
#define ORTH_FOR_CUTS(c, unit, OFF, LEN, SPOS, BODY)                              \
    do {                                                                          \
        int64_t SPOS = 0;                                                         \
        for (int i_ = 0; i_ < (c)->n; i_++) {                                     \
            ADIO_Offset OFF = (c)->offs[i_], end_ = OFF + (c)->lens[i_];          \
            while (OFF < end_) {                                                  \
                ADIO_Offset LEN = (unit) ? ((OFF / (unit)) + 1) * (unit) - OFF    \
                    : end_ - OFF;                                                 \
                if (LEN > end_ - OFF)                                             \
                    LEN = end_ - OFF;                                             \
                BODY;                                                             \
                OFF += LEN;                                                       \
                SPOS += LEN;                                                      \
            }                                                                     \
        }                                                                         \
    } while (0)

static int *ints(struct xchg *x, int k)
{
    return ADIOI_Calloc((size_t) k * x->np + 1, sizeof(int));
}

/* this rank's pieces, cut, grouped by destination (view order within one) */
static void cut_pieces(struct orth_call *c, struct xchg *x)
{
    const struct orth_route *rt = x->rt;
    orth_compact(c);
    ORTH_FOR_CUTS(c, rt->unit, off, len, spos, {
        x->scnt[rt->dest(rt, off)]++;
        (void) len;
        (void) spos;
    });
    orth_displs(x->scnt, x->sdis, x->np);
    int n = x->sdis[x->np - 1] + x->scnt[x->np - 1], *cur = ints(x, 1);
    x->soff = ADIOI_Malloc((2 * (size_t) n + 1) * sizeof(ADIO_Offset));
    x->slen = x->soff + n;
    x->spos = ADIOI_Malloc(((size_t) n + 1) * sizeof(int64_t));
    memcpy(cur, x->sdis, x->np * sizeof(int));
    ORTH_FOR_CUTS(c, rt->unit, off, len, spos, {
        int k = cur[rt->dest(rt, off)]++;
        x->soff[k] = off;
        x->slen[k] = len;
        x->spos[k] = spos;
    });
    ADIOI_Free(cur);
}

static void exchange_pieces(struct xchg *x)
{
    MPI_Comm comm = x->rt->comm;
    MPI_Alltoall(x->scnt, 1, MPI_INT, x->rcnt, 1, MPI_INT, comm);
    orth_displs(x->rcnt, x->rdis, x->np);
    int n = x->rdis[x->np - 1] + x->rcnt[x->np - 1];
    x->roff = ADIOI_Malloc((2 * (size_t) n + 1) * sizeof(ADIO_Offset));
    x->rlen = x->roff + n;
    MPI_Alltoallv(x->soff, x->scnt, x->sdis, ADIO_OFFSET, x->roff, x->rcnt, x->rdis,
                  ADIO_OFFSET, comm);
    MPI_Alltoallv(x->slen, x->scnt, x->sdis, ADIO_OFFSET, x->rlen, x->rcnt, x->rdis,
                  ADIO_OFFSET, comm);
}

static int cmp_off(const void *a, const void *b)
{
    const ADIO_Offset *x = a, *y = b;
    return (x[0] > y[0]) - (x[0] < y[0]);
}

/* the first offset of each round of what this rank receives (every round
 * holds at most cap bytes, pieces split where needed); returns the count */
static int my_bounds(const struct xchg *x, ADIO_Offset cap, ADIO_Offset **out)
{
    int n = x->rdis[x->np - 1] + x->rcnt[x->np - 1], nb = 0;
    ADIO_Offset *p = ADIOI_Malloc((2 * (size_t) n + 1) * sizeof(ADIO_Offset)), acc = 0, all = 0;
    for (int i = 0; i < n; i++) {
        p[2 * i] = x->roff[i];
        all += p[2 * i + 1] = x->rlen[i];
    }
    qsort(p, n, 2 * sizeof(ADIO_Offset), cmp_off);
    *out = ADIOI_Malloc(((size_t) n + all / cap + 2) * sizeof(ADIO_Offset));
    for (int i = 0; i < n; i++)
        for (ADIO_Offset off = p[2 * i], left = p[2 * i + 1]; left > 0;) {
            if (nb == 0 || acc == cap) {
                (*out)[nb++] = off;
                acc = 0;
            }
            ADIO_Offset take = left < cap - acc ? left : cap - acc;
            acc += take;
            off += take;
            left -= take;
        }
    ADIOI_Free(p);
    return nb;
}

static void publish_bounds(struct xchg *x, ADIO_Offset cap)
{
    ADIO_Offset *mine;
    int n = my_bounds(x, cap, &mine);
    MPI_Allgather(&n, 1, MPI_INT, x->nb, 1, MPI_INT, x->rt->comm);
    orth_displs(x->nb, x->bdis, x->np);
    x->bounds = ADIOI_Malloc(((size_t) x->bdis[x->np - 1] + x->nb[x->np - 1] + 1) *
                             sizeof(ADIO_Offset));
    MPI_Allgatherv(mine, n, ADIO_OFFSET, x->bounds, x->nb, x->bdis, ADIO_OFFSET, x->rt->comm);
    ADIOI_Free(mine);
    x->rounds = 0;
    for (int t = 0; t < x->np; t++)
        x->rounds = x->nb[t] > x->rounds ? x->nb[t] : x->rounds;
}

/* the part of [*off, *off + *len) in aggregator t's window of round r */
static int clip(const struct xchg *x, int t, int r, ADIO_Offset * off, ADIO_Offset * len)
{
    if (r >= x->nb[t])
        return 0;
    ADIO_Offset lo = x->bounds[x->bdis[t] + r];
    ADIO_Offset hi = r + 1 < x->nb[t] ? x->bounds[x->bdis[t] + r + 1] : ORTH_END;
    ADIO_Offset a = *off > lo ? *off : lo, b = *off + *len < hi ? *off + *len : hi;
    if (a >= b)
        return 0;
    *len = b - a;
    *off = a;
    return 1;
}

/* the sender's side of round r: the bytes per aggregator, and (rbuf not
 * NULL) each window's bytes copied between the packed stream and the round
 * buffer (to_round: stream -> round buffer) */
static void sender_round(struct xchg *x, int r, char *stream, char *rbuf, int to_round)
{
    int64_t at = 0;
    for (int t = 0; t < x->np; t++) {
        x->sb[t] = 0;
        for (int k = x->sdis[t]; k < x->sdis[t] + x->scnt[t]; k++) {
            ADIO_Offset off = x->soff[k], len = x->slen[k];
            if (!clip(x, t, r, &off, &len))
                continue;
            char *s = stream + x->spos[k] + (off - x->soff[k]);
            if (rbuf)
                memcpy(to_round ? rbuf + at : s, to_round ? s : rbuf + at, len);
            at += len;
            x->sb[t] += (int) len;
        }
    }
    orth_displs(x->sb, x->sbd, x->np);
}

/* the aggregator's side of round r: its pieces, in the order they arrive */
static void receiver_round(struct xchg *x, int r, struct orth_gather *g)
{
    g->total = 0;
    for (int s = 0; s < x->np; s++) {
        x->rb[s] = 0;
        for (int k = x->rdis[s]; k < x->rdis[s] + x->rcnt[s]; k++) {
            ADIO_Offset off = x->roff[k], len = x->rlen[k];
            if (!clip(x, x->me, r, &off, &len))
                continue;
            g->offs[g->total] = off;
            g->lens[g->total++] = len;
            x->rb[s] += (int) len;
        }
    }
    orth_displs(x->rb, x->rbd, x->np);
}

static void run_rounds(struct orth_call *c, struct xchg *x, char *stream, int *err)
{
    int nr = x->rdis[x->np - 1] + x->rcnt[x->np - 1];
    struct orth_gather g = {.offs = ADIOI_Malloc((2 * (size_t) nr + 1) * sizeof(ADIO_Offset)) };
    g.lens = g.offs + nr;
    char *sbuf = ADIOI_Malloc(c->bytes + 1);
    MPI_Comm comm = x->rt->comm;
    for (int r = 0; r < x->rounds; r++) {
        receiver_round(x, r, &g);
        char *rbuf = ADIOI_Malloc((size_t) x->rbd[x->np - 1] + x->rb[x->np - 1] + 1);
        if (c->is_write) {
            sender_round(x, r, stream, sbuf, 1);
            MPI_Alltoallv(sbuf, x->sb, x->sbd, MPI_BYTE, rbuf, x->rb, x->rbd, MPI_BYTE, comm);
            if (*err == MPI_SUCCESS)
                orth_aggregate(c->fd, &g, rbuf, 1, err);
        } else {
            sender_round(x, r, stream, NULL, 0);        /* counts only: data comes back */
            if (*err == MPI_SUCCESS)
                orth_aggregate(c->fd, &g, rbuf, 0, err);
            MPI_Alltoallv(rbuf, x->rb, x->rbd, MPI_BYTE, sbuf, x->sb, x->sbd, MPI_BYTE, comm);
            sender_round(x, r, stream, sbuf, 0);
        }
        ADIOI_Free(rbuf);
    }
    ADIOI_Free(sbuf);
    ADIOI_Free(g.offs);
}

void orth_exchange(struct orth_call *c, const struct orth_route *rt, int *err)
{
    struct xchg x = {.rt = rt };
    int nb = (int) c->bytes, pos = 0;
    MPI_Comm_size(rt->comm, &x.np);
    MPI_Comm_rank(rt->comm, &x.me);
    int *all = ints(&x, 10);
    int **arrays[] = { &x.scnt, &x.sdis, &x.rcnt, &x.rdis, &x.nb, &x.bdis, &x.sb, &x.sbd,
        &x.rb, &x.rbd
    };
    for (int k = 0; k < 10; k++)
        *arrays[k] = all + k * x.np;
    *err = MPI_SUCCESS;
    cut_pieces(c, &x);
    exchange_pieces(&x);
    publish_bounds(&x, c->fd->hints->cb_buffer_size > 0 ? c->fd->hints->cb_buffer_size
                   : 16 * 1024 * 1024);
    char *stream = ADIOI_Malloc(nb + 1);
    if (c->is_write)
        MPI_Pack(c->buf, c->count, c->dt, stream, nb, &pos, MPI_COMM_SELF);
    run_rounds(c, &x, stream, err);
    c->st->rounds += x.rounds;
    if (!c->is_write)
        MPI_Unpack(stream, nb, &pos, c->buf, c->count, c->dt, MPI_COMM_SELF);
    ADIOI_Free(stream);
    ADIOI_Free(x.soff);
    ADIOI_Free(x.spos);
    ADIOI_Free(x.roff);
    ADIOI_Free(x.bounds);
    ADIOI_Free(all);
}

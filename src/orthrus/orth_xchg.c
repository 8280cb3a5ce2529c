/* romio-xt Orthrus: the exchange engine shared by core_first and disk_first.
 * A route names the processes that exchange (a communicator), where each
 * byte of the file goes (its aggregator) and where pieces are cut (stripe
 * boundaries).  Every process sends each aggregator the description of its
 * pieces once (sorted by offset); each aggregator cuts what it will receive
 * into rounds of at most cb_buffer_size bytes (by file offset) and publishes
 * the round bounds.  Then round by round the data of one window per
 * aggregator moves with nonblocking point-to-point messages whose datatypes
 * point straight into the sender's data and the aggregator's round buffer
 * (no packing in between), and the aggregator accesses the window in
 * ascending offset order (orth_agg.c).  Two rounds are in flight: a write
 * exchanges round k+1 while round k is written, a read sends round k while
 * round k+1 is read, as ROMIO's two-phase does.  Each process walks its
 * pieces once over all rounds (a cursor per peer).  When a round's pieces
 * all come from the aggregator itself and lie in its data in file order, it
 * accesses them in place (no copy at all). */
#include "orth.h"

#include <stdlib.h>
#include <string.h>

#define ORTH_TAG 7013
#define ORTH_END ((ADIO_Offset) 1 << 62)
#define ORTH_DEFAULT_CAP (16 * 1024 * 1024)

/* exclusive prefix sums: displacements for counts cnt[0..n-1] */
void orth_displs(const int *cnt, int *dis, int n)
{
    dis[0] = 0;
    for (int i = 1; i < n; i++)
        dis[i] = dis[i - 1] + cnt[i - 1];
}

/* a file range and a place in memory: the sender's packed data, or the
 * aggregator's round buffer */
struct span {
    ADIO_Offset off, len;
    int64_t pos;
};

/* how far a peer's pieces went: piece k, its first `done` bytes */
struct cursor {
    int k;
    ADIO_Offset done;
};

/* one round as this process sees it */
struct round {
    int *sn, *rn;               /* blocks to each aggregator / from each source */
    struct span *sb, *rb;       /* those blocks, at sdis[t] / rdis[s] */
    struct orth_piece *p;       /* the aggregator's plan */
    int m, overlap, direct, nreq;
    char *buf, *stage;          /* round buffer; per-source staging (overlapping writes) */
    int64_t size, bufcap, stagecap;
    MPI_Request *req;
};

struct xchg {
    const struct orth_route *rt;
    int64_t *moved;             /* orth_state.moved: this rank's counts */
    MPI_Comm comm;
    int np, me, is_write;
    char *stream;               /* this process's data, in view order */
    int *scnt, *sdis, *rcnt, *rdis, *nb, *bdis;
    struct span *sp, *rp;       /* pieces to each aggregator / from each source */
    ADIO_Offset *bounds;        /* each aggregator's rounds' first offsets */
    int rounds;
    struct cursor *scur, *rcur;
    MPI_Aint *disp;             /* one block list, merged, for a datatype */
    int *bl;
    MPI_Datatype span_t;        /* off and len of a struct span */
    struct round rd[2];
};

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

static int cmp_span(const void *a, const void *b)
{
    const struct span *x = a, *y = b;
    if (x->off != y->off)
        return x->off < y->off ? -1 : 1;
    return (x->pos > y->pos) - (x->pos < y->pos);
}

/* sorts s[0..n-1] by offset unless it is already (a view's usual case) */
static void sort_spans(struct span *s, int n)
{
    for (int i = 1; i < n; i++)
        if (cmp_span(&s[i - 1], &s[i]) > 0) {
            qsort(s, n, sizeof(*s), cmp_span);
            return;
        }
}

static void *alloc(size_t n, size_t size)
{
    return ADIOI_Calloc(n + 1, size);
}

/* this rank's pieces, cut, grouped by aggregator, by offset within one */
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
    int n = x->sdis[x->np - 1] + x->scnt[x->np - 1], *cur = alloc(x->np, sizeof(int));
    x->sp = alloc(n, sizeof(struct span));
    memcpy(cur, x->sdis, x->np * sizeof(int));
    ORTH_FOR_CUTS(c, rt->unit, off, len, spos, {
        struct span *s = &x->sp[cur[rt->dest(rt, off)]++];
        s->off = off;
        s->len = len;
        s->pos = spos;
    });
    for (int t = 0; t < x->np; t++)
        sort_spans(x->sp + x->sdis[t], x->scnt[t]);
    ADIOI_Free(cur);
}

static void exchange_pieces(struct xchg *x)
{
    MPI_Datatype pair;
    MPI_Type_contiguous(2, ADIO_OFFSET, &pair);
    MPI_Type_create_resized(pair, 0, sizeof(struct span), &x->span_t);
    MPI_Type_commit(&x->span_t);
    MPI_Type_free(&pair);
    MPI_Alltoall(x->scnt, 1, MPI_INT, x->rcnt, 1, MPI_INT, x->comm);
    orth_displs(x->rcnt, x->rdis, x->np);
    x->rp = alloc(x->rdis[x->np - 1] + x->rcnt[x->np - 1], sizeof(struct span));
    MPI_Alltoallv(x->sp, x->scnt, x->sdis, x->span_t, x->rp, x->rcnt, x->rdis, x->span_t,
                  x->comm);
    MPI_Type_free(&x->span_t);
}

/* the first offset of each round of what this rank receives (every round
 * holds at most cap bytes, pieces split where needed); returns the count */
static int my_bounds(const struct xchg *x, ADIO_Offset cap, ADIO_Offset **out)
{
    int n = x->rdis[x->np - 1] + x->rcnt[x->np - 1], nb = 0;
    struct span *p = alloc(n, sizeof(*p));
    ADIO_Offset acc = 0, all = 0;
    for (int i = 0; i < n; i++) {
        p[i] = x->rp[i];
        p[i].pos = 0;
        all += p[i].len;
    }
    qsort(p, n, sizeof(*p), cmp_span);
    *out = alloc(n + all / cap + 1, sizeof(ADIO_Offset));
    for (int i = 0; i < n; i++)
        for (ADIO_Offset off = p[i].off, left = p[i].len; left > 0;) {
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
    MPI_Allgather(&n, 1, MPI_INT, x->nb, 1, MPI_INT, x->comm);
    orth_displs(x->nb, x->bdis, x->np);
    x->bounds = alloc(x->bdis[x->np - 1] + x->nb[x->np - 1], sizeof(ADIO_Offset));
    MPI_Allgatherv(mine, n, ADIO_OFFSET, x->bounds, x->nb, x->bdis, ADIO_OFFSET, x->comm);
    ADIOI_Free(mine);
    x->rounds = 0;
    for (int t = 0; t < x->np; t++)
        x->rounds = x->nb[t] > x->rounds ? x->nb[t] : x->rounds;
}

/* the end of aggregator t's window in round r (r < nb[t]) */
static ADIO_Offset window_end(const struct xchg *x, int t, int r)
{
    return r + 1 < x->nb[t] ? x->bounds[x->bdis[t] + r + 1] : ORTH_END;
}

/* the blocks below hi from the pieces p[cu->k .. end), into out; the
 * cursor moves on (each piece is visited once per round it spans) */
static int take(const struct span *p, int end, struct cursor *cu, ADIO_Offset hi,
                struct span *out)
{
    int n = 0;
    while (cu->k < end) {
        const struct span *q = &p[cu->k];
        ADIO_Offset off = q->off + cu->done, len = q->len - cu->done;
        if (off >= hi)
            break;
        len = len < hi - off ? len : hi - off;
        out[n].off = off;
        out[n].len = len;
        out[n++].pos = q->pos + cu->done;
        cu->done += len;
        if (cu->done == q->len) {
            cu->k++;
            cu->done = 0;
        }
    }
    return n;
}

static void grow(char **buf, int64_t *cap, int64_t want)
{
    if (want <= *cap && *buf)
        return;
    if (*buf)
        ADIOI_Free(*buf);
    *buf = ADIOI_Malloc(want + 1);
    *cap = want;
}

/* the aggregator's own round, all of it in its data in file order: accessed
 * in place (fpos = the place in the stream) */
static int in_place(const struct xchg *x, struct round *R)
{
    const struct span *self = R->sb + x->sdis[x->me];
    if (R->m == 0 || R->overlap || R->rn[x->me] != R->m)
        return 0;
    for (int i = 1; i < R->m; i++)
        if (R->p[i].off == R->p[i - 1].off + R->p[i - 1].len &&
            self[R->p[i].seq].pos != self[R->p[i - 1].seq].pos + R->p[i - 1].len)
            return 0;
    for (int i = 0; i < R->m; i++)
        R->p[i].fpos = self[R->p[i].seq].pos;
    return 1;
}

/* round r's blocks for every peer and, at an aggregator, its plan */
static void plan_round(struct xchg *x, int r, struct round *R)
{
    for (int t = 0; t < x->np; t++)
        R->sn[t] = r < x->nb[t] ? take(x->sp, x->sdis[t] + x->scnt[t], &x->scur[t],
                                       window_end(x, t, r), R->sb + x->sdis[t]) : 0;
    R->m = 0;
    for (int s = 0; s < x->np; s++) {
        R->rn[s] = r < x->nb[x->me] ? take(x->rp, x->rdis[s] + x->rcnt[s], &x->rcur[s],
                                           window_end(x, x->me, r), R->rb + x->rdis[s]) : 0;
        for (int i = 0; i < R->rn[s]; i++)
            R->p[R->m++] = (struct orth_piece) {.off = R->rb[x->rdis[s] + i].off,
                .len = R->rb[x->rdis[s] + i].len,.src = s,.seq = i };
    }
    R->size = orth_plan(R->p, R->m, &R->overlap);
    R->direct = in_place(x, R);
    if (R->direct)
        return;
    grow(&R->buf, &R->bufcap, R->size);
    for (int i = 0; i < R->m; i++)
        R->rb[x->rdis[R->p[i].src] + R->p[i].seq].pos = R->p[i].fpos;
    if (x->is_write && R->overlap) {    /* sources land apart, copied in plan order */
        int64_t at = 0;
        for (int s = 0; s < x->np; s++)
            for (int i = 0; i < R->rn[s]; i++) {
                R->rb[x->rdis[s] + i].pos = at;
                at += R->rb[x->rdis[s] + i].len;
            }
        grow(&R->stage, &R->stagecap, at);
    }
}

/* one nonblocking message of the blocks b[0..n-1] of base to/from peer */
static void post_blocks(struct xchg *x, struct round *R, char *base, const struct span *b,
                        int n, int peer, int send)
{
    int k = 0, count = 1;
    for (int i = 0; i < n; i++)
        if (k && x->disp[k - 1] + x->bl[k - 1] == b[i].pos)
            x->bl[k - 1] += (int) b[i].len;
        else {
            x->disp[k] = (MPI_Aint) b[i].pos;
            x->bl[k++] = (int) b[i].len;
        }
    MPI_Datatype t = MPI_BYTE;
    if (k == 1) {
        base += x->disp[0];
        count = x->bl[0];
    } else {
        MPI_Type_create_hindexed(k, x->bl, x->disp, MPI_BYTE, &t);
        MPI_Type_commit(&t);
    }
    MPI_Request *q = &R->req[R->nreq++];
    for (int i = 0; send && i < n; i++)
        x->moved[ORTH_SENT] += b[i].len;
    if (send)
        MPI_Isend(base, count, t, peer, ORTH_TAG, x->comm, q);
    else
        MPI_Irecv(base, count, t, peer, ORTH_TAG, x->comm, q);
    if (k != 1)
        MPI_Type_free(&t);      /* freed when the message is done */
}

/* starts round R's messages (a write: data to the aggregators; a read: data
 * back from them); the aggregator's own blocks are copied */
static void post_round(struct xchg *x, struct round *R)
{
    int w = x->is_write;
    char *abuf = w && R->overlap ? R->stage : R->buf;
    R->nreq = 0;
    for (int s = 0; s < x->np; s++)     /* the aggregator's side */
        if (s != x->me && R->rn[s] > 0)
            post_blocks(x, R, abuf, R->rb + x->rdis[s], R->rn[s], s, !w);
    for (int t = 0; t < x->np; t++)     /* the sender's side */
        if (t != x->me && R->sn[t] > 0)
            post_blocks(x, R, x->stream, R->sb + x->sdis[t], R->sn[t], t, w);
    if (R->direct)
        return;
    const struct span *from = R->sb + x->sdis[x->me], *to = R->rb + x->rdis[x->me];
    for (int i = 0; i < R->rn[x->me]; i++) {
        if (w)
            memcpy(abuf + to[i].pos, x->stream + from[i].pos, to[i].len);
        else
            memcpy(x->stream + from[i].pos, abuf + to[i].pos, to[i].len);
        x->moved[ORTH_COPIED] += to[i].len;
    }
}

static void complete_round(struct xchg *x, struct round *R)
{
    MPI_Waitall(R->nreq, R->req, MPI_STATUSES_IGNORE);
    R->nreq = 0;
    if (x->is_write && R->overlap && !R->direct)
        for (int i = 0; i < R->m; i++)  /* in plan order: the later source wins */
            memcpy(R->buf + R->p[i].fpos, R->stage + R->rb[x->rdis[R->p[i].src] +
                                                           R->p[i].seq].pos, R->p[i].len);
}

static void access_round(ADIO_File fd, struct xchg *x, struct round *R, int *err)
{
    for (int i = 0; R->direct && i < R->m; i++)
        x->moved[ORTH_IN_PLACE] += R->p[i].len;
    if (R->m > 0 && *err == MPI_SUCCESS)
        orth_access(fd, R->p, R->m, R->direct ? x->stream : R->buf, x->is_write, err);
}

/* writes: round k+1's messages fly while round k is written; reads: round k's
 * fly while round k+1 is read */
static void run_rounds(ADIO_File fd, struct xchg *x, int *err)
{
    struct round *R = x->rd;
    int n = x->rounds;
    if (x->is_write) {
        if (n > 0) {
            plan_round(x, 0, &R[0]);
            post_round(x, &R[0]);
        }
        for (int r = 0; r < n; r++) {
            if (r + 1 < n) {
                plan_round(x, r + 1, &R[(r + 1) % 2]);
                post_round(x, &R[(r + 1) % 2]);
            }
            complete_round(x, &R[r % 2]);
            access_round(fd, x, &R[r % 2], err);
        }
        return;
    }
    for (int r = 0; r < n; r++) {
        plan_round(x, r, &R[r % 2]);
        access_round(fd, x, &R[r % 2], err);
        post_round(x, &R[r % 2]);
        if (r > 0)
            complete_round(x, &R[(r + 1) % 2]);
    }
    if (n > 0)
        complete_round(x, &R[(n - 1) % 2]);
}

static void init_rounds(struct xchg *x)
{
    int ns = x->sdis[x->np - 1] + x->scnt[x->np - 1];
    int nr = x->rdis[x->np - 1] + x->rcnt[x->np - 1];
    for (int k = 0; k < 2; k++) {
        struct round *R = &x->rd[k];
        R->sn = alloc(2 * x->np, sizeof(int));
        R->rn = R->sn + x->np;
        R->sb = alloc(ns, sizeof(struct span));
        R->rb = alloc(nr, sizeof(struct span));
        R->p = alloc(nr, sizeof(struct orth_piece));
        R->req = alloc(2 * x->np, sizeof(MPI_Request));
    }
    x->disp = alloc(ns > nr ? ns : nr, sizeof(MPI_Aint));
    x->bl = alloc(ns > nr ? ns : nr, sizeof(int));
    x->scur = alloc(2 * x->np, sizeof(struct cursor));
    x->rcur = x->scur + x->np;
    for (int t = 0; t < x->np; t++) {
        x->scur[t].k = x->sdis[t];
        x->rcur[t].k = x->rdis[t];
    }
}

static void free_rounds(struct xchg *x)
{
    for (int k = 0; k < 2; k++) {
        struct round *R = &x->rd[k];
        void *p[] = { R->sn, R->sb, R->rb, R->p, R->req, R->buf, R->stage };
        for (size_t i = 0; i < sizeof(p) / sizeof(p[0]); i++)
            if (p[i])
                ADIOI_Free(p[i]);
    }
    ADIOI_Free(x->disp);
    ADIOI_Free(x->bl);
    ADIOI_Free(x->scur);
}

char *orth_stream(const struct orth_call *c, int *packed)
{
    int contig, pos = 0;
    MPI_Aint lb, ext, tlb, text;
    MPI_Count size;
    ADIOI_Datatype_iscontig(c->dt, &contig);
    MPI_Type_get_extent(c->dt, &lb, &ext);
    MPI_Type_get_true_extent(c->dt, &tlb, &text);
    MPI_Type_size_x(c->dt, &size);
    *packed = !(contig && tlb == 0 && (c->count <= 1 || ext == size));
    if (!*packed)
        return c->buf;
    char *s = ADIOI_Malloc(c->bytes + 1);
    if (c->is_write)
        MPI_Pack(c->buf, c->count, c->dt, s, (int) c->bytes, &pos, MPI_COMM_SELF);
    return s;
}

void orth_exchange(struct orth_call *c, const struct orth_route *rt, int *err)
{
    struct orth_state *st = c->st;
    struct xchg x = {.rt = rt,.comm = rt->comm,.is_write = c->is_write,.moved = st->moved };
    int packed, pos = 0;
    MPI_Comm_size(rt->comm, &x.np);
    MPI_Comm_rank(rt->comm, &x.me);
    int *all = alloc(6 * x.np, sizeof(int));
    int **arrays[] = { &x.scnt, &x.sdis, &x.rcnt, &x.rdis, &x.nb, &x.bdis };
    for (int k = 0; k < 6; k++)
        *arrays[k] = all + k * x.np;
    *err = MPI_SUCCESS;
    orth_pieces(c);
    cut_pieces(c, &x);
    exchange_pieces(&x);
    int cap = c->fd->hints->cb_buffer_size;
    publish_bounds(&x, cap > 0 ? cap : ORTH_DEFAULT_CAP);
    init_rounds(&x);
    x.stream = orth_stream(c, &packed);
    run_rounds(c->fd, &x, err);
    st->rounds += x.rounds;
    st->moved[ORTH_COPIED] += packed ? c->bytes : 0;
    if (packed && !c->is_write)
        MPI_Unpack(x.stream, (int) c->bytes, &pos, c->buf, c->count, c->dt, MPI_COMM_SELF);
    if (packed)
        ADIOI_Free(x.stream);
    free_rounds(&x);
    ADIOI_Free(x.sp);
    ADIOI_Free(x.rp);
    ADIOI_Free(x.bounds);
    ADIOI_Free(all);
}

/* romio-xt Orthrus: two_layer, two-layer aggregation (Kang et al., TPDS
 * 2020).  Each node's processes send their pieces (offsets, lengths, data)
 * to the node's local aggregator, its first process; the local aggregators
 * then run the inter-node exchange among themselves (orth_exchange over one
 * process per node), each owning the file's stripes round-robin
 * (romio_orthrus_stripe_unit, else striping_unit, else 4 MiB, as disk_first)
 * and accessing them in ascending offset order.  A read runs the same way
 * back.  So only one process per node sends messages between nodes, where
 * two_phase has every process exchange with every aggregator. */
#include "orth.h"

#include <string.h>

#define TL_TAG 7031

/* the local aggregators' communicator, made at the first call (collective) */
struct tl_state {
    int made;
    MPI_Comm leaders;           /* one process per node (node rank 0); MPI_COMM_NULL on the others */
};

/* what a node gathers at its local aggregator */
struct tl_node {
    int ns, me;                 /* processes in the node, this one's node rank */
    int64_t *cnt;               /* per process: pieces, bytes (the aggregator's) */
    struct orth_call all;       /* the node's pieces and data, as one call (the aggregator's) */
};

static struct tl_state *tl_of(struct orth_state *st)
{
    return st->cand[ORTH_two_layer];
}

static void tl_open(ADIO_File fd, struct orth_state *st)
{
    (void) fd;
    struct tl_state *tl = st->cand[ORTH_two_layer] = ADIOI_Calloc(1, sizeof(*tl));
    tl->leaders = MPI_COMM_NULL;
}

static void tl_close(ADIO_File fd, struct orth_state *st)
{
    struct tl_state *tl = tl_of(st);
    (void) fd;
    if (!tl)
        return;
    if (tl->leaders != MPI_COMM_NULL)
        MPI_Comm_free(&tl->leaders);
    ADIOI_Free(tl);
    st->cand[ORTH_two_layer] = NULL;
}

/* the node communicator and the leaders' (collective over fd->comm) */
static void tl_setup(struct orth_call *c)
{
    struct tl_state *tl = tl_of(c->st);
    int nrank, rank;
    if (tl->made)
        return;
    orth_nodes(c->fd, c->st);
    MPI_Comm_rank(c->st->node, &nrank);
    MPI_Comm_rank(c->fd->comm, &rank);
    MPI_Comm_split(c->fd->comm, nrank == 0 ? 0 : MPI_UNDEFINED, rank, &tl->leaders);
    tl->made = 1;
}

/* the aggregator: room for the node's pieces and data, at each process's place */
static void node_alloc(struct tl_node *n)
{
    int64_t pieces = 0, bytes = 0;
    for (int p = 0; p < n->ns; p++) {
        pieces += n->cnt[2 * p];
        bytes += n->cnt[2 * p + 1];
    }
    n->all.n = (int) pieces;
    n->all.bytes = bytes;
    n->all.offs = ADIOI_Malloc(2 * (size_t) (pieces + 1) * sizeof(ADIO_Offset));
    n->all.lens = n->all.offs + pieces + 1;
    n->all.buf = ADIOI_Malloc(bytes + 1);
}

/* the aggregator's exchange with each process of the node: its pieces' list
 * (lists) or its data (buf, write: to the aggregator); the aggregator's own
 * part is copied */
static void node_moves(struct orth_call *c, struct tl_node *n, const char *mine, int lists,
                       int to_agg)
{
    MPI_Request *rq = ADIOI_Malloc(2 * (size_t) n->ns * sizeof(MPI_Request));
    int nrq = 0;
    int64_t at = 0, pat = 0;
    char *data = n->all.buf;
    MPI_Comm node = c->st->node;
    for (int p = 0; p < n->ns && n->me == 0; p++) {
        int k = (int) n->cnt[2 * p], b = (int) n->cnt[2 * p + 1];
        if (p == 0 && lists) {
            memcpy(n->all.offs, c->offs, k * sizeof(ADIO_Offset));
            memcpy(n->all.lens, c->lens, k * sizeof(ADIO_Offset));
        } else if (p == 0)
            memcpy(to_agg ? data : (char *) mine, to_agg ? mine : data, b);
        else if (lists && k) {
            MPI_Irecv(n->all.offs + pat, k, MPI_INT64_T, p, TL_TAG, node, &rq[nrq++]);
            MPI_Irecv(n->all.lens + pat, k, MPI_INT64_T, p, TL_TAG + 1, node, &rq[nrq++]);
        } else if (b && to_agg)
            MPI_Irecv(data + at, b, MPI_BYTE, p, TL_TAG + 2, node, &rq[nrq++]);
        else if (b)
            MPI_Isend(data + at, b, MPI_BYTE, p, TL_TAG + 2, node, &rq[nrq++]);
        pat += k;
        at += b;
    }
    if (n->me && lists && c->n) {
        MPI_Isend(c->offs, c->n, MPI_INT64_T, 0, TL_TAG, node, &rq[nrq++]);
        MPI_Isend(c->lens, c->n, MPI_INT64_T, 0, TL_TAG + 1, node, &rq[nrq++]);
    } else if (n->me && !lists && c->bytes && to_agg)
        MPI_Isend(mine, (int) c->bytes, MPI_BYTE, 0, TL_TAG + 2, node, &rq[nrq++]);
    else if (n->me && !lists && c->bytes)
        MPI_Irecv((char *) mine, (int) c->bytes, MPI_BYTE, 0, TL_TAG + 2, node, &rq[nrq++]);
    MPI_Waitall(nrq, rq, MPI_STATUSES_IGNORE);
    ADIOI_Free(rq);
}

/* the leaders' exchange of the node's call: stripes owned round-robin */
static void inter_node(struct orth_call *c, struct tl_node *n, int *err)
{
    struct tl_state *tl = tl_of(c->st);
    struct orth_route rt = {.comm = tl->leaders,.dest = orth_stripe_owner };
    MPI_Comm_size(tl->leaders, &rt.naggs);
    rt.nprocs = rt.naggs;
    rt.unit = orth_stripe_unit(c->fd);
    /* one contiguous run of bytes: orth_exchange uses the buffer as it is */
    n->all.count = 1;
    n->all.dt = MPI_BYTE;
    orth_exchange(&n->all, &rt, err);
}

/* one round of the call: the node's pieces gathered at its aggregator,
 * the leaders' exchange, and a read's data back (r: the round's part of the
 * call, stream: its data) */
static void layer_round(struct orth_call *r, char *stream, int *err)
{
    struct tl_node n = {.all = *r };
    int64_t mine[2] = { r->n, r->bytes };
    MPI_Comm_size(r->st->node, &n.ns);
    MPI_Comm_rank(r->st->node, &n.me);
    n.cnt = ADIOI_Malloc(2 * (size_t) n.ns * sizeof(int64_t));
    MPI_Gather(mine, 2, MPI_INT64_T, n.cnt, 2, MPI_INT64_T, 0, r->st->node);
    if (n.me == 0)
        node_alloc(&n);
    node_moves(r, &n, stream, 1, 1);
    if (r->is_write)
        node_moves(r, &n, stream, 0, 1);
    if (n.me == 0)
        inter_node(r, &n, err);
    if (!r->is_write)
        node_moves(r, &n, stream, 0, 0);
    if (n.me == 0) {
        ADIOI_Free(n.all.offs);
        ADIOI_Free(n.all.buf);
    }
    ADIOI_Free(n.cnt);
}

/* the part of c's pieces in bytes [from, from + len) of its data stream, as
 * a call of its own (lists: room for c->n offsets and lengths each) */
static void round_of(const struct orth_call *c, int64_t from, int64_t len, struct orth_call *r,
                     ADIO_Offset *lists)
{
    int64_t at = 0;
    *r = *c;
    r->offs = lists;
    r->lens = lists + c->n;
    r->n = 0;
    r->bytes = 0;
    for (int i = 0; i < c->n && at < from + len; at += c->lens[i++]) {
        int64_t lo = at > from ? at : from, end = at + c->lens[i];
        int64_t hi = end < from + len ? end : from + len;
        if (hi <= lo)
            continue;
        r->offs[r->n] = c->offs[i] + (lo - at);
        r->lens[r->n++] = hi - lo;
        r->bytes += hi - lo;
    }
}

/* each process's part of a round: TL_ROUND_CBS x cb_buffer_size bytes, so
 * that a node's aggregator holds rounds, not whole calls of any size.  The
 * rounds run one after the other: coll_perf's calls of 32 MiB per process
 * (testbed hdd profile, 4 nodes x 2 processes) ran at 0.45x stock in rounds
 * of 16 MiB and at 0.76x in one */
#define TL_ROUND_CBS 4

/* in rounds (TL_ROUND_CBS) */
static void two_layer(struct orth_call *c, int *err)
{
    int packed;
    *err = MPI_SUCCESS;
    tl_setup(c);
    orth_pieces(c);
    char *stream = orth_stream(c, &packed);
    int64_t unit = TL_ROUND_CBS * (int64_t) (c->fd->hints->cb_buffer_size > 0 ?
                                             c->fd->hints->cb_buffer_size : 1 << 24);
    int64_t rounds = (c->bytes + unit - 1) / unit, all;
    MPI_Allreduce(&rounds, &all, 1, MPI_INT64_T, MPI_MAX, c->fd->comm);
    ADIO_Offset *lists = ADIOI_Malloc(2 * (size_t) (c->n + 1) * sizeof(ADIO_Offset));
    for (int64_t k = 0; k < all; k++) {
        struct orth_call r;
        int e = MPI_SUCCESS;
        int64_t from = k * unit < c->bytes ? k * unit : c->bytes;
        round_of(c, from, unit, &r, lists);
        layer_round(&r, stream + from, &e);
        *err = *err == MPI_SUCCESS ? e : *err;
    }
    ADIOI_Free(lists);
    if (packed && !c->is_write) {
        int pos = 0;
        MPI_Unpack(stream, (int) c->bytes, &pos, c->buf, c->count, c->dt, MPI_COMM_SELF);
    }
    if (packed)
        ADIOI_Free(stream);
    orth_finish(c, err);
}

const struct orth_cand orth_two_layer_cand = {.name = "two_layer",.run = two_layer,
    .open = tl_open,.close = tl_close,.setup = tl_setup
};

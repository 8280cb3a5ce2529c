/* romio-xt Orthrus: a trial's first piece (orth_sel_piece_limit).  The call
 * is split into two calls of the same datatype: its first count/8 elements
 * (per process; a process with fewer runs none), run by the candidate and
 * timed (the slowest rank's, agreed in one allreduce), then the rest, run
 * by the candidate or, when the piece took longer than its share of the
 * trial's budget, by home.  Splitting a call by elements keeps its bytes and
 * their places: the rest starts where the piece ended in the view (the
 * individual file pointer, or the explicit offset moved by the piece's
 * etypes), and its buffer where the piece's elements end.  A call of fewer
 * elements than pieces (e.g. one element of a derived datatype, as HDF5 and
 * BTIO-like codes make) is split by bytes instead: its data is packed into a
 * contiguous buffer (unpacked after a read) and run as MPI_BYTEs, which the
 * file view places exactly where the elements' bytes go.  A cut write's
 * home (two_phase) runs the whole call, the piece's bytes again: run on the
 * rest alone, its aggregators would read the piece's bytes back as holes
 * (read-modify-write) right after other nodes wrote them, and a client
 * cache that does not see them yet (MooseFS: a stale end of file on the
 * reading node) would write older bytes over them. */
#include "orth.h"

#include <limits.h>
#include <stdlib.h>

/* call c's part: the first n elements (first), or the rest after them */
static void part_of(const struct orth_call *c, struct orth_call *p, int n, int first)
{
    MPI_Aint lb, ext;
    MPI_Count size;
    MPI_Type_get_extent(c->dt, &lb, &ext);
    MPI_Type_size_x(c->dt, &size);
    *p = *c;
    p->offs = p->lens = NULL;
    p->n = 0;
    p->ride = ORTH_RIDE_NO;
    p->agree = NULL;
    p->orig_fp = c->fd->fp_ind;
    p->count = first ? n : c->count - n;
    if (!first) {
        p->buf = (char *) c->buf + (MPI_Aint) n * ext;
        if (c->fpt == ADIO_EXPLICIT_OFFSET)
            p->off = c->off + (ADIO_Offset) n * size / c->fd->etype_size;
    }
    p->bytes = (int64_t) p->count * size;
    orth_pieces(p);             /* its end, for the candidates */
}

/* runs part p with candidate cand; returns its seconds */
static double run_part(struct orth_call *p, int cand, int *err)
{
    double t0 = xt_now();
    orth_cands[cand]->run(p, err);
    if (p->offs)
        ADIOI_Free(p->offs);
    p->offs = p->lens = NULL;
    return xt_now() - t0;
}

/* c as bytes in a packed copy of its buffer (writes packed now); NULL when
 * it has enough elements for a piece, or none, or no memory */
static char *as_bytes(const struct orth_call *c, struct orth_call *b)
{
    MPI_Count size;
    MPI_Type_size_x(c->dt, &size);
    int64_t bytes = (int64_t) size * c->count;
    if (c->count >= ORTH_PIECE_DIV || bytes < ORTH_PIECE_DIV * c->fd->etype_size ||
        bytes > INT_MAX)
        return NULL;
    char *packed = malloc((size_t) bytes);
    int pos = 0;
    if (!packed)
        return NULL;
    if (c->is_write)
        MPI_Pack(c->buf, c->count, c->dt, packed, (int) bytes, &pos, c->fd->comm);
    *b = *c;
    b->buf = packed;
    b->count = (int) bytes;
    b->dt = MPI_BYTE;
    return packed;
}

int orth_run_piece(struct orth_call *c, int cand, int home, double limit, double *piece,
                   int *err)
{
    struct orth_call p, b, *w = c;
    int err2 = MPI_SUCCESS, pos = 0;
    char *packed = as_bytes(c, &b);
    if (packed) {
        w = &b;
        c->st->packed_pieces++;
    }
    int n = w->count / ORTH_PIECE_DIV;
    if (packed)                 /* whole etypes: the rest's offset is in etypes */
        n -= n % c->fd->etype_size;
    c->fd->fp_ind = c->orig_fp;
    part_of(w, &p, n, 1);
    double mine = run_part(&p, cand, err);
    MPI_Allreduce(&mine, piece, 1, MPI_DOUBLE, MPI_MAX, c->fd->comm);
    int cut = *piece > limit;
    if (cut)                    /* home runs the rest (past view_based's cache) */
        orth_cand_other(c->fd, cand, c->is_write);
    if (cut && c->is_write) {   /* the whole call, the piece again: see below */
        c->fd->fp_ind = c->orig_fp;
        n = 0;
    }
    part_of(w, &p, n, 0);
    run_part(&p, cut ? home : cand, &err2);
    if (packed && !c->is_write)
        MPI_Unpack(packed, w->count, &pos, c->buf, c->count, c->dt, c->fd->comm);
    free(packed);
    xt_call_done(c->fd, c->fpt, c->fd->fp_ind, -1, c->status, c->dt, c->bytes);
    *err = *err != MPI_SUCCESS ? *err : err2;
    return cut;
}

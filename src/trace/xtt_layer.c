/* romio-xt trace layer: one record per MPI-IO data call (and sync) per rank.
 *
 * It sits on top of the stack, so a call at depth 0 is the application's;
 * the calls ROMIO's strided and collective code make through fd->fns
 * (depth > 0) are not recorded.  Per call: two clock reads, the first byte's
 * offset, the file pieces (from the cached flattened file type) and, for
 * collective calls, the implementation a layer below reported running it
 * (xt_coll_ran: Orthrus' candidate). */
#include "xtt.h"

/* the op byte's high nibble holds it */
_Static_assert(XT_COLL_IMPL_MAX <= 15, "a collective implementation fits in 4 bits");

struct xtt_state {
    int id;                     /* file id in the trace */
    int depth;
    uint8_t flags;              /* XTT_F_E10 ... of this file */
    MPI_Datatype ftype;         /* the file type the next two describe */
    MPI_Count ftype_size;
    int64_t ftype_pieces;       /* nonempty blocks of the flattened file type */
};

struct xtt_call {
    struct xtt_state *st;
    double t0;
    int64_t off;
};

const struct xt_layer xtt_layer;

static struct xtt_state *state(ADIO_File fd)
{
    return xt_state(fd, XT_LAYER_xtt);
}

static void describe_filetype(ADIO_File fd, struct xtt_state *st)
{
    ADIOI_Flatlist_node *flat = ADIOI_Flatten_and_find(fd->filetype);
    st->ftype = fd->filetype;
    st->ftype_pieces = 0;
    for (MPI_Count k = 0; flat && k < flat->count; k++)
        st->ftype_pieces += flat->blocklens[k] > 0;
    MPI_Type_size_x(fd->filetype, &st->ftype_size);
}

static void enter(ADIO_File fd, struct xtt_call *c, int fpt, ADIO_Offset off, int flags)
{
    struct xtt_state *st = c->st = state(fd);
    if (st->depth++ > 0)
        return;
    if (flags & XTT_F_COLL)
        xt_coll_taken(fd);      /* a report from before this call is not its */
    if (fpt == ADIO_INDIVIDUAL)
        c->off = fd->fp_ind;
    else if (!(flags & XTT_F_STRIDED))
        c->off = off;
    else {
        ADIO_Offset b = 0;
        ADIOI_Get_byte_offset(fd, off, &b);
        c->off = b;
    }
    c->t0 = xtt_stamp();
}

static void leave(ADIO_File fd, const struct xtt_call *c, int op, int flags, int count,
                  MPI_Datatype dt)
{
    struct xtt_state *st = c->st;
    struct xtt_rec *r;
    double t1;
    if (--st->depth > 0)
        return;
    t1 = xtt_stamp();
    if (t1 < c->t0)             /* a re-anchoring in between */
        t1 = c->t0;
    if (!(r = xtt_next()))
        return;
    int64_t bytes = xt_bytes(count, dt), pieces = bytes > 0;
    if (flags & XTT_F_STRIDED) {     /* pieces in the file view */
        if (st->ftype != fd->filetype)
            describe_filetype(fd, st);
        if (st->ftype_pieces > 1 && st->ftype_size > 0)
            pieces = (bytes * st->ftype_pieces + st->ftype_size - 1) / st->ftype_size;
        else
            flags &= ~XTT_F_STRIDED;
    }
    *r = (struct xtt_rec) {.t0 = c->t0,.t1 = t1,.off = c->off,.bytes = bytes,
        .pieces = (uint32_t) (pieces > UINT32_MAX ? UINT32_MAX : pieces),.file = st->id,
        .op = (uint8_t) (op | ((flags & XTT_F_COLL) ? xt_coll_taken(fd) << 4 : 0)),
        .flags = (uint8_t) (flags | st->flags)
    };
}

#define XTT_DATA_OP(NAME, OP, FLAGS, MEMBER, CONST, LAST_T)                      \
    static void ADIOI_XTT_##NAME(ADIO_File fd, CONST void *buf, int count,       \
                                 MPI_Datatype dt, int fpt, ADIO_Offset off,      \
                                 LAST_T last, int *error_code)                   \
    {                                                                            \
        struct xtt_call c;                                                       \
        enter(fd, &c, fpt, off, FLAGS);                                          \
        xt_lower(fd, XT_LAYER_xtt)->MEMBER(fd, buf, count, dt, fpt, off, last,     \
                                         error_code);                            \
        leave(fd, &c, OP, FLAGS, count, dt);                                     \
    }

#define S XTT_F_STRIDED
#define C (XTT_F_STRIDED | XTT_F_COLL)
#define N XTT_F_NONBLOCKING
XTT_DATA_OP(ReadContig, XTT_READ, 0, ADIOI_xxx_ReadContig, , ADIO_Status *)
XTT_DATA_OP(WriteContig, XTT_WRITE, 0, ADIOI_xxx_WriteContig, const, ADIO_Status *)
XTT_DATA_OP(ReadStrided, XTT_READ, S, ADIOI_xxx_ReadStrided, , ADIO_Status *)
XTT_DATA_OP(WriteStrided, XTT_WRITE, S, ADIOI_xxx_WriteStrided, const, ADIO_Status *)
XTT_DATA_OP(ReadColl, XTT_READ, C, ADIOI_xxx_ReadStridedColl, , ADIO_Status *)
XTT_DATA_OP(WriteColl, XTT_WRITE, C, ADIOI_xxx_WriteStridedColl, const, ADIO_Status *)
XTT_DATA_OP(IreadContig, XTT_READ, N, ADIOI_xxx_IreadContig, , ADIO_Request *)
XTT_DATA_OP(IwriteContig, XTT_WRITE, N, ADIOI_xxx_IwriteContig, const, ADIO_Request *)
XTT_DATA_OP(IreadStrided, XTT_READ, S | N, ADIOI_xxx_IreadStrided, , ADIO_Request *)
XTT_DATA_OP(IwriteStrided, XTT_WRITE, S | N, ADIOI_xxx_IwriteStrided, const, ADIO_Request *)
XTT_DATA_OP(IreadColl, XTT_READ, C | N, ADIOI_xxx_IreadStridedColl, , ADIO_Request *)
XTT_DATA_OP(IwriteColl, XTT_WRITE, C | N, ADIOI_xxx_IwriteStridedColl, const, ADIO_Request *)
#undef S
#undef C
#undef N

static void ADIOI_XTT_Flush(ADIO_File fd, int *error_code)
{
    struct xtt_call c;
    enter(fd, &c, ADIO_EXPLICIT_OFFSET, 0, 0);
    xt_lower(fd, XT_LAYER_xtt)->ADIOI_xxx_Flush(fd, error_code);
    leave(fd, &c, XTT_SYNC, 0, 0, MPI_DATATYPE_NULL);
}

static const ADIOI_Fns xtt_ops = {
    .ADIOI_xxx_ReadContig = ADIOI_XTT_ReadContig,
    .ADIOI_xxx_WriteContig = ADIOI_XTT_WriteContig,
    .ADIOI_xxx_ReadStrided = ADIOI_XTT_ReadStrided,
    .ADIOI_xxx_WriteStrided = ADIOI_XTT_WriteStrided,
    .ADIOI_xxx_ReadStridedColl = ADIOI_XTT_ReadColl,
    .ADIOI_xxx_WriteStridedColl = ADIOI_XTT_WriteColl,
    .ADIOI_xxx_IreadContig = ADIOI_XTT_IreadContig,
    .ADIOI_xxx_IwriteContig = ADIOI_XTT_IwriteContig,
    .ADIOI_xxx_IreadStrided = ADIOI_XTT_IreadStrided,
    .ADIOI_xxx_IwriteStrided = ADIOI_XTT_IwriteStrided,
    .ADIOI_xxx_IreadStridedColl = ADIOI_XTT_IreadColl,
    .ADIOI_xxx_IwriteStridedColl = ADIOI_XTT_IwriteColl,
    .ADIOI_xxx_Flush = ADIOI_XTT_Flush,
};

static int xtt_wanted(const struct xt_file *xf)
{
    return xf->hints[XT_H_TRACE].i == XT_H_TRACE_enable || xf->hints[XT_H_TRACE_DIR].s[0] != '\0';
}

static int xtt_open(ADIO_File fd, void *vst)
{
    struct xtt_state *st = vst;
    struct xt_file *xf = xt_file(fd);
    if (xtt_writer_join(fd, xf->hints[XT_H_TRACE_DIR].s) != 0)
        return -1;
    st->flags = (xt_slot_of(fd, XT_LAYER_nvc) ? XTT_F_E10 : 0) |
        (xt_slot_of(fd, XT_LAYER_orth) ? XTT_F_ORTH : 0) |
        (xt_slot_of(fd, XT_LAYER_ads) ? XTT_F_DS_ADAPTIVE : 0) |
        (xt_slot_of(fd, XT_LAYER_pf) ? XTT_F_PREFETCH : 0);
    st->ftype = MPI_DATATYPE_NULL;
    st->id = xtt_announce(fd->filename, xf->nprocs, fd->hints->cb_nodes, st->flags);
    return 0;
}

static void xtt_close(ADIO_File fd, void *vst, int *error_code)
{
    struct xtt_state *st = vst;
    struct xtt_rec *r = xtt_next();
    if (r)
        *r = (struct xtt_rec) {.t0 = xtt_time(),.file = st->id,.op = XTT_CLOSE };
    if (r)
        r->t1 = r->t0;
    xtt_close_flush();
}

const struct xt_layer xtt_layer = {
    .name = "trace",
    .wanted = xtt_wanted,
    .ops = &xtt_ops,
    .state_size = sizeof(struct xtt_state),
    .open = xtt_open,
    .close = xtt_close,
    .direct_io_ok = 1,
};

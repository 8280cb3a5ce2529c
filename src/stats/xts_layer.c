/* romio-xt stats layer: counts calls, bytes and time per operation.
 *
 * It sits on top of the stack, so a call from the MPI-IO layer is seen at
 * depth 0 (the application's bytes) and the calls ROMIO's strided and
 * collective code make through fd->fns at depth > 0.  Contiguous reads and
 * writes are the requests that reach the file system. */
#include "xts.h"

#include <string.h>

struct xts_call {
    double t0;
    int64_t reqs_before;
};

const struct xt_layer xts_layer;

static int op_is_write(enum xts_op op)
{
    return op == XTS_WRITE_CONTIG || op == XTS_WRITE_STRIDED || op == XTS_WRITE_COLL ||
        op == XTS_IWRITE_CONTIG || op == XTS_IWRITE_STRIDED || op == XTS_IWRITE_COLL;
}

static int op_is_contig(enum xts_op op)
{
    return op == XTS_READ_CONTIG || op == XTS_WRITE_CONTIG ||
        op == XTS_IREAD_CONTIG || op == XTS_IWRITE_CONTIG;
}

static struct xts_state *state(ADIO_File fd)
{
    return xt_state(fd, XT_LAYER_xts);
}

static void enter(ADIO_File fd, struct xts_call *c)
{
    struct xt_file *xf = xt_file(fd);
    c->reqs_before = xf->handled;
    state(fd)->depth++;
    c->t0 = xt_now();
}

static void leave(ADIO_File fd, const struct xts_call *c, enum xts_op op, int count,
                  MPI_Datatype dt)
{
    struct xts_state *st = state(fd);
    struct xt_file *xf = xt_file(fd);
    st->time[op] += xt_now() - c->t0;
    st->depth--;
    st->calls[op]++;
    int64_t bytes = xt_bytes(count, dt);
    st->bytes[op] += bytes;
    if (st->depth == 0 && op != XTS_FLUSH && op != XTS_RESIZE)
        st->app_bytes[op_is_write(op)] += bytes;
    /* a contiguous call is a file-system request unless it was served by
     * nested contiguous calls (ROMIO's fake nonblocking I/O) */
    if (op_is_contig(op) && xf->handled == c->reqs_before)
        xt_note_request(fd, op_is_write(op), bytes);
}

/* blocking and nonblocking data operations share one shape each */
#define XTS_DATA_OP(NAME, OP, MEMBER, CONST, LAST_T)                             \
    static void ADIOI_XTS_##NAME(ADIO_File fd, CONST void *buf, int count,       \
                                 MPI_Datatype dt, int fpt, ADIO_Offset off,      \
                                 LAST_T last, int *error_code)                   \
    {                                                                            \
        struct xts_call c;                                                       \
        enter(fd, &c);                                                           \
        xt_lower(fd, XT_LAYER_xts)->MEMBER(fd, buf, count, dt, fpt, off, last,     \
                                         error_code);                            \
        leave(fd, &c, OP, count, dt);                                            \
    }

XTS_DATA_OP(ReadContig, XTS_READ_CONTIG, ADIOI_xxx_ReadContig, , ADIO_Status *)
XTS_DATA_OP(WriteContig, XTS_WRITE_CONTIG, ADIOI_xxx_WriteContig, const, ADIO_Status *)
XTS_DATA_OP(ReadStrided, XTS_READ_STRIDED, ADIOI_xxx_ReadStrided, , ADIO_Status *)
XTS_DATA_OP(WriteStrided, XTS_WRITE_STRIDED, ADIOI_xxx_WriteStrided, const, ADIO_Status *)
XTS_DATA_OP(ReadColl, XTS_READ_COLL, ADIOI_xxx_ReadStridedColl, , ADIO_Status *)
XTS_DATA_OP(WriteColl, XTS_WRITE_COLL, ADIOI_xxx_WriteStridedColl, const, ADIO_Status *)
XTS_DATA_OP(IreadContig, XTS_IREAD_CONTIG, ADIOI_xxx_IreadContig, , ADIO_Request *)
XTS_DATA_OP(IwriteContig, XTS_IWRITE_CONTIG, ADIOI_xxx_IwriteContig, const, ADIO_Request *)
XTS_DATA_OP(IreadStrided, XTS_IREAD_STRIDED, ADIOI_xxx_IreadStrided, , ADIO_Request *)
XTS_DATA_OP(IwriteStrided, XTS_IWRITE_STRIDED, ADIOI_xxx_IwriteStrided, const, ADIO_Request *)
XTS_DATA_OP(IreadColl, XTS_IREAD_COLL, ADIOI_xxx_IreadStridedColl, , ADIO_Request *)
XTS_DATA_OP(IwriteColl, XTS_IWRITE_COLL, ADIOI_xxx_IwriteStridedColl, const, ADIO_Request *)

static void ADIOI_XTS_Flush(ADIO_File fd, int *error_code)
{
    struct xts_call c;
    enter(fd, &c);
    xt_lower(fd, XT_LAYER_xts)->ADIOI_xxx_Flush(fd, error_code);
    leave(fd, &c, XTS_FLUSH, 0, MPI_DATATYPE_NULL);
}

static void ADIOI_XTS_Resize(ADIO_File fd, ADIO_Offset size, int *error_code)
{
    struct xts_call c;
    enter(fd, &c);
    xt_lower(fd, XT_LAYER_xts)->ADIOI_xxx_Resize(fd, size, error_code);
    leave(fd, &c, XTS_RESIZE, 0, MPI_DATATYPE_NULL);
}

static const ADIOI_Fns xts_ops = {
    .ADIOI_xxx_ReadContig = ADIOI_XTS_ReadContig,
    .ADIOI_xxx_WriteContig = ADIOI_XTS_WriteContig,
    .ADIOI_xxx_ReadStrided = ADIOI_XTS_ReadStrided,
    .ADIOI_xxx_WriteStrided = ADIOI_XTS_WriteStrided,
    .ADIOI_xxx_ReadStridedColl = ADIOI_XTS_ReadColl,
    .ADIOI_xxx_WriteStridedColl = ADIOI_XTS_WriteColl,
    .ADIOI_xxx_IreadContig = ADIOI_XTS_IreadContig,
    .ADIOI_xxx_IwriteContig = ADIOI_XTS_IwriteContig,
    .ADIOI_xxx_IreadStrided = ADIOI_XTS_IreadStrided,
    .ADIOI_xxx_IwriteStrided = ADIOI_XTS_IwriteStrided,
    .ADIOI_xxx_IreadStridedColl = ADIOI_XTS_IreadColl,
    .ADIOI_xxx_IwriteStridedColl = ADIOI_XTS_IwriteColl,
    .ADIOI_xxx_Flush = ADIOI_XTS_Flush,
    .ADIOI_xxx_Resize = ADIOI_XTS_Resize,
};

static int xts_wanted(const struct xt_file *xf)
{
    return xf->hints[XT_H_STATS].i == XT_H_STATS_enable;
}

/* the report, once every layer has closed (their counters are final) */
static void xts_finish(ADIO_File fd, void *state, int *error_code)
{
    *error_code = xts_report(fd, xt_file(fd), state);
}

const struct xt_layer xts_layer = {
    .name = "stats",
    .wanted = xts_wanted,
    .ops = &xts_ops,
    .finish = xts_finish,
    .state_size = sizeof(struct xts_state),
};

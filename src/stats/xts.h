/* romio-xt stats: the layer's counts, which the report reduces. */
#ifndef XTS_H
#define XTS_H

#include "../core/xt_layer.h"

#define XTS_OPS(X) \
    X(READ_CONTIG, "read_contig") X(WRITE_CONTIG, "write_contig") \
    X(READ_STRIDED, "read_strided") X(WRITE_STRIDED, "write_strided") \
    X(READ_COLL, "read_coll") X(WRITE_COLL, "write_coll") \
    X(IREAD_CONTIG, "iread_contig") X(IWRITE_CONTIG, "iwrite_contig") \
    X(IREAD_STRIDED, "iread_strided") X(IWRITE_STRIDED, "iwrite_strided") \
    X(IREAD_COLL, "iread_coll") X(IWRITE_COLL, "iwrite_coll") \
    X(FLUSH, "flush") X(RESIZE, "resize")

#define XTS_ENUM(id, name) XTS_##id,
enum xts_op { XTS_OPS(XTS_ENUM) XTS_NOPS };
#undef XTS_ENUM

struct xts_state {
    int64_t calls[XTS_NOPS], bytes[XTS_NOPS];
    double time[XTS_NOPS];
    int64_t app_bytes[2];       /* depth-0 bytes: [0] read, [1] written */
    int depth;
};

/* the collective report at close (xts_report.c); an MPI error code */
int xts_report(ADIO_File fd, struct xt_file *xf, const struct xts_state *st);

#endif

/* romio-xt trace: the on-disk format of DIR/<job>-<rank>.xtt (version 1).
 *
 * Pure C (no MPI): shared by the layer and documented in docs/trace-format.md.
 * All integers and doubles are in the host's byte order (little-endian on
 * x86-64 and aarch64); the reader checks the magic and the sizes.
 *
 *   header   struct xtt_header (112 bytes)
 *   records  struct xtt_rec (40 bytes each), in the order the calls ended
 *
 * An XTT_OPEN record announces a file id: off = size of the file's
 * communicator, bytes = length of the file name, pieces = cb_nodes, flags =
 * the layers installed; the name follows in ceil(bytes / 40) records of raw
 * bytes (zero padded).  Data records then name the file by that id. */
#ifndef XTT_FORMAT_H
#define XTT_FORMAT_H

#include <stdint.h>

#define XTT_MAGIC "XTTRACE"     /* 8 bytes with the terminating NUL */
#define XTT_VERSION 1
#define XTT_JOB_LEN 64

struct xtt_header {
    char magic[8];
    uint32_t version, header_size, record_size;
    uint32_t rank, nprocs;      /* in MPI_COMM_WORLD */
    uint32_t reserved;
    double epoch_realtime;      /* rank 0's wall clock (Unix s) at time 0 */
    double clock_offset;        /* this rank's monotonic clock minus rank 0's (s) */
    char job[XTT_JOB_LEN];      /* job id, NUL terminated */
};

/* op: low nibble; high nibble of the op byte: Orthrus candidate + 1 (0: none) */
enum xtt_op {
    XTT_READ = 0, XTT_WRITE = 1, XTT_SYNC = 2, XTT_OPEN = 3, XTT_CLOSE = 4, XTT_OPNAMES
};

enum xtt_flag {
    XTT_F_COLL = 1,             /* collective call */
    XTT_F_NONBLOCKING = 2,      /* MPI_File_i*: t1 is when the call returned */
    XTT_F_E10 = 4,              /* e10_cache layer installed on the file */
    XTT_F_ORTH = 8,             /* Orthrus installed */
    XTT_F_DS_ADAPTIVE = 16,     /* romio_ds_read/write adaptive installed */
    XTT_F_PREFETCH = 32,        /* prefetch installed */
    XTT_F_STRIDED = 64,         /* the file view or the call is noncontiguous */
};

struct xtt_rec {
    double t0, t1;              /* seconds since time 0 (aligned across ranks) */
    int64_t off;                /* file offset of the first byte */
    int64_t bytes;
    uint32_t pieces;            /* contiguous pieces in the file */
    uint16_t file;              /* file id (XTT_OPEN record) */
    uint8_t op;                 /* enum xtt_op | (candidate + 1) << 4 */
    uint8_t flags;              /* enum xtt_flag */
};

_Static_assert(sizeof(struct xtt_header) == 112, "xtt_header layout");
_Static_assert(sizeof(struct xtt_rec) == 40, "xtt_rec layout");

#endif

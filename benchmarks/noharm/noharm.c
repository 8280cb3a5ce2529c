/* No-harm grid kernel (MPI-IO): one workload, four timed phases (nh_run:
 * write cold, read cold, read warm, write warm), each open..close, reads
 * verified.  The file is left in place so run.py can compare it with stock's.
 *   noharm WORKLOAD FILE [MIB_PER_RANK]
 * WORKLOAD:
 *   contig      each rank a contiguous block, independent 1 MiB transfers
 *   interleaved 16 KiB transfers, ranks interleaved (rank r: chunks r, r+np, ...)
 *   strided     independent, view = 1 KiB pieces every 16 KiB (rank r at r KiB),
 *               calls of 256 pieces
 *   collview    collective, view = a column block of a 2-D int array
 *               (8 KiB per rank per row), 8 calls of write_at_all/read_at_all */
#include "nh_common.h"

struct wl {
    const char *name, *path;
    int rank, np;
    long long bytes;            /* data per rank */
    uint32_t *buf;
};

static int io_err(int err)
{
    return err != MPI_SUCCESS;
}

static long long do_open(struct wl *w, int write, MPI_File *fh)
{
    int mode = write ? MPI_MODE_CREATE | MPI_MODE_WRONLY : MPI_MODE_RDONLY;
    return io_err(MPI_File_open(MPI_COMM_WORLD, w->path, mode, MPI_INFO_NULL, fh));
}

/* transfer chunk k (xfer bytes) of this rank's stream at file offset off */
static long long chunk(struct wl *w, MPI_File fh, int write, int gen, long long k,
                       long long xfer, MPI_Offset off)
{
    long long n = xfer / 4, first = k * n;
    MPI_Status st;
    if (write) {
        nh_fill(w->buf, first, n, w->rank, gen);
        return io_err(MPI_File_write_at(fh, off, w->buf, (int) xfer, MPI_BYTE, &st));
    }
    memset(w->buf, 0, xfer);
    return io_err(MPI_File_read_at(fh, off, w->buf, (int) xfer, MPI_BYTE, &st)) +
        nh_check(w->buf, first, n, w->rank, gen);
}

static long long ph_blocks(struct wl *w, int write, int gen, long long xfer, int interleave)
{
    MPI_File fh;
    long long bad = do_open(w, write, &fh), nch = w->bytes / xfer;
    if (bad)
        return 1;
    for (long long k = 0; k < nch; k++) {
        MPI_Offset off = interleave ? (k * w->np + w->rank) * xfer : w->rank * w->bytes + k * xfer;
        bad += chunk(w, fh, write, gen, k, xfer, off);
    }
    return bad + io_err(MPI_File_close(&fh));
}

static long long ph_contig(int write, int gen, void *ctx)
{
    return ph_blocks(ctx, write, gen, 1 << 20, 0);
}

static long long ph_interleaved(int write, int gen, void *ctx)
{
    return ph_blocks(ctx, write, gen, 16 << 10, 1);
}

/* view-based workloads: set the view, then `calls` equal calls of the
 * rank's data stream, independent or collective */
static long long ph_view(struct wl *w, int write, int gen, MPI_Datatype ftype, MPI_Offset disp,
                         int calls, int coll)
{
    MPI_File fh;
    MPI_Status st;
    long long bad = do_open(w, write, &fh), n = w->bytes / 4 / calls;
    if (bad)
        return 1;
    bad += io_err(MPI_File_set_view(fh, disp, MPI_INT, ftype, "native", MPI_INFO_NULL));
    for (int c = 0; c < calls; c++) {
        MPI_Offset off = (MPI_Offset) c * n;
        if (write) {
            nh_fill(w->buf, c * n, n, w->rank, gen);
            bad += io_err(coll ? MPI_File_write_at_all(fh, off, w->buf, (int) n, MPI_INT, &st)
                          : MPI_File_write_at(fh, off, w->buf, (int) n, MPI_INT, &st));
        } else {
            memset(w->buf, 0, n * 4);
            bad += io_err(coll ? MPI_File_read_at_all(fh, off, w->buf, (int) n, MPI_INT, &st)
                          : MPI_File_read_at(fh, off, w->buf, (int) n, MPI_INT, &st));
            bad += nh_check(w->buf, c * n, n, w->rank, gen);
        }
    }
    return bad + io_err(MPI_File_close(&fh));
}

/* 1 KiB pieces every 16 KiB, rank r's at r KiB */
static long long ph_strided(int write, int gen, void *ctx)
{
    struct wl *w = ctx;
    MPI_Datatype piece, ftype;
    MPI_Type_contiguous(256, MPI_INT, &piece);
    MPI_Type_create_resized(piece, 0, 16 << 10, &ftype);
    MPI_Type_commit(&ftype);
    long long bad = ph_view(w, write, gen, ftype, (MPI_Offset) w->rank << 10,
                            (int) (w->bytes / (256 << 10)), 0);
    MPI_Type_free(&ftype);
    MPI_Type_free(&piece);
    return bad;
}

/* rows of np*2048 ints, rank r owns columns [r*2048, (r+1)*2048) */
static long long ph_collview(int write, int gen, void *ctx)
{
    struct wl *w = ctx;
    int cols = 2048;
    long long rows = w->bytes / (cols * 4);
    MPI_Datatype ftype;
    MPI_Type_vector((int) rows, cols, cols * w->np, MPI_INT, &ftype);
    MPI_Type_commit(&ftype);
    long long bad = ph_view(w, write, gen, ftype, (MPI_Offset) w->rank * cols * 4, 8, 1);
    MPI_Type_free(&ftype);
    return bad;
}

int main(int argc, char **argv)
{
    static const struct { const char *name; nh_phase_fn fn; long long mib; } wls[] = {
        {"contig", ph_contig, 16}, {"interleaved", ph_interleaved, 4},
        {"strided", ph_strided, 2}, {"collview", ph_collview, 16}};
    struct wl w = {0};
    int rc = 2;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &w.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &w.np);
    for (unsigned i = 0; argc >= 3 && i < sizeof wls / sizeof wls[0]; i++) {
        if (strcmp(argv[1], wls[i].name) != 0)
            continue;
        w.name = wls[i].name;
        w.path = argv[2];
        w.bytes = (argc > 3 ? atoll(argv[3]) : wls[i].mib) << 20;
        w.buf = malloc(w.bytes < (4 << 20) ? (4 << 20) : w.bytes);
        rc = nh_run(w.name, w.path, w.bytes, wls[i].fn, &w);
        free(w.buf);
    }
    if (rc == 2 && w.rank == 0)
        fprintf(stderr, "usage: noharm contig|interleaved|strided|collview FILE [MIB_PER_RANK]\n");
    MPI_Finalize();
    return rc;
}

/* romio-xt Orthrus: the layer's operations besides the collective calls.
 * Each runs the table below's with every candidate's guards around it
 * (orth_cand.indep): e.g. view_based, whose write-behind holds written
 * data the file lacks, logs independent writes and lays its unsettled
 * writes over independent reads.  MPI_File_sync, MPI_File_set_size and
 * MPI_File_set_atomicity are quiesce points: every candidate settles
 * (orth_cand.settle) before the table below runs them. */
#include "orth.h"

static const ADIOI_Fns *below(ADIO_File fd)
{
    return xt_lower(fd, XT_LAYER_orth);
}

static struct orth_io io_of(ADIO_File fd, const void *buf, int count, MPI_Datatype dt, int fpt,
                            ADIO_Offset off, int kind, int contig)
{
    return (struct orth_io) {.buf = buf,.count = count,.dt = dt,.fpt = fpt,.off = off,
        .kind = kind,.contig = contig,.nest = 1,.before = fd->fp_ind
    };
}

/* the table below's operation, with the candidates' guards around it */
#define ORTH_GUARDED(fd, io, call) do { orth_cands_indep(fd, &(io), 0); call; \
        orth_cands_indep(fd, &(io), 1); } while (0)

/* orth_guard_<op>: the table below's <op> (an independent read or write),
 * guarded; cq: const for a write's buffer; done: its status or request */
#define ORTH_GUARD(op, cq, done, kind, contig) \
    void orth_guard_##op(ADIO_File fd, cq void *buf, int count, MPI_Datatype dt, int fpt, \
                         ADIO_Offset off, done d, int *err) \
    { \
        struct orth_io io = io_of(fd, buf, count, dt, fpt, off, kind, contig); \
        ORTH_GUARDED(fd, io, below(fd)->ADIOI_xxx_##op(fd, buf, count, dt, fpt, off, d, err)); \
    }
ORTH_GUARD(WriteContig, const, ADIO_Status *, ORTH_IO_WRITE, 1)
ORTH_GUARD(WriteStrided, const, ADIO_Status *, ORTH_IO_WRITE, 0)
ORTH_GUARD(IwriteContig, const, ADIO_Request *, ORTH_IO_WRITE, 1)
ORTH_GUARD(IwriteStrided, const, ADIO_Request *, ORTH_IO_WRITE, 0)
ORTH_GUARD(ReadStrided, , ADIO_Status *, ORTH_IO_READ, 0)
#undef ORTH_GUARD

/* a nonblocking read a candidate's guards need to see runs blocking (as
 * ROMIO's own nonblocking reads do on most file systems); 0: not so */
static int iread_blocking(ADIO_File fd, void *buf, int count, MPI_Datatype dt, int fpt,
                          ADIO_Offset off, ADIO_Request *req, int *err, int contig)
{
    if (!orth_cands_block(fd))
        return 0;
    ADIO_Status st;
    MPI_Count size;
    MPI_Type_size_x(dt, &size);
    if (contig)
        ADIO_ReadContig(fd, buf, count, dt, fpt, off, &st, err);
    else
        orth_guard_ReadStrided(fd, buf, count, dt, fpt, off, &st, err);
    MPIO_Completed_request_create(&fd, *err == MPI_SUCCESS ? (MPI_Offset) count * size : 0,
                                  err, req);
    return 1;
}

void orth_guard_IreadContig(ADIO_File fd, void *buf, int count, MPI_Datatype dt, int fpt,
                             ADIO_Offset off, ADIO_Request *req, int *err)
{
    if (!iread_blocking(fd, buf, count, dt, fpt, off, req, err, 1))
        below(fd)->ADIOI_xxx_IreadContig(fd, buf, count, dt, fpt, off, req, err);
}

void orth_guard_IreadStrided(ADIO_File fd, void *buf, int count, MPI_Datatype dt, int fpt,
                              ADIO_Offset off, ADIO_Request *req, int *err)
{
    if (!iread_blocking(fd, buf, count, dt, fpt, off, req, err, 0))
        below(fd)->ADIOI_xxx_IreadStrided(fd, buf, count, dt, fpt, off, req, err);
}

void orth_guard_Flush(ADIO_File fd, int *err)
{
    int e;
    orth_cands_settle(fd, ORTH_AT_SYNC, &e);
    below(fd)->ADIOI_xxx_Flush(fd, err);
    if (e != MPI_SUCCESS)
        *err = e;
}

void orth_guard_Resize(ADIO_File fd, ADIO_Offset size, int *err)
{
    int e;
    orth_cands_settle(fd, ORTH_AT_SYNC, &e);
    below(fd)->ADIOI_xxx_Resize(fd, size, err);
    if (e != MPI_SUCCESS)
        *err = e;
}

void orth_guard_Fcntl(ADIO_File fd, int flag, ADIO_Fcntl_t * fs, int *err)
{
    int e = MPI_SUCCESS;
    if (flag == ADIO_FCNTL_SET_ATOMICITY)
        orth_cands_settle(fd, ORTH_AT_SYNC, &e);
    if (flag == ADIO_FCNTL_SET_DISKSPACE) {     /* rank 0 alone rewrites bytes it read */
        struct orth_io io = io_of(fd, NULL, 0, MPI_BYTE, 0, 0, ORTH_IO_OTHER, 0);
        ORTH_GUARDED(fd, io, below(fd)->ADIOI_xxx_Fcntl(fd, flag, fs, err));
    } else
        below(fd)->ADIOI_xxx_Fcntl(fd, flag, fs, err);
    if (flag == ADIO_FCNTL_GET_FSIZE)
        orth_cands_fsize(fd, &fs->fsize);
    if (e != MPI_SUCCESS)
        *err = e;
}

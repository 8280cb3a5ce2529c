/* romio-xt Orthrus: independent.  No aggregation: each process accesses its
 * own pieces through the layer below's independent routines, as stock
 * ROMIO's collective routine does itself when collective buffering is
 * disabled or, with romio_cb_write/romio_cb_read automatic, when the
 * processes' ranges do not interleave.  Unlike that routine it exchanges
 * nothing: stock gathers every process's range in each call (two
 * MPI_Allgather), and Orthrus runs a chosen independent winner in quiet
 * runs, one reduction per run of calls (orth_sel_quiet).  Correct for any
 * pattern (a strided write is data-sieved under the file lock, as with
 * romio_cb_write=disable); the selection measures whether it pays.  Errors
 * are each process's own, as on stock's independent path. */
#include "orth.h"

static void independent(struct orth_call *c, int *err)
{
    ADIO_File fd = c->fd;
    const ADIOI_Fns *lo = c->lower;
    int buf_contig, file_contig;
    fd->fp_ind = c->orig_fp;
    ADIOI_Datatype_iscontig(c->dt, &buf_contig);
    ADIOI_Datatype_iscontig(fd->filetype, &file_contig);
    if (buf_contig && file_contig) {
        int fpt = c->fpt == ADIO_EXPLICIT_OFFSET ? ADIO_EXPLICIT_OFFSET : ADIO_INDIVIDUAL;
        ADIO_Offset off = fpt == ADIO_EXPLICIT_OFFSET ?
            fd->disp + (ADIO_Offset) fd->etype_size * c->off : 0;
        if (c->is_write)
            lo->ADIOI_xxx_WriteContig(fd, c->buf, c->count, c->dt, fpt, off, c->status, err);
        else
            lo->ADIOI_xxx_ReadContig(fd, c->buf, c->count, c->dt, fpt, off, c->status, err);
    } else if (c->is_write)
        lo->ADIOI_xxx_WriteStrided(fd, c->buf, c->count, c->dt, c->fpt, c->off, c->status, err);
    else
        lo->ADIOI_xxx_ReadStrided(fd, c->buf, c->count, c->dt, c->fpt, c->off, c->status, err);
}

const struct orth_cand orth_independent_cand = {.name = "independent",.run = independent,
    .writes_pieces = 1
};

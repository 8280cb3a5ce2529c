/* romio-xt Orthrus: the two_phase candidate, stock ROMIO (also what the
 * others fall back to). */
#include "orth.h"

/* stock ROMIO's collective routine, called with the original arguments */
void orth_two_phase(struct orth_call *c, int *err)
{
    const ADIOI_Fns *lower = c->lower;
    xt_coll_ran(c->fd, ORTH_two_phase + 1);
    c->fd->fp_ind = c->orig_fp;
    if (c->is_write)
        lower->ADIOI_xxx_WriteStridedColl(c->fd, c->buf, c->count, c->dt, c->fpt, c->off,
                                          c->status, err);
    else
        lower->ADIOI_xxx_ReadStridedColl(c->fd, c->buf, c->count, c->dt, c->fpt, c->off,
                                         c->status, err);
}

const struct orth_cand orth_two_phase_cand = {.name = "two_phase",.run = orth_two_phase,
    .stock = 1
};

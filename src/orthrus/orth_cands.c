/* romio-xt Orthrus: the candidates, one const struct each. */
#include "orth.h"

#include <string.h>

const struct orth_cand orth_cands[] = {
    {.name = "two_phase",.run = orth_two_phase},
    {.name = "core_first",.run = orth_core_first},
    {.name = "disk_first",.run = orth_disk_first},
    {.name = "view_based",.run = orth_view_based},
};

const int orth_ncands = sizeof(orth_cands) / sizeof(orth_cands[0]);

int orth_cand_find(const char *name)
{
    for (int i = 0; i < orth_ncands; i++)
        if (strcmp(orth_cands[i].name, name) == 0)
            return i;
    return -1;
}

/* stock ROMIO's collective routine, called with the original arguments */
void orth_two_phase(struct orth_call *c, int *err)
{
    const ADIOI_Fns *lower = xt_lower(c->fd, &orth_layer);
    c->fd->fp_ind = c->orig_fp;
    if (c->is_write)
        lower->ADIOI_xxx_WriteStridedColl(c->fd, c->buf, c->count, c->dt, c->fpt, c->off,
                                          c->status, err);
    else
        lower->ADIOI_xxx_ReadStridedColl(c->fd, c->buf, c->count, c->dt, c->fpt, c->off,
                                         c->status, err);
}

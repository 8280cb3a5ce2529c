/* romio-xt Orthrus: the candidates, one const struct each. */
#include "orth.h"

#include <string.h>

/* one per ORTH_CAND_LIST entry (orth_hints.def): the name, orth_<name> */
#define ORTH_CAND(h, name_) [ORTH_##name_] = {.name = #name_, .run = orth_##name_},
const struct orth_cand orth_cands[] = { ORTH_CAND_LIST(ORTH_CAND, _) };
#undef ORTH_CAND
_Static_assert(sizeof(orth_cands) / sizeof(orth_cands[0]) == ORTH_NCANDS, "one per candidate");
_Static_assert(XT_H_ORTH_FORCE_N == ORTH_NCANDS + 1 &&
               ORTH_FORCED_CAND(XT_H_ORTH_FORCE_view_based) == ORTH_view_based,
               "romio_orthrus_force: none + the candidates in orth_cands[] order");

const int orth_ncands = sizeof(orth_cands) / sizeof(orth_cands[0]);

int orth_cand_find(const char *name)
{
    for (int i = 0; i < orth_ncands; i++)
        if (strcmp(orth_cands[i].name, name) == 0)
            return i;
    return -1;
}

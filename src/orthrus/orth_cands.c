/* romio-xt Orthrus: the candidates (one const struct orth_cand each, in its
 * own file) and the calls of their hooks: the selector reaches a candidate
 * only through here. */
#include "orth.h"

#include <string.h>

/* one per ORTH_CAND_LIST entry (orth_hints.def): orth_<name>_cand */
#define ORTH_CAND(h, name_) [ORTH_##name_] = &orth_##name_##_cand,
const struct orth_cand *const orth_cands[] = { ORTH_CAND_LIST(ORTH_CAND, _) };
#undef ORTH_CAND
_Static_assert(sizeof(orth_cands) / sizeof(orth_cands[0]) == ORTH_NCANDS, "one per candidate");
_Static_assert(XT_H_ORTH_FORCE_N == ORTH_NCANDS + 1 &&
               ORTH_FORCED_CAND(XT_H_ORTH_FORCE_view_based) == ORTH_view_based,
               "romio_orthrus_force: none + the candidates in orth_cands[] order");

const int orth_ncands = sizeof(orth_cands) / sizeof(orth_cands[0]);

int orth_cand_find(const char *name)
{
    for (int i = 0; i < orth_ncands; i++)
        if (strcmp(orth_cands[i]->name, name) == 0)
            return i;
    return -1;
}

/* every candidate's hook h, if it has one, called with the arguments after h */
#define ORTH_EACH(h, ...) do { for (int i_ = 0; i_ < orth_ncands; i_++) \
        if (orth_cands[i_]->h) orth_cands[i_]->h(__VA_ARGS__); } while (0)

/* 1 when candidate id may run calls of the file: forced, or in the rotation */
static int used(const struct orth_state *st, int id)
{
    int u = st->forced == id;
    for (int r = 0; r < st->sel.ncand && st->forced < 0; r++)
        u |= st->rotation[r] == id;
    return u;
}

void orth_cands_open(ADIO_File fd, struct orth_state *st)
{
    for (int i = 0; i < orth_ncands; i++)
        if (orth_cands[i]->open && used(st, i))
            orth_cands[i]->open(fd, st);
}

void orth_cands_close(ADIO_File fd, struct orth_state *st, int *err)
{
    orth_cands_settle(fd, ORTH_AT_CLOSE, err);
    ORTH_EACH(close, fd, st);
}

void orth_cands_other(ADIO_File fd, int runs, int is_write)
{
    for (int i = 0; i < orth_ncands; i++)
        if (i != runs && orth_cands[i]->other)
            orth_cands[i]->other(fd, is_write);
}

/* *err: the first candidate's error, or MPI_SUCCESS */
void orth_cands_settle(ADIO_File fd, int at, int *err)
{
    if (err)
        *err = MPI_SUCCESS;
    for (int i = 0; i < orth_ncands; i++) {
        int e = MPI_SUCCESS;
        if (!orth_cands[i]->settle)
            continue;
        orth_cands[i]->settle(fd, at, err ? &e : NULL);
        if (err && *err == MPI_SUCCESS)
            *err = e;
    }
}

void orth_cands_view(ADIO_File fd, int error_code)
{
    orth_cands_settle(fd, ORTH_AT_VIEW, NULL);
    ORTH_EACH(view, fd, error_code);
}

void orth_cands_indep(ADIO_File fd, struct orth_io *io, int after)
{
    ORTH_EACH(indep, fd, io, after);
}

int orth_cands_block(ADIO_File fd)
{
    int b = 0;
    for (int i = 0; i < orth_ncands; i++)
        b |= orth_cands[i]->blocks && orth_cands[i]->blocks(fd);
    return b;
}

void orth_cands_fsize(ADIO_File fd, ADIO_Offset *size)
{
    ORTH_EACH(fsize, fd, size);
}

void orth_cands_wrote(ADIO_File fd)
{
    ORTH_EACH(wrote, fd);
}

void orth_cand_setup(struct orth_call *c, int cand)
{
    if (orth_cands[cand]->setup)
        orth_cands[cand]->setup(c);
}

void orth_cand_other(ADIO_File fd, int cand, int is_write)
{
    if (orth_cands[cand]->other)
        orth_cands[cand]->other(fd, is_write);
}

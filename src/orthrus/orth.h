/* romio-xt Orthrus: on-line selection among collective-I/O implementations.
 * The layer overrides ReadStridedColl/WriteStridedColl; each call is run by
 * one candidate from orth_cands[] (two_phase = stock ROMIO, core_first = one
 * aggregator per node), chosen by orth_select.c from allreduced timings. */
#ifndef ORTH_H
#define ORTH_H

#include "../core/xt_layer.h"
#include "orth_select.h"

/* one collective call, as the candidates see it */
struct orth_call {
    ADIO_File fd;
    void *buf;
    int count;
    MPI_Datatype dt;
    int fpt;
    ADIO_Offset off;
    ADIO_Status *status;
    int is_write;
    /* this rank's file pieces in view order (ADIOI_Calc_my_off_len) */
    ADIO_Offset *offs, *lens;
    int n;
    int64_t bytes;              /* this rank's bytes */
    ADIO_Offset orig_fp, end_fp;        /* fd->fp_ind before and after the call */
};

struct orth_cand {
    const char *name;
    /* collective over fd->comm; sets *err the same way on all ranks */
    void (*run)(struct orth_call *c, int *err);
};

extern const struct orth_cand orth_cands[];
extern const int orth_ncands;
int orth_cand_find(const char *name);

struct orth_state {
    struct orth_sel sel;
    int rotation[ORTH_MAX_CAND];        /* indices into orth_cands */
    int forced;                 /* index into orth_cands, or -1 */
    MPI_Comm node;              /* the processes sharing this node */
    int64_t bypassed;           /* calls passed to the stock routine unexamined */
    int64_t runs[ORTH_MAX_CAND + 4];    /* calls run per orth_cands index */
};

extern const struct xt_layer orth_layer;

void orth_two_phase(struct orth_call *c, int *err);
void orth_core_first(struct orth_call *c, int *err);

#endif

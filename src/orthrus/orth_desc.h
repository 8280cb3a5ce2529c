/* romio-xt Orthrus: a call's description (this rank's pieces, bytes, the
 * holes between them, the file pointer after it) cached per file view and
 * place in the view, so that a call like an earlier one is described
 * without listing its pieces (ADIOI_Calc_my_off_len: one offset and one
 * length per piece, 16384 pieces per call on Noncontig).  Pure: no MPI
 * (test/unit/test_orth.c).
 *
 * Why a cache is exact: for a noncontiguous filetype, ADIOI_Calc_my_off_len
 * finds the filetype instance the call starts in (n, counted from disp) and
 * the call's phase within it; every offset it lists, and the individual
 * file pointer it leaves, is disp + n * extent + a function of the phase,
 * the call's size in bytes (count x the size of its datatype: nothing else
 * of the datatype is used) and the view.  So the counts and the holes are
 * the same for every call with the same (view, pointer kind, phase, size),
 * and the end pointer moves with n * extent. */
#ifndef ORTH_DESC_H
#define ORTH_DESC_H

#include <stdint.h>

/* the view's numbers (bytes); first: the flattened filetype's first displacement */
struct orth_geom {
    int64_t disp, etype, ft_size, ft_extent, first;
};

/* a call's place in view g: *base = n * extent (n: the filetype instance
 * it starts in) and *phase (individual pointer: bytes from that instance's
 * first displacement; explicit offset: etypes into the instance's data);
 * 0 (nothing set) when it has none: a zero size or extent, an offset or
 * pointer before the view's first byte, a filetype not made of etypes */
int orth_desc_place(const struct orth_geom *g, int indiv, int64_t fp_ind, int64_t off,
                    int64_t *phase, int64_t *base);

struct orth_desc {
    /* the key */
    uint64_t gen;               /* the file's view generation (bumped by every set_view) */
    struct orth_geom geom;
    int indiv;                  /* individual file pointer (else explicit offset) */
    int64_t phase, size;        /* orth_desc_place's phase; the call's bytes */
    /* the description: this rank's nonempty pieces, their bytes, the sum of
     * the holes between consecutive pieces, and the individual file pointer
     * after the call minus disp + base */
    int64_t nreqs, bytes, gaps, end_rel;
};

#define ORTH_DESC_N 4
struct orth_desc_cache {
    struct orth_desc d[ORTH_DESC_N];
    int n, next;                /* entries used; the next one replaced */
    int64_t hits, misses;
};

/* the entry with key's key fields, or NULL */
const struct orth_desc *orth_desc_find(const struct orth_desc_cache *c,
                                       const struct orth_desc *key);
/* stores d (replacing the oldest entry when full) */
void orth_desc_put(struct orth_desc_cache *c, const struct orth_desc *d);

#endif

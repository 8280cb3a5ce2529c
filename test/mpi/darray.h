/* coll_perf's pattern: this rank's block of an n^3 int array distributed
 * block-block-block (fastest dimension split first, so ranks interleave in
 * the file).  Shared by tests and benchmarks. */
#ifndef XT_DARRAY_H
#define XT_DARRAY_H

#include <mpi.h>

struct xt_darray {
    MPI_Datatype type;      /* committed darray file type */
    int ls[3], c[3];        /* local sizes and process coordinates */
    long long count;        /* ints in this rank's block */
};

static inline void xt_darray_make(int n, int nprocs, int rank, struct xt_darray *d)
{
    int gs[3] = { n, n, n }, ds[3], da[3], ps[3] = { 0, 0, 0 };
    MPI_Dims_create(nprocs, 3, ps);
    int t = ps[0];
    ps[0] = ps[2];
    ps[2] = t;
    for (int k = 0; k < 3; k++) {
        ds[k] = MPI_DISTRIBUTE_BLOCK;
        da[k] = MPI_DISTRIBUTE_DFLT_DARG;
        d->ls[k] = n / ps[k];
    }
    MPI_Type_create_darray(nprocs, rank, 3, gs, ds, da, ps, MPI_ORDER_C, MPI_INT, &d->type);
    MPI_Type_commit(&d->type);
    d->c[0] = rank / (ps[1] * ps[2]);
    d->c[1] = rank / ps[2] % ps[1];
    d->c[2] = rank % ps[2];
    d->count = (long long) d->ls[0] * d->ls[1] * d->ls[2];
}

/* global index of element (i, j, 0) of this rank's block */
static inline long long xt_darray_row(const struct xt_darray *d, int n, int i, int j)
{
    return ((long long) (d->c[0] * d->ls[0] + i) * n + d->c[1] * d->ls[1] + j) * n +
        (long long) d->c[2] * d->ls[2];
}

#endif

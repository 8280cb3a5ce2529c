/* Shared by the view_based tests (t_vb.c, t_vb_cons.c). */
#ifndef T_VB_H
#define T_VB_H

#include "../mpi/common.h"

/* the filetype of rank `rank` of `nprocs`: blocks of bl bytes of the ranks
 * interleaved, nb of them per period */
static inline MPI_Datatype t_vb_interleaved(int rank, int nprocs, int bl, int nb)
{
    MPI_Datatype vec, placed, ft;
    int one = 1;
    MPI_Aint at = (MPI_Aint) rank * bl;
    MPI_Type_vector(nb, bl, bl * nprocs, MPI_BYTE, &vec);
    MPI_Type_create_struct(1, &one, &at, &vec, &placed);
    MPI_Type_create_resized(placed, 0, (MPI_Aint) nb * bl * nprocs, &ft);
    MPI_Type_commit(&ft);
    MPI_Type_free(&vec);
    MPI_Type_free(&placed);
    return ft;
}

#endif

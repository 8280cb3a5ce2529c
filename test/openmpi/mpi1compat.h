/* Compiles ROMIO 3.2.1's tests (test/openmpi/run.sh: mpicc.openmpi -include
 * this) against Debian's Open MPI 4.1.4, which is built without
 * --enable-mpi1-compatibility: its mpi.h rejects what MPI-3.0 removed
 * (MPI_UB, MPI_LB, MPI_Type_struct, ...) at compile time, though libmpi still
 * has them.  Some of ROMIO 3.2.1's tests (noncontig, i_noncontig,
 * noncontig_coll, noncontig_coll2) use them; this declares them again, as
 * mpi.h does in a compatible build. */
#define OMPI_OMIT_MPI1_COMPAT_DECLS 0
#define OMPI_REMOVED_USE_STATIC_ASSERT 0
#include <mpi.h>
OMPI_DECLSPEC extern struct ompi_predefined_datatype_t ompi_mpi_lb;
OMPI_DECLSPEC extern struct ompi_predefined_datatype_t ompi_mpi_ub;
#define MPI_UB OMPI_PREDEFINED_GLOBAL(MPI_Datatype, ompi_mpi_ub)
#define MPI_LB OMPI_PREDEFINED_GLOBAL(MPI_Datatype, ompi_mpi_lb)

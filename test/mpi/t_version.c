/* Prints MPI_Get_library_version's text (make check looks for romio-xt's version in it). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    char v[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    MPI_Init(&argc, &argv);
    MPI_Get_library_version(v, &len);
    printf("%.*s\n", len, v);
    MPI_Finalize();
    return 0;
}

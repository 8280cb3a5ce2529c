/* Built with Debian's mpicc.mpich (links libmpich.so.12), run on romio-xt
 * through LD_LIBRARY_PATH: writes and reads a file and prints the value of
 * romio_xt_layers that MPI_File_get_info returns ("(absent)" on stock MPICH). */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    MPI_File fh;
    MPI_Info info;
    int rank, flag = 0, errs = 0;
    char val[256] = "(absent)", buf[1000], in[1000];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    memset(buf, 'a' + rank, sizeof(buf));
    MPI_File_open(MPI_COMM_WORLD, argv[1], MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    MPI_File_write_at_all(fh, rank * 1000, buf, 1000, MPI_CHAR, MPI_STATUS_IGNORE);
    MPI_File_read_at_all(fh, rank * 1000, in, 1000, MPI_CHAR, MPI_STATUS_IGNORE);
    errs = memcmp(in, buf, sizeof(buf)) != 0;
    MPI_File_get_info(fh, &info);
    MPI_Info_get(info, "romio_xt_layers", sizeof(val) - 1, val, &flag);
    if (!flag)
        strcpy(val, "(absent)");
    MPI_Info_free(&info);
    MPI_File_close(&fh);
    if (rank == 0)
        printf("romio_xt_layers=%s errors=%d\n", val, errs);
    MPI_Finalize();
    return errs;
}

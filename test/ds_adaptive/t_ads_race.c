/* Concurrent interleaved writes with read-modify-write: no lost update.
 *   t_ads_race FILE METHOD ITERATIONS
 * Every rank owns every nprocs-th 8-byte piece of a 1 MiB region and writes
 * all of its pieces at once through a vector view, concurrently with the
 * others, each iteration with new values.  With romio or adaptive sieving
 * the windows overlap other ranks' pieces; without locking one rank's
 * read-modify-write would put back another's old bytes. */
#include "../mpi/common.h"

enum { PIECE = 8, REGION = 1 << 20 };

int main(int argc, char **argv)
{
    int rank, nprocs;
    MPI_File fh;
    MPI_Datatype ft;
    MPI_Info info;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    if (argc < 4) {
        fprintf(stderr, "usage: t_ads_race FILE METHOD ITERATIONS\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int iters = atoi(argv[3]), n = REGION / PIECE / nprocs;
    MPI_Info_create(&info);
    MPI_Info_set(info, "romio_ds_write", "adaptive");
    MPI_Info_set(info, "romio_ads_method", argv[2]);
    MPI_Info_set(info, "ind_wr_buffer_size", "65536");
    MPI_Type_vector(n, PIECE, PIECE * nprocs, MPI_BYTE, &ft);
    MPI_Type_commit(&ft);
    unsigned char *buf = malloc((size_t) n * PIECE), *all = malloc(REGION);
    T_MPI(MPI_File_open(MPI_COMM_WORLD, argv[1], MPI_MODE_CREATE | MPI_MODE_RDWR, info, &fh));
    T_MPI(MPI_File_set_view(fh, (MPI_Offset) rank * PIECE, MPI_BYTE, ft, "native", MPI_INFO_NULL));
    for (int it = 0; it < iters; it++) {
        memset(buf, 1 + (rank * 37 + it) % 250, (size_t) n * PIECE);
        T_MPI(MPI_File_write_at(fh, 0, buf, n * PIECE, MPI_BYTE, MPI_STATUS_IGNORE));
        T_MPI(MPI_File_sync(fh));
        MPI_Barrier(MPI_COMM_WORLD);
        T_MPI(MPI_File_sync(fh));
        if (rank == 0) {
            MPI_File ro;
            T_MPI(MPI_File_open(MPI_COMM_SELF, argv[1], MPI_MODE_RDONLY, MPI_INFO_NULL, &ro));
            T_MPI(MPI_File_read_at(ro, 0, all, REGION, MPI_BYTE, MPI_STATUS_IGNORE));
            T_MPI(MPI_File_close(&ro));
            int lost = 0;
            for (int k = 0; k < REGION; k++)
                lost += all[k] != 1 + ((k / PIECE % nprocs) * 37 + it) % 250;
            T_CHECK(lost == 0, "iteration %d: %d bytes lost", it, lost);
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    T_MPI(MPI_File_close(&fh));
    MPI_Type_free(&ft);
    MPI_Info_free(&info);
    free(buf);
    free(all);
    return t_finish("t_ads_race");
}

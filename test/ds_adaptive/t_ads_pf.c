/* Adaptive sieving writes straight to the file under a prefetch cache:
 *   t_ads_pf FILE
 * One open with romio_ds_write=adaptive and fadvise prefetch: read the file
 * (the prefetch cache fills), write a strided pattern through a vector view
 * (ds_adaptive's own pwrite), read the same range again: the new bytes must
 * be seen, not the cached old ones. */
#include "../mpi/common.h"

enum { SIZE = 1 << 20, PIECE = 100, STRIDE = 300, WINDOW = 256 << 10 };

int main(int argc, char **argv)
{
    MPI_File fh;
    MPI_Info info;
    MPI_Datatype ft;
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    unsigned char *old = malloc(SIZE), *got = malloc(SIZE), *piece = malloc(SIZE);
    for (int k = 0; k < SIZE; k++)
        old[k] = t_pattern(k, 1);
    MPI_Info_create(&info);
    MPI_Info_set(info, "romio_ds_write", "adaptive");
    MPI_Info_set(info, "romio_prefetch", "enable");
    /* fadvise: the buffer method is off on files open for writing (its
     * consistency rule, docs/prefetch.md) */
    MPI_Info_set(info, "romio_prefetch_method", "fadvise");
    MPI_Info_set(info, "romio_prefetch_block_size", "65536");
    T_MPI(MPI_File_open(MPI_COMM_SELF, argv[1], MPI_MODE_CREATE | MPI_MODE_RDWR, info, &fh));
    T_MPI(MPI_File_write_at(fh, 0, old, SIZE, MPI_BYTE, MPI_STATUS_IGNORE));
    /* the first 256 KiB: within the prefetch window (8 blocks of 64 KiB) */
    T_MPI(MPI_File_read_at(fh, 0, got, WINDOW, MPI_BYTE, MPI_STATUS_IGNORE));
    T_CHECK(memcmp(got, old, WINDOW) == 0, "first read differs");
    int n = SIZE / STRIDE;
    MPI_Type_vector(n, PIECE, STRIDE, MPI_BYTE, &ft);
    MPI_Type_commit(&ft);
    memset(piece, 0xa5, (size_t) n * PIECE);
    T_MPI(MPI_File_set_view(fh, 0, MPI_BYTE, ft, "native", MPI_INFO_NULL));
    T_MPI(MPI_File_write_at(fh, 0, piece, n * PIECE, MPI_BYTE, MPI_STATUS_IGNORE));
    T_MPI(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
    T_MPI(MPI_File_read_at(fh, 0, got, WINDOW, MPI_BYTE, MPI_STATUS_IGNORE));
    int stale = 0;
    for (int k = 0; k < WINDOW; k++) {
        int written = k / STRIDE < n && k % STRIDE < PIECE;
        stale += got[k] != (written ? 0xa5 : old[k]);
    }
    T_CHECK(stale == 0, "%d bytes differ after the strided write", stale);
    char layers[256];
    t_info_value(fh, "romio_xt_layers", layers, sizeof(layers));
    T_CHECK(strcmp(layers, "prefetch,ds_adaptive") == 0, "layers '%s'", layers);
    T_MPI(MPI_File_close(&fh));
    MPI_Type_free(&ft);
    MPI_Info_free(&info);
    free(old);
    free(got);
    free(piece);
    return t_finish("t_ads_pf");
}

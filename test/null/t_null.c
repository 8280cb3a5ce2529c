/* The template layer moves data unchanged:
 *   t_null FILE write|verify [HINT ...]
 * write: every rank writes its blocks of a strided layout collectively (a
 * vector view) and one contiguous block independently; verify: reads both
 * back, the same way, and checks every byte.  Each HINT (e.g. romio_xt_null)
 * is set to enable for the open. */
#include "common.h"

#define BLOCK 4096
#define NBLOCKS 16

static void io(const char *path, MPI_Info info, int write)
{
    int rank, nprocs;
    MPI_File fh;
    MPI_Datatype vec;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    unsigned char *buf = malloc(NBLOCKS * BLOCK), *want = malloc(NBLOCKS * BLOCK);
    long long tail = (long long) NBLOCKS * BLOCK * nprocs;      /* the contiguous part */
    for (int b = 0; b < NBLOCKS; b++)
        for (int k = 0; k < BLOCK; k++)
            want[b * BLOCK + k] = t_pattern(((long long) b * nprocs + rank) * BLOCK + k, 7);
    T_MPI(MPI_File_open(MPI_COMM_WORLD, path, write ? MPI_MODE_CREATE | MPI_MODE_RDWR
                        : MPI_MODE_RDONLY, info, &fh));
    MPI_Type_vector(NBLOCKS, BLOCK, BLOCK * nprocs, MPI_BYTE, &vec);
    MPI_Type_commit(&vec);
    T_MPI(MPI_File_set_view(fh, (MPI_Offset) rank * BLOCK, MPI_BYTE, vec, "native", info));
    if (write)
        T_MPI(MPI_File_write_all(fh, want, NBLOCKS * BLOCK, MPI_BYTE, MPI_STATUS_IGNORE));
    else {
        T_MPI(MPI_File_read_all(fh, buf, NBLOCKS * BLOCK, MPI_BYTE, MPI_STATUS_IGNORE));
        T_CHECK(memcmp(buf, want, NBLOCKS * BLOCK) == 0, "rank %d: strided data differ", rank);
    }
    T_MPI(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", info));
    for (int k = 0; k < BLOCK; k++)
        want[k] = t_pattern(tail + (long long) rank * BLOCK + k, 9);
    MPI_Offset at = tail + (MPI_Offset) rank * BLOCK;
    if (write)
        T_MPI(MPI_File_write_at(fh, at, want, BLOCK, MPI_BYTE, MPI_STATUS_IGNORE));
    else {
        T_MPI(MPI_File_read_at(fh, at, buf, BLOCK, MPI_BYTE, MPI_STATUS_IGNORE));
        T_CHECK(memcmp(buf, want, BLOCK) == 0, "rank %d: contiguous data differ", rank);
    }
    T_MPI(MPI_File_close(&fh));
    MPI_Type_free(&vec);
    free(buf);
    free(want);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    if (argc < 3) {
        fprintf(stderr, "usage: t_null FILE write|verify [HINT ...]\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Info info;
    MPI_Info_create(&info);
    for (int a = 3; a < argc; a++)
        MPI_Info_set(info, argv[a], "enable");
    io(argv[1], info, strcmp(argv[2], "write") == 0);
    MPI_Info_free(&info);
    return t_finish("t_null");
}

/* A collective write and read, then an independent write and read, through a
 * strided view (two-phase and data sieving both run), every byte verified.
 * t_romio_hints FILE [KEY VALUE [open|setinfo]]: KEY=VALUE given in the info
 * at open or by MPI_File_set_info after open (ROMIO_HINTS: the caller's); all
 * of it twice (two opens).  T_EXPECT: the value MPI_File_get_info must show. */
#include "../mpi/common.h"

enum { BLOCK = 1000, NBLOCKS = 64 };

static void fill(unsigned char *buf, int rank, int nprocs, int seed)
{
    for (int b = 0; b < NBLOCKS; b++)
        for (int i = 0; i < BLOCK; i++)
            buf[b * BLOCK + i] = t_pattern(((long long) b * nprocs + rank) * BLOCK + i, seed);
}

static void round_trip(MPI_File fh, int rank, int nprocs, int seed, int coll)
{
    static unsigned char out[BLOCK * NBLOCKS], in[BLOCK * NBLOCKS];
    MPI_Status st;
    fill(out, rank, nprocs, seed);
    memset(in, 0, sizeof(in));
    if (coll) {
        T_MPI(MPI_File_write_at_all(fh, 0, out, sizeof(out), MPI_BYTE, &st));
        T_MPI(MPI_File_read_at_all(fh, 0, in, sizeof(in), MPI_BYTE, &st));
    } else {
        T_MPI(MPI_File_write_at(fh, 0, out, sizeof(out), MPI_BYTE, &st));
        T_MPI(MPI_File_sync(fh));
        MPI_Barrier(MPI_COMM_WORLD);
        T_MPI(MPI_File_sync(fh));
        T_MPI(MPI_File_read_at(fh, 0, in, sizeof(in), MPI_BYTE, &st));
    }
    T_CHECK(memcmp(in, out, sizeof(in)) == 0, "%s read differs (seed %d)",
            coll ? "collective" : "independent", seed);
}

int main(int argc, char **argv)
{
    int rank, nprocs;
    MPI_File fh;
    MPI_Info info;
    MPI_Datatype ftype;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    const char *mode = argc > 4 ? argv[4] : "open", *expect = getenv("T_EXPECT");
    for (int pass = 0; pass < 2; pass++) {     /* a second open: no second warning */
    MPI_Info_create(&info);
    if (argc > 3 && strcmp(mode, "open") == 0)
        MPI_Info_set(info, argv[2], argv[3]);
    MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_ARE_FATAL);
    T_MPI(MPI_File_open(MPI_COMM_WORLD, argv[1], MPI_MODE_CREATE | MPI_MODE_RDWR, info, &fh));
    MPI_Info_free(&info);
    if (argc > 3 && strcmp(mode, "setinfo") == 0) {
        MPI_Info_create(&info);
        MPI_Info_set(info, argv[2], argv[3]);
        T_MPI(MPI_File_set_info(fh, info));
        MPI_Info_free(&info);
    }
    MPI_Type_vector(NBLOCKS, BLOCK, BLOCK * nprocs, MPI_BYTE, &ftype);
    MPI_Type_commit(&ftype);
    T_MPI(MPI_File_set_view(fh, (MPI_Offset) rank * BLOCK, MPI_BYTE, ftype, "native",
                            MPI_INFO_NULL));
    round_trip(fh, rank, nprocs, 1, 1);
    round_trip(fh, rank, nprocs, 2, 0);
    round_trip(fh, rank, nprocs, 3, 1);
    if (expect && argc > 2) {   /* what ROMIO took, as MPI_File_get_info shows it */
        char val[MPI_MAX_INFO_VAL + 1];
        t_info_value(fh, argv[2], val, sizeof(val));
        T_CHECK(strcmp(val, expect) == 0, "%s is '%s', want '%s'", argv[2], val, expect);
    }
    T_MPI(MPI_File_close(&fh));
    MPI_Type_free(&ftype);
    }
    return t_finish("t_romio_hints");
}

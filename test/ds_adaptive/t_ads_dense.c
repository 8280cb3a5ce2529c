/* Dense and holey strided writes under adaptive data sieving:
 *   t_ads_dense FILE
 * Each rank's view is one 64 KiB block per period of nprocs blocks (a vector
 * type: a noncontiguous view).  Each rank writes 4 calls of one block (its
 * range has no hole) and then one call of two blocks (a hole between them,
 * the other ranks' blocks), all independent; after the close rank 0
 * compares every byte of the file with the expected pattern.  The stats
 * record (ROMIO_XT_STATS_FILE) tells the locked calls. */
#include "../mpi/common.h"

enum { BLK = 64 * 1024, DENSE = 4 };

int main(int argc, char **argv)
{
    int rank, nprocs;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    if (argc != 2) {
        fprintf(stderr, "usage: t_ads_dense FILE\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Datatype vec, ftype;
    MPI_Type_vector(2, BLK, BLK * nprocs, MPI_BYTE, &vec);
    MPI_Type_create_resized(vec, 0, (MPI_Aint) 2 * BLK * nprocs, &ftype);
    MPI_Type_commit(&ftype);
    MPI_File fh;
    T_MPI(MPI_File_open(MPI_COMM_WORLD, argv[1], MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL,
                        &fh));
    T_MPI(MPI_File_set_view(fh, (MPI_Offset) rank * BLK, MPI_BYTE, ftype, "native",
                            MPI_INFO_NULL));
    long long nblk = (long long) (DENSE + 2) * nprocs;
    unsigned char *buf = malloc(2 * BLK);
    for (int k = 0; k < DENSE + 1; k++) {       /* block k of this rank; the last call 2 */
        int n = k < DENSE ? 1 : 2;
        for (int j = 0; j < n; j++) {
            long long off = ((long long) (k + j) * nprocs + rank) * BLK;
            for (int b = 0; b < BLK; b++)
                buf[j * BLK + b] = t_pattern(off + b, 5);
        }
        T_MPI(MPI_File_write_at(fh, (MPI_Offset) k * BLK, buf, n * BLK, MPI_BYTE,
                                MPI_STATUS_IGNORE));
    }
    T_MPI(MPI_File_close(&fh));
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        FILE *f = fopen(argv[1], "rb");
        T_CHECK(f != NULL, "cannot open %s", argv[1]);
        long long bad = 0, off = 0;
        int c;
        while (f && (c = fgetc(f)) != EOF) {
            bad += c != t_pattern(off, 5);
            off++;
        }
        T_CHECK(off == nblk * BLK, "file has %lld bytes, expected %lld", off, nblk * BLK);
        T_CHECK(bad == 0, "%lld bytes differ", bad);
        if (f)
            fclose(f);
    }
    free(buf);
    MPI_Type_free(&vec);
    MPI_Type_free(&ftype);
    int errs = 0;
    MPI_Allreduce(&t_errors, &errs, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && !errs)
        printf("dense and holey writes: %lld blocks right\n", nblk);
    MPI_Finalize();
    return errs != 0;
}

/* t_tb_rt: MPI-IO round trip for the testbed smoke test.
 *   t_tb_rt FILE write|read [key=value ...]
 * The hints (key=value) are passed at open.  The file holds t_pattern(off):
 *   part 1 (collective): ranks' blocks of BLK bytes interleave (vector view),
 *     written with write_all, read with read_all;
 *   part 2 (independent, noncontiguous): after part 1, each rank's blocks of
 *     SBLK bytes with holes the other ranks fill (the data-sieving path).
 * read: every byte checked against the pattern; exit 1 on any mismatch. */
#include "../mpi/common.h"

#define BLK 3000
#define NBLK 700                /* part 1: ~2 MiB per rank */
#define SBLK 100
#define NSBLK 2000              /* part 2: 200 KB per rank */

static int rank, nprocs;

static void part(MPI_File fh, MPI_Offset disp, int blk, int nblk, int coll, int write)
{
    MPI_Datatype ft;
    long long n = (long long) blk * nblk, i;
    unsigned char *buf = malloc(n);
    T_MPI(MPI_Type_vector(nblk, blk, blk * nprocs, MPI_BYTE, &ft));
    T_MPI(MPI_Type_commit(&ft));
    T_MPI(MPI_File_set_view(fh, disp + (MPI_Offset) rank * blk, MPI_BYTE, ft, "native",
                            MPI_INFO_NULL));
    for (i = 0; i < n; i++) {   /* file offset of buffer byte i */
        long long off = disp + (i / blk) * blk * nprocs + (long long) rank * blk + i % blk;
        if (write)
            buf[i] = t_pattern(off, 16);
        else
            buf[i] = (unsigned char) ~t_pattern(off, 16);
    }
    if (write)
        T_MPI(coll ? MPI_File_write_all(fh, buf, (int) n, MPI_BYTE, MPI_STATUS_IGNORE)
              : MPI_File_write(fh, buf, (int) n, MPI_BYTE, MPI_STATUS_IGNORE));
    else {
        int bad = 0;
        T_MPI(coll ? MPI_File_read_all(fh, buf, (int) n, MPI_BYTE, MPI_STATUS_IGNORE)
              : MPI_File_read(fh, buf, (int) n, MPI_BYTE, MPI_STATUS_IGNORE));
        for (i = 0; i < n; i++) {
            long long off = disp + (i / blk) * blk * nprocs + (long long) rank * blk + i % blk;
            if (buf[i] != t_pattern(off, 16) && bad++ == 0)
                T_CHECK(0, "byte at file offset %lld differs", off);
        }
    }
    MPI_Type_free(&ft);
    free(buf);
}

int main(int argc, char **argv)
{
    MPI_File fh;
    MPI_Info info;
    int i, write;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    if (argc < 3) {
        fprintf(stderr, "usage: t_tb_rt FILE write|read [key=value...]\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    write = strcmp(argv[2], "write") == 0;
    MPI_Info_create(&info);
    for (i = 3; i < argc; i++) {
        char *eq = strchr(argv[i], '=');
        if (eq) {
            *eq = '\0';
            MPI_Info_set(info, argv[i], eq + 1);
        }
    }
    T_MPI(MPI_File_open(MPI_COMM_WORLD, argv[1],
                        write ? MPI_MODE_CREATE | MPI_MODE_WRONLY : MPI_MODE_RDONLY, info, &fh));
    part(fh, 0, BLK, NBLK, 1, write);
    part(fh, (MPI_Offset) BLK * NBLK * nprocs, SBLK, NSBLK, 0, write);
    if (write)
        T_MPI(MPI_File_sync(fh));
    T_MPI(MPI_File_close(&fh));
    MPI_Info_free(&info);
    return t_finish(write ? "t_tb_rt write" : "t_tb_rt read");
}

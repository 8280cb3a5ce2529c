/* Known I/O, for checking the stats record and byte-for-byte round trips:
 *   t_stats_io FILE write [info]   does the I/O below (info: stats by MPI_Info)
 *   t_stats_io FILE verify         rank 0 reads the whole file and compares
 * Per rank: 3 independent contiguous writes of 64 KiB (bytes, ints, doubles), one collective write
 * of 128 KiB, a resize to the final size, one strided independent write of 16 x 512 B through a vector
 * view (holes between), one independent read of 64 KiB, one collective read
 * of 128 KiB.  The expected totals are printed for the checker. */
#include "common.h"

enum { KB = 1024, BLK = 512, NBLK = 16 };

static long long region_b(int nprocs) { return (long long) nprocs * 192 * KB; }
static long long region_c(int nprocs) { return region_b(nprocs) + (long long) nprocs * 128 * KB; }
static long long stride_c(int nprocs) { return 2LL * nprocs * BLK; }

static long long file_size(int nprocs)
{
    return region_c(nprocs) + (NBLK - 1) * stride_c(nprocs) + (long long) nprocs * BLK;
}

/* the expected byte at off: pattern in written ranges, 0 in holes */
static unsigned char expected(long long off, int nprocs)
{
    if (off < region_b(nprocs))
        return t_pattern(off, 1);
    if (off < region_c(nprocs))
        return t_pattern(off, 2);
    long long rel = (off - region_c(nprocs)) % stride_c(nprocs);
    return rel < (long long) nprocs * BLK ? t_pattern(off, 3) : 0;
}

static void fill(unsigned char *buf, long long off, int len, int nprocs)
{
    for (int k = 0; k < len; k++)
        buf[k] = expected(off + k, nprocs);
}

static void do_io(const char *path, int rank, int nprocs, MPI_Info info)
{
    MPI_File fh;
    MPI_Datatype vec;
    unsigned char *buf = malloc(128 * KB), *in = malloc(128 * KB);
    T_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, info, &fh));
    /* the same 64 KiB through predefined types of several sizes (the stats
     * count bytes from the type's size) */
    const MPI_Datatype types[3] = { MPI_BYTE, MPI_INT, MPI_DOUBLE };
    for (int k = 0; k < 3; k++) {
        long long off = (long long) rank * 192 * KB + k * 64 * KB;
        int tsize;
        MPI_Type_size(types[k], &tsize);
        fill(buf, off, 64 * KB, nprocs);
        T_MPI(MPI_File_write_at(fh, off, buf, 64 * KB / tsize, types[k], MPI_STATUS_IGNORE));
    }
    long long boff = region_b(nprocs) + (long long) rank * 128 * KB;
    fill(buf, boff, 128 * KB, nprocs);
    T_MPI(MPI_File_write_at_all(fh, boff, buf, 128 * KB, MPI_BYTE, MPI_STATUS_IGNORE));

    /* strided: rank r's block j at region_c + j*stride + r*BLK.  The file is
     * extended first: stock ROMIO's sieving read-modify-write past the end of
     * file writes whatever its buffer held into the holes. */
    T_MPI(MPI_File_set_size(fh, file_size(nprocs)));
    MPI_Type_vector(NBLK, BLK, (int) stride_c(nprocs), MPI_BYTE, &vec);
    MPI_Type_commit(&vec);
    T_MPI(MPI_File_set_view(fh, region_c(nprocs) + (long long) rank * BLK, MPI_BYTE, vec,
                            "native", MPI_INFO_NULL));
    for (int j = 0; j < NBLK; j++)
        fill(buf + j * BLK, region_c(nprocs) + j * stride_c(nprocs) + rank * BLK, BLK, nprocs);
    T_MPI(MPI_File_write(fh, buf, NBLK * BLK, MPI_BYTE, MPI_STATUS_IGNORE));
    T_MPI(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL));
    MPI_Type_free(&vec);

    T_MPI(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    T_MPI(MPI_File_sync(fh));
    int peer = (rank + 1) % nprocs;    /* read what a neighbour wrote */
    long long aoff = (long long) peer * 192 * KB + 64 * KB;
    int psize;                  /* a predefined pair type, 8 bytes */
    MPI_Type_size(MPI_2INT, &psize);
    T_MPI(MPI_File_read_at(fh, aoff, in, 64 * KB / psize, MPI_2INT, MPI_STATUS_IGNORE));
    fill(buf, aoff, 64 * KB, nprocs);
    T_CHECK(memcmp(in, buf, 64 * KB) == 0, "independent read differs");
    boff = region_b(nprocs) + (long long) peer * 128 * KB;
    T_MPI(MPI_File_read_at_all(fh, boff, in, 128 * KB, MPI_BYTE, MPI_STATUS_IGNORE));
    fill(buf, boff, 128 * KB, nprocs);
    T_CHECK(memcmp(in, buf, 128 * KB) == 0, "collective read differs");
    T_MPI(MPI_File_close(&fh));
    free(buf);
    free(in);
}

static void verify(const char *path, int rank, int nprocs)
{
    MPI_File fh;
    MPI_Offset size;
    T_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh));
    T_MPI(MPI_File_get_size(fh, &size));
    if (rank == 0) {
        T_CHECK(size == file_size(nprocs), "size %lld, expected %lld", (long long) size,
                file_size(nprocs));
        unsigned char *in = malloc(size);
        T_MPI(MPI_File_read_at(fh, 0, in, (int) size, MPI_BYTE, MPI_STATUS_IGNORE));
        long long bad = -1;
        for (long long off = 0; off < size && bad < 0; off++)
            if (in[off] != expected(off, nprocs))
                bad = off;
        T_CHECK(bad < 0, "first differing byte at %lld", bad);
        free(in);
    }
    T_MPI(MPI_File_close(&fh));
}

int main(int argc, char **argv)
{
    int rank, nprocs;
    MPI_Info info = MPI_INFO_NULL;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    if (argc < 3) {
        fprintf(stderr, "usage: t_stats_io FILE write|verify [info]\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    if (argc > 3 && strcmp(argv[3], "info") == 0) {
        MPI_Info_create(&info);
        MPI_Info_set(info, "romio_xt_stats", "enable");
    }
    if (strcmp(argv[2], "write") == 0) {
        do_io(argv[1], rank, nprocs, info);
        if (rank == 0)
            printf("EXPECT ranks=%d bytes_written=%lld bytes_read=%lld write_coll=%d "
                   "read_coll=%d write_strided=%d contig_writes_min=%d\n", nprocs,
                   (long long) nprocs * (3 * 64 * KB + 128 * KB + NBLK * BLK),
                   (long long) nprocs * (64 * KB + 128 * KB), nprocs, nprocs, nprocs,
                   3 * nprocs);
    } else {
        verify(argv[1], rank, nprocs);
    }
    if (info != MPI_INFO_NULL)
        MPI_Info_free(&info);
    return t_finish("t_stats_io");
}

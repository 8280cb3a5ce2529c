/* view_based across calls: collective reads after writes (the aggregators'
 * cache), an independent write between collective calls, a set_view that
 * changes the view in the middle of the file, MPI_File_sync, and independent
 * reads of collectively written data.  Run with any hints; the file it
 * leaves must equal the one stock ROMIO leaves (run.sh compares them).
 * Usage: t_vb FILE */
#include "t_vb.h"

static int rank, nprocs;

enum { BL = 24, NB = 8, CALLS = 4 };

static void fill(char *b, int n, int seed)
{
    for (int i = 0; i < n; i++)
        b[i] = (char) t_pattern(i, rank * 131 + seed);
}

static void check(const char *what, const char *got, const char *want, int n)
{
    int bad = -1;
    for (int i = 0; i < n && bad < 0; i++)
        if (got[i] != want[i])
            bad = i;
    T_CHECK(bad < 0, "%s: differs at byte %d", what, bad);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    if (argc < 2) {
        fprintf(stderr, "usage: t_vb FILE\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    enum { N = NB * BL };
    char buf[N], want[N];
    MPI_File fh;
    MPI_Datatype ft = t_vb_interleaved(rank, nprocs, BL, NB);
    T_MPI(MPI_File_open(MPI_COMM_WORLD, argv[1], MPI_MODE_CREATE | MPI_MODE_RDWR,
                        MPI_INFO_NULL, &fh));
    T_MPI(MPI_File_set_view(fh, 0, MPI_BYTE, ft, "native", MPI_INFO_NULL));
    /* write, then read back collectively (the cache serves it) */
    for (int k = 0; k < CALLS; k++) {
        fill(buf, N, k);
        T_MPI(MPI_File_write_at_all(fh, (MPI_Offset) k * N, buf, N, MPI_BYTE,
                                    MPI_STATUS_IGNORE));
    }
    for (int k = 0; k < CALLS; k++) {
        fill(want, N, k);
        memset(buf, 0, N);
        T_MPI(MPI_File_read_at_all(fh, (MPI_Offset) k * N, buf, N, MPI_BYTE,
                                   MPI_STATUS_IGNORE));
        check("read after write", buf, want, N);
    }
    /* an independent write by the last rank into everyone's first call, then
     * a collective read of it by that rank (the cache must not serve stale data) */
    if (rank == nprocs - 1) {
        fill(buf, BL, 100);
        T_MPI(MPI_File_write_at(fh, BL, buf, BL, MPI_BYTE, MPI_STATUS_IGNORE));
    }
    fill(want, N, 0);
    if (rank == nprocs - 1)
        fill(want + BL, BL, 100);
    T_MPI(MPI_File_read_at_all(fh, 0, buf, N, MPI_BYTE, MPI_STATUS_IGNORE));
    check("collective read after independent write", buf, want, N);
    /* a new view in the middle of the file: contiguous blocks per rank,
     * after the interleaved part */
    MPI_Offset mid = (MPI_Offset) CALLS * N * nprocs;
    T_MPI(MPI_File_set_view(fh, mid + (MPI_Offset) rank * 2 * N, MPI_BYTE, MPI_BYTE, "native",
                            MPI_INFO_NULL));
    fill(buf, N, 200);
    T_MPI(MPI_File_write_all(fh, buf, N, MPI_BYTE, MPI_STATUS_IGNORE));
    fill(buf, N, 201);
    T_MPI(MPI_File_write_all(fh, buf, N, MPI_BYTE, MPI_STATUS_IGNORE));
    /* independent read of this rank's own collective write */
    fill(want, N, 200);
    T_MPI(MPI_File_read_at(fh, 0, buf, N, MPI_BYTE, MPI_STATUS_IGNORE));
    check("independent read after collective write", buf, want, N);
    T_MPI(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    T_MPI(MPI_File_sync(fh));
    /* back to the interleaved view: overwrite the third call, read all back */
    T_MPI(MPI_File_set_view(fh, 0, MPI_BYTE, ft, "native", MPI_INFO_NULL));
    fill(buf, N, 300);
    T_MPI(MPI_File_write_at_all(fh, 2 * N, buf, N, MPI_BYTE, MPI_STATUS_IGNORE));
    for (int k = 0; k < CALLS; k++) {
        fill(want, N, k == 2 ? 300 : k);
        if (k == 0 && rank == nprocs - 1)
            fill(want + BL, BL, 100);
        T_MPI(MPI_File_read_at_all(fh, (MPI_Offset) k * N, buf, N, MPI_BYTE,
                                   MPI_STATUS_IGNORE));
        check("read after set_view", buf, want, N);
    }
    T_MPI(MPI_File_close(&fh));
    MPI_Type_free(&ft);
    return t_finish("t_vb");
}

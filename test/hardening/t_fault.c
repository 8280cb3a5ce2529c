/* A collective, an independent and a nonblocking write through a strided
 * view, MPI_File_sync and close, every call's error code kept (errors
 * return); then, unless told to expect errors, the file is opened again and
 * read back (collective and independent), every byte verified.
 * t_fault FILE ok|error [MIDWAY_CMD]
 *   ok:    every call succeeds and the data verifies
 *   error: the file system cannot keep all the data: some rank gets an MPI
 *          error, and a rank whose sync and close succeeded finds every part
 *          it wrote without an error in the file (nothing acknowledged lost)
 *   MIDWAY_CMD: rank 0 runs it (system()) between the writes and the sync */
#include "../mpi/common.h"

enum { BLOCK = 4096, NBLOCKS = 48 };

static int nerr, part_ok[3], kept;

static void note(int rc, const char *what, int rank)
{
    if (rc != MPI_SUCCESS) {
        char s[MPI_MAX_ERROR_STRING];
        int len, cls;
        MPI_Error_class(rc, &cls);
        MPI_Error_string(rc, s, &len);
        printf("rank %d: %s: error class %d: %s\n", rank, what, cls, s);
        nerr++;
    }
}

static void fill(unsigned char *buf, int n, long long first, int seed)
{
    for (int i = 0; i < n; i++)
        buf[i] = t_pattern(first + i, seed);
}

/* the view: rank r's blocks are r, r + nprocs, ... (NBLOCKS of them) */
static void set_view(MPI_File fh, int rank, int nprocs, MPI_Datatype *ft, const char *why)
{
    MPI_Type_vector(NBLOCKS, BLOCK, BLOCK * nprocs, MPI_BYTE, ft);
    MPI_Type_commit(ft);
    note(MPI_File_set_view(fh, (MPI_Offset) rank * BLOCK, MPI_BYTE, *ft, "native",
                           MPI_INFO_NULL), why, rank);
}

/* blocks [0, 16) collectively, [16, 32) independently, [32, 48) nonblocking */
static void write_all_parts(MPI_File fh, int rank, unsigned char *buf)
{
    MPI_Status st;
    MPI_Request req;
    const int third = NBLOCKS / 3 * BLOCK;
    int before = nerr;
    note(MPI_File_write_at_all(fh, 0, buf, third, MPI_BYTE, &st), "write_at_all", rank);
    part_ok[0] = nerr == before;
    note(MPI_File_write_at(fh, third, buf + third, third, MPI_BYTE, &st), "write_at", rank);
    part_ok[1] = nerr == before + !part_ok[0];
    before = nerr;
    int rc = MPI_File_iwrite_at(fh, 2 * third, buf + 2 * third, third, MPI_BYTE, &req);
    note(rc, "iwrite_at", rank);
    if (rc == MPI_SUCCESS)
        note(MPI_Wait(&req, &st), "iwrite_at's wait", rank);
    part_ok[2] = nerr == before;
}

/* error mode: each part this rank wrote without an error is in the file
 * (when its sync and close succeeded too): plain reads, as the view maps it */
static void check_kept(const char *path, int rank, int nprocs, const unsigned char *want)
{
    unsigned char got[BLOCK];
    FILE *f = fopen(path, "rb");
    for (int b = 0; f && b < NBLOCKS; b++) {
        if (!part_ok[b / (NBLOCKS / 3)])
            continue;
        int ok = fseek(f, ((long) b * nprocs + rank) * BLOCK, SEEK_SET) == 0 &&
            fread(got, 1, BLOCK, f) == BLOCK && memcmp(got, want + b * BLOCK, BLOCK) == 0;
        T_CHECK(ok, "block %d was acknowledged (its write, the sync and the close "
                "succeeded) but is not in the file", b);
    }
    T_CHECK(f != NULL, "cannot read %s back", path);
    if (f)
        fclose(f);
}

static void verify(const char *path, int rank, int nprocs, const unsigned char *want)
{
    static unsigned char got[BLOCK * NBLOCKS];
    MPI_File fh;
    MPI_Datatype ft;
    MPI_Status st;
    T_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh));
    set_view(fh, rank, nprocs, &ft, "set_view (read)");
    memset(got, 0, sizeof(got));
    T_MPI(MPI_File_read_at_all(fh, 0, got, sizeof(got) / 2, MPI_BYTE, &st));
    T_MPI(MPI_File_read_at(fh, sizeof(got) / 2, got + sizeof(got) / 2, sizeof(got) / 2,
                           MPI_BYTE, &st));
    T_CHECK(memcmp(got, want, sizeof(got)) == 0, "data read back differs");
    T_MPI(MPI_File_close(&fh));
    MPI_Type_free(&ft);
}

int main(int argc, char **argv)
{
    static unsigned char buf[BLOCK * NBLOCKS];
    int rank, nprocs;
    MPI_File fh;
    MPI_Datatype ft;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    const int expect_error = argc > 2 && strcmp(argv[2], "error") == 0;
    for (int b = 0; b < NBLOCKS; b++)
        fill(buf + b * BLOCK, BLOCK, ((long long) b * nprocs + rank) * BLOCK, 5);
    int rc = MPI_File_open(MPI_COMM_WORLD, argv[1], MPI_MODE_CREATE | MPI_MODE_RDWR,
                           MPI_INFO_NULL, &fh);
    note(rc, "open", rank);
    if (rc == MPI_SUCCESS) {
        set_view(fh, rank, nprocs, &ft, "set_view");
        write_all_parts(fh, rank, buf);
        if (argc > 3 && rank == 0)
            T_CHECK(system(argv[3]) == 0, "%s failed", argv[3]);
        MPI_Barrier(MPI_COMM_WORLD);
        int before = nerr;
        note(MPI_File_sync(fh), "sync", rank);
        note(MPI_File_close(&fh), "close", rank);
        kept = nerr == before;
        MPI_Type_free(&ft);
    }
    int all_err = 0;
    MPI_Allreduce(&nerr, &all_err, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (expect_error) {
        T_CHECK(all_err > 0, "no rank got an error, yet the data cannot all be kept");
        if (kept)
            check_kept(argv[1], rank, nprocs, buf);
    } else
        T_CHECK(nerr == 0, "%d call(s) failed", nerr);
    if (!expect_error && nerr == 0)
        verify(argv[1], rank, nprocs, buf);
    return t_finish("t_fault");
}

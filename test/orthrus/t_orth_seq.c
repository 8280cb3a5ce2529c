/* Orthrus over a run with two returning access patterns in one file: a
 * "checkpoint" (large blocks) and a "plot" (small blocks) pattern, alternated
 * LOOPS times, written and then read collectively (4 signatures).  With
 * SKEW_US > 0 every rank sleeps a random, rank-dependent time before each
 * call, so the ranks' local timings differ.  Checks every byte.
 * Usage: t_orth_seq FILE LOOPS SKEW_US */
#include "../mpi/common.h"

#include <unistd.h>

enum { CP_BLOCK = 16384, CP_N = 4, PL_BLOCK = 512, PL_N = 8, CALLS = 4 };

static int rank, nprocs, skew_us;

/* the view of one pattern: nb blocks of `block` bytes per rank, interleaved */
static MPI_Datatype pattern_type(int block, int nb)
{
    MPI_Datatype vec, placed, ft;
    int one = 1;
    MPI_Aint at = (MPI_Aint) rank * block;
    MPI_Type_vector(nb, block, block * nprocs, MPI_BYTE, &vec);
    MPI_Type_create_struct(1, &one, &at, &vec, &placed);
    MPI_Type_create_resized(placed, 0, (MPI_Aint) nb * block * nprocs, &ft);
    MPI_Type_commit(&ft);
    MPI_Type_free(&vec);
    MPI_Type_free(&placed);
    return ft;
}

/* CALLS collective calls of one pattern at base; returns the bytes covered */
static long long phase(MPI_File fh, MPI_Offset base, int block, int nb, int is_write)
{
    MPI_Datatype ft = pattern_type(block, nb);
    int per = block * nb;
    unsigned char *buf = malloc(per);
    MPI_File_set_view(fh, base, MPI_BYTE, ft, "native", MPI_INFO_NULL);
    for (int k = 0; k < CALLS; k++) {
        long long first = base + (long long) k * per * nprocs + (long long) rank * block;
        for (int i = 0; i < per; i++)
            buf[i] = is_write ? t_pattern(first + (i / block) * block * nprocs + i % block, 7) : 0;
        if (skew_us)
            usleep(rand() % skew_us);
        if (is_write)
            T_MPI(MPI_File_write_at_all(fh, (MPI_Offset) k * per, buf, per, MPI_BYTE,
                                        MPI_STATUS_IGNORE));
        else {
            T_MPI(MPI_File_read_at_all(fh, (MPI_Offset) k * per, buf, per, MPI_BYTE,
                                       MPI_STATUS_IGNORE));
            int bad = -1;
            for (int i = 0; i < per && bad < 0; i++)
                if (buf[i] != t_pattern(first + (i / block) * block * nprocs + i % block, 7))
                    bad = i;
            T_CHECK(bad < 0, "read call %d at base %lld differs at byte %d", k, (long long) base,
                    bad);
        }
    }
    free(buf);
    MPI_Type_free(&ft);
    return (long long) CALLS * per * nprocs;
}

/* the patterns cover the file: every byte is t_pattern(offset) */
static void check_file(const char *path, long long size)
{
    FILE *f = fopen(path, "rb");
    long long off = 0;
    int c;
    T_CHECK(f != NULL, "cannot open %s", path);
    while (f && (c = getc(f)) != EOF && c == t_pattern(off, 7))
        off++;
    T_CHECK(off == size, "%s: byte %lld of %lld differs (plain read after the writes)", path,
            off, size);
    if (f)
        fclose(f);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    if (argc < 4) {
        fprintf(stderr, "usage: t_orth_seq FILE LOOPS SKEW_US\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int loops = atoi(argv[2]);
    skew_us = atoi(argv[3]);
    srand(1234 + 977 * rank);
    for (int is_write = 1; is_write >= 0; is_write--) {
        MPI_File fh;
        T_MPI(MPI_File_open(MPI_COMM_WORLD, argv[1], is_write ? MPI_MODE_CREATE | MPI_MODE_WRONLY
                            : MPI_MODE_RDONLY, MPI_INFO_NULL, &fh));
        long long base = 0;
        for (int l = 0; l < loops; l++) {
            base += phase(fh, base, CP_BLOCK, CP_N, is_write);
            base += phase(fh, base, PL_BLOCK, PL_N, is_write);
        }
        T_MPI(MPI_File_close(&fh));
        if (is_write && rank == 0)
            check_file(argv[1], base);
    }
    return t_finish("t_orth_seq");
}

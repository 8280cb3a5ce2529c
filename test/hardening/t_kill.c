/* t_kill FILE run K: collective writes, one block per rank per round; every
 * rank prints "acked R" once round R's MPI_File_write_at_all has returned;
 * at round K rank 1 kills itself (SIGKILL) while rank 0 is inside the
 * collective write.  t_kill FILE verify K (1 rank): rounds 0..K-1 of every
 * rank are in FILE, byte for byte (after romio-xt-recover, for e10_cache). */
#include "../mpi/common.h"

#include <signal.h>
#include <unistd.h>

enum { BLOCK = 8192, NPROCS = 2 };

static void fill(unsigned char *b, long long first)
{
    for (int i = 0; i < BLOCK; i++)
        b[i] = t_pattern(first + i, 9);
}

int main(int argc, char **argv)
{
    static unsigned char buf[BLOCK], got[BLOCK];
    int rank, nprocs, k = atoi(argv[3]);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    if (strcmp(argv[2], "verify") == 0) {
        FILE *f = fopen(argv[1], "rb");
        T_CHECK(f != NULL, "cannot open %s", argv[1]);
        for (long long blk = 0; f && blk < (long long) k * NPROCS; blk++) {
            fill(buf, blk * BLOCK);
            T_CHECK(fseek(f, blk * BLOCK, SEEK_SET) == 0 && fread(got, 1, BLOCK, f) == BLOCK &&
                    memcmp(got, buf, BLOCK) == 0, "acknowledged block %lld lost", blk);
        }
        if (f)
            fclose(f);
        return t_finish("t_kill");
    }
    MPI_File fh;
    T_MPI(MPI_File_open(MPI_COMM_WORLD, argv[1], MPI_MODE_CREATE | MPI_MODE_RDWR,
                        MPI_INFO_NULL, &fh));
    for (int r = 0;; r++) {
        long long blk = (long long) r * nprocs + rank;
        if (r == k && rank == 1) {
            usleep(200000);     /* rank 0 is in the collective by now */
            kill(getpid(), SIGKILL);
        }
        fill(buf, blk * BLOCK);
        T_MPI(MPI_File_write_at_all(fh, blk * BLOCK, buf, BLOCK, MPI_BYTE, MPI_STATUS_IGNORE));
        printf("acked %d\n", r);
        fflush(stdout);
    }
}

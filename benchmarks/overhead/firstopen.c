/* firstopen FILE: the cost of the first open/write/close cycles of a fresh
 * process.  Two cycles of MPI_File_open, 16 independent 16 KiB writes (the
 * ranks' blocks interleaved), close; then MPI_Finalize.  Rank 0 prints its
 * times in microseconds: open1 write1 close1 open2 write2 close2 fin.  Run it
 * under each ROMIO_HINTS file, interleaved, in a fresh process each time
 * (docs/noharm.md, docs/results/noharm/open-cost.md). */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+1e-9*t.tv_nsec;}
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank; MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char buf[16384]; memset(buf, 3, sizeof buf);
    double t[8]; int k = 0;
    for (int c = 0; c < 2; c++) {
        MPI_File fh;
        MPI_Barrier(MPI_COMM_WORLD);
        access("MARK_open_start", F_OK);
        t[k++] = MPI_Wtime();
        MPI_File_open(MPI_COMM_WORLD, argv[1], MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
        t[k++] = MPI_Wtime();
        for (int i = 0; i < 16; i++)
            MPI_File_write_at(fh, (MPI_Offset) (i * 2 + rank) * 16384, buf, 16384, MPI_BYTE, MPI_STATUS_IGNORE);
        t[k++] = MPI_Wtime();
        MPI_File_close(&fh);
        t[k++] = MPI_Wtime();
    }
    access("MARK_fin_start", F_OK);
    double f0 = now();
    MPI_Finalize();
    double f1 = now();
    if (!rank)
        printf("open1 %.1f write1 %.1f close1 %.1f open2 %.1f write2 %.1f close2 %.1f fin %.1f\n",
               1e6*(t[1]-t[0]), 1e6*(t[2]-t[1]), 1e6*(t[3]-t[2]), 1e6*(t[5]-t[4]), 1e6*(t[6]-t[5]), 1e6*(t[7]-t[6]), 1e6*(f1-f0));
    return 0;
}

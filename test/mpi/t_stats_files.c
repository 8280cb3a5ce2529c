/* t_stats_files DIR N [SWITCH]: N files opened, written (1 KiB per rank) and
 * closed one after another, with the stats layer on (ROMIO_XT_STATS).  With
 * SWITCH, ROMIO_XT_STATS_FILE is set to SWITCH after the first half: the
 * records after it go to the new file. */
#include "common.h"

int main(int argc, char **argv)
{
    int rank, n = atoi(argv[2]);
    char path[4096], buf[1024];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    memset(buf, 'a' + rank, sizeof(buf));
    for (int k = 0; k < n; k++) {
        MPI_File fh;
        if (argc > 3 && k == n / 2)
            setenv("ROMIO_XT_STATS_FILE", argv[3], 1);
        snprintf(path, sizeof(path), "%s/f%d.dat", argv[1], k);
        T_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY,
                            MPI_INFO_NULL, &fh));
        T_MPI(MPI_File_write_at_all(fh, rank * (MPI_Offset) sizeof(buf), buf, sizeof(buf),
                                    MPI_BYTE, MPI_STATUS_IGNORE));
        T_MPI(MPI_File_close(&fh));
    }
    MPI_Finalize();
    return t_errors ? 1 : 0;
}

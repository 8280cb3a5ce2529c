/* Warn-once: a job opens NFILES files (hints from ROMIO_HINTS), and on each
 * one sets a view, sets info (with the same bad hint again) and writes a
 * little data.  The test script counts the warning lines: one per
 * (hint, value, problem) for the whole job, whatever the number of opens and
 * hint passes (open, set_info, set_view).
 * usage: t_warn_once PREFIX NFILES */
#include "common.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, nfiles = argc > 2 ? atoi(argv[2]) : 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    T_CHECK(argc == 3 && nfiles > 0, "usage: t_warn_once PREFIX NFILES");
    MPI_Info si;
    MPI_Info_create(&si);
    MPI_Info_set(si, "romio_xt_stats", "maybe");
    for (int k = 0; k < nfiles && !t_errors; k++) {
        char path[4096];
        MPI_File fh;
        int v = rank + k;
        snprintf(path, sizeof(path), "%s.%d", argv[1], k);
        T_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR,
                            MPI_INFO_NULL, &fh));
        T_MPI(MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));
        T_MPI(MPI_File_set_info(fh, si));
        T_MPI(MPI_File_write_at_all(fh, rank, &v, 1, MPI_INT, MPI_STATUS_IGNORE));
        T_MPI(MPI_File_close(&fh));
        if (rank == 0)
            MPI_File_delete(path, MPI_INFO_NULL);
    }
    MPI_Info_free(&si);
    if (rank == 0 && !t_errors)
        printf("opened %d files\n", nfiles);
    MPI_Finalize();
    return t_errors != 0;
}

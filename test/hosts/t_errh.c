/* t_errh DIR: file error handlers inside the host: a user handler set on
 * MPI_FILE_NULL is called by a failed open, one set on a file by
 * MPI_File_call_errhandler (with that file and the code), get_errhandler
 * returns what was set, and c2f/f2c (toint/fromint: the MPI-5 ABI) round-trip.
 * Prints "t_errh: OK". */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int calls, last_code;
static MPI_File last_fh;

static void on_error(MPI_File *fh, int *code, ...)
{
    calls++;
    last_code = *code;
    last_fh = *fh;
}

#define EXPECT(c) do { if (!(c)) { fprintf(stderr, "t_errh: failed: %s\n", #c); MPI_Abort(MPI_COMM_WORLD, 1); } } while (0)

int main(int argc, char **argv)
{
    MPI_Errhandler eh, got;
    MPI_File fh;
    char path[4096];
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    EXPECT(argc == 2);
    EXPECT(MPI_File_create_errhandler(on_error, &eh) == MPI_SUCCESS);
    EXPECT(MPI_File_set_errhandler(MPI_FILE_NULL, eh) == MPI_SUCCESS);
    EXPECT(MPI_File_get_errhandler(MPI_FILE_NULL, &got) == MPI_SUCCESS && got == eh);
    snprintf(path, sizeof path, "%s/no/such/dir/file", argv[1]);
    EXPECT(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh) != MPI_SUCCESS);
    EXPECT(calls == 1 && last_fh == MPI_FILE_NULL && last_code != MPI_SUCCESS);
    EXPECT(MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN) == MPI_SUCCESS);

    snprintf(path, sizeof path, "%s/errh.dat", argv[1]);
    EXPECT(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL,
                         &fh) == MPI_SUCCESS);
    EXPECT(MPI_File_get_errhandler(fh, &got) == MPI_SUCCESS && got == MPI_ERRORS_RETURN);
    EXPECT(MPI_File_set_errhandler(fh, eh) == MPI_SUCCESS);
    EXPECT(MPI_File_call_errhandler(fh, MPI_ERR_OTHER) == MPI_SUCCESS);
    EXPECT(calls == 2 && last_fh == fh && last_code == MPI_ERR_OTHER);
#ifdef MPI_ABI_VERSION /* the MPI-5 ABI has MPI-5's integer conversions only */
    EXPECT(MPI_File_fromint(MPI_File_toint(fh)) == fh);
#else
    EXPECT(MPI_File_f2c(MPI_File_c2f(fh)) == fh);
#endif
    EXPECT(MPI_File_set_errhandler(fh, MPI_ERRORS_RETURN) == MPI_SUCCESS);
    EXPECT(MPI_File_close(&fh) == MPI_SUCCESS && fh == MPI_FILE_NULL);
    MPI_Errhandler_free(&eh);
    if (!rank)
        printf("t_errh: OK\n");
    MPI_Finalize();
    return 0;
}

/* Orthrus benchmark: the paper's Matrix pattern.  A row-major matrix whose
 * columns are split over the processes; in each collective call a process
 * accesses `depth` consecutive rows of its columns (one block of `block`
 * bytes per row), with MPI_File_write_at_all / read_at_all.  Writes `calls`
 * calls, then reads them back cold, verifies (driver: orth_bench.h).
 * Usage: matrix DIR BLOCK DEPTH CALLS [SKIP]
 * Prints RESULT lines for the harness: phase=write|read (the whole run: open,
 * calls, sync, close) and phase=write_steady|read_steady (the calls after the
 * first SKIP, default 9 = an examination of 3 candidates x 3 trials). */
#include "orth_bench.h"

int main(int argc, char **argv)
{
    int rank, nprocs;
    ob_init(&argc, &argv, 5, "matrix DIR BLOCK DEPTH CALLS [SKIP]", &rank, &nprocs);
    long long block = atoll(argv[2]);
    int depth = atoi(argv[3]), calls = atoi(argv[4]), skip = argc > 5 ? atoi(argv[5]) : 9;
    char path[4096];
    snprintf(path, sizeof(path), "%s/matrix.dat", argv[1]);
    struct ob_pattern p = { .disp = 0, .mtype = MPI_BYTE, .block = block,
        .row = block * nprocs, .depth = depth, .mem_stride = block, .first = rank * block,
        .explicit_offsets = 1 };
    MPI_Datatype vec, placed;
    int one = 1;
    MPI_Aint at = (MPI_Aint) rank * block;
    MPI_Type_vector(depth, (int) block, (int) p.row, MPI_BYTE, &vec);
    MPI_Type_create_struct(1, &one, &at, &vec, &placed);
    MPI_Type_create_resized(placed, 0, (MPI_Aint) depth * p.row, &p.ftype);
    MPI_Type_commit(&p.ftype);
    int status = ob_run(&p, path, calls, skip);
    MPI_Type_free(&p.ftype);
    MPI_Type_free(&vec);
    MPI_Type_free(&placed);
    MPI_Finalize();
    return status;
}

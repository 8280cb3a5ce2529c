/* Orthrus benchmark: Noncontig (the paper's section 3.3, after ANL's noncontig
 * test).  Each process's file view is a vector of `veclen` chunks of
 * `elmtcount` MPI_INTs, chunks of the processes interleaved
 * (MPI_Type_vector(veclen, elmtcount, nprocs * elmtcount, MPI_INT), view
 * displaced by rank * elmtcount ints); memory is noncontiguous too (the same
 * chunks with a chunk-sized hole after each), as in ANL's
 * noncontiguous-memory-and-file case.  Each collective call
 * (MPI_File_write_all / read_all through the individual file pointer) moves
 * one vector per process.  Writes `calls` calls, then reads them back cold,
 * verifies (driver: orth_bench.h).
 * Usage: noncontig DIR ELMTCOUNT CALL_BYTES CALLS [SKIP]
 *   veclen = CALL_BYTES / (nprocs * 4 * ELMTCOUNT) (at least 1): CALL_BYTES is
 *   the total over processes per call.  RESULT lines as in matrix.c. */
#include "orth_bench.h"

int main(int argc, char **argv)
{
    int rank, nprocs;
    ob_init(&argc, &argv, 5, "noncontig DIR ELMTCOUNT CALL_BYTES CALLS [SKIP]", &rank, &nprocs);
    int elmtcount = atoi(argv[2]), calls = atoi(argv[4]), skip = argc > 5 ? atoi(argv[5]) : 9;
    long long chunk = 4LL * elmtcount, veclen = atoll(argv[3]) / (nprocs * chunk);
    if (veclen < 1)
        veclen = 1;
    char path[4096];
    snprintf(path, sizeof(path), "%s/noncontig.dat", argv[1]);
    struct ob_pattern p = { .disp = rank * chunk, .block = chunk, .row = chunk * nprocs,
        .depth = veclen, .mem_stride = 2 * chunk, .first = rank * chunk };
    MPI_Datatype vec;
    MPI_Type_vector((int) veclen, elmtcount, nprocs * elmtcount, MPI_INT, &vec);
    MPI_Type_create_resized(vec, 0, (MPI_Aint) veclen * p.row, &p.ftype);
    MPI_Type_commit(&p.ftype);
    MPI_Type_vector((int) veclen, elmtcount, 2 * elmtcount, MPI_INT, &p.mtype);
    MPI_Type_commit(&p.mtype);
    if (rank == 0)
        printf("# noncontig: %d procs, elmtcount %d, veclen %lld, %lld bytes per call\n",
               nprocs, elmtcount, veclen, veclen * chunk * nprocs);
    int status = ob_run(&p, path, calls, skip);
    MPI_Type_free(&p.ftype);
    MPI_Type_free(&p.mtype);
    MPI_Type_free(&vec);
    MPI_Finalize();
    return status;
}

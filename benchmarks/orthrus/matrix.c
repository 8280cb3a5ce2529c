/* Orthrus benchmark: the seed's Matrix pattern.  A row-major matrix whose
 * columns are split over the processes; in each collective call a process
 * accesses `depth` consecutive rows of its columns (one block of `block`
 * bytes per row).  Writes `calls` calls, then reads them back cold, verifies.
 * Usage: matrix DIR BLOCK DEPTH CALLS [SKIP]
 * Prints RESULT lines for the harness: phase=write|read (the whole run: open,
 * calls, sync, close) and phase=write_steady|read_steady (the calls after the
 * first SKIP, default 9 = an examination of 3 candidates x 3 trials). */
#include <mpi.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static unsigned char byte_at(long long off)
{
    return (unsigned char) ((off * 131 + (off >> 11)) & 0xff);
}

int main(int argc, char **argv)
{
    int rank, nprocs;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    if (argc < 5) {
        if (rank == 0)
            fprintf(stderr, "usage: matrix DIR BLOCK DEPTH CALLS\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    long long block = atoll(argv[2]);
    int depth = atoi(argv[3]), calls = atoi(argv[4]), skip = argc > 5 ? atoi(argv[5]) : 9;
    double ts = 0, te = 0;
    char path[4096];
    snprintf(path, sizeof(path), "%s/matrix.dat", argv[1]);
    long long row = block * nprocs, per_call = (long long) depth * block;
    MPI_Datatype vec, placed, ftype;
    int one = 1;
    MPI_Aint at = (MPI_Aint) rank * block;
    MPI_Type_vector(depth, (int) block, (int) row, MPI_BYTE, &vec);
    MPI_Type_create_struct(1, &one, &at, &vec, &placed);
    MPI_Type_create_resized(placed, 0, (MPI_Aint) depth * row, &ftype);
    MPI_Type_commit(&ftype);
    char *buf = malloc(per_call), *got = malloc(per_call);
    MPI_File fh;
    int errors = 0;
    for (int phase = 0; phase < 2; phase++) {
        int amode = phase == 0 ? MPI_MODE_CREATE | MPI_MODE_WRONLY : MPI_MODE_RDONLY;
        if (phase == 1 && rank == 0) {      /* cold reads */
            int fd = open(path, O_RDONLY);
            if (fd >= 0) {
                posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
                close(fd);
            }
        }
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        MPI_File_open(MPI_COMM_WORLD, path, amode, MPI_INFO_NULL, &fh);
        MPI_File_set_view(fh, 0, MPI_BYTE, ftype, "native", MPI_INFO_NULL);
        for (int k = 0; k < calls; k++) {
            if (k == skip) {
                MPI_Barrier(MPI_COMM_WORLD);
                ts = MPI_Wtime();
            }
            long long base = (long long) k * depth * row + rank * block;
            if (phase == 0) {
                for (long long i = 0; i < per_call; i++)
                    buf[i] = (char) byte_at(base + (i / block) * row + i % block);
                MPI_File_write_at_all(fh, (MPI_Offset) k * per_call, buf, (int) per_call,
                                      MPI_BYTE, MPI_STATUS_IGNORE);
            } else {
                MPI_File_read_at_all(fh, (MPI_Offset) k * per_call, got, (int) per_call,
                                     MPI_BYTE, MPI_STATUS_IGNORE);
                for (long long i = 0; i < per_call; i += 97)
                    if ((unsigned char) got[i] != byte_at(base + (i / block) * row + i % block))
                        errors++;
            }
        }
        MPI_Barrier(MPI_COMM_WORLD);
        te = MPI_Wtime();
        if (phase == 0)
            MPI_File_sync(fh);
        MPI_File_close(&fh);
        double t = MPI_Wtime() - t0;
        if (rank == 0) {
            double bytes = (double) per_call * nprocs * calls;
            printf("RESULT phase=%s bytes=%.0f seconds=%.6f MBps=%.3f file=%s\n",
                   phase == 0 ? "write" : "read", bytes, t, bytes / t / 1e6, path);
            if (calls > skip) {
                double sb = (double) per_call * nprocs * (calls - skip);
                printf("RESULT phase=%s_steady bytes=%.0f seconds=%.6f MBps=%.3f\n",
                       phase == 0 ? "write" : "read", sb, te - ts, sb / (te - ts) / 1e6);
            }
            fflush(stdout);
        }
    }
    int total;
    MPI_Allreduce(&errors, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && total)
        fprintf(stderr, "matrix: %d mismatches\n", total);
    if (rank == 0)
        unlink(path);
    free(buf);
    free(got);
    MPI_Type_free(&ftype);
    MPI_Type_free(&vec);
    MPI_Type_free(&placed);
    MPI_Finalize();
    return total ? 1 : 0;
}

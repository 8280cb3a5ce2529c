/* Orthrus benchmark: IOR's MPI-IO pattern with collective calls
 * (`ior -a MPIIO -c -t XFER -b BLOCK -s SEGMENTS`): in segment s a process
 * writes its block of BLOCK bytes at (s * nprocs + rank) * BLOCK in calls of
 * XFER bytes (MPI_File_write_at_all), then reads the file back the same way
 * and verifies it.  The processes' pieces of a call never interleave.
 * With FILES > 1 it does so for FILES files in turn (a checkpointing code
 * writing the same pattern to a new file each time); "keep" keeps them.
 * Usage: contig DIR XFER BLOCK SEGMENTS [FILES [keep]]
 * Prints RESULT lines for the harness: phase=write|read, all files' bytes
 * over their open..close times, as IOR times them (its default: no fsync). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static unsigned char byte_at(long long off)
{
    return (unsigned char) ((off * 131 + (off >> 13)) & 0xff);
}

static void fill(unsigned char *b, long long off, long long n)
{
    for (long long k = 0; k < n; k++)
        b[k] = byte_at(off + k);
}

/* one phase: open, the calls, close; returns the slowest rank's seconds and
 * counts wrong bytes into *bad (reads) */
static double phase(const char *path, int is_write, long long xfer, long long block, int segs,
                    unsigned char *buf, long long *bad)
{
    int rank, nprocs;
    MPI_File fh;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    MPI_File_open(MPI_COMM_WORLD, path, is_write ? MPI_MODE_CREATE | MPI_MODE_WRONLY
                  : MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    for (int s = 0; s < segs; s++)
        for (long long k = 0; k < block; k += xfer) {
            long long off = ((long long) s * nprocs + rank) * block + k;
            if (is_write) {
                fill(buf, off, xfer);   /* IOR refills its buffer too */
                MPI_File_write_at_all(fh, off, buf, (int) xfer, MPI_BYTE, MPI_STATUS_IGNORE);
            } else {
                MPI_File_read_at_all(fh, off, buf, (int) xfer, MPI_BYTE, MPI_STATUS_IGNORE);
                for (long long j = 0; j < xfer; j++)
                    *bad += buf[j] != byte_at(off + j);
            }
        }
    MPI_File_close(&fh);
    double t = MPI_Wtime() - t0, tmax;
    MPI_Allreduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return tmax;
}

int main(int argc, char **argv)
{
    int rank, nprocs;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    if (argc < 5) {
        if (rank == 0)
            fprintf(stderr, "usage: contig DIR XFER BLOCK SEGMENTS\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    long long xfer = atoll(argv[2]), block = atoll(argv[3]), bad = 0, all = 0;
    int segs = atoi(argv[4]), files = argc > 5 ? atoi(argv[5]) : 1;
    int keep = argc > 6 && !strcmp(argv[6], "keep");
    unsigned char *buf = malloc(xfer);
    double bytes = (double) nprocs * block * segs * files, tw = 0, tr = 0;
    char path[4096];
    for (int f = 0; f < files; f++) {
        if (f)
            snprintf(path, sizeof(path), "%s/contig.dat.%d", argv[1], f);
        else
            snprintf(path, sizeof(path), "%s/contig.dat", argv[1]);
        tw += phase(path, 1, xfer, block, segs, buf, &bad);
        tr += phase(path, 0, xfer, block, segs, buf, &bad);
        if (rank == 0 && !keep)
            unlink(path);
    }
    MPI_Allreduce(&bad, &all, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("RESULT phase=write bytes=%.0f seconds=%.6f MBps=%.3f file=%s\n", bytes, tw,
               bytes / tw / 1e6, path);
        printf("RESULT phase=read bytes=%.0f seconds=%.6f MBps=%.3f file=%s\n", bytes, tr,
               bytes / tr / 1e6, path);
        if (all)
            fprintf(stderr, "contig: %lld wrong bytes\n", all);
    }
    free(buf);
    MPI_Finalize();
    return all != 0;
}

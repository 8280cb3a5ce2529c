/* romio-xt trace test job: 3 write phases separated by GAP seconds of
 * "compute", then 1 read phase, on a shared file.
 *   t_phases DIR NREQ REQ_BYTES GAP_SECONDS
 * Phase 1: independent contiguous writes (each rank its own region).
 * Phase 2: collective writes (MPI_File_write_at_all), same layout.
 * Phase 3: collective writes through a strided view (ranks interleaved).
 * Phase 4: independent reads of all three regions, checked byte for byte.
 * Prints "phase K bytes B" (B summed over ranks) for the test to compare. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char pattern(int phase, MPI_Offset pos)
{
    return (char) ('A' + (phase * 7 + pos * 13) % 26);
}

static void check(int err, const char *what)
{
    if (err != MPI_SUCCESS) {
        fprintf(stderr, "t_phases: %s failed\n", what);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

static void compute(double secs)
{
    double t0 = MPI_Wtime();
    while (MPI_Wtime() - t0 < secs)
        usleep(10000);
}

int main(int argc, char **argv)
{
    int rank, nprocs;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    if (argc != 5) {
        if (rank == 0)
            fprintf(stderr, "usage: t_phases DIR NREQ REQ_BYTES GAP_SECONDS\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int nreq = atoi(argv[2]), rb = atoi(argv[3]);
    double gap = atof(argv[4]);
    char path[4096];
    snprintf(path, sizeof(path), "%s/phases.dat", argv[1]);
    MPI_Offset region = (MPI_Offset) nreq * rb * nprocs;      /* one phase's bytes */
    char *buf = malloc(rb), *back = malloc(rb);
    MPI_File fh;
    check(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh),
          "open");
    for (int phase = 0; phase < 3; phase++) {
        MPI_Offset base = phase * region;
        MPI_Datatype ftype = MPI_DATATYPE_NULL;
        if (phase == 2) {       /* rank-interleaved blocks of rb bytes */
            MPI_Datatype vec;
            MPI_Type_vector(1, rb, rb * nprocs, MPI_BYTE, &vec);
            MPI_Type_create_resized(vec, 0, (MPI_Aint) rb * nprocs, &ftype);
            MPI_Type_commit(&ftype);
            MPI_Type_free(&vec);
            check(MPI_File_set_view(fh, base + (MPI_Offset) rank * rb, MPI_BYTE, ftype, "native",
                                    MPI_INFO_NULL), "set_view");
        }
        for (int k = 0; k < nreq; k++) {
            MPI_Offset pos = phase == 2 ? base + ((MPI_Offset) k * nprocs + rank) * rb
                : base + ((MPI_Offset) rank * nreq + k) * rb;
            for (int b = 0; b < rb; b++)
                buf[b] = pattern(phase, pos + b);
            if (phase == 0)
                check(MPI_File_write_at(fh, pos, buf, rb, MPI_BYTE, MPI_STATUS_IGNORE), "write");
            else if (phase == 1)
                check(MPI_File_write_at_all(fh, pos, buf, rb, MPI_BYTE, MPI_STATUS_IGNORE),
                      "write_all");
            else
                check(MPI_File_write_at_all(fh, (MPI_Offset) k * rb, buf, rb, MPI_BYTE,
                                            MPI_STATUS_IGNORE), "write_all view");
        }
        if (phase == 2) {
            check(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL),
                  "reset view");
            MPI_Type_free(&ftype);
        }
        if (rank == 0)
            printf("phase %d bytes %lld\n", phase + 1, (long long) region);
        MPI_Barrier(MPI_COMM_WORLD);
        compute(gap);
    }
    /* phase 4: each rank reads back its share of the three regions */
    long long bad = 0;
    for (int phase = 0; phase < 3; phase++)
        for (int k = 0; k < nreq; k++) {
            MPI_Offset pos = phase * region + ((MPI_Offset) rank * nreq + k) * rb;
            check(MPI_File_read_at(fh, pos, back, rb, MPI_BYTE, MPI_STATUS_IGNORE), "read");
            for (int b = 0; b < rb; b++)
                bad += back[b] != pattern(phase, pos + b);
        }
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("phase 4 bytes %lld\nbad bytes %lld\n", (long long) 3 * region, bad);
    check(MPI_File_close(&fh), "close");
    free(buf);
    free(back);
    MPI_Finalize();
    return bad != 0;
}

/* romio-xt: per-call cost of the library with no hint (overhead/run.py).
 *   ovh MODE FILE N   -> prints "MODE seconds_per_op" (slowest rank)
 * open:  N x (MPI_File_open, 4 KiB write_at by each rank, close)
 * small: N x 64 B MPI_File_write_at, then N x 64 B MPI_File_read_at (contiguous
 *        per rank; the time is per call of either kind; reads are checked)
 * coll:  N x 64 KiB MPI_File_write_at_all, then N x read_at_all (checked)
 * The same binary runs on romio-xt and on unpatched MPICH (LD_LIBRARY_PATH). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, nprocs;

static double open_loop(const char *path, int n)
{
    char buf[4096];
    memset(buf, 'a' + rank, sizeof(buf));
    double t0 = MPI_Wtime();
    for (int i = 0; i < n; i++) {
        MPI_File fh;
        MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL,
                      &fh);
        MPI_File_write_at(fh, (MPI_Offset) rank * sizeof(buf), buf, sizeof(buf), MPI_BYTE,
                          MPI_STATUS_IGNORE);
        MPI_File_close(&fh);
    }
    return (MPI_Wtime() - t0) / n;
}

/* n calls of len bytes each way; returns seconds per call; *bad counts
 * bytes that did not read back */
static double rw_loop(const char *path, int n, int len, int coll, long *bad)
{
    char *w = malloc(len), *r = malloc(len);
    MPI_File fh;
    MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    double t0 = MPI_Wtime();
    for (int i = 0; i < n; i++) {
        MPI_Offset off = ((MPI_Offset) i * nprocs + rank) * len;
        memset(w, (char) (i + rank), len);
        if (coll)
            MPI_File_write_at_all(fh, off, w, len, MPI_BYTE, MPI_STATUS_IGNORE);
        else
            MPI_File_write_at(fh, off, w, len, MPI_BYTE, MPI_STATUS_IGNORE);
    }
    for (int i = 0; i < n; i++) {
        MPI_Offset off = ((MPI_Offset) i * nprocs + rank) * len;
        if (coll)
            MPI_File_read_at_all(fh, off, r, len, MPI_BYTE, MPI_STATUS_IGNORE);
        else
            MPI_File_read_at(fh, off, r, len, MPI_BYTE, MPI_STATUS_IGNORE);
        for (int k = 0; k < len; k++)
            *bad += r[k] != (char) (i + rank);
    }
    double t = (MPI_Wtime() - t0) / (2.0 * n);
    MPI_File_close(&fh);
    free(w);
    free(r);
    return t;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    if (argc != 4) {
        if (!rank)
            fprintf(stderr, "usage: ovh open|small|coll FILE N\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int n = atoi(argv[3]);
    long bad = 0, allbad = 0;  /* only rank 0 receives the sum */
    double t = 0, tmax;
    if (!rank)
        MPI_File_delete(argv[2], MPI_INFO_NULL);
    MPI_Barrier(MPI_COMM_WORLD);
    if (!strcmp(argv[1], "open"))
        t = open_loop(argv[2], n);
    else if (!strcmp(argv[1], "small"))
        t = rw_loop(argv[2], n, 64, 0, &bad);
    else
        t = rw_loop(argv[2], n, 65536, 1, &bad);
    MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Reduce(&bad, &allbad, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (!rank)
        printf("%s %.9f %ld\n", argv[1], tmax, allbad);
    MPI_Finalize();
    return allbad != 0;
}

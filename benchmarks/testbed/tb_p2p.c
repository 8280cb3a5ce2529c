/* tb_p2p: MPI point-to-point bandwidth and latency between rank 0 and rank 1
 * (on the testbed: node 1 and node 2).  Prints one line
 *   RESULT p2p_MBps=X lat_us=Y
 * Bandwidth: 8 messages of 16 MiB, 0 -> 1, after a warm-up; latency: half
 * the round trip of 1-byte ping-pongs, median of 5 batches of 200. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define BIG (16 << 20)
#define NBIG 8
#define NPING 200

static int cmp(const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

static void ping(int rank, char *b, int n)
{
    int i;
    for (i = 0; i < n; i++) {
        if (rank == 0) {
            MPI_Send(b, 1, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
            MPI_Recv(b, 1, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (rank == 1) {
            MPI_Recv(b, 1, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(b, 1, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
        }
    }
}

static double stream(int rank, char *buf)
{
    int i;
    char ack = 0;
    double t;
    MPI_Barrier(MPI_COMM_WORLD);
    t = MPI_Wtime();
    for (i = 0; i < NBIG; i++) {
        if (rank == 0)
            MPI_Send(buf, BIG, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
        else if (rank == 1)
            MPI_Recv(buf, BIG, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    if (rank == 1)      /* the receiver has everything */
        MPI_Send(&ack, 1, MPI_BYTE, 0, 2, MPI_COMM_WORLD);
    else if (rank == 0)
        MPI_Recv(&ack, 1, MPI_BYTE, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return MPI_Wtime() - t;
}

int main(int argc, char **argv)
{
    int rank, size, i;
    double t, lat[5];
    char *buf;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2) {
        fprintf(stderr, "tb_p2p: needs 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    buf = calloc(1, BIG);
    ping(rank, buf, 20);
    stream(rank, buf);  /* warm-up */
    t = stream(rank, buf);
    for (i = 0; i < 5; i++) {
        double t0 = MPI_Wtime();
        ping(rank, buf, NPING);
        lat[i] = (MPI_Wtime() - t0) / NPING / 2;
    }
    qsort(lat, 5, sizeof lat[0], cmp);
    if (rank == 0)
        printf("RESULT p2p_MBps=%.1f lat_us=%.1f\n", (double) NBIG * BIG / t / 1e6, lat[2] * 1e6);
    free(buf);
    MPI_Finalize();
    return 0;
}

/* t_hostio FILE: a deterministic mix of MPI-IO that every host runs with its
 * own MPI-IO and with libromioxt.so (test/hosts/run.sh compares the files
 * byte for byte): a collective write through a subarray view, independent
 * strided writes through a vector view, write_ordered on the shared file
 * pointer, nonblocking iwrite_at; then each is read back the same way and
 * checked, and MPI_SEEK_SET is checked.  Prints "t_hostio: OK" on rank 0
 * when every byte read is right. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROWS 96
#define COLS 40          /* per rank */
#define VEC_COUNT 200
#define VEC_BLOCK 3
#define ORD_UNIT 100
#define NB_DOUBLES 3000

static int rank, nprocs, bad;

static void check(int ok, const char *what)
{
    if (!ok && bad++ < 5)
        fprintf(stderr, "t_hostio: rank %d: %s differs\n", rank, what);
}

/* a read's status holds the count read (ROMIO sets it only when built to) */
static void count_is(MPI_Status *st, MPI_Datatype t, int want, const char *what)
{
    int got = -1;
    MPI_Get_count(st, t, &got);
    check(got == want, what);
}

typedef int write_fn(MPI_File, const void *, int, MPI_Datatype, MPI_Status *);
typedef int read_fn(MPI_File, void *, int, MPI_Datatype, MPI_Status *);

/* one blocking call: the write, or the read with its status's count checked */
static void move(MPI_File fh, write_fn *wr, read_fn *rd, void *buf, int n, MPI_Datatype t,
                 int write, const char *what)
{
    MPI_Status st;
    if (write) {
        wr(fh, buf, n, t, &st);
        return;
    }
    rd(fh, buf, n, t, &st);
    count_is(&st, t, n, what);
}

static int cval(int r, int c) { return r * 100003 + c * 7 + 11; }

/* columns [rank*COLS, (rank+1)*COLS) of a ROWS x (COLS*nprocs) int matrix */
static void matrix(MPI_File fh, int write)
{
    int gsz[2] = {ROWS, COLS * nprocs}, lsz[2] = {ROWS, COLS}, st[2] = {0, rank * COLS};
    MPI_Datatype sub;
    MPI_Type_create_subarray(2, gsz, lsz, st, MPI_ORDER_C, MPI_INT, &sub);
    MPI_Type_commit(&sub);
    MPI_File_set_view(fh, 0, MPI_INT, sub, "native", MPI_INFO_NULL);
    int *buf = malloc(sizeof(int) * ROWS * COLS);
    for (int i = 0; i < ROWS * COLS; i++)
        buf[i] = write ? cval(i / COLS, rank * COLS + i % COLS) : -1;
    move(fh, MPI_File_write_all, MPI_File_read_all, buf, ROWS * COLS, MPI_INT, write,
         "read_all's status count");
    if (!write)
        for (int i = 0; i < ROWS * COLS; i++)
            check(buf[i] == cval(i / COLS, rank * COLS + i % COLS), "collective subarray");
    free(buf);
    MPI_Type_free(&sub);
}

/* independent: blocks of VEC_BLOCK ints, every nprocs-th block is this rank's */
static void strided(MPI_File fh, MPI_Offset base, int write)
{
    MPI_Datatype vec, ft;
    MPI_Type_vector(VEC_COUNT, VEC_BLOCK, VEC_BLOCK * nprocs, MPI_INT, &vec);
    MPI_Type_create_resized(vec, 0, (MPI_Aint) VEC_COUNT * VEC_BLOCK * nprocs * sizeof(int), &ft);
    MPI_Type_commit(&ft);
    MPI_File_set_view(fh, base + (MPI_Offset) rank * VEC_BLOCK * sizeof(int), MPI_INT, ft,
                      "native", MPI_INFO_NULL);
    int n = VEC_COUNT * VEC_BLOCK, *buf = malloc(sizeof(int) * n);
    for (int i = 0; i < n; i++)
        buf[i] = write ? rank * 1000000 + i : -1;
    move(fh, MPI_File_write, MPI_File_read, buf, n, MPI_INT, write, "read's status count");
    if (!write)
        for (int i = 0; i < n; i++)
            check(buf[i] == rank * 1000000 + i, "independent vector");
    free(buf);
    MPI_Type_free(&vec);
    MPI_Type_free(&ft);
}

/* rank r adds (r+1)*ORD_UNIT bytes, in rank order, at the shared pointer */
static void ordered(MPI_File fh, MPI_Offset base, int write)
{
    int n = (rank + 1) * ORD_UNIT;
    char *buf = malloc(n);
    MPI_File_set_view(fh, base, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL);
    for (int i = 0; i < n; i++)
        buf[i] = write ? (char) ('a' + (rank + i) % 26) : 0;
    move(fh, MPI_File_write_ordered, MPI_File_read_ordered, buf, n, MPI_BYTE, write,
         "read_ordered's status count");
    if (!write)
        for (int i = 0; i < n; i++)
            check(buf[i] == (char) ('a' + (rank + i) % 26), "ordered");
    free(buf);
}

static void nonblocking(MPI_File fh, MPI_Offset base, int write)
{
    double *buf = malloc(sizeof(double) * NB_DOUBLES);
    MPI_Request req;
    MPI_Offset off = base + (MPI_Offset) rank * NB_DOUBLES * sizeof(double);
    MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL);
    for (int i = 0; i < NB_DOUBLES; i++)
        buf[i] = write ? rank + i / 1024.0 : -1;
    if (write)
        MPI_File_iwrite_at(fh, off, buf, NB_DOUBLES, MPI_DOUBLE, &req);
    else
        MPI_File_iread_at(fh, off, buf, NB_DOUBLES, MPI_DOUBLE, &req);
    MPI_Status st;
    MPI_Wait(&req, &st);
    count_is(&st, MPI_DOUBLE, NB_DOUBLES, "iread/iwrite's status count");
    if (!write)
        for (int i = 0; i < NB_DOUBLES; i++)
            check(buf[i] == rank + i / 1024.0, "nonblocking");
    free(buf);
}

int main(int argc, char **argv)
{
    MPI_File fh;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    if (argc != 2) {
        if (!rank)
            fprintf(stderr, "usage: t_hostio FILE\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Offset m_end = (MPI_Offset) ROWS * COLS * nprocs * sizeof(int);
    MPI_Offset v_end = m_end + (MPI_Offset) VEC_COUNT * VEC_BLOCK * nprocs * sizeof(int);
    MPI_Offset o_end = v_end + (MPI_Offset) ORD_UNIT * nprocs * (nprocs + 1) / 2;
    if (MPI_File_open(MPI_COMM_WORLD, argv[1], MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL,
                      &fh) != MPI_SUCCESS) {
        fprintf(stderr, "t_hostio: cannot open %s\n", argv[1]);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (int write = 1; write >= 0; write--) {
        matrix(fh, write);
        strided(fh, m_end, write);
        if (!write) {   /* the shared pointer back to the start of its region */
            MPI_File_set_view(fh, v_end, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL);
            MPI_File_seek_shared(fh, 0, MPI_SEEK_SET);
        }
        ordered(fh, v_end, write);
        nonblocking(fh, o_end, write);
        MPI_File_sync(fh);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_File_sync(fh);
    }
    /* MPI_SEEK_SET twice lands at the same place (the MPI-5 ABI's seek modes
     * are the program's header's: docs/library.md) */
    MPI_Offset pos = -1;
    MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL);
    MPI_File_seek(fh, 10, MPI_SEEK_SET);
    MPI_File_seek(fh, 10, MPI_SEEK_SET);
    MPI_File_get_position(fh, &pos);
    check(pos == 10, "the position after MPI_SEEK_SET");
    MPI_File_close(&fh);
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (!rank)
        printf(bad ? "t_hostio: %d bytes differ\n" : "t_hostio: OK\n", bad);
    MPI_Finalize();
    return bad != 0;
}

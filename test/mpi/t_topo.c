/* romio_xt_cb_topology: t_topo FILE STOCK CB_NODES [KEY=VALUE...]
 * Writes an interleaved pattern collectively (a strided view, small
 * collective buffer: two-phase over several rounds) into STOCK with ROMIO's
 * own aggregators, then into FILE with the hints given; checks that FILE's
 * cb_nodes (MPI_File_get_info) is CB_NODES, that reading FILE back
 * collectively gives the pattern, and that FILE equals STOCK byte for byte.
 * Prints "t_topo: cb_nodes=N stock=M" and "t_topo: OK". */
#include "common.h"

enum { BLOCK = 1000, COUNT = 40 };

static void fill(unsigned char *buf, int rank, int nprocs)
{
    for (int b = 0; b < COUNT; b++)
        for (int k = 0; k < BLOCK; k++)
            buf[b * BLOCK + k] = t_pattern(((long long) b * nprocs + rank) * BLOCK + k, 5);
}

/* writes the pattern with info, reads it back; returns cb_nodes */
static int write_read(const char *path, MPI_Info info, int rank, int nprocs)
{
    static unsigned char out[BLOCK * COUNT], in[BLOCK * COUNT];
    MPI_Datatype vec, ftype;
    MPI_File fh;
    char val[64];
    MPI_Type_vector(COUNT, BLOCK, BLOCK * nprocs, MPI_BYTE, &vec);
    MPI_Type_create_resized(vec, 0, (MPI_Aint) BLOCK * nprocs * COUNT, &ftype);
    MPI_Type_commit(&ftype);
    fill(out, rank, nprocs);
    T_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, info, &fh));
    T_MPI(MPI_File_set_view(fh, (MPI_Offset) rank * BLOCK, MPI_BYTE, ftype, "native", info));
    T_MPI(MPI_File_write_at_all(fh, 0, out, sizeof(out), MPI_BYTE, MPI_STATUS_IGNORE));
    T_MPI(MPI_File_sync(fh));
    memset(in, 0, sizeof(in));
    T_MPI(MPI_File_read_at_all(fh, 0, in, sizeof(in), MPI_BYTE, MPI_STATUS_IGNORE));
    T_CHECK(memcmp(in, out, sizeof(in)) == 0, "%s: read back differs", path);
    t_info_value(fh, "cb_nodes", val, sizeof(val));
    T_MPI(MPI_File_close(&fh));
    MPI_Type_free(&vec);
    MPI_Type_free(&ftype);
    return atoi(val);
}

static MPI_Info make_info(int argc, char **argv, int first)
{
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "cb_buffer_size", "4096");
    MPI_Info_set(info, "romio_cb_write", "enable");
    MPI_Info_set(info, "romio_cb_read", "enable");
    for (int a = first; a < argc; a++) {
        char kv[256], *eq;
        snprintf(kv, sizeof(kv), "%s", argv[a]);
        if ((eq = strchr(kv, '=')) != NULL) {
            *eq = '\0';
            MPI_Info_set(info, kv, eq + 1);
        }
    }
    return info;
}

int main(int argc, char **argv)
{
    int rank, nprocs;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    if (argc < 4) {
        if (rank == 0)
            fprintf(stderr, "usage: t_topo FILE STOCK CB_NODES [KEY=VALUE...]\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Info stock = make_info(0, argv, 0), mine = make_info(argc, argv, 4);
    if (rank == 0) {
        MPI_File_delete(argv[1], MPI_INFO_NULL);
        MPI_File_delete(argv[2], MPI_INFO_NULL);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    int cb_stock = write_read(argv[2], stock, rank, nprocs);
    int cb = write_read(argv[1], mine, rank, nprocs);
    T_CHECK(cb == atoi(argv[3]), "cb_nodes %d, expected %s", cb, argv[3]);
    if (rank == 0) {
        T_CHECK(t_same_file(argv[1], argv[2]), "%s differs from %s", argv[1], argv[2]);
        printf("t_topo: cb_nodes=%d stock=%d\n", cb, cb_stock);
    }
    MPI_Info_free(&stock);
    MPI_Info_free(&mine);
    int errs = t_errors, all;
    MPI_Allreduce(&errs, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && all == 0)
        printf("t_topo: OK\n");
    MPI_Finalize();
    return all != 0;
}

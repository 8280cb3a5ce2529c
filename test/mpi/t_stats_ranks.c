/* t_stats_ranks FILE coll|indep [KEY=VALUE ...]: each rank writes 64 KiB at
 * rank * 64 KiB, collectively or independently, with the stats layer on and
 * the hints given.  Before the close, rank 0 prints each key of
 * MPI_File_get_info as "HINT key hex(value)", for comparing with the stats
 * record's hints. */
#include "common.h"

enum { N = 64 * 1024 };

static MPI_Info make_info(int argc, char **argv)
{
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "romio_xt_stats", "enable");
    for (int k = 3; k < argc; k++) {
        char kv[2048];
        snprintf(kv, sizeof(kv), "%s", argv[k]);
        char *eq = strchr(kv, '=');
        T_CHECK(eq != NULL, "not KEY=VALUE: %s", argv[k]);
        if (eq) {
            *eq = '\0';
            MPI_Info_set(info, kv, eq + 1);
        }
    }
    return info;
}

static void print_info(MPI_File fh)
{
    MPI_Info info;
    int nkeys, flag;
    char key[MPI_MAX_INFO_KEY + 1], val[MPI_MAX_INFO_VAL + 1];
    T_MPI(MPI_File_get_info(fh, &info));
    MPI_Info_get_nkeys(info, &nkeys);
    for (int k = 0; k < nkeys; k++) {
        MPI_Info_get_nthkey(info, k, key);
        MPI_Info_get(info, key, MPI_MAX_INFO_VAL, val, &flag);
        printf("HINT %s ", key);
        for (const unsigned char *p = (const unsigned char *) val; flag && *p; p++)
            printf("%02x", *p);
        printf("\n");
    }
    MPI_Info_free(&info);
}

int main(int argc, char **argv)
{
    int rank;
    MPI_File fh;
    static unsigned char buf[N];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (argc < 3) {
        fprintf(stderr, "usage: t_stats_ranks FILE coll|indep [KEY=VALUE ...]\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Info info = make_info(argc, argv);
    memset(buf, 'a' + rank % 26, sizeof(buf));
    T_MPI(MPI_File_open(MPI_COMM_WORLD, argv[1], MPI_MODE_CREATE | MPI_MODE_WRONLY, info, &fh));
    if (strcmp(argv[2], "coll") == 0)
        T_MPI(MPI_File_write_at_all(fh, (MPI_Offset) rank * N, buf, N, MPI_BYTE,
                                    MPI_STATUS_IGNORE));
    else
        T_MPI(MPI_File_write_at(fh, (MPI_Offset) rank * N, buf, N, MPI_BYTE, MPI_STATUS_IGNORE));
    if (rank == 0)
        print_info(fh);
    fflush(stdout);
    T_MPI(MPI_File_close(&fh));
    MPI_Info_free(&info);
    MPI_Finalize();
    return t_errors ? 1 : 0;
}

/* Hint handling at open and at MPI_File_set_info:
 *   t_hints FILE MODE [names...]
 * MODE getinfo  : every romio-xt hint named on the command line is in
 *                 MPI_File_get_info with a non-empty effective value
 * MODE bad      : romio_xt_stats=maybe on every rank (warned once, default used)
 * MODE disagree : rank 0 disables stats, the others enable them (rank 0 wins)
 * MODE partial  : only rank 1 gives romio_xt_stats=enable (rank 0's unset wins)
 * MODE unknown  : romio_xt_statz=enable (a typo: warned, ignored)
 * MODE long     : five XT_AGREE hints with 1000-character values, the same on
 *                 every rank (more than one bcast chunk of rank 0's texts):
 *                 each warned once as bad, none as a disagreement
 * MODE setinfo  : open without hints, then MPI_File_set_info enabling stats:
 *                 open-only, so warned and unchanged
 * In every mode the file is still written and read back correctly.
 * With T_LATER_OPEN=1 in the environment, FILE.first is opened (no hints)
 * and closed before: the tested open is then not the process's first, and
 * ROMIO's first allreduce at open tells whether any rank has input for
 * romio-xt (no input: the file gets no romio-xt state at all). */
#include "common.h"

int romioxt_describe_stack(MPI_File fh, char *buf, int len);

static void expect_value(MPI_File fh, const char *key, const char *want)
{
    char val[256];
    t_info_value(fh, key, val, sizeof(val));
    T_CHECK(strcmp(val, want) == 0, "%s is '%s', expected '%s'", key, val, want);
}

int main(int argc, char **argv)
{
    int rank;
    MPI_File fh;
    MPI_Info info;
    char stack[256];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (argc < 3) {
        fprintf(stderr, "usage: t_hints FILE MODE [names...]\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    const char *mode = argv[2];
    MPI_Info_create(&info);
    if (strcmp(mode, "bad") == 0)
        MPI_Info_set(info, "romio_xt_stats", "maybe");
    else if (strcmp(mode, "disagree") == 0)
        MPI_Info_set(info, "romio_xt_stats", rank == 0 ? "disable" : "enable");
    else if (strcmp(mode, "partial") == 0 && rank == 1)
        MPI_Info_set(info, "romio_xt_stats", "enable");
    else if (strcmp(mode, "unknown") == 0)
        MPI_Info_set(info, "romio_xt_statz", "enable");
    else if (strcmp(mode, "long") == 0) {
        static const char *const keys[] = { "romio_xt_trace_dir", "romio_orthrus_candidates",
            "romio_orthrus_table", "romio_prefetch_willneed", "romio_xt_stats"
        };
        char val[1001];
        for (int k = 0; k < 5; k++) {
            for (int c = 0; c < 1000; c++)
                val[c] = (char) ('a' + (c * 7 + k) % 26);
            val[1000] = '\0';
            MPI_Info_set(info, keys[k], val);
        }
    }
    if (getenv("T_LATER_OPEN")) {
        char first[4096];
        snprintf(first, sizeof(first), "%s.first", argv[1]);
        T_MPI(MPI_File_open(MPI_COMM_WORLD, first, MPI_MODE_CREATE | MPI_MODE_RDWR,
                            MPI_INFO_NULL, &fh));
        T_MPI(MPI_File_close(&fh));
    }
    T_MPI(MPI_File_open(MPI_COMM_WORLD, argv[1], MPI_MODE_CREATE | MPI_MODE_RDWR, info, &fh));

    if (strcmp(mode, "getinfo") == 0) {
        for (int a = 3; a < argc; a++) {
            char val[256];
            t_info_value(fh, argv[a], val, sizeof(val));
            T_CHECK(val[0] != '\0', "hint %s missing from MPI_File_get_info", argv[a]);
        }
        expect_value(fh, "romio_xt_stats", "disable");
    } else if (strcmp(mode, "setinfo") == 0) {
        MPI_Info si;
        MPI_Info_create(&si);
        MPI_Info_set(si, "romio_xt_stats", "enable");
        T_MPI(MPI_File_set_info(fh, si));
        MPI_Info_free(&si);
    }
    /* bad, disagree, partial, unknown, setinfo: stats stay off, identically on all ranks */
    expect_value(fh, "romio_xt_stats", "disable");
    expect_value(fh, "romio_xt_layers", "none");
    romioxt_describe_stack(fh, stack, sizeof(stack));
    T_CHECK(strcmp(stack, "ufs") == 0, "stack '%s'", stack);
    t_write_read_check(fh, rank, 3);
    T_MPI(MPI_File_close(&fh));
    MPI_Info_free(&info);
    return t_finish("t_hints");
}

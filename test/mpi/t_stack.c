/* The layer stack is installed only when a hint asks for it:
 *   t_stack FILE EXPECT [key=value ...]
 * opens FILE with the given hints and checks that the table stack described
 * by romio-xt equals EXPECT (e.g. "ufs": the stock UFS table itself, or
 * "stats>ufs"), and that romio_xt_layers in MPI_File_get_info agrees.  Then
 * closes, reopens without hints and checks the stock table again. */
#include "common.h"

int romioxt_describe_stack(MPI_File fh, char *buf, int len);

static void check_stack(const char *path, MPI_Info info, const char *expect)
{
    MPI_File fh;
    char stack[256], layers[256], want_layers[256];
    T_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, info, &fh));
    T_CHECK(romioxt_describe_stack(fh, stack, sizeof(stack)) == 0, "describe failed");
    T_CHECK(strcmp(stack, expect) == 0, "stack '%s', expected '%s'", stack, expect);
    /* romio_xt_layers lists the layers bottom first: "stats>ufs" -> "stats" */
    const char *gt = strrchr(expect, '>');
    if (gt) {
        snprintf(want_layers, sizeof(want_layers), "%.*s", (int) (gt - expect), expect);
    } else {
        snprintf(want_layers, sizeof(want_layers), "none");
    }
    t_info_value(fh, "romio_xt_layers", layers, sizeof(layers));
    T_CHECK(strcmp(layers, want_layers) == 0, "romio_xt_layers '%s', expected '%s'", layers,
            want_layers);
    T_MPI(MPI_File_close(&fh));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    if (argc < 3) {
        fprintf(stderr, "usage: t_stack FILE EXPECT [key=value ...]\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Info info;
    MPI_Info_create(&info);
    for (int a = 3; a < argc; a++) {
        char *eq = strchr(argv[a], '=');
        if (eq) {
            *eq = '\0';
            MPI_Info_set(info, argv[a], eq + 1);
        }
    }
    check_stack(argv[1], info, argv[2]);
    if (!getenv("ROMIO_HINTS") && !getenv("ROMIO_XT_STATS"))
        check_stack(argv[1], MPI_INFO_NULL, "ufs");
    MPI_Info_free(&info);
    return t_finish("t_stack");
}

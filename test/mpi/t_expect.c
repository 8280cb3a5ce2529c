/* Opens files with given hints and checks what MPI_File_get_info shows.
 *   t_expect [-r] FILE [-i KEY=VALUE]... [KEY=WANT]... [-- FILE ...]...
 * Each FILE is opened (the -i hints in its info), written (4 KiB per rank,
 * a pattern, collective) and read back; with -r only read back, so a file
 * written by an earlier run with other hints must hold the same bytes.
 * Each KEY=WANT must be the value MPI_File_get_info shows for KEY ("" when
 * absent); WANT ending in '*' matches a prefix.  The files stay open until
 * the end, then are closed in order. */
#include "common.h"

enum { N = 4096, MAXF = 16 };

static void check_value(MPI_File fh, const char *file, const char *kv)
{
    char key[256], val[1024];
    const char *eq = strchr(kv, '=');
    if (!eq || eq - kv >= (int) sizeof(key)) {
        T_CHECK(0, "bad argument '%s' (expected KEY=WANT)", kv);
        return;
    }
    snprintf(key, sizeof(key), "%.*s", (int) (eq - kv), kv);
    const char *want = eq + 1;
    size_t n = strlen(want);
    t_info_value(fh, key, val, sizeof(val));
    if (n && want[n - 1] == '*')
        T_CHECK(strncmp(val, want, n - 1) == 0, "%s: %s is '%s', expected '%s'", file, key, val,
                want);
    else
        T_CHECK(strcmp(val, want) == 0, "%s: %s is '%s', expected '%s'", file, key, val, want);
}

static void read_check(MPI_File fh, int rank)
{
    unsigned char in[N];
    T_MPI(MPI_File_read_at_all(fh, (MPI_Offset) rank * N, in, N, MPI_BYTE, MPI_STATUS_IGNORE));
    for (int k = 0; k < N; k++)
        if (in[k] != t_pattern((long long) rank * N + k, 11)) {
            T_CHECK(0, "byte %lld differs", (long long) rank * N + k);
            return;
        }
}

int main(int argc, char **argv)
{
    int rank, nf = 0, read_only = 0, a = 1;
    MPI_File fh[MAXF];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (a < argc && strcmp(argv[a], "-r") == 0)
        read_only = 1, a++;
    while (a < argc && nf < MAXF) {
        const char *file = argv[a++];
        MPI_Info info;
        MPI_Info_create(&info);
        for (; a + 1 < argc && strcmp(argv[a], "-i") == 0; a += 2) {
            char key[256];
            const char *eq = strchr(argv[a + 1], '=');
            if (eq && eq - argv[a + 1] < (int) sizeof(key)) {
                snprintf(key, sizeof(key), "%.*s", (int) (eq - argv[a + 1]), argv[a + 1]);
                MPI_Info_set(info, key, eq + 1);
            }
        }
        T_MPI(MPI_File_open(MPI_COMM_WORLD, file, read_only ? MPI_MODE_RDONLY :
                            MPI_MODE_CREATE | MPI_MODE_RDWR, info, &fh[nf]));
        MPI_Info_free(&info);
        if (read_only)
            read_check(fh[nf], rank);
        else
            t_write_read_check(fh[nf], rank, 11);
        for (; a < argc && strcmp(argv[a], "--") != 0; a++)
            check_value(fh[nf], file, argv[a]);
        a += a < argc;
        nf++;
    }
    for (int k = 0; k < nf; k++)
        T_MPI(MPI_File_close(&fh[k]));
    return t_finish("t_expect");
}

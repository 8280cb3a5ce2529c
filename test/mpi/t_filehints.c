/* Per-file hints: lines "PATTERN KEY VALUE" of the ROMIO_HINTS file.
 *   t_filehints DIR   (ROMIO_HINTS names the file test/mpi/run.sh writes)
 * Opens DIR/a.pf1 (the program's info sets cb_buffer_size), DIR/b.pf2 and
 * DIR/c.other; each is written and read back, and MPI_File_get_info must
 * show: the program's value over a per-file line, a per-file line over the
 * file's global line (the first matching line for a key wins), a layer a
 * per-file line turns on, the global lines where no pattern matches, and
 * romio_xt_file_hints naming the lines that applied. */
#include "common.h"

static void expect(MPI_File fh, const char *name, const char *key, const char *want)
{
    char val[512];
    t_info_value(fh, key, val, sizeof(val));
    T_CHECK(strcmp(val, want) == 0, "%s: %s is '%s', expected '%s'", name, key, val, want);
}

static MPI_File open_one(const char *dir, const char *base, MPI_Info info, int rank)
{
    char path[1024];
    MPI_File fh;
    snprintf(path, sizeof(path), "%s/%s", dir, base);
    T_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, info, &fh));
    t_write_read_check(fh, rank, 5);
    return fh;
}

int main(int argc, char **argv)
{
    int rank;
    MPI_Info info;
    char want[1024];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (argc < 2) {
        fprintf(stderr, "usage: t_filehints DIR\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Info_create(&info);
    MPI_Info_set(info, "cb_buffer_size", "2097152");
    MPI_File a = open_one(argv[1], "a.pf1", info, rank);
    expect(a, "a.pf1", "cb_buffer_size", "2097152");
    expect(a, "a.pf1", "romio_xt_stats", "enable");
    expect(a, "a.pf1", "romio_xt_file_hints", "3:*.pf1,4:*.pf1");
    MPI_File b = open_one(argv[1], "b.pf2", MPI_INFO_NULL, rank);
    expect(b, "b.pf2", "cb_buffer_size", "1048576");
    expect(b, "b.pf2", "romio_xt_stats", "disable");
    expect(b, "b.pf2", "romio_xt_null", "enable");
    snprintf(want, sizeof(want), "5:*.pf2,6:*.pf2,7:%s/b.*", argv[1]);
    expect(b, "b.pf2", "romio_xt_file_hints", want);
    MPI_File c = open_one(argv[1], "c.other", MPI_INFO_NULL, rank);
    expect(c, "c.other", "cb_buffer_size", "4194304");
    expect(c, "c.other", "romio_xt_layers", "none");
    expect(c, "c.other", "romio_xt_file_hints", "");
    T_MPI(MPI_File_close(&a));
    T_MPI(MPI_File_close(&b));
    T_MPI(MPI_File_close(&c));
    MPI_Info_free(&info);
    return t_finish("t_filehints");
}

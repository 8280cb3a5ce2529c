/* Orthrus's description cache (src/orthrus/orth_desc.h): one file, a
 * sequence of collective calls that changes the view (to one of the same
 * size, extent and first displacement but other blocks; one whose first
 * block starts later; a contiguous one; back), the count (whole and partial
 * filetypes), the datatype (the same bytes in other units), the pointer
 * (individual, seeks, explicit offsets) and gives one rank zero bytes.
 * Each config writes its own file with the sequence, which must equal
 * stock's byte for byte; then it reads stock's file with the same sequence,
 * and every call's data and the individual pointer after every call must
 * equal stock's.
 * Usage: t_orth_desc DIR */
#include "../mpi/common.h"

enum { INDIV, SEEK, AT };       /* how a call finds its place */

struct op {
    int view;                   /* -1: keep; else set view k (views[]) first */
    int how;
    long long where;            /* SEEK: etypes to seek to; AT: explicit offset */
    int count;                  /* ints (pairs of ints when pairs) */
    int pairs;                  /* datatype: 2 contiguous ints */
    int zero_rank;              /* 1: rank 0 moves no data */
};

static const struct op ops[] = {
    /* a partial filetype, then the same call in a view that differs only in
     * its blocks: the pointer after it differs */
    {0, INDIV, 0, 6, 0, 0}, {1, INDIV, 0, 6, 0, 0}, {-1, INDIV, 0, 6, 0, 0},
    {0, INDIV, 0, 8, 0, 0}, {-1, INDIV, 0, 8, 0, 0}, {-1, INDIV, 0, 8, 0, 0},
    {-1, INDIV, 0, 4, 1, 0},    /* the same bytes as 8 ints */
    {-1, INDIV, 0, 5, 0, 0}, {-1, INDIV, 0, 5, 0, 0}, {-1, INDIV, 0, 3, 0, 0},
    {-1, AT, 2, 8, 0, 0}, {-1, AT, 10, 8, 0, 0}, {-1, AT, 26, 8, 0, 0}, {-1, AT, 0, 0, 0, 0},
    {-1, SEEK, 7, 6, 0, 0}, {-1, SEEK, 15, 6, 0, 0}, {-1, INDIV, 0, 6, 0, 0},
    {-1, INDIV, 0, 4, 0, 1}, {-1, INDIV, 0, 8, 0, 0},
    {1, INDIV, 0, 8, 0, 0}, {-1, INDIV, 0, 8, 0, 0}, {-1, SEEK, 7, 6, 0, 0},
    {-1, SEEK, 15, 6, 0, 0}, {-1, AT, 10, 8, 0, 0},
    {2, INDIV, 0, 6, 0, 0}, {-1, INDIV, 0, 6, 0, 0}, {-1, INDIV, 0, 6, 0, 0},
    {-1, SEEK, 3, 6, 0, 0}, {-1, SEEK, 9, 6, 0, 0}, {-1, AT, 4, 5, 0, 0},
    {3, INDIV, 0, 10, 0, 0}, {-1, INDIV, 0, 10, 0, 0},
    {0, INDIV, 0, 8, 0, 0}, {-1, SEEK, 7, 6, 0, 0}, {-1, SEEK, 15, 6, 0, 0},
};
#define NOPS (int) (sizeof(ops) / sizeof(ops[0]))
#define MAXINTS 16

static int rank, nprocs;

/* views 0 and 1: 4 ints at 0 and 4 ints at 24 or 40, in a period of 64
 * bytes per rank (same size, extent, first); view 2: 4 ints at 8 and 2 at
 * 40 (a later first block); view 3: contiguous ints.  Rank r's period
 * starts at r * 64 (disp); view 3's run at 8192 + r * 4096. */
static void set_view(MPI_File fh, int k)
{
    MPI_Datatype ft = MPI_INT, idx;
    if (k < 3) {
        int lens[2] = { 16, k == 2 ? 8 : 16 };
        MPI_Aint disp[2] = { k == 2 ? 8 : 0, k == 0 ? 24 : 40 };
        MPI_Type_create_hindexed(2, lens, disp, MPI_BYTE, &idx);
        MPI_Type_create_resized(idx, 0, (MPI_Aint) 64 * nprocs, &ft);
        MPI_Type_commit(&ft);
        MPI_Type_free(&idx);
    }
    T_MPI(MPI_File_set_view(fh, k < 3 ? (MPI_Offset) rank * 64 : 8192 + (MPI_Offset) rank * 4096,
                            MPI_INT, ft, "native", MPI_INFO_NULL));
    if (k < 3)
        MPI_Type_free(&ft);
}

/* runs the sequence; data[i]: call i's ints; pos[i]: the pointer after it */
static void sequence(MPI_File fh, int is_write, int data[][MAXINTS], MPI_Offset *pos)
{
    MPI_Datatype pair;
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    for (int i = 0; i < NOPS; i++) {
        const struct op *o = &ops[i];
        int count = o->zero_rank && rank == 0 ? 0 : o->count;
        MPI_Datatype dt = o->pairs ? pair : MPI_INT;
        if (o->view >= 0)
            set_view(fh, o->view);
        if (o->how == SEEK)
            T_MPI(MPI_File_seek(fh, o->where, MPI_SEEK_SET));
        for (int j = 0; is_write && j < MAXINTS; j++)
            data[i][j] = rank * 1000000 + i * 1000 + j;
        if (o->how == AT && is_write)
            T_MPI(MPI_File_write_at_all(fh, o->where, data[i], count, dt, MPI_STATUS_IGNORE));
        else if (o->how == AT)
            T_MPI(MPI_File_read_at_all(fh, o->where, data[i], count, dt, MPI_STATUS_IGNORE));
        else if (is_write)
            T_MPI(MPI_File_write_all(fh, data[i], count, dt, MPI_STATUS_IGNORE));
        else
            T_MPI(MPI_File_read_all(fh, data[i], count, dt, MPI_STATUS_IGNORE));
        T_MPI(MPI_File_get_position(fh, &pos[i]));
    }
    MPI_Type_free(&pair);
}

static const char *configs[][2] = {
    {"stock", NULL},
    {"two_phase", "romio_orthrus_force=two_phase"},
    {"core_first", "romio_orthrus_force=core_first"},
    {"disk_first", "romio_orthrus_force=disk_first"},
    {"view_based", "romio_orthrus_force=view_based"},
    {"enable", "romio_orthrus=enable"},
};
#define NCONFIGS (int) (sizeof(configs) / sizeof(configs[0]))

static MPI_File open_with(const char *path, int c, int amode)
{
    MPI_Info info;
    MPI_File fh;
    char key[64];
    MPI_Info_create(&info);
    if (configs[c][1]) {
        snprintf(key, sizeof(key), "%s", configs[c][1]);
        *strchr(key, '=') = '\0';
        MPI_Info_set(info, key, strchr(configs[c][1], '=') + 1);
    }
    if (c == NCONFIGS - 1) {    /* every candidate tried, one call each */
        MPI_Info_set(info, "romio_orthrus_budget", "0");
        MPI_Info_set(info, "romio_orthrus_trials", "1");
    }
    T_MPI(MPI_File_open(MPI_COMM_WORLD, path, amode, info, &fh));
    MPI_Info_free(&info);
    return fh;
}

/* known bytes everywhere the sequence reaches, so that holes keep them
 * (stock two-phase's read-modify-write reads them) */
static void prefill(const char *path)
{
    FILE *f = fopen(path, "wb");
    T_CHECK(f != NULL, "cannot create %s", path);
    for (long long i = 0; f && i < 8192 + 4096LL * nprocs; i++)
        putc(0xa0 + (int) (i % 7), f);
    if (f)
        fclose(f);
}

int main(int argc, char **argv)
{
    static int data[NOPS][MAXINTS], want[NOPS][MAXINTS];
    MPI_Offset pos[NOPS], want_pos[NOPS], wpos[NOPS], want_wpos[NOPS];
    char ref[1024], path[1024];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    if (argc < 2) {
        fprintf(stderr, "usage: t_orth_desc DIR\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    snprintf(ref, sizeof(ref), "%s/desc.stock.dat", argv[1]);
    for (int c = 0; c < NCONFIGS; c++) {
        snprintf(path, sizeof(path), "%s/desc.%s.dat", argv[1], configs[c][0]);
        if (rank == 0)
            prefill(path);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_File fh = open_with(path, c, MPI_MODE_CREATE | MPI_MODE_RDWR);
        sequence(fh, 1, data, c ? wpos : want_wpos);
        T_MPI(MPI_File_close(&fh));
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 0 && c)
            T_CHECK(t_same_file(ref, path), "%s: file differs from stock", configs[c][0]);
        fh = open_with(ref, c, MPI_MODE_RDONLY);
        memset(c ? data : want, 0x5a, sizeof(data));
        sequence(fh, 0, c ? data : want, c ? pos : want_pos);
        T_MPI(MPI_File_close(&fh));
        for (int i = 0; c && i < NOPS; i++) {
            T_CHECK(memcmp(data[i], want[i], sizeof(data[i])) == 0, "%s: read call %d differs",
                    configs[c][0], i);
            T_CHECK(pos[i] == want_pos[i] && wpos[i] == want_wpos[i], "%s: call %d: position "
                    "%lld/%lld (write %lld/%lld)", configs[c][0], i, (long long) pos[i],
                    (long long) want_pos[i], (long long) wpos[i], (long long) want_wpos[i]);
        }
    }
    return t_finish("t_orth_desc");
}

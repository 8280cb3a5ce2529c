/* Orthrus: every candidate, forced or selected, writes the same bytes as
 * stock two-phase and reads back the same data.  Views: vector (strided
 * memory too), subarray (columns, like the Matrix benchmark), darray
 * (coll_perf's pattern), hindexed with holes and one rank with zero bytes,
 * struct (int + doubles with a hole).
 * Usage: t_orth DIR [ncalls] */
#include "../mpi/common.h"

#include <unistd.h>

struct view {
    const char *name;
    MPI_Datatype etype, ftype, mtype;   /* mtype: memory type of one element unit */
    int count;                  /* mtype units per call (0: none on this rank) */
    int msize;                  /* bytes of memory per call */
};

static int rank, nprocs;

static void view_vector(struct view *v)
{
    MPI_Datatype vec, placed, mem;
    int blocks = 5, bl = 3, one = 1;
    MPI_Aint at = (MPI_Aint) rank * bl * 4;
    MPI_Type_vector(blocks, bl, bl * nprocs, MPI_INT, &vec);
    MPI_Type_create_struct(1, &one, &at, &vec, &placed);
    MPI_Type_create_resized(placed, 0, (MPI_Aint) blocks * bl * nprocs * 4, &v->ftype);
    MPI_Type_free(&vec);
    MPI_Type_free(&placed);
    /* strided memory: every other int */
    MPI_Type_vector(blocks * bl, 1, 2, MPI_INT, &mem);
    MPI_Type_create_resized(mem, 0, (MPI_Aint) blocks * bl * 2 * 4, &v->mtype);
    MPI_Type_free(&mem);
    v->name = "vector";
    v->etype = MPI_INT;
    v->count = 1;
    v->msize = blocks * bl * 2 * 4;
}

static void view_subarray(struct view *v)
{
    int cols = 7, rows = 9;
    int gs[2] = { rows, cols * nprocs }, ls[2] = { rows, cols }, st[2] = { 0, cols * rank };
    MPI_Type_create_subarray(2, gs, ls, st, MPI_ORDER_C, MPI_INT, &v->ftype);
    v->name = "subarray";
    v->etype = MPI_INT;
    v->mtype = MPI_INT;
    v->count = rows * cols;
    v->msize = rows * cols * 4;
}

static void view_darray(struct view *v)
{
    int gs[3] = { 12, 10, 8 }, distrib[3], dargs[3], dims[3] = { 0, 0, 0 };
    MPI_Count size;
    MPI_Dims_create(nprocs, 3, dims);
    for (int i = 0; i < 3; i++) {
        distrib[i] = MPI_DISTRIBUTE_BLOCK;
        dargs[i] = MPI_DISTRIBUTE_DFLT_DARG;
    }
    MPI_Type_create_darray(nprocs, rank, 3, gs, distrib, dargs, dims, MPI_ORDER_C, MPI_INT,
                           &v->ftype);
    MPI_Type_size_x(v->ftype, &size);
    v->name = "darray";
    v->etype = MPI_INT;
    v->mtype = MPI_INT;
    v->count = (int) (size / 4);
    v->msize = (int) size;
}

/* rows of nprocs slots of 64 bytes; rank r writes a varying prefix of its
 * slot in each row (holes); the last rank of several writes nothing */
static void view_hindexed(struct view *v)
{
    enum { ROWS = 11, SLOT = 64 };
    int lens[ROWS], total = 0;
    MPI_Aint disp[ROWS];
    MPI_Datatype idx;
    for (int i = 0; i < ROWS; i++) {
        lens[i] = 8 + (i * 13 + rank * 7) % 56;
        disp[i] = (MPI_Aint) (i * nprocs + rank) * SLOT;
        total += lens[i];
    }
    MPI_Type_create_hindexed(ROWS, lens, disp, MPI_BYTE, &idx);
    MPI_Type_create_resized(idx, 0, (MPI_Aint) ROWS * nprocs * SLOT, &v->ftype);
    MPI_Type_free(&idx);
    v->name = "hindexed";
    v->etype = MPI_BYTE;
    v->mtype = MPI_BYTE;
    v->count = (nprocs > 1 && rank == nprocs - 1) ? 0 : total;
    v->msize = total;
}

/* a struct of an int and two doubles per rank slot, with a hole after the
 * int (packed in memory as 20 bytes) */
static void view_struct(struct view *v)
{
    int bl[2] = { 1, 2 };
    MPI_Aint d[2] = { (MPI_Aint) rank * 32, (MPI_Aint) rank * 32 + 8 };
    MPI_Datatype t[2] = { MPI_INT, MPI_DOUBLE }, st, one;
    MPI_Type_create_struct(2, bl, d, t, &st);
    MPI_Type_create_resized(st, 0, (MPI_Aint) nprocs * 32, &one);
    MPI_Type_contiguous(6, one, &v->ftype);     /* one call per extent (prefill) */
    MPI_Type_free(&st);
    MPI_Type_free(&one);
    v->name = "struct";
    v->etype = MPI_BYTE;
    v->mtype = MPI_BYTE;
    v->count = 20 * 6;          /* six periods per call */
    v->msize = 20 * 6;
}

struct config {
    const char *name;
    const char *hints[3][2];
};

static const struct config configs[] = {
    {"stock", {{NULL}}},
    {"two_phase", {{"romio_orthrus_force", "two_phase"}}},
    {"core_first", {{"romio_orthrus_force", "core_first"}}},
    {"disk_first", {{"romio_orthrus_force", "disk_first"}}},
    /* small stripes: pieces cut at stripe boundaries (UFS ignores striping_factor:
     * one aggregator per node) */
    {"disk_first_s", {{"romio_orthrus_force", "disk_first"}, {"striping_unit", "40"},
                      {"striping_factor", "3"}}},
    /* tiny cb_buffer_size: many rounds, pieces split between rounds */
    {"core_first_r", {{"romio_orthrus_force", "core_first"}, {"cb_buffer_size", "24"}}},
    {"disk_first_r", {{"romio_orthrus_force", "disk_first"}, {"striping_unit", "40"},
                      {"cb_buffer_size", "56"}}},
    /* one-byte and 7-byte rounds: every piece split, many rounds in flight */
    {"core_first_1", {{"romio_orthrus_force", "core_first"}, {"cb_buffer_size", "1"}}},
    {"disk_first_7", {{"romio_orthrus_force", "disk_first"}, {"striping_unit", "40"},
                      {"cb_buffer_size", "7"}}},
    {"enable_r", {{"romio_orthrus", "enable"}, {"cb_buffer_size", "24"},
                  {"romio_orthrus_budget", "0"}}},
    {"view_based", {{"romio_orthrus_force", "view_based"}}},
    /* tiny domain blocks: many rounds, pieces split between blocks */
    {"view_based_r", {{"romio_orthrus_force", "view_based"}, {"cb_buffer_size", "24"}}},
    /* a pool of one 64-byte block, smaller than one call: written back when full */
    {"view_based_p", {{"romio_orthrus_force", "view_based"}, {"cb_buffer_size", "64"},
                      {"romio_vb_cache_size", "100"}}},
    {"view_based_lz", {{"romio_orthrus_force", "view_based"}, {"romio_vb_lazy", "enable"},
                       {"romio_vb_prefetch", "enable"}}},
    {"enable1", {{"romio_orthrus", "enable"}, {"romio_orthrus_trials", "1"},
                 {"romio_orthrus_budget", "0"}}},
    {"enable", {{"romio_orthrus", "enable"}}},
    {"independent", {{"romio_orthrus_force", "independent"}}},
    {"two_layer", {{"romio_orthrus_force", "two_layer"}}},
    /* small stripes between the nodes' aggregators, tiny rounds */
    {"two_layer_s", {{"romio_orthrus_force", "two_layer"}, {"striping_unit", "40"},
                     {"cb_buffer_size", "24"}}},
    /* every candidate examined, two_layer included */
    {"enable_all", {{"romio_orthrus", "enable"}, {"romio_orthrus_budget", "0"},
                    {"romio_orthrus_candidates", "two_phase,core_first,two_layer,independent"}}},
    /* a large budget: trials from the first calls, each candidate's first
     * one split into a piece and the rest (orth_piece.c) */
    {"enable_piece", {{"romio_orthrus", "enable"}, {"romio_orthrus_budget", "1"}}},
};
#define NCONFIGS (int) (sizeof(configs) / sizeof(configs[0]))

static MPI_File open_with(const char *path, const struct config *c, int amode)
{
    MPI_Info info;
    MPI_File fh;
    MPI_Info_create(&info);
    for (int i = 0; i < 3 && c->hints[i][0]; i++)
        MPI_Info_set(info, c->hints[i][0], c->hints[i][1]);
    T_MPI(MPI_File_open(MPI_COMM_WORLD, path, amode, info, &fh));
    MPI_Info_free(&info);
    return fh;
}

static void fill(char *buf, int n, int call, int seed)
{
    for (int i = 0; i < n; i++)
        buf[i] = (char) t_pattern((long long) i + 1000LL * call, rank * 31 + seed);
}

/* memory bytes that belong to the data (vector's strided memory: every other int) */
static int in_data(const struct view *v, int i)
{
    return strcmp(v->name, "vector") != 0 || (i / 4) % 2 == 0;
}

/* the file before the writes: known bytes everywhere, so that holes must
 * keep them (stock two-phase's read-modify-write does) */
static void prefill(const char *path, const struct view *v, int ncalls)
{
    MPI_Aint lb, extent;
    MPI_Type_get_extent(v->ftype, &lb, &extent);
    long long size = (long long) extent * ncalls + 64;
    FILE *f = fopen(path, "wb");
    T_CHECK(f != NULL, "cannot create %s", path);
    for (long long i = 0; f && i < size; i++)
        putc(0xa0 + (int) (i % 7), f);
    if (f)
        fclose(f);
}

static void write_file(const char *path, const struct view *v, const struct config *c, int ncalls)
{
    MPI_File fh = open_with(path, c, MPI_MODE_CREATE | MPI_MODE_WRONLY);
    MPI_Offset pos;
    char *buf = malloc(v->msize + 1);
    T_MPI(MPI_File_set_view(fh, 0, v->etype, v->ftype, "native", MPI_INFO_NULL));
    for (int k = 0; k < ncalls; k++) {
        fill(buf, v->msize, k, 1);
        T_MPI(MPI_File_write_all(fh, buf, v->count, v->mtype, MPI_STATUS_IGNORE));
    }
    /* the individual file pointer moved as with stock ROMIO */
    T_MPI(MPI_File_get_position(fh, &pos));
    MPI_Count msz, esz;
    MPI_Type_size_x(v->mtype, &msz);
    MPI_Type_size_x(v->etype, &esz);
    T_CHECK(pos == (MPI_Offset) ncalls * v->count * msz / esz, "%s/%s: position %lld",
            v->name, c->name, (long long) pos);
    T_MPI(MPI_File_close(&fh));
    free(buf);
}

static void read_file(const char *path, const struct view *v, const struct config *c, int ncalls)
{
    MPI_File fh = open_with(path, c, MPI_MODE_RDONLY);
    char *buf = malloc(v->msize + 1), *want = malloc(v->msize + 1);
    MPI_Count msz, esz;
    MPI_Type_size_x(v->mtype, &msz);
    MPI_Type_size_x(v->etype, &esz);
    T_MPI(MPI_File_set_view(fh, 0, v->etype, v->ftype, "native", MPI_INFO_NULL));
    for (int k = 0; k < ncalls; k++) {
        MPI_Offset at = (MPI_Offset) k * v->count * msz / esz;
        fill(want, v->msize, k, 1);
        memset(buf, 0x5a, v->msize);
        T_MPI(MPI_File_read_at_all(fh, at, buf, v->count, v->mtype, MPI_STATUS_IGNORE));
        int bad = -1;
        for (int i = 0; i < v->msize && v->count && bad < 0; i++)
            if (in_data(v, i) && buf[i] != want[i])
                bad = i;
        T_CHECK(bad < 0, "%s/%s: read call %d differs at byte %d", v->name, c->name, k, bad);
    }
    T_MPI(MPI_File_close(&fh));
    free(buf);
    free(want);
}

static long long file_size(const char *p)
{
    FILE *f = fopen(p, "rb");
    long long n = -1;
    if (f && fseek(f, 0, SEEK_END) == 0)
        n = ftell(f);
    if (f)
        fclose(f);
    return n;
}

static void run_view(const char *dir, struct view *v, int ncalls)
{
    char ref[1024], path[1024];
    snprintf(ref, sizeof(ref), "%s/%s.stock.dat", dir, v->name);
    for (int i = 0; i < NCONFIGS; i++) {
        snprintf(path, sizeof(path), "%s/%s.%s.dat", dir, v->name, configs[i].name);
        if (rank == 0)
            prefill(path, v, ncalls);
        MPI_Barrier(MPI_COMM_WORLD);
        write_file(path, v, &configs[i], ncalls);
        if (rank == 0 && i > 0)
            T_CHECK(t_same_file(ref, path), "%s: %s differs from stock (%lld vs %lld bytes)",
                    v->name, configs[i].name, file_size(path), file_size(ref));
        read_file(ref, v, &configs[i], ncalls);
    }
    MPI_Type_free(&v->ftype);
    if (v->mtype != MPI_INT && v->mtype != MPI_BYTE)
        MPI_Type_free(&v->mtype);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    if (argc < 2) {
        fprintf(stderr, "usage: t_orth DIR [ncalls]\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int ncalls = argc > 2 ? atoi(argv[2]) : 8;
    void (*views[])(struct view *) = { view_vector, view_subarray, view_darray, view_hindexed,
        view_struct
    };
    for (size_t i = 0; i < sizeof(views) / sizeof(views[0]); i++) {
        struct view v;
        views[i](&v);
        MPI_Type_commit(&v.ftype);
        if (v.mtype != MPI_INT && v.mtype != MPI_BYTE)
            MPI_Type_commit(&v.mtype);
        run_view(argv[1], &v, ncalls);
    }
    return t_finish("t_orth");
}

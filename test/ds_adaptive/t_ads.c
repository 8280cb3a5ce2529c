/* Adaptive data sieving: every method against stock ROMIO, byte for byte.
 *   t_ads DIR [quick|tiny]
 * For a grid of (datatype kind, data size, hole size, initial offset,
 * memory layout) each rank writes through its view with every method and
 * with stock ROMIO (romio_ds_write=disable, ROMIO's own naive code); the
 * whole file must be identical.  Reads likewise, from a file that ends
 * inside the last view (bytes past the end stay untouched).  With 2+ ranks
 * the ranks' pieces interleave and are written concurrently.  "tiny": only
 * regular views of tiny pieces (vectors, resized types), thousands per call:
 * the fast path that moves regular runs of pieces at once. */
#include "../mpi/common.h"

static const char *const methods[] = { "naive", "romio", "model", "extent", "adaptive" };
enum { NMETHODS = 5 };
enum kind { VECTOR, INDEXED, STRUCT, SUBARRAY, NKINDS, RESIZED = NKINDS };
static const char *const kind_names[] = { "vector", "indexed", "struct", "subarray", "resized" };

struct grid_case {
    enum kind kind;
    int data, hole, init, mem_noncontig, bufsize, many;
    int bg;             /* background file size (0: the default) */
};

static int rank, nprocs;
static char dir[1024];

/* the view of this rank: file type and displacement */
static void make_view(const struct grid_case *g, MPI_Datatype *ft, MPI_Offset *disp, int *nbytes)
{
    int n = 1 + (64 << 10) / (g->data + g->hole + 1);        /* ~64 KiB extent per rank */
    if (n > 40)
        n = 40;
    if (g->many)
        n = g->many > 1 ? g->many : 3000;   /* 3000: more pieces than one preadv takes */
    int stride = nprocs * g->data + g->hole;
    *disp = g->init + (MPI_Offset) rank * g->data;
    if (g->kind == VECTOR) {
        MPI_Type_vector(n, g->data, stride, MPI_BYTE, ft);
        *nbytes = n * g->data;
    } else if (g->kind == INDEXED) {
        /* irregular blocks inside each period, shorter than data */
        int len[3000], at[3000];
        *nbytes = 0;
        for (int k = 0; k < n; k++) {
            len[k] = 1 + (g->data * (k % 3 + 1)) / 3 - (k % 3 == 2 ? 0 : 1);
            if (len[k] > g->data) len[k] = g->data;
            at[k] = k * stride + (g->data - len[k]) * (k % 2);
            *nbytes += len[k];
        }
        MPI_Type_indexed(n, len, at, MPI_BYTE, ft);
    } else if (g->kind == STRUCT) {
        /* byte blocks and int blocks (when data is a multiple of 4) */
        int len[3000];
        MPI_Aint at[3000];
        MPI_Datatype types[3000];
        *nbytes = 0;
        for (int k = 0; k < n; k++) {
            int ints = g->data % 4 == 0 && k % 2;
            types[k] = ints ? MPI_INT : MPI_BYTE;
            len[k] = ints ? g->data / 4 : g->data;
            at[k] = (MPI_Aint) k * stride;
            *nbytes += g->data;
        }
        MPI_Type_create_struct(n, len, at, types, ft);
    } else if (g->kind == RESIZED) {
        /* data bytes resized to the stride: the view tiles it */
        MPI_Datatype c;
        MPI_Type_contiguous(g->data, MPI_BYTE, &c);
        MPI_Type_create_resized(c, 0, stride, ft);
        MPI_Type_free(&c);
        *nbytes = n * g->data;
    } else {
        /* rows of a [n][stride] byte array; this rank's columns [rank*data, +data) */
        int sizes[2] = { n, stride }, sub[2] = { n, g->data }, start[2] = { 0, rank * g->data };
        MPI_Type_create_subarray(2, sizes, sub, start, MPI_ORDER_C, MPI_BYTE, ft);
        *disp = g->init;
        *nbytes = n * g->data;
    }
    MPI_Type_commit(ft);
}

/* memory: contiguous, or 3 of every 5 bytes */
static void make_mem(const struct grid_case *g, int nbytes, MPI_Datatype *mt, int *count,
                     size_t *alloc)
{
    if (!g->mem_noncontig || nbytes % 3) {
        *mt = MPI_BYTE;
        *count = nbytes;
        *alloc = nbytes;
        return;
    }
    MPI_Type_vector(nbytes / 3, 3, 5, MPI_BYTE, mt);
    MPI_Type_commit(mt);
    *count = 1;
    *alloc = (size_t) (nbytes / 3) * 5;
}

static MPI_Info hints(const char *method, int bufsize)
{
    MPI_Info info;
    char b[32];
    MPI_Info_create(&info);
    if (method) {
        MPI_Info_set(info, "romio_ds_read", "adaptive");
        MPI_Info_set(info, "romio_ds_write", "adaptive");
        MPI_Info_set(info, "romio_ads_method", (char *) method);
    } else {
        MPI_Info_set(info, "romio_ds_read", "disable");
        MPI_Info_set(info, "romio_ds_write", "disable");
    }
    snprintf(b, sizeof(b), "%d", bufsize);
    MPI_Info_set(info, "ind_rd_buffer_size", b);
    MPI_Info_set(info, "ind_wr_buffer_size", b);
    return info;
}

/* rank 0 fills the file with a background pattern of size bytes */
static void background(const char *path, MPI_Offset size)
{
    MPI_File fh;
    T_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
    T_MPI(MPI_File_set_size(fh, 0));
    if (rank == 0) {
        unsigned char *b = malloc(size);
        for (MPI_Offset k = 0; k < size; k++)
            b[k] = t_pattern(k, 9);
        T_MPI(MPI_File_write_at(fh, 0, b, (int) size, MPI_BYTE, MPI_STATUS_IGNORE));
        free(b);
    }
    T_MPI(MPI_File_close(&fh));
}

static unsigned char *slurp(const char *path, MPI_Offset *size)
{
    MPI_File fh;
    T_MPI(MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh));
    T_MPI(MPI_File_get_size(fh, size));
    unsigned char *b = malloc(*size + 1);
    T_MPI(MPI_File_read_at(fh, 0, b, (int) *size, MPI_BYTE, MPI_STATUS_IGNORE));
    T_MPI(MPI_File_close(&fh));
    return b;
}

/* the file and memory types of a case */
struct types {
    MPI_Datatype ft, mt;
    MPI_Offset disp;
    int nbytes, count;
    size_t alloc;
};

static void types_make(const struct grid_case *g, struct types *t)
{
    make_view(g, &t->ft, &t->disp, &t->nbytes);
    make_mem(g, t->nbytes, &t->mt, &t->count, &t->alloc);
}

static void types_free(struct types *t)
{
    MPI_Type_free(&t->ft);
    if (t->mt != MPI_BYTE)
        MPI_Type_free(&t->mt);
}

/* one open/set_view/access/close with the given method (NULL: stock) */
static void access_once(const char *path, const struct grid_case *g, const char *method,
                        unsigned char *buf, int is_write, int explicit_offset)
{
    MPI_File fh;
    struct types t;
    types_make(g, &t);
    MPI_Info info = hints(method, g->bufsize);
    T_MPI(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, info, &fh));
    T_MPI(MPI_File_set_view(fh, t.disp, MPI_BYTE, t.ft, "native", MPI_INFO_NULL));
    if (is_write && explicit_offset)
        T_MPI(MPI_File_write_at(fh, 0, buf, t.count, t.mt, MPI_STATUS_IGNORE));
    else if (is_write)
        T_MPI(MPI_File_write(fh, buf, t.count, t.mt, MPI_STATUS_IGNORE));
    else if (explicit_offset)
        T_MPI(MPI_File_read_at(fh, 0, buf, t.count, t.mt, MPI_STATUS_IGNORE));
    else
        T_MPI(MPI_File_read(fh, buf, t.count, t.mt, MPI_STATUS_IGNORE));
    T_MPI(MPI_File_close(&fh));
    MPI_Info_free(&info);
    types_free(&t);
}

static size_t buf_len(const struct grid_case *g)
{
    struct types t;
    types_make(g, &t);
    types_free(&t);
    return t.alloc;
}

static void describe(char *s, size_t n, const struct grid_case *g)
{
    snprintf(s, n, "%s data=%d hole=%d init=%d mem=%s buf=%d%s bg=%d", kind_names[g->kind],
             g->data, g->hole, g->init, g->mem_noncontig ? "strided" : "contig", g->bufsize,
             g->many ? " many" : "", g->bg);
}

static int check_writes(const struct grid_case *g, int iter)
{
    char ref[1200], path[1200], what[200];
    size_t len = buf_len(g);
    unsigned char *buf = malloc(len + 1);
    for (size_t k = 0; k < len; k++)
        buf[k] = (unsigned char) (rank * 61 + k * 7 + iter);
    MPI_Offset bg = g->bg ? g->bg : g->many ? 4 << 20 : 3 * (64 << 10);
    snprintf(ref, sizeof(ref), "%s/w-ref", dir);
    background(ref, bg);
    access_once(ref, g, NULL, buf, 1, iter % 2);
    MPI_Offset rsize = 0, size = 0;
    unsigned char *want = rank == 0 ? slurp(ref, &rsize) : NULL;
    int bad = 0;
    for (int m = 0; m < NMETHODS; m++) {
        snprintf(path, sizeof(path), "%s/w-%s", dir, methods[m]);
        background(path, bg);
        access_once(path, g, methods[m], buf, 1, iter % 2);
        if (rank == 0) {
            unsigned char *got = slurp(path, &size);
            describe(what, sizeof(what), g);
            T_CHECK(size == rsize && memcmp(got, want, size) == 0,
                    "write %s differs from stock: %s (size %lld vs %lld)", methods[m], what,
                    (long long) size, (long long) rsize);
            bad += !(size == rsize && memcmp(got, want, size) == 0);
            free(got);
        }
    }
    free(want);
    free(buf);
    return bad;
}

static int check_reads(const struct grid_case *g)
{
    char path[1200], what[200];
    size_t len = buf_len(g);
    unsigned char *want = malloc(len + 1), *got = malloc(len + 1);
    snprintf(path, sizeof(path), "%s/r", dir);
    /* the file ends inside the views: reads cross the end of file */
    background(path, g->init + (MPI_Offset) (g->many ? 4 << 20 : 24 << 10));
    memset(want, 0xee, len);
    access_once(path, g, NULL, want, 0, 0);
    int bad = 0;
    for (int m = 0; m < NMETHODS; m++) {
        memset(got, 0xee, len);
        access_once(path, g, methods[m], got, 0, m % 2);
        describe(what, sizeof(what), g);
        size_t at = 0;
        while (at < len && got[at] == want[at])
            at++;
        int same = at == len;
        T_CHECK(same, "read %s differs from stock: %s (at byte %zu of %zu: %02x, stock %02x)",
                methods[m], what, at, len, same ? 0 : got[at], same ? 0 : want[at]);
        bad += !same;
    }
    free(want);
    free(got);
    return bad;
}

/* regular views of tiny pieces, 3000 per call (windows of many pieces, the
 * buffer limit, reads past the end of file) */
static int check_tiny(int *cases)
{
    static const int datas[] = { 1, 8, 64 }, holes[] = { 0, 8, 64, 4096 };
    int bad = 0;
    for (int k = 0; k < 2; k++)
        for (size_t d = 0; d < 3; d++)
            for (size_t h = 0; h < 4; h++) {
                if ((d + h + k) % nprocs)
                    continue;       /* more ranks share the 2 cores: a part */
                (*cases)++;
                struct grid_case g = {.kind = k ? RESIZED : VECTOR, .data = datas[d],
                    .hole = holes[h], .init = (int) (d + h) % 2 * 3, .mem_noncontig = h == 2,
                    .bufsize = (d + k) % 2 ? 65536 : 1 << 20, .many = 1};
                bad += check_writes(&g, *cases);
                bad += check_reads(&g);
            }
    return bad;
}

int main(int argc, char **argv)
{
    static const int datas[] = { 1, 8, 100, 4096 }, holes[] = { 0, 8, 100, 5000, 70000 };
    static const int inits[] = { 0, 4103 };
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    snprintf(dir, sizeof(dir), "%s", argc > 1 ? argv[1] : ".");
    int quick = argc > 2, cases = 0, bad = 0;
    if (argc > 2 && strcmp(argv[2], "tiny") == 0) {
        bad = check_tiny(&cases);
        if (rank == 0)
            printf("%d tiny cases x %d methods, %d mismatches\n", cases, NMETHODS, bad);
        return t_finish("t_ads");
    }
    for (int k = 0; k < NKINDS; k++)
        for (size_t d = 0; d < 4; d++)
            for (size_t h = 0; h < 5; h++)
                for (size_t i = 0; i < 2; i++) {
                    if (quick && (d + h + i + k) % 3)
                        continue;
                    struct grid_case g = {.kind = k, .data = datas[d], .hole = holes[h],
                        .init = inits[i], .mem_noncontig = (d + h) % 2,
                        .bufsize = (h + k) % 2 ? 4096 : 65536};
                    bad += check_writes(&g, cases);
                    bad += check_reads(&g);
                    cases++;
                }
    /* many pieces per window: iovec batches and long copy windows */
    static const struct grid_case many[] = {
        {VECTOR, 2048, 8, 5, 0, 1 << 20, 1}, {INDEXED, 4096, 100, 0, 0, 4 << 20, 1},
        {VECTOR, 1500, 0, 0, 1, 1 << 20, 1}, {STRUCT, 8, 8, 3, 0, 65536, 1},
        {VECTOR, 3000, 3, 0, 1, 8 << 20, 1},
        /* mostly past the end of file, large holes: windows cut by the
         * buffer run on to the next piece, holes written from zeros */
        {VECTOR, 1024, 15360, 0, 0, 65536, 64, 10000}, {VECTOR, 4096, 5000, 3, 1, 32768, 64, 1},
        {INDEXED, 1024, 9000, 0, 0, 65536, 64, 70000}, {STRUCT, 512, 20000, 5, 1, 1 << 20, 64, 1},
    };
    for (size_t k = 0; k < sizeof(many) / sizeof(many[0]); k++, cases++) {
        bad += check_writes(&many[k], cases);
        bad += check_reads(&many[k]);
    }
    if (rank == 0)
        printf("%d cases x %d methods, %d mismatches\n", cases, NMETHODS, bad);
    return t_finish("t_ads");
}

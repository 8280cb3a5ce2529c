/* Noncontiguous sweep for adaptive data sieving (1 rank).
 *   ads_bench --dir DIR [--reps N] [--data-budget BYTES] [--extent-budget BYTES]
 *             [--min-pieces N] [--datas A,B,..] [--holes A,B,..] [--modes M,..]
 *             [--variants V,..]   (reduced grids for development)
 * For every (data, hole) cell of a vector file view: a write (file evicted
 * from the page cache first, MPI_File_sync included), a warm read and a cold
 * read (file evicted first), each under every variant in turn (stock
 * disable, stock enable, and each adaptive method, set by MPI_Info), so that
 * all variants of a cell are measured under the same machine load.  Each
 * call moves min(data budget, extent budget) worth of the pattern.  Reads
 * are checked against the file's known contents.  One line per measurement:
 *   RESULT variant=V mode=M data=D hole=H rep=R bytes=B seconds=S MBps=X file=F */
#define _GNU_SOURCE
#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../xt_cold.h"

enum { MAXAXIS = 16 };
static long long datas[MAXAXIS] = { 8, 64, 512, 4096, 32768, 262144, 1048576 };
static long long holes[MAXAXIS] = { 0, 8, 64, 512, 4096, 32768, 262144, 1048576, 4194304 };
static int ndata = 7, nhole = 9;

/* each call moves min(data budget, extent budget) worth of the pattern, but
 * at least min_pieces pieces (within the extent budget): a cell of one
 * piece has nothing to sieve */
static long long data_budget = 1 << 20, extent_budget = 64 << 20, min_pieces = 8;

static const struct variant {
    const char *name, *ds, *method;
} variants[] = {
    {"disable", "disable", NULL}, {"enable", "enable", NULL},
    {"naive", "adaptive", "naive"}, {"romio", "adaptive", "romio"},
    {"model", "adaptive", "model"}, {"extent", "adaptive", "extent"},
    {"adaptive", "adaptive", "adaptive"},
};
enum { NVARIANTS = sizeof(variants) / sizeof(variants[0]) };

static MPI_Info variant_info(const struct variant *v)
{
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "romio_ds_read", (char *) v->ds);
    MPI_Info_set(info, "romio_ds_write", (char *) v->ds);
    if (v->method)
        MPI_Info_set(info, "romio_ads_method", (char *) v->method);
    return info;
}

static unsigned char pattern(long long off)
{
    return (unsigned char) ((off * 131 + (off >> 9)) & 0xff);
}

/* the dense file every cell reads and writes, in the page cache or not */
static void make_dense(const char *path, long long size)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    unsigned char *b = malloc(1 << 20);
    if (fd < 0 || !b) {
        perror(path);
        exit(1);
    }
    for (long long off = 0; off < size; off += 1 << 20) {
        for (int k = 0; k < 1 << 20; k++)
            b[k] = pattern(off + k);
        if (pwrite(fd, b, 1 << 20, off) != 1 << 20) {
            perror("pwrite");
            exit(1);
        }
    }
    fsync(fd);
    close(fd);
    free(b);
}

static long long pieces(long long data, long long hole)
{
    long long n = data_budget / data, m = extent_budget / (data + hole);
    if (n < min_pieces)
        n = min_pieces;
    n = n < m ? n : m;
    return n > 0 ? n : 1;
}

/* read check: piece k of the view holds the dense pattern at its offset */
static int verify(const unsigned char *buf, long long n, long long data, long long hole)
{
    for (long long k = 0; k < n; k++)
        for (long long b = 0; b < data; b++)
            if (buf[k * data + b] != pattern(k * (data + hole) + b))
                return 0;
    return 1;
}

static double measure(const char *path, const struct variant *var, const char *mode,
                      long long data, long long hole, unsigned char *buf, int check)
{
    MPI_Info info = variant_info(var);
    MPI_File fh;
    MPI_Datatype ft;
    long long n = pieces(data, hole);
    int is_write = strcmp(mode, "write") == 0;
    if (strcmp(mode, "read_warm") != 0)
        xt_cold_drop(path);
    MPI_Type_vector((int) n, (int) data, (int) (data + hole), MPI_BYTE, &ft);
    MPI_Type_commit(&ft);
    MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR, info, &fh);
    MPI_Info_free(&info);
    MPI_File_set_view(fh, 0, MPI_BYTE, ft, "native", MPI_INFO_NULL);
    if (strcmp(mode, "read_warm") == 0)     /* warm up: the same read once */
        MPI_File_read_at(fh, 0, buf, (int) (n * data), MPI_BYTE, MPI_STATUS_IGNORE);
    double t0 = MPI_Wtime();
    if (is_write) {
        MPI_File_write_at(fh, 0, buf, (int) (n * data), MPI_BYTE, MPI_STATUS_IGNORE);
        MPI_File_sync(fh);
    } else {
        MPI_File_read_at(fh, 0, buf, (int) (n * data), MPI_BYTE, MPI_STATUS_IGNORE);
    }
    double t = MPI_Wtime() - t0;
    MPI_File_close(&fh);
    MPI_Type_free(&ft);
    if (check && !is_write && !verify(buf, n, data, hole)) {
        fprintf(stderr, "VERIFY FAILED: %s %s data=%lld hole=%lld\n", var->name, mode, data, hole);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return t;
}

static void run_one(const char *path, const struct variant *var, const char *mode,
                    long long data, long long hole, int rep, unsigned char *buf)
{
    long long n = pieces(data, hole);
    if (strcmp(mode, "write") == 0)     /* writes put the pattern back: reads stay checkable */
        for (long long k = 0; k < n * data; k++)
            buf[k] = pattern(k / data * (data + hole) + k % data);
    double t = measure(path, var, mode, data, hole, buf, rep == 0);
    printf("RESULT variant=%s mode=%s data=%lld hole=%lld rep=%d bytes=%lld seconds=%.9f "
           "MBps=%.3f file=%s\n", var->name, mode, data, hole, rep, n * data, t,
           n * data / t / 1e6, path);
    fflush(stdout);
}

static const char *const modes[] = { "write", "read_warm", "read_cold" };
static int mode_on[3] = { 1, 1, 1 }, variant_on[NVARIANTS];

/* "a,b,c" -> numbers; returns how many */
static int parse_list(const char *arg, long long *out)
{
    int n = 0;
    for (const char *p = arg; *p && n < MAXAXIS; p = strchr(p, ',') ? strchr(p, ',') + 1 : "")
        out[n++] = atoll(p);
    return n;
}

/* "a,b" -> on[k] set for the names in it */
static void parse_names(const char *arg, const char *const *names, size_t stride, int n, int *on)
{
    for (int k = 0; k < n; k++) {
        const char *name = *(const char *const *) ((const char *) names + k * stride);
        size_t len = strlen(name);
        const char *p = strstr(arg, name);
        on[k] = p && (p == arg || p[-1] == ',') && (p[len] == ',' || p[len] == 0);
    }
}

int main(int argc, char **argv)
{
    const char *dir = ".";
    int reps = 3;
    MPI_Init(&argc, &argv);
    for (int a = 1; a + 1 < argc; a += 2) {
        if (!strcmp(argv[a], "--dir")) dir = argv[a + 1];
        else if (!strcmp(argv[a], "--reps")) reps = atoi(argv[a + 1]);
        else if (!strcmp(argv[a], "--data-budget")) data_budget = atoll(argv[a + 1]);
        else if (!strcmp(argv[a], "--extent-budget")) extent_budget = atoll(argv[a + 1]);
        else if (!strcmp(argv[a], "--min-pieces")) min_pieces = atoll(argv[a + 1]);
        else if (!strcmp(argv[a], "--datas")) ndata = parse_list(argv[a + 1], datas);
        else if (!strcmp(argv[a], "--holes")) nhole = parse_list(argv[a + 1], holes);
        else if (!strcmp(argv[a], "--modes"))
            parse_names(argv[a + 1], modes, sizeof(modes[0]), 3, mode_on);
        else if (!strcmp(argv[a], "--variants"))
            parse_names(argv[a + 1], &variants[0].name, sizeof(variants[0]), NVARIANTS,
                        variant_on);
    }
    int any = 0;
    for (int v = 0; v < NVARIANTS; v++)
        any |= variant_on[v];
    for (int v = 0; v < NVARIANTS; v++)
        variant_on[v] |= !any;      /* all by default */
    char path[4096];
    snprintf(path, sizeof(path), "%s/ads-dense.dat", dir);
    make_dense(path, extent_budget + (8 << 20));
    long long maxdata = 0;
    for (int d = 0; d < ndata; d++)
        maxdata = datas[d] > maxdata ? datas[d] : maxdata;
    unsigned char *buf = malloc(data_budget + min_pieces * maxdata + (1 << 20));
    for (int d = 0; d < ndata; d++)
        for (int h = 0; h < nhole; h++)
            for (int m = 0; m < 3; m++)
                for (int r = 0; r < reps; r++)
                    for (int v = 0; v < NVARIANTS; v++)
                        if (mode_on[m] && variant_on[v])
                            run_one(path, &variants[v], modes[m], datas[d], holes[h], r, buf);
    unlink(path);
    free(buf);
    MPI_Finalize();
    return 0;
}

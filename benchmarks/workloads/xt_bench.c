/* xt_bench: the romio-xt headline workload.
 *
 * Phases (each a write then a read of one shared file, verified):
 *   coll    collective write_all/read_all of a 3D block-block-block darray
 *           of 8-byte elements (like ROMIO's test/coll_perf.c; by default the
 *           fastest dimension is split first so the ranks' pieces interleave)
 *   vec     independent write/read through a vector file view: small blocks
 *           with holes, the data-sieving path
 *   contig  independent write_at/read_at of each rank's contiguous segment
 *
 * Every 8-byte word holds pat(file offset / 8), so data read back is checked
 * against the offset it came from.  Writes are timed from open to close and
 * include MPI_File_sync; before each read every rank drops the file from the
 * page cache (posix_fadvise DONTNEED) unless --warm.  Each phase prints
 *   RESULT phase=<name>-<write|read> iter=I bytes=B seconds=S MBps=M file=PATH
 * on rank 0 (bytes summed and seconds max over ranks, MB = 1e6 bytes).
 */
#define _GNU_SOURCE
#include <mpi.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../xt_cold.h"

#define MIB (1024 * 1024)

struct opts {
    const char *dir, *phases;
    int gsize, dims[3];
    long vec_block, vec_hole, vec_mib, contig_mib, chunk_kib;
    int iters, warm, keep;
    MPI_Info info;
};

static int rank, nprocs;

/* one phase: what a rank writes and reads, and where its words live */
struct phase {
    const char *name;
    MPI_Datatype filetype;      /* MPI_DATATYPE_NULL: no view */
    MPI_Offset disp;
    int64_t nwords;             /* this rank's words */
    int64_t (*offset)(const struct phase *, int64_t w);     /* file offset of word w */
    void (*io)(const struct phase *, MPI_File, uint64_t *buf, int write);
    int64_t p[7];               /* phase parameters for offset() */
    long chunk;
};

static uint64_t pat(uint64_t word)
{
    uint64_t z = word + 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    return z ^ (z >> 31);
}

static void die(const char *msg)
{
    fprintf(stderr, "xt_bench: rank %d: %s\n", rank, msg);
    MPI_Abort(MPI_COMM_WORLD, 2);
}

/* ---- phase geometry --------------------------------------------------- */

/* coll: p = {gsize, start[3], local size[3]} of this rank's block */
static int64_t coll_offset(const struct phase *ph, int64_t w)
{
    const int64_t g = ph->p[0], *start = ph->p + 1, *n = ph->p + 4;
    int64_t k = w % n[2], j = w / n[2] % n[1], i = w / (n[2] * n[1]);
    return (((start[0] + i) * g + start[1] + j) * g + start[2] + k) * 8;
}

/* vec: p = {block bytes, period bytes}; disp = rank's first block */
static int64_t vec_offset(const struct phase *ph, int64_t w)
{
    int64_t b = w * 8;
    return ph->disp + b / ph->p[0] * ph->p[1] + b % ph->p[0];
}

/* contig: one segment per rank */
static int64_t contig_offset(const struct phase *ph, int64_t w)
{
    return ph->disp + w * 8;
}

static void io_all(const struct phase *ph, MPI_File fh, uint64_t *buf, int write)
{
    MPI_Count n = ph->nwords;
    if (n > INT32_MAX)
        die("phase too large");
    if (write)
        MPI_File_write_all(fh, buf, (int) n, MPI_UINT64_T, MPI_STATUS_IGNORE);
    else
        MPI_File_read_all(fh, buf, (int) n, MPI_UINT64_T, MPI_STATUS_IGNORE);
}

static void io_indep(const struct phase *ph, MPI_File fh, uint64_t *buf, int write)
{
    int64_t step = ph->chunk / 8;
    for (int64_t w = 0; w < ph->nwords; w += step) {
        int n = (int) (ph->nwords - w < step ? ph->nwords - w : step);
        /* in etypes: bytes without a view, words with one */
        MPI_Offset at = ph->filetype == MPI_DATATYPE_NULL ? ph->disp + w * 8 : w;
        if (write)
            MPI_File_write_at(fh, at, buf + w, n, MPI_UINT64_T, MPI_STATUS_IGNORE);
        else
            MPI_File_read_at(fh, at, buf + w, n, MPI_UINT64_T, MPI_STATUS_IGNORE);
    }
}

static struct phase coll_phase(const struct opts *o)
{
    struct phase ph = { "coll", MPI_DATATYPE_NULL, 0, 1, coll_offset, io_all, {0}, 0 };
    int g[3] = { o->gsize, o->gsize, o->gsize }, dims[3];
    int distrib[3] = { MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_BLOCK };
    int dargs[3] = { MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG,
        MPI_DISTRIBUTE_DFLT_DARG };
    /* MPI_Dims_create's grid reversed, so the fastest dimensions are split
     * first and the ranks' pieces interleave in the file (2 ranks: 1x1x2) */
    int auto_dims = !o->dims[0] && !o->dims[1] && !o->dims[2];
    memcpy(dims, o->dims, sizeof(dims));
    MPI_Dims_create(nprocs, 3, dims);
    if (auto_dims) {
        int d0 = dims[0];
        dims[0] = dims[2];
        dims[2] = d0;
    }
    MPI_Type_create_darray(nprocs, rank, 3, g, distrib, dargs, dims, MPI_ORDER_C,
                           MPI_UINT64_T, &ph.filetype);
    MPI_Type_commit(&ph.filetype);
    /* the same decomposition as the darray (row-major process grid) */
    ph.p[0] = o->gsize;
    for (int d = 2, r = rank; d >= 0; r /= dims[d], d--) {
        int coord = r % dims[d];
        int64_t blk = (o->gsize + dims[d] - 1) / dims[d];
        int64_t start = blk * coord, end = start + blk < o->gsize ? start + blk : o->gsize;
        ph.p[1 + d] = start;
        ph.p[4 + d] = end > start ? end - start : 0;
        ph.nwords *= ph.p[4 + d];
    }
    return ph;
}

static struct phase vec_phase(const struct opts *o)
{
    struct phase ph = { "vec", MPI_DATATYPE_NULL, 0, 0, vec_offset, io_indep, {0}, 0 };
    int64_t period = nprocs * o->vec_block + o->vec_hole;
    int64_t nblocks = o->vec_mib * MIB / o->vec_block;
    if (o->vec_block % 8 || o->vec_hole % 8 || nblocks > INT32_MAX)
        die("--vec-block and --vec-hole must be multiples of 8");
    MPI_Type_vector((int) nblocks, (int) (o->vec_block / 8), (int) (period / 8), MPI_UINT64_T,
                    &ph.filetype);
    MPI_Type_commit(&ph.filetype);
    ph.disp = rank * o->vec_block;
    ph.nwords = nblocks * o->vec_block / 8;
    ph.p[0] = o->vec_block;
    ph.p[1] = period;
    ph.chunk = o->chunk_kib * 1024;
    return ph;
}

static struct phase contig_phase(const struct opts *o)
{
    struct phase ph = { "contig", MPI_DATATYPE_NULL, 0, 0, contig_offset, io_indep, {0}, 0 };
    ph.nwords = o->contig_mib * MIB / 8;
    ph.disp = (MPI_Offset) rank * ph.nwords * 8;
    ph.chunk = o->chunk_kib * 1024;
    return ph;
}

/* ---- running a phase -------------------------------------------------- */

static void evict(const char *path)
{
    if (xt_cold_drop(path) != 0)
        fprintf(stderr, "xt_bench: rank %d: cannot evict %s from the page cache\n", rank, path);
}

/* open, write or read, close; returns this rank's elapsed seconds */
static double transfer(const struct phase *ph, const struct opts *o, const char *path,
                       uint64_t *buf, int write)
{
    MPI_File fh;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    int amode = write ? MPI_MODE_CREATE | MPI_MODE_WRONLY : MPI_MODE_RDONLY;
    MPI_File_open(MPI_COMM_WORLD, path, amode, o->info, &fh);     /* errors are fatal */
    if (ph->filetype != MPI_DATATYPE_NULL)
        MPI_File_set_view(fh, ph->disp, MPI_UINT64_T, ph->filetype, "native", o->info);
    ph->io(ph, fh, buf, write);
    if (write)
        MPI_File_sync(fh);
    MPI_File_close(&fh);
    return MPI_Wtime() - t0;
}

static void report(const struct phase *ph, const char *dir, const char *path, int iter,
                   double t)
{
    double tmax;
    int64_t bytes = ph->nwords * 8, total;
    MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Reduce(&bytes, &total, 1, MPI_INT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("RESULT phase=%s-%s iter=%d bytes=%lld seconds=%.6f MBps=%.2f file=%s\n",
               ph->name, dir, iter, (long long) total, tmax, total / tmax / 1e6, path);
    fflush(stdout);
}

static int64_t verify(const struct phase *ph, const uint64_t *buf)
{
    int64_t bad = 0;
    for (int64_t w = 0; w < ph->nwords; w++) {
        int64_t off = ph->offset(ph, w);
        if (buf[w] == pat((uint64_t) off / 8))
            continue;
        if (bad++ == 0)
            fprintf(stderr, "xt_bench: VERIFY FAILED phase=%s rank=%d offset=%lld "
                    "expected=%016llx got=%016llx\n", ph->name, rank, (long long) off,
                    (unsigned long long) pat((uint64_t) off / 8), (unsigned long long) buf[w]);
    }
    return bad;
}

static int64_t run_phase(const struct phase *ph, const struct opts *o, int iter)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/xt_bench.%s", o->dir, ph->name);
    uint64_t *buf = malloc((ph->nwords ? ph->nwords : 1) * 8);
    if (!buf)
        die("out of memory");
    if (rank == 0)
        unlink(path);           /* MPI_File_delete of a missing file would be fatal */
    for (int64_t w = 0; w < ph->nwords; w++)
        buf[w] = pat((uint64_t) ph->offset(ph, w) / 8);
    report(ph, "write", path, iter, transfer(ph, o, path, buf, 1));

    memset(buf, 0xa5, ph->nwords * 8);
    if (!o->warm)
        evict(path);
    report(ph, "read", path, iter, transfer(ph, o, path, buf, 0));

    int64_t bad = verify(ph, buf), allbad;
    MPI_Allreduce(&bad, &allbad, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && allbad)
        fprintf(stderr, "xt_bench: phase %s: %lld words differ from what was written\n",
                ph->name, (long long) allbad);
    if (rank == 0 && !o->keep)
        MPI_File_delete(path, MPI_INFO_NULL);
    free(buf);
    return allbad;
}

/* ---- options ---------------------------------------------------------- */

static void usage(void)
{
    if (rank == 0)
        fprintf(stderr,
                "usage: xt_bench [options]\n"
                "  --dir D           directory for the files (default .)\n"
                "  --phases LIST     comma list of coll,vec,contig (default all)\n"
                "  --gsize N         coll: global array edge, N^3 8-byte words (default 256)\n"
                "  --dims AxBxC      coll: process grid, 0s filled by MPI_Dims_create (default:\n"
                "                    its grid reversed, fastest dimension split first: 1x1x2)\n"
                "  --iters N         run each phase N times (default 1)\n"
                "  --vec-block B     vec: block bytes (default 256)\n"
                "  --vec-hole H      vec: hole bytes after each round of blocks (default 256)\n"
                "  --vec-mib M       vec: MiB per rank (default 32)\n"
                "  --contig-mib M    contig: MiB per rank (default 64)\n"
                "  --chunk-kib K     vec/contig: bytes per call in KiB (default 1024)\n"
                "  --warm            do not evict files from the page cache before reads\n"
                "  --keep            keep the files\n"
                "  --hint KEY=VALUE  MPI_Info hint for open and set_view (repeatable)\n");
    MPI_Finalize();
    exit(2);
}

static void add_hint(struct opts *o, const char *kv)
{
    char key[MPI_MAX_INFO_KEY + 1];
    const char *eq = strchr(kv, '=');
    if (!eq || eq == kv || eq - kv > MPI_MAX_INFO_KEY)
        usage();
    memcpy(key, kv, eq - kv);
    key[eq - kv] = '\0';
    if (o->info == MPI_INFO_NULL)
        MPI_Info_create(&o->info);
    MPI_Info_set(o->info, key, eq + 1);
}

static void parse(int argc, char **argv, struct opts *o)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--warm"))
            o->warm = 1;
        else if (!strcmp(a, "--keep"))
            o->keep = 1;
        else if (!v)
            usage();
        else if (!strcmp(a, "--dir"))
            o->dir = v;
        else if (!strcmp(a, "--phases"))
            o->phases = v;
        else if (!strcmp(a, "--iters"))
            o->iters = atoi(v);
        else if (!strcmp(a, "--gsize"))
            o->gsize = atoi(v);
        else if (!strcmp(a, "--dims")) {
            if (sscanf(v, "%dx%dx%d", &o->dims[0], &o->dims[1], &o->dims[2]) != 3)
                usage();
        } else if (!strcmp(a, "--vec-block"))
            o->vec_block = atol(v);
        else if (!strcmp(a, "--vec-hole"))
            o->vec_hole = atol(v);
        else if (!strcmp(a, "--vec-mib"))
            o->vec_mib = atol(v);
        else if (!strcmp(a, "--contig-mib"))
            o->contig_mib = atol(v);
        else if (!strcmp(a, "--chunk-kib"))
            o->chunk_kib = atol(v);
        else if (!strcmp(a, "--hint"))
            add_hint(o, v);
        else
            usage();
        i++;
    }
    if (o->iters <= 0 || o->gsize <= 0 || o->vec_block <= 0 || o->vec_hole < 0 || o->vec_mib <= 0 ||
        o->contig_mib <= 0 || o->chunk_kib <= 0)
        usage();
}

static int wanted(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; (p = strstr(p, name)); p += n)
        if ((p == list || p[-1] == ',') && (p[n] == ',' || p[n] == '\0'))
            return 1;
    return 0;
}

int main(int argc, char **argv)
{
    struct opts o = { .dir = ".", .phases = "coll,vec,contig", .gsize = 256, .vec_block = 256,
        .vec_hole = 256, .vec_mib = 32, .contig_mib = 64, .chunk_kib = 1024, .iters = 1,
        .info = MPI_INFO_NULL };
    struct phase (*const make[])(const struct opts *) = { coll_phase, vec_phase, contig_phase };
    const char *const names[] = { "coll", "vec", "contig" };
    int64_t bad = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_ARE_FATAL);
    parse(argc, argv, &o);
    for (int i = 0; i < 3; i++) {
        if (!wanted(o.phases, names[i]))
            continue;
        struct phase ph = make[i](&o);
        for (int it = 0; it < o.iters; it++)
            bad += run_phase(&ph, &o, it);
        if (ph.filetype != MPI_DATATYPE_NULL)
            MPI_Type_free(&ph.filetype);
    }
    if (o.info != MPI_INFO_NULL)
        MPI_Info_free(&o.info);
    MPI_Finalize();
    return bad ? 1 : 0;
}

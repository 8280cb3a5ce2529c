/* NVM write-behind benchmark workloads (MPI-IO), the paper's workflow (see
 * nvc_timing.h) on k files:
 *   collperf  coll_perf: 3D block-block-block darray of ints, one write_all
 *   ior       IOR: each rank one contiguous block per segment, write_at_all
 * usage: nvc_bench --dir DIR --pattern collperf|ior [--files K] [--compute S]
 *        [--busy 1 (compute by arithmetic, nvc_timing.h)]
 *        [--n N (collperf: N^3 ints)] [--segments S --block BYTES (ior)]
 * Rank 0 checks every file's bytes after close; exits 1 on a mismatch. */
#include "nvc_timing.h"
#include "../../test/mpi/darray.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>

static int rank, nprocs;

static unsigned char pat(long long off, int file)
{
    uint64_t x = (uint64_t) off * 0x9E3779B97F4A7C15ull + file;
    return (unsigned char) (x >> 56);
}

static void fill(unsigned char *b, long long off, long long len, int file)
{
    for (long long k = 0; k < len; k++)
        b[k] = pat(off + k, file);
}

/* the darray piece of this rank, in memory order; returns its element count */
static long long collperf_buf(int n, int file, MPI_Datatype *darray, unsigned char **out)
{
    struct xt_darray d;
    xt_darray_make(n, nprocs, rank, &d);
    *darray = d.type;
    unsigned char *b = malloc(4 * d.count), *p = b;
    for (int i = 0; i < d.ls[0]; i++)
        for (int j = 0; j < d.ls[1]; j++) {
            fill(p, 4 * xt_darray_row(&d, n, i, j), 4LL * d.ls[2], file);
            p += 4LL * d.ls[2];
        }
    *out = b;
    return d.count;
}

static int verify(const char *path, long long size, int file)
{
    int fd = open(path, O_RDONLY), ok = fd >= 0;
    unsigned char *b = malloc(1 << 20);
    for (long long off = 0; ok && off < size; off += 1 << 20) {
        long long n = size - off < (1 << 20) ? size - off : (1 << 20);
        ok = pread(fd, b, n, off) == n;
        for (long long k = 0; ok && k < n; k++)
            ok = b[k] == pat(off + k, file);
    }
    free(b);
    if (fd >= 0)
        close(fd);
    return ok;
}

int main(int argc, char **argv)
{
    const char *dir = ".", *pattern = "collperf";
    int files = 4, n = 256, segments = 8;
    long long block = 4 << 20;
    double compute = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    for (int a = 1; a + 1 < argc; a += 2) {
        if (!strcmp(argv[a], "--dir")) dir = argv[a + 1];
        else if (!strcmp(argv[a], "--pattern")) pattern = argv[a + 1];
        else if (!strcmp(argv[a], "--files")) files = atoi(argv[a + 1]);
        else if (!strcmp(argv[a], "--compute")) compute = atof(argv[a + 1]);
        else if (!strcmp(argv[a], "--n")) n = atoi(argv[a + 1]);
        else if (!strcmp(argv[a], "--segments")) segments = atoi(argv[a + 1]);
        else if (!strcmp(argv[a], "--block")) block = atoll(argv[a + 1]);
        else if (!strcmp(argv[a], "--busy")) nvc_busy = atoi(argv[a + 1]);
    }
    if (nvc_busy)
        nvc_calibrate();
    int bad = 0, ior = !strcmp(pattern, "ior");
    long long size = ior ? (long long) segments * nprocs * block : 4LL * n * n * n;
    for (int f = 0; f < files; f++) {
        char path[4096];
        struct nvc_times t = { 0 };
        MPI_File fh;
        MPI_Datatype darray = MPI_DATATYPE_NULL;
        unsigned char *buf = NULL;
        long long cnt = ior ? 0 : collperf_buf(n, f, &darray, &buf);
        if (ior)
            buf = malloc(block);
        snprintf(path, sizeof(path), "%s/%s.%d.dat", dir, pattern, f);
        MPI_Barrier(MPI_COMM_WORLD);
        t.t0 = MPI_Wtime();
        MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
        if (ior) {
            for (int s = 0; s < segments; s++) {
                long long off = ((long long) s * nprocs + rank) * block;
                fill(buf, off, block, f);   /* IOR refills its buffer too */
                MPI_File_write_at_all(fh, off, buf, (int) block, MPI_BYTE, MPI_STATUS_IGNORE);
            }
        } else {
            MPI_File_set_view(fh, 0, MPI_INT, darray, "native", MPI_INFO_NULL);
            MPI_File_write_all(fh, buf, (int) cnt, MPI_INT, MPI_STATUS_IGNORE);
        }
        t.write = MPI_Wtime() - t.t0;
        nvc_compute(&t, compute);
        double s0 = MPI_Wtime();
        if (MPI_File_sync(fh) != MPI_SUCCESS)
            bad = 1;
        t.sync = MPI_Wtime() - s0;
        s0 = MPI_Wtime();
        if (MPI_File_close(&fh) != MPI_SUCCESS)
            bad = 1;
        t.close = MPI_Wtime() - s0;
        nvc_report(pattern, f, size, &t, compute, path);
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 0 && !verify(path, size, f)) {
            fprintf(stderr, "nvc_bench: %s: wrong bytes\n", path);
            bad = 1;
        }
        if (rank == 0)
            unlink(path);
        if (darray != MPI_DATATYPE_NULL)
            MPI_Type_free(&darray);
        free(buf);
    }
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Finalize();
    return bad;
}

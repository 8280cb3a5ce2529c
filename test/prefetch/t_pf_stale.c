/* Prefetched data must never be stale (docs/prefetch.md), byte-checked, 2+ ranks:
 *   t_pf_stale FILE PATTERN [key=value ...]
 * The file (NB blocks of BS bytes per rank) starts as t_pattern(off, 1).
 * Rank 1 first reads rank 0's region (the prefetcher caches it and the blocks
 * ahead), then rank 0's region is rewritten as t_pattern(off, 2) and rank 1
 * reads it again, without MPI_File_sync unless the pattern says so:
 *   indep      rank 0 writes independently, MPI_Barrier (HDF5's t_shapesame
 *              sscontig3; on a file open for writing the buffer method is
 *              switched off: romio_prefetch must read back 'disable')
 *   coll       every rank writes its region with MPI_File_write_at_all, then
 *              rank 1 reads it with MPI_File_read_at_all (HDF5's
 *              t_filters_parallel: collective write, collective read) */
#include "../mpi/common.h"

#include <stdlib.h>
#include <string.h>

enum { BS = 64 << 10, NB = 4, REGION = BS * NB };

static int rank, nprocs;

static void fill(unsigned char *b, long long off, long long n, int seed)
{
    for (long long k = 0; k < n; k++)
        b[k] = t_pattern(off + k, seed);
}

static void check(const char *what, const unsigned char *b, long long off, long long n, int seed)
{
    for (long long k = 0; k < n; k++)
        if (b[k] != t_pattern(off + k, seed)) {
            T_CHECK(0, "%s: byte %lld is %d, want %d (%s)", what, off + k, b[k],
                    t_pattern(off + k, seed),
                    b[k] == t_pattern(off + k, 1) ? "the old data: stale" : "garbage");
            return;
        }
}

/* rank 0's region, read on rank 1 (collective: the other ranks read nothing) */
static void read_region0(MPI_File fh, int seed, const char *what, int coll)
{
    unsigned char *r = malloc(REGION);
    MPI_Status st;
    if (coll) {
        T_MPI(MPI_File_read_at_all(fh, 0, r, rank == 1 ? REGION : 0, MPI_BYTE, &st));
        if (rank == 1)
            check(what, r, 0, REGION, seed);
    } else if (rank == 1) {
        for (int b = 0; b < NB; b++)    /* block by block, as a reader scanning */
            T_MPI(MPI_File_read_at(fh, (MPI_Offset) b * BS, r + b * BS, BS, MPI_BYTE, &st));
        check(what, r, 0, REGION, seed);
    }
    free(r);
}

int main(int argc, char **argv)
{
    MPI_File fh;
    MPI_Info info;
    MPI_Status st;
    char val[256];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    if (argc < 3 || nprocs < 2) {
        fprintf(stderr, "usage: t_pf_stale FILE indep|coll [key=value ...] (2+ ranks)\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    const char *pat = argv[2];
    MPI_Info_create(&info);
    for (int a = 3; a < argc; a++) {
        char *eq = strchr(argv[a], '=');
        if (eq) {
            *eq = '\0';
            MPI_Info_set(info, argv[a], eq + 1);
        }
    }
    long long total = (long long) nprocs * REGION, mine = (long long) rank * REGION;
    unsigned char *w = malloc(REGION);
    /* the old contents, written without prefetch */
    T_MPI(MPI_File_open(MPI_COMM_WORLD, argv[1], MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL,
                        &fh));
    T_MPI(MPI_File_set_size(fh, total));
    fill(w, mine, REGION, 1);
    T_MPI(MPI_File_write_at_all(fh, mine, w, REGION, MPI_BYTE, &st));
    T_MPI(MPI_File_close(&fh));

    T_MPI(MPI_File_open(MPI_COMM_WORLD, argv[1], MPI_MODE_RDWR, info, &fh));
    /* on a writable file: the buffer method is switched off, fadvise stays */
    char method[64], pf[64];
    t_info_value(fh, "romio_xt_layers", val, sizeof(val));
    t_info_value(fh, "romio_prefetch_method", method, sizeof(method));
    t_info_value(fh, "romio_prefetch", pf, sizeof(pf));
    if (strcmp(method, "buffer") == 0)
        T_CHECK(strstr(val, "prefetch") == NULL && strcmp(pf, "disable") == 0,
                "buffer prefetch on a writable file: layers '%s', romio_prefetch '%s'", val, pf);
    else
        T_CHECK(strstr(val, "prefetch") != NULL, "no prefetch layer: '%s'", val);
    read_region0(fh, 1, "first read", 0);
    MPI_Barrier(MPI_COMM_WORLD);

    fill(w, mine, REGION, 2);
    if (strcmp(pat, "indep") == 0) {
        if (rank == 0)
            T_MPI(MPI_File_write_at(fh, 0, w, REGION, MPI_BYTE, &st));
        MPI_Barrier(MPI_COMM_WORLD);
    } else {
        T_MPI(MPI_File_write_at_all(fh, mine, w, REGION, MPI_BYTE, &st));
    }
    read_region0(fh, 2, pat, strcmp(pat, "coll") == 0);
    T_MPI(MPI_File_close(&fh));
    MPI_Info_free(&info);
    free(w);
    return t_finish("t_pf_stale");
}

/* Reads of other processes' data under the e10 cache (its consistency rules,
 * docs/nvm_cache.md), byte-checked:
 *   t_nvc_stale FILE PATTERN [key=value ...]
 * Every rank writes its slice of SLICE bytes (contiguous, cached) with
 * t_pattern(off, 7), then, without MPI_File_sync, reads the next rank's slice
 * (only that: reading its own cached data would sync it):
 *   barrier-read   MPI_Barrier, independent read (HDF5's t_shapesame
 *                  sscontig1; needs e10_cache=strict)
 *   coll-read      MPI_File_read_at_all (a collective read drains every
 *                  rank's cached data in its range first)
 *   coll-coll      as coll-read, the slices written with MPI_File_write_at_all
 *   get-size       MPI_Barrier, MPI_File_get_size must see every slice (strict)
 * In strict mode the independent writes go straight to the file; coll-coll
 * is the pattern whose cached data strict syncs before write_at_all returns.
 * The layer must really be on: romio_xt_layers names nvm_cache. */
#include "../mpi/common.h"

#include <stdlib.h>
#include <string.h>

enum { SLICE = 3 << 18 };       /* 768 KiB: a few sync chunks */

static int rank, nprocs;

static void fill(unsigned char *b, long long off, long long n)
{
    for (long long k = 0; k < n; k++)
        b[k] = t_pattern(off + k, 7);
}

static void check(const char *what, const unsigned char *b, long long off, long long n)
{
    for (long long k = 0; k < n; k++)
        if (b[k] != t_pattern(off + k, 7)) {
            T_CHECK(0, "%s: byte %lld is %d, want %d (written by rank %lld)", what, off + k,
                    b[k], t_pattern(off + k, 7), (off + k) / SLICE);
            return;
        }
}

int main(int argc, char **argv)
{
    MPI_File fh;
    MPI_Info info;
    MPI_Status st;
    char layers[256];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    if (argc < 3) {
        fprintf(stderr, "usage: t_nvc_stale FILE barrier-read|coll-read|coll-coll|get-size "
                "[key=value ...]\n");
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
    if (rank == 0)
        MPI_File_delete(argv[1], MPI_INFO_NULL);
    MPI_Barrier(MPI_COMM_WORLD);
    T_MPI(MPI_File_open(MPI_COMM_WORLD, argv[1], MPI_MODE_CREATE | MPI_MODE_RDWR, info, &fh));
    t_info_value(fh, "romio_xt_layers", layers, sizeof(layers));
    T_CHECK(strstr(layers, "nvm_cache") != NULL, "no nvm_cache layer: '%s'", layers);

    long long total = (long long) nprocs * SLICE, mine = (long long) rank * SLICE;
    unsigned char *w = malloc(SLICE), *r = malloc(total);
    fill(w, mine, SLICE);
    if (strcmp(pat, "coll-coll") == 0)
        T_MPI(MPI_File_write_at_all(fh, mine, w, SLICE, MPI_BYTE, &st));
    else
        T_MPI(MPI_File_write_at(fh, mine, w, SLICE, MPI_BYTE, &st));

    memset(r, 0, total);
    long long other = (long long) ((rank + 1) % nprocs) * SLICE;
    if (strcmp(pat, "barrier-read") == 0) {
        MPI_Barrier(MPI_COMM_WORLD);
        T_MPI(MPI_File_read_at(fh, other, r, SLICE, MPI_BYTE, &st));
        check("independent read after barrier", r, other, SLICE);
    } else if (strcmp(pat, "coll-read") == 0 || strcmp(pat, "coll-coll") == 0) {
        T_MPI(MPI_File_read_at_all(fh, other, r, SLICE, MPI_BYTE, &st));
        check("collective read", r, other, SLICE);
    } else {
        MPI_Offset size = 0;
        MPI_Barrier(MPI_COMM_WORLD);
        T_MPI(MPI_File_get_size(fh, &size));
        T_CHECK(size == total, "MPI_File_get_size after the barrier: %lld, want %lld",
                (long long) size, total);
    }
    T_MPI(MPI_File_close(&fh));
    MPI_Info_free(&info);
    free(w);
    free(r);
    return t_finish("t_nvc_stale");
}

/* Shared helpers for romio-xt's MPI integration tests. */
#ifndef XT_TEST_COMMON_H
#define XT_TEST_COMMON_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int t_errors;

#define T_CHECK(cond, ...)                                                     \
    do {                                                                       \
        if (!(cond)) {                                                         \
            int r_;                                                            \
            MPI_Comm_rank(MPI_COMM_WORLD, &r_);                                \
            fprintf(stderr, "rank %d: %s:%d: check failed: %s: ", r_,          \
                    __FILE__, __LINE__, #cond);                                \
            fprintf(stderr, __VA_ARGS__);                                      \
            fprintf(stderr, "\n");                                             \
            t_errors++;                                                        \
        }                                                                      \
    } while (0)

#define T_MPI(call)                                                            \
    do {                                                                       \
        int e_ = (call);                                                       \
        if (e_ != MPI_SUCCESS) {                                               \
            char s_[MPI_MAX_ERROR_STRING];                                     \
            int l_;                                                            \
            MPI_Error_string(e_, s_, &l_);                                     \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, s_); \
            MPI_Abort(MPI_COMM_WORLD, 2);                                      \
        }                                                                      \
    } while (0)

/* value of key in fh's info, or "" */
static inline void t_info_value(MPI_File fh, const char *key, char *val, int len)
{
    MPI_Info info;
    int flag = 0;
    T_MPI(MPI_File_get_info(fh, &info));
    MPI_Info_get(info, key, len - 1, val, &flag);
    if (!flag)
        val[0] = '\0';
    MPI_Info_free(&info);
}

/* deterministic byte for file offset off */
static inline unsigned char t_pattern(long long off, int seed)
{
    return (unsigned char) ((off * 131 + seed * 7 + (off >> 9)) & 0xff);
}

/* 1 when files a and b exist and hold the same bytes */
static inline int t_same_file(const char *a, const char *b)
{
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    int same = fa && fb;
    while (same) {
        int ca = getc(fa), cb = getc(fb);
        same = ca == cb;
        if (ca == EOF || cb == EOF)
            break;
    }
    if (fa)
        fclose(fa);
    if (fb)
        fclose(fb);
    return same;
}

/* every rank writes 4 KiB at rank * 4 KiB (collective), syncs and reads it
 * back: the bytes must be the ones written */
static inline void t_write_read_check(MPI_File fh, int rank, int seed)
{
    enum { N = 4096 };
    unsigned char out[N], in[N];
    for (int k = 0; k < N; k++)
        out[k] = t_pattern((long long) rank * N + k, seed);
    T_MPI(MPI_File_write_at_all(fh, (MPI_Offset) rank * N, out, N, MPI_BYTE, MPI_STATUS_IGNORE));
    T_MPI(MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    T_MPI(MPI_File_read_at_all(fh, (MPI_Offset) rank * N, in, N, MPI_BYTE, MPI_STATUS_IGNORE));
    T_CHECK(memcmp(in, out, N) == 0, "data read back differs");
}

/* all ranks' error counts summed; rank 0 prints the verdict line */
static inline int t_finish(const char *name)
{
    int total = 0, rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Allreduce(&t_errors, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("%s: %s (%d errors)\n", name, total ? "FAILED" : "OK", total);
    MPI_Finalize();
    return total ? 1 : 0;
}

#endif

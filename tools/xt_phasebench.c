/* romio-xt-phases --calibrate: I/O phases of one kind, timed under settings.
 *   xt_phasebench PATH contiguous|strided shared|fpp write|read COLL BYTES SIZES SETTINGS [PIECES [warm]]
 * For each request size in SIZES (comma list) and each setting (a line
 * "name<TAB>key value;key value..." of the file SETTINGS, given as MPI_Info
 * hints at open), each rank moves BYTES in calls of that size (collective when
 * COLL is 1).  contiguous: a rank's calls follow each other; strided: a file
 * view cuts each call into PIECES blocks (default 1), a rank's blocks one
 * block apart (ranks interleaved in a shared file, holes in a file per
 * process).  Reads first write the data (untimed)
 * and drop it from the page cache (POSIX_FADV_DONTNEED), as the project's
 * benchmarks read cold; with "warm" they keep it there, as a job that reads
 * back what it has just written (coll_perf).  Prints per run, on rank 0:
 *   RESULT <setting> <size> <calls> <seconds>
 * seconds: the slowest rank, from a barrier to its last call's return. */
#define _GNU_SOURCE
#include <mpi.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct kind {
    int strided, shared, is_write, coll, rank, nprocs, pieces, warm;
    const char *base;
};

static void check(int err, const char *what)
{
    if (err != MPI_SUCCESS) {
        char msg[MPI_MAX_ERROR_STRING];
        int len;
        MPI_Error_string(err, msg, &len);
        fprintf(stderr, "xt_phasebench: %s: %s\n", what, msg);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

static double calls(MPI_File fh, int is_write, int coll, char *buf, int rb, int n)
{
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int k = 0; k < n; k++) {
        MPI_Offset off = (MPI_Offset) k * rb;
        if (is_write)
            check(coll ? MPI_File_write_at_all(fh, off, buf, rb, MPI_BYTE, MPI_STATUS_IGNORE)
                  : MPI_File_write_at(fh, off, buf, rb, MPI_BYTE, MPI_STATUS_IGNORE), "write");
        else
            check(coll ? MPI_File_read_at_all(fh, off, buf, rb, MPI_BYTE, MPI_STATUS_IGNORE)
                  : MPI_File_read_at(fh, off, buf, rb, MPI_BYTE, MPI_STATUS_IGNORE), "read");
    }
    return MPI_Wtime() - t0;
}

static void evict(const char *path)
{
    int fd = open(path, O_RDONLY);
    if (fd >= 0) {
        fdatasync(fd);
        posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
        close(fd);
    }
}

static MPI_File open_view(const struct kind *k, const char *path, MPI_Info info, int rb, int n)
{
    int ways = k->strided ? (k->shared ? k->nprocs : 2) : 1;
    int np = k->strided && k->pieces > 1 && rb / k->pieces > 0 ? k->pieces : 1, blk = rb / np;
    MPI_Offset disp = !k->shared ? 0 : k->strided ? (MPI_Offset) k->rank * blk
        : (MPI_Offset) k->rank * rb * n;
    MPI_Datatype vec, ftype;
    MPI_File fh;
    MPI_Type_vector(np, blk, blk * ways, MPI_BYTE, &vec);
    MPI_Type_create_resized(vec, 0, (MPI_Aint) blk * ways * np, &ftype);
    MPI_Type_commit(&ftype);
    check(MPI_File_open(k->shared ? MPI_COMM_WORLD : MPI_COMM_SELF, path,
                        MPI_MODE_CREATE | MPI_MODE_RDWR, info, &fh), "open");
    check(MPI_File_set_view(fh, disp, MPI_BYTE, ftype, "native", MPI_INFO_NULL), "set_view");
    MPI_Type_free(&vec);
    MPI_Type_free(&ftype);
    return fh;
}

/* one timed phase under one setting */
static double run(const struct kind *k, MPI_Info info, char *buf, int rb, int n)
{
    char path[4096];
    MPI_File fh;
    if (k->shared)
        snprintf(path, sizeof(path), "%s", k->base);
    else
        snprintf(path, sizeof(path), "%s.%d", k->base, k->rank);
    if (k->rank == 0 || !k->shared)
        MPI_File_delete(path, MPI_INFO_NULL);
    MPI_Barrier(MPI_COMM_WORLD);
    if (!k->is_write) {
        fh = open_view(k, path, MPI_INFO_NULL, rb, n);
        calls(fh, 1, 0, buf, rb, n);
        check(MPI_File_close(&fh), "close");
        MPI_Barrier(MPI_COMM_WORLD);
        if ((k->rank == 0 || !k->shared) && !k->warm)
            evict(path);
    }
    fh = open_view(k, path, info, rb, n);
    double secs = calls(fh, k->is_write, k->coll, buf, rb, n), max = 0;
    MPI_Allreduce(&secs, &max, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    check(MPI_File_close(&fh), "close");
    return max;
}

static MPI_Info parse_setting(char *line, char **name)
{
    MPI_Info info;
    char *tab = strchr(line, '\t'), *save = NULL;
    MPI_Info_create(&info);
    *name = line;
    if (!tab)
        return info;
    *tab = '\0';
    for (char *kv = strtok_r(tab + 1, ";\n", &save); kv; kv = strtok_r(NULL, ";\n", &save)) {
        char *sp = strchr(kv, ' ');
        if (sp) {
            *sp = '\0';
            MPI_Info_set(info, kv, sp + 1);
        }
    }
    return info;
}

int main(int argc, char **argv)
{
    struct kind k;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &k.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &k.nprocs);
    if (argc < 9 || argc > 11) {
        if (k.rank == 0)
            fprintf(stderr, "usage: xt_phasebench PATH contiguous|strided shared|fpp "
                    "write|read COLL BYTES SIZES SETTINGS [PIECES [warm]]\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    k.base = argv[1];
    k.strided = strcmp(argv[2], "strided") == 0;
    k.shared = strcmp(argv[3], "shared") == 0;
    k.is_write = strcmp(argv[4], "write") == 0;
    k.coll = atoi(argv[5]);
    k.pieces = argc > 9 ? atoi(argv[9]) : 1;
    k.warm = argc > 10 && strcmp(argv[10], "warm") == 0;
    long long bytes = atoll(argv[6]);
    FILE *sf = fopen(argv[8], "r");
    if (!sf) {
        fprintf(stderr, "xt_phasebench: cannot read %s\n", argv[8]);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    char line[4096], *sizes = strdup(argv[7]), *save = NULL;
    for (char *s = strtok_r(sizes, ",", &save); s; s = strtok_r(NULL, ",", &save)) {
        int rb = atoi(s), n = (int) (bytes / rb);
        n = n < 4 ? 4 : n > 4096 ? 4096 : n;
        char *buf = malloc(rb);
        memset(buf, 'a' + k.rank % 26, rb);
        rewind(sf);
        while (fgets(line, sizeof(line), sf)) {
            char *name;
            line[strcspn(line, "\n")] = '\0';
            if (!line[0])
                continue;
            MPI_Info info = parse_setting(line, &name);
            double secs = run(&k, info, buf, rb, n);
            MPI_Info_free(&info);
            if (k.rank == 0) {
                printf("RESULT %s %d %d %.6f\n", name, rb, n, secs);
                fflush(stdout);
            }
        }
        free(buf);
    }
    fclose(sf);
    free(sizes);
    MPI_Finalize();
    return 0;
}

/* soak SECONDS DIR CSV: every rank loops over a mix of MPI-IO for SECONDS:
 * open, a strided view, collective and independent writes, a nonblocking
 * write, sync, collective and independent reads (every byte verified),
 * close; files opened and closed again every round.  After each round rank
 * r samples its resident memory (VmRSS), open descriptors and threads; rank
 * 0 writes one CSV line per round and rank (round,rank,seconds,rss_kib,fds,
 * threads,errors).  Exit status: the number of verification errors (summed). */
#include <dirent.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BLOCK = 65536, NBLOCKS = 32, NFILES = 3 };

static long count_dir(const char *path)
{
    DIR *d = opendir(path);
    long n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        n += e->d_name[0] != '.';
    if (d)
        closedir(d);
    return n;
}

static long rss_kib(void)
{
    char line[256];
    long kib = -1;
    FILE *f = fopen("/proc/self/status", "r");
    while (f && fgets(line, sizeof(line), f))
        if (sscanf(line, "VmRSS: %ld", &kib) == 1)
            break;
    if (f)
        fclose(f);
    return kib;
}

static unsigned char pat(long long off, int round)
{
    return (unsigned char) ((off * 131 + round * 7 + (off >> 11)) & 0xff);
}

/* one round on one file; returns the number of bytes that differ */
static long one_round(const char *path, int rank, int nprocs, int round, unsigned char *out,
                      unsigned char *in)
{
    MPI_File fh;
    MPI_Datatype ft;
    MPI_Request req;
    MPI_Status st;
    const int half = NBLOCKS / 2 * BLOCK;
    long bad = 0;
    for (int b = 0; b < NBLOCKS; b++)
        for (int i = 0; i < BLOCK; i++)
            out[b * BLOCK + i] = pat(((long long) b * nprocs + rank) * BLOCK + i, round);
    MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    MPI_Type_vector(NBLOCKS, BLOCK, BLOCK * nprocs, MPI_BYTE, &ft);
    MPI_Type_commit(&ft);
    MPI_File_set_view(fh, (MPI_Offset) rank * BLOCK, MPI_BYTE, ft, "native", MPI_INFO_NULL);
    MPI_File_write_at_all(fh, 0, out, half / 2, MPI_BYTE, &st);
    MPI_File_write_at(fh, half / 2, out + half / 2, half / 2, MPI_BYTE, &st);
    MPI_File_iwrite_at(fh, half, out + half, half, MPI_BYTE, &req);
    MPI_Wait(&req, &st);
    MPI_File_sync(fh);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_sync(fh);
    memset(in, 0, (size_t) NBLOCKS * BLOCK);
    MPI_File_read_at_all(fh, 0, in, half, MPI_BYTE, &st);
    MPI_File_iread_at(fh, half, in + half, half, MPI_BYTE, &req);
    MPI_Wait(&req, &st);
    for (long i = 0; i < (long) NBLOCKS * BLOCK; i++)
        bad += in[i] != out[i];
    MPI_File_close(&fh);
    MPI_Type_free(&ft);
    return bad;
}

int main(int argc, char **argv)
{
    int rank, nprocs;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    const double secs = atof(argv[1]), t0 = MPI_Wtime();
    unsigned char *out = malloc((size_t) NBLOCKS * BLOCK), *in = malloc((size_t) NBLOCKS * BLOCK);
    FILE *csv = rank == 0 ? fopen(argv[3], "w") : NULL;
    if (csv)
        fprintf(csv, "round,rank,seconds,rss_kib,fds,threads,errors\n");
    long errors = 0;
    int go = 1;
    for (int round = 0; go; round++) {
        char path[4096];
        snprintf(path, sizeof(path), "%s/soak.%d.dat", argv[2], round % NFILES);
        errors += one_round(path, rank, nprocs, round, out, in);
        long s[4] = { rss_kib(), count_dir("/proc/self/fd"), count_dir("/proc/self/task"),
            errors }, all[4 * 64];
        MPI_Gather(s, 4, MPI_LONG, all, 4, MPI_LONG, 0, MPI_COMM_WORLD);
        for (int r = 0; csv && r < nprocs && r < 64; r++)
            fprintf(csv, "%d,%d,%.1f,%ld,%ld,%ld,%ld\n", round, r, MPI_Wtime() - t0, all[4 * r],
                    all[4 * r + 1], all[4 * r + 2], all[4 * r + 3]);
        go = MPI_Wtime() - t0 < secs;
        MPI_Bcast(&go, 1, MPI_INT, 0, MPI_COMM_WORLD);
    }
    long total = 0;
    MPI_Allreduce(&errors, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (csv)
        fclose(csv);
    if (rank == 0)
        printf("soak: %s (%ld bytes differ)\n", total ? "FAILED" : "OK", total);
    free(out);
    free(in);
    MPI_Finalize();
    return total != 0;
}

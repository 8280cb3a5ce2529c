/* soak SECONDS DIR CSV: every rank loops over a mix of MPI-IO for SECONDS:
 * open, a strided view, collective and independent writes, a nonblocking
 * write, sync, collective and nonblocking reads (every byte verified),
 * close; files opened and closed again every round.  Built with SOAK_HDF5,
 * every H5_EVERY-th round also runs an HDF5 round (soak_h5.c).  After each
 * round rank r samples its resident memory (VmRSS), open descriptors and
 * threads; rank 0 writes one CSV line per round and rank (round,rank,
 * seconds,rss_kib,fds,threads,errors,verified_bytes,h5_rounds; the last
 * three cumulative).  Exit status: 0 when no byte differs. */
#include <dirent.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "soak.h"

enum { BLOCK = 65536, NBLOCKS = 32, NFILES = 3, H5_EVERY = 4, NSAMPLE = 6, MAXRANKS = 64 };

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
            out[b * BLOCK + i] = soak_pat(((long long) b * nprocs + rank) * BLOCK + i, round);
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

#ifdef SOAK_HDF5
/* the HDF5 round (soak_h5.c) on DIR/soak.h5; adds the bytes it verifies to
 * *verified and one to *h5_rounds; returns the bytes that differ */
static long h5_round(const char *dir, int rank, int nprocs, int round, unsigned char *buf,
                     long *verified, long *h5_rounds)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/soak.h5", dir);
    *verified += SOAK_H5_ROW;
    ++*h5_rounds;
    return soak_h5_round(path, rank, nprocs, round, buf);
}
#endif

/* rank 0 gathers every rank's sample s[NSAMPLE] and writes their CSV lines */
static void report(FILE *csv, int round, int nprocs, double secs, const long *s)
{
    long all[NSAMPLE * MAXRANKS];
    MPI_Gather(s, NSAMPLE, MPI_LONG, all, NSAMPLE, MPI_LONG, 0, MPI_COMM_WORLD);
    for (int r = 0; csv && r < nprocs && r < MAXRANKS; r++) {
        const long *a = all + NSAMPLE * r;
        fprintf(csv, "%d,%d,%.1f,%ld,%ld,%ld,%ld,%ld,%ld\n", round, r, secs, a[0], a[1], a[2],
                a[3], a[4], a[5]);
    }
}

int main(int argc, char **argv)
{
    int rank, nprocs;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    if (argc != 4 || nprocs > MAXRANKS) {
        fprintf(stderr, "usage: soak SECONDS DIR CSV, at most %d ranks\n", MAXRANKS);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    const double secs = atof(argv[1]), t0 = MPI_Wtime();
    unsigned char *out = malloc((size_t) NBLOCKS * BLOCK), *in = malloc((size_t) NBLOCKS * BLOCK);
    FILE *csv = rank == 0 ? fopen(argv[3], "w") : NULL;
    if (csv)
        fprintf(csv, "round,rank,seconds,rss_kib,fds,threads,errors,verified_bytes,h5_rounds\n");
    long errors = 0, verified = 0, h5_rounds = 0;
    int go = 1;
    for (int round = 0; go; round++) {
        char path[4096];
        snprintf(path, sizeof(path), "%s/soak.%d.dat", argv[2], round % NFILES);
        errors += one_round(path, rank, nprocs, round, out, in);
        verified += (long) NBLOCKS * BLOCK;
#ifdef SOAK_HDF5
        if (round % H5_EVERY == H5_EVERY - 1)
            errors += h5_round(argv[2], rank, nprocs, round, in, &verified, &h5_rounds);
#endif
        long s[NSAMPLE] = { rss_kib(), count_dir("/proc/self/fd"), count_dir("/proc/self/task"),
            errors, verified, h5_rounds };
        report(csv, round, nprocs, MPI_Wtime() - t0, s);
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

/* romio-xt trace overhead: small contiguous MPI_File_write_at calls on one
 * rank, to two files opened in the same process, one with the trace layer
 * (romio_xt_trace=enable) and one without, in alternating batches, so both
 * see the same machine state.
 *   overhead DIR REQ_BYTES BATCH ROUNDS [control]
 * Prints per round: "ROUND r traced|plain calls wall_seconds cpu_seconds";
 * benchmarks/trace/run.sh turns it into CSV and a summary. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* wall seconds; *cpu_s: this thread's CPU seconds (user + system), which a
 * shared machine's preemption does not inflate */
static double batch(MPI_File fh, const char *buf, int rb, int n, MPI_Offset *pos, MPI_Offset wrap,
                    double *cpu_s)
{
    double t0 = MPI_Wtime(), c0 = cpu();
    for (int k = 0; k < n; k++) {
        MPI_File_write_at(fh, *pos, buf, rb, MPI_BYTE, MPI_STATUS_IGNORE);
        *pos = (*pos + rb) % wrap;
    }
    *cpu_s = cpu() - c0;
    return MPI_Wtime() - t0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    if (argc != 5 && argc != 6) {
        fprintf(stderr, "usage: overhead DIR REQ_BYTES BATCH ROUNDS [control]\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int rb = atoi(argv[2]), n = atoi(argv[3]), rounds = atoi(argv[4]);
    char path[2][4096], *buf = calloc(1, rb);
    MPI_File fh[2];
    MPI_Info info[2];
    MPI_Offset pos[2] = { 0, 0 }, wrap = (MPI_Offset) rb * 4096;   /* stays in page cache */
    for (int t = 0; t < 2; t++) {
        MPI_Info_create(&info[t]);
        if (t && argc == 5) {   /* "control": both files plain (the noise floor) */
            char dir[4096];
            snprintf(dir, sizeof(dir), "%s/trace", argv[1]);
            MPI_Info_set(info[t], "romio_xt_trace", "enable");
            MPI_Info_set(info[t], "romio_xt_trace_dir", dir);
        }
        snprintf(path[t], sizeof(path[t]), "%s/overhead.%d", argv[1], t);
        MPI_File_open(MPI_COMM_SELF, path[t], MPI_MODE_CREATE | MPI_MODE_RDWR, info[t], &fh[t]);
        double c;
        batch(fh[t], buf, rb, n, &pos[t], wrap, &c);    /* warm up */
    }
    for (int r = 0; r < rounds; r++)
        for (int k = 0; k < 2; k++) {
            int t = (r + k) % 2;        /* alternate which goes first */
            double c, s = batch(fh[t], buf, rb, n, &pos[t], wrap, &c);
            printf("ROUND %d %s %d %.6f %.6f\n", r, t ? "traced" : "plain", n, s, c);
        }
    for (int t = 0; t < 2; t++) {
        MPI_File_close(&fh[t]);
        MPI_Info_free(&info[t]);
    }
    free(buf);
    MPI_Finalize();
    return 0;
}

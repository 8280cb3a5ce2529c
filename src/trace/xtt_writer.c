/* romio-xt trace: the per-process record buffer and trace file.
 *
 * One buffer per process (bounded: XTT_BUF_RECS records), written to
 * DIR/<job>-<rank>.xtt when it fills, at a traced close when the last write
 * is XTT_CLOSE_FLUSH_S old, and at MPI_Finalize (a delete callback on an
 * MPI_COMM_SELF attribute).  The file is created at the first write: a job's
 * opens and closes do not pay for it.  All of it runs in the application's
 * thread; the only MPI calls are the agreement at open (xtt_writer_join:
 * once per job when the files are opened over all of MPI_COMM_WORLD's
 * processes) and the keyval registration. */
#include "xtt.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define XTT_BUF_RECS 16384      /* 640 KiB */
#define XTT_CLOSE_FLUSH_S 1.0   /* a close writes the buffer when the last write is this old */

static struct {
    int state;                  /* 0 not joined, 1 tracing, -1 off (failed) */
    int warned;
    int fd;
    int nfiles;
    int n;
    double t_zero;              /* this rank's monotonic clock at time 0 */
    double flushed;             /* xtt_time() of the last write (or of the start) */
    struct xtt_header hdr;
    char path[4096];
    char why[256];
    struct xtt_rec *buf;
} W = {.fd = -1 };

/* what rank 0 of an opening communicator tells the others */
struct xtt_agree {
    char job[XTT_JOB_LEN];
    double now;                 /* rank 0's aligned time (0 when it starts the clock) */
    double mono;                /* rank 0's monotonic clock */
    double real;                /* rank 0's wall clock at its time 0 */
};

double xtt_time(void)
{
    return xt_now() - W.t_zero;
}

/* The per-call clock: the TSC (one instruction, a clock_gettime costs
 * ~150 ns under gVisor), converted with a rate measured against the monotonic
 * clock, re-anchored to that clock every XTT_ANCHOR_S seconds of TSC time (so
 * conversion errors stay microseconds).  Until the first XTT_RATE_S seconds
 * after this process's first stamp have passed (no rate yet), and elsewhere:
 * the monotonic clock.  Nothing waits for the rate. */
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define XTT_ANCHOR_S 0.01
#define XTT_RATE_S 1e-3

static struct {
    uint64_t first, at;         /* TSC at the first anchor and at the last */
    double first_s, at_s;       /* xtt_time() then */
    double per_s;               /* TSC ticks per second; 0: not known yet */
} T;

/* the TSC and xtt_time() now; the TSC read halfway */
static double tsc_pair(uint64_t *tsc)
{
    uint64_t a = __rdtsc();
    double s = xtt_time();
    uint64_t b = __rdtsc();
    *tsc = a + (b - a) / 2;
    return s;
}

double xtt_stamp(void)
{
    uint64_t t = __rdtsc();
    if (T.per_s > 0 && t - T.at <= (uint64_t) (T.per_s * XTT_ANCHOR_S))
        return T.at_s + (double) (int64_t) (t - T.at) / T.per_s;
    uint64_t at;
    double s = tsc_pair(&at);
    if (T.first == 0) {
        T.first = at;
        T.first_s = s;
    } else if (s - T.first_s >= XTT_RATE_S && at > T.first) {
        T.per_s = (at - T.first) / (s - T.first_s);
        T.at = at;
        T.at_s = s;
    }
    return s;
}
#else
double xtt_stamp(void)
{
    return xtt_time();
}
#endif

static void job_id(char *job)
{
    static const char *const vars[] = { "ROMIO_XT_JOB_ID", "SLURM_JOB_ID", "PBS_JOBID",
        "LSB_JOBID", "COBALT_JOBID" };
    const char *v = NULL;
    for (size_t k = 0; k < sizeof(vars) / sizeof(vars[0]) && !(v && *v); k++)
        v = getenv(vars[k]);
    if (v && *v) {
        snprintf(job, XTT_JOB_LEN, "%s", v);
    } else {
        char host[64] = "host";
        gethostname(host, sizeof(host) - 1);
        host[sizeof(host) - 1] = '\0';
        snprintf(job, XTT_JOB_LEN, "%.40s.%ld", host, (long) getpid());
    }
    for (char *p = job; *p; p++)        /* a file name part */
        if (*p == '/' || *p == ' ' || *p == '-')
            *p = '_';
}

static int write_all(const void *data, size_t len)
{
    return xt_write_full(W.fd, data, (int64_t) len) < 0 ? -1 : 0;
}

/* tracing off on this rank; loud: warn now (else xtt_writer_join does) */
static void stop(const char *what, int loud)
{
    snprintf(W.why, sizeof(W.why), "%s: %s", what, strerror(errno));
    if (loud && !W.warned)
        xt_warn(NULL, XT_WARN_SELF, "trace file '%s': %s; tracing disabled", W.path, W.why);
    W.warned |= loud;
    W.state = -1;
    if (W.fd >= 0)
        close(W.fd);
    W.fd = -1;
}

/* the file, created at the first write: its header, then the records */
static int created(void)
{
    if (W.fd >= 0)
        return 1;
    W.fd = open(W.path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (W.fd < 0) {
        stop("cannot create", 1);
        return 0;
    }
    if (write_all(&W.hdr, sizeof(W.hdr)) != 0) {
        stop("write failed", 1);
        return 0;
    }
    return 1;
}

void xtt_flush(void)
{
    if (W.state == 1 && W.n > 0 && created() && write_all(W.buf, W.n * sizeof(struct xtt_rec)) != 0)
        stop("write failed", 1);
    W.n = 0;
    W.flushed = xtt_time();
}

void xtt_close_flush(void)
{
    if (xtt_time() - W.flushed >= XTT_CLOSE_FLUSH_S)
        xtt_flush();
}

struct xtt_rec *xtt_next(void)
{
    if (W.state != 1)
        return NULL;
    if (W.n == XTT_BUF_RECS)
        xtt_flush();
    return W.state == 1 ? &W.buf[W.n++] : NULL;
}

static int at_finalize(MPI_Comm comm, int keyval, void *attr, void *extra)
{
    xtt_flush();
    if (W.fd >= 0)
        close(W.fd);
    W.fd = -1;
    W.state = -1;
    free(W.buf);
    W.buf = NULL;
    return MPI_SUCCESS;
}

/* this rank's first traced open: time 0, the header, the file */
static void start(const struct xtt_agree *a, const char *dir)
{
    int keyval, wrank = 0, wsize = 1;
    W.t_zero = xt_now() - a->now;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    memcpy(W.hdr.magic, XTT_MAGIC, sizeof(W.hdr.magic));
    W.hdr.version = XTT_VERSION;
    W.hdr.header_size = sizeof(W.hdr);
    W.hdr.record_size = sizeof(struct xtt_rec);
    W.hdr.rank = wrank;
    W.hdr.nprocs = wsize;
    W.hdr.epoch_realtime = a->real;
    W.hdr.clock_offset = xt_now() - a->mono;
    memcpy(W.hdr.job, a->job, XTT_JOB_LEN);
    snprintf(W.path, sizeof(W.path), "%s/%s-%d.xtt", *dir ? dir : ".", a->job, wrank);
    W.state = 1;
    if (*dir && mkdir(dir, 0777) != 0 && errno != EEXIST)
        return stop("cannot create the directory", 0);
    /* the file is created at the first write; a directory that cannot take
     * it fails here, where all ranks agree and rank 0 warns */
    if (access(*dir ? dir : ".", W_OK | X_OK) != 0)
        return stop("cannot create", 0);
    W.buf = malloc(XTT_BUF_RECS * sizeof(struct xtt_rec));
    if (!W.buf)
        return stop("no memory for the buffer", 0);
    W.flushed = xtt_time();
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, at_finalize, &keyval, NULL);
    MPI_Comm_set_attr(MPI_COMM_SELF, keyval, NULL);
}

/* comm holds MPI_COMM_WORLD's processes (a local check) */
static int world_group(MPI_Comm comm)
{
    int cmp = MPI_UNEQUAL;
    MPI_Comm_compare(comm, MPI_COMM_WORLD, &cmp);
    return cmp == MPI_IDENT || cmp == MPI_CONGRUENT || cmp == MPI_SIMILAR;
}

/* Every process of MPI_COMM_WORLD joined (one agreement over all of them
 * succeeded): later opens over those processes need no collective (it cost
 * 40-80 us an open with 4 ranks on ch3:sock, docs/phases.md).  A
 * process that stopped tracing since warned then; its records are dropped. */
static int world_joined;

int xtt_writer_join(ADIO_File fd, const char *dir)
{
    struct xt_file *xf = xt_file(fd);
    struct xtt_agree a = { 0 };
    int ok, all_ok, st[2] = { W.state, -W.state }, lo[2];
    int world = world_group(fd->comm);
    if (world && world_joined)
        return 0;
    /* every rank traces already (a later open): one collective */
    MPI_Allreduce(st, lo, 2, MPI_INT, MPI_MIN, fd->comm);
    if (lo[0] == 1 && lo[1] == -1) {
        world_joined |= world;
        return 0;
    }
    if (xf->rank == 0) {
        if (W.state == 0) {
            struct timespec ts;
            job_id(a.job);
            clock_gettime(CLOCK_REALTIME, &ts);
            a.real = ts.tv_sec + ts.tv_nsec * 1e-9;
        } else {
            memcpy(a.job, W.hdr.job, XTT_JOB_LEN);
            a.real = W.hdr.epoch_realtime;
            a.now = xtt_time();
        }
        a.mono = xt_now();
    }
    MPI_Bcast(&a, sizeof(a), MPI_BYTE, 0, fd->comm);
    if (W.state == 0)
        start(&a, dir);
    ok = W.state == 1;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, fd->comm);
    if (!all_ok) {
        int say = !ok && !W.warned;
        W.warned = 1;
        xt_warn(fd, XT_WARN_ALL, say ? "trace file '%.2000s' cannot be written (%.200s); "
                "tracing disabled, the job goes on" : NULL, W.path, W.why);
    }
    world_joined |= world && all_ok;
    return all_ok ? 0 : -1;
}

int xtt_announce(const char *name, int comm_size, int cb_nodes, int flags)
{
    struct xtt_rec *r = xtt_next();
    size_t len = strlen(name);
    if (!r)
        return -1;
    *r = (struct xtt_rec) {.t0 = xtt_time(),.off = comm_size,.bytes = (int64_t) len,
        .pieces = cb_nodes,.file = (uint16_t) W.nfiles,.op = XTT_OPEN,.flags = flags };
    r->t1 = r->t0;
    for (size_t k = 0; k < len; k += sizeof(*r)) {
        struct xtt_rec *part = xtt_next();
        if (!part)
            return -1;
        memset(part, 0, sizeof(*part));
        memcpy(part, name + k, len - k < sizeof(*part) ? len - k : sizeof(*part));
    }
    return W.nfiles++;
}

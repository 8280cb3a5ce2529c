/* romio-xt stats: the one JSON line per file, written by rank 0 at close. */
#include "xts.h"
#include "xt_version.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define XTS_NAME(id, name) name,
static const char *const xts_op_names[XTS_NOPS] = { XTS_OPS(XTS_NAME) };
#undef XTS_NAME

/* what the report sums over ranks: one record per rank, then the layers'
 * counters slot by slot (all int64_t, reduced as such) */
struct xts_sums {
    int64_t calls[XTS_NOPS], bytes[XTS_NOPS];
    int64_t app_bytes[2];       /* the application's bytes: [0] read, [1] written */
    int64_t req_count[2], req_bytes[2]; /* file-system requests: [0] read, [1] write */
    int64_t req_ranks[3];       /* ranks that made any: [0] read, [1] write, [2] either */
    int64_t counters[];
};
_Static_assert(sizeof(struct xts_sums) % sizeof(int64_t) == 0, "xts_sums is int64_t only");

/* what it sums and takes the maximum of */
struct xts_times {
    double time[XTS_NOPS];
    double open;                /* seconds the file was open */
};
_Static_assert(sizeof(struct xts_times) == (XTS_NOPS + 1) * sizeof(double),
               "xts_times is double only");

struct xts_totals {
    struct xts_sums *sum;       /* rank 0: the sums */
    struct xts_times tsum, tmax;
    union xts_word *heap;       /* the buffers, when too big for the stack */
};

static int layer_counters(const struct xt_file *xf)
{
    int n = 0;
    for (int s = 0; s < xf->nslots; s++)
        n += xf->slots[s].layer->ncounters;
    return n;
}

static void gather_local(struct xt_file *xf, const struct xts_state *st, struct xts_sums *v,
                         struct xts_times *t)
{
    memcpy(v->calls, st->calls, sizeof(st->calls));
    memcpy(v->bytes, st->bytes, sizeof(st->bytes));
    memcpy(v->app_bytes, st->app_bytes, sizeof(st->app_bytes));
    memcpy(t->time, st->time, sizeof(st->time));
    for (int k = 0; k < 2; k++) {
        v->req_count[k] = __atomic_load_n(&xf->req_count[k], __ATOMIC_RELAXED);
        v->req_bytes[k] = __atomic_load_n(&xf->req_bytes[k], __ATOMIC_RELAXED);
        v->req_ranks[k] = v->req_count[k] > 0;
    }
    v->req_ranks[2] = v->req_ranks[0] || v->req_ranks[1];
    int64_t *p = v->counters;
    for (int s = 0; s < xf->nslots; s++)
        for (int c = 0; c < xf->slots[s].layer->ncounters; c++)
            *p++ = __atomic_load_n(&xf->slots[s].counters[c], __ATOMIC_RELAXED);
    t->open = xt_now() - xf->open_time;
}

/* What the one reduce carries, in 8-byte words: the number n of int64_t
 * sums, the n sums (a struct xts_sums), the times to add, the times to take
 * the maximum of.  n is the same on every rank (the layers are agreed). */
union xts_word {
    int64_t i;
    double d;
};
#define XTS_NTIME ((int64_t) (sizeof(struct xts_times) / sizeof(double)))
#define XTS_STACK_WORDS 512

static void combine(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    const union xts_word *a = in;
    union xts_word *b = inout;
    const int64_t n = a[0].i;
    (void) len, (void) dt;
    for (int64_t k = 1; k <= n; k++)
        b[k].i += a[k].i;
    for (int64_t k = 1 + n; k < 1 + n + XTS_NTIME; k++) {
        b[k].d += a[k].d;
        if (a[k + XTS_NTIME].d > b[k + XTS_NTIME].d)
            b[k + XTS_NTIME].d = a[k + XTS_NTIME].d;
    }
}

/* one MPI_Reduce of mine into res (rank 0) with combine; a file of one
 * process has nothing to combine (and its first close binds no more MPI
 * calls: each first call of a function costs microseconds) */
static void reduce_words(ADIO_File fd, union xts_word *mine, union xts_word *res, int nword)
{
    MPI_Datatype type;
    MPI_Op op;
    if (xt_file(fd)->nprocs == 1) {
        memcpy(res, mine, (size_t) nword * sizeof(*mine));
        return;
    }
    MPI_Type_contiguous(nword * (int) sizeof(*mine), MPI_BYTE, &type);
    MPI_Type_commit(&type);
    MPI_Op_create(combine, 1, &op);
    MPI_Reduce(mine, res, 1, type, op, 0, fd->comm);
    MPI_Op_free(&op);
    MPI_Type_free(&type);
}

/* collective, one reduce (one allreduce more only for buffers too big for
 * the stack); 0, or -1 on every rank when a rank is out of memory */
static int reduce(ADIO_File fd, struct xt_file *xf, const struct xts_state *st,
                  struct xts_totals *tot, union xts_word (*stack)[XTS_STACK_WORDS])
{
    const int64_t nsum = (int64_t) (sizeof(struct xts_sums) / sizeof(int64_t)) +
        layer_counters(xf);
    const int nword = (int) (1 + nsum + 2 * XTS_NTIME);
    union xts_word *mine = stack[0], *res = stack[1];
    struct xts_times t;
    tot->heap = NULL;
    if (nword > XTS_STACK_WORDS) {
        tot->heap = xt_calloc(2 * (size_t) nword, sizeof(*mine));
        if (!xt_all_ok(fd, tot->heap != NULL, "romio_xt_stats report"))
            return -1;
        mine = tot->heap;
        res = tot->heap + nword;
    }
    mine[0].i = nsum;
    gather_local(xf, st, (struct xts_sums *) &mine[1].i, &t);
    memcpy(&mine[1 + nsum], &t, sizeof(t));
    memcpy(&mine[1 + nsum + XTS_NTIME], &t, sizeof(t));
    reduce_words(fd, mine, res, nword);
    tot->sum = (struct xts_sums *) &res[1].i;
    memcpy(&tot->tsum, &res[1 + nsum], sizeof(t));
    memcpy(&tot->tmax, &res[1 + nsum + XTS_NTIME], sizeof(t));
    return 0;
}

static void put_ops(struct xt_json *j, const struct xts_totals *tot)
{
    xt_json_open(j, "ops", '{');
    for (int op = 0; op < XTS_NOPS; op++) {
        if (tot->sum->calls[op] == 0)
            continue;
        xt_json_open(j, xts_op_names[op], '{');
        xt_json_int(j, "calls", tot->sum->calls[op]);
        xt_json_int(j, "bytes", tot->sum->bytes[op]);
        xt_json_num(j, "time_sum", tot->tsum.time[op]);
        xt_json_num(j, "time_max", tot->tmax.time[op]);
        xt_json_close(j);
    }
    xt_json_close(j);
}

static void put_requests(struct xt_json *j, const struct xts_sums *sum)
{
    static const char *const dir[2] = { "read", "write" };
    xt_json_open(j, "fs_requests", '{');
    for (int k = 0; k < 2; k++) {
        xt_json_open(j, dir[k], '{');
        xt_json_int(j, "count", sum->req_count[k]);
        xt_json_int(j, "bytes", sum->req_bytes[k]);
        xt_json_int(j, "ranks", sum->req_ranks[k]);
        xt_json_close(j);
    }
    xt_json_close(j);
}

static void put_features(ADIO_File fd, struct xt_file *xf, struct xt_json *j, const int64_t *ctr)
{
    xt_json_open(j, "features", '{');
    for (int s = 0; s < xf->nslots; s++) {
        const struct xt_layer *l = xf->slots[s].layer;
        xt_json_open(j, l->name, '{');
        for (int c = 0; c < l->ncounters; c++)
            xt_json_int(j, l->counters[c], *ctr++);
        if (l->report)
            l->report(fd, xf->slots[s].state, j);
        xt_json_close(j);
    }
    xt_json_close(j);
}

/* the record's start: the file, its ranks, where helpers run, the layers */
static void put_file(ADIO_File fd, struct xt_file *xf, const struct xts_totals *tot,
                     struct xt_json *j)
{
    xt_json_int(j, "romio_xt_stats", 1);
    xt_json_str(j, "version", XT_VERSION);
    xt_json_str(j, "file", fd->filename);
    xt_json_int(j, "ranks", xf->nprocs);
    xt_json_int(j, "fs_io_ranks", tot->sum->req_ranks[2]);
    char cpus[256] = "";        /* rank 0's helper threads' cores ("": its own) */
    if (xf->helper_ncpus > 0)
        xt_cpus_text(&xf->helper_cpus, cpus, sizeof(cpus));
    xt_json_str(j, "helper_cpus", cpus);
    if (xf->numa_status != XT_NUMA_OFF || xt_hint(fd, XT_H_NUMA_PLACE)->i) {
        xt_json_open(j, "numa_place", '{');     /* rank 0's (docs/numa.md) */
        xt_json_str(j, "status", xt_numa_status_text(xf->numa_status));
        xt_json_int(j, "node", xf->numa_status == XT_NUMA_ON ? xf->numa_node : -1);
        xt_json_int(j, "mbind_calls", xt_numa_calls());
        xt_json_close(j);
    }
    xt_json_open(j, "layers", '[');
    for (int s = 0; s < xf->nslots; s++)
        xt_json_str(j, NULL, xf->slots[s].layer->name);
    xt_json_close(j);
}

static void build_record(ADIO_File fd, struct xt_file *xf, const struct xts_totals *tot,
                         struct xt_json *j)
{
    xt_json_open(j, NULL, '{');
    put_file(fd, xf, tot, j);
    xt_auto_report(xf, j);
    xt_json_int(j, "bytes_read", tot->sum->app_bytes[0]);
    xt_json_int(j, "bytes_written", tot->sum->app_bytes[1]);
    xt_json_num(j, "open_seconds_max", tot->tmax.open);
    put_ops(j, tot);
    put_requests(j, tot->sum);
    put_features(fd, xf, j, tot->sum->counters);
    xt_hints_report(fd, j);
    xt_json_close(j);
}

/* Records for ROMIO_XT_STATS_FILE wait in a per-process buffer and are
 * appended when the last append is XTS_FLUSH_S old, when XTS_BUF_MAX bytes
 * wait, at MPI_Finalize and at exit: creating and appending to a file cost
 * 100-200 us a time under a sandbox, which no longer lands in every close.
 * The file stays open from the first append to MPI_Finalize.  A new
 * ROMIO_XT_STATS_FILE value mid-job sends the waiting records to the old
 * file first.  Records for stderr are printed at once. */
#define XTS_FLUSH_S 1.0
#define XTS_BUF_MAX (64 << 10)
static struct {
    int fd, registered, warned;
    pid_t pid;                  /* the process whose records wait (not a forked child's) */
    double last;                /* xt_now() of the last append (or the first record) */
    char *buf;
    size_t len, cap;
    char path[4096];
} out = {.fd = -1 };

/* the waiting records appended to out.path (stderr when it cannot be opened) */
static void out_flush(void)
{
    if (out.len && out.fd < 0) {
        out.fd = open(out.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
        if (out.fd < 0 && !out.warned++)
            xt_warn(NULL, XT_WARN_SELF, "ROMIO_XT_STATS_FILE '%s': %s; using stderr",
                    out.path, strerror(errno));
    }
    if (out.len)
        xt_write_full(out.fd >= 0 ? out.fd : 2, out.buf, (int64_t) out.len);
    out.len = 0;
    out.last = xt_now();
}

static void out_exit(void)
{
    if (getpid() == out.pid)
        out_flush();
}

static int out_finalize(MPI_Comm comm, int keyval, void *attr, void *extra)
{
    out_flush();
    if (out.fd >= 0)
        close(out.fd);
    out.fd = -1;
    free(out.buf);
    out.buf = NULL;
    out.cap = 0;
    return MPI_SUCCESS;
}

/* text and a newline into the buffer; 0, or -1 without memory */
static int out_append(const char *text, size_t n)
{
    if (out.len + n + 1 > out.cap) {
        size_t cap = out.cap ? out.cap : 4096;
        while (cap < out.len + n + 1)
            cap *= 2;
        char *b = realloc(out.buf, cap);
        if (!b)
            return -1;
        out.buf = b;
        out.cap = cap;
    }
    memcpy(out.buf + out.len, text, n);
    out.buf[out.len + n] = '\n';
    out.len += n + 1;
    return 0;
}

static void write_line(const char *text)
{
    const char *path = getenv("ROMIO_XT_STATS_FILE");
    size_t n = strlen(text);
    if (!path || !*path || strlen(path) >= sizeof(out.path)) {
        char *line = malloc(n + 1);     /* one write: lines of ranks stay whole */
        if (line) {
            memcpy(line, text, n);
            line[n] = '\n';
            xt_write_full(2, line, (int64_t) n + 1);
        }
        free(line);
        return;
    }
    if (strcmp(out.path, path) != 0) {  /* a new file: the old one's records first */
        out_flush();
        if (out.fd >= 0)
            close(out.fd);
        out.fd = -1;
        snprintf(out.path, sizeof(out.path), "%s", path);
    }
    if (!out.registered) {      /* written at MPI_Finalize, or at exit without it */
        int keyval;
        MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, out_finalize, &keyval, NULL);
        MPI_Comm_set_attr(MPI_COMM_SELF, keyval, NULL);
        MPI_Comm_free_keyval(&keyval);  /* (the attribute keeps it until MPI_Finalize) */
        atexit(out_exit);
        out.pid = getpid();
        out.registered = 1;
        out.last = xt_now();
    }
    if (out_append(text, n) != 0) {     /* no memory: what waits, then this one */
        out_flush();
        if (out_append(text, n) != 0)
            return;
    }
    if (out.len >= XTS_BUF_MAX || xt_now() - out.last >= XTS_FLUSH_S)
        out_flush();
}

int xts_report(ADIO_File fd, struct xt_file *xf, const struct xts_state *st)
{
    struct xts_totals tot;
    union xts_word stack[2][XTS_STACK_WORDS];
    if (reduce(fd, xf, st, &tot, stack) != 0)
        return xt_io_error(fd, "romio_xt_stats report", ENOMEM);
    if (xf->rank == 0) {
        struct xt_json j;
        xt_json_init(&j);
        build_record(fd, xf, &tot, &j);
        write_line(xt_json_text(&j));
        xt_json_free(&j);
    }
    free(tot.heap);
    return MPI_SUCCESS;
}

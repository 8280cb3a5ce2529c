/* romio-xt stats: the one JSON line per file, written by rank 0 at close. */
#include "xts.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define XTS_NAME(id, name) name,
static const char *const xts_op_names[XTS_NOPS] = { XTS_OPS(XTS_NAME) };
#undef XTS_NAME

static int xts_nops(void)
{
    return XTS_NOPS;
}

static const char *xts_op_name(int op)
{
    return xts_op_names[op];
}

struct xts_totals {
    int64_t *sum;       /* calls, bytes, app[2], req_count[2], req_bytes[2], layer counters */
    double *tsum, *tmax;    /* time per op, then the open duration */
    int nsum, ntime;
};

static int layer_counters(const struct xt_file *xf)
{
    int n = 0;
    for (int s = 0; s < xf->nslots; s++)
        n += xf->slots[s].layer->ncounters;
    return n;
}

static void gather_local(struct xt_file *xf, const struct xts_state *st, int64_t *v, double *t)
{
    int nops = xts_nops();
    memcpy(v, st->calls, sizeof(st->calls));
    memcpy(v + nops, st->bytes, sizeof(st->bytes));
    memcpy(t, st->time, sizeof(st->time));
    memcpy(v + 2 * nops, st->app_bytes, sizeof(st->app_bytes));
    int64_t *p = v + 2 * nops + 2;
    for (int k = 0; k < 2; k++) {
        *p++ = __atomic_load_n(&xf->req_count[k], __ATOMIC_RELAXED);
        *p++ = __atomic_load_n(&xf->req_bytes[k], __ATOMIC_RELAXED);
    }
    for (int s = 0; s < xf->nslots; s++)
        for (int c = 0; c < xf->slots[s].layer->ncounters; c++)
            *p++ = __atomic_load_n(&xf->slots[s].counters[c], __ATOMIC_RELAXED);
    t[nops] = xt_now() - xf->open_time;
}

/* collective; 0, or -1 on every rank when a rank is out of memory */
static int reduce(ADIO_File fd, struct xt_file *xf, const struct xts_state *st,
                  struct xts_totals *tot)
{
    tot->nsum = 2 * xts_nops() + 6 + layer_counters(xf);
    tot->ntime = xts_nops() + 1;
    int64_t *v = xt_calloc(tot->nsum, sizeof(int64_t));
    double *t = xt_calloc(tot->ntime, sizeof(double));
    tot->sum = xt_calloc(tot->nsum, sizeof(int64_t));
    tot->tsum = xt_calloc(2 * tot->ntime, sizeof(double));
    if (!xt_all_ok(fd, v && t && tot->sum && tot->tsum, "romio_xt_stats report")) {
        free(v);
        free(t);
        free(tot->sum);
        free(tot->tsum);
        return -1;
    }
    tot->tmax = tot->tsum + tot->ntime;
    gather_local(xf, st, v, t);
    MPI_Reduce(v, tot->sum, tot->nsum, MPI_INT64_T, MPI_SUM, 0, fd->comm);
    MPI_Reduce(t, tot->tsum, tot->ntime, MPI_DOUBLE, MPI_SUM, 0, fd->comm);
    MPI_Reduce(t, tot->tmax, tot->ntime, MPI_DOUBLE, MPI_MAX, 0, fd->comm);
    free(v);
    free(t);
    return 0;
}

static void put_ops(struct xt_json *j, const struct xts_totals *tot)
{
    int nops = xts_nops();
    xt_json_open(j, "ops", '{');
    for (int op = 0; op < nops; op++) {
        if (tot->sum[op] == 0)
            continue;
        xt_json_open(j, xts_op_name(op), '{');
        xt_json_int(j, "calls", tot->sum[op]);
        xt_json_int(j, "bytes", tot->sum[nops + op]);
        xt_json_num(j, "time_sum", tot->tsum[op]);
        xt_json_num(j, "time_max", tot->tmax[op]);
        xt_json_close(j);
    }
    xt_json_close(j);
}

static void put_requests(struct xt_json *j, const int64_t *req)
{
    static const char *const dir[2] = { "read", "write" };
    xt_json_open(j, "fs_requests", '{');
    for (int k = 0; k < 2; k++) {
        xt_json_open(j, dir[k], '{');
        xt_json_int(j, "count", req[2 * k]);
        xt_json_int(j, "bytes", req[2 * k + 1]);
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

static void build_record(ADIO_File fd, struct xt_file *xf, const struct xts_totals *tot,
                         struct xt_json *j)
{
    int nops = xts_nops();
    xt_json_open(j, NULL, '{');
    xt_json_int(j, "romio_xt_stats", 1);
    xt_json_str(j, "file", fd->filename);
    xt_json_int(j, "ranks", xf->nprocs);
    xt_json_open(j, "layers", '[');
    for (int s = 0; s < xf->nslots; s++)
        xt_json_str(j, NULL, xf->slots[s].layer->name);
    xt_json_close(j);
    xt_json_int(j, "bytes_read", tot->sum[2 * nops]);
    xt_json_int(j, "bytes_written", tot->sum[2 * nops + 1]);
    xt_json_num(j, "open_seconds_max", tot->tmax[nops]);
    put_ops(j, tot);
    put_requests(j, tot->sum + 2 * nops + 2);
    put_features(fd, xf, j, tot->sum + 2 * nops + 6);
    xt_json_close(j);
}

static void write_line(const char *text)
{
    const char *path = getenv("ROMIO_XT_STATS_FILE");
    size_t n = strlen(text);
    char *line = malloc(n + 2);
    if (!line)
        return;
    memcpy(line, text, n);
    memcpy(line + n, "\n", 2);
    int fd = (path && *path) ? open(path, O_WRONLY | O_CREAT | O_APPEND, 0644) : 2;
    if (fd < 0) {
        xt_warn(NULL, XT_WARN_SELF, "ROMIO_XT_STATS_FILE '%s': %s; using stderr", path,
                strerror(errno));
        fd = 2;
    }
    for (size_t off = 0; off < n + 1;) {
        ssize_t w = write(fd, line + off, n + 1 - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            break;
        off += (size_t) w;
    }
    if (fd != 2)
        close(fd);
    free(line);
}

int xts_report(ADIO_File fd, struct xt_file *xf, const struct xts_state *st)
{
    struct xts_totals tot;
    if (reduce(fd, xf, st, &tot) != 0)
        return xt_io_error(fd, "romio_xt_stats report", ENOMEM);
    if (xf->rank == 0) {
        struct xt_json j;
        xt_json_init(&j);
        build_record(fd, xf, &tot, &j);
        write_line(xt_json_text(&j));
        xt_json_free(&j);
    }
    free(tot.sum);
    free(tot.tsum);
    return MPI_SUCCESS;
}

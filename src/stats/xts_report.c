/* romio-xt stats: the one JSON line per file, written by rank 0 at close. */
#include "xts.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

static void gather_local(ADIO_File fd, struct xt_file *xf, int64_t *v, double *t)
{
    int nops = xts_nops();
    xts_local(fd, v, v + nops, t, v + 2 * nops);
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

static void reduce(ADIO_File fd, struct xt_file *xf, struct xts_totals *tot)
{
    tot->nsum = 2 * xts_nops() + 6 + layer_counters(xf);
    tot->ntime = xts_nops() + 1;
    int64_t *v = calloc(tot->nsum, sizeof(int64_t));
    double *t = calloc(tot->ntime, sizeof(double));
    tot->sum = calloc(tot->nsum, sizeof(int64_t));
    tot->tsum = calloc(2 * tot->ntime, sizeof(double));
    tot->tmax = tot->tsum + tot->ntime;
    gather_local(fd, xf, v, t);
    MPI_Reduce(v, tot->sum, tot->nsum, MPI_INT64_T, MPI_SUM, 0, fd->comm);
    MPI_Reduce(t, tot->tsum, tot->ntime, MPI_DOUBLE, MPI_SUM, 0, fd->comm);
    MPI_Reduce(t, tot->tmax, tot->ntime, MPI_DOUBLE, MPI_MAX, 0, fd->comm);
    free(v);
    free(t);
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

void xts_report(ADIO_File fd, struct xt_file *xf)
{
    struct xts_totals tot;
    reduce(fd, xf, &tot);
    if (xf->rank == 0) {
        struct xt_json j;
        xt_json_init(&j);
        build_record(fd, xf, &tot, &j);
        write_line(xt_json_text(&j));
        xt_json_free(&j);
    }
    free(tot.sum);
    free(tot.tsum);
}

/* romio-xt adaptive data sieving: executing one strided call.
 *
 * Pieces (contiguous in file and memory) are grouped into windows by the
 * planner; each window is one request.  Reads go straight into the user's
 * buffer with one preadv whose iovecs put the holes into a scratch buffer.
 * Writes of hole-free windows are one pwritev from the user's buffer;
 * windows with holes are read-modify-written through the scratch buffer.
 * A write call holds one write lock over its extent, so that no other
 * process's read-modify-write can lose its bytes (or it lose theirs). */
#define _GNU_SOURCE
#include "ads.h"

#include <errno.h>
#include <string.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#define ADS_MAX_PIECES 500      /* each piece may add a hole iovec: < IOV_MAX */
#define ADS_PROBE_BYTES (256 << 10)

struct ads_call {
    ADIO_File fd;
    struct ads_state *st;
    int is_write;
    struct ads_plan plan;
    struct ads_piece pieces[ADS_MAX_PIECES];
    int np;
    int64_t n_cold;
};

/* --- the two views ------------------------------------------------------- */

struct ads_views {
    struct ads_view file, mem;
    int64_t *cum;                       /* storage for both cum arrays */
    int64_t mem_idx, mem_len;           /* a contiguous buffer's one block */
};

static int views_init(struct ads_views *v, ADIO_File fd, void *buf, MPI_Datatype dt,
                      int64_t bytes)
{
    MPI_Aint lb, fext, mext;
    int mem_contig;
    ADIOI_Flatlist_node *ff = ADIOI_Flatten_and_find(fd->filetype), *mf = NULL;
    ADIOI_Datatype_iscontig(dt, &mem_contig);
    MPI_Type_get_extent(fd->filetype, &lb, &fext);
    MPI_Type_get_extent(dt, &lb, &mext);
    if (!mem_contig)
        mf = ADIOI_Flatten_and_find(dt);
    int nm = mf ? (int) mf->count : 1;
    v->cum = malloc((ff->count + 1 + nm + 1) * sizeof(int64_t));
    if (!v->cum)
        return -1;
    ads_view_init(&v->file, fd->disp, fext, (int) ff->count, ff->indices, ff->blocklens, v->cum);
    v->mem_idx = 0;
    v->mem_len = bytes;
    if (mf)
        ads_view_init(&v->mem, (int64_t) (intptr_t) buf, mext, nm, mf->indices, mf->blocklens,
                      v->cum + ff->count + 1);
    else
        ads_view_init(&v->mem, (int64_t) (intptr_t) buf, bytes, 1, &v->mem_idx, &v->mem_len,
                      v->cum + ff->count + 1);
    return 0;
}

/* --- page-cache state and costs ------------------------------------------ */

/* is [off, off+len) mostly not in the page cache?  (samples the start) */
static int is_cold(int fd_sys, int64_t off, int64_t len)
{
    long page = sysconf(_SC_PAGESIZE);
    int64_t start = off / page * page;
    int64_t n = (off + (len < ADS_PROBE_BYTES ? len : ADS_PROBE_BYTES) - start + page - 1) / page;
    unsigned char vec[ADS_PROBE_BYTES / 4096 + 2];
    if (n <= 0 || n > (int64_t) sizeof(vec))
        n = sizeof(vec);
    void *m = mmap(NULL, n * page, PROT_READ, MAP_SHARED, fd_sys, start);
    if (m == MAP_FAILED)
        return 1;
    int resident = 0;
    if (mincore(m, n * page, vec) == 0)
        for (int64_t k = 0; k < n; k++)
            resident += vec[k] & 1;
    munmap(m, n * page);
    return resident * 2 < n;
}

static void call_costs(const struct ads_state *st, int cold, struct ads_costs *c)
{
    c->read = cold ? (struct ads_cost) {st->cal.rd_lat_cold, st->cal.rd_bw_cold}
        : (struct ads_cost) {st->cal.rd_lat_warm, st->cal.rd_bw_warm};
    c->write = (struct ads_cost) {st->cal.wr_lat, st->cal.wr_bw};
    c->align = cold ? st->align : 1;     /* cached bytes cost by the byte */
}

/* --- system calls -------------------------------------------------------- */

static int64_t vec_io(int fd, struct iovec *iov, int n, int64_t off, int is_write)
{
    int64_t done = 0;
    while (n > 0) {
        ssize_t k = is_write ? pwritev(fd, iov, n, off + done) : preadv(fd, iov, n, off + done);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0)
            return -1;
        if (k == 0)
            break;      /* end of file */
        done += k;
        while (n > 0 && (size_t) k >= iov->iov_len) {
            k -= iov->iov_len;
            iov++;
            n--;
        }
        if (n > 0) {
            iov->iov_base = (char *) iov->iov_base + k;
            iov->iov_len -= k;
        }
    }
    return done;
}

static char *scratch(struct ads_state *st, int64_t len)
{
    if (st->scratch_len < len) {
        free(st->scratch);
        st->scratch = malloc(len);
        st->scratch_len = st->scratch ? len : 0;
    }
    return st->scratch;
}

/* --- windows ------------------------------------------------------------- */

static int read_window(struct ads_call *c, const struct ads_window *w)
{
    struct iovec iov[2 * ADS_MAX_PIECES + 1];
    char *junk = w->holes ? scratch(c->st, w->end - w->start) : NULL;
    int n = 0;
    int64_t cur = w->start;
    if (w->holes && !junk)
        return ENOMEM;
    for (int k = 0; k < c->np; k++) {
        const struct ads_piece *p = &c->pieces[k];
        if (p->off > cur)
            iov[n++] = (struct iovec) {junk, (size_t) (p->off - cur)};
        iov[n++] = (struct iovec) {(void *) (intptr_t) p->mem, (size_t) p->len};
        cur = p->off + p->len;
    }
    if (w->end > cur)
        iov[n++] = (struct iovec) {junk, (size_t) (w->end - cur)};
    xt_note_request(c->fd, 0, w->end - w->start);
    return vec_io(c->fd->fd_sys, iov, n, w->start, 0) < 0 ? errno : 0;
}

static int write_pieces(struct ads_call *c, const struct ads_window *w)
{
    struct iovec iov[ADS_MAX_PIECES];
    for (int k = 0; k < c->np; k++)
        iov[k] = (struct iovec) {(void *) (intptr_t) c->pieces[k].mem, (size_t) c->pieces[k].len};
    xt_note_request(c->fd, 1, w->end - w->start);
    return vec_io(c->fd->fd_sys, iov, c->np, w->start, 1) < 0 ? errno : 0;
}

static int rmw_window(struct ads_call *c, const struct ads_window *w)
{
    int64_t len = w->end - w->start;
    char *b = scratch(c->st, len);
    if (!b)
        return ENOMEM;
    struct iovec rd = {b, (size_t) len}, wr = {b, (size_t) len};
    xt_note_request(c->fd, 0, len);
    int64_t got = vec_io(c->fd->fd_sys, &rd, 1, w->start, 0);
    if (got < 0)
        return errno;
    memset(b + got, 0, len - got);      /* past the end of file */
    for (int k = 0; k < c->np; k++)
        memcpy(b + (c->pieces[k].off - w->start), (void *) (intptr_t) c->pieces[k].mem,
               c->pieces[k].len);
    xt_count(c->fd, &ads_layer, ADS_C_RMW, 1);
    xt_note_request(c->fd, 1, len);
    return vec_io(c->fd->fd_sys, &wr, 1, w->start, 1) < 0 ? errno : 0;
}

static int issue(struct ads_call *c)
{
    struct ads_window w = ads_plan_window(&c->plan);
    int rc = !c->is_write ? read_window(c, &w) : w.holes ? rmw_window(c, &w)
        : write_pieces(c, &w);
    xt_count(c->fd, &ads_layer, ADS_C_WINDOWS, 1);
    xt_count(c->fd, &ads_layer, c->is_write ? ADS_C_WRITE_BYTES : ADS_C_READ_BYTES,
             w.end - w.start);
    xt_count(c->fd, &ads_layer, ADS_C_USEFUL_BYTES, w.data);
    c->np = 0;
    return rc;
}

/* plans and issues every window of the access; returns 0 or an errno */
static int run(struct ads_call *c, const struct ads_views *v, int64_t fpos, int64_t bytes)
{
    struct ads_piece_iter it;
    struct ads_piece p;
    int rc = 0;
    ads_piece_begin(&it, &v->file, fpos, &v->mem, 0, bytes);
    while (rc == 0 && ads_piece_next(&it, &p)) {
        if (!ads_plan_join(&c->plan, p.off, p.len)) {
            rc = issue(c);
            ads_plan_start(&c->plan, p.off, p.len);
        }
        c->pieces[c->np++] = p;
    }
    if (rc == 0 && c->np)
        rc = issue(c);
    xt_count(c->fd, &ads_layer, ADS_C_THROUGH, c->plan.through);
    xt_count(c->fd, &ads_layer, ADS_C_SPLIT, c->plan.split);
    return rc;
}

/* --- the call ------------------------------------------------------------ */

static int delegate(ADIO_File fd, struct ads_state *st, MPI_Datatype dt, int64_t bytes)
{
    int file_contig;
    ADIOI_Datatype_iscontig(fd->filetype, &file_contig);
    return !st->direct || fd->atomicity || file_contig || bytes == 0;
}

static void plan_call(struct ads_call *c, const struct ads_views *v, int64_t fpos,
                      int64_t bytes, int64_t lo, int64_t hi, struct ads_costs *costs)
{
    ADIO_File fd = c->fd;
    struct stat sb;
    int64_t eof = fstat(fd->fd_sys, &sb) == 0 ? sb.st_size : hi;
    int cold = lo < eof && is_cold(fd->fd_sys, lo, (eof < hi ? eof : hi) - lo);
    call_costs(c->st, cold, costs);
    struct ads_ctx x = {
        .c = costs, .is_write = c->is_write, .eof = eof, .access_end = hi,
        .max_window = c->is_write ? fd->hints->ind_wr_buffer_size : fd->hints->ind_rd_buffer_size,
    };
    if (x.max_window <= 0)
        x.max_window = 4 << 20;
    ads_plan_init(&c->plan, c->st->method, &x, ADS_MAX_PIECES);
    xt_count(fd, &ads_layer, ADS_C_COLD_CALLS, cold);
}

void ads_strided(ADIO_File fd, void *buf, int count, MPI_Datatype dt, int fpt,
                 ADIO_Offset offset, ADIO_Status *status, int *error_code, int is_write)
{
    static char myname[] = "ADIOI_ADS_STRIDED";
    struct ads_state *st = xt_slot_of(fd, &ads_layer)->state;
    MPI_Count size;
    struct ads_views v;
    MPI_Type_size_x(dt, &size);
    int64_t bytes = (int64_t) size * count;
    const ADIOI_Fns *lower = xt_lower(fd, &ads_layer);
    xt_count(fd, &ads_layer, ADS_C_CALLS, 1);
    if (delegate(fd, st, dt, bytes) || views_init(&v, fd, buf, dt, bytes) != 0) {
        xt_count(fd, &ads_layer, ADS_C_DELEGATED, 1);
        if (is_write)
            lower->ADIOI_xxx_WriteStrided(fd, buf, count, dt, fpt, offset, status, error_code);
        else
            lower->ADIOI_xxx_ReadStrided(fd, buf, count, dt, fpt, offset, status, error_code);
        return;
    }
    int64_t fpos = fpt == ADIO_INDIVIDUAL ? ads_view_pos(&v.file, fd->fp_ind)
        : (int64_t) offset * fd->etype_size;
    int64_t lo = ads_view_addr(&v.file, fpos), hi = ads_view_addr(&v.file, fpos + bytes - 1) + 1;
    struct ads_call *c = calloc(1, sizeof(*c));
    struct ads_costs costs;
    int rc = ENOMEM;
    if (c) {
        *c = (struct ads_call) {.fd = fd, .st = st, .is_write = is_write};
        if (is_write)
            ADIOI_WRITE_LOCK(fd, lo, SEEK_SET, hi - lo);
        plan_call(c, &v, fpos, bytes, lo, hi, &costs);
        rc = run(c, &v, fpos, bytes);
        if (is_write)
            ADIOI_UNLOCK(fd, lo, SEEK_SET, hi - lo);
        free(c);
    }
    if (fpt == ADIO_INDIVIDUAL)
        fd->fp_ind = ads_view_addr(&v.file, fpos + bytes);
    free(v.cum);
    fd->fp_sys_posn = -1;
    *error_code = rc ? ADIOI_Err_create_code(myname, fd->filename, rc) : MPI_SUCCESS;
    if (rc == 0)
        MPIR_Status_set_bytes(status, dt, bytes);
}

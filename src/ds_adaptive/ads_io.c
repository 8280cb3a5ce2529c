/* romio-xt adaptive data sieving: executing one strided call.
 *
 * Pieces (contiguous in file and memory) are grouped into windows by the
 * planner; each window is one contiguous file range.  The planner collects a
 * window's pieces, then the data moves:
 *  - windows of large pieces: preadv/pwritev straight between the file and
 *    the user's buffer, holes of reads going to a scratch buffer;
 *  - windows of small pieces, and read-modify-write windows: one pread or
 *    pwrite of the whole window through the scratch buffer, and memcpy.
 * With a layer below that must see every request (the E10 cache), read
 * windows go through its contiguous calls instead of ROMIO's own sieving.
 * A write call with holes in its extent holds one write lock over it, so
 * that no other process's read-modify-write can lose its bytes (or it lose
 * theirs); one without holes writes unlocked, as a contiguous call. */
#define _GNU_SOURCE
#include "ads.h"

#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#define ADS_IOV 1024                /* IOV_MAX */
#define ADS_WINDOW_PIECES 65536
#define ADS_COPY_BELOW 1024         /* average piece size under which copying beats iovecs */
#define ADS_ZERO_IOV_HOLE 4096      /* average hole from which iovecs of zeros beat clearing */
#define ADS_BOUNCE_FROM 4096        /* average piece from which single pieces bounce (through_scratch) */

struct ads_call {
    ADIO_File fd;
    struct ads_state *st;
    int is_write;
    struct ads_plan plan;
    struct ads_seg *segs;           /* the current window's, ADS_WINDOW_PIECES at most */
    int nseg;
    int ramped;                     /* a cold read in chunks began (read_chunk) */
    int stream;                     /* the window continues a stream (ads_cold_stream) */
    int64_t prev_end, next_off;     /* the previous window's end, the next one's start (-1) */
    int skew;                       /* the scratch buffer's for this window (through_scratch) */
    int64_t ctr[ADS_NCOUNTERS];
};

static void *at(int64_t addr)
{
    return (void *) (intptr_t) addr;
}

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
    ADIOI_Flatlist_node *ff = xt_flatten(fd->filetype), *mf = NULL;
    ADIOI_Datatype_iscontig(dt, &mem_contig);
    MPI_Type_get_extent(fd->filetype, &lb, &fext);
    MPI_Type_get_extent(dt, &lb, &mext);
    if (!mem_contig)
        mf = xt_flatten(dt);
    int nm = mf ? (int) mf->count : 1;
    v->cum = malloc((ff->count + 1 + nm + 1) * sizeof(int64_t));
    if (!v->cum)
        return -1;
    ads_view_init(&v->file, fd->disp, fext, (int) ff->count, xt_off64(ff->indices),
                  xt_off64(ff->blocklens), v->cum);
    v->mem_idx = 0;
    v->mem_len = bytes;
    if (mf)
        ads_view_init(&v->mem, (int64_t) (intptr_t) buf, mext, nm, xt_off64(mf->indices),
                      xt_off64(mf->blocklens),
                      v->cum + ff->count + 1);
    else
        ads_view_init(&v->mem, (int64_t) (intptr_t) buf, bytes, 1, &v->mem_idx, &v->mem_len,
                      v->cum + ff->count + 1);
    return 0;
}

/* --- page-cache state and costs ------------------------------------------ */

struct ads_probe {
    int fd_sys;
    int64_t off, len;
};

static int probe_cold(void *arg)
{
    const struct ads_probe *pr = arg;
    return ads_range_cold(pr->fd_sys, pr->off, pr->len);
}

static void call_costs(const struct ads_state *st, int cold, struct ads_costs *c)
{
    c->read = cold ? (struct ads_cost) {st->cal.rd_lat_cold, st->cal.rd_bw_cold}
        : (struct ads_cost) {st->cal.rd_lat_warm, st->cal.rd_bw_warm};
    /* a write into part of a page that is not cached reads the page first */
    c->write = (struct ads_cost) {st->cal.wr_lat, st->cal.wr_bw};
    c->fill_lat = cold ? st->cal.rd_lat_cold : 0;
    c->append_lat = st->cal.wr_lat_eof;
    c->align = cold ? st->align : 1;     /* cached bytes cost by the byte */
}

/* --- system calls -------------------------------------------------------- */

/* all of iov at off, or up to the end of file for reads; bytes or -1 */
static int64_t vec_io(int fd, struct iovec *iov, int n, int64_t off, int is_write)
{
    int64_t done = 0;
    while (n > 0) {
        ssize_t k = n > 1 ? (is_write ? pwritev(fd, iov, n, off + done)
                             : preadv(fd, iov, n, off + done))
            : is_write ? pwrite(fd, iov->iov_base, iov->iov_len, off + done)  /* cheaper */
            : pread(fd, iov->iov_base, iov->iov_len, off + done);
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

static int64_t whole_io(int fd, void *buf, int64_t len, int64_t off, int is_write)
{
    return is_write ? xt_pwrite_full(fd, buf, len, off) : xt_pread_full(fd, buf, len, off);
}

/* one contiguous request through the layers below: bytes moved, or -1 */
static int64_t lower_io(ADIO_File fd, void *buf, int64_t len, int64_t off, int is_write)
{
    ADIO_Status st;
    int err, n = 0;
    const ADIOI_Fns *lo = xt_lower(fd, XT_LAYER_ads);
    int64_t handled = xt_file(fd)->handled;     /* a layer below notes what it absorbs */
    if (is_write)
        lo->ADIOI_xxx_WriteContig(fd, buf, (int) len, MPI_BYTE, ADIO_EXPLICIT_OFFSET, off, &st,
                                  &err);
    else
        lo->ADIOI_xxx_ReadContig(fd, buf, (int) len, MPI_BYTE, ADIO_EXPLICIT_OFFSET, off, &st,
                                 &err);
    if (err != MPI_SUCCESS) {
        errno = EIO;
        return -1;
    }
    MPI_Get_count(&st, MPI_BYTE, &n);
    if (xt_file(fd)->handled == handled)
        xt_note_request(fd, is_write, len);
    return n;
}

/* the request size for a read of a window of len bytes straight from the
 * descriptor: a cold file in this directory reads faster as a stream of
 * rd_chunk requests (calibrated) than as one, else len.  That can be more
 * requests than pieces (windows of one 1 MiB piece, split at 1 MiB holes:
 * 1367 MB/s against 616 whole, 2.2x stock enable); where requests cost more
 * than bytes, the probe finds no gain and rd_chunk is 0.  Asks the page
 * cache once per call when the planner did not need to. */
static int64_t read_chunk(struct ads_call *c, int64_t len)
{
    static int64_t forced = -1;     /* test hook: every read in chunks of this size */
    int64_t ch = (int64_t) c->st->cal.rd_chunk;
    struct ads_plan *p = &c->plan;
    if (forced < 0)
        forced = xt_test_hook("ROMIO_XT_ADS_TEST_CHUNK", 0);
    if (forced > 0)
        return c->st->via_lower ? len : forced;
    if (ch <= 0 || len <= 2 * ch || c->st->via_lower || !c->stream)
        return len;
    if (!p->x) {    /* (a one-page RWF_NOWAIT read instead: its read-ahead halved
                     * the stream's speed, 1 MiB pieces 1367 -> 775 MB/s) */
        p->probed = 1;
        p->x = p->probe(p->arg) ? &p->cold : &p->warm;
    }
    return p->x == &p->cold ? ch : len;
}

/* one window-sized request, noted for the stats: straight to the
 * descriptor (reads of a cold file in chunks, read_chunk), or through the
 * layers below */
static int64_t win_io(struct ads_call *c, void *buf, int64_t len, int64_t off, int is_write)
{
    if (c->st->via_lower)
        return lower_io(c->fd, buf, len, off, is_write);
    int64_t ch = is_write ? len : read_chunk(c, len), done = 0;
    while (done < len) {
        int64_t n = ch < len && !c->ramped ? ADS_READ_FIRST : ch;
        c->ramped |= ch < len;
        n = len - done < n ? len - done : n;
        xt_note_request(c->fd, is_write, n);
        int64_t k = whole_io(c->fd->fd_sys, (char *) buf + done, n, off + done, is_write);
        if (k < 0)
            return -1;
        done += k;
        if (k < n)
            break;          /* end of file */
    }
    return done;
}

/* len bytes of scratch that will hold file bytes from file offset start:
 * placed so that its address minus the file offset is skew (mod 4 KiB) */
static char *scratch(struct ads_state *st, int64_t len, int64_t start, int skew)
{
    if (st->scratch_len < len) {
        free(st->scratch);
        st->scratch = xt_page_alloc(len);
        st->scratch_len = st->scratch ? len : 0;
    }
    return st->scratch ? xt_placed(st->scratch, start, skew) : NULL;
}

/* the window's first piece: its user address minus its file offset */
static uintptr_t user_skew(const struct ads_call *c)
{
    return (uintptr_t) c->segs[0].mem - (uintptr_t) c->segs[0].off;
}

/* would the window's first piece move straight between the file and the
 * user's memory at a slow skew (xt_bad_skew: destination minus source)? */
static int user_skew_bad(const struct ads_call *c)
{
    uintptr_t u = user_skew(c);
    return c->is_write ? xt_bad_skew(0, u) : xt_bad_skew(u, 0);
}

/* How the window's pieces move (sets c->skew, the scratch buffer's skew):
 * 1 through the scratch buffer, 0 straight between file and user memory
 * (vector_window; a piece that would take the slow skew there bounces
 * through the scratch).  Small pieces go through the scratch, at a skew
 * chosen from the first piece.  So do pieces under ADS_BOUNCE_FROM on
 * average whose first piece takes the slow skew (bouncing every other 1 KiB
 * piece cost more than one copy of the window: 346 against 262 us per call
 * through 2 KiB holes), and, above a layer that must see every request,
 * large pieces at the slow skew (no bouncing there). */
static int scratch_forced(void)
{
    static int forced = -1;     /* test hook: every window through the scratch */
    if (forced < 0)
        forced = xt_test_hook("ROMIO_XT_ADS_TEST_SCRATCH", 0) != 0;
    return forced;
}

static int through_scratch(struct ads_call *c, const struct ads_window *w, int small)
{
    int forced = scratch_forced();
    int bad = c->nseg > 0 && user_skew_bad(c);
    c->skew = bad ? 2048 : 0;
    int mid = w->data < (int64_t) ADS_BOUNCE_FROM * w->npieces;
    return small || (c->nseg > 0 && forced) ||
        ((c->st->via_lower || mid) && bad && xt_copy_skew_slow());
}

/* --- windows ------------------------------------------------------------- */

/* memcpy of n pieces of len bytes, dst and src each going on by its stride;
 * the usual tiny lengths get a loop with the length known at compile time */
#define ADS_COPY_LOOP(L) for (int64_t k = 0; k < n; k++, d += ds, s += ss) memcpy(d, s, L)
static void copy_pieces(char *d, int64_t ds, const char *s, int64_t ss, int64_t len, int64_t n)
{
    switch (len) {
    case 4: ADS_COPY_LOOP(4); break;
    case 8: ADS_COPY_LOOP(8); break;
    case 16: ADS_COPY_LOOP(16); break;
    case 32: ADS_COPY_LOOP(32); break;
    case 64: ADS_COPY_LOOP(64); break;
    case 128: ADS_COPY_LOOP(128); break;
    default: ADS_COPY_LOOP(len); break;
    }
}

/* pieces of segment g that lie in the first got bytes of the window from
 * start, copied out; the piece cut by got in part */
static void copy_seg_out(const struct ads_seg *g, const char *b, int64_t start, int64_t got)
{
    int64_t first = g->off - start, whole = g->count;
    if (first + (whole - 1) * g->stride + g->len > got)      /* cut by the end of file */
        whole = got - first >= g->len ? (got - first - g->len) / g->stride + 1 : 0;
    copy_pieces(at(g->mem), g->mstride, b + first, g->stride, g->len, whole);
    if (whole < g->count) {
        int64_t n = got - (first + whole * g->stride);
        if (n > 0)
            memcpy(at(g->mem + whole * g->mstride), b + first + whole * g->stride, n);
    }
}

/* ZERO_LEN bytes of zeros that are never written: the holes of a write
 * window past the end of file come from here (read faults map the zero
 * page), so the scratch buffer is not cleared for them */
#define ZERO_LEN (1 << 20)
static const char *zeros(void)
{
    static const char *z;
    const char *have = __atomic_load_n(&z, __ATOMIC_ACQUIRE);
    if (have)
        return have;
    void *m = mmap(NULL, ZERO_LEN, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return NULL;
    if (!__atomic_compare_exchange_n(&z, &have, m, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        munmap(m, ZERO_LEN);        /* another thread's is in place */
    return __atomic_load_n(&z, __ATOMIC_ACQUIRE);
}

/* iovecs for bytes [from, to) of a window from the zero region; the count,
 * or more than ADS_IOV when they do not fit */
static int zero_iov(struct iovec *iov, int n, int64_t from, int64_t to)
{
    for (; from < to && n < ADS_IOV; from += ZERO_LEN) {
        int64_t k = to - from < ZERO_LEN ? to - from : ZERO_LEN;
        iov[n++] = (struct iovec) {(void *) zeros(), (size_t) k};
    }
    return from < to ? ADS_IOV + 1 : n;
}

/* a write window's iovecs: its first got bytes (read from the file) and its
 * pieces from the scratch buffer b, the holes past them zeros; the count,
 * or -1 when they do not fit in ADS_IOV */
static int tail_iov(const struct ads_call *c, const struct ads_window *w, char *b, int64_t got,
                    struct iovec *iov)
{
    int n = 0;
    int64_t cur = got;
    if (got > 0)
        iov[n++] = (struct iovec) {b, (size_t) got};
    for (const struct ads_seg *g = c->segs; g < c->segs + c->nseg; g++)
        for (int64_t k = 0; k < g->count; k++) {
            int64_t lo = g->off + k * g->stride - w->start, hi = lo + g->len;
            if (hi <= cur)
                continue;
            lo = lo > cur ? lo : cur;
            n = zero_iov(iov, n, cur, lo);
            if (n >= ADS_IOV)
                return -1;
            iov[n++] = (struct iovec) {b + lo, (size_t) (hi - lo)};
            cur = hi;
        }
    n = zero_iov(iov, n, cur, w->end - w->start);
    return n <= ADS_IOV ? n : -1;
}

/* the pieces copied into the scratch buffer b and the window written; the
 * holes past the end of file (from got on) are zeros: from the zero region
 * when they are large and the iovecs fit (the scratch is not cleared for
 * them: 32 MiB of 15 KiB holes cost 0.85 ms of memset), else cleared */
static int64_t write_window(struct ads_call *c, const struct ads_window *w, char *b, int64_t got)
{
    int64_t len = w->end - w->start;
    struct iovec iov[ADS_IOV];
    int n = got < len && w->holes >= ADS_ZERO_IOV_HOLE * w->npieces && !c->st->via_lower
        && zeros() ? tail_iov(c, w, b, got, iov) : -1;
    if (n < 0)
        memset(b + got, 0, len - got);
    for (const struct ads_seg *g = c->segs; g < c->segs + c->nseg; g++)
        copy_pieces(b + (g->off - w->start), g->stride, at(g->mem), g->mstride, g->len, g->count);
    if (n < 0)
        return win_io(c, b, len, w->start, 1);
    xt_note_request(c->fd, 1, len);
    return vec_io(c->fd->fd_sys, iov, n, w->start, 1);
}

/* the window through the scratch buffer: read it (reads and read-modify-
 * write) and copy pieces out, or copy pieces in and write it */
static int copy_window(struct ads_call *c, const struct ads_window *w)
{
    int64_t len = w->end - w->start, got = len;
    char *b = scratch(c->st, len, w->start, c->skew);
    const struct ads_seg *g = c->segs, *end = c->segs + c->nseg;
    if (!b)
        return ENOMEM;
    if (!c->is_write || w->holes) {
        got = win_io(c, b, len, w->start, 0);
        if (got < 0)
            return errno;
    }
    if (!c->is_write) {
        for (; g < end; g++)        /* bytes past the end of file stay untouched */
            copy_seg_out(g, b, w->start, got);
        return 0;
    }
    c->ctr[ADS_C_RMW] += w->holes > 0;
    int rc = write_window(c, w, b, got) < 0 ? errno : 0;
    if (!c->st->via_lower)
        xt_wrote(c->fd, w->start, len);     /* layers caching this file drop it */
    return rc;
}

/* would this piece move straight at the slow skew on this CPU? */
static int piece_slow(const struct ads_call *c, int64_t mem, int64_t off)
{
    return c->is_write ? xt_bad_skew((uintptr_t) off, (uintptr_t) mem)
        : xt_bad_skew((uintptr_t) mem, (uintptr_t) off);
}

/* does any piece of the window take the slow skew (where it is slow)? */
static int any_slow(const struct ads_call *c)
{
    if (!xt_copy_skew_slow())
        return 0;
    for (const struct ads_seg *s = c->segs; s < c->segs + c->nseg; s++)
        for (int64_t k = 0; k < s->count; k++)
            if (piece_slow(c, s->mem + k * s->mstride, s->off + k * s->stride))
                return 1;
    return 0;
}

/* a piece's bytes in the vector: the user's, or where they bounce through
 * b (the window's scratch at skew 2048, good against both) when straight
 * would take the slow skew; writes copy them there first */
static char *piece_at(struct ads_call *c, char *b, int64_t start, int64_t mem, int64_t off,
                      int64_t len)
{
    if (!b || !piece_slow(c, mem, off))
        return at(mem);
    if (c->is_write)
        memcpy(b + (off - start), at(mem), len);
    return b + (off - start);
}

/* after a read: the bounced pieces within the got bytes from start copied out */
static void bounce_out(const struct ads_call *c, const char *b, int64_t start, int64_t got)
{
    for (const struct ads_seg *s = c->segs; s < c->segs + c->nseg; s++)
        for (int64_t k = 0; k < s->count; k++) {
            int64_t off = s->off + k * s->stride, mem = s->mem + k * s->mstride;
            int64_t n = start + got - off < s->len ? start + got - off : s->len;
            if (n > 0 && piece_slow(c, mem, off))
                memcpy(at(mem), b + (off - start), n);
        }
}

/* the window straight between file and user buffer, in batches of iovecs;
 * holes of reads go to the scratch buffer (writes here have no holes), and
 * so do pieces that would move at the slow skew (bounced) */
static int vector_window(struct ads_call *c, const struct ads_window *w)
{
    struct iovec iov[ADS_IOV];
    /* bouncing needs scratch for the window: not for windows beyond the
     * buffer size (a long run of pieces without holes) */
    int bounce = w->end - w->start <= c->plan.warm.max_window && any_slow(c);
    char *b = w->holes || bounce ? scratch(c->st, w->end - w->start, w->start, 2048) : NULL;
    char *bb = bounce ? b : NULL;
    int64_t cur = w->start, batch = w->start, done = 0;
    int64_t most = c->is_write ? w->end - w->start
        : read_chunk(c, w->end - w->start);
    int chunked = most < w->end - w->start;     /* a cold read: first request small */
    int n = 0;
    if ((w->holes || bounce) && !b)
        return ENOMEM;
    for (const struct ads_seg *s = c->segs; s < c->segs + c->nseg; s++)
        for (int64_t k = 0; k < s->count; k++) {
            int64_t off = s->off + k * s->stride;
            char *at_mem = piece_at(c, bb, w->start, s->mem + k * s->mstride, off, s->len);
            /* a cold read's batches end at the stream's request sizes, also
             * inside a piece (one 1 MiB request cold: 3x the time) */
            for (int64_t pos = off; pos < off + s->len;) {
                int64_t limit = chunked ? (c->ramped ? most : ADS_READ_FIRST) : INT64_MAX;
                if (n + 2 > ADS_IOV || (chunked && n > 0 && cur - batch >= limit)) {
                    c->ramped |= chunked;
                    xt_note_request(c->fd, c->is_write, cur - batch);
                    done = vec_io(c->fd->fd_sys, iov, n, batch, c->is_write);
                    if (done < 0)
                        return errno;
                    if (done < cur - batch)
                        goto out;       /* end of file */
                    batch = cur;
                    n = 0;
                    limit = chunked ? most : INT64_MAX;
                }
                if (pos > cur) {        /* the hole before the piece */
                    iov[n++] = (struct iovec) {b + (cur - w->start), (size_t) (pos - cur)};
                    cur = pos;
                    if (chunked && cur - batch >= limit)
                        continue;       /* the batch ends with the hole */
                }
                int64_t part = off + s->len - pos;
                if (chunked && batch + limit - pos < part)
                    part = batch + limit - pos;
                iov[n++] = (struct iovec) {at_mem + (pos - off), (size_t) part};
                pos += part;
                cur = pos;
            }
        }
    if (w->end > cur)
        iov[n++] = (struct iovec) {b + (cur - w->start), (size_t) (w->end - cur)};
    if (n)
        xt_note_request(c->fd, c->is_write, w->end - batch);
    done = n ? vec_io(c->fd->fd_sys, iov, n, batch, c->is_write) : 0;
    if (done < 0)
        return errno;
  out:
    if (bb && !c->is_write)
        bounce_out(c, bb, w->start, batch - w->start + done);
    if (c->is_write)
        xt_wrote(c->fd, w->start, w->end - w->start);
    return 0;
}

/* a window without holes through the layers below, piece by piece */
static int lower_window(struct ads_call *c)
{
    for (const struct ads_seg *s = c->segs; s < c->segs + c->nseg; s++)
        for (int64_t k = 0; k < s->count; k++) {
            int64_t n = lower_io(c->fd, at(s->mem + k * s->mstride), s->len,
                                 s->off + k * s->stride, c->is_write);
            if (n < 0)
                return errno;
            if (n < s->len)
                return 0;       /* end of file */
        }
    return 0;
}

static int issue(struct ads_call *c)
{
    struct ads_window w = ads_plan_window(&c->plan);
    c->stream = ads_cold_stream(c->prev_end < 0 ? -1 : w.start - c->prev_end,
                                c->next_off < 0 ? -1 : c->next_off - w.end, w.end - w.start);
    c->prev_end = w.end;
    /* one piece goes straight to the user's buffer (nothing to gather),
     * unless that copy would take a slow skew */
    int small = w.npieces > 1 && w.data < (int64_t) ADS_COPY_BELOW * w.npieces;
    int64_t max = c->plan.warm.max_window;
    int copy = through_scratch(c, &w, small);
    int rc = (w.holes && c->is_write) || (copy && w.end - w.start <= max)
        ? copy_window(c, &w) : !c->st->via_lower ? vector_window(c, &w)
        : w.holes ? copy_window(c, &w) : lower_window(c);
    c->ctr[ADS_C_WINDOWS]++;
    c->ctr[c->is_write ? ADS_C_WRITE_BYTES : ADS_C_READ_BYTES] += w.end - w.start;
    c->ctr[ADS_C_USEFUL_BYTES] += w.data;
    c->nseg = 0;
    return rc;
}

/* --- runs that split at every hole -------------------------------------- */

/* one piece read as a window of its own: straight into the user's buffer,
 * or through the scratch buffer where straight would take the slow skew (as
 * issue would move it); bytes read, or -1 */
static int64_t read_piece(struct ads_call *c, int64_t mem, int64_t off, int64_t len)
{
    char *b = len <= c->plan.warm.max_window && piece_slow(c, mem, off) && xt_copy_skew_slow()
        ? scratch(c->st, len, off, 2048) : NULL;
    xt_note_request(c->fd, 0, len);
    int64_t got = xt_pread_full(c->fd->fd_sys, b ? b : at(mem), len, off);
    if (b && got > 0)
        memcpy(at(mem), b, got);
    return got;
}

/* A read of a regular run whose every gap splits (the method answers once
 * for the run; warm reads of small pieces through large holes): each piece
 * is one request, read in a tight loop without planning and issuing it as a
 * window, which cost 10-17% of such calls.  Not for reads in chunks (a cold
 * stream), above a layer that must see the requests, or under the scratch
 * test hook.  s starts with the piece of the current window, nothing else
 * in it; 1 when it moved all of s, 0 when s goes the usual way */
static int split_run(struct ads_call *c, const struct ads_seg *s, int *rc)
{
    if (c->is_write || c->st->via_lower || c->nseg || s->count < 2 || scratch_forced() ||
        !ads_plan_splits(&c->plan, s->len, s->stride, s->count - 1))
        return 0;
    c->stream = ads_cold_stream(s->stride - s->len, s->stride - s->len, s->len);
    if (read_chunk(c, s->len) < s->len) {   /* a cold stream: window by window */
        c->plan.split -= s->count - 1;
        return 0;
    }
    for (int64_t k = 0; k < s->count; k++) {
        int64_t got = read_piece(c, s->mem + k * s->mstride, s->off + k * s->stride, s->len);
        if (got < 0)
            *rc = errno;
        if (got < s->len)
            break;          /* an error, or the end of file */
    }
    c->ctr[ADS_C_WINDOWS] += s->count;
    c->ctr[ADS_C_READ_BYTES] += s->count * s->len;
    c->ctr[ADS_C_USEFUL_BYTES] += s->count * s->len;
    c->prev_end = s->off + (s->count - 1) * s->stride + s->len;
    ads_plan_clear(&c->plan);
    return 1;
}

/* plans and issues every window of the access; returns 0 or an errno */
static int run(struct ads_call *c, const struct ads_views *v, int64_t fpos, int64_t bytes)
{
    struct ads_piece_iter it;
    struct ads_seg s;
    int rc = 0;
    ads_piece_begin(&it, &v->file, fpos, &v->mem, 0, bytes);
    while (rc == 0 && ads_seg_next(&it, &s, ADS_WINDOW_PIECES)) {
        int64_t k = ads_plan_join_run(&c->plan, s.off, s.len, s.stride, s.count);
        while (rc == 0 && s.count > 0) {
            if (k > 0) {
                c->segs[c->nseg] = s;
                c->segs[c->nseg++].count = k;
            }
            s.off += k * s.stride;
            s.mem += k * s.mstride;
            s.count -= k;
            if (s.count > 0) {      /* the next piece does not join */
                c->next_off = s.off;
                rc = issue(c);
                ads_plan_start(&c->plan, s.off, s.len);
                if (rc == 0 && split_run(c, &s, &rc))
                    break;          /* the rest of the segment is read */
                k = 1 + ads_plan_join_run(&c->plan, s.off + s.stride, s.len, s.stride,
                                          s.count - 1);
            }
        }
    }
    c->next_off = -1;
    if (rc == 0 && c->nseg)
        rc = issue(c);
    c->ctr[ADS_C_THROUGH] += c->plan.through;
    c->ctr[ADS_C_SPLIT] += c->plan.split;
    return rc;
}

/* --- the call ------------------------------------------------------------ */

/* A contiguous file view leaves nothing to sieve: ROMIO moves the range in
 * one request and packs memory, where we would plan piece by piece.  Reads
 * that cross the end of file stay ours: ROMIO fills the bytes past it from
 * its uninitialised buffer, we leave them untouched. */
static int contig_view(ADIO_File fd, int64_t bytes, int fpt, ADIO_Offset offset, int is_write)
{
    int contig = 0;
    struct stat sb;
    ADIOI_Datatype_iscontig(fd->filetype, &contig);
    if (!contig || is_write)
        return contig;
    int64_t off = fpt == ADIO_INDIVIDUAL ? fd->fp_ind : fd->disp + (int64_t) offset * fd->etype_size;
    return fstat(fd->fd_sys, &sb) == 0 && off + bytes <= sb.st_size;
}

/* calls left to the layer below: a file system other than plain POSIX,
 * atomic mode (stock ROMIO locks the whole access), nothing to move, a
 * contiguous file view; and writes over a write-behind cache, which takes
 * ROMIO's read-modify-write straight to the file (through its contiguous
 * calls, other processes' cached bytes would be missed) */
static int delegate(ADIO_File fd, struct ads_state *st, int64_t bytes, int is_write, int fpt,
                    ADIO_Offset offset)
{
    return !(st->direct || (st->via_lower && !is_write)) || fd->atomicity || bytes == 0 ||
        contig_view(fd, bytes, fpt, offset, is_write);
}

/* the planner for this call: warm and cold costs; the page cache is looked
 * at only when the two disagree on a hole.  Writes need the end of file
 * (holes past it are not read); reads treat the file as long enough. */
static void plan_call(struct ads_call *c, int64_t lo, int64_t hi, int holes,
                      struct ads_costs *costs, struct ads_probe *pr)
{
    ADIO_File fd = c->fd;
    struct stat sb;
    int64_t eof = INT64_MAX;
    ads_prepare(fd, c->st);
    if (holes && c->is_write)
        eof = fstat(fd->fd_sys, &sb) == 0 ? sb.st_size : hi;
    call_costs(c->st, 0, &costs[0]);
    call_costs(c->st, 1, &costs[1]);
    struct ads_ctx x = {
        .c = &costs[0], .is_write = c->is_write, .eof = eof, .access_end = hi,
        .max_window = c->is_write ? fd->hints->ind_wr_buffer_size : fd->hints->ind_rd_buffer_size,
    };
    if (x.max_window <= 0)
        x.max_window = 4 << 20;
    struct ads_ctx xc = x;
    xc.c = &costs[1];
    *pr = (struct ads_probe) {.fd_sys = fd->fd_sys, .off = lo, .len = hi - lo};
    int probe = lo < eof;
    ads_plan_init(&c->plan, c->st->method, &x, &xc, probe ? probe_cold : NULL, pr,
                  ADS_WINDOW_PIECES);
}

static int strided_call(ADIO_File fd, struct ads_state *st, const struct ads_views *v,
                        int is_write, int64_t fpos, int64_t bytes)
{
    int64_t lo = ads_view_addr(&v->file, fpos), hi = ads_view_addr(&v->file, fpos + bytes - 1) + 1;
    int holes = hi - lo > bytes;
    /* a write with holes may read-modify-write them: locked, so that no other
     * process's read-modify-write loses its bytes or ours.  One whose pieces
     * fill its range (a darray split along its slowest dimension) writes as
     * a contiguous call does, which ROMIO never locks: on a FUSE client that
     * writes the range back at unlock (MooseFS), a lock made coll_perf's
     * 32 MiB per process a synchronous write (0.1-0.2x stock) */
    int lock = is_write && holes;
    struct ads_call call = {.fd = fd, .st = st, .is_write = is_write, .stream = 1,
        .prev_end = -1, .next_off = -1}, *c = &call;
    struct ads_costs costs[2];
    struct ads_probe pr;
    if (!st->pieces)
        st->pieces = malloc(ADS_WINDOW_PIECES * sizeof(struct ads_seg));
    if (!st->pieces)
        return ENOMEM;
    c->segs = st->pieces;
    if (lock)
        ADIOI_WRITE_LOCK(fd, lo, SEEK_SET, hi - lo);
    c->ctr[ADS_C_LOCKED] += lock;
    plan_call(c, lo, hi, holes, costs, &pr);
    int rc = run(c, v, fpos, bytes);
    c->ctr[ADS_C_COLD_CALLS] += c->plan.probed && c->plan.x == &c->plan.cold;
    if (lock)
        ADIOI_UNLOCK(fd, lo, SEEK_SET, hi - lo);
    for (int k = 0; k < ADS_NCOUNTERS; k++)
        if (c->ctr[k])
            xt_count(fd, XT_LAYER_ads, k, c->ctr[k]);
    return rc;
}

void ads_strided(ADIO_File fd, void *buf, int count, MPI_Datatype dt, int fpt,
                 ADIO_Offset offset, ADIO_Status *status, int *error_code, int is_write)
{
    static char myname[] = "ADIOI_ADS_STRIDED";
    struct ads_state *st = xt_state(fd, XT_LAYER_ads);
    const ADIOI_Fns *lower = xt_lower(fd, XT_LAYER_ads);
    struct ads_views v;
    int64_t bytes = xt_bytes(count, dt);
    xt_count(fd, XT_LAYER_ads, ADS_C_CALLS, 1);
    if (delegate(fd, st, bytes, is_write, fpt, offset) ||
        views_init(&v, fd, buf, dt, bytes) != 0) {
        xt_count(fd, XT_LAYER_ads, ADS_C_DELEGATED, 1);
        if (is_write)
            lower->ADIOI_xxx_WriteStrided(fd, buf, count, dt, fpt, offset, status, error_code);
        else
            lower->ADIOI_xxx_ReadStrided(fd, buf, count, dt, fpt, offset, status, error_code);
        return;
    }
    int64_t fpos = fpt == ADIO_INDIVIDUAL ? ads_view_pos(&v.file, fd->fp_ind)
        : (int64_t) offset * fd->etype_size;
    int rc = strided_call(fd, st, &v, is_write, fpos, bytes);
    xt_call_done(fd, fpt, ads_view_addr(&v.file, fpos + bytes), -1, rc ? NULL : status, dt,
                 bytes);
    free(v.cum);
    *error_code = xt_io_error(fd, myname, rc);
}

/* --- alignment and costs, at the first call that plans ------------------ */

static int64_t alignment(ADIO_File fd)
{
    int64_t stripe = xt_hint(fd, XT_H_ADS_STRIPE)->i;
    struct stat sb;
    if (stripe > 0)
        return stripe;
    if (fd->hints->striping_unit > 0)
        return fd->hints->striping_unit;
    if (fd->fd_sys >= 0 && fstat(fd->fd_sys, &sb) == 0 && sb.st_blksize > 0)
        return sb.st_blksize;
    return 4096;
}

/* --- calibration --------------------------------------------------------- */

/* Per process, lazily (the first call that plans; contiguous calls and files
 * without one never pay): the last directory's costs, so the opens after the
 * first in a directory cost nothing. */
static struct {
    char key[4200];
    struct ads_calib cal;
} memo;

/* this rank finds (memo, cache, another directory of the same device in
 * the cache) or measures (probe) the costs of fd's directory; the probe runs
 * under the cache's lock, so ranks that start together probe once and the
 * others read its result */
static int calibrate_here(ADIO_File fd, struct ads_calib *cal)
{
    char path[4096], dir[4096], key[4200], cache[4096], why[512];
    snprintf(path, sizeof(path), "%s", fd->filename);
    snprintf(dir, sizeof(dir), "%s", dirname(path));
    int have_key = ads_calib_key(dir, key, sizeof(key)) == 0;
    int have_cache = ads_calib_cache_file(cache, sizeof(cache)) == 0;
    if (have_key && memo.key[0] && strcmp(memo.key, key) == 0) {
        *cal = memo.cal;
        return ADS_CAL_CACHE;
    }
    int source = ADS_CAL_CACHE, lock = -1;
    if (have_key && have_cache && ads_calib_load(cache, key, cal) == 0)
        goto found;
    if (have_key && have_cache && (lock = ads_calib_lock(cache)) >= 0 &&
        ads_calib_load(cache, key, cal) == 0)
        goto found;
    source = ADS_CAL_DEVICE;    /* a new directory on a measured file system */
    if (have_key && have_cache && ads_calib_load_device(cache, key, cal) == 0)
        goto found;
    source = ADS_CAL_PROBE;
    if (ads_calib_probe(dir, cal, why, sizeof(why)) != 0) {
        ads_calib_unlock(lock);
        *cal = ads_calib_defaults;
        xt_warn(fd, XT_WARN_SELF, "romio_ads_calibrate: %s; using built-in costs (set "
                "romio_ads_latency and romio_ads_bandwidth to give your own)", why);
        return ADS_CAL_DEFAULTS;
    }
    if (have_key && have_cache)
        ads_calib_save(cache, key, cal);
  found:
    ads_calib_unlock(lock);
    if (have_key) {
        snprintf(memo.key, sizeof(memo.key), "%s", key);
        memo.cal = *cal;
    }
    return source;
}

void ads_calibrate(ADIO_File fd, struct ads_state *st)
{
    double lat = xt_hint(fd, XT_H_ADS_LATENCY)->d, bw = (double) xt_hint(fd, XT_H_ADS_BANDWIDTH)->i;
    int calibrate = xt_hint(fd, XT_H_ADS_CALIBRATE)->i == XT_H_ADS_CALIBRATE_enable;
    st->cal = ads_calib_defaults;
    st->cal_source = ADS_CAL_DEFAULTS;
    if (calibrate && (lat <= 0 || bw <= 0))
        st->cal_source = calibrate_here(fd, &st->cal);
    if (lat > 0) {      /* the user's numbers override the measured ones */
        st->cal.rd_lat_cold = st->cal.rd_lat_warm = st->cal.wr_lat = st->cal.wr_lat_eof = lat;
        st->cal_source = ADS_CAL_HINTS;
    }
    if (bw > 0) {
        st->cal.rd_bw_cold = st->cal.rd_bw_warm = st->cal.wr_bw = bw;
        st->cal_source = ADS_CAL_HINTS;
    }
}

void ads_prepare(ADIO_File fd, struct ads_state *st)
{
    if (st->ready)
        return;
    st->ready = 1;
    st->align = alignment(fd);
    ads_calibrate(fd, st);
}

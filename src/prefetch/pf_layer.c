/* romio-xt prefetch layer: the ADIO operations it overrides, open and close.
 *
 * Reads: ReadContig is where every read reaches the file system (ROMIO's
 * strided, data-sieving and two-phase code call it through fd->fns), so it
 * is the one place that moves the window.  Writes: every write path of this
 * file handle ends in WriteContig on some rank; the rank that asked for a
 * strided or collective write invalidates its whole cache after it (its
 * bytes may have been written by an aggregator).  Nonblocking writes are done
 * at once (contiguous) or switch the cache off (collective), so no write can
 * land after its invalidation. */
#include "pf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const pf_counter_names[PF_NCOUNTERS] = {
#define PF_NAME(id, name) name,
    PF_COUNTERS(PF_NAME)
#undef PF_NAME
};

/* auto is settled at open (pick_method) */
static const struct pf_method *const pf_methods[] = {
    [XT_H_PF_METHOD_auto] = NULL,
    [XT_H_PF_METHOD_fadvise] = &pf_fadvise_method,
    [XT_H_PF_METHOD_buffer] = &pf_buffer_method,
};
XT_STATIC_ASSERT_CHOICES(pf_methods, XT_H_PF_METHOD);

static struct pf_file *state(ADIO_File fd)
{
    return xt_state(fd, XT_LAYER_pf);
}

static const ADIOI_Fns *lower(ADIO_File fd)
{
    return xt_lower(fd, XT_LAYER_pf);
}

/* does this read go through the window (pf_gate.h)?  The others pass to
 * the file system, counted */
static enum pf_gate_verdict classify(ADIO_File fd, struct pf_file *pf, ADIO_Offset off,
                                     ADIO_Offset len, double now)
{
    static const enum pf_counter counted[] = {
        [PF_GATE_SEQUENTIAL] = PF_C_PASS_SEQ, [PF_GATE_LARGE] = PF_C_PASS_LARGE,
        [PF_GATE_BUSY] = PF_C_PASS_BUSY,
    };
    if (pf->all_reads)
        return PF_GATE_PREFETCH;
    enum pf_gate_verdict v = pf_gate_check(&pf->gate, off, len, now);
    if (v != PF_GATE_PREFETCH && v != PF_GATE_FIRST)
        xt_count(fd, XT_LAYER_pf, counted[v], 1);
    return v;
}

/* the window's way: block by block, so the window moves as the read proceeds */
static void read_through_window(ADIO_File fd, struct pf_file *pf, char *buf, ADIO_Offset off,
                                ADIO_Offset len, ADIO_Offset *nread, int *error_code)
{
    *error_code = MPI_SUCCESS;
    *nread = 0;
    while (*nread < len) {
        int64_t b = pf_block_of(pf, off + *nread);
        ADIO_Offset end = (b + 1) * pf->w.bs, want = len - *nread, got = 0;
        if (off + *nread + want > end)
            want = end - off - *nread;
        pf->m->piece(fd, pf, b, buf + *nread, off + *nread, want, &got, error_code);
        *nread += got;
        if (*error_code != MPI_SUCCESS || got < want)
            break;
    }
}

/* the end of a read the layer served (window or queue) */
static void read_done(ADIO_File fd, int fpt, ADIO_Offset off, ADIO_Offset nread,
                   ADIO_Status *status, MPI_Datatype dt, int *error_code)
{
    xt_note_absorbed(fd);
    if (*error_code != MPI_SUCCESS) {
        fd->fp_sys_posn = -1;
        return;
    }
    xt_call_done(fd, fpt, fd->fp_ind + nread, off + nread, status, dt, nread);
}

/* the application announced its reads (pf_announce.c): a read that starts
 * in an extent ahead goes through the queue (no gate: the application said
 * it will read these bytes), any other passes untouched */
static void announced_read(ADIO_File fd, struct pf_file *pf, void *buf, int count,
                           MPI_Datatype dt, int fpt, ADIO_Offset offset, ADIO_Status *status,
                           int *error_code)
{
    ADIO_Offset len = xt_bytes(count, dt), nread = 0;
    ADIO_Offset off = fpt == ADIO_INDIVIDUAL ? fd->fp_ind : offset;
    if (!pf_queue_covers(pf, off) || fd->atomicity) {
        xt_count(fd, XT_LAYER_pf, PF_C_PASS_OUTSIDE, 1);
        lower(fd)->ADIOI_xxx_ReadContig(fd, buf, count, dt, fpt, offset, status, error_code);
        return;
    }
    pf_queue_read(fd, pf, buf, off, len, &nread, error_code);
    read_done(fd, fpt, off, nread, status, dt, error_code);
}

static void ADIOI_PF_ReadContig(ADIO_File fd, void *buf, int count, MPI_Datatype dt,
                                int fpt, ADIO_Offset offset, ADIO_Status *status,
                                int *error_code)
{
    struct pf_file *pf = state(fd);
    ADIO_Offset len = xt_bytes(count, dt), nread = 0;
    ADIO_Offset off = fpt == ADIO_INDIVIDUAL ? fd->fp_ind : offset;
    if (len > 0 && !pf->off && pf_announce_check(fd, pf)) {
        announced_read(fd, pf, buf, count, dt, fpt, offset, status, error_code);
        return;
    }
    double t0 = xt_now();
    enum pf_gate_verdict v = len > 0 ? classify(fd, pf, off, len, t0) : PF_GATE_FIRST;
    if (len <= 0 || v != PF_GATE_PREFETCH || !pf_usable(fd, pf)) {
        lower(fd)->ADIOI_xxx_ReadContig(fd, buf, count, dt, fpt, offset, status, error_code);
        if (!pf->all_reads)
            pf_gate_done(&pf->gate, v, t0, xt_now());
        return;
    }
    int failures = pf->gate.failures;
    int64_t served = pf->served;
    read_through_window(fd, pf, buf, off, len, &nread, error_code);
    if (pf->served != served)
        pf_gate_warm(&pf->gate);
    if (!pf->all_reads)
        pf_gate_done(&pf->gate, v, t0, xt_now());
    if (pf->gate.failures != failures) {
        xt_count(fd, XT_LAYER_pf, PF_C_UNPAID, 1);
        pf_cancel(fd, pf);
    }
    read_done(fd, fpt, off, nread, status, dt, error_code);
}

/* after a write of [off, off + len) through this handle */
static void written(ADIO_File fd, ADIO_Offset off, ADIO_Offset len)
{
    struct pf_file *pf = state(fd);
    if (!pf->started || pf->off || len <= 0)
        return;
    pf->m->invalidate(fd, pf, pf_block_of(pf, off), pf_block_of(pf, off + len - 1));
}

static void written_all(ADIO_File fd)
{
    struct pf_file *pf = state(fd);
    if (pf->started && !pf->off)
        pf->m->invalidate(fd, pf, 0, -1);
}

/* another layer wrote to the file itself (xt_wrote) */
static void pf_wrote(ADIO_File fd, void *st, ADIO_Offset off, ADIO_Offset len)
{
    if (len < 0)
        written_all(fd);
    else
        written(fd, off, len);
}

static void ADIOI_PF_WriteContig(ADIO_File fd, const void *buf, int count, MPI_Datatype dt,
                                 int fpt, ADIO_Offset offset, ADIO_Status *status,
                                 int *error_code)
{
    ADIO_Offset off = fpt == ADIO_INDIVIDUAL ? fd->fp_ind : offset;
    ADIO_Offset len = xt_bytes(count, dt);
    lower(fd)->ADIOI_xxx_WriteContig(fd, buf, count, dt, fpt, offset, status, error_code);
    /* a failed write may still have changed part of the range */
    written(fd, off, len);
    if (*error_code == MPI_SUCCESS && len > 0)
        xt_note_request(fd, 1, len);
    xt_note_absorbed(fd);
}

static void ADIOI_PF_WriteStrided(ADIO_File fd, const void *buf, int count, MPI_Datatype dt,
                                  int fpt, ADIO_Offset offset, ADIO_Status *status,
                                  int *error_code)
{
    lower(fd)->ADIOI_xxx_WriteStrided(fd, buf, count, dt, fpt, offset, status, error_code);
    written_all(fd);
}

static void ADIOI_PF_WriteColl(ADIO_File fd, const void *buf, int count, MPI_Datatype dt,
                               int fpt, ADIO_Offset offset, ADIO_Status *status,
                               int *error_code)
{
    lower(fd)->ADIOI_xxx_WriteStridedColl(fd, buf, count, dt, fpt, offset, status,
                                          error_code);
    written_all(fd);
}

/* a nonblocking contiguous write is done before it returns, so the cache is
 * invalidated after the data is in the file */
static void ADIOI_PF_IwriteContig(ADIO_File fd, const void *buf, int count, MPI_Datatype dt,
                                  int fpt, ADIO_Offset offset, ADIO_Request *request,
                                  int *error_code)
{
    ADIO_Status st;
    int n = 0;
    ADIOI_PF_WriteContig(fd, buf, count, dt, fpt, offset, &st, error_code);
    if (*error_code == MPI_SUCCESS)
        MPI_Get_count(&st, MPI_BYTE, &n);
    MPIO_Completed_request_create(&fd, n, error_code, request);
}

static void ADIOI_PF_IreadContig(ADIO_File fd, void *buf, int count, MPI_Datatype dt,
                                 int fpt, ADIO_Offset offset, ADIO_Request *request,
                                 int *error_code)
{
    ADIO_Status st;
    int n = 0;
    if (!pf_usable(fd, state(fd))) {
        lower(fd)->ADIOI_xxx_IreadContig(fd, buf, count, dt, fpt, offset, request, error_code);
        return;
    }
    ADIOI_PF_ReadContig(fd, buf, count, dt, fpt, offset, &st, error_code);
    if (*error_code == MPI_SUCCESS)
        MPI_Get_count(&st, MPI_BYTE, &n);
    MPIO_Completed_request_create(&fd, n, error_code, request);
}

static void ADIOI_PF_IwriteStrided(ADIO_File fd, const void *buf, int count, MPI_Datatype dt,
                                   int fpt, ADIO_Offset offset, ADIO_Request *request,
                                   int *error_code)
{
    /* the write may complete later: no cache from here on */
    pf_switch_off(fd, state(fd));
    lower(fd)->ADIOI_xxx_IwriteStrided(fd, buf, count, dt, fpt, offset, request, error_code);
}

static void ADIOI_PF_IwriteColl(ADIO_File fd, const void *buf, int count, MPI_Datatype dt,
                                int fpt, ADIO_Offset offset, ADIO_Request *request,
                                int *error_code)
{
    pf_switch_off(fd, state(fd));
    lower(fd)->ADIOI_xxx_IwriteStridedColl(fd, buf, count, dt, fpt, offset, request,
                                           error_code);
}

/* after sync, other processes' synced writes must be visible */
static void ADIOI_PF_Flush(ADIO_File fd, int *error_code)
{
    lower(fd)->ADIOI_xxx_Flush(fd, error_code);
    written_all(fd);
}

static void ADIOI_PF_Resize(ADIO_File fd, ADIO_Offset size, int *error_code)
{
    lower(fd)->ADIOI_xxx_Resize(fd, size, error_code);
    written_all(fd);
}

/* MPI_File_set_info, set_view: ranges announced during the run */
static void ADIOI_PF_SetInfo(ADIO_File fd, MPI_Info users_info, int *error_code)
{
    lower(fd)->ADIOI_xxx_SetInfo(fd, users_info, error_code);
    pf_announce_info(fd, state(fd), users_info);
}

static const ADIOI_Fns pf_ops = {
    .ADIOI_xxx_ReadContig = ADIOI_PF_ReadContig,
    .ADIOI_xxx_WriteContig = ADIOI_PF_WriteContig,
    .ADIOI_xxx_WriteStrided = ADIOI_PF_WriteStrided,
    .ADIOI_xxx_WriteStridedColl = ADIOI_PF_WriteColl,
    .ADIOI_xxx_IreadContig = ADIOI_PF_IreadContig,
    .ADIOI_xxx_IwriteContig = ADIOI_PF_IwriteContig,
    .ADIOI_xxx_IwriteStrided = ADIOI_PF_IwriteStrided,
    .ADIOI_xxx_IwriteStridedColl = ADIOI_PF_IwriteColl,
    .ADIOI_xxx_Flush = ADIOI_PF_Flush,
    .ADIOI_xxx_Resize = ADIOI_PF_Resize,
    .ADIOI_xxx_SetInfo = ADIOI_PF_SetInfo,
};

static int pf_wanted(const struct xt_file *xf)
{
    return xf->hints[XT_H_PF].i == XT_H_PF_enable;
}

/* the willneed ranges (read_ahead < cache_blocks is a rule of the hint
 * table, pf_hints.def); a bad list: rank 0 warns, the whole file */
static void settle_hints(ADIO_File fd, struct xt_file *xf, struct pf_range *ranges,
                         int *nranges)
{
    char why[160], warn[1400];
    struct xt_hint_value *wn = &xf->hints[XT_H_PF_WILLNEED];
    *nranges = pf_ranges_parse(wn->s, ranges, PF_MAX_RANGES, why, sizeof(why));
    if (*nranges < 0) {
        xt_hint_bad_warning(warn, sizeof(warn), &xt_hint_defs[XT_H_PF_WILLNEED], wn->s, why,
                            "0:0");
        xt_warn(fd, XT_WARN_ALL, "%s", warn);
        snprintf(wn->s, sizeof(wn->s), "0:0");
        ranges[0].off = ranges[0].len = 0;
        *nranges = 1;
    }
}

/* A process's buffer would keep data that other processes' writes change
 * without any call on this process (independent write, MPI_Barrier, read:
 * stock ROMIO gets it right and HDF5 relies on it).  So the buffer method
 * serves read-only files only; a file open for writing runs without prefetch
 * (fadvise would be coherent, but it is slower than no prefetch where the
 * kernel's read-ahead works: docs/prefetch.md).  Rank 0 says so once per job.
 * Returns 1 when the layer must not be installed. */
static int writable_buffer(ADIO_File fd, struct xt_file *xf)
{
    static int warned;
    if (xf->hints[XT_H_PF_METHOD].i != XT_H_PF_METHOD_buffer || (fd->access_mode & ADIO_RDONLY))
        return 0;
    xf->hints[XT_H_PF].i = XT_H_PF_disable;
    snprintf(xf->hints[XT_H_PF].s, sizeof(xf->hints[XT_H_PF].s), "disable");
    xt_warn(fd, XT_WARN_ALL, warned ? NULL : "hint romio_prefetch: method 'buffer' could return "
            "stale data on a file open for writing ('%s' and any later such file in this "
            "job); using 'disable' there", fd->filename);
    warned = 1;
    return 1;
}

/* method auto: buffer where it is coherent and can read the file itself
 * (read-only, nothing below keeps data the file lacks), else fadvise */
static void pick_method(ADIO_File fd, struct xt_file *xf)
{
    struct xt_hint_value *m = &xf->hints[XT_H_PF_METHOD];
    if (m->i != XT_H_PF_METHOD_auto)
        return;
    int buffer = (fd->access_mode & ADIO_RDONLY) && xt_direct_io_ok(fd, XT_LAYER_pf) &&
        xt_fs_has(fd, XT_FS_POSIX_FD);
    m->i = buffer ? XT_H_PF_METHOD_buffer : XT_H_PF_METHOD_fadvise;
    snprintf(m->s, sizeof(m->s), "%s", pf_methods[m->i]->name);
}

/* the slots' memory (a test hook fails it on one rank), or NULL */
static struct pf_slot *alloc_slots(const struct xt_file *xf, int cb)
{
    if (xt_test_hook("ROMIO_XT_PF_TEST_NOMEM_RANK", -1) == xf->rank)
        return NULL;
    return xt_calloc((size_t) cb, sizeof(struct pf_slot));
}

/* a rank without memory for its slots keeps the layer, passing every call
 * through: declining would leave the ranks with different layers (the stats
 * reduce and any layer's collectives assume the same stack everywhere) */
static void no_slots(ADIO_File fd, struct pf_file *pf, int cb)
{
    xt_warn(fd, XT_WARN_SELF, "hint romio_prefetch: rank %d: no memory for %d cache slots; "
            "reads of '%s' pass through", xt_file(fd)->rank, cb, fd->filename);
    pf_switch_off(fd, pf);
}

/* collective; the answer is the same on all ranks (same hints, same file
 * system, same access mode, same layers); what only a rank can fail (memory)
 * leaves the layer installed, passing through */
static int pf_open(ADIO_File fd, void *st)
{
    struct pf_file *pf = st;
    struct xt_file *xf = xt_file(fd);
    struct pf_range ranges[PF_MAX_RANGES];
    const char *why = NULL;
    int nranges;
    if (fd->orig_access_mode & MPI_MODE_WRONLY)
        return 1;
    pick_method(fd, xf);
    if (writable_buffer(fd, xf))
        return 1;
    /* fadvise reads through the table below; buffer preads fd->fd_sys */
    if (xf->hints[XT_H_PF_METHOD].i == XT_H_PF_METHOD_buffer && !xt_direct_io_ok(fd, XT_LAYER_pf))
        why = "a layer below it keeps data the file lacks (e.g. e10_cache)";
    else if (!xt_fs_has(fd, XT_FS_POSIX_FD))
        why = "the file system has no POSIX file descriptor";
    if (why) {
        xt_warn(fd, XT_WARN_ALL, "hint romio_prefetch: %s for '%s'; using 'disable'", why,
                fd->filename);
        return 1;
    }
    settle_hints(fd, xf, ranges, &nranges);
    int cb = (int) xf->hints[XT_H_PF_CACHE_BLOCKS].i;
    pf->slots = alloc_slots(xf, cb);
    pf_window_init(&pf->w, xf->hints[XT_H_PF_BLOCK_SIZE].i, cb,
                   (int) xf->hints[XT_H_PF_READ_AHEAD].i, ranges, nranges);
    if (pf->slots)
        pf_slots_init(&pf->t, pf->slots, cb);
    pf_gate_init(&pf->gate, pf->w.bs);
    pf->all_reads = xt_test_hook("ROMIO_XT_PF_TEST_ALL_READS", 0) != 0;
    pf->min_loaders = (int) xt_test_hook("ROMIO_XT_PF_TEST_LOADERS", 0);
    pf->m = pf_methods[xf->hints[XT_H_PF_METHOD].i];
    snprintf(pf->text, sizeof(pf->text), "%s", xf->hints[XT_H_PF_WILLNEED].s);
    if (!pf->slots)
        no_slots(fd, pf, cb);
    xt_helper_cpus_open(fd);    /* where the loaders will run */
    return 0;
}

static void pf_close(ADIO_File fd, void *st, int *error_code)
{
    struct pf_file *pf = st;
    if (pf->started && !pf->off)
        pf_thread_stop(pf);
    free(pf->slots);
    pf->slots = NULL;
}

static void pf_report(ADIO_File fd, void *st, struct xt_json *j)
{
    struct pf_file *pf = st;
    xt_json_str(j, "method", pf->m->name);
    xt_json_int(j, "block_size", pf->w.bs);
    xt_json_int(j, "cache_blocks", pf->t.n);
    xt_json_int(j, "read_ahead", pf->w.ahead);
}

const struct xt_layer pf_layer = {
    .name = "prefetch",
    .wanted = pf_wanted,
    .ops = &pf_ops,
    .state_size = sizeof(struct pf_file),
    .open = pf_open,
    .close = pf_close,
    .counters = pf_counter_names,
    .ncounters = PF_NCOUNTERS,
    .report = pf_report,
    .wrote = pf_wrote,
    .direct_io_ok = 1,          /* pf_wrote drops what a direct write changes */
};

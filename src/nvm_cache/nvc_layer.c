/* romio-xt NVM write-behind for two-phase aggregators (E10 hints).
 *
 * Every contiguous write reaching the bottom of the stack (two-phase
 * aggregators' writes, independent contiguous writes, the writes of a
 * collective call ROMIO serves independently) is appended to a per-process
 * cache file in e10_cache_path and queued; sync
 * threads copy it to the global file (nvc_sync.c).  Reads of a range with
 * unsynced data of this process wait for that data to be synced;
 * MPI_File_sync, resize and close wait for everything.
 *
 * Read-modify-write must never read another process's unsynced data: the
 * independent strided path (data sieving) writes straight to the global file
 * under ROMIO's lock, and before each collective call every process syncs
 * its data inside the call's byte range (two-phase fills holes by reading). */
#include "nvc.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

static struct nvc_state *state(ADIO_File fd)
{
    return xt_state(fd, XT_LAYER_nvc);
}

/* waits for this process's unsynced data overlapping [off, off+len) */
static void settle_range(struct nvc_state *st, int64_t off, int64_t len)
{
    pthread_mutex_lock(&st->mu);
    size_t upto = nvc_queue_last_overlap(&st->q, off, len);
    pthread_mutex_unlock(&st->mu);
    if (upto)
        nvc_drain(st, upto);
}

/* collective: every process's unsynced data that the call may touch
 * reaches the global file before the call starts.  A process's data can be
 * read or overwritten by another process (a two-phase aggregator's
 * read-modify-write, an Orthrus candidate) only after every process entered
 * the call: they exchange their requests first.  So the processes agree
 * (one allreduce) whether anyone holds unsynced data and, if so (a second),
 * on the call's byte range, and sync only their items inside it: a
 * checkpoint's later calls, beyond the earlier calls' bytes, wait for
 * nothing, and the threads copy behind the whole write phase (0.3-0.5 ms
 * per call on 4 ranks with ch3:sock). */
static void settle_collective(ADIO_File fd, int count, MPI_Datatype dt, int fpt,
                              ADIO_Offset offset)
{
    struct nvc_state *st = state(fd);
    pthread_mutex_lock(&st->mu);
    int pending = !nvc_queue_idle(&st->q), anyone = 0;
    pthread_mutex_unlock(&st->mu);
    MPI_Allreduce(&pending, &anyone, 1, MPI_INT, MPI_MAX, fd->comm);
    if (!anyone)
        return;
    ADIO_Offset *offs = NULL, *lens = NULL, start = 0, end = -1, fp_ind = fd->fp_ind;
    int n = 0;
    if (count > 0) {
        ADIOI_Calc_my_off_len(fd, count, dt, fpt, offset, &offs, &lens, &start, &end, &n);
        fd->fp_ind = fp_ind;    /* it advances the individual pointer */
        ADIOI_Free(offs);       /* lens points into the same allocation */
    }
    int64_t mine[2] = { count > 0 ? -start : INT64_MIN, count > 0 ? end : INT64_MIN }, all[2];
    xt_allreduce(mine, all, 2, XT_MAX_INT64, fd->comm);
    if (all[1] != INT64_MIN && all[1] >= -all[0])    /* some rank accesses bytes */
        settle_range(st, -all[0], all[1] + all[0] + 1);
}

/* queues the records just appended; 0 or -errno */
static int queue_items(struct nvc_state *st, int64_t off, int64_t len, const int64_t *recs, int rc)
{
    pthread_mutex_lock(&st->mu);
    for (int64_t o = 0, k = 0; !rc && o < len; o += st->chunk, k++)
        if (nvc_queue_push(&st->q, off + o, len - o < st->chunk ? len - o : st->chunk, recs[k]))
            rc = -ENOMEM;
    st->q.release = st->flush->release_after_write(&st->q);
    st->locking = 0;
    if (nvc_queue_idle(&st->q))
        st->lock->when_idle(st);
    pthread_cond_broadcast(&st->work);
    pthread_mutex_unlock(&st->mu);
    return rc;
}

/* appends [off, off+len) to the cache file and queues it; 0 or -errno;
 * *secs: the time the cache file took */
static int cache_write(struct nvc_state *st, ADIO_File fd, const void *buf, int64_t off,
                       int64_t len, double *secs)
{
    int64_t cached = xt_slot_of(fd, XT_LAYER_nvc)->counters[NVC_C_BYTES_CACHED];
    if (st->fail_after >= 0 && cached + len > st->fail_after)
        return -ENOSPC;         /* test only: ROMIO_XT_NVC_TEST_FAIL_AFTER */
    int64_t *recs = xt_calloc((size_t) ((len + st->chunk - 1) / st->chunk), sizeof(int64_t));
    if (!recs)
        return -ENOMEM;
    pthread_mutex_lock(&st->mu);
    nvc_compact(st);
    pthread_mutex_unlock(&st->mu);
    int rc = st->lock->before_cache(st, fd, off, len);
    double t0 = xt_now();
    if (!rc)
        rc = nvc_file_append(st->cfd, &st->tail, buf, off, len, st->chunk, recs);
    *secs = xt_now() - t0;
    xt_count(fd, XT_LAYER_nvc, NVC_C_CACHE_USEC, (int64_t) (*secs * 1e6));
    rc = queue_items(st, off, len, recs, rc);
    free(recs);
    if (!rc) {
        xt_count(fd, XT_LAYER_nvc, NVC_C_EXTENTS, 1);
        xt_count(fd, XT_LAYER_nvc, NVC_C_BYTES_CACHED, len);
    }
    return rc;
}

/* what ROMIO's WriteContig does besides the write itself */
static void finish_write(ADIO_File fd, MPI_Datatype dt, int fpt, int64_t off, int64_t len,
                         ADIO_Status * status)
{
    xt_mark_dirty(fd);
    xt_call_done(fd, fpt, off + len, -1, status, dt, len);
}

/* per process: the cache tier's cost by size class and the global file
 * system's sustained cost and compute phases (nvc_gate.h) */
static pthread_mutex_t rates_mu = PTHREAD_MUTEX_INITIALIZER;
static struct nvc_rates rates[NVC_RATE_CLASSES];

/* a cache write of len bytes took secs */
static void note_rate(int64_t len, double secs)
{
    pthread_mutex_lock(&rates_mu);
    nvc_rate_note(&rates[nvc_rate_class(len)], len, secs);
    pthread_mutex_unlock(&rates_mu);
}

/* a compute phase was seen: a sync thread may flush behind direct writes */
static int compute_seen(void)
{
    struct nvc_tiers t;
    nvc_tiers_get(&t);
    return t.compute_s > 0;
}

/* the gate's latest answer, for MPI_File_get_info (e10_cache_gate) and the
 * stats; set when it changes */
static void publish_gate(struct nvc_state *st, ADIO_File fd, int way)
{
    way = way == NVC_GATE_DIRECT ? st->gate : way;
    if (way == st->gate)
        return;
    st->gate = way;
    if (fd->info != MPI_INFO_NULL)
        ADIOI_Info_set(fd->info, "e10_cache_gate", nvc_gate_text(way));
}

/* where this write goes (nvc_gate.h); counts why not to the cache */
static int worth_caching(struct nvc_state *st, ADIO_File fd, int64_t len)
{
    pthread_mutex_lock(&st->mu);
    int64_t pending = nvc_queue_pending(&st->q);
    pthread_mutex_unlock(&st->mu);
    int held = st->flush != &nvc_flush_policies[XT_H_E10_CACHE_FLUSH_flush_immediate];
    struct nvc_tiers tiers;
    nvc_tiers_get(&tiers);
    if (st->cautious && tiers.compute_s <= 0)
        tiers.no_compute = 1;   /* auto: no copy the close may wait for until one hides */
    pthread_mutex_lock(&rates_mu);
    int way = nvc_gate_cache(held, pending, len, &tiers,
                             st->always ? NULL : &rates[nvc_rate_class(len)]);
    pthread_mutex_unlock(&rates_mu);
    publish_gate(st, fd, way);
    if (way == NVC_GATE_NO_COMPUTE || way == NVC_GATE_NOT_FASTER || way == NVC_GATE_BUSY)
        xt_count(fd, XT_LAYER_nvc, way == NVC_GATE_BUSY ? NVC_C_DIRECT_BUSY :
                 way == NVC_GATE_NO_COMPUTE ? NVC_C_DIRECT_NO_COMPUTE : NVC_C_DIRECT_SLOWER, 1);
    return way == NVC_GATE_CACHE ? NVC_GATE_CACHE : NVC_GATE_DIRECT;
}

/* the sync threads (when asked), the cache file (when caching); falls back
 * to writing straight through when they cannot be had */
static int started(struct nvc_state *st, ADIO_File fd, int threads, int file)
{
    int err = threads && !st->nthreads ? nvc_start_threads(fd, st) : 0;
    if (err) {
        nvc_fall_back(st, NVC_C_FB_PATH, "cannot start sync threads", err);
        return 0;
    }
    if (file && st->cfd < 0 && (err = nvc_start_cache_file(fd, st)) != 0) {
        nvc_fall_back(st, NVC_C_FB_PATH, "cannot create the cache file", err);
        return 0;
    }
    return 1;
}

/* a write returned: flush-behind waits NVC_FLUSH_QUIET_S after the last one
 * (no sync thread yet: no other thread reads it, and only this one starts
 * them) */
static void note_write(struct nvc_state *st)
{
    double now = xt_coarse_now();
    if (!st->nthreads) {
        st->last_write = now;
        return;
    }
    pthread_mutex_lock(&st->mu);
    st->last_write = now;
    if (!st->dirty && st->nthreads) {
        st->dirty = 1;
        pthread_cond_broadcast(&st->work);
    }
    pthread_mutex_unlock(&st->mu);
}

static void ADIOI_NVC_WriteContig(ADIO_File fd, const void *buf, int count, MPI_Datatype dt,
                                  int fpt, ADIO_Offset offset, ADIO_Status * status,
                                  int *error_code)
{
    struct nvc_state *st = state(fd);
    int64_t len = xt_bytes(count, dt);
    int64_t off = fpt == ADIO_INDIVIDUAL ? fd->fp_ind : offset;
    int ours = len > 0 && !st->direct && !st->bypass && !fd->atomicity;
    /* strict: independent writes go straight to the global file */
    int way = ours && (st->in_coll || !st->lock->write_through) ? worth_caching(st, fd, len)
        : NVC_GATE_DIRECT;
    int threads = way == NVC_GATE_CACHE || (ours && compute_seen());
    int cache = ours && started(st, fd, threads, way == NVC_GATE_CACHE) &&
        way == NVC_GATE_CACHE;
    if (ours)
        st->wrote = 1;
    if (cache) {
        double secs;
        int rc = cache_write(st, fd, buf, off, len, &secs);
        if (rc == 0) {
            note_rate(len, secs);
            note_write(st);
            xt_note_absorbed(fd);   /* the sync threads note the real requests */
            finish_write(fd, dt, fpt, off, len, status);
            *error_code = MPI_SUCCESS;
            return;
        }
        nvc_fall_back(st, NVC_C_FB_SPACE, "cannot write the cache file", -rc);
    }
    if (fd->atomicity)
        xt_count(fd, XT_LAYER_nvc, NVC_C_FB_ATOMIC, 1);
    xt_count(fd, XT_LAYER_nvc, NVC_C_BYTES_DIRECT, len);
    if (st->cfd >= 0)           /* this process's cached data under the write goes first */
        settle_range(st, off, len);
    xt_lower(fd, XT_LAYER_nvc)->ADIOI_xxx_WriteContig(fd, buf, count, dt, fpt, offset, status,
                                                    error_code);
    if (ours)
        note_write(st);
}

static void ADIOI_NVC_ReadContig(ADIO_File fd, void *buf, int count, MPI_Datatype dt, int fpt,
                                 ADIO_Offset offset, ADIO_Status * status, int *error_code)
{
    struct nvc_state *st = state(fd);
    int64_t off = fpt == ADIO_INDIVIDUAL ? fd->fp_ind : offset;
    pthread_mutex_lock(&st->mu);
    size_t upto = nvc_queue_last_overlap(&st->q, off, xt_bytes(count, dt));
    pthread_mutex_unlock(&st->mu);
    if (upto) {
        xt_count(fd, XT_LAYER_nvc, NVC_C_READ_WAITS, 1);
        nvc_drain(st, upto);
    }
    xt_lower(fd, XT_LAYER_nvc)->ADIOI_xxx_ReadContig(fd, buf, count, dt, fpt, offset, status,
                                                   error_code);
}

/* collective and strided calls: settle first, then ROMIO's code, whose
 * contiguous writes come back through ADIOI_NVC_WriteContig */
#define NVC_COLL_OP(NAME, MEMBER, CONST, LAST_T, IS_WRITE)                       \
    static void ADIOI_NVC_##NAME(ADIO_File fd, CONST void *buf, int count,       \
                                 MPI_Datatype dt, int fpt, ADIO_Offset off,      \
                                 LAST_T last, int *error_code)                   \
    {                                                                            \
        struct nvc_state *st = state(fd);                                        \
        settle_collective(fd, count, dt, fpt, off);                              \
        st->in_coll++;                                                           \
        xt_lower(fd, XT_LAYER_nvc)->MEMBER(fd, buf, count, dt, fpt, off, last,     \
                                         error_code);                            \
        st->in_coll--;                                                           \
        if (IS_WRITE && st->lock->write_through)                                 \
            nvc_drain(st, SIZE_MAX);                                             \
    }
NVC_COLL_OP(WriteColl, ADIOI_xxx_WriteStridedColl, const, ADIO_Status *, 1)
NVC_COLL_OP(ReadColl, ADIOI_xxx_ReadStridedColl, , ADIO_Status *, 0)
NVC_COLL_OP(IwriteColl, ADIOI_xxx_IwriteStridedColl, const, ADIO_Request *, 1)
NVC_COLL_OP(IreadColl, ADIOI_xxx_IreadStridedColl, , ADIO_Request *, 0)

/* a layer above runs a collective call itself: settle as for ours */
static void nvc_coll(ADIO_File fd, void *state, const struct xt_coll *c, int end)
{
    struct nvc_state *st = state;
    if (!end)
        settle_collective(fd, c->count, c->dt, c->fpt, c->off);
    st->in_coll += end ? -1 : 1;
    if (end && c->is_write && st->lock->write_through)
        nvc_drain(st, SIZE_MAX);
}

/* independent strided writes read-modify-write under ROMIO's lock, while
 * other processes may do the same: straight to the global file.  Inside a
 * collective call (non-interleaved accesses, ROMIO skips two-phase) the
 * ranges are disjoint and were settled: cached. */
static void ADIOI_NVC_WriteStrided(ADIO_File fd, const void *buf, int count, MPI_Datatype dt,
                                   int fpt, ADIO_Offset off, ADIO_Status * status,
                                   int *error_code)
{
    struct nvc_state *st = state(fd);
    int direct = st->in_coll == 0;
    __atomic_add_fetch(&st->bypass, direct, __ATOMIC_RELEASE);
    xt_lower(fd, XT_LAYER_nvc)->ADIOI_xxx_WriteStrided(fd, buf, count, dt, fpt, off, status,
                                                     error_code);
    nvc_bypass_end(st, direct);
}

/* MPI_File_sync or close after writes: was there a compute phase since the
 * last one?  (nvc_gate.h rule 1) */
static void nvc_note_quiet(struct nvc_state *st)
{
    pthread_mutex_lock(&st->mu);
    double quiet = st->wrote && st->last_write > 0 ? xt_coarse_now() - st->last_write : -1;
    st->wrote = 0;
    pthread_mutex_unlock(&st->mu);
    if (quiet >= 0)
        nvc_tiers_phase(quiet);
}

/* close is collective, and a rank's cache holds other ranks' data
 * (collective buffering): one rank's failed sync is every rank's error at
 * close, so that no rank takes data as kept that is not (one allreduce).
 * MPI_File_sync reports the rank's own: programs call it on one rank too. */
static int nvc_agree_error(ADIO_File fd, int err, int failed_before)
{
    int mine = err != MPI_SUCCESS || failed_before, any = 0;
    MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, fd->comm);
    if (any && err == MPI_SUCCESS)
        err = MPIO_Err_create_code(MPI_SUCCESS, MPIR_ERR_RECOVERABLE, "e10_cache", __LINE__,
                                   MPI_ERR_IO, "**io", "**io %s", "an e10_cache sync failed "
                                   "(this rank's or another's): data is not in the file");
    return err;
}

/* MPI_File_sync: everything synced, then the global file flushed */
static void ADIOI_NVC_Flush(ADIO_File fd, int *error_code)
{
    struct nvc_state *st = state(fd);
    nvc_note_quiet(st);
    nvc_drain(st, SIZE_MAX);
    int err = nvc_take_error(st);
    double t0 = xt_now();
    xt_lower(fd, XT_LAYER_nvc)->ADIOI_xxx_Flush(fd, error_code);
    /* the write-back of what the threads copied is part of the global file
     * system's sustained cost (only where nothing went straight through) */
    if (st->cfd >= 0 && !xt_slot_of(fd, XT_LAYER_nvc)->counters[NVC_C_BYTES_DIRECT])
        nvc_note_drain(0, xt_now() - t0, 1);
    pthread_mutex_lock(&st->mu);
    if (st->last_write > 0)
        st->last_write = xt_coarse_now();    /* a close right after a long sync: no compute */
    pthread_mutex_unlock(&st->mu);
    if (err != MPI_SUCCESS)
        *error_code = err;
}

static void ADIOI_NVC_Resize(ADIO_File fd, ADIO_Offset size, int *error_code)
{
    nvc_drain(state(fd), SIZE_MAX);
    xt_lower(fd, XT_LAYER_nvc)->ADIOI_xxx_Resize(fd, size, error_code);
}

static void ADIOI_NVC_Fcntl(ADIO_File fd, int flag, ADIO_Fcntl_t * fs, int *error_code)
{
    struct nvc_state *st = state(fd);
    const ADIOI_Fns *lower = xt_lower(fd, XT_LAYER_nvc);
    if (flag == ADIO_FCNTL_SET_DISKSPACE || flag == ADIO_FCNTL_SET_ATOMICITY)
        nvc_drain(st, SIZE_MAX);
    int direct = flag == ADIO_FCNTL_SET_DISKSPACE;      /* preallocation writes go direct */
    __atomic_add_fetch(&st->bypass, direct, __ATOMIC_RELEASE);
    lower->ADIOI_xxx_Fcntl(fd, flag, fs, error_code);
    nvc_bypass_end(st, direct);
    if (flag == ADIO_FCNTL_GET_FSIZE && *error_code == MPI_SUCCESS) {
        pthread_mutex_lock(&st->mu);
        if (st->q.max_end > fs->fsize)
            fs->fsize = st->q.max_end;      /* this process's data not synced yet */
        pthread_mutex_unlock(&st->mu);
    }
}

/* close: a compute phase before it counts (nvc_gate.h rule 0) */
static void nvc_layer_close(ADIO_File fd, void *state, int *error_code)
{
    nvc_note_quiet(state);
    nvc_close(fd, state, error_code);
    *error_code = nvc_agree_error(fd, *error_code, ((struct nvc_state *) state)->kept_error);
}

static const ADIOI_Fns nvc_ops = {
    .ADIOI_xxx_WriteContig = ADIOI_NVC_WriteContig,
    .ADIOI_xxx_ReadContig = ADIOI_NVC_ReadContig,
    /* nonblocking contiguous I/O would bypass WriteContig (aio): make it blocking */
    .ADIOI_xxx_IwriteContig = ADIOI_FAKE_IwriteContig,
    .ADIOI_xxx_IreadContig = ADIOI_FAKE_IreadContig,
    .ADIOI_xxx_WriteStridedColl = ADIOI_NVC_WriteColl,
    .ADIOI_xxx_ReadStridedColl = ADIOI_NVC_ReadColl,
    .ADIOI_xxx_IwriteStridedColl = ADIOI_NVC_IwriteColl,
    .ADIOI_xxx_IreadStridedColl = ADIOI_NVC_IreadColl,
    .ADIOI_xxx_WriteStrided = ADIOI_NVC_WriteStrided,
    .ADIOI_xxx_Flush = ADIOI_NVC_Flush,
    .ADIOI_xxx_Resize = ADIOI_NVC_Resize,
    .ADIOI_xxx_Fcntl = ADIOI_NVC_Fcntl,
};

static int nvc_wanted(const struct xt_file *xf)
{
    return xf->hints[XT_H_E10_CACHE].i != XT_H_E10_CACHE_disable;
}

#define NVC_NAME(id, name) name,
static const char *const nvc_counter_names[] = { NVC_COUNTERS(NVC_NAME) };
#undef NVC_NAME

static void nvc_report(ADIO_File fd, void *state, struct xt_json *j)
{
    struct nvc_state *st = state;
    xt_json_str(j, "mode", xt_hint(fd, XT_H_E10_CACHE)->s);
    xt_json_str(j, "flush", xt_hint(fd, XT_H_E10_CACHE_FLUSH)->s);
    xt_json_int(j, "threads", xt_hint(fd, XT_H_E10_CACHE_THREADS)->i);
    xt_json_int(j, "chunk", st->chunk);
    xt_json_int(j, "copy_locks", st->copy_locks);
    xt_json_str(j, "gate", nvc_gate_text(st->gate));
    struct nvc_tiers t;
    nvc_tiers_get(&t);
    xt_json_num(j, "fs_sustained_ns_per_byte", nvc_gate_drain_cost(&t));
    xt_json_num(j, "last_compute_seconds", t.compute_s);
}

const struct xt_layer nvc_layer = {
    .name = "nvm_cache",
    .wanted = nvc_wanted,
    .ops = &nvc_ops,
    .state_size = sizeof(struct nvc_state),
    .check_hints = nvc_check_hints,
    .open = nvc_open,
    .close = nvc_layer_close,
    .counters = nvc_counter_names,
    .ncounters = NVC_NCOUNTERS,
    .report = nvc_report,
    .coll = nvc_coll,
    .holds_writes = 1,
};

/* romio-xt NVM write-behind: open/close, the flush and lock policies, faults. */
#include "nvc.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* --- e10_cache_flush_flag ------------------------------------------------- */
static size_t release_all(const struct nvc_queue *q)
{
    return q->n;
}

static size_t hold_back(const struct nvc_queue *q)
{
    return q->release;
}

const struct nvc_flush_policy nvc_flush_policies[] = {
    [XT_H_E10_CACHE_FLUSH_flush_immediate] = {.release_after_write = release_all},
    [XT_H_E10_CACHE_FLUSH_flush_onclose] = {.release_after_write = hold_back},
};
XT_STATIC_ASSERT_CHOICES(nvc_flush_policies, XT_H_E10_CACHE_FLUSH);

/* --- e10_cache: enable | coherent ----------------------------------------- */
static int no_lock(struct nvc_state *st, ADIO_File fd, int64_t off, int64_t len)
{
    (void) st, (void) fd, (void) off, (void) len;
    return 0;
}

static void nothing_held(struct nvc_state *st)
{
    (void) st;
}

static void set_locking(struct nvc_state *st, int on)
{
    pthread_mutex_lock(&st->mu);
    st->locking = on;
    pthread_mutex_unlock(&st->mu);
}

/* the extent stays write-locked in the global file until everything this
 * process cached is synced.  When another process holds part of it, wait
 * only after our own data is synced and unlocked: no process waits while
 * holding locks, so two writers never wait for each other. */
static int lock_extent(struct nvc_state *st, ADIO_File fd, int64_t off, int64_t len)
{
    struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = off, .l_len = len };
    int rc;
    set_locking(st, 1);
    if (fcntl(fd->fd_sys, F_SETLK, &fl) != 0) {
        set_locking(st, 0);
        nvc_drain(st, SIZE_MAX);
        nvc_release_idle(st);
        set_locking(st, 1);
        while ((rc = fcntl(fd->fd_sys, F_SETLKW, &fl)) != 0 && errno == EINTR)
            continue;
        if (rc)
            return -errno;
    }
    pthread_mutex_lock(&st->mu);
    st->locked = 1;
    pthread_mutex_unlock(&st->mu);
    return 0;
}

static void unlock_all(struct nvc_state *st)
{
    /* not while the main thread is inside ROMIO's own lock (bypass): the
     * unlock would release it too; the main thread calls us when it leaves */
    if (!st->locked || st->locking || __atomic_load_n(&st->bypass, __ATOMIC_ACQUIRE))
        return;
    struct flock fl = {.l_type = F_UNLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0 };
    if (fcntl(st->fd->fd_sys, F_SETLK, &fl) == 0)
        st->locked = 0;
}

/* by e10_cache's choice (disable: the layer is not installed) */
const struct nvc_lock_policy nvc_lock_policies[] = {
    [XT_H_E10_CACHE_enable] = {.before_cache = no_lock, .when_idle = nothing_held},
    [XT_H_E10_CACHE_coherent] = {.before_cache = lock_extent, .when_idle = unlock_all},
    [XT_H_E10_CACHE_strict] = {.before_cache = no_lock, .when_idle = nothing_held,
                               .write_through = 1},
};
XT_STATIC_ASSERT_CHOICES(nvc_lock_policies, XT_H_E10_CACHE);

/* --- faults ----------------------------------------------------------------- */
void nvc_fall_back(struct nvc_state *st, int counter, const char *what, int err)
{
    xt_count(st->fd, XT_LAYER_nvc, counter, 1);
    if (!st->warned)
        xt_warn(st->fd, XT_WARN_SELF, "e10_cache: rank %d: %s (%s, cache file %s); writing "
                "this and all further data of %s straight to the global file",
                xt_file(st->fd)->rank, what, strerror(err), st->cpath, st->fd->filename);
    st->warned = 1;
    st->direct = 1;
}

/* --- open / close ------------------------------------------------------------- */
static void global_path(ADIO_File fd, char *out, size_t len)
{
    char cwd[PATH_MAX];
    if (realpath(fd->filename, out))
        return;
    if (fd->filename[0] != '/' && getcwd(cwd, sizeof(cwd)))
        snprintf(out, len, "%s/%s", cwd, fd->filename);
    else
        snprintf(out, len, "%s", fd->filename);
}

/* e10_cache_path dir is a writable directory?  A reason when not.  The
 * cache file is made on the first cached write, the threads on the first
 * write (a file that is only read, or written straight through, costs
 * neither) */
static const char *check_cache_dir(const char *dir, char *why, size_t len)
{
    /* the last directory that passed, per process: checked once, not at
     * every open (a stat and an access, twice per open: ~5 us).  Should it
     * go away later, making the cache file fails and the file falls back
     * to the global file with a warning (nvc_fall_back) */
    static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
    static char passed[sizeof(((struct xt_hint_value *) 0)->s)];
    struct stat sb;
    if (!dir[0])
        return "not set";
    pthread_mutex_lock(&mu);
    int known = strcmp(passed, dir) == 0;
    pthread_mutex_unlock(&mu);
    if (known)
        return NULL;
    int err = stat(dir, &sb) != 0 ? errno : !S_ISDIR(sb.st_mode) ? ENOTDIR
        : access(dir, W_OK | X_OK) != 0 ? errno : 0;
    if (!err) {
        pthread_mutex_lock(&mu);
        snprintf(passed, sizeof(passed), "%s", dir);
        pthread_mutex_unlock(&mu);
        return NULL;
    }
    snprintf(why, len, "%s", strerror(err));
    return why;
}

int nvc_start_cache_file(ADIO_File fd, struct nvc_state *st)
{
    static int seq;
    char global[PATH_MAX];
    global_path(fd, global, sizeof(global));
    int rc = nvc_file_create(xt_hint(fd, XT_H_E10_CACHE_PATH)->s, global,
                             __atomic_fetch_add(&seq, 1, __ATOMIC_RELAXED), st->cpath,
                             sizeof(st->cpath));
    if (rc < 0)
        return -rc;
    st->cfd = rc;
    st->tail = NVC_HDR_SIZE;
    return 0;
}

int nvc_start_threads(ADIO_File fd, struct nvc_state *st)
{
    return nvc_threads_start(st, (int) xt_hint(fd, XT_H_E10_CACHE_THREADS)->i);
}

/* strict: collective writes end synced; holding items back buys nothing */
static int strict_onclose(const struct xt_file *xf)
{
    return nvc_lock_policies[xf->hints[XT_H_E10_CACHE].i].write_through &&
        xf->hints[XT_H_E10_CACHE_FLUSH].i != XT_H_E10_CACHE_FLUSH_flush_immediate;
}

static void strict_flush(ADIO_File fd, struct nvc_state *st)
{
    struct xt_hint_value *fl = &xt_file(fd)->hints[XT_H_E10_CACHE_FLUSH];
    if (!strict_onclose(xt_file(fd)))
        return;
    st->flush = &nvc_flush_policies[XT_H_E10_CACHE_FLUSH_flush_immediate];
    fl->i = XT_H_E10_CACHE_FLUSH_flush_immediate;
    snprintf(fl->s, sizeof(fl->s), "flush_immediate");
}

/* the hint pass's check (xt_layer.h): warned there, once per job, so the
 * open needs no collective (an allreduce per open would cost every open) */
void nvc_check_hints(const struct xt_file *xf, char *warn, size_t len)
{
    char why[256];
    const char *dir = xf->hints[XT_H_E10_CACHE_PATH].s, *bad = check_cache_dir(dir, why,
                                                                               sizeof(why));
    if (bad)
        snprintf(warn, len, "hint e10_cache_path: cannot use '%s' (%s) on rank %d; using no "
                 "cache: data goes straight to the global file", dir, bad, xf->rank);
    else if (strict_onclose(xf))
        snprintf(warn, len, "hint e10_cache_flush_flag: 'flush_onclose' does not go with "
                 "e10_cache=strict (a collective write returns once its data is synced); "
                 "using 'flush_immediate'");
}

int nvc_open(ADIO_File fd, void *state)
{
    struct nvc_state *st = state;
    /* read-only files have nothing to cache; other file systems than UFS
     * may write strided data without going through WriteContig */
    if (fd->access_mode & ADIO_RDONLY ||
        xt_lower(fd, XT_LAYER_nvc)->ADIOI_xxx_WriteStrided != ADIOI_GEN_WriteStrided)
        return 1;
    st->fd = fd;
    st->cfd = -1;
    st->flush = &nvc_flush_policies[xt_hint(fd, XT_H_E10_CACHE_FLUSH)->i];
    st->lock = &nvc_lock_policies[xt_hint(fd, XT_H_E10_CACHE)->i];
    strict_flush(fd, st);
    st->discard = xt_hint(fd, XT_H_E10_CACHE_DISCARD)->i == XT_H_E10_CACHE_DISCARD_enable;
    st->chunk = fd->hints->ind_wr_buffer_size > 0 ? fd->hints->ind_wr_buffer_size : 512 * 1024;
    /* only data sieving's read-modify-write, in another process's
     * independent strided write, can interleave with a copy (two-phase's is
     * inside collective calls, which settle first) */
    st->copy_locks = fd->hints->ds_write != ADIOI_HINT_DISABLE;
    st->q.release = st->flush->release_after_write(&st->q);
    st->fail_after = xt_test_hook("ROMIO_XT_NVC_TEST_FAIL_AFTER", -1);
    st->fail_sync_at = xt_test_hook("ROMIO_XT_NVC_TEST_SYNC_EIO", 0);
    pthread_mutex_init(&st->mu, NULL);
    xt_cond_init(&st->work);    /* timed waits (flush-behind) */
    pthread_cond_init(&st->done, NULL);

    char why[256];
    st->always = xt_test_hook("ROMIO_XT_NVC_TEST_ALWAYS_CACHE", 0) != 0;
    st->cautious = xt_auto_chose(fd, XT_H_E10_CACHE);
    if (check_cache_dir(xt_hint(fd, XT_H_E10_CACHE_PATH)->s, why, sizeof(why))) {
        st->direct = 1;         /* warned in the hint pass (nvc_check_hints) */
        xt_count(fd, XT_LAYER_nvc, NVC_C_FB_PATH, 1);
    }
    xt_helper_cpus_open(fd);    /* where the sync threads will run */
    return 0;
}

void nvc_close(ADIO_File fd, void *state, int *error_code)
{
    struct nvc_state *st = state;
    nvc_drain(st, SIZE_MAX);
    *error_code = nvc_take_error(st);
    if (st->nthreads)
        nvc_threads_stop(st);
    if (st->cfd >= 0) {
        close(st->cfd);
        if (st->kept_error)
            xt_warn(fd, XT_WARN_SELF, "e10_cache: rank %d: syncing %s failed; its data stays "
                    "in %s (romio-xt-recover replays it)", xt_file(fd)->rank, fd->filename,
                    st->cpath);
        else if (st->discard)
            unlink(st->cpath);
    }
    nvc_queue_free(&st->q);
    free(st->mainbuf);
    pthread_cond_destroy(&st->done);
    pthread_cond_destroy(&st->work);
    pthread_mutex_destroy(&st->mu);
}

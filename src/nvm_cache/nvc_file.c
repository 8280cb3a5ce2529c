/* romio-xt NVM write-behind: the cache file format (see nvc_store.h). */
#define _GNU_SOURCE
#include "nvc_store.h"
#include "../core/xt_io.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#define NVC_IOV_RECS 256        /* records per pwritev */

/* 0, or -errno */
static int pwrite_all(int fd, const void *buf, int64_t len, int64_t off)
{
    return xt_pwrite_full(fd, buf, len, off) < 0 ? -errno : 0;
}

/* all len bytes: 0, or -errno (-EIO: the file ends first) */
static int pread_all(int fd, void *buf, int64_t len, int64_t off)
{
    int64_t n = xt_pread_full(fd, buf, len, off);
    return n < 0 ? -errno : n < len ? -EIO : 0;
}

int nvc_file_create(const char *dir, const char *global, int seq, char *path, size_t pathlen)
{
    const char *base = strrchr(global, '/');
    base = base ? base + 1 : global;
    if ((size_t) snprintf(path, pathlen, "%s/romioxt-nvc.%ld.%d.%s", dir, (long) getpid(), seq,
                          base) >= pathlen || strlen(global) >= NVC_HDR_SIZE - 16)
        return -ENAMETOOLONG;
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0)
        return -errno;
    char *hdr = calloc(1, NVC_HDR_SIZE);
    int rc = hdr ? 0 : -ENOMEM;
    if (hdr) {
        memcpy(hdr, NVC_FILE_MAGIC, sizeof(NVC_FILE_MAGIC));
        strcpy(hdr + 16, global);
        rc = pwrite_all(fd, hdr, NVC_HDR_SIZE, 0);
        free(hdr);
    }
    if (rc) {
        close(fd);
        unlink(path);
        return rc;
    }
    return fd;
}

/* writes records [first, first+nrec) of buf starting at file offset at */
static int append_batch(int cfd, int64_t *at, const char *buf, int64_t off, int64_t len,
                        int64_t chunk, int64_t *recs, int first, int nrec)
{
    struct nvc_rec hdr[NVC_IOV_RECS];
    struct iovec iov[2 * NVC_IOV_RECS];
    int64_t total = 0;
    for (int k = 0; k < nrec; k++) {
        int64_t o = (int64_t) (first + k) * chunk, n = len - o < chunk ? len - o : chunk;
        hdr[k] = (struct nvc_rec) {.magic = NVC_REC_MAGIC, .off = off + o, .len = n };
        iov[2 * k] = (struct iovec) {.iov_base = &hdr[k], .iov_len = NVC_REC_SIZE };
        iov[2 * k + 1] = (struct iovec) {.iov_base = (char *) buf + o, .iov_len = n };
        recs[first + k] = *at + total;
        total += NVC_REC_SIZE + n;
    }
    ssize_t w = pwritev(cfd, iov, 2 * nrec, *at);
    if (w < 0)
        return -errno;
    if (w == total) {
        *at += total;
        return 0;
    }
    /* short write (e.g. the device is full): finish it the slow way, which
     * reports the real error */
    int64_t done = w;
    for (int v = 0; v < 2 * nrec; v++) {
        int64_t l = iov[v].iov_len;
        if (done >= l) {
            done -= l;
            continue;
        }
        int rc = pwrite_all(cfd, (char *) iov[v].iov_base + done, l - done, *at + w);
        if (rc)
            return rc;
        w += l - done;
        done = 0;
    }
    *at += total;
    return 0;
}

int nvc_file_append(int cfd, int64_t *tail, const void *buf, int64_t off, int64_t len,
                    int64_t chunk, int64_t *recs)
{
    int nrec = (int) ((len + chunk - 1) / chunk);
    int64_t at = *tail;
    for (int first = 0; first < nrec; first += NVC_IOV_RECS) {
        int n = nrec - first < NVC_IOV_RECS ? nrec - first : NVC_IOV_RECS;
        int rc = append_batch(cfd, &at, buf, off, len, chunk, recs, first, n);
        if (rc) {
            if (ftruncate(cfd, *tail) != 0) {
                /* keep the error of the write */
            }
            return rc;
        }
    }
    *tail = at;
    return 0;
}

int nvc_file_mark_synced(int cfd, int64_t rec)
{
    uint32_t one = 1;
    return pwrite_all(cfd, &one, sizeof(one), rec + offsetof(struct nvc_rec, synced));
}

int nvc_file_copy(int cfd, int64_t rec, int gfd, int64_t off, int64_t len, char *buf)
{
    int rc = pread_all(cfd, buf, len, rec + NVC_REC_SIZE);
    return rc ? rc : pwrite_all(gfd, buf, len, off);
}

/* one record at *at: replayed when not synced; *at advances.  1 replayed,
 * 0 skipped, -1 end or torn record, -errno on an I/O error */
static int replay_one(int cfd, int gfd, int64_t *at, int64_t size, char **buf, int64_t *cap)
{
    struct nvc_rec r;
    if (*at + NVC_REC_SIZE > size || pread_all(cfd, &r, sizeof(r), *at) != 0 ||
        r.magic != NVC_REC_MAGIC || r.len < 0 || r.len > size - *at - NVC_REC_SIZE ||
        r.off < 0 || r.off > INT64_MAX - r.len || r.synced > 1)
        return -1;              /* written by no sync thread: never replayed */
    int64_t rec = *at;
    *at += NVC_REC_SIZE + r.len;
    if (r.synced)
        return 0;
    if (r.len > *cap) {
        char *b = realloc(*buf, r.len);
        if (!b)
            return -ENOMEM;
        *buf = b;
        *cap = r.len;
    }
    int rc = nvc_file_copy(cfd, rec, gfd, r.off, r.len, *buf);
    return rc ? rc : 1;
}

/* the record at `at` is the last one, cut short (a crash while appending: its
 * write never returned), rather than a corrupt one */
static int torn_tail(int cfd, int64_t at, int64_t size)
{
    struct nvc_rec r;
    if (at + NVC_REC_SIZE > size)
        return 1;
    return pread_all(cfd, &r, sizeof(r), at) == 0 && r.magic == NVC_REC_MAGIC && r.len >= 0 &&
        r.len > size - at - NVC_REC_SIZE;
}

/* the records in order, up to the end, a torn tail or the first corrupt
 * record (*stop: its offset, or -1 at the end or a torn tail) */
static long replay_records(int cfd, int gfd, int64_t size, int64_t *stop)
{
    int64_t at = NVC_HDR_SIZE, cap = 0;
    char *buf = NULL;
    long count = 0;
    int rc;
    while ((rc = replay_one(cfd, gfd, &at, size, &buf, &cap)) >= 0)
        count += rc;
    free(buf);
    *stop = at < size && !torn_tail(cfd, at, size) ? at : -1;
    if (rc < -1)
        return rc;
    return fsync(gfd) == 0 ? count : -errno;
}

long nvc_file_replay(const char *path, int keep, FILE *log)
{
    char hdr[NVC_HDR_SIZE];
    int cfd = open(path, O_RDONLY | O_CLOEXEC);
    if (cfd < 0)
        return -errno;
    off_t size = lseek(cfd, 0, SEEK_END);
    if (size < NVC_HDR_SIZE || pread_all(cfd, hdr, NVC_HDR_SIZE, 0) != 0 ||
        memcmp(hdr, NVC_FILE_MAGIC, sizeof(NVC_FILE_MAGIC)) != 0) {
        close(cfd);
        return -EINVAL;
    }
    hdr[NVC_HDR_SIZE - 1] = '\0';
    const char *global = hdr + 16;
    int gfd = open(global, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    int64_t stop = -1;
    long n = gfd < 0 ? -errno : replay_records(cfd, gfd, size, &stop);
    if (gfd >= 0)
        close(gfd);
    close(cfd);
    if (log)
        fprintf(log, "%s: %s%ld record(s) replayed into %s\n", path, n < 0 ? "error, " : "",
                n < 0 ? 0 : n, global);
    if (log && n >= 0 && stop >= 0)
        fprintf(log, "%s: stopped at a corrupt record at byte %lld (not replayed, "
                "nor anything after it; the cache file is kept)\n", path, (long long) stop);
    if (n >= 0 && !keep && stop < 0 && unlink(path) != 0)
        return -errno;
    return n;
}

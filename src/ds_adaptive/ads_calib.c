/* romio-xt adaptive data sieving: measuring the file system. */
#define _GNU_SOURCE
#include "ads_calib.h"
#include "../core/xt_io.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define PROBE_SIZE (16 << 20)
#define CHUNK (1 << 20)
#define READ_CHUNK (128 << 10)
#define SMALL_READS 32
#define TINY_OPS 512
#define EOF_PIECE 1024      /* past-EOF writes: 1 KiB every 16 KiB, as strided writers do */
#define EOF_STRIDE (16 << 10)
/* in every cache key: a change to how the probe measures makes the old
 * lines miss (v2: page-aligned probe buffer, and the cold read request size;
 * v1's malloc'd buffer measured the slow copy skew, xt_bad_skew, e.g. writes
 * at 2.7 GB/s instead of 4.4; v3: the stream's first request, ADS_READ_FIRST,
 * 32 KiB) */
#define ADS_CALIB_VERSION "v3"

const struct ads_calib ads_calib_defaults = {
    .rd_lat_cold = 100e-6, .rd_bw_cold = 1e9,
    .rd_lat_warm = 1e-6, .rd_bw_warm = 3e9,
    .wr_lat = 2e-6, .wr_bw = 2e9, .wr_lat_eof = 2e-6,
};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* all n bytes at off (a read the file ends in fails too): 0, or -1 */
static int all(int writing, int fd, char *buf, off_t off, size_t n)
{
    int64_t k = writing ? xt_pwrite_full(fd, buf, (int64_t) n, off)
        : xt_pread_full(fd, buf, (int64_t) n, off);
    return k == (int64_t) n ? 0 : -1;
}

/* seconds per byte of a sequential pass over the probe file in requests of
 * chunk bytes */
static double seq_pass_by(int fd, char *buf, int writing, off_t first, off_t chunk)
{
    double t0 = now();
    for (off_t off = 0, n = first; off < PROBE_SIZE; off += n, n = chunk) {
        n = n < PROBE_SIZE - off ? n : PROBE_SIZE - off;
        if (all(writing, fd, buf, off, (size_t) n) != 0)
            return -1;
    }
    return (now() - t0) / PROBE_SIZE;
}

static double seq_pass(int fd, char *buf, int writing)
{
    return seq_pass_by(fd, buf, writing, CHUNK, CHUNK);
}

/* cold sequential reads: CHUNK requests, or an ADS_READ_FIRST one and then
 * READ_CHUNK ones when those are clearly faster.  Linux reads ahead
 * synchronously 2-4 times a stream's first request, the rest behind the
 * reader: with read_ahead_kb 8192 here, 1 MiB read cold in one request took
 * 2.0 ms, as 4 KiB + 128 KiB requests 0.45 ms, as 32 KiB ones (stock's
 * piece by piece) 0.9 ms (ADS_READ_FIRST is 32 KiB: ads_calib.h).  Seconds
 * per byte, and the request size in *chunk (0: windows go whole) */
static double cold_pass(int fd, char *buf, double *chunk)
{
    double big = 1e9, small = 1e9;
    for (int k = 0; k < 2; k++) {   /* the better of two each, interleaved */
        posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
        double b = seq_pass(fd, buf, 0);
        posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
        double s = seq_pass_by(fd, buf, 0, ADS_READ_FIRST, READ_CHUNK);
        if (b <= 0 || s <= 0)
            return -1;
        big = b < big ? b : big;
        small = s < small ? s : small;
    }
    *chunk = small < 0.8 * big ? READ_CHUNK : 0;
    return *chunk > 0 ? small : big;
}

/* seconds per small operation at scattered offsets */
static double scattered(int fd, char *buf, int n, size_t size, int writing)
{
    const off_t stride = PROBE_SIZE / n;
    double t0 = now();
    for (int k = 0; k < n; k++) {
        off_t off = (off_t) k * stride + 4096 * (k % 7) + 512;
        if (all(writing, fd, buf, off, size) != 0)
            return -1;
    }
    return (now() - t0) / n;
}

/* seconds per EOF_PIECE write that extends the file (past PROBE_SIZE),
 * less its bytes' time: such writes cost more than rewrites of cached pages */
static double past_eof(int fd, char *buf, double wr_bw)
{
    double t0 = now();
    for (int k = 0; k < TINY_OPS; k++)
        if (all(1, fd, buf, PROBE_SIZE + (off_t) k * EOF_STRIDE, EOF_PIECE) != 0)
            return -1;
    double per = (now() - t0) / TINY_OPS - EOF_PIECE / wr_bw;
    return per > 0 ? per : 1e-7;
}

static int measure(int fd, char *buf, struct ads_calib *c)
{
    double wr = seq_pass(fd, buf, 1);
    if (wr <= 0 || fsync(fd) != 0)
        return -1;
    c->wr_bw = 1 / wr;
    c->wr_lat = scattered(fd, buf, TINY_OPS, 8, 1);
    if (c->wr_lat < 0 || fsync(fd) != 0)
        return -1;
    posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    double cold_small = scattered(fd, buf, SMALL_READS, 4096, 0);
    double cold = cold_pass(fd, buf, &c->rd_chunk);
    double warm = seq_pass(fd, buf, 0);
    double warm_tiny = scattered(fd, buf, TINY_OPS, 8, 0);
    if (cold_small < 0 || cold <= 0 || warm <= 0 || warm_tiny < 0)
        return -1;
    c->rd_bw_cold = 1 / cold;
    c->rd_lat_cold = cold_small > 4096 * cold ? cold_small - 4096 * cold : cold_small;
    c->rd_bw_warm = 1 / warm;
    c->rd_lat_warm = warm_tiny;
    c->wr_lat_eof = past_eof(fd, buf, c->wr_bw);
    if (c->wr_lat_eof < 0 || ftruncate(fd, PROBE_SIZE) != 0)
        return -1;
    if (c->wr_lat_eof < c->wr_lat)
        c->wr_lat_eof = c->wr_lat;
    return 0;
}

int ads_calib_probe(const char *dir, struct ads_calib *out, char *why, size_t whylen)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/.romio-xt-ads-probe-XXXXXX", dir);
    int fd = mkstemp(path);
    if (fd < 0) {
        snprintf(why, whylen, "cannot create a probe file in %s: %s", dir, strerror(errno));
        return -1;
    }
    unlink(path);       /* gone whatever happens next */
    /* page-aligned, as the windows move data (ads_io.c: a scratch buffer at
     * a good skew, or the user's memory when its skew is good): malloc's
     * 16-byte skew would measure the slow copy (xt_bad_skew) */
    char *buf = NULL;
    if (posix_memalign((void **) &buf, 4096, CHUNK))
        buf = NULL;
    int rc = buf ? (memset(buf, 0x5a, CHUNK), measure(fd, buf, out)) : -1;
    if (rc != 0)
        snprintf(why, whylen, "probe I/O in %s failed: %s", dir, strerror(errno));
    free(buf);
    close(fd);
    return rc;
}

int ads_calib_key(const char *dir, char *key, size_t len)
{
    struct stat st;
    char real[4096];
    if (stat(dir, &st) != 0 || !realpath(dir, real))
        return -1;
    snprintf(key, len, "%s:%llu:%s", ADS_CALIB_VERSION, (unsigned long long) st.st_dev, real);
    return 0;
}

int ads_calib_cache_file(char *path, size_t len)
{
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (xdg && *xdg)
        snprintf(path, len, "%s/romio-xt/ads-calibration", xdg);
    else if (home && *home)
        snprintf(path, len, "%s/.cache/romio-xt/ads-calibration", home);
    else
        return -1;
    return 0;
}

void ads_calib_format(char *line, size_t len, const char *key, const struct ads_calib *c)
{
    snprintf(line, len, "%.9g %.9g %.9g %.9g %.9g %.9g %.9g %.9g %s", c->rd_lat_cold,
             c->rd_bw_cold, c->rd_lat_warm, c->rd_bw_warm, c->wr_lat, c->wr_bw, c->wr_lat_eof,
             c->rd_chunk, key);
}

/* a line's costs into *out: where its key starts, or NULL */
static const char *parse_costs(const char *line, struct ads_calib *out)
{
    struct ads_calib c;
    int used = 0;
    if (sscanf(line, "%lg %lg %lg %lg %lg %lg %lg %lg %n", &c.rd_lat_cold, &c.rd_bw_cold,
               &c.rd_lat_warm, &c.rd_bw_warm, &c.wr_lat, &c.wr_bw, &c.wr_lat_eof, &c.rd_chunk,
               &used) != 8 || used == 0)
        return NULL;
    if (!(c.rd_lat_cold > 0 && c.rd_bw_cold > 0 && c.rd_lat_warm > 0 && c.rd_bw_warm > 0 &&
          c.wr_lat > 0 && c.wr_bw > 0 && c.wr_lat_eof > 0 && c.rd_chunk >= 0))
        return NULL;
    *out = c;
    return line + used;
}

int ads_calib_parse(const char *line, const char *key, struct ads_calib *out)
{
    struct ads_calib c;
    size_t klen = strlen(key);
    const char *k = parse_costs(line, &c);
    if (!k || strncmp(k, key, klen) != 0 || (k[klen] != '\0' && k[klen] != '\n'))
        return -1;
    *out = c;
    return 0;
}

int ads_calib_line_is(const char *line, size_t len, const char *key, size_t klen)
{
    return len > klen && line[len - klen - 1] == ' ' && memcmp(line + len - klen, key, klen) == 0;
}

/* a line without its newline: its length */
static size_t chomp(char *line)
{
    size_t n = strlen(line);
    if (n > 0 && line[n - 1] == '\n')
        line[--n] = '\0';
    return n;
}

int ads_calib_load(const char *cache_file, const char *key, struct ads_calib *out)
{
    FILE *f = fopen(cache_file, "r");
    char line[8192];
    size_t klen = strlen(key);
    int found = -1;
    if (!f)
        return -1;
    while (fgets(line, sizeof(line), f))
        if (ads_calib_line_is(line, chomp(line), key, klen) && ads_calib_parse(line, key, out) == 0)
            found = 0;      /* the last line for a key wins */
    fclose(f);
    return found;
}

/* the length of key's "<version>:<st_dev>:" part (0: none) */
static size_t device_part(const char *key)
{
    const char *p = strchr(key, ':');
    p = p ? strchr(p + 1, ':') : NULL;
    return p ? (size_t) (p - key) + 1 : 0;
}

int ads_calib_load_device(const char *cache_file, const char *key, struct ads_calib *out)
{
    size_t plen = device_part(key);
    FILE *f = plen ? fopen(cache_file, "r") : NULL;
    char line[8192];
    int found = -1;
    if (!f)
        return -1;
    while (fgets(line, sizeof(line), f)) {
        struct ads_calib c;
        chomp(line);
        const char *k = parse_costs(line, &c);
        if (k && strncmp(k, key, plen) == 0) {
            *out = c;           /* the newest line of the device wins */
            found = 0;
        }
    }
    fclose(f);
    return found;
}

static void mkdirs(const char *file)
{
    char dir[4096];
    snprintf(dir, sizeof(dir), "%s", file);
    for (char *p = dir + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        mkdir(dir, 0755);
        *p = '/';
    }
}

int ads_calib_lock(const char *cache_file)
{
    char path[4200];
    snprintf(path, sizeof(path), "%s.lock", cache_file);
    mkdirs(path);
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
        return -1;
    while (flock(fd, LOCK_EX) != 0)
        if (errno != EINTR) {
            close(fd);
            return -1;
        }
    return fd;
}

void ads_calib_unlock(int lock)
{
    if (lock >= 0)
        close(lock);        /* releases the flock */
}

/* the newest `keep` lines of cache_file not for key, joined, into *text */
static size_t kept_lines(const char *cache_file, const char *key, int keep, char **text)
{
    FILE *f = fopen(cache_file, "r");
    char line[8192], *ring[ADS_CALIB_KEEP] = { 0 };
    size_t klen = strlen(key), total = 0;
    int n = 0;
    *text = NULL;
    while (f && fgets(line, sizeof(line), f)) {
        size_t len = chomp(line);
        if (len == 0 || ads_calib_line_is(line, len, key, klen))
            continue;
        free(ring[n % keep]);
        ring[n++ % keep] = strdup(line);
    }
    if (f)
        fclose(f);
    for (int k = 0; k < keep; k++)
        total += ring[k] ? strlen(ring[k]) + 1 : 0;
    *text = malloc(total + 1);
    size_t at = 0;
    for (int k = n > keep ? n - keep : 0; k < n; k++) {
        char *r = ring[k % keep];
        if (r && *text) {
            at += (size_t) sprintf(*text + at, "%s\n", r);
        }
        free(r);
    }
    if (!*text)
        return 0;
    (*text)[at] = '\0';
    return at;
}

int ads_calib_save(const char *cache_file, const char *key, const struct ads_calib *c)
{
    char line[8192], tmp[4200];
    char *old;
    mkdirs(cache_file);
    size_t n = kept_lines(cache_file, key, ADS_CALIB_KEEP - 1, &old);
    snprintf(tmp, sizeof(tmp), "%s.%ld.tmp", cache_file, (long) getpid());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) {
        free(old);
        return -1;
    }
    ads_calib_format(line, sizeof(line) - 1, key, c);
    strcat(line, "\n");
    int ok = (n == 0 || write(fd, old, n) == (ssize_t) n) &&
        write(fd, line, strlen(line)) == (ssize_t) strlen(line);
    free(old);
    ok = close(fd) == 0 && ok && rename(tmp, cache_file) == 0;
    if (!ok)
        unlink(tmp);
    return ok ? 0 : -1;
}

/* --- the page cache's state over a range ------------------------------ */

/* marks in data[] which of n pages from start hold file data (SEEK_DATA and
 * SEEK_HOLE; a file system without them: every page).  The descriptor's
 * offset is kept. */
static void data_pages(int fd, int64_t start, int64_t n, long page, unsigned char *data)
{
    off_t keep = lseek(fd, 0, SEEK_CUR), pos = start, end = start + n * page;
    memset(data, 0, n);
    while (pos < end) {
        off_t d = lseek(fd, pos, SEEK_DATA), h;
        if (d < 0 && errno != ENXIO)
            memset(data, 1, n);
        if (d < 0 || d >= end)
            break;
        h = lseek(fd, d, SEEK_HOLE);
        if (h >= 0 && h <= d)
            h = d + page;       /* always onwards (a hole punched meanwhile) */
        if (h < 0 || h > end)
            h = end;
        for (int64_t k = (d - start) / page; k < (h - start + page - 1) / page; k++)
            data[k] = 1;
        pos = h;
    }
    if (keep >= 0)
        lseek(fd, keep, SEEK_SET);
}

/* cachestat(2) (Linux 6.5): the cached pages of a range, one system call
 * with no mapping: 0.3 us here, where mmap + mincore + munmap take 8 us, a
 * third of a warm 1 MiB read.  -1 where the kernel or the architecture
 * lacks it. */
#if defined(__NR_cachestat)
#define ADS_NR_CACHESTAT __NR_cachestat
#elif defined(__x86_64__) || defined(__aarch64__)
#define ADS_NR_CACHESTAT 451    /* the same number on both */
#endif
static int64_t cached_pages(int fd, int64_t start, int64_t n, long page)
{
#ifdef ADS_NR_CACHESTAT
    static int absent;
    struct {
        uint64_t off, len;
    } range = { (uint64_t) start, (uint64_t) (n * page) };
    struct {
        uint64_t cache, dirty, writeback, evicted, recently_evicted;
    } cs;
    if (!__atomic_load_n(&absent, __ATOMIC_RELAXED)) {
        if (syscall(ADS_NR_CACHESTAT, fd, &range, &cs, 0) == 0)
            return (int64_t) cs.cache;
        if (errno == ENOSYS)
            __atomic_store_n(&absent, 1, __ATOMIC_RELAXED);
    }
#else
    (void) fd, (void) start, (void) n, (void) page;
#endif
    return -1;
}

/* the data pages of n pages from start (data_pages) */
static int held_pages(int fd, int64_t start, int64_t n, long page, unsigned char *data)
{
    int held = 0;
    data_pages(fd, start, n, page, data);
    for (int64_t k = 0; k < n; k++)
        held += data[k];
    return held;
}

int ads_range_cold(int fd, int64_t off, int64_t len)
{
    long page = sysconf(_SC_PAGESIZE);
    int64_t start = off / page * page;
    int64_t n = (off + (len < ADS_PROBE_BYTES ? len : ADS_PROBE_BYTES) - start + page - 1) / page;
    unsigned char vec[ADS_PROBE_BYTES / 4096 + 2], data[sizeof(vec)];
    if (n <= 0 || n > (int64_t) sizeof(vec))
        n = sizeof(vec);
    int64_t cached = cached_pages(fd, start, n, page);
    if (cached == n)            /* every page cached */
        return 0;
    if (cached == 0)            /* none: cold where the range holds data */
        return held_pages(fd, start, n, page, data) > 0;
    void *m = mmap(NULL, n * page, PROT_READ, MAP_SHARED, fd, start);
    if (m == MAP_FAILED)
        return 1;
    int resident = 0, held = 0, ok = mincore(m, n * page, vec) == 0;
    munmap(m, n * page);
    if (!ok)
        return 1;
    data_pages(fd, start, n, page, data);
    for (int64_t k = 0; k < n; k++) {
        held += data[k];
        resident += data[k] && (vec[k] & 1);
    }
    return resident * 2 < held;
}

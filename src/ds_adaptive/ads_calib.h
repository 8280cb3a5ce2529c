/* romio-xt adaptive data sieving: measuring the file system (POSIX, no MPI). */
#ifndef ADS_CALIB_H
#define ADS_CALIB_H

#include <stddef.h>
#include <stdint.h>

struct ads_calib {
    double rd_lat_cold, rd_bw_cold;     /* reads that reach the storage */
    double rd_lat_warm, rd_bw_warm;     /* reads served by the page cache */
    double wr_lat, wr_bw;               /* writes */
    double wr_lat_eof;                  /* a small write past the end of file */
    double rd_chunk;    /* cold reads as requests of this many bytes, after a first one of
                         * ADS_READ_FIRST (0: one per window): the kernel's read-ahead runs
                         * ahead of such a stream, where one large read waits for a
                         * synchronous read-ahead of 2-4 times its size */
};

/* the first request of a stream: the kernel's first read-ahead is about 4
 * times it (32 KiB: 128 KiB); 4 KiB made 32 KiB pieces through 8 B holes,
 * read as one window, 1.7-1.9 ms against stock's 32 separate reads' 1.4,
 * 32 KiB 1.0-1.4 against 1.0-1.3 */
#define ADS_READ_FIRST 32768

/* conservative values for when nothing can be measured */
extern const struct ads_calib ads_calib_defaults;

/* Probes directory dir with a short-lived file (~16 MiB, well under a
 * second).  Returns 0, or -1 with a reason in why. */
int ads_calib_probe(const char *dir, struct ads_calib *out, char *why, size_t whylen);

/* The cache of probe results, one line per (device, directory).  Load: the
 * last line for key.  Save: replaces key's line, keeps the newest
 * ADS_CALIB_KEEP lines (the file stays small, so loading stays cheap). */
#define ADS_CALIB_KEEP 64
int ads_calib_load(const char *cache_file, const char *key, struct ads_calib *out);
int ads_calib_save(const char *cache_file, const char *key, const struct ads_calib *c);
/* the newest line of key's device (the same probe version and st_dev, any
 * directory): a directory not yet measured on a measured file system */
int ads_calib_load_device(const char *cache_file, const char *key, struct ads_calib *out);
/* an exclusive lock on cache_file's lock file (blocks), or -1 */
int ads_calib_lock(const char *cache_file);
void ads_calib_unlock(int lock);
/* does cache line `line` (no newline) belong to key?  (cheap: before parsing) */
int ads_calib_line_is(const char *line, size_t len, const char *key, size_t klen);
/* "<probe version>:<st_dev>:<directory>" for dir; -1 when dir cannot be stat'ed */
int ads_calib_key(const char *dir, char *key, size_t len);
/* $XDG_CACHE_HOME/romio-xt/ads-calibration, or under $HOME/.cache */
int ads_calib_cache_file(char *path, size_t len);
/* one cache line (without newline) / parse it back: pure */
void ads_calib_format(char *line, size_t len, const char *key, const struct ads_calib *c);
int ads_calib_parse(const char *line, const char *key, struct ads_calib *out);

/* Is [off, off + len) mostly not in the page cache?  Samples its first
 * ADS_PROBE_BYTES.  Only pages that hold file data count: a page in a hole
 * (a sparse file's unwritten range) reads as zeros without touching the
 * storage, so it is neither cold nor warm; a sample of holes only is warm. */
#define ADS_PROBE_BYTES (16 << 10)     /* 4 pages */
int ads_range_cold(int fd, int64_t off, int64_t len);

#endif

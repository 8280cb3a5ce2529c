/* Cold-cache eviction for every C kernel in benchmarks/ (xtbench.evict() is
 * the same in Python):
 *
 *   xt_cold_drop_fd(fd)  the file's dirty pages written, then dropped from
 *                        the page cache (POSIX_FADV_DONTNEED)
 *   xt_cold_drop(path)   the same by name
 *   xt_cold_evict(path)  xt_cold_drop, then the file read once through and
 *                        dropped again (XT_BENCH_SETTLE=0 leaves the read out)
 * Each returns 0, or -1 when the file cannot be opened or advised.
 *
 * Why write the dirty pages first: pages still dirty or under writeback are
 * not dropped, so without it a varying tail of the file stayed cached and
 * "cold" reads turned warm.
 *
 * Why the read through: a VM that reports its free pages to the host
 * (virtio-balloon free page reporting) makes the page cache that takes such
 * pages again wait for the host to fault them in: a cold read ran at
 * ~0.7 GB/s instead of ~3.5 GB/s.  The read through leaves just-freed pages
 * for the timed read, so every config's cold read starts from the same
 * state: out of the VM's page cache, on memory the host holds.  With the
 * reporting paused (XT_BENCH_PAGE_REPORTING=off, benchmarks/README.md) or on
 * bare metal it costs only time. */
#ifndef XT_COLD_H
#define XT_COLD_H

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static inline int xt_cold_drop_fd(int fd)
{
    fdatasync(fd);
    return posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) == 0 ? 0 : -1;
}

static inline int xt_cold_drop(const char *path)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return -1;
    int rc = xt_cold_drop_fd(fd);
    close(fd);
    return rc;
}

static inline int xt_cold_evict(const char *path)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return -1;
    int rc = xt_cold_drop_fd(fd);
    const char *e = getenv("XT_BENCH_SETTLE");
    if (!(e && !strcmp(e, "0"))) {
        size_t len = 16 << 20;
        char *b = malloc(len);
        off_t off = 0;
        ssize_t got;
        while (b && (got = pread(fd, b, len, off)) > 0)
            off += got;
        free(b);
        rc = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) == 0 ? 0 : -1;
    }
    close(fd);
    return rc;
}

#endif

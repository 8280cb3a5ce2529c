/* Cold reads for the Orthrus and no-harm benchmarks: xt_cold_evict(path)
 * writes the file's dirty pages, drops it from the page cache, reads it once
 * through and drops it again.
 *
 * Why the read through (XT_BENCH_SETTLE=0 leaves it out): this project's VM
 * reports its free pages to the host (virtio-balloon free page reporting),
 * and the page cache that takes such pages again waits for the host to fault
 * them in: a cold read ran at ~0.7 GB/s instead of ~3.5 GB/s.  Session 13
 * took this for the host's cache under the virtual disk (it depended on the
 * writer's request size and on the wait after the write); session 14 found
 * the cause: with reporting paused (benchmarks/xt_vm.py,
 * XT_BENCH_PAGE_REPORTING=off) every such read ran at ~3.5 GB/s
 * (docs/results/orthrus-s14.md).  The read through leaves just-freed pages
 * for the timed read, so every config's cold read starts from the same
 * state: out of the VM's page cache, on memory the host holds. */
#ifndef XT_COLD_H
#define XT_COLD_H

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static inline void xt_cold_evict(const char *path)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return;
    /* pages still dirty or under writeback are not dropped: without this, a
     * varying tail of the file stayed cached, and "cold" reads turned warm */
    fdatasync(fd);
    posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    const char *e = getenv("XT_BENCH_SETTLE");
    if (!(e && !strcmp(e, "0"))) {
        size_t len = 16 << 20;
        char *b = malloc(len);
        off_t off = 0;
        ssize_t got;
        while (b && (got = pread(fd, b, len, off)) > 0)
            off += got;
        free(b);
        posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    }
    close(fd);
}

#endif

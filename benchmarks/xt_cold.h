/* Cold reads for the Orthrus and no-harm benchmarks: xt_cold_evict(path)
 * writes the file's dirty pages, drops it from the page cache, reads it once
 * through and drops it again.
 *
 * Why the read through (XT_BENCH_SETTLE=0 leaves it out): on this project's
 * VM the virtual disk sits on the host's page cache, which the VM cannot
 * drop.  After a write, how long the data stays there depends on how it was
 * written: written in 64 KiB requests it is gone within ~2 s and a cold read
 * runs at ~0.6 GB/s; written in 16 MiB requests it stays >= 10 s and reads at
 * ~3.4 GB/s.  Without the read through, a cold read measured the writer's
 * request size (stock with cb_buffer_size 64 KiB, or Orthrus's core_first),
 * not the reader.  One read through keeps the data on the host >= 15 s, so
 * every config's cold read starts from the same state: out of the VM's
 * cache, in the host's (docs/results/orthrus-s13.md). */
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

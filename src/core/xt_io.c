/* romio-xt: whole reads and writes on a POSIX descriptor. */
#include "xt_io.h"

#include <errno.h>
#include <unistd.h>

int64_t xt_rw_full(xt_rw_fn op, int is_write, int fd, void *buf, int64_t len, int64_t off)
{
    int64_t done = 0;
    while (done < len) {
        ssize_t n = op(fd, (char *) buf + done, (size_t) (len - done), (off_t) (off + done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -1;
        if (n == 0 && !is_write)
            break;              /* end of file */
        if (n == 0) {
            errno = ENOSPC;
            return -1;
        }
        done += n;
    }
    return done;
}

static ssize_t pwrite_rw(int fd, void *buf, size_t n, off_t off)
{
    return pwrite(fd, buf, n, off);
}

static ssize_t write_rw(int fd, void *buf, size_t n, off_t off)
{
    (void) off;
    return write(fd, buf, n);
}

int64_t xt_pread_full(int fd, void *buf, int64_t len, int64_t off)
{
    return xt_rw_full(pread, 0, fd, buf, len, off);
}

int64_t xt_pwrite_full(int fd, const void *buf, int64_t len, int64_t off)
{
    return xt_rw_full(pwrite_rw, 1, fd, (void *) buf, len, off);
}

int64_t xt_write_full(int fd, const void *buf, int64_t len)
{
    return xt_rw_full(write_rw, 1, fd, (void *) buf, len, 0);
}

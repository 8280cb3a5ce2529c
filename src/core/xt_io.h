/* romio-xt: whole reads and writes on a POSIX descriptor (no MPI, no ROMIO:
 * the unit tests and romio-xt-recover compile it too). */
#ifndef XT_IO_H
#define XT_IO_H

#include <stdint.h>
#include <sys/types.h>

/* one pread-like call: moves at most n bytes at off (write-like calls cast
 * the buffer back to const) */
typedef ssize_t (*xt_rw_fn)(int fd, void *buf, size_t n, off_t off);

/* The loop under the three below: calls op until len bytes have moved,
 * again after a short count or EINTR.  A call that moves nothing ends a read
 * (end of file) and fails a write (ENOSPC).  Returns the bytes moved, or -1
 * with errno set. */
int64_t xt_rw_full(xt_rw_fn op, int is_write, int fd, void *buf, int64_t len, int64_t off);

/* len bytes at off into buf; fewer only at the end of the file; -1 on error */
int64_t xt_pread_full(int fd, void *buf, int64_t len, int64_t off);
/* len bytes of buf at off: len, or -1 on error */
int64_t xt_pwrite_full(int fd, const void *buf, int64_t len, int64_t off);
/* len bytes of buf at the descriptor's position (append, a pipe): len, or -1 */
int64_t xt_write_full(int fd, const void *buf, int64_t len);

#endif

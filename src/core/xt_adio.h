/* romio-xt: shared ADIO helpers every module uses (as Darshan's darshan-common.c). */
#ifndef XT_ADIO_H
#define XT_ADIO_H

#include "adio.h"
#include "xt_romio.h"
#include "xt_io.h"
#include "xt_wait.h"

#include <stdint.h>

/* --- warnings ---------------------------------------------------------------
 * Every romio-xt warning goes through xt_warn: it adds the one prefix
 * "romio-xt: warning: " and prints a given text at most once per process per
 * job (whatever the number of files, opens and hint passes).  The text names
 * the thing (hint), the bad value and the problem: it is the key. */
enum xt_warn_scope {
    /* collective over fd->comm: every rank calls, with fmt NULL when it has
     * nothing to say; the lowest rank holding a text prints it */
    XT_WARN_ALL,
    /* this rank only, not collective, any thread: printed here */
    XT_WARN_SELF,
};

#define XT_WARN_LEN 2600

void xt_warn(ADIO_File fd, enum xt_warn_scope scope, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
#define XT_WARN_MAX 512
/* collective, one allreduce: n <= XT_WARN_MAX texts per rank (NULL or empty:
 * none), slot k the same problem on every rank; each slot's lowest holder
 * prints it (once per job), unless a rank passed ok 0.  Returns 1 when every
 * rank passed ok 1, else 0 on every rank (and nothing is printed). */
int xt_warn_slots(ADIO_File fd, char *const *texts, int n, int ok);
/* xt_warn_slots in parts, for a caller whose own MIN allreduce carries the
 * bids: bid[k] is this rank, or nprocs when text k is none or already said;
 * then who[k] (the reduced bids) prints each text at its lowest holder */
void xt_warn_bid(ADIO_File fd, char *const *texts, int n, int *bid);
void xt_warn_print(ADIO_File fd, char *const *texts, int n, const int *who);

/* FNV-1a: h (XT_FNV_SEED to start) folded with n bytes of data */
#define XT_FNV_SEED 1469598103934665603ULL
uint64_t xt_fnv1a(uint64_t h, const void *data, size_t n);

/* --- small allreduces ------------------------------------------------------- */
/* MPICH 4.0.2's tuning (maint/tuning/coll/mpir/generic.json) runs an allreduce
 * with a built-in op over more than 8 bytes as reduce-scatter + allgather
 * (twice the rounds of recursive doubling, which ROMIO's own 1-int
 * allreduces get).  These use user-defined ops, so every small allreduce of
 * ours stays recursive doubling.  Collective over comm; returns MPI's code. */
enum xt_reduce { XT_MIN_INT, XT_MAX_INT64 };
int xt_allreduce(const void *in, void *out, int n, enum xt_reduce how, MPI_Comm comm);

/* --- the file system --------------------------------------------------------- */
enum xt_fs_cap {
    /* ROMIO's driver keeps a POSIX descriptor in fd->fd_sys: posix_fadvise
     * and pread on it see the file's data */
    XT_FS_POSIX_FD,
    /* the driver's own reads and writes are plain pread/pwrite on fd_sys, so a
     * layer may issue them itself (NFS is left out: its driver locks around
     * reads for cache coherence) */
    XT_FS_PLAIN_RW,
};
int xt_fs_has(ADIO_File fd, enum xt_fs_cap cap);

/* --- memory copies ----------------------------------------------------------- */
/* Large copies (memcpy's `rep movsb`, and the kernel's copies between the
 * page cache and user memory) run ~12x slower on some CPUs when the
 * destination lies 1-31 bytes past the source modulo 4 KiB (measured here,
 * AMD EPYC: 256 KiB in 87 us against 7 us; 0 or 32 bytes past: 7 us).  That is
 * exactly where malloc puts a large buffer (16 bytes past a page boundary)
 * against page-aligned file data.  xt_bad_skew: is dst - src such a skew? */
static inline int xt_bad_skew(uintptr_t dst, uintptr_t src)
{
    uintptr_t d = (dst - src) & 4095;
    return d >= 1 && d < 32;
}
/* 1 when this CPU shows the slow skew (measured once per process, ~20 us) */
int xt_copy_skew_slow(void);
/* a page-aligned buffer one page longer than len (free() it), so that len
 * bytes can be placed at any skew against the file offsets they hold */
char *xt_page_alloc(size_t len);
/* where in such a buffer the bytes of file offset off start, at skew
 * (address minus file offset, mod 4 KiB; 0: the page cache's own) */
static inline char *xt_placed(char *buf, int64_t off, int skew)
{
    return buf + ((skew + off) & 4095);
}

/* seconds, monotonic */
double xt_now(void);

/* --- a data call ------------------------------------------------------------- */
/* count elements of dt in bytes (0 for MPI_DATATYPE_NULL) */
int64_t xt_bytes(int count, MPI_Datatype dt);
/* what ROMIO's routines do at the end of a call that moved `bytes`: the
 * individual pointer becomes fp_ind (fpt ADIO_INDIVIDUAL only), the system
 * position sys_posn (-1: unknown), the status counts the bytes */
void xt_call_done(ADIO_File fd, int fpt, ADIO_Offset fp_ind, ADIO_Offset sys_posn,
                  ADIO_Status *status, MPI_Datatype dt, int64_t bytes);

/* ROMIO's ADIO_Offset arrays (a flattened type's indices and blocklens) as
 * int64_t: ADIO_Offset is int64_t in 4.0.2 and long long in 3.2.1, the same
 * 8 bytes (ROMIO and romio-xt are compiled with -fno-strict-aliasing there) */
_Static_assert(sizeof(ADIO_Offset) == sizeof(int64_t), "ADIO_Offset has 64 bits");
static inline const int64_t *xt_off64(const ADIO_Offset *p)
{
    return (const int64_t *) p;
}
/* fd's filetype or a buffer's type flattened (ROMIO's cached list, never
 * freed by the caller): ADIOI_Flatten_and_find, which in ROMIO 3.2.1 has no
 * node for a contiguous type; there the node is made here (one per size) */
ADIOI_Flatlist_node *xt_flatten(MPI_Datatype dt);
/* what ROMIO's WriteContig notes besides the write (4.0.2: fd->dirty_write,
 * which MPI_File_sync reads; ROMIO 3.2.1 has no such member) */
static inline void xt_mark_dirty(ADIO_File fd)
{
#if XT_ROMIO >= 40000
    fd->dirty_write = 1;
#else
    (void) fd;
#endif
}

/* --- errors and memory --------------------------------------------------------- */
/* the MPI error code for errno err at `where` (MPI_SUCCESS for 0): ROMIO's
 * classes (MPI_ERR_NO_SPACE, ...; MPI_ERR_IO otherwise), MPI_ERR_NO_MEM for ENOMEM */
int xt_io_error(ADIO_File fd, const char *where, int err);
/* calloc that never aborts; NULL on failure (and for n == 0 never NULL) */
void *xt_calloc(size_t n, size_t size);
/* whether size bytes can be allocated now (allocated and freed, untouched;
 * the test hook counts it as an xt_calloc) */
int xt_can_alloc(size_t size);
/* collective over fd->comm: 1 when ok on every rank; else 0 on every rank
 * and one warning "out of memory (what)" */
int xt_all_ok(ADIO_File fd, int ok, const char *what);

/* --- test hooks --------------------------------------------------------------
 * Fault injection and the like, for the tests: the integer in environment
 * variable name, read only in a build configured with --enable-xt-test-hooks
 * (-DXT_TEST_HOOKS); in any other build, and when unset, dflt. */
int64_t xt_test_hook(const char *name, int64_t dflt);

#endif

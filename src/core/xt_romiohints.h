/* romio-xt: validation of ROMIO's own hints (no MPI).
 *
 * ROMIO reads its integer hints with atoi and its switches with strcmp: a
 * value of 0, -1, "abc", "nan" or "99999999999999999999k" for cb_buffer_size
 * or cb_nodes kills the job (SIGFPE, or "Out of memory" and MPI_Abort).  The
 * table in xt_romiohints.c names each hint ROMIO reads, its kind and range; the
 * hook (xt_info.c, before ROMIO's SetInfo) hands ROMIO an info where each bad
 * value is replaced (a size with a k/m/g suffix: its bytes) or removed (ROMIO's
 * default at open, the current value after), with one warning per job.  An
 * info with only valid values reaches ROMIO untouched. */
#ifndef XT_ROMIOHINTS_H
#define XT_ROMIOHINTS_H

#include <stddef.h>

enum xt_romio_verdict {
    XT_ROMIO_OK,        /* not ours, or valid as ROMIO reads it: leave it */
    XT_ROMIO_FIX,       /* replace the value by fixed */
    XT_ROMIO_DROP,      /* remove the key: ROMIO's default (at open) or current value */
};

/* Checks ROMIO hint key's value raw.  On FIX/DROP, fixed holds the value to
 * set (FIX) and warn the one warning naming the hint, the value and what is
 * used (at_open: ROMIO's default; else the current value). */
enum xt_romio_verdict xt_romio_check(const char *key, const char *raw, int at_open,
                                     char *fixed, size_t flen, char *warn, size_t wlen);

/* the number of ROMIO hints checked, and the name of the k-th */
int xt_romio_nhints(void);
const char *xt_romio_name(int k);

#endif

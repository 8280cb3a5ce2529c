/* romio-xt: shared ADIO helpers every module uses (as Darshan's darshan-common.c). */
#ifndef XT_ADIO_H
#define XT_ADIO_H

#include "adio.h"

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
/* collective: n texts per rank (empty: none), slot k the same problem on
 * every rank; each slot's lowest holder prints it (once per job) */
void xt_warn_slots(ADIO_File fd, char (*texts)[XT_WARN_LEN], int n);

#endif

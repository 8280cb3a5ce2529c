/* romio-xt NVM write-behind: when caching a write pays (pure logic, no MPI,
 * no threads; unit-tested in test/unit/test_noharm.c).
 *
 * A cached write costs a second copy (cache file -> global file) that only
 * pays when the sync threads can do it while the application computes.
 * When a write arrives and the threads still have data of earlier writes to
 * copy, the application is writing faster than they drain (no compute phase
 * between the calls): caching more only adds copies that the next sync or
 * close waits for (no-harm grid: 0.13-0.4x cache-off).  Such a write goes
 * straight to the global file.  With flush_onclose the threads hold
 * everything back until sync/close, as asked: always cached.
 *
 * After the threads catch up they write the global file back (fdatasync) so
 * MPI_File_sync finds little to flush; that only pays if nothing follows at
 * once: they wait NVC_FLUSH_QUIET_S seconds first and skip it when a write,
 * sync or close comes meanwhile (stock ROMIO's close does not flush). */
#ifndef NVC_GATE_H
#define NVC_GATE_H

#include <stdint.h>
#include "nvc_store.h"

#define NVC_FLUSH_QUIET_S 0.1

/* cache a write of len bytes?  held_back: flush_onclose; pending: bytes of
 * earlier writes not yet synced */
int nvc_gate_cache(int held_back, int64_t pending, int64_t len);
/* bytes of the queue's items not yet synced */
int64_t nvc_queue_pending(const struct nvc_queue *q);

#endif

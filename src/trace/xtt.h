/* romio-xt trace: what the layer needs from the per-process writer. */
#ifndef XTT_H
#define XTT_H

#include "../core/xt_layer.h"
#include "xtt_format.h"

/* collective over fd->comm at every traced open: agrees the job id and time 0
 * (first time on this rank), opens DIR/<job>-<rank>.xtt; returns 0 when
 * tracing works on every rank of fd->comm (one warning otherwise) */
int xtt_writer_join(ADIO_File fd, const char *dir);
/* seconds since time 0 on this rank's aligned clock */
double xtt_time(void);
/* the same, cheaper (for every call's start and end) */
double xtt_stamp(void);
/* a slot for one record in the buffer (flushes it when full), or NULL when
 * tracing broke (unwritable file: one warning, then nothing) */
struct xtt_rec *xtt_next(void);
/* writes the buffered records (close, finalize) */
void xtt_flush(void);
/* at a traced close: xtt_flush when the last write is XTT_CLOSE_FLUSH_S old */
void xtt_close_flush(void);
/* a new file id, announced with its name */
int xtt_announce(const char *name, int comm_size, int cb_nodes, int flags);

#endif

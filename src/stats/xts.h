/* romio-xt stats: what the report needs from the layer. */
#ifndef XTS_H
#define XTS_H

#include "../core/xt_layer.h"

int xts_nops(void);
const char *xts_op_name(int op);
/* this rank's numbers (zeros when the layer is not installed) */
void xts_local(ADIO_File fd, int64_t *calls, int64_t *bytes, double *time, int64_t *app_bytes);

#endif

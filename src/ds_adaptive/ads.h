/* romio-xt adaptive data sieving: shared declarations of the layer. */
#ifndef ADS_H
#define ADS_H

#include "../core/xt_layer.h"
#include "ads_calib.h"
#include "ads_plan.h"
#include "ads_view.h"

/* stats counters (names in ads_layer.c) */
enum ads_counter {
    ADS_C_CALLS, ADS_C_DELEGATED, ADS_C_COLD_CALLS, ADS_C_WINDOWS, ADS_C_READ_BYTES,
    ADS_C_WRITE_BYTES, ADS_C_USEFUL_BYTES, ADS_C_RMW, ADS_C_THROUGH, ADS_C_SPLIT, ADS_C_LOCKED, ADS_NCOUNTERS
};

/* where the costs came from; NONE: no call has needed them yet */
enum ads_cal_source { ADS_CAL_HINTS, ADS_CAL_CACHE, ADS_CAL_DEVICE, ADS_CAL_PROBE, ADS_CAL_DEFAULTS,
    ADS_CAL_NONE
};

struct ads_state {
    const struct ads_method *method;
    struct ads_calib cal;
    int cal_source;
    int ready;              /* align and cal set (ads_prepare) */
    int64_t align;          /* stripe size, or the file system's block size */
    int direct;             /* POSIX descriptor right below us: preadv/pwritev */
    int via_lower;          /* else a layer below must see every request (a cache):
                             * read windows go through its contiguous calls */
    char *scratch;          /* holes and read-modify-write windows */
    int64_t scratch_len;
    struct ads_seg *pieces;     /* one window's pieces, as segments */
};

extern const struct xt_layer ads_layer;

/* one strided call (ads_io.c) */
void ads_strided(ADIO_File fd, void *buf, int count, MPI_Datatype dt, int fpt,
                 ADIO_Offset offset, ADIO_Status *status, int *error_code, int is_write);
/* this rank's calibration of fd's directory (ads_io.c; no MPI) */
void ads_calibrate(ADIO_File fd, struct ads_state *st);
/* align and the costs, at the first call that plans (ads_io.c) */
void ads_prepare(ADIO_File fd, struct ads_state *st);

#endif

/* romio-xt Orthrus: the layer's counters in the stats record (summed over
 * ranks); today all of them are view_based's (orth_vb.h). */
#ifndef ORTH_COUNTERS_H
#define ORTH_COUNTERS_H

/* why dirty blocks were written */
enum { VB_F_CALL_END, VB_F_POOL_FULL, VB_F_SYNC, VB_F_CLOSE, VB_F_SET_VIEW, VB_F_READ_MISS,
    VB_F_OTHER_CALL, VB_F_LOG_FULL, VB_F_BACKGROUND, VB_F_N
};

/* the counters, in orth_counter_names[] order (orth_file.c) */
enum { VB_C_HITS, VB_C_MISSES, VB_C_BYTES_FLUSHED, VB_C_FLUSH0,
    VB_C_VIEW_BYTES = VB_C_FLUSH0 + VB_F_N, VB_C_VIEW_EXCHANGES, VB_C_FALLBACKS,
    VB_C_PREFETCHED, VB_C_DROPS, VB_C_POOL_GROWN, VB_C_REWRITTEN, VB_NCOUNTERS
};

#define ORTH_NCOUNTERS VB_NCOUNTERS
extern const char *const orth_counter_names[];

#endif

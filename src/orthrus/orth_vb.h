/* romio-xt Orthrus: view_based, view-based collective I/O (García Blas et
 * al., FAST'08).  Each rank's file view goes to the aggregators once (at
 * MPI_File_set_view, or with the first access when romio_vb_lazy=enable), as
 * one period of (offset, length) pieces.  The file is cut into static
 * domain blocks of `unit` bytes (striping_unit, else cb_buffer_size), block b
 * belonging to aggregator b mod naggs (ROMIO's cb_nodes aggregators).  At a
 * call only each rank's interval [start, end) in view coordinates (bytes of
 * its view's data stream) travels: both sides map it through the view, so
 * data moves rank -> aggregator in file order without offset lists.  The
 * aggregators keep the blocks in a bounded buffer cache (romio_vb_cache_size)
 * that serves later reads.  With write-behind (romio_vb_write_behind) the
 * written blocks stay dirty in the pool until it needs room or a collective
 * operation settles the file (sync, close, set_size, set_view, atomicity,
 * another candidate's call); each rank keeps a log of its own unsettled
 * writes so its independent reads see them, and its independent writes'
 * ranges go to the aggregators at the next collective operation. */
#ifndef ORTH_VB_H
#define ORTH_VB_H

#include "orth.h"
#include "orth_counters.h"

/* a view: pieces idx[i], len[i] (sorted, disjoint) of one period of
 * `extent` bytes tiled from disp; pre[i] = data bytes before piece i */
struct vb_view {
    ADIO_Offset disp, extent, size;
    int n;
    ADIO_Offset *idx, *len, *pre;
};

/* sorted, disjoint [lo, hi) intervals inside one block */
struct vb_ivl {
    int n, cap;
    ADIO_Offset *v;             /* lo0, hi0, lo1, hi1, ... */
};

struct vb_block {
    int64_t blk;                /* block number, -1: free slot */
    char *buf;
    struct vb_ivl valid, dirty;
    uint64_t used;
};

/* a rank's own collective write not yet settled: stream bytes [s0, s1) */
struct vb_logent {
    ADIO_Offset s0, s1;
    char *data;
};

struct orth_vb {
    int stale;                  /* views must be exchanged before the next call */
    int fallback;               /* the views cannot be used: two_phase runs instead */
    int lazy, prefetch;
    int naggs, myagg;           /* myagg: index among the aggregators, or -1 */
    int *aggs;                  /* the aggregators' ranks (fd->hints->ranklist) */
    ADIO_Offset unit;
    int unit_auto;              /* no striping_unit: the first call sizes the blocks */
    struct vb_view mine;
    struct vb_view *views;      /* aggregators: every rank's view */
    int nprocs;
    struct vb_block *pool;
    int cap;
    int active;                 /* slots in use: grows when an evicted block comes back */
    int64_t *ghost;             /* the last cap evicted block numbers (a ring) */
    int ghost_at;
    uint64_t clock;
    int64_t foreign;            /* writes by other layers since the last call */
    ADIO_Offset *rg;            /* file ranges (lo, hi) of this rank's independent writes */
    int nrg, crg;
    int in_call;
    /* write-behind (the same on every rank: changed by collective calls only) */
    int wb;                     /* on */
    int dirty;                  /* written blocks may be unsettled somewhere */
    ADIO_Offset eof;            /* end of the unsettled writes (MPI_File_get_size) */
    int werr;                   /* the first failed flush since the last settle */
    struct vb_logent *log;
    int nlog, clog;
    int64_t log_bytes, log_max;
    struct vb_bg *bg;           /* romio_vb_write_behind=background (aggregators) */
    int bg_on;                  /* background flushing on this file (every rank) */
};

/* ADIOI_Free, which refuses NULL */
#define VB_FREE(p) do { if (p) ADIOI_Free(p); } while (0)

/* orth_vb_view.c */
ADIO_Offset vb_vpos(const struct vb_view *v, ADIO_Offset f);
ADIO_Offset vb_foff(const struct vb_view *v, ADIO_Offset s);
/* calls fn(arg, off, len, spos) for the pieces of stream [s0, s1), in order */
void vb_pieces(const struct vb_view *v, ADIO_Offset s0, ADIO_Offset s1,
               void (*fn)(void *arg, ADIO_Offset off, ADIO_Offset len, ADIO_Offset spos),
               void *arg);
void vb_view_free(struct vb_view *v);
void vb_exchange_free(struct orth_vb *vb);
/* collective: the views to the aggregators; sets vb->fallback when unusable */
void vb_exchange(ADIO_File fd, struct orth_vb *vb, int ok);

/* orth_vb_cache.c */
void vb_ivl_add(struct vb_ivl *l, ADIO_Offset *pairs, int n);
int vb_ivl_covers(const struct vb_ivl *l, ADIO_Offset lo, ADIO_Offset hi);
struct vb_block *vb_block_get(ADIO_File fd, struct orth_vb *vb, int64_t blk, int create,
                              int *err);
void vb_block_flush(ADIO_File fd, struct orth_vb *vb, struct vb_block *b, int cause, int *err);
void vb_flush_all(ADIO_File fd, struct orth_vb *vb, int cause, int *err);
void vb_drop_all(ADIO_File fd, struct orth_vb *vb);
/* forget the clean bytes of every block (the file may have changed) */
void vb_drop_clean(ADIO_File fd, struct orth_vb *vb);
/* n file ranges (lo, hi) written behind the cache: no longer valid or dirty */
void vb_forget_ranges(struct orth_vb *vb, const ADIO_Offset *rg, int n);
void vb_pool_init(ADIO_File fd, struct orth_vb *vb);
void vb_pool_free(struct orth_vb *vb);

/* orth_vb_log.c */
struct orth_vb *vb_of(ADIO_File fd);
/* collective: the ranks' independent-write ranges to the aggregators, then
 * every dirty block to the file (and, with write-behind, an agreement on
 * errors, so every rank returns from it after every flush) */
void vb_settle(ADIO_File fd, struct orth_vb *vb, int cause, int *err);
/* the independent-write ranges of every rank (n: each rank's count of pairs) */
void vb_share_ranges(ADIO_File fd, struct orth_vb *vb, const int64_t *n, int stride);
void vb_log_add(struct orth_vb *vb, ADIO_Offset s0, ADIO_Offset s1, const char *data);
void vb_log_clear(struct orth_vb *vb);
/* an independent access of stream bytes [s0, s0 + n) in buf (0: read, the
 * log's bytes into buf; 1: write, buf's bytes into the log) */
void vb_log_stream(struct orth_vb *vb, ADIO_Offset s0, ADIO_Offset n, char *buf, int write);
/* the same for file bytes [off, off + n) */
void vb_log_file(struct orth_vb *vb, ADIO_Offset off, ADIO_Offset n, char *buf, int write);
void vb_add_range(struct orth_vb *vb, ADIO_Offset lo, ADIO_Offset hi);
/* collective: a collective read or write not run by view_based is next */
void vb_other_call(ADIO_File fd, int is_write);
/* the file ranges of stream bytes [s0, s1) */
void vb_ranges_of(struct orth_vb *vb, ADIO_Offset s0, ADIO_Offset s1);
/* buf itself when count x dt is contiguous from buf, else a buffer of n
 * bytes (buf packed into it when pack) */
char *vb_packed(const void *buf, int count, MPI_Datatype dt, ADIO_Offset n, int pack);

/* orth_vb_bg.c: background flushing.  Between collective calls an
 * aggregator's thread (no MPI: pwrite on fd_sys) writes its dirty blocks;
 * every operation that touches the pool first takes it back (quiesce). */
/* at open, on every rank (collective: one warning when it cannot be used) */
void vb_bg_open(ADIO_File fd, struct orth_vb *vb, int want);
/* after a write call: the thread may write the dirty blocks */
void vb_bg_kick(ADIO_File fd, struct orth_vb *vb);
/* the pool back to the caller: the thread stopped (its counts and its
 * first error, as vb->werr, taken over) */
void vb_bg_quiesce(ADIO_File fd, struct orth_vb *vb);
/* at close, after the last settle: the thread ends */
void vb_bg_close(struct orth_vb *vb);
/* a rank's independent writes over its own unsettled collective writes,
 * written again from its log (a background flush may have written the
 * older bytes after them); call after every rank has quiesced */
void vb_rewrite_own(ADIO_File fd, struct orth_vb *vb);

/* orth_vb.c: its collective call */
void orth_view_based(struct orth_call *c, int *err);

#endif

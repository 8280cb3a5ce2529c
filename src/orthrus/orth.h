/* romio-xt Orthrus: on-line selection among collective-I/O implementations.
 * The layer overrides ReadStridedColl/WriteStridedColl; each call is run by
 * one candidate from orth_cands[] (two_phase = stock ROMIO, core_first = one
 * aggregator per node, disk_first = one aggregator per data server,
 * view_based = views at the aggregators, orth_vb.h), chosen by orth_select.c
 * from allreduced timings. */
#ifndef ORTH_H
#define ORTH_H

#include "../core/xt_layer.h"
#include "orth_select.h"
#include "orth_desc.h"

/* bigger calls always run stock two-phase (a rank's packed bytes are an int count) */
#define ORTH_MAX_BYTES (1LL << 30)

/* one collective call, as the candidates see it */
struct orth_call {
    ADIO_File fd;
    void *buf;
    int count;
    MPI_Datatype dt;
    int fpt;
    ADIO_Offset off;
    ADIO_Status *status;
    int is_write;
    /* this rank's file pieces in view order (ADIOI_Calc_my_off_len), listed
     * only when needed (orth_pieces): NULL until then */
    ADIO_Offset *offs, *lens;
    int n;
    int64_t bytes;              /* this rank's bytes */
    ADIO_Offset orig_fp, end_fp;        /* fd->fp_ind before and after the call */
    int ride;                   /* ORTH_RIDE_*: the call's record rides on the candidate's
                                 * error agreement (orth_finish) */
    /* that agreement for a riding call (orth_ride_end), NULL: orth_agree_error */
    void (*agree)(struct orth_call *c, int *err);
    struct orth_state *st;      /* the layer's state on fd, found once per call */
    const ADIOI_Fns *lower;     /* the table below the layer */
};

/* the candidates (ORTH_CAND_LIST, orth_hints.def): enum { ORTH_two_phase, ...,
 * ORTH_NCANDS }, the indices of orth_cands[] */
#define ORTH_CAND_ID(h, name) ORTH_##name,
enum orth_cand_id { ORTH_CAND_LIST(ORTH_CAND_ID, _) ORTH_NCANDS };
#undef ORTH_CAND_ID

/* the quiesce points where a candidate's held data must reach the file
 * (orth_cand.settle) */
enum { ORTH_AT_SYNC,            /* MPI_File_sync, set_size, set_atomicity */
    ORTH_AT_VIEW,               /* MPI_File_set_view (err NULL: kept for the next sync) */
    ORTH_AT_CLOSE
};

/* an operation below the layer other than a collective call (an
 * independent read or write, or one that may write, e.g. preallocation), as
 * the candidates' guards see it (orth_cand.indep) */
enum { ORTH_IO_READ, ORTH_IO_WRITE, ORTH_IO_OTHER };
struct orth_io {
    const void *buf;
    int count;
    MPI_Datatype dt;
    int fpt;
    ADIO_Offset off;
    int kind;                   /* ORTH_IO_* */
    int contig;                 /* a ...Contig operation */
    int nest;                   /* what the layers below do in it is part of it */
    ADIO_Offset before;         /* fd->fp_ind before it */
    int mark[ORTH_NCANDS];      /* a candidate's own, from its before hook to its after */
};

/* A candidate: its collective call and its hooks.  The selector calls them
 * through orth_cands[] only; a hook left NULL does nothing.  A candidate
 * keeps its own state in st->cand[its id] (made by open, freed by close):
 * the selector never looks into it. */
struct orth_cand {
    const char *name;
    /* collective over fd->comm; sets *err the same way on all ranks */
    void (*run)(struct orth_call *c, int *err);
    int stock;                  /* ROMIO's own collective routine: the layers below see
                                 * the call as theirs (no xt_coll_notify) */
    /* init, at open, on every rank (collective), when the file may run it:
     * forced, or in the rotation */
    void (*open)(ADIO_File fd, struct orth_state *st);
    /* free, at close, after its ORTH_AT_CLOSE settle (collective) */
    void (*close)(ADIO_File fd, struct orth_state *st);
    /* before a timed call of it (collective): first-use setup, not timed */
    void (*setup)(struct orth_call *c);
    /* collective: another candidate runs the next collective call */
    void (*other)(ADIO_File fd, int is_write);
    /* collective: a quiesce point (ORTH_AT_*); what it holds reaches the file */
    void (*settle)(ADIO_File fd, int at, int *err);
    /* after MPI_File_set_view (collective; error_code: this rank's result) */
    void (*view)(ADIO_File fd, int error_code);
    /* around an operation below the layer (after: 0 before it, 1 after) */
    void (*indep)(ADIO_File fd, struct orth_io *io, int after);
    /* 1: a nonblocking read must run blocking (its guards need the data) */
    int (*blocks)(ADIO_File fd);
    /* the file's size as MPI_File_get_size reports it (held writes count) */
    void (*fsize)(ADIO_File fd, ADIO_Offset *size);
    /* another layer wrote the file directly */
    void (*wrote)(ADIO_File fd);
    /* 1: each process writes its own pieces, one request per piece (no
     * aggregation): over a write-behind cache, its write trials time the
     * cache's appends, and each small piece costs a copy of its own later */
    int writes_pieces;
};

/* a collective call reports the candidate that ran it (xt_coll_ran), as its index + 1 */
_Static_assert(ORTH_NCANDS <= XT_COLL_IMPL_MAX, "every candidate has an xt_coll_ran number");
/* romio_orthrus_force's choices are none + the candidates */
#define ORTH_FORCED_CAND(force) ((int) (force) - XT_H_ORTH_FORCE_two_phase)

/* one per candidate, defined in its own file: orth_<name>_cand */
#define ORTH_CAND_DECL(h, name) extern const struct orth_cand orth_##name##_cand;
ORTH_CAND_LIST(ORTH_CAND_DECL, _)
#undef ORTH_CAND_DECL
extern const struct orth_cand *const orth_cands[];
extern const int orth_ncands;
int orth_cand_find(const char *name);

/* the hooks of every candidate (orth_cands.c) */
void orth_cands_open(ADIO_File fd, struct orth_state *st);
void orth_cands_close(ADIO_File fd, struct orth_state *st, int *err);
/* every candidate but `runs` (orth_cands index, -1: none) hears that
 * another runs the next collective call */
void orth_cands_other(ADIO_File fd, int runs, int is_write);
void orth_cands_settle(ADIO_File fd, int at, int *err);
void orth_cands_view(ADIO_File fd, int error_code);
void orth_cands_indep(ADIO_File fd, struct orth_io *io, int after);
int orth_cands_block(ADIO_File fd);
void orth_cands_fsize(ADIO_File fd, ADIO_Offset *size);
void orth_cands_wrote(ADIO_File fd);
/* candidate cand's setup hook, if any */
void orth_cand_setup(struct orth_call *c, int cand);
/* candidate cand alone hears that another runs the next collective call */
void orth_cand_other(ADIO_File fd, int cand, int is_write);
/* the layer's operations besides the collective calls: every candidate's
 * guards around the table below's (orth_guard.c) */
void orth_guard_WriteContig(ADIO_File fd, const void *buf, int count, MPI_Datatype dt,
                            int fpt, ADIO_Offset off, ADIO_Status *status, int *err);
void orth_guard_WriteStrided(ADIO_File fd, const void *buf, int count, MPI_Datatype dt,
                             int fpt, ADIO_Offset off, ADIO_Status *status, int *err);
void orth_guard_IwriteContig(ADIO_File fd, const void *buf, int count, MPI_Datatype dt,
                             int fpt, ADIO_Offset off, ADIO_Request *req, int *err);
void orth_guard_IwriteStrided(ADIO_File fd, const void *buf, int count, MPI_Datatype dt,
                              int fpt, ADIO_Offset off, ADIO_Request *req, int *err);
void orth_guard_ReadStrided(ADIO_File fd, void *buf, int count, MPI_Datatype dt, int fpt,
                            ADIO_Offset off, ADIO_Status *status, int *err);
void orth_guard_IreadContig(ADIO_File fd, void *buf, int count, MPI_Datatype dt, int fpt,
                            ADIO_Offset off, ADIO_Request *req, int *err);
void orth_guard_IreadStrided(ADIO_File fd, void *buf, int count, MPI_Datatype dt, int fpt,
                             ADIO_Offset off, ADIO_Request *req, int *err);
void orth_guard_Flush(ADIO_File fd, int *err);
void orth_guard_Resize(ADIO_File fd, ADIO_Offset size, int *err);
void orth_guard_Fcntl(ADIO_File fd, int flag, ADIO_Fcntl_t * fs, int *err);

/* a call whose slowest-rank time is reduced with the next call's signature */
struct orth_pending {
    int active;
    struct orth_entry *e;
    int pick;                   /* rotation index run */
    double bytes, t_local, t_end;
    double io_local;            /* this process's time in file reads during the call */
    int64_t no;                 /* call number since open */
};

enum { ORTH_IN_PLACE, ORTH_SENT, ORTH_COPIED };     /* orth_state.moved */

/* orth_call.ride: no; the call chosen at its reduction, with the run starting
 * at it; a call of the run (no reduction before it) */
enum { ORTH_RIDE_NO, ORTH_RIDE_FIRST, ORTH_RIDE_ON };

/* the longest quiet run (orth_sel_quiet): calls that two_phase runs
 * without the per-call reduction (~15-40 us between emulated nodes) */
#define ORTH_QUIET_MAX 16

/* the reduction's records: [0] the call that reduces (its description, the
 * pending call's time, the digest); [1..n] the quiet run's calls (each one's
 * description and local time) */
struct orth_quiet {
    int left;                   /* calls of the run still to come (agreed) */
    int cand;                   /* the rotation index that runs them: home, or the chosen
                                 * winner that communicates nothing (orth_sel_free) */
    /* a riding run: home is not the winner, but core_first or disk_first
     * (they end each call with an error agreement over the file's processes):
     * each call runs it and its record (the description, its time) is reduced
     * in that agreement, so it is recorded at its end; the run goes on while
     * the calls keep the pattern and its winner (agreed) */
    int ride;                   /* rotation index of the winner riding, or -1 */
    struct orth_entry *ride_e;
    double t0;                  /* the riding call's start */
    int n;                      /* its calls so far, recs[1..n] */
    int64_t first;              /* the run's first call number */
    int64_t digest;             /* the selection's, unchanged during the run */
    int is_write[ORTH_QUIET_MAX + 1];
    double t_end[ORTH_QUIET_MAX + 1];
    int64_t recs[ORTH_QUIET_MAX + 1][ORTH_R_N];
};

struct orth_state {
    struct orth_sel sel;
    struct orth_pending pend;
    struct orth_quiet quiet;
    int64_t quiet_calls, ride_calls, strays, reductions;
    int64_t packed_pieces;      /* first-trial pieces split by bytes (orth_piece.c) */
    MPI_Op op;                  /* orth_red_combine over one record */
    MPI_Datatype rec;           /* ORTH_R_N int64 */
    int64_t ncalls, disagreements;
    int64_t rounds;             /* exchange rounds run by core_first/disk_first */
    int64_t moved[3];           /* their bytes: in place, in messages, copied (orth_xchg.c) */
    double t_open;
    int held_below;             /* a write-behind cache below (xt_writes_held_below) */
    double io;                  /* seconds in the layer below's contiguous reads, so far */
    FILE *log;                  /* rank 0: romio_orthrus_log, or NULL */
    int rotation[ORTH_MAX_CAND];        /* indices into orth_cands */
    int forced;                 /* index into orth_cands, or -1 */
    MPI_Comm node;              /* the processes sharing this node (orth_nodes) */
    int nnodes;                 /* (orth_nodes) */
    int64_t bypassed;           /* calls passed to the stock routine unexamined */
    int64_t nomem_calls;        /* of them: a process lacked the call's working memory */
    int nomem;                  /* this process lacks it for the call being described */
    int from_memory;            /* patterns adopted from the job's earlier files (orth_memo.c) */
    int64_t runs[ORTH_NCANDS];  /* calls run per orth_cands index */
    void *cand[ORTH_NCANDS];    /* each candidate's own state (its open hook's), or NULL */
    uint64_t view_gen;          /* set_views seen */
    struct orth_desc_cache desc;        /* calls' descriptions (orth_desc.h) */
    int desc_mode;              /* ORTH_DESC_* (test hook ROMIO_XT_ORTHRUS_TEST_DESC) */
    int64_t big;                /* a riding call's bytes on a process above which it
                                 * accesses its part itself (test hook ROMIO_XT_ORTHRUS_TEST_BIG) */
};

/* how calls are described: listing each call's pieces, from the cache
 * (the default), or from the cache with every hit checked against a listing */
enum { ORTH_DESC_LIST, ORTH_DESC_CACHE, ORTH_DESC_CHECK };

extern const struct xt_layer orth_layer;

/* orth_file.c: open/close work, the saved table, the per-call log */
int orth_open(ADIO_File fd, void *state);
void orth_close(ADIO_File fd, void *state, int *err);
void orth_report(ADIO_File fd, void *state, struct xt_json *j);
void orth_log_call(struct orth_state *st, const struct orth_pending *p, double secs, int was,
                   int event);
/* one reduction (collective: every rank): st->quiet.recs[0], filled by the
 * caller with the call's description (or zeros at close), gets the pending
 * call's time and the digest; with the quiet run's records it is reduced,
 * then the pending call and the quiet calls are recorded in order.  The
 * sums of record 0 into sum0. */
void orth_reduce(ADIO_File fd, struct orth_state *st, int64_t *sum0);
/* the end of a riding call (orth_finish): its record reduced with the
 * error agreement (*err as orth_agree_error sets it), then recorded; ends the
 * run when the call was of another pattern or its winner changed */
void orth_ride_end(struct orth_call *c, int *err);
/* a call's signature from its reduced record */
void orth_sig_of(const int64_t *sum, int is_write, struct orth_sig *sig);
/* 1 for a call that runs two_phase without a selection entry (no data, over
 * 1 GiB, one process reading one range; orth_file.c) */
int orth_unexamined(const struct orth_state *st, const struct orth_sig *sig);

/* where the pieces of a call go: core_first and disk_first are routes */
struct orth_route {
    MPI_Comm comm;              /* the processes exchanging data */
    ADIO_Offset unit;           /* pieces are cut at multiples of unit (0: never) */
    int (*dest)(const struct orth_route *rt, ADIO_Offset off);  /* rank in comm */
    int agg, naggs, nprocs;     /* for dest */
};
/* the stripe owner of off: aggregator (off / unit) mod naggs, spread over
 * the ranks (a * nprocs / naggs; orth_disk.c) */
int orth_stripe_owner(const struct orth_route *rt, ADIO_Offset off);
/* the stripe: romio_orthrus_stripe_unit, else striping_unit, else 4 MiB */
ADIO_Offset orth_stripe_unit(ADIO_File fd);
/* the user's buffer of c when its data is one contiguous run, else a packed
 * copy (*packed; a write's data packed into it; orth_xchg.c) */
char *orth_stream(const struct orth_call *c, int *packed);
/* collective over rt->comm: the call's data to/from the aggregators, in
 * rounds of at most cb_buffer_size bytes per aggregator (orth_xchg.c) */
void orth_exchange(struct orth_call *c, const struct orth_route *rt, int *err);
/* exclusive prefix sums of cnt[0..n-1] into dis (orth_xchg.c) */
void orth_displs(const int *cnt, int *dis, int n);

/* one piece at an aggregator in one round (orth_agg.c) */
struct orth_piece {
    ADIO_Offset off, len;
    int64_t fpos;               /* its place in the round's buffer */
    int src, seq;               /* its source, its index among the source's blocks */
};

/* sorts the pieces by offset (then source, then index) and places them in a
 * buffer without the holes between them; returns the buffer's size and sets
 * *overlap when two pieces share bytes */
int64_t orth_plan(struct orth_piece *p, int n, int *overlap);
/* writes (is_write) or reads each run of adjacent planned pieces with one
 * contiguous access through fd's stacked table, from/to buf + the run's first
 * piece's fpos */
void orth_access(ADIO_File fd, const struct orth_piece *p, int n, char *buf, int is_write,
                 int *err);
void orth_agree_error(ADIO_File fd, int *err);
/* st->node and st->nnodes, made on first use (collective over fd->comm; orth_agg.c) */
void orth_nodes(ADIO_File fd, struct orth_state *st);
void orth_finish(struct orth_call *c, int *err);
/* lists c's pieces (c->offs, lens, n) and c->end_fp unless they are (orth_agg.c) */
void orth_pieces(struct orth_call *c);

/* stock ROMIO's collective routine (orth_stock.c): two_phase's run, and what
 * the others fall back to */
void orth_two_phase(struct orth_call *c, int *err);
/* core_first's and disk_first's setup: the node communicator (orth_agg.c) */
void orth_nodes_setup(struct orth_call *c);
/* a trial's first call, starting with a piece (orth_piece.c): candidate cand
 * (orth_cands index) runs the piece; when it took (slowest rank, *piece)
 * longer than limit seconds, home (orth_cands index) runs the rest and 1 is
 * returned, else cand runs the rest.  Collective. */
int orth_run_piece(struct orth_call *c, int cand, int home, double limit, double *piece,
                   int *err);

#endif

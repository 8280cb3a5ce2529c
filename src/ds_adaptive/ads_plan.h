/* romio-xt adaptive data sieving: grouping pieces into windows, and the
 * decision methods (pure, no MPI).
 *
 * A window is one contiguous file range accessed with one request.  Pieces
 * are fed in file order; between two pieces lies a gap (a hole).  A method
 * decides whether the current window goes on through the gap to the next
 * piece (reading, or read-modify-writing, the hole) or ends before it. */
#ifndef ADS_PLAN_H
#define ADS_PLAN_H

#include <stdint.h>

/* cost of one request: latency (s) + bytes / bandwidth (bytes/s) */
struct ads_cost {
    double lat, bw;
};

struct ads_costs {
    struct ads_cost read, write;
    double append_lat;  /* a small write past the end of file (0: write.lat) */
    double fill_lat;    /* more for a write that covers part of an alignment unit:
                         * the page is read first when it is not cached */
    int64_t align;      /* alignment unit: stripe size, or the block size */
};

struct ads_window {
    int64_t start, end; /* file range [start, end) */
    int npieces;
    int64_t holes;      /* gap bytes inside */
    int64_t data;       /* piece bytes inside */
};

/* what a method sees when deciding on a gap */
struct ads_ctx {
    const struct ads_costs *c;
    int is_write;
    int64_t eof;        /* file size when planned (hole bytes past it need no read) */
    int64_t max_window;
    int64_t access_end; /* end of the whole access */
    double t[4];        /* the method's per-call thresholds (its prepare) */
};

struct ads_method {
    const char *name;
    const char *doc;
    /* optional: precompute thresholds into x->t once per call */
    void (*prepare)(struct ads_ctx *x);
    /* go on through gap bytes to a piece of len bytes? */
    int (*through)(const struct ads_ctx *x, const struct ads_window *w, int64_t gap, int64_t len);
    /* the end of a window whose last piece ends at last_end */
    int64_t (*end)(const struct ads_ctx *x, const struct ads_window *w);
    /* optional, for regular runs: the answer of through for each of the next
     * n gaps of gap bytes, the pieces stride bytes apart, in window w (which
     * has holes already); -1 if the answers differ (then asked gap by gap) */
    int (*through_run)(const struct ads_ctx *x, const struct ads_window *w, int64_t gap,
                       int64_t len, int64_t n);
};

/* the method table; ads_method_find returns NULL for an unknown name */
extern const struct ads_method *const ads_methods[];
extern const int ads_nmethods;
const struct ads_method *ads_method_find(const char *name);

/* the planner.  It holds the context twice, with warm (page cache) and cold
 * costs; while the file's state is unknown, a gap on which both give the
 * same answer needs no look; the first one on which they differ calls probe
 * (1: cold) once, and its answer holds for the rest of the call. */
struct ads_plan {
    const struct ads_method *m;
    struct ads_ctx warm, cold;
    struct ads_ctx *x;          /* the one in use: NULL while unknown */
    int (*probe)(void *arg);
    void *arg;
    int max_pieces;
    struct ads_window w;
    int64_t tail_end;           /* reads: where a window cut only by the buffer may end */
    int64_t through, split;    /* decisions taken on gaps */
    int probed;
};

void ads_plan_init(struct ads_plan *p, const struct ads_method *m, const struct ads_ctx *warm,
                   const struct ads_ctx *cold, int (*probe)(void *), void *arg, int max_pieces);
/* offers the next piece: 1 if it joined the current window (or started the
 * first one), 0 if the current window must be issued first; then call
 * ads_plan_start with the piece. */
int ads_plan_join(struct ads_plan *p, int64_t off, int64_t len);
/* offers a regular run of n pieces of len bytes, stride bytes apart, from
 * off: the number k that joined the current window; if k < n, piece k does
 * not join: issue the window, then ads_plan_start with piece k.  The method is asked once per run
 * and window, not per piece, when it can answer for the run. */
int64_t ads_plan_join_run(struct ads_plan *p, int64_t off, int64_t len, int64_t stride, int64_t n);
void ads_plan_start(struct ads_plan *p, int64_t off, int64_t len);
/* reads: does the window of the piece just started end at each of the next
 * n gaps of a regular run (pieces of len bytes, stride bytes apart)?  The
 * method is asked once for the run (the page cache probed if warm and cold
 * differ); 1: every piece of the run is a window of its own, the gaps are
 * counted as split, and the caller moves the run itself, then calls
 * ads_plan_clear. */
int ads_plan_splits(struct ads_plan *p, int64_t len, int64_t stride, int64_t n);
/* no current window: the next piece offered starts one */
void ads_plan_clear(struct ads_plan *p);
/* the current window with its final end (after the method's end rule) */
struct ads_window ads_plan_window(const struct ads_plan *p);

/* cold reads: does a window of len bytes continue a stream the kernel reads
 * ahead of (then it is read in chunks, ads_calib's rd_chunk)?  prev_gap and
 * next_gap: bytes from the call's previous window to it and from it to the
 * next, -1 where there is none.  A stream's read-ahead runs about as far
 * ahead as it has read: a neighbour within len bytes continues it; a window
 * with neighbours only farther away starts a stream of its own each time,
 * which costs more in chunks than whole (1 MiB pieces, 4 MiB holes: 20 ms
 * against 12); a call of one window counts as a stream. */
int ads_cold_stream(int64_t prev_gap, int64_t next_gap, int64_t len);

/* bytes of alignment units that [off, off + gap) adds to the units its
 * neighbours touch anyway */
int64_t ads_extra_bytes(int64_t off, int64_t gap, int64_t align);

#endif

/* romio-xt prefetch: which reads are worth prefetching for (pure logic, no
 * MPI, no threads, the clock is passed in; unit-tested in
 * test/unit/test_noharm.c).
 *
 * A prefetcher can only hide a read behind time the application spends
 * elsewhere (compute between reads), and only where the kernel's own
 * read-ahead does not already do it.  So a read passes straight to the file
 * system, at zero cost (no thread woken, no copy), when:
 *   - it is at least `large` bytes (min(block size, 1 MiB)): the two-phase
 *     aggregators' reads, data-sieving buffers and HDF5's 1 MiB collective
 *     reads are their own read-ahead;
 *   - it is the first read of the file (nothing to predict from yet);
 *   - it starts where this process's previous read ended: a sequential
 *     stream, which the kernel reads ahead;
 *   - it jumps, but the application gives no idle time to hide a read in:
 *     the time between the previous read's return and this read (the gap,
 *     averaged) is below half the time such reads take at the file system
 *     (the cost, averaged over the jumping reads that passed), or those
 *     reads are cheap (cost below PF_GATE_MIN_COST: already in the page
 *     cache).  Decided after PF_GATE_WARMUP such reads.
 * Prefetching starts when the gap reaches half the cost and stops when it
 * falls below a quarter (the cost is the one measured while passing: reads
 * served by the prefetcher are fast and say nothing about the file system).
 * It must pay: once the window is warm (a read was served by the thread's
 * work: pf_gate_warm; before that the thread is still loading the first
 * blocks, which the reader reads beside it, so those reads say nothing of
 * the steady state; it must warm up within PF_GATE_RAMP window reads or it
 * did not pay), after PF_GATE_PROBE reads through the window (not counting
 * the first), if a read and the gap after it took
 * on average as long as a passed read and its gap did (the reads were no
 * faster, or the thread took the CPU the application computes on: on a
 * machine with no spare core its time shows in the gaps), the gate passes
 * the next PF_GATE_BACKOFF jumping reads (doubling on each such failure, up
 * to PF_GATE_BACKOFF_MAX) before it tries again; a success resets it.
 * Without this gate the no-harm grid measured back-to-back warm strided
 * reads at 0.33x stock, HDF5 cold reads at 0.40x, interleaved at 0.82x. */
#ifndef PF_GATE_H
#define PF_GATE_H

#include <stdint.h>

#define PF_GATE_LARGE_MAX (1 << 20)     /* reads this long or longer pass */
#define PF_GATE_MIN_COST 50e-6          /* s: a cheaper read comes from memory */
#define PF_GATE_WARMUP 3                /* jumping reads timed before deciding */
#define PF_GATE_PROBE 16                /* warm window reads before judging it */
#define PF_GATE_RAMP 32                 /* window reads to warm up in */
#define PF_GATE_BACKOFF 64              /* jumping reads passed after it did not pay */
#define PF_GATE_BACKOFF_MAX 4096

struct pf_gate {
    int64_t large;              /* reads of this many bytes or more pass */
    int64_t next;               /* where the previous read ended, -1 before the first */
    double last_end;            /* when the previous read returned (s), < 0 before */
    double gap, cost;           /* averages (s): idle time before a jumping read;
                                 * a jumping read's time at the file system */
    double served;              /* mean time of a read through the warm window (s) */
    double gap_pass, gap_on;    /* average gap after a passed read / mean gap after a
                                 * read through the warm window (s) */
    int gaps_pass, gaps_on;
    int last_window;            /* the previous jumping read went through the window */
    int warm, ramp;             /* since on: a read was served by the thread; window
                                 * reads before that */
    int gaps, costs, serveds;   /* how many of each were measured (serveds: since
                                 * on, the first read through the window not counted) */
    int on;                     /* prefetching */
    int backoff, next_backoff;  /* jumping reads still to pass; the next penalty */
    int failures;               /* times prefetching did not pay */
};

enum pf_gate_verdict {
    PF_GATE_PREFETCH,           /* through the prefetch window */
    PF_GATE_FIRST,              /* first read: pass */
    PF_GATE_SEQUENTIAL,         /* continues the previous read: pass */
    PF_GATE_LARGE,              /* long enough to be its own read-ahead: pass */
    PF_GATE_BUSY                /* jumps, but no idle time to hide it in (or cached): pass */
};

void pf_gate_init(struct pf_gate *g, int64_t bs);
/* classify the read [off, off + len) that starts at time now (seconds) */
enum pf_gate_verdict pf_gate_check(struct pf_gate *g, int64_t off, int64_t len, double now);
/* the read classified v ran from start to end (seconds) */
void pf_gate_done(struct pf_gate *g, enum pf_gate_verdict v, double start, double end);
/* the read being done through the window was served (at least in part) by
 * the thread's work: call before pf_gate_done */
void pf_gate_warm(struct pf_gate *g);

/* A read through the window finds its block still being loaded by the
 * background thread.  Reading the piece from the file system beside the
 * thread duplicates the request (the same bytes twice, at once, on the same
 * link: on the MooseFS testbed most of the window's misses were such
 * duplicates); waiting costs the rest of the load.  load: the thread's
 * average time per block (s), elapsed: since this block's load started,
 * own: the average time a piece read from the file system took (s).  Returns
 * how long the read may wait (s): own, when the predicted rest of the load
 * (load - elapsed, at least 0) is below own; 0 (read it now) when it is not
 * or nothing is measured yet.  So a wait costs at most own: a read is never
 * more than twice as slow as reading the piece itself. */
double pf_gate_wait(double load, double elapsed, double own);

/* How many loader threads keep up with the reader: one loads a block in
 * `load` s, the reader moves on to the next block every `consume` s; so
 * ceil(load / consume), from 1 to max.  On the MooseFS testbed a block
 * load took ~13 ms and the ROOT-like reader used a block every ~10 ms; one
 * loader left it 0.6-0.8 s of its 1.1-1.3 s of reads, two left 0.1-0.3 s
 * (a request's latency, not the link, bounds one loader).  1 before
 * anything is measured. */
int pf_gate_loaders(double load, double consume, int max);

#endif

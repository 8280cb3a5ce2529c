/* romio-xt prefetch: which reads are worth prefetching for (pure logic, no
 * MPI, no threads; unit-tested in test/unit/test_noharm.c).
 *
 * The prefetcher only pays where the kernel's own read-ahead does not work:
 * reads that jump (forward with gaps, backward seeks, ROOT-like).  It costs
 * where the kernel already reads ahead or the read is large by itself:
 *   - a read that starts where this process's previous read ended continues
 *     a sequential stream, which the kernel reads ahead (measured in the
 *     no-harm grid: cold sequential reads 0.5-0.8x stock with prefetch);
 *   - a read of a whole prefetch block or more (the aggregators' reads in
 *     two-phase collective I/O, data-sieving buffers) is its own read-ahead;
 *   - the first read of the file cannot tell yet.
 * Those pass straight to the file system; the others go through the window.
 * (A sequential read right after a jump passes too: with fadvise its pages
 * are in the page cache when advised; with buffer the thread's pread left
 * them there as well.  Keeping such reads with the window for a few reads
 * was tried: HDF5's small metadata reads then kept its 1 MiB collective
 * reads in the window and advised 16 blocks for an 8 MiB read per rank.) */
#ifndef PF_GATE_H
#define PF_GATE_H

#include <stdint.h>

struct pf_gate {
    int64_t bs;                 /* prefetch block size */
    int64_t next;               /* where the previous read ended, -1 before the first */
};

enum pf_gate_verdict {
    PF_GATE_PREFETCH,           /* through the prefetch window */
    PF_GATE_FIRST,              /* first read: pass */
    PF_GATE_SEQUENTIAL,         /* continues the previous read: pass */
    PF_GATE_LARGE               /* at least one block long: pass */
};

void pf_gate_init(struct pf_gate *g, int64_t bs);
/* classify the read [off, off + len) and remember where it ends */
enum pf_gate_verdict pf_gate_check(struct pf_gate *g, int64_t off, int64_t len);

#endif

/* romio-xt prefetch: the sliding window and the willneed ranges (pure logic,
 * no MPI, no threads; unit-tested in test/unit/test_prefetch.c).
 *
 * The file is cut into blocks of bs bytes.  The window follows the
 * application: it holds the current block, `ahead` blocks after it (the
 * read-ahead) and `back` blocks before it (kept for backward seeks), so at
 * most back + 1 + ahead = cache_blocks blocks.  An access inside the window
 * either stays (at or behind the current block: a backward seek is a hit) or
 * advances it (ahead of the current block); an access outside the window
 * restarts it there.  Only blocks that meet a willneed range are prefetched.
 */
#ifndef PF_WINDOW_H
#define PF_WINDOW_H

#include <stddef.h>
#include <stdint.h>

#define PF_MAX_RANGES 32

/* [off, off + len); len 0 = to the end of the file */
struct pf_range {
    int64_t off, len;
};

struct pf_window {
    int64_t bs;                 /* block size, bytes */
    int ahead, back;            /* blocks after / before the current one */
    int64_t cur;                /* current block, -1 before the first access */
    int nranges;
    struct pf_range ranges[PF_MAX_RANGES];
};

enum pf_move {
    PF_FIRST,                   /* first access: the window starts here */
    PF_STAY,                    /* inside the window, at or behind the current block */
    PF_ADVANCE,                 /* inside the window, ahead: the window moves forward */
    PF_JUMP,                    /* outside the window: it restarts here */
    PF_OUTSIDE                  /* block meets no willneed range: not prefetched */
};

/* Parses "offset:length,..." (sizes with optional k/m/g suffix; "0:0" is the
 * whole file).  Returns the number of ranges, or -1 with a reason in why. */
int pf_ranges_parse(const char *text, struct pf_range *out, int max, char *why, size_t whylen);

/* cache_blocks >= 1; ahead is clamped to cache_blocks - 1 */
void pf_window_init(struct pf_window *w, int64_t bs, int cache_blocks, int ahead,
                    const struct pf_range *ranges, int nranges);
/* does block meet a willneed range? */
int pf_window_covers(const struct pf_window *w, int64_t block);
/* the application touches block: classify and move the window */
enum pf_move pf_window_access(struct pf_window *w, int64_t block);
/* is block in the window (and covered)? */
int pf_window_keeps(const struct pf_window *w, int64_t block);
/* k-th block to have loaded (k = 0 .. ahead: current first, then the ones
 * after it), or -1 when that block is not covered or there is no window */
int64_t pf_window_wanted(const struct pf_window *w, int k);

#endif

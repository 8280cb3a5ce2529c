/* romio-xt Orthrus: the selection among collective-I/O candidates (pure, no
 * MPI).  The layer feeds it each call's signature and, after the call, the
 * call's allreduced bytes and slowest rank's time; since every input is the
 * same on all ranks, every rank reaches the same decision. */
#ifndef ORTH_SELECT_H
#define ORTH_SELECT_H

#include <stdint.h>

#define ORTH_MAX_CAND 4
#define ORTH_MAX_SIG 16

/* a collective call's access pattern, from allreduced values */
struct orth_sig {
    int is_write;
    int64_t nprocs;     /* processes with data */
    int64_t nreqs;      /* contiguous file pieces, all ranks */
    int64_t bytes;      /* total bytes, all ranks */
    int64_t rel_offset; /* mean gap between a rank's sorted pieces, averaged */
};

enum orth_phase { ORTH_EXAMINING, ORTH_CHOSEN };

struct orth_entry {
    struct orth_sig sig;
    enum orth_phase phase;
    int cur;                    /* candidate under examination, or the winner */
    int trial;                  /* calls done by cur in this examination */
    double bytes[ORTH_MAX_CAND], time[ORTH_MAX_CAND];  /* examination sums */
    double tput[ORTH_MAX_CAND]; /* last examination's throughputs (B/s) */
    int winner;                 /* the last examination's winner (-1: none yet) */
    double winner_avg;          /* the winner's examination throughput */
    double mon_bytes, mon_time; /* monitoring window of the winner */
    int mon_n;
    int64_t calls, exams, reexams;
    double exam_time;           /* seconds spent in examinations */
    uint64_t last_use;
};

struct orth_sel {
    int ncand;                  /* candidates in the rotation */
    int trials;
    double threshold;
    int nsig;
    uint64_t clock;
    int64_t evictions;
    struct orth_entry sigs[ORTH_MAX_SIG];
};

void orth_sel_init(struct orth_sel *s, int ncand, int trials, double threshold);
int orth_sig_equal(const struct orth_sig *a, const struct orth_sig *b);
/* the entry for sig (created, evicting the least recently used, when new) */
struct orth_entry *orth_sel_entry(struct orth_sel *s, const struct orth_sig *sig);
/* the candidate (0..ncand-1) that runs the next call of e */
int orth_sel_pick(const struct orth_entry *e);
/* after candidate c ran a call of e: bytes (all ranks) in time (slowest rank).
 * Returns 1 when this call ended an examination or started a re-examination. */
int orth_sel_record(struct orth_sel *s, struct orth_entry *e, int c, double bytes, double time);

#endif

/* romio-xt Orthrus: the selection among collective-I/O candidates (pure, no
 * MPI).  The layer feeds it each call's signature and, after the call, the
 * call's allreduced bytes and slowest rank's time; since every input is the
 * same on all ranks, every rank reaches the same decision. */
#ifndef ORTH_SELECT_H
#define ORTH_SELECT_H

#include <stdint.h>
#include <stdio.h>

#define ORTH_MAX_CAND 6
#define ORTH_MAX_SIG 16
/* the share of home's time in file reads, over its calls of a read pattern,
 * is taken every this many calls (orth_select.c, orth_sel_io_bound) */
#define ORTH_IO_CALLS 8
/* home's first call of a read pattern spent at least this share in file
 * reads (or the read I/O-bound bound, when higher): the storage is slower
 * than the node, and forecast read trials wait as the others do.  Measured
 * in two_phase's first Matrix, BTIO-like and Noncontig reads: 0.89-0.93 on
 * the testbed's hdd profile, 0.38-0.52 on /dev/shm */
#define ORTH_FIRST_IO 0.75

/* a collective call's access pattern, from allreduced values */
struct orth_sig {
    int is_write;
    int64_t nprocs;     /* processes with data */
    int64_t nreqs;      /* contiguous file pieces, all ranks */
    int64_t bytes;      /* total bytes, all ranks */
    int64_t rel_offset; /* mean gap between a rank's sorted pieces, averaged */
};

enum orth_phase { ORTH_EXAMINING, ORTH_CHOSEN };

/* a run of calls (a candidate's in an examination, or a monitoring window):
 * sums, the slowest call (left out from 3 calls on) and the fastest call's
 * throughput */
struct orth_window {
    double bytes, time;
    double slow_bytes, slow_time;
    double fast;
    int n;
};

struct orth_entry {
    struct orth_sig sig;
    enum orth_phase phase;
    int cur;                    /* candidate under examination, or the winner */
    int run;                    /* the candidate that runs the next call: cur, or home
                                 * while a trial of cur is not affordable (orth_sel_entry) */
    int trial;                  /* rounds done in this examination */
    struct orth_window exam[ORTH_MAX_CAND];     /* each candidate's calls */
    struct orth_window ref;     /* every call home ran (the regret bound's rate) */
    int out[ORTH_MAX_CAND];     /* out of this examination: dropped or postponed
                                 * (orth_select.c) */
    int lost[ORTH_MAX_CAND];    /* times each won and was then re-examined away */
    double tput[ORTH_MAX_CAND]; /* last examination's throughputs (B/s) */
    /* the view's forecast (orth_sel_forecast): a candidate's first trial
     * budgeted at this many home calls (0: no forecast, the trials' estimate) */
    double forecast[ORTH_MAX_CAND];
    int winner;                 /* the last examination's winner (-1: none yet) */
    double winner_avg;          /* the winner's examination throughput */
    struct orth_window mon;     /* monitoring window of the winner */
    int backoff;                /* the window is trials << backoff calls */
    int64_t calls, exams, reexams;
    int64_t chosen_at;          /* calls when the last examination ended (0: none yet) */
    int adopted;                /* the winner came from a saved table */
    int decided;                /* the view chose the winner: no examination (orth_sel_decide) */
    double why[3];              /* last re-examination: window, winner's average, runner-up */
    double exam_time;           /* seconds spent in examinations */
    /* a read pattern's new winner other than home runs a probation of
     * ORTH_PROBATION calls in a row (orth_select.c), kept only when they beat
     * home's rate over all its calls */
    int probation;              /* probation calls left (0: none running) */
    int baseline;               /* a saved read winner other than home: home's calls
                                 * left before the winner's probation */
    struct orth_window prob;    /* the probation's calls */
    int64_t reverts;            /* winners that failed their probation */
    double prob_why[2];         /* the last failed probation: its rate, home's rate */
    /* a read pattern's trials wait while home's calls are I/O-bound
     * (orth_select.c): home's calls but the first, summed (seconds in file
     * reads, the slowest reader's; seconds in all), the calls since the
     * share was last taken, and that share (-1: not yet) */
    double io_read, io_time, io_share;
    int io_n;
    double first_io;            /* home's first call's share in file reads (-1: not yet):
                                 * at ORTH_FIRST_IO or more, forecast trials wait too */
    uint64_t last_use;
};

struct orth_sel {
    int ncand;                  /* candidates in the rotation */
    int trials;
    double threshold;
    int nsig;
    /* the regret bound: a trial of another candidate than home (the stock
     * routine) runs only when the time the trials lost against home so far,
     * plus one more trial's estimate, stays within budget x the time all
     * calls so far would take at home's rate; 0: no bound (trials from a
     * pattern's first calls) */
    double budget;
    int home;
    int free;                   /* the candidate that communicates nothing (independent):
                                 * a chosen winner runs quiet runs too (-1: none) */
    double spent;               /* seconds the trials took beyond home's rate (< 0: gained) */
    double trial_cost;          /* a trial's estimate in home calls: 2, or the slowest trial's */
    int64_t skipped;            /* trials left out on the view's prediction (orth_sel_skip) */
    int64_t decided;            /* new patterns whose winner the view chose (orth_sel_decide) */
    int64_t deferred;           /* calls run by home while a trial was not affordable
                                 * or waited for home's reads (orth_sel_io_bound) */
    int64_t io_waits;           /* of those, calls whose trial waited for home's reads */
    int64_t postponed;          /* trials postponed: they did not fit the bound while
                                 * another candidate could go on */
    int64_t retries;            /* re-examinations of postponed candidates */
    int64_t cut;                /* trials cut after their first piece (orth_sel_cut) */
    double io_bound;            /* the share of home's time in reads that makes them wait */
    uint64_t clock;
    int64_t evictions;
    /* the pattern of the latest calls: its entry's index (-1: none; an index,
     * not a pointer: the table is broadcast from rank 0), how many calls in a
     * row, and the longest such streak of a pattern before it (orth_sel_quiet) */
    int last;
    int64_t streak, longest;
    struct orth_entry sigs[ORTH_MAX_SIG];
};

void orth_sel_init(struct orth_sel *s, int ncand, int trials, double threshold);
/* sets the regret bound (0: none) and the home candidate (rotation index) */
void orth_sel_budget(struct orth_sel *s, double budget, int home);
/* a read pattern's trials wait while home's calls spend at least this share
 * of their time in file reads (>= 1: never; default 0.5) */
void orth_sel_io_bound(struct orth_sel *s, double share);
/* 1 when a trial of e's current candidate fits the regret bound now */
int orth_sel_affordable(const struct orth_sel *s, const struct orth_entry *e);
int orth_sig_equal(const struct orth_sig *a, const struct orth_sig *b);
/* the entry for sig (created, evicting the least recently used, when new),
 * with the candidate for its next call decided (orth_sel_pick) */
struct orth_entry *orth_sel_entry(struct orth_sel *s, const struct orth_sig *sig);
/* the candidate (0..ncand-1) that runs the next call of e */
int orth_sel_pick(const struct orth_entry *e);
/* after candidate c ran a call of e: bytes (all ranks) in time (slowest rank).
 * Returns 1 when this call ended an examination, started a re-examination or
 * ended a failed probation (e->phase, e->winner and e->reverts tell which). */
int orth_sel_record(struct orth_sel *s, struct orth_entry *e, int c, double bytes, double time);
/* before orth_sel_record of the same call: its time in the file system's
 * reads (the slowest reader's) and in all (the slowest rank's); only home's
 * calls of read patterns, after the pattern's first, count */
void orth_sel_io(struct orth_sel *s, struct orth_entry *e, int c, double io, double time);
/* after a call of e that home ran (its pick): how many of the next calls
 * may run home without their per-call reduction (a quiet run: their
 * signatures and slowest times are reduced together with the call after the
 * run, then recorded in order).  Only when e's pattern is steady: its
 * streak of calls in a row is over twice the longest of any pattern before
 * (a file alternating patterns never runs quietly: the next pattern's calls
 * would run home unexamined), and at most the streak so far.  Up to kmax
 * while home is e's chosen winner; while
 * a trial waits for the regret bound, the calls until it is predicted
 * affordable at home's rate (so it runs at the same call as without the
 * run); 0 in an examination's own turns and before home's rate is known.
 * The same for the chosen winner that communicates nothing (orth_sel_free):
 * up to kmax calls, it runs them without a reduction. */
int orth_sel_quiet(const struct orth_sel *s, const struct orth_entry *e, int kmax);
/* 1 when the calls after this one of e may run e's chosen winner (not home)
 * before their signature is known (a riding run: each call's record rides
 * on the candidate's own agreement at its end) */
int orth_sel_ride(const struct orth_sel *s, const struct orth_entry *e);
/* a call of e that another pattern's run ran before its signature was
 * known: counted, not timed */
void orth_sel_stray(struct orth_sel *s, struct orth_entry *e);
/* the view chose candidate w for e's new pattern: w's calls do what
 * home's would, with less work, so trials of the two could only measure
 * noise; w wins without an examination and is never re-examined (no other
 * candidate has a rate to fall below) */
void orth_sel_decide(struct orth_sel *s, struct orth_entry *e, int w);
/* candidate c is left out of e's examination (predicted, from the view, to
 * lose by more than the drop rule); when it was next, the examination moves
 * on.  Returns 1 when that ended the examination. */
int orth_sel_skip(struct orth_sel *s, struct orth_entry *e, int c);
/* the view forecasts that candidate c of e's new pattern is no slower than
 * home: its first trial is budgeted at one home call (it runs at once, once
 * home's rate is known) and, for reads, does not wait for home's reads
 * (orth_sel_io_bound); its own calls' rate decides after that */
void orth_sel_forecast(struct orth_sel *s, struct orth_entry *e, int c);
/* A candidate's first trial in an examination starts with a piece:
 * 1/ORTH_PIECE_DIV of each process's data; when the piece took longer than
 * twice its share of the time the trial was budgeted at (a piece carries the
 * call's fixed costs; a forecast candidate's budget is 3x its forecast, the
 * drop rule's shield), home runs the rest of the call and the candidate is
 * cut (orth_sel_cut).  So a pathologically slow candidate, or a wrong
 * forecast, costs a piece, not a whole call. */
#define ORTH_PIECE_DIV 8
/* the longest a piece of candidate c's next call of e may take (seconds),
 * or 0 when the call is not to start with a piece */
double orth_sel_piece_limit(const struct orth_sel *s, const struct orth_entry *e, int c);
/* c's trial was cut after a piece of piece_secs (the slowest rank's): c
 * leaves the examination, the call is counted and charged as the piece
 * plus home's time for the rest.  Returns 1 when that ended the examination. */
int orth_sel_cut(struct orth_sel *s, struct orth_entry *e, int c, double piece_secs);
/* candidate c (rotation index) communicates nothing: when it is e's chosen
 * winner, its calls run in quiet runs like home's (orth_sel_quiet) */
void orth_sel_free(struct orth_sel *s, int c);
/* a digest of everything that decides future calls (phases, candidates,
 * counters, table order): equal on all ranks when they agree */
/* an entry for sig chosen without an examination (from a saved table):
 * winner w, examination throughputs tput[0..ncand-1] */
void orth_sel_adopt(struct orth_sel *s, const struct orth_sig *sig, int w, const double *tput);
int64_t orth_sel_digest(const struct orth_sel *s);

/* The one reduction of a call: the signature's sums, and the previous call's
 * slowest time and the ranks' agreement on the candidate and the digest (in
 * a quiet run: the run's calls', reduced together; orth.h). */
enum { ORTH_R_NPROCS, ORTH_R_NREQS, ORTH_R_BYTES, ORTH_R_GAPS, /* summed */
    ORTH_R_TIME_NS,             /* max */
    ORTH_R_CAND_MIN, ORTH_R_DIGEST_MIN, /* min */
    ORTH_R_CAND_MAX, ORTH_R_DIGEST_MAX, /* max */
    ORTH_R_IO_NS,               /* max: the call's time in the file system's reads */
    ORTH_R_ERR,                 /* max: a process's part failed (a call of a quiet run of
                                 * core_first/disk_first: the record rides on their
                                 * error agreement) */
    ORTH_R_N
};
void orth_red_combine(const int64_t *in, int64_t *inout);
/* 1 when the ranks disagreed on the candidate or the selection state */
int orth_red_disagree(const int64_t *r);

/* The signature -> winner table across runs: one line per chosen entry,
 *   <is_write> <nprocs> <requests> <bytes> <rel_offset> <winner> <name>=<B/s>...
 * names[c] is the name of rotation candidate c. */
int orth_table_write(FILE *f, const struct orth_sel *s, const char *const *names);
/* adds the lines whose winner is in the rotation, as chosen entries without
 * an examination; returns the number of entries added, -1 on a malformed line */
int orth_table_read(FILE *f, struct orth_sel *s, const char *const *names);

/* The job's memory of winners across files (orth_memo.c): process-global,
 * used only inside MPI_File_open/close (ROMIO's global critical section).
 * rot[0..ncand-1] names the rotation (orth_cands indices); entries of
 * another rotation are never adopted. */
#define ORTH_MEMO_MAX 64
/* remembers s's chosen patterns (not those on probation) */
void orth_memo_save(const struct orth_sel *s, const int *rot);
/* adopts the remembered patterns s does not know (orth_sel_adopt); returns
 * how many */
int orth_memo_adopt(struct orth_sel *s, const int *rot);
/* forgets everything (unit tests) */
void orth_memo_clear(void);

/* view_based's block size for a call spanning [flo, fhi) of the file (every
 * rank's hull): its extent shared by the naggs aggregators, rounded up to
 * whole MiB, within [1 MiB, max] (max itself when below 1 MiB) */
int64_t orth_vb_unit(int64_t flo, int64_t fhi, int naggs, int64_t max);

#endif

/* romio-xt prefetch: which reads are worth prefetching for (pf_gate.h). */
#include "pf_gate.h"

void pf_gate_init(struct pf_gate *g, int64_t bs)
{
    g->large = bs > PF_GATE_LARGE_MAX ? PF_GATE_LARGE_MAX : bs > 0 ? bs : 1;
    g->next = -1;
    g->last_end = -1;
    g->gap = g->cost = 0;
    g->served = g->gap_pass = g->gap_on = 0;
    g->gaps_pass = g->gaps_on = g->last_window = 0;
    g->warm = g->ramp = 0;
    g->gaps = g->costs = g->serveds = 0;
    g->on = 0;
    g->backoff = g->failures = 0;
    g->next_backoff = PF_GATE_BACKOFF;
}

/* running average: the first sample, then 3/4 old + 1/4 new */
static double average(double avg, int n, double x)
{
    return n == 0 ? x : 0.75 * avg + 0.25 * x;
}

/* plain mean of the n samples so far and x: the window is judged on all its
 * warm reads (a running average let one compute phase stretched by another
 * process, 19 ms instead of 2, switch a window off that paid on the whole) */
static double mean(double avg, int n, double x)
{
    return avg + (x - avg) / (n + 1);
}

static int worth_it(const struct pf_gate *g)
{
    if (g->costs < PF_GATE_WARMUP || g->cost < PF_GATE_MIN_COST)
        return 0;
    return g->gap >= (g->on ? 0.25 : 0.5) * g->cost;
}

enum pf_gate_verdict pf_gate_check(struct pf_gate *g, int64_t off, int64_t len, double now)
{
    int64_t prev = g->next;
    g->next = off + len;
    if (len >= g->large)
        return PF_GATE_LARGE;
    if (prev < 0)
        return PF_GATE_FIRST;
    if (off == prev)
        return PF_GATE_SEQUENTIAL;
    if (g->last_end >= 0 && now >= g->last_end) {
        double gap = now - g->last_end;
        g->gap = average(g->gap, g->gaps++, gap);
        if (g->last_window)
            g->gap_on = mean(g->gap_on, g->gaps_on++, gap);
        else
            g->gap_pass = average(g->gap_pass, g->gaps_pass++, gap);
    }
    if (g->backoff > 0) {
        g->backoff--;
        return PF_GATE_BUSY;
    }
    int was = g->on;
    g->on = worth_it(g);
    if (g->on && !was) {
        g->serveds = -1;        /* the first read through the window starts it: not judged */
        g->gaps_on = 0;
        g->warm = g->ramp = 0;
    }
    return g->on ? PF_GATE_PREFETCH : PF_GATE_BUSY;
}

/* prefetching did not pay: pass the next jumping reads, doubling */
static void fail(struct pf_gate *g)
{
    g->on = 0;
    g->serveds = 0;
    g->failures++;
    g->backoff = g->next_backoff;
    if (g->next_backoff < PF_GATE_BACKOFF_MAX)
        g->next_backoff *= 2;
}

/* after PF_GATE_PROBE reads through the warm window: did a read and the gap
 * after it beat a passed read and its gap? */
static void judge(struct pf_gate *g)
{
    if (g->serveds < PF_GATE_PROBE || g->gaps_on < PF_GATE_PROBE - 1)
        return;
    if (g->served + g->gap_on < g->cost + g->gap_pass)
        g->next_backoff = PF_GATE_BACKOFF;
    else
        fail(g);
}

void pf_gate_warm(struct pf_gate *g)
{
    if (g->on && !g->warm) {
        g->warm = 1;
        g->gaps_on = 0;         /* the gaps of the warm window only */
    }
}

void pf_gate_done(struct pf_gate *g, enum pf_gate_verdict v, double start, double end)
{
    g->last_end = end;
    if (v == PF_GATE_BUSY || v == PF_GATE_PREFETCH)
        g->last_window = v == PF_GATE_PREFETCH;
    if (end < start)
        return;
    if (v == PF_GATE_BUSY)
        g->cost = average(g->cost, g->costs++, end - start);
    else if (v == PF_GATE_PREFETCH && !g->warm) {
        if (++g->ramp >= PF_GATE_RAMP)
            fail(g);
    } else if (v == PF_GATE_PREFETCH && g->serveds++ >= 0) {
        g->served = mean(g->served, g->serveds - 1, end - start);
        judge(g);
    }
}

double pf_gate_wait(double load, double elapsed, double own)
{
    if (load <= 0 || own <= 0)
        return 0;
    double rest = load - elapsed;
    return rest < own ? own : 0;
}

int pf_gate_loaders(double load, double consume, int max)
{
    if (max < 1)
        return 1;
    if (load <= 0 || consume <= 0)
        return 1;
    double n = load / consume;
    if (n >= max)
        return max;
    int k = (int) n;
    return k < n ? k + 1 : k < 1 ? 1 : k;
}

/* romio-xt Orthrus: the job's memory of winners across files (pure, no MPI).
 * A checkpointing code writes the same pattern to a new file every few
 * steps; each file would otherwise examine it again.  At close a file's
 * chosen patterns are remembered, per process, keyed by their signature and
 * the file's candidate rotation; at open rank 0 adopts the remembered ones
 * into the new file's selection, which is then broadcast (orth_file.c), so
 * every rank starts alike.  The memory is process-global and has no lock of
 * its own: Orthrus touches it only in MPI_File_open and MPI_File_close,
 * which run inside ROMIO's global critical section (ROMIO_THREAD_CS_ENTER
 * in mpi-io/open.c and close.c). */
#include "orth_select.h"

#include <string.h>

struct orth_memo_entry {
    struct orth_sig sig;
    int rot[ORTH_MAX_CAND], ncand;
    int winner;
    double tput[ORTH_MAX_CAND];
    uint64_t use;
};

static struct orth_memo_entry memo[ORTH_MEMO_MAX];
static int nmemo;
static uint64_t memo_clock;

static int same_rotation(const struct orth_memo_entry *m, const int *rot, int ncand)
{
    return m->ncand == ncand && memcmp(m->rot, rot, ncand * sizeof(int)) == 0;
}

static struct orth_memo_entry *find(const struct orth_sig *sig, const int *rot, int ncand)
{
    for (int i = 0; i < nmemo; i++)
        if (orth_sig_equal(&memo[i].sig, sig) && same_rotation(&memo[i], rot, ncand))
            return &memo[i];
    return NULL;
}

/* the slot for a new entry: a free one, else the least recently used */
static struct orth_memo_entry *slot(void)
{
    if (nmemo < ORTH_MEMO_MAX)
        return &memo[nmemo++];
    struct orth_memo_entry *m = &memo[0];
    for (int i = 1; i < nmemo; i++)
        m = memo[i].use < m->use ? &memo[i] : m;
    return m;
}

void orth_memo_save(const struct orth_sel *s, const int *rot)
{
    for (int i = 0; i < s->nsig; i++) {
        const struct orth_entry *e = &s->sigs[i];
        if (e->phase != ORTH_CHOSEN || e->winner < 0 || e->probation > 0)
            continue;
        struct orth_memo_entry *m = find(&e->sig, rot, s->ncand);
        m = m ? m : slot();
        m->sig = e->sig;
        m->ncand = s->ncand;
        memcpy(m->rot, rot, s->ncand * sizeof(int));
        m->winner = e->winner;
        memcpy(m->tput, e->tput, sizeof(m->tput));
        m->use = ++memo_clock;
    }
}

/* 1 when m is for s's rotation and s does not know its pattern yet */
static int wanted(const struct orth_sel *s, const struct orth_memo_entry *m, const int *rot)
{
    for (int k = 0; k < s->nsig; k++)
        if (orth_sig_equal(&s->sigs[k].sig, &m->sig))
            return 0;
    return same_rotation(m, rot, s->ncand);
}

/* the most recently used entries first, while s has free entries (an
 * adopted pattern never evicts one of the file's own) */
int orth_memo_adopt(struct orth_sel *s, const int *rot)
{
    int n = 0;
    while (s->nsig < ORTH_MAX_SIG) {
        const struct orth_memo_entry *best = NULL;
        for (int i = 0; i < nmemo; i++)
            if (wanted(s, &memo[i], rot) && (!best || memo[i].use > best->use))
                best = &memo[i];
        if (!best)
            break;
        orth_sel_adopt(s, &best->sig, best->winner, best->tput);
        n++;
    }
    return n;
}

void orth_memo_clear(void)
{
    nmemo = 0;
    memo_clock = 0;
}

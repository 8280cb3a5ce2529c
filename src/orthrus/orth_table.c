/* romio-xt Orthrus: the signature -> winner table saved across runs
 * (romio_orthrus_table), as text lines (pure, no MPI). */
#include "orth_select.h"

#include <stdlib.h>
#include <string.h>

int orth_table_write(FILE *f, const struct orth_sel *s, const char *const *names)
{
    int n = 0;
    for (int i = 0; i < s->nsig; i++) {
        const struct orth_entry *e = &s->sigs[i];
        if (e->winner < 0)
            continue;
        fprintf(f, "%d %lld %lld %lld %lld %s", e->sig.is_write, (long long) e->sig.nprocs,
                (long long) e->sig.nreqs, (long long) e->sig.bytes,
                (long long) e->sig.rel_offset, names[e->winner]);
        for (int c = 0; c < s->ncand; c++)
            fprintf(f, " %s=%.6g", names[c], e->tput[c]);
        fputc('\n', f);
        n++;
    }
    return n;
}

static int name_index(const char *name, const char *const *names, int n)
{
    for (int c = 0; c < n; c++)
        if (strcmp(name, names[c]) == 0)
            return c;
    return -1;
}

/* the throughputs "name=B/s" after the winner; 0 for candidates not listed */
static void parse_tputs(char *rest, const struct orth_sel *s, const char *const *names,
                        double *tput)
{
    char *save;
    memset(tput, 0, s->ncand * sizeof(double));
    for (char *w = strtok_r(rest, " \t\n", &save); w; w = strtok_r(NULL, " \t\n", &save)) {
        char *eq = strchr(w, '=');
        if (!eq)
            continue;
        *eq = '\0';
        int c = name_index(w, names, s->ncand);
        if (c >= 0)
            tput[c] = strtod(eq + 1, NULL);
    }
}

int orth_table_read(FILE *f, struct orth_sel *s, const char *const *names)
{
    char line[1024], winner[64];
    int added = 0;
    while (fgets(line, sizeof(line), f)) {
        struct orth_sig sig;
        long long np, nr, by, ro;
        int used = 0;
        if (line[0] == '#' || line[strspn(line, " \t\n")] == '\0')
            continue;
        if (sscanf(line, "%d %lld %lld %lld %lld %63s %n", &sig.is_write, &np, &nr, &by, &ro,
                   winner, &used) < 6 || used == 0)
            return -1;
        sig.nprocs = np;
        sig.nreqs = nr;
        sig.bytes = by;
        sig.rel_offset = ro;
        int w = name_index(winner, names, s->ncand);
        if (w < 0)
            continue;           /* its winner is not a candidate here */
        double tput[ORTH_MAX_CAND];
        parse_tputs(line + used, s, names, tput);
        orth_sel_adopt(s, &sig, w, tput);
        added++;
    }
    return added;
}

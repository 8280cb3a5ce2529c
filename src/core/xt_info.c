/* romio-xt: collective hint processing.
 *
 * Every rank reads its hints from the info object (at open also from the
 * environment).  Hints flagged XT_AGREE take rank 0's text on every rank.
 * Each problem is warned about once per job, by the lowest rank that saw it
 * (xt_warn_slots).  Costs one bcast pair and one allreduce per call. */
#include "xt_layer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define XT_RAW_LEN 1024

struct xt_raw {
    int given;
    char text[XT_RAW_LEN];
};

static void read_raw(MPI_Info info, const struct xt_hint_def *def, int at_open, struct xt_raw *r)
{
    int flag = 0;
    r->given = 0;
    r->text[0] = '\0';
    if (info != MPI_INFO_NULL)
        ADIOI_Info_get(info, def->name, XT_RAW_LEN - 1, r->text, &flag);
    if (flag) {
        r->given = 1;
        return;
    }
    const char *env = (at_open && def->env) ? getenv(def->env) : NULL;
    if (env && *env) {
        snprintf(r->text, XT_RAW_LEN, "%s", env);
        r->given = 1;
    }
}

/* rank 0's raw text of every XT_AGREE hint, on all ranks */
static void bcast_agreed(MPI_Comm comm, int rank, const struct xt_raw *mine, struct xt_raw *r0,
                         char *buf)
{
    int len = 0;
    if (rank == 0) {
        for (int h = 0; h < XT_NHINTS; h++) {
            if (!(xt_hint_defs[h].flags & XT_AGREE))
                continue;
            buf[len++] = mine[h].given ? '1' : '0';
            len += sprintf(buf + len, "%s", mine[h].text) + 1;
        }
    }
    MPI_Bcast(&len, 1, MPI_INT, 0, comm);
    MPI_Bcast(buf, len, MPI_CHAR, 0, comm);
    const char *p = buf;
    for (int h = 0; h < XT_NHINTS; h++) {
        if (!(xt_hint_defs[h].flags & XT_AGREE))
            continue;
        r0[h].given = *p++ == '1';
        snprintf(r0[h].text, XT_RAW_LEN, "%s", p);
        p += strlen(p) + 1;
    }
}

/* one hint on this rank: the value to use, and the warnings this rank owns */
static void settle(struct xt_file *xf, int h, const struct xt_raw *mine, const struct xt_raw *r0,
                   int at_open, char *warn_bad, char *warn_agree)
{
    const struct xt_hint_def *def = &xt_hint_defs[h];
    const int agree = def->flags & XT_AGREE;
    const struct xt_raw *use = agree ? r0 : mine;
    const int owner = !agree || xf->rank == 0;     /* who warns about the value */
    struct xt_hint_value cur = xf->hints[h], cand;
    char why[160];

    if (!use->given) {
        if (at_open)
            xt_hint_default(def, &xf->hints[h]);
        cand = xf->hints[h];
    } else if (xt_hint_parse(def, use->text, &cand, why, sizeof(why)) != 0) {
        if (at_open)
            xt_hint_default(def, &cand);
        else
            cand = cur;
        if (owner)
            xt_hint_bad_warning(warn_bad, XT_WARN_LEN, def, use->text, why, cand.s);
    }
    if (use->given && !at_open && (def->flags & XT_OPEN_ONLY) && strcmp(cand.s, cur.s) != 0) {
        if (owner)
            snprintf(warn_agree, XT_WARN_LEN, "hint %s: '%s' can only be "
                     "set at open; keeping '%s'", def->name, use->text, cur.s);
        cand = cur;
    }
    if (use->given) {
        xf->hints[h] = cand;
        xf->given[h] = 1;
    }
    if (agree && (mine->given != r0->given || strcmp(mine->text, r0->text) != 0))
        snprintf(warn_agree, XT_WARN_LEN, "hint %s: rank %d has '%s' but "
                 "rank 0 has '%s'; all ranks use '%s'", def->name, xf->rank,
                 mine->given ? mine->text : "(unset)", r0->given ? r0->text : "(unset)",
                 xf->hints[h].s);
}

/* key starts with one of our prefixes (a hint of ours, or a typo of one) */
static int under_our_prefix(const char *key)
{
    for (const char *const *p = xt_hint_prefixes; *p; p++)
        if (strncmp(key, *p, strlen(*p)) == 0)
            return 1;
    return 0;
}

static void warn_unknown_keys(MPI_Info info, char *warn)
{
    int nkeys = 0;
    char key[MPI_MAX_INFO_KEY + 1];
    if (info == MPI_INFO_NULL)
        return;
    MPI_Info_get_nkeys(info, &nkeys);
    for (int k = 0; k < nkeys && !warn[0]; k++) {
        MPI_Info_get_nthkey(info, k, key);
        if (under_our_prefix(key) && xt_hint_find(key) < 0)
            snprintf(warn, XT_WARN_LEN, "unknown hint %s ignored "
                     "(see the hint reference in README)", key);
    }
}

/* the table's rules between hints; who warns as for a bad value */
static void check_rules(struct xt_file *xf, char (*warn)[XT_WARN_LEN])
{
    for (int r = 0; r < XT_NRULES; r++) {
        const struct xt_hint_rule *rule = &xt_hint_rules[r];
        int owner = !(xt_hint_defs[rule->a].flags & XT_AGREE) || xf->rank == 0;
        char msg[XT_WARN_LEN];
        if (xt_hint_rule_check(rule, xf->hints, msg, sizeof(msg)) && owner)
            snprintf(warn[r], XT_WARN_LEN, "%s", msg);
    }
}

/* anything for romio-xt on this rank: a key that is one of our hints or has
 * one of our prefixes (a typo to warn about), or at open a hint's variable */
static int own_input(MPI_Info info, int at_open)
{
    int nkeys = 0;
    char key[MPI_MAX_INFO_KEY + 1];
    if (info != MPI_INFO_NULL)
        MPI_Info_get_nkeys(info, &nkeys);
    for (int k = 0; k < nkeys; k++) {
        MPI_Info_get_nthkey(info, k, key);
        if (xt_hint_find(key) >= 0 || under_our_prefix(key))
            return 1;
    }
    for (int h = 0; at_open && h < XT_NHINTS; h++) {
        const char *env = xt_hint_defs[h].env ? getenv(xt_hint_defs[h].env) : NULL;
        if (env && *env)
            return 1;
    }
    return 0;
}

/* no rank has anything for romio-xt (the common case: a job that does not
 * use it): one allreduce; at open every hint takes its default, later
 * passes change nothing (no-hint open cost, docs/results/overhead.md).  The
 * same allreduce agrees that every rank has its file state xf (allocated
 * just before, at open; *ok 0: not on some rank, nothing is done). */
static int nothing_given(ADIO_File fd, struct xt_file *xf, MPI_Info users_info, int at_open,
                         int *ok)
{
    static struct xt_hint_value defaults[XT_NHINTS];
    static int init;
    int v[2] = { !own_input(users_info, at_open), xf != NULL };
    MPI_Allreduce(MPI_IN_PLACE, v, 2, MPI_INT, MPI_MIN, fd->comm);
    *ok = v[1];
    if (!*ok) {
        xt_warn(fd, XT_WARN_ALL, xf ? NULL : "out of memory (romio-xt's file state; stock "
                "ROMIO runs this file)");
        return 1;
    }
    if (!v[0])
        return 0;
    if (!init) {
        for (int h = 0; h < XT_NHINTS; h++)
            xt_hint_default(&xt_hint_defs[h], &defaults[h]);
        init = 1;
    }
    if (at_open)
        memcpy(xf->hints, defaults, sizeof(defaults));
    return 1;
}

/* layer k's state and counters in xf->arena (16-byte aligned pieces, in
 * registry order); returns the arena's size when k == xt_nlayers */
size_t xt_arena_at(int k, size_t *state, size_t *counters)
{
    size_t off = 0;
    for (int i = 0; i <= k && i < xt_nlayers; i++) {
        const struct xt_layer *l = xt_layers[i];
        *state = off;
        off += (l->state_size + 15) / 16 * 16;
        *counters = off;
        off += ((size_t) (l->ncounters + 1) * sizeof(int64_t) + 15) / 16 * 16;
    }
    return off;
}

size_t xt_arena_size(void)
{
    size_t s, c;
    return xt_arena_at(xt_nlayers, &s, &c);
}

int xt_info_apply(ADIO_File fd, struct xt_file *xf, MPI_Info users_info, int at_open)
{
    int ok;
    if (nothing_given(fd, xf, users_info, at_open, &ok))
        return ok ? 0 : -1;
    const int nwarn = 2 * XT_NHINTS + XT_NRULES + XT_NLAYERS + 1;
    struct xt_raw *mine = xt_calloc(2 * XT_NHINTS, sizeof(*mine)), *r0 = mine + XT_NHINTS;
    char (*warn)[XT_WARN_LEN] = xt_calloc(nwarn, XT_WARN_LEN);
    char *buf = xt_calloc(XT_NHINTS, XT_RAW_LEN + 1);
    void *arena = at_open ? xt_calloc(1, xt_arena_size()) : NULL;

    if (!xt_all_ok(fd, mine && warn && buf && (arena || !at_open),
                   "reading the hints; using the ones before")) {
        for (int h = 0; at_open && h < XT_NHINTS; h++)
            xt_hint_default(&xt_hint_defs[h], &xf->hints[h]);
        free(arena);
        free(buf);
        free(warn);
        free(mine);
        return 0;
    }
    if (at_open)
        xf->arena = arena;
    for (int h = 0; h < XT_NHINTS; h++)
        read_raw(users_info, &xt_hint_defs[h], at_open, &mine[h]);
    bcast_agreed(fd->comm, xf->rank, mine, r0, buf);
    for (int h = 0; h < XT_NHINTS; h++)
        settle(xf, h, &mine[h], &r0[h], at_open, warn[2 * h], warn[2 * h + 1]);
    check_rules(xf, warn + 2 * XT_NHINTS);
    for (int k = 0; at_open && k < xt_nlayers; k++)
        if (xt_layers[k]->check_hints && xt_layers[k]->wanted(xf))
            xt_layers[k]->check_hints(xf, warn[2 * XT_NHINTS + XT_NRULES + k], XT_WARN_LEN);
    if (xf->rank == 0)
        warn_unknown_keys(users_info, warn[nwarn - 1]);
    xt_warn_slots(fd, warn, nwarn);
    free(buf);
    free(warn);
    free(mine);
    return 0;
}

void xt_info_publish(ADIO_File fd, const struct xt_file *xf)
{
    if (fd->info == MPI_INFO_NULL)
        return;
    for (int h = 0; h < XT_NHINTS; h++)
        if (xf->hints[h].s[0])
            ADIOI_Info_set(fd->info, xt_hint_defs[h].name, xf->hints[h].s);
    char layers[256] = "";
    for (int s = 0; s < xf->nslots; s++)
        snprintf(layers + strlen(layers), sizeof(layers) - strlen(layers), "%s%s",
                 s ? "," : "", xf->slots[s].layer->name);
    ADIOI_Info_set(fd->info, "romio_xt_layers", layers[0] ? layers : "none");
}

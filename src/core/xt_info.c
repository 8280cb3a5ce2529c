/* romio-xt: collective hint processing.
 *
 * Every rank reads its hints from the info object (at open also from the
 * environment).  Hints flagged XT_AGREE take rank 0's text on every rank.
 * Each problem is warned about once per job, by the lowest rank that saw it.
 * A pass first settles on this rank's own texts; one allreduce then carries
 * whether every rank had the same texts (a hash), the warnings' bids and
 * whether every rank had the memory: usually that is all.  Only when the
 * texts differ, rank 0's agreed texts are bcast and the pass runs again
 * (one bcast, more only when they exceed XT_BCAST_CHUNK, and one allreduce).
 * Values are committed only when every rank is ok.  A file no rank gave input
 * at open gets no state (xt_hooks.c); after open, a file without layers runs
 * a pass alone (xt_info_alone).  Nothing is calloc'd: texts and
 * warnings are allocated when given. */
#include "xt_layer.h"
#include "xt_romiohints.h"
#include "adio_cb_config_list.h"

#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define XT_RAW_LEN 1024
#define XT_BCAST_CHUNK 4096
/* slots: each hint's two, each rule's, each layer's check, libnuma, unknown keys */
#define XT_NWARN (2 * XT_NHINTS + XT_NRULES + XT_NLAYERS + 2)
#define XT_WARN_NUMA (XT_NWARN - 2)
_Static_assert(XT_NWARN <= XT_WARN_MAX, "one allreduce carries every warning slot");

/* one pass: the raw texts, the values it settles on, its warnings */
struct xt_pass {
    ADIO_File fd;
    struct xt_file *xf;
    const struct xt_hint_src *src;
    int at_open, ok;
    struct xt_hint_value *next; /* the values to commit (XT_NHINTS) */
    int given[XT_NHINTS];
    char *mine[XT_NHINTS];      /* this rank's text; NULL: not given */
    const char *site[XT_NHINTS];        /* the site file, where mine comes from it */
    const char *r0[XT_NHINTS];  /* rank 0's text of each shared hint (shared()) */
    unsigned chose;             /* romio_xt=auto's rows (xt_auto_choose) */
    char *agreed;               /* the bcast buffer r0 points into */
    char *warn[XT_NWARN];       /* per slot: NULL, or this rank's text */
};

static char *dup_text(struct xt_pass *p, const char *text)
{
    char *d = strdup(text);
    p->ok &= d != NULL;
    return d;
}

static void say(struct xt_pass *p, int slot, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void say(struct xt_pass *p, int slot, const char *fmt, ...)
{
    char text[XT_WARN_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof(text), fmt, ap);
    va_end(ap);
    free(p->warn[slot]);
    p->warn[slot] = dup_text(p, text);
}

/* hint h's text: the info's, the hints files' (where the program's own info
 * does not give it, a value of the site file's yields to the variable), the
 * variable's */
static void read_raw(struct xt_pass *p, int h)
{
    const struct xt_hint_def *def = &xt_hint_defs[h];
    char text[XT_RAW_LEN];
    int flag = 0;
    if (p->src->info != MPI_INFO_NULL)
        ADIOI_Info_get(p->src->info, def->name, XT_RAW_LEN - 1, text, &flag);
    if (!flag && p->src->sys != MPI_INFO_NULL)
        ADIOI_Info_get(p->src->sys, def->name, XT_RAW_LEN - 1, text, &flag);
    if (flag && p->at_open && !xt_info_has(p->src->user, def->name))
        p->site[h] = xt_site_hint(p->fd, def->name);
    const char *env = (p->at_open && def->env) ? getenv(def->env) : NULL;
    if (p->site[h] && env && *env)
        flag = 0, p->site[h] = NULL;
    if (flag || (env && *env))
        p->mine[h] = dup_text(p, flag ? text : env);
}

/* a hint whose rank 0's text every rank knows: XT_AGREE ones (their value)
 * and those romio_xt=auto needs given (its choice, the same on every rank) */
static int shared(int h)
{
    return (xt_hint_defs[h].flags & XT_AGREE) || xt_auto_needed(h);
}

/* rank 0's packed shared texts ('1' text NUL, or '0' NUL, per hint) into
 * out (NULL: only measure); returns the length */
static int pack_agreed(const struct xt_pass *p, char *out)
{
    int len = 0;
    for (int h = 0; h < XT_NHINTS; h++) {
        if (!shared(h))
            continue;
        const char *t = p->mine[h] ? p->mine[h] : "";
        if (out) {
            out[len] = p->mine[h] ? '1' : '0';
            memcpy(out + len + 1, t, strlen(t) + 1);
        }
        len += (int) strlen(t) + 2;
    }
    return len;
}

/* rank 0's texts on every rank: chunk 0 carries the length (-1: rank 0 is
 * out of memory) and the first bytes; further chunks only for long texts */
static void bcast_agreed(MPI_Comm comm, struct xt_pass *p)
{
    char chunk[XT_BCAST_CHUNK];
    const int root = p->xf->rank == 0, cap0 = XT_BCAST_CHUNK - (int) sizeof(int);
    int len = root ? pack_agreed(p, NULL) : 0;
    char *all = root ? malloc(len + 1) : NULL;
    if (root && !all)
        p->ok = 0, len = -1;
    if (root && all)
        pack_agreed(p, all);
    memcpy(chunk, &len, sizeof(int));
    if (root && len > 0)
        memcpy(chunk + sizeof(int), all, len < cap0 ? len : cap0);
    MPI_Bcast(chunk, XT_BCAST_CHUNK, MPI_CHAR, 0, comm);
    memcpy(&len, chunk, sizeof(int));
    if (!root && len >= 0 && !(all = malloc(len + 1)))
        p->ok = 0;
    if (!root && all)
        memcpy(all, chunk + sizeof(int), len < cap0 ? len : cap0);
    for (int off = cap0; off < len; off += XT_BCAST_CHUNK) {
        int n = len - off < XT_BCAST_CHUNK ? len - off : XT_BCAST_CHUNK;
        if (root)
            memcpy(chunk, all + off, n);
        MPI_Bcast(chunk, n, MPI_CHAR, 0, comm);
        if (!root && all)
            memcpy(all + off, chunk, n);
    }
    p->agreed = all;
    for (int h = 0, at = 0; all && h < XT_NHINTS; h++) {
        if (!shared(h))
            continue;
        p->r0[h] = all[at] == '1' ? all + at + 1 : NULL;
        at += (int) strlen(all + at + 1) + 2;
    }
}

static int same_text(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

/* one hint: the value to use, and the warnings this rank owns */
static void settle(struct xt_pass *p, int h)
{
    const struct xt_hint_def *def = &xt_hint_defs[h];
    const int agree = def->flags & XT_AGREE;
    const char *use = agree ? p->r0[h] : p->mine[h];
    const int owner = !agree || p->xf->rank == 0;      /* who warns about the value */
    struct xt_hint_value cand, *cur = &p->next[h];      /* default at open, else current */
    char why[160];

    if (use && xt_hint_parse(def, use, &cand, why, sizeof(why)) != 0) {
        char msg[XT_WARN_LEN];
        cand = *cur;
        xt_hint_bad_warning(msg, sizeof(msg), def, use, why, cand.s);
        if (owner && p->site[h])
            say(p, 2 * h, "%s (site hints file %s)", msg, p->site[h]);
        else if (owner)
            say(p, 2 * h, "%s", msg);
    }
    if (use && !p->at_open && (def->flags & XT_OPEN_ONLY) && strcmp(cand.s, cur->s) != 0) {
        if (owner)
            say(p, 2 * h + 1, "hint %s: '%s' can only be set at open; keeping '%s'",
                def->name, use, cur->s);
        cand = *cur;
    }
    if (use) {
        *cur = cand;
        p->given[h] = 1;
    }
    if (agree && !same_text(p->mine[h], p->r0[h]))
        say(p, 2 * h + 1, "hint %s: rank %d has '%s' but rank 0 has '%s'; all ranks use '%s'",
            def->name, p->xf->rank, p->mine[h] ? p->mine[h] : "(unset)",
            p->r0[h] ? p->r0[h] : "(unset)", cur->s);
}

/* key starts with one of our prefixes (a hint of ours, or a typo of one) */
static int under_our_prefix(const char *key)
{
    for (const char *const *p = xt_hint_prefixes; *p; p++)
        if (strncmp(key, *p, strlen(*p)) == 0)
            return 1;
    return 0;
}

/* anything for romio-xt on this rank: a key that is one of our hints or has
 * one of our prefixes (a typo to warn about), or at open a hint's variable */
int xt_info_wanted(MPI_Info info, int at_open)
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

/* the table's rules between hints; who warns as for a bad value */
static void check_rules(struct xt_pass *p)
{
    for (int r = 0; r < XT_NRULES; r++) {
        const struct xt_hint_rule *rule = &xt_hint_rules[r];
        int owner = !(xt_hint_defs[rule->a].flags & XT_AGREE) || p->xf->rank == 0;
        char msg[XT_WARN_LEN];
        if (xt_hint_rule_check(rule, p->next, msg, sizeof(msg)) && owner)
            say(p, 2 * XT_NHINTS + r, "%s", msg);
    }
}

struct xt_file *xt_file_new(ADIO_File fd)
{
    struct xt_file *xf = xt_calloc(1, sizeof(*xf));
    if (xf) {
        MPI_Comm_rank(fd->comm, &xf->rank);
        MPI_Comm_size(fd->comm, &xf->nprocs);
        xf->open_time = xt_now();
    }
    return xf;
}

/* the layers' memory (xt_layer.h); here, next to the hint pass that agrees
 * on it, so that xt_hooks.c and xt_info.c do not call each other */
void xt_slots_free(struct xt_file *xf)
{
    for (int s = 0; s < xf->nslots || s < xf->nalloc; s++) {
        free(xf->slots[s].state);
        free(xf->slots[s].counters);
    }
    xf->nslots = xf->nalloc = 0;
}

int xt_slots_alloc(struct xt_file *xf)
{
    int ok = 1;
    xf->nalloc = 0;
    for (int k = 0; k < xt_nlayers && xf->nalloc < XT_MAX_LAYERS; k++) {
        const struct xt_layer *l = xt_layers[k];
        if (!l->wanted(xf))
            continue;
        struct xt_slot *slot = &xf->slots[xf->nalloc];
        slot->layer = l;
        slot->state = xt_calloc(1, l->state_size);
        slot->counters = xt_calloc(l->ncounters + 1, sizeof(int64_t));
        ok &= slot->state && slot->counters;
        xf->alloc_id[xf->nalloc++] = k;
    }
    return ok;
}

/* at open: each wanted layer's check of hint values only this rank can see
 * (xt_layer.h check_hints), one slot per layer */
static void check_layers(struct xt_pass *p)
{
    char msg[XT_WARN_LEN];
    for (int k = 0; k < xt_nlayers; k++) {
        const struct xt_layer *l = xt_layers[k];
        msg[0] = '\0';
        if (l->check_hints && l->wanted(p->xf))
            l->check_hints(p->xf, msg, sizeof(msg));
        if (msg[0])
            say(p, 2 * XT_NHINTS + XT_NRULES + k, "%s", msg);
    }
}

/* at open: romio_xt_numa_place=enable where this rank has no libnuma (xt_numa.h)
 * falls back to disable, with the pass's warnings (no collective of its own) */
static void check_numa(struct xt_pass *p)
{
    struct xt_hint_value *h = &p->xf->hints[XT_H_NUMA_PLACE];
    if (h->i != XT_H_NUMA_PLACE_enable ||
        xt_numa_sys_load((int) xt_test_hook("ROMIO_XT_TEST_NUMA_NODES", 0))->status !=
        XT_NUMA_NO_LIB)
        return;
    p->xf->numa_status = XT_NUMA_NO_LIB;
    h->i = XT_H_NUMA_PLACE_disable;
    snprintf(h->s, sizeof(h->s), "disable");
    say(p, XT_WARN_NUMA, "hint romio_xt_numa_place: 'enable' needs libnuma (libnuma.so.1), "
        "which is not available; using 'disable': no memory placement");
}

static void warn_unknown_keys(struct xt_pass *p, MPI_Info info)
{
    int nkeys = 0;
    char key[MPI_MAX_INFO_KEY + 1];
    if (info != MPI_INFO_NULL)
        MPI_Info_get_nkeys(info, &nkeys);
    for (int k = 0; k < nkeys && !p->warn[XT_NWARN - 1]; k++) {
        MPI_Info_get_nthkey(info, k, key);
        if (under_our_prefix(key) && xt_hint_find(key) < 0)
            say(p, XT_NWARN - 1, "unknown hint %s ignored (see docs/hints.md)",
                key);
    }
}

static void pass_free(struct xt_pass *p)
{
    for (int h = 0; h < XT_NHINTS; h++)
        free(p->mine[h]);
    for (int k = 0; k < XT_NWARN; k++)
        free(p->warn[k]);
    free(p->agreed);
    free(p->next);
}

/* every hint's value and the checks, from mine and r0: what every rank would
 * settle on, its warnings, and at open the layers' memory */
static void settle_all(struct xt_pass *p)
{
    for (int h = 0; p->ok && h < XT_NHINTS; h++)
        settle(p, h);
    if (p->ok && p->at_open)
        p->chose = xt_auto_choose(p->next, p->r0);
    if (p->ok)
        check_rules(p);
    if (p->ok && p->xf->rank == 0) {
        warn_unknown_keys(p, p->src->info);
        warn_unknown_keys(p, p->src->sys);
    }
    if (p->ok && p->at_open) {  /* the layers' memory, agreed with the rest */
        memcpy(p->xf->hints, p->next, sizeof(p->xf->hints));
        p->xf->auto_chose = p->chose;
        check_layers(p);
        check_numa(p);
        p->ok = xt_slots_alloc(p->xf);
    }
}

static void pass_start(struct xt_pass *p, ADIO_File fd, struct xt_file *xf,
                       const struct xt_hint_src *src, int at_open,
                       const struct xt_hint_value *base)
{
    *p = (struct xt_pass) {.fd = fd,.xf = xf,.src = src,.at_open = at_open };
    if ((p->next = malloc(sizeof(xf->hints))))
        memcpy(p->next, base, sizeof(xf->hints));
    p->ok = p->next != NULL;
    for (int h = 0; h < XT_NHINTS; h++)
        read_raw(p, h);
}

/* this rank's texts as if they were every rank's (rank 0's too): right when
 * the allreduce shows that every rank's texts are the same */
static void local_pass(struct xt_pass *p)
{
    for (int h = 0; h < XT_NHINTS; h++)
        if (shared(h))
            p->r0[h] = p->mine[h];
    settle_all(p);
}

/* the general pass: rank 0's texts bcast, the warnings and memory agreed */
static int full_pass(ADIO_File fd, struct xt_pass *p)
{
    bcast_agreed(fd->comm, p);
    settle_all(p);
    return xt_warn_slots(fd, p->warn, XT_NWARN, p->ok);
}

/* FNV-1a over the texts (0: no input), in three non-negative ints */
static void texts_hash(const struct xt_pass *p, int wanted, int *out)
{
    uint64_t k = wanted ? XT_FNV_SEED : 0;
    for (int h = 0; wanted && h < XT_NHINTS; h++) {
        const char given = p->mine[h] ? '1' : '0', *t = p->mine[h] ? p->mine[h] : "";
        k = xt_fnv1a(xt_fnv1a(k, &given, 1), t, strlen(t) + 1);
    }
    out[0] = (int) (k & 0x7fffffff);
    out[1] = (int) ((k >> 31) & 0x7fffffff);
    out[2] = (int) (k >> 62);
}

enum { A_ROMIO, A_KNOWN, A_STATE, A_NONE, A_ALL, A_OK, A_HASH, A_NHASH = A_HASH + 3,
    A_QUIET = A_NHASH + 3, A_WHO        /* the warnings' bids follow */
};

/* the one allreduce of every pass (MIN): ROMIO's int (src->romio), can every
 * rank read its hints yet, has every rank with input its state, has no rank
 * input, has every rank, is every rank ok, the texts' hash (its min, and its
 * max as INT_MAX - hash), has no rank a warning to print.  Only when some
 * rank has one, a second allreduce carries the warnings' bids (XT_NWARN
 * ints; once per warning and job, as warnings are said once). */
static void agree(ADIO_File fd, const struct xt_pass *p, int wanted, int *all)
{
    int mine[A_WHO + XT_NWARN], nprocs;
    mine[A_ROMIO] = p->src->romio ? *p->src->romio : 0;
    mine[A_KNOWN] = !p->src->unknown;
    mine[A_STATE] = !wanted || p->xf != NULL;
    mine[A_NONE] = !wanted;
    mine[A_ALL] = wanted;
    mine[A_OK] = p->ok;
    texts_hash(p, wanted, mine + A_HASH);
    for (int i = 0; i < 3; i++)
        mine[A_NHASH + i] = INT_MAX - mine[A_HASH + i];
    xt_warn_bid(fd, p->warn, XT_NWARN, mine + A_WHO);
    MPI_Comm_size(fd->comm, &nprocs);
    mine[A_QUIET] = 1;
    for (int k = 0; k < XT_NWARN; k++)
        mine[A_QUIET] &= mine[A_WHO + k] == nprocs;
    xt_allreduce(mine, all, A_WHO, XT_MIN_INT, fd->comm);
    if (all[A_QUIET])   /* every bid is nprocs */
        memcpy(all + A_WHO, mine + A_WHO, XT_NWARN * sizeof(int));
    else
        xt_allreduce(mine + A_WHO, all + A_WHO, XT_NWARN, XT_MIN_INT, fd->comm);
    if (p->src->romio)
        *p->src->romio = all[A_ROMIO];
}

static void commit(ADIO_File fd, struct xt_pass *p, const struct xt_hint_value *base,
                   int all_ok)
{
    struct xt_file *xf = p->xf;
    if (all_ok) {
        if (!p->at_open)        /* at open settle_all copied them already */
            memcpy(xf->hints, p->next, sizeof(xf->hints));
        for (int h = 0; h < XT_NHINTS; h++)
            xf->given[h] |= p->given[h];
        for (int k = 0; k < XT_NAUTO; k++)     /* a hint after open wins over auto */
            if (p->given[xt_auto_rows[k].hint])
                xf->auto_chose &= ~(1u << k);
        if (p->at_open)
            xf->nagreed = xf->nalloc;
        return;
    }
    if (p->at_open) {
        xf->auto_chose = 0;
        xt_slots_free(xf);
        memcpy(xf->hints, base, sizeof(xf->hints));
    }
    if (!p->ok)
        xt_warn(fd, XT_WARN_SELF, "out of memory (the hints and their layers); using the ones "
                "before");
}

/* the general pass when the texts differ; a rank without input makes its
 * state now, and one out of memory takes part on a stand-in, failing it */
static int general_pass(ADIO_File fd, struct xt_file **pxf, struct xt_pass *p,
                        const struct xt_hint_src *src, int at_open,
                        const struct xt_hint_value *base)
{
    static _Thread_local struct xt_file stand_in;       /* opens on other threads */
    struct xt_file *xf = *pxf ? *pxf : (*pxf = xt_file_new(fd));
    if (!xf) {
        memset(&stand_in, 0, sizeof(stand_in));
        MPI_Comm_rank(fd->comm, &stand_in.rank);
        MPI_Comm_size(fd->comm, &stand_in.nprocs);
    }
    pass_start(p, fd, xf ? xf : &stand_in, src, at_open, base);
    p->ok &= xf != NULL;
    return full_pass(fd, p);
}

/* Every rank settles on its own texts first.  One allreduce then tells
 * whether all ranks had the same texts (the usual case: then that is the
 * result, and its warnings are agreed too); only when they differ does the
 * general pass follow (one bcast and one allreduce more). */
enum xt_pass_end xt_info_apply(ADIO_File fd, struct xt_file **pxf, const struct xt_hint_src *src,
                               int at_open)
{
    const int wanted = !src->unknown && (xt_info_wanted(src->info, at_open) ||
                                         xt_info_wanted(src->sys, 0));
    struct xt_file *xf = *pxf;
    if (wanted && !xf && !(xf = *pxf = xt_file_new(fd)))
        xt_warn(fd, XT_WARN_SELF, "out of memory (romio-xt's file state); stock ROMIO "
                "runs this file");
    const struct xt_hint_value *base = at_open ? xt_hint_defaults() : xf ? xf->hints : NULL;
    struct xt_pass p = {.xf = xf,.src = src,.ok = 1 };
    int all[A_WHO + XT_NWARN];
    if (wanted && xf) {
        pass_start(&p, fd, xf, src, at_open, base);
        local_pass(&p);
    }
    agree(fd, &p, wanted, all);
    const int same = all[A_ALL] && all[A_HASH] == INT_MAX - all[A_NHASH] &&
        all[A_HASH + 1] == INT_MAX - all[A_NHASH + 1] &&
        all[A_HASH + 2] == INT_MAX - all[A_NHASH + 2];
    const enum xt_pass_end end = !all[A_KNOWN] ? XT_PASS_LATER : !all[A_STATE] ?
        XT_PASS_NO_STATE : all[A_NONE] ? XT_PASS_NO_INPUT : XT_PASS_DONE;
    if (end != XT_PASS_DONE || !same) {
        if (at_open && xf)
            xt_slots_free(xf);
        pass_free(&p);
    }
    if (end != XT_PASS_DONE)
        return end;
    int ok = all[A_OK];
    if (same && ok)
        xt_warn_print(fd, p.warn, XT_NWARN, all + A_WHO);
    if (!same)
        ok = general_pass(fd, pxf, &p, src, at_open, base);
    commit(fd, &p, base, ok);
    pass_free(&p);
    return XT_PASS_DONE;
}

void xt_info_alone(ADIO_File fd, MPI_Info users_info)
{
    struct xt_file *xf = xt_file(fd);
    struct xt_pass p;
    const struct xt_hint_src src = {.info = users_info,.sys = MPI_INFO_NULL };
    if (!xt_info_wanted(users_info, 0))
        return;
    if (!xf && (xf = xt_file_new(fd))) {
        memcpy(xf->hints, xt_hint_defaults(), sizeof(xf->hints));
        fd->xt = xf;
    }
    if (!xf) {
        xt_warn(fd, XT_WARN_SELF, "out of memory (romio-xt's file state); ignoring the hints "
                "given after open");
        return;
    }
    pass_start(&p, fd, xf, &src, 0, xf->hints);
    local_pass(&p);
    if (p.ok && xf->rank == 0) {
        int who[XT_NWARN];
        xt_warn_bid(fd, p.warn, XT_NWARN, who);
        xt_warn_print(fd, p.warn, XT_NWARN, who);
    }
    commit(fd, &p, xf->hints, p.ok);
    pass_free(&p);
    xf->published = 0;
}

void xt_info_publish(ADIO_File fd, const struct xt_file *xf)
{
    const struct xt_hint_value *hints = xf ? xf->hints : xt_hint_defaults();
    if (fd->info == MPI_INFO_NULL)
        return;
    for (int h = 0; h < XT_NHINTS; h++)
        if (hints[h].s[0])
            ADIOI_Info_set(fd->info, xt_hint_defs[h].name, hints[h].s);
    char layers[256] = "";
    for (int s = 0; xf && s < xf->nslots; s++)
        snprintf(layers + strlen(layers), sizeof(layers) - strlen(layers), "%s%s",
                 s ? "," : "", xf->slots[s].layer->name);
    ADIOI_Info_set(fd->info, "romio_xt_layers", layers[0] ? layers : "none");
    if (hints[XT_H_XT].i == XT_H_XT_auto) {
        char chose[512] = "";
        for (int k = 0; xf && k < XT_NAUTO; k++)
            if (xf->auto_chose & (1u << k))
                snprintf(chose + strlen(chose), sizeof(chose) - strlen(chose), "%s%s=%s",
                         chose[0] ? "," : "", xt_hint_defs[xt_auto_rows[k].hint].name,
                         xt_auto_rows[k].value);
        ADIOI_Info_set(fd->info, "romio_xt_auto_chose", chose[0] ? chose : "none");
    }
    xt_file_hints_publish(fd);
}

void xt_auto_report(const struct xt_file *xf, struct xt_json *j)
{
    if (xf->hints[XT_H_XT].i != XT_H_XT_auto)
        return;
    xt_json_open(j, "auto", '{');
    for (int k = 0; k < XT_NAUTO; k++) {
        const struct xt_auto_row *r = &xt_auto_rows[k];
        char why[512];
        if (xf->auto_chose & (1u << k))
            snprintf(why, sizeof(why), "%s: %s", r->value, r->gate);
        else if (xf->given[r->hint])
            snprintf(why, sizeof(why), "%s: given by a hint", xf->hints[r->hint].s);
        else if (r->needs != XT_AUTO_ANY)
            snprintf(why, sizeof(why), "%s: no %s given", xf->hints[r->hint].s,
                     xt_hint_defs[r->needs].name);
        else
            snprintf(why, sizeof(why), "%s", xf->hints[r->hint].s);
        xt_json_str(j, xt_hint_defs[r->hint].name, why);
    }
    xt_json_close(j);
}

/* ROMIO: before ROMIO's SetInfo reads users_info (every ADIO_SetInfo).  Each
 * of ROMIO's own hints with a value ROMIO would die of (xt_romiohints.h) is fixed
 * or removed in a copy, which ROMIO reads instead (the caller frees it), and
 * rank 0 warns once per job; an info with valid values only is returned as
 * it is: ROMIO's path is the stock one. */
MPI_Info ADIOI_Xt_romio_hints(ADIO_File fd, MPI_Info users_info)
{
    MPI_Info fixed = MPI_INFO_NULL;
    int nkeys = 0, rank, flag;
    if (users_info == MPI_INFO_NULL || MPI_Info_get_nkeys(users_info, &nkeys) != MPI_SUCCESS)
        return users_info;
    MPI_Comm_rank(fd->comm, &rank);
    for (int k = 0; k < nkeys; k++) {
        char key[MPI_MAX_INFO_KEY + 1], val[MPI_MAX_INFO_VAL + 1], fix[32], msg[XT_WARN_LEN];
        MPI_Info_get_nthkey(users_info, k, key);
        ADIOI_Info_get(users_info, key, MPI_MAX_INFO_VAL, val, &flag);
        enum xt_romio_verdict v = xt_romio_check(key, val, !fd->hints->initialized, fix,
                                                 sizeof(fix), msg, sizeof(msg));
        if (v == XT_ROMIO_OK || !flag)
            continue;
        if (fixed == MPI_INFO_NULL && MPI_Info_dup(users_info, &fixed) != MPI_SUCCESS) {
            xt_warn(fd, XT_WARN_SELF, "out of memory (checking ROMIO's hints); ROMIO reads "
                    "them unchecked");
            return users_info;
        }
        if (v == XT_ROMIO_FIX)
            ADIOI_Info_set(fixed, key, fix);
        else
            MPI_Info_delete(fixed, key);
        if (rank == 0)
            xt_warn(fd, XT_WARN_SELF, "%s", msg);
    }
    return fixed != MPI_INFO_NULL ? fixed : users_info;
}

/* ROMIO: on rank 0 at open, when cb_config_list names no host of the job
 * (ROMIO would run with no aggregator): one per node, as by default */
int ADIOI_Xt_no_aggregators(ADIO_File fd, struct ADIO_cb_name_arrayD *array, int *ranklist)
{
    static char dflt[] = "*:1";
    xt_warn(fd, XT_WARN_SELF, "ROMIO hint cb_config_list: bad value '%.64s' (names no host "
            "of this job); using '%s'", fd->hints->cb_config_list, dflt);
    ADIOI_Info_set(fd->info, "cb_config_list", dflt);
    return ADIOI_cb_config_list_parse(dflt, array, ranklist, fd->hints->cb_nodes);
}

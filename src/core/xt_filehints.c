/* romio-xt: the hints files.  Two files give hints to the files a job opens,
 * lowest first:
 *
 * - the site file: ROMIO_XT_SITE_HINTS, else PREFIX/etc/romio-xt.hints
 *   (XT_SITE_HINTS_FILE; ROMIO_XT_SITE_HINTS= empty: none).  Its "KEY VALUE"
 *   lines apply to every file, its "PATTERN KEY VALUE" lines to the files
 *   they match, over its "KEY VALUE" lines;
 * - the ROMIO_HINTS file (ROMIO reads its "KEY VALUE" lines itself and skips
 *   lines of three words): its "PATTERN KEY VALUE" lines over its "KEY VALUE"
 *   lines, and both over the whole site file.
 *
 * A pattern is fnmatch's (one without '/' also matches the base name); of
 * the per-file lines that set a key, the first matching one wins; of the
 * "KEY VALUE" lines, the last.  Hints the program passes in its info win
 * over both files.  Each file is read once per process; world rank 0 warns
 * once about each malformed line (ignored) and about a site file named by
 * ROMIO_XT_SITE_HINTS that cannot be read (no site hints then).
 * MPI_File_get_info shows the per-file lines that applied as
 * romio_xt_file_hints (the site file's as site:LINE:PATTERN) and, when a
 * site line applied, romio_xt_site_hints: the site file. */
#include "xt_layer.h"
#include "xt_version.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define XT_FH_LINE 1024
#define XT_FH_MAX 256

struct xt_fh_rule {
    char *pat, *key, *val;      /* pat NULL: a "KEY VALUE" line (site file) */
    int line;
};

/* one hints file, read once per process */
struct xt_fh_src {
    const char *what, *tag;     /* for warnings; the prefix in romio_xt_file_hints */
    int globals;                /* it holds "KEY VALUE" lines of its own (ROMIO reads the
                                 * ROMIO_HINTS file's) */
    int n;                      /* -1: not read yet */
    char path[XT_FH_LINE];
    struct xt_fh_rule r[XT_FH_MAX];
};

static struct xt_fh_src xt_site = {.what = "site hints file",.tag = "site:",.globals = 1,
    .n = -1 };
static struct xt_fh_src xt_user = {.what = "ROMIO_HINTS file",.tag = "",.n = -1 };
static ADIO_File xt_fh_fd;      /* the open whose merged hints xt_fh_info holds */
static MPI_Info xt_fh_info = MPI_INFO_NULL;
static MPI_Info xt_fh_sys = MPI_INFO_NULL;      /* ROMIO's hints of that open */

static int world_rank0(void)
{
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    return rank == 0;
}

static void bad_line(const struct xt_fh_src *s, int line, const char *text, const char *why)
{
    if (world_rank0())
        xt_warn(ADIO_FILE_NULL, XT_WARN_SELF, "%s %s line %d '%s': %s; line ignored", s->what,
                s->path, line, text, why);
}

/* one line: a rule when it has three words (or two, in a file with globals);
 * warns about lines ROMIO would skip silently (one word, more than three) */
static void parse_line(struct xt_fh_src *s, int line, char *text)
{
    char copy[XT_FH_LINE], *save = NULL, *w[4];
    int n = 0;
    text[strcspn(text, "\r\n")] = '\0';
    snprintf(copy, sizeof(copy), "%s", text);
    for (char *t = strtok_r(text, " \t", &save); t && n < 4; t = strtok_r(NULL, " \t", &save))
        w[n++] = t;
    if (n == 0 || w[0][0] == '#' || (n == 2 && !s->globals))
        return;
    if (n != 3 && n != 2) {
        bad_line(s, line, copy, n == 1 ? "a key without a value" :
                 "more than three words (expected KEY VALUE or PATTERN KEY VALUE)");
        return;
    }
    if (s->n == XT_FH_MAX) {
        bad_line(s, line, copy, "more than 256 lines of hints");
        return;
    }
    struct xt_fh_rule *r = &s->r[s->n];
    r->pat = n == 3 ? strdup(w[0]) : NULL;
    r->key = strdup(w[n - 2]), r->val = strdup(w[n - 1]), r->line = line;
    if ((r->pat || n == 2) && r->key && r->val)
        s->n++;
    else
        free(r->pat), free(r->key), free(r->val);
}

/* the site file's path; named: ROMIO_XT_SITE_HINTS names it (a file that
 * cannot be read is warned about) */
static const char *site_path(int *named)
{
    const char *p = getenv("ROMIO_XT_SITE_HINTS");
    *named = p != NULL;
    return p ? p : XT_SITE_HINTS_FILE;
}

static void load(struct xt_fh_src *s)
{
    char text[XT_FH_LINE];
    int named = 0;
    const char *path = s == &xt_site ? site_path(&named) : getenv("ROMIO_HINTS");
    if (s == &xt_user && !(path && *path))
        path = "/etc/romio-hints";
    snprintf(s->path, sizeof(s->path), "%s", path);
    s->n = 0;
    if (!*path)                 /* ROMIO_XT_SITE_HINTS= : no site file */
        return;
    FILE *f = fopen(path, "r");
    if (!f && named && world_rank0())
        xt_warn(ADIO_FILE_NULL, XT_WARN_SELF, "%s %s (ROMIO_XT_SITE_HINTS): cannot read it "
                "(%s); using no site hints", s->what, path, strerror(errno));
    for (int line = 1; f && fgets(text, sizeof(text), f); line++)
        parse_line(s, line, text);
    if (f)
        fclose(f);
}

/* the file name without ROMIO's "fstype:" prefix */
static const char *plain_name(const char *name)
{
    const char *colon = strchr(name, ':'), *slash = strchr(name, '/');
    return colon && (!slash || colon < slash) && colon - name > 1 ? colon + 1 : name;
}

static int rule_matches(const struct xt_fh_rule *r, const char *name)
{
    const char *base = strrchr(name, '/');
    if (!r->pat || fnmatch(r->pat, name, 0) == 0)
        return 1;
    return !strchr(r->pat, '/') && base && fnmatch(r->pat, base + 1, 0) == 0;
}

static const char *fd_name(ADIO_File fd)
{
    return fd->filename ? plain_name(fd->filename) : "";
}

/* the rules of s that match name, as "TAG LINE:PATTERN,..." after out's text;
 * returns how many rules (globals included) apply */
static int matching(struct xt_fh_src *s, const char *name, char *out, size_t len)
{
    int n = 0;
    if (s->n < 0)
        load(s);
    for (int k = 0; k < s->n; k++) {
        if (!rule_matches(&s->r[k], name))
            continue;
        n++;
        if (s->r[k].pat)
            snprintf(out + strlen(out), len - strlen(out), "%s%s%d:%s", out[0] ? "," : "",
                     s->tag, s->r[k].line, s->r[k].pat);
    }
    return n;
}

/* s's rules for name into info: "KEY VALUE" lines in order (the last wins),
 * then the per-file lines (the first matching one wins) */
static void apply(const struct xt_fh_src *s, const char *name, MPI_Info info)
{
    for (int k = 0; k < s->n; k++)
        if (!s->r[k].pat)
            ADIOI_Info_set(info, s->r[k].key, s->r[k].val);
    for (int k = s->n - 1; k >= 0; k--)
        if (s->r[k].pat && rule_matches(&s->r[k], name))
            ADIOI_Info_set(info, s->r[k].key, s->r[k].val);
}

void xt_file_hints_release(ADIO_File fd)
{
    if (fd != xt_fh_fd)
        return;
    if (xt_fh_info != MPI_INFO_NULL)
        MPI_Info_free(&xt_fh_info);
    xt_fh_fd = NULL;
    xt_fh_sys = MPI_INFO_NULL;
}

MPI_Info xt_file_hints(ADIO_File fd, MPI_Info sys)
{
    char used[XT_FH_LINE] = "";
    if (fd == xt_fh_fd)
        return xt_fh_info != MPI_INFO_NULL ? xt_fh_info : sys;
    xt_file_hints_release(xt_fh_fd);
    xt_fh_fd = fd;
    xt_fh_sys = sys;
    const char *name = fd_name(fd);
    const int site = matching(&xt_site, name, used, sizeof(used));
    if (!matching(&xt_user, name, used, sizeof(used)) && !site)
        return sys;
    MPI_Info_create(&xt_fh_info);
    apply(&xt_site, name, xt_fh_info);
    int nkeys = 0;
    if (sys != MPI_INFO_NULL)
        MPI_Info_get_nkeys(sys, &nkeys);
    for (int k = 0; k < nkeys; k++) {
        char key[MPI_MAX_INFO_KEY + 1], val[MPI_MAX_INFO_VAL + 1];
        int flag = 0;
        MPI_Info_get_nthkey(sys, k, key);
        ADIOI_Info_get(sys, key, MPI_MAX_INFO_VAL, val, &flag);
        if (flag)
            ADIOI_Info_set(xt_fh_info, key, val);
    }
    apply(&xt_user, name, xt_fh_info);
    return xt_fh_info;
}

int xt_info_has(MPI_Info info, const char *key)
{
    int len, flag = 0;
    if (info != MPI_INFO_NULL)
        MPI_Info_get_valuelen(info, key, &len, &flag);
    return flag;
}

/* does s set key for name? */
static int sets(const struct xt_fh_src *s, const char *name, const char *key)
{
    for (int k = 0; k < s->n; k++)
        if (strcmp(s->r[k].key, key) == 0 && rule_matches(&s->r[k], name))
            return 1;
    return 0;
}

const char *xt_site_hint(ADIO_File fd, const char *key)
{
    if (fd != xt_fh_fd || xt_site.n <= 0 || !sets(&xt_site, fd_name(fd), key))
        return NULL;
    return xt_info_has(xt_fh_sys, key) || sets(&xt_user, fd_name(fd), key) ? NULL :
        xt_site.path;
}

void xt_file_hints_publish(ADIO_File fd)
{
    char used[XT_FH_LINE] = "";
    const char *name = fd_name(fd);
    const int site = matching(&xt_site, name, used, sizeof(used));
    matching(&xt_user, name, used, sizeof(used));
    if (used[0])
        ADIOI_Info_set(fd->info, "romio_xt_file_hints", used);
    if (site)
        ADIOI_Info_set(fd->info, "romio_xt_site_hints", xt_site.path);
}

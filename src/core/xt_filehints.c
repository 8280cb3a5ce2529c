/* romio-xt: per-file hints.  A line "PATTERN KEY VALUE" of the ROMIO_HINTS
 * file (ROMIO itself reads only "KEY VALUE" lines and skips lines of three
 * words) sets KEY for the files whose name matches PATTERN (fnmatch; a
 * pattern without '/' also matches the base name).  For each key the first
 * matching line wins, over the file's "KEY VALUE" lines; hints the program
 * passes in its info win over both.  The file is read once per process; a
 * malformed line gets one warning (world rank 0) and is ignored.
 * MPI_File_get_info shows the lines that applied as romio_xt_file_hints. */
#include "xt_layer.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define XT_FH_LINE 1024
#define XT_FH_MAX 256

struct xt_fh_rule {
    char *pat, *key, *val;
    int line;
};

static struct xt_fh_rule xt_fh[XT_FH_MAX];
static int xt_fh_n = -1;        /* -1: not read yet */
static ADIO_File xt_fh_fd;      /* the open whose merged hints xt_fh_info holds */
static MPI_Info xt_fh_info = MPI_INFO_NULL;

static const char *hints_path(void)
{
    const char *p = getenv("ROMIO_HINTS");
    return p && *p ? p : "/etc/romio-hints";
}

static void bad_line(const char *path, int line, const char *text, const char *why)
{
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        xt_warn(ADIO_FILE_NULL, XT_WARN_SELF, "ROMIO_HINTS file %s line %d '%s': %s; line "
                "ignored", path, line, text, why);
}

/* one line: a rule when it has three words; warns about lines ROMIO would
 * skip silently (one word, more than three) */
static void parse_line(const char *path, int line, char *text)
{
    char copy[XT_FH_LINE], *save = NULL, *w[4];
    int n = 0;
    text[strcspn(text, "\r\n")] = '\0';
    snprintf(copy, sizeof(copy), "%s", text);
    for (char *t = strtok_r(text, " \t", &save); t && n < 4; t = strtok_r(NULL, " \t", &save))
        w[n++] = t;
    if (n == 0 || w[0][0] == '#' || n == 2)
        return;
    if (n != 3) {
        bad_line(path, line, copy, n == 1 ? "a key without a value" :
                 "more than three words (expected KEY VALUE or PATTERN KEY VALUE)");
        return;
    }
    if (xt_fh_n == XT_FH_MAX) {
        bad_line(path, line, copy, "more than 256 per-file lines");
        return;
    }
    struct xt_fh_rule *r = &xt_fh[xt_fh_n];
    r->pat = strdup(w[0]), r->key = strdup(w[1]), r->val = strdup(w[2]), r->line = line;
    if (r->pat && r->key && r->val)
        xt_fh_n++;
    else
        free(r->pat), free(r->key), free(r->val);
}

static void load_rules(void)
{
    char text[XT_FH_LINE];
    const char *path = hints_path();
    FILE *f = fopen(path, "r");
    xt_fh_n = 0;
    for (int line = 1; f && fgets(text, sizeof(text), f); line++)
        parse_line(path, line, text);
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
    if (fnmatch(r->pat, name, 0) == 0)
        return 1;
    return !strchr(r->pat, '/') && base && fnmatch(r->pat, base + 1, 0) == 0;
}

/* the rules that match fd's file, as "LINE:PATTERN,..." (empty: none) */
static void matching(ADIO_File fd, char *out, size_t len)
{
    const char *name = fd->filename ? plain_name(fd->filename) : "";
    out[0] = '\0';
    if (xt_fh_n < 0)
        load_rules();
    for (int k = 0; k < xt_fh_n; k++)
        if (rule_matches(&xt_fh[k], name))
            snprintf(out + strlen(out), len - strlen(out), "%s%d:%s", out[0] ? "," : "",
                     xt_fh[k].line, xt_fh[k].pat);
}

void xt_file_hints_release(ADIO_File fd)
{
    if (fd != xt_fh_fd)
        return;
    if (xt_fh_info != MPI_INFO_NULL)
        MPI_Info_free(&xt_fh_info);
    xt_fh_fd = NULL;
}

MPI_Info xt_file_hints(ADIO_File fd, MPI_Info sys)
{
    char used[XT_FH_LINE];
    if (fd == xt_fh_fd)
        return xt_fh_info != MPI_INFO_NULL ? xt_fh_info : sys;
    xt_file_hints_release(xt_fh_fd);
    xt_fh_fd = fd;
    matching(fd, used, sizeof(used));
    if (!used[0])
        return sys;
    const char *name = plain_name(fd->filename);
    if (sys != MPI_INFO_NULL)
        MPI_Info_dup(sys, &xt_fh_info);
    else
        MPI_Info_create(&xt_fh_info);
    for (int k = xt_fh_n - 1; k >= 0; k--)     /* the first matching line sets last */
        if (rule_matches(&xt_fh[k], name))
            ADIOI_Info_set(xt_fh_info, xt_fh[k].key, xt_fh[k].val);
    return xt_fh_info;
}

void xt_file_hints_publish(ADIO_File fd)
{
    char used[XT_FH_LINE];
    matching(fd, used, sizeof(used));
    if (used[0])
        ADIOI_Info_set(fd->info, "romio_xt_file_hints", used);
}

/* romio-xt-recover: replays e10_cache (NVM write-behind) cache files left
 * behind by a job that died between a write and MPI_File_sync/close.
 *
 * usage: romio-xt-recover [--keep] CACHE_DIR_OR_FILE...
 *
 * Each cache file names its global file in its header; the records not yet
 * marked synced are written to the global file in the order they were
 * cached, the global file is fsync'ed and the cache file removed (kept with
 * --keep).  Run it after the job has ended: a live job's cache files are
 * still in use. */
#include "nvc_store.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int replay(const char *path, int keep)
{
    long n = nvc_file_replay(path, keep, stdout);
    if (n < 0)
        fprintf(stderr, "romio-xt-recover: %s: %s\n", path, strerror((int) -n));
    return n < 0;
}

/* romioxt-nvc.<pid>.<seq>.<name>: by pid, then seq as numbers (a process's
 * later opens replay after its earlier ones: "10" after "9"), then name */
static int cmp(const void *a, const void *b)
{
    const char *x = *(char *const *) a + 12, *y = *(char *const *) b + 12;
    char *ex, *ey;
    for (int part = 0; part < 2; part++) {
        unsigned long long nx = strtoull(x, &ex, 10), ny = strtoull(y, &ey, 10);
        if (nx != ny)
            return nx < ny ? -1 : 1;
        x = *ex == '.' ? ex + 1 : ex;
        y = *ey == '.' ? ey + 1 : ey;
    }
    return strcmp(x, y);
}

static int replay_dir(const char *dir, int keep)
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "romio-xt-recover: %s: %s\n", dir, strerror(errno));
        return 1;
    }
    char **names = NULL;
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (strncmp(e->d_name, "romioxt-nvc.", 12) != 0)
            continue;
        char **nn = realloc(names, (n + 1) * sizeof(*names));
        if (!nn)
            break;
        names = nn;
        names[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof(*names), cmp);
    int bad = 0;
    for (size_t k = 0; k < n; k++) {
        char path[PATH_MAX];
        snprintf(path, sizeof(path), "%s/%s", dir, names[k]);
        bad |= replay(path, keep);
        free(names[k]);
    }
    free(names);
    if (n == 0)
        printf("%s: no cache files\n", dir);
    return bad;
}

int main(int argc, char **argv)
{
    int keep = 0, bad = 0, nargs = 0;
    for (int a = 1; a < argc; a++) {
        struct stat sb;
        if (strcmp(argv[a], "--keep") == 0) {
            keep = 1;
            continue;
        }
        if (argv[a][0] == '-') {
            fprintf(stderr, "usage: romio-xt-recover [--keep] CACHE_DIR_OR_FILE...\n");
            return 2;
        }
        nargs++;
        if (stat(argv[a], &sb) == 0 && S_ISDIR(sb.st_mode))
            bad |= replay_dir(argv[a], keep);
        else
            bad |= replay(argv[a], keep);
    }
    if (!nargs) {
        fprintf(stderr, "usage: romio-xt-recover [--keep] CACHE_DIR_OR_FILE...\n");
        return 2;
    }
    return bad;
}

/* romio-xt: helper threads on the cores the processes leave idle
 * (romio_xt_helper_cpus, xt_cpus.h). */
#define _GNU_SOURCE
#include "xt_layer.h"

#include <errno.h>
#include <sched.h>
#include <string.h>
#include <sys/sysinfo.h>

_Static_assert(sizeof(cpu_set_t) == sizeof(struct xt_cpus), "cpu_set_t is 1024 bits");

static void online_cpus(struct xt_cpus *s)
{
    int n = get_nprocs();
    memset(s, 0, sizeof(*s));
    for (int c = 0; c < n && c < XT_CPU_WORDS * 64; c++)
        s->w[c / 64] |= 1ull << (c % 64);
}

/* the masks of the processes of the file on this node: the cores none of
 * them is bound to (none when a process is not bound: its mask is all) */
static int find_idle(ADIO_File fd, struct xt_cpus *idle)
{
    struct xt_cpus mine, online, *all;
    MPI_Comm node;
    int n, count = 0;
    if (xt_cpus_self(&mine) != 0)
        online_cpus(&mine);     /* unknown: as if not bound */
    if (MPI_Comm_split_type(fd->comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) != MPI_SUCCESS)
        return 0;
    MPI_Comm_size(node, &n);
    all = malloc(sizeof(*all) * n);
    int ok = all != NULL, got;
    MPI_Allreduce(&ok, &got, 1, MPI_INT, MPI_MIN, node);
    if (got && MPI_Allgather(&mine, sizeof(mine), MPI_BYTE, all, sizeof(mine), MPI_BYTE,
                             node) == MPI_SUCCESS) {
        online_cpus(&online);
        count = xt_cpus_idle(&online, all, n, idle);
    }
    free(all);
    MPI_Comm_free(&node);
    return count;
}

/* the node for the helpers' buffers (romio_xt_numa_place; the open's hint
 * pass loaded libnuma, and warned and set disable where it is missing) */
static void numa_open(ADIO_File fd, struct xt_file *xf)
{
    if (xt_hint(fd, XT_H_NUMA_PLACE)->i != XT_H_NUMA_PLACE_enable)
        return;
    struct xt_numa_sys *sys = xt_numa_sys_load(0);
    xf->numa_status = sys->status;
    xf->numa_node = sys->status == XT_NUMA_ON ? xt_numa_node_of_self() : -1;
}

void xt_helper_cpus_open(ADIO_File fd)
{
    struct xt_file *xf = xt_file(fd);
    if (!xf || xf->helper_known)
        return;
    xf->helper_known = 1;
    if (xt_hint(fd, XT_H_HELPER_CPUS)->i == XT_H_HELPER_CPUS_auto)
        xf->helper_ncpus = find_idle(fd, &xf->helper_cpus);
    numa_open(fd, xf);
}

char *xt_page_alloc_near(ADIO_File fd, size_t len)
{
    struct xt_file *xf = xt_file(fd);
    char *p = xt_page_alloc(len);
    if (p && xf && xf->numa_status == XT_NUMA_ON && xf->numa_node >= 0)
        xt_numa_place(p, len + 4096, xf->numa_node);
    return p;
}

int xt_thread_create(ADIO_File fd, pthread_t *t, void *(*fn)(void *), void *arg)
{
    struct xt_file *xf = xt_file(fd);
    if (xf && xf->helper_ncpus > 0) {
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        int rc = pthread_attr_setaffinity_np(&attr, sizeof(cpu_set_t),
                                             (cpu_set_t *) &xf->helper_cpus);
        if (rc == 0)
            rc = pthread_create(t, &attr, fn, arg);
        pthread_attr_destroy(&attr);
        if (rc != EINVAL)       /* EINVAL: cores this process may not use */
            return rc;
        xf->helper_ncpus = 0;
    }
    return pthread_create(t, NULL, fn, arg);
}

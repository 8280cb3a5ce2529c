/* romio-xt: shared ADIO helpers every module uses (see xt_adio.h). */
#include "xt_adio.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* --- warnings --------------------------------------------------------------- */

#define XT_WARN_PREFIX "romio-xt: warning: "
#define XT_WARN_SEEN_MAX 4096

static pthread_mutex_t warn_mu = PTHREAD_MUTEX_INITIALIZER;
static uint64_t warn_seen[XT_WARN_SEEN_MAX];
static int warn_nseen;

uint64_t xt_fnv1a(uint64_t h, const void *data, size_t n)
{
    const unsigned char *b = data;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 1099511628211ULL;
    return h;
}

static uint64_t text_key(const char *s)
{
    uint64_t h = xt_fnv1a(XT_FNV_SEED, s, strlen(s));
    return h ? h : 1;
}

/* has this process warned with text s before?  mark: remember it now */
static int warn_seen_before(const char *s, int mark)
{
    uint64_t k = text_key(s);
    int seen = 0;
    pthread_mutex_lock(&warn_mu);
    for (int i = 0; i < warn_nseen && !seen; i++)
        seen = warn_seen[i] == k;
    if (!seen && mark && warn_nseen < XT_WARN_SEEN_MAX)
        warn_seen[warn_nseen++] = k;
    pthread_mutex_unlock(&warn_mu);
    return seen;
}

static void print_warning(const char *text)
{
    fprintf(stderr, XT_WARN_PREFIX "%s\n", text);
    fflush(stderr);
}

void xt_warn_bid(ADIO_File fd, char *const *texts, int n, int *bid)
{
    int rank, nprocs;
    MPI_Comm_rank(fd->comm, &rank);
    MPI_Comm_size(fd->comm, &nprocs);
    for (int k = 0; k < n; k++) {
        int say = texts && texts[k] && texts[k][0] && !warn_seen_before(texts[k], 0);
        bid[k] = say ? rank : nprocs;
    }
}

void xt_warn_print(ADIO_File fd, char *const *texts, int n, const int *who)
{
    int rank, nprocs;
    MPI_Comm_rank(fd->comm, &rank);
    MPI_Comm_size(fd->comm, &nprocs);
    for (int k = 0; texts && k < n; k++) {
        if (who[k] == nprocs || !texts[k] || !texts[k][0])
            continue;
        warn_seen_before(texts[k], 1);
        if (rank == who[k])
            print_warning(texts[k]);
    }
}

/* --- small allreduces ------------------------------------------------------- */

static void min_int(void *in, void *inout, int *len, MPI_Datatype *type)
{
    const int *a = in;
    int *b = inout;
    (void) type;
    for (int i = 0; i < *len; i++)
        b[i] = a[i] < b[i] ? a[i] : b[i];
}

static void max_int64(void *in, void *inout, int *len, MPI_Datatype *type)
{
    const int64_t *a = in;
    int64_t *b = inout;
    (void) type;
    for (int i = 0; i < *len; i++)
        b[i] = a[i] > b[i] ? a[i] : b[i];
}

static MPI_Op reduce_ops[2] = { MPI_OP_NULL, MPI_OP_NULL };

static int free_reduce_ops(MPI_Comm comm, int keyval, void *attr, void *extra)
{
    (void) comm, (void) attr, (void) extra;
    for (int k = 0; k < 2; k++)
        if (reduce_ops[k] != MPI_OP_NULL)
            MPI_Op_free(&reduce_ops[k]);
    MPI_Comm_free_keyval(&keyval);
    return MPI_SUCCESS;
}

int xt_allreduce(const void *in, void *out, int n, enum xt_reduce how, MPI_Comm comm)
{
    static MPI_User_function *const fn[2] = { min_int, max_int64 };
    const MPI_Datatype type = how == XT_MIN_INT ? MPI_INT : MPI_INT64_T;
    if (reduce_ops[0] == MPI_OP_NULL) { /* freed at MPI_Finalize */
        int keyval;
        for (int k = 0; k < 2; k++)
            MPI_Op_create(fn[k], 1, &reduce_ops[k]);
        MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, free_reduce_ops, &keyval, NULL);
        MPI_Comm_set_attr(MPI_COMM_SELF, keyval, NULL);
    }
    return MPI_Allreduce(in, out, n, type, reduce_ops[how], comm);
}

/* one allreduce: slot k's lowest holder, and (last) whether every rank is ok */
int xt_warn_slots(ADIO_File fd, char *const *texts, int n, int ok)
{
    int rank, nprocs, mine[XT_WARN_MAX + 1], who[XT_WARN_MAX + 1];
    MPI_Comm_rank(fd->comm, &rank);
    MPI_Comm_size(fd->comm, &nprocs);
    n = n < XT_WARN_MAX ? n : XT_WARN_MAX;
    xt_warn_bid(fd, texts, n, mine);
    mine[n] = ok ? nprocs : rank;
    xt_allreduce(mine, who, n + 1, XT_MIN_INT, fd->comm);
    if (who[n] == nprocs)
        xt_warn_print(fd, texts, n, who);
    return who[n] == nprocs;
}

void xt_warn(ADIO_File fd, enum xt_warn_scope scope, const char *fmt, ...)
{
    char text[XT_WARN_LEN] = "", *slot = text;
    if (fmt) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(text, sizeof(text), fmt, ap);
        va_end(ap);
    }
    if (scope == XT_WARN_ALL)
        xt_warn_slots(fd, &slot, 1, 1);
    else if (text[0] && !warn_seen_before(text, 1))
        print_warning(text);
}

/* --- the file system --------------------------------------------------------- */

int xt_fs_has(ADIO_File fd, enum xt_fs_cap cap)
{
    switch (fd->file_system) {
        case ADIO_UFS:
        case ADIO_LUSTRE:
        case ADIO_GPFS:
            return 1;
        case ADIO_NFS:
        case ADIO_XFS:
        case ADIO_PANFS:
            return cap == XT_FS_POSIX_FD;
        default:
            return 0;
    }
}

/* --- a data call ------------------------------------------------------------- */

static int skew_slow;
static volatile char sink;

double xt_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

char *xt_page_alloc(size_t len)
{
    void *p;
    return posix_memalign(&p, 4096, len + 4096) == 0 ? p : NULL;
}

/* best of 5 copies of 16 KiB at a skew of 16 bytes against 0 */
static void measure_skew(void)
{
    enum { N = 16 << 10 };
    char *a = NULL, *b = NULL;
    if (posix_memalign((void **) &a, 4096, N + 4096) || posix_memalign((void **) &b, 4096,
                                                                         N + 4096)) {
        free(a);
        return;
    }
    memset(a, 1, N + 4096);
    memset(b, 2, N + 4096);
    double best[2] = { 1e9, 1e9 };
    for (int r = 0; r < 10; r++) {
        double t0 = xt_now();
        memcpy(b + (r & 1) * 16, a, N);
        double t = xt_now() - t0;
        sink += b[(r & 1) * 16 + N - 1];        /* the copy is used */
        if (t < best[r & 1])
            best[r & 1] = t;
    }
    skew_slow = best[1] > 2 * best[0];
    free(a);
    free(b);
}

int xt_copy_skew_slow(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    static int forced = -2;     /* test hook: 1 or 0 instead of the measurement */
    if (forced == -2)
        forced = (int) xt_test_hook("ROMIO_XT_TEST_SKEW_SLOW", -1);
    if (forced >= 0)
        return forced;
    pthread_once(&once, measure_skew);
    return skew_slow;
}

/* MPICH's ABI: a predefined type's handle has kind 1 in its top two bits
 * and its size in bits 8-15 (MPIR_Datatype_get_basic_size); MPI_Type_size_x
 * (a lock and a lookup, ~100 instructions) only for derived types.  Open
 * MPI's MPI_Datatype is a pointer: no such bits, MPI_Type_size_x always. */
#ifdef MPICH
#define XT_BUILTIN_TYPE(dt) ((((unsigned) (dt)) >> 30) == 1)
#define XT_BUILTIN_SIZE(dt) ((((unsigned) (dt)) >> 8) & 0xff)
#else
#define XT_BUILTIN_TYPE(dt) 0
#define XT_BUILTIN_SIZE(dt) 0
#endif

int64_t xt_bytes(int count, MPI_Datatype dt)
{
    MPI_Count size = 0;
    if (XT_BUILTIN_TYPE(dt))
        size = XT_BUILTIN_SIZE(dt);
    else if (dt != MPI_DATATYPE_NULL)
        MPI_Type_size_x(dt, &size);
    return (int64_t) count * size;
}

#if XT_ROMIO >= 40000
ADIOI_Flatlist_node *xt_flatten(MPI_Datatype dt)
{
    return ADIOI_Flatten_and_find(dt);
}
#else
/* ROMIO 3.2.1 keeps no node for a contiguous type (its
 * ADIOI_Flatten_and_find walks off the list's end).  4.0.2's node for one
 * is {count 1, blocklens {size}, indices {0}}: it depends on the size only,
 * so one node per size serves every such type, kept for the process. */
struct xt_contig_node {
    ADIOI_Flatlist_node node;
    ADIO_Offset blocklen, index;
    struct xt_contig_node *next;
};
static pthread_mutex_t contig_mu = PTHREAD_MUTEX_INITIALIZER;
static struct xt_contig_node *contig_nodes;

static ADIOI_Flatlist_node *contig_node(MPI_Datatype dt)
{
    MPI_Count size = 0;
    struct xt_contig_node *c;
    MPI_Type_size_x(dt, &size);
    pthread_mutex_lock(&contig_mu);
    for (c = contig_nodes; c && c->blocklen != size; c = c->next);
    if (!c && (c = calloc(1, sizeof(*c)))) {
        c->blocklen = size;
        c->node = (ADIOI_Flatlist_node) {.type = MPI_DATATYPE_NULL,.count = 1,
            .blocklens = &c->blocklen,.indices = &c->index,.lb_idx = -1,.ub_idx = -1
        };
        c->next = contig_nodes;
        contig_nodes = c;
    }
    pthread_mutex_unlock(&contig_mu);
    return c ? &c->node : NULL;
}

__attribute__((destructor))
static void contig_nodes_free(void)
{
    while (contig_nodes) {
        struct xt_contig_node *c = contig_nodes;
        contig_nodes = c->next;
        free(c);
    }
}

ADIOI_Flatlist_node *xt_flatten(MPI_Datatype dt)
{
    int is_contig;
    ADIOI_Datatype_iscontig(dt, &is_contig);
    return is_contig ? contig_node(dt) : ADIOI_Flatten_and_find(dt);
}
#endif

void xt_call_done(ADIO_File fd, int fpt, ADIO_Offset fp_ind, ADIO_Offset sys_posn,
                  ADIO_Status *status, MPI_Datatype dt, int64_t bytes)
{
    if (fpt == ADIO_INDIVIDUAL)
        fd->fp_ind = fp_ind;
    fd->fp_sys_posn = sys_posn;
#ifdef HAVE_STATUS_SET_BYTES
    if (status)
        MPIR_Status_set_bytes(status, dt, bytes);
#else
    (void) status, (void) dt, (void) bytes;
#endif
}

/* --- errors and memory --------------------------------------------------------- */

int xt_io_error(ADIO_File fd, const char *where, int err)
{
    if (err == ENOMEM)
        return MPIO_Err_create_code(MPI_SUCCESS, MPIR_ERR_RECOVERABLE, where, __LINE__,
                                    MPI_ERR_NO_MEM, "**nomem", 0);
    return ADIOI_Err_create_code(where, fd->filename, err);
}

/* test hook: the ROMIO_XT_TEST_ALLOC_FAIL-th xt_calloc of the process whose
 * MPI_COMM_WORLD rank is ROMIO_XT_TEST_ALLOC_FAIL_RANK (default 0) fails */
static int alloc_fault(void)
{
    static int64_t calls;
    const int64_t at = xt_test_hook("ROMIO_XT_TEST_ALLOC_FAIL", 0);
    int rank = -1, init = 0;
    if (at <= 0)
        return 0;
    MPI_Initialized(&init);
    if (init)
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    return rank == xt_test_hook("ROMIO_XT_TEST_ALLOC_FAIL_RANK", 0) &&
        __atomic_add_fetch(&calls, 1, __ATOMIC_RELAXED) == at;
}

void *xt_calloc(size_t n, size_t size)
{
    return alloc_fault() ? NULL : calloc(n ? n : 1, size ? size : 1);
}

int xt_can_alloc(size_t size)
{
    if (alloc_fault())
        return 0;
    void *p = malloc(size ? size : 1);
    __asm__ volatile ("":  : "r"(p) : "memory");   /* kept: not elided with the free */
    free(p);
    return p != NULL;
}

int xt_all_ok(ADIO_File fd, int ok, const char *what)
{
    int all = 0;
    ok = !!ok;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, fd->comm);
    if (!all)
        xt_warn(fd, XT_WARN_ALL, ok ? NULL : "out of memory (%s)", what);
    return all;
}

int64_t xt_test_hook(const char *name, int64_t dflt)
{
#ifdef XT_TEST_HOOKS
    const char *v = getenv(name);
    return v && *v ? strtoll(v, NULL, 10) : dflt;
#else
    (void) name;
    return dflt;
#endif
}

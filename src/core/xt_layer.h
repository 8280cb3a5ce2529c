/* romio-xt: the layer stack.
 *
 * A feature is one const struct xt_layer, registered in xt_layers[] (xt_registry.h).
 * At open, every layer whose hints enable it gets a slot; its ops override the
 * operations it needs and every other operation delegates to the layer below
 * (ultimately the file system's own ADIOI_Fns).  No layer enabled: fd->fns is
 * the stock table, untouched.  Every rank installs the same layers: a layer's
 * wanted() and open() give the same answer on all ranks (the stats reduce
 * and the layers' own collectives rely on it).
 *
 * Threads and process-global state.  ROMIO runs every MPI-IO call (open,
 * close, set_view, get_info, the data calls, blocking or not) inside its one
 * global critical section (ROMIO_THREAD_CS_ENTER: MPICH's romio_mutex, taken
 * when the job runs MPI_THREAD_MULTIPLE).  So the hooks, the layers' ops and
 * their open/close/finish/view hooks never run at the same time in a
 * process, and the process-global state they keep (the file core is opening,
 * a module's per-process caches, counters and sequence numbers) needs no lock
 * as long as only they touch it.  A layer's own
 * threads (prefetch's loaders, nvm_cache's sync threads) run outside that
 * section: what they share with the application's thread is under the
 * layer's own mutex, and of core they call only the thread-safe helpers
 * (xt_count, xt_note_request_async, xt_warn with XT_WARN_SELF).
 */
#ifndef XT_LAYER_H
#define XT_LAYER_H

#include "adio.h"
#include "xt_hints.h"
#include "xt_adio.h"
#include "xt_json.h"
#include "xt_registry.h"
#include "xt_cpus.h"
#include "xt_numa.h"

#define XT_MAX_LAYERS XT_NLAYERS

struct xt_file;

/* a collective read or write call's arguments */
struct xt_coll {
    int count;
    MPI_Datatype dt;
    int fpt;
    ADIO_Offset off;
    int is_write;
};

struct xt_layer {
    const char *name;
    /* does this file want the layer?  Must give the same answer on all ranks. */
    int (*wanted)(const struct xt_file *xf);
    /* operations overridden (designated initializers; NULL = delegate) */
    const ADIOI_Fns *ops;
    size_t state_size;          /* per-file state, zeroed, freed at close */
    /* at open, in the hint pass, on every rank where the layer is wanted: a
     * warning about hint values only this rank can check (e.g. a local
     * path; empty: none), printed once per job with the hint pass's own
     * warnings, so the layer's open needs no collective to warn */
    void (*check_hints)(const struct xt_file *xf, char *warn, size_t len);
    /* collective, after the file is open; nonzero: do not install.  The answer
     * must agree across ranks: decide from what every rank sees alike (hints,
     * access mode, file system, layers below); what only this rank can fail
     * (memory, a local path) either is agreed (xt_calloc + xt_all_ok) or
     * leaves the layer installed, passing calls through */
    int (*open)(ADIO_File fd, void *state);
    /* collective, at close, top layer first; set *error_code on failure */
    void (*close)(ADIO_File fd, void *state, int *error_code);
    /* collective, at close after every layer's close (bottom first), while
     * every slot's state and counters still exist (e.g. the stats report);
     * set *error_code on failure */
    void (*finish)(ADIO_File fd, void *state, int *error_code);
    /* counters summed over ranks into the stats record's section */
    const char *const *counters;
    int ncounters;
    /* rank 0, at close when stats are on: extra members of the section */
    void (*report)(ADIO_File fd, void *state, struct xt_json *j);
    /* [off, off + len) of the file changed without passing through this
     * layer (len < 0: anything may have); layers with a cache drop it */
    void (*wrote)(ADIO_File fd, void *state, ADIO_Offset off, ADIO_Offset len);
    /* a layer above runs a collective read or write itself instead of the
     * collective operation below it (e.g. an Orthrus candidate): called on
     * every rank before (end 0) and after (end 1) the call */
    void (*coll)(ADIO_File fd, void *state, const struct xt_coll *c, int end);
    /* layers above may read and write fd->fd_sys themselves (calling xt_wrote
     * after writing): this layer keeps nothing the file lacks */
    int direct_io_ok;
    /* a write-behind cache: a write returns before its bytes reach the file,
     * and each write becomes a request of its own there later (a layer above
     * that times writes times the cache, not the file system) */
    int holds_writes;
    /* collective, after MPI_File_set_view on every rank (error_code: this
     * rank's result; the new view is fd->disp/etype/filetype when it is
     * MPI_SUCCESS on every rank) */
    void (*view)(ADIO_File fd, void *state, int error_code);
};

struct xt_slot {
    const struct xt_layer *layer;
    ADIOI_Fns fns;              /* this layer's view: its ops over the lower ones */
    const ADIOI_Fns *lower;     /* the table below */
    void *state;
    int64_t *counters;
};

struct xt_file {
    struct xt_hint_value hints[XT_NHINTS];
    int given[XT_NHINTS];       /* hint set explicitly (info, ROMIO_HINTS, env) */
    int rank, nprocs;
    ADIOI_Fns *stock;           /* the file system's table, NULL until stacked */
    int64_t req_count[2], req_bytes[2];   /* file-system requests: [0] read, [1] write */
    int64_t handled;            /* contiguous calls served below the stats layer, in the
                                 * application's thread (noted requests, absorbed calls) */
    int nslots;
    struct xt_slot slots[XT_MAX_LAYERS];        /* the installed layers, bottom first */
    /* at open, before ADIOI_Xt_open stacks them: slots[0..nalloc) hold the
     * memory of the layers the hints want (registry ids alloc_id[]) */
    int nalloc, alloc_id[XT_MAX_LAYERS];
    /* layers the hint pass agreed on (every rank the same, as is nslots):
     * 0 means hints after open change no layer */
    int nagreed;
    struct xt_slot *slot_of[XT_NLAYERS];        /* by registry id; NULL: not installed */
    double open_time;
    int coll_impl;              /* xt_coll_ran's report, until xt_coll_taken */
    int published;              /* fd->info holds the hints' values (ADIOI_Xt_get_info) */
    int helper_known;           /* xt_helper_cpus_open ran */
    int helper_ncpus;           /* helper threads' cores (0: the process's own) */
    struct xt_cpus helper_cpus;
    int numa_status;            /* romio_xt_numa_place: what it does (enum xt_numa_status) */
    int numa_node;              /* XT_NUMA_ON: the node the helpers' buffers go on */
    unsigned auto_chose;        /* romio_xt=auto's rows that set their hint (bit k:
                                 * xt_auto_rows[k]; every rank the same) */
};

/* per-file state; NULL for ROMIO's internal files */
static inline struct xt_file *xt_file(ADIO_File fd)
{
    return (struct xt_file *) fd->xt;
}

/* A layer names itself by its registry id, XT_LAYER_<p> (xt_registry.h): every
 * lookup below is O(1).  Find the state once per call and pass it down. */

/* layer id's slot on fd, or NULL when not installed */
static inline struct xt_slot *xt_slot_of(ADIO_File fd, enum xt_layer_id id)
{
    struct xt_file *xf = xt_file(fd);
    return xf ? xf->slot_of[id] : NULL;
}

/* layer id's state on fd (id must be installed on fd) */
static inline void *xt_state(ADIO_File fd, enum xt_layer_id id)
{
    return xt_file(fd)->slot_of[id]->state;
}

/* the table below layer id on fd (id must be installed on fd) */
static inline const ADIOI_Fns *xt_lower(ADIO_File fd, enum xt_layer_id id)
{
    return xt_file(fd)->slot_of[id]->lower;
}

/* add to counter k of layer id (no-op when not installed) */
/* collective, in a layer's open before it starts helper threads: once per
 * file, the cores they run on (romio_xt_helper_cpus, xt_cpus.h) and the
 * NUMA node their buffers go on (romio_xt_numa_place, xt_numa.h) */
void xt_helper_cpus_open(ADIO_File fd);
/* xt_page_alloc for a buffer a helper thread fills: with romio_xt_numa_place
 * enable, its pages are bound to the node of the process that opened fd
 * before anything touches them (any thread, after xt_helper_cpus_open) */
char *xt_page_alloc_near(ADIO_File fd, size_t len);
/* collective, at open after ROMIO read its hints (xt_aggs.c): ROMIO's
 * aggregator list from mode (romio_xt_cb_topology's value), unless
 * users_info gives cb_nodes or cb_config_list */
void xt_topo_open(ADIO_File fd, MPI_Info users_info, int mode);
/* pthread_create for a helper thread of fd's layers (a thread that never
 * calls MPI), on the cores xt_helper_cpus_open found */
int xt_thread_create(ADIO_File fd, pthread_t *t, void *(*fn)(void *), void *arg);

void xt_count(ADIO_File fd, enum xt_layer_id id, int k, int64_t n);
/* Request accounting (the stats record's fs_requests).  The stats layer, on
 * top, counts each contiguous call it passes down as one request of the
 * call's size, unless a layer below noted anything during that call.  So a
 * layer that serves a contiguous call otherwise must, in the application's
 * thread, note each request it issues for it (xt_note_request; that also
 * marks the call handled), or, issuing none now (e.g. served from or into a
 * cache), xt_note_absorbed.  Requests from a background thread:
 * xt_note_request_async (does not mark any call).  A call passed on unchanged
 * to the table below: note nothing.
 *
 * a request a layer issued to the file system itself, bypassing fd->fns, in
 * the application's thread */
void xt_note_request(ADIO_File fd, int is_write, int64_t bytes);
/* the same from a layer's background thread (thread-safe) */
void xt_note_request_async(ADIO_File fd, int is_write, int64_t bytes);
/* a contiguous call a layer absorbed (e.g. into a cache): no request now */
void xt_note_absorbed(ADIO_File fd);
/* a layer that writes to the file itself (pwrite on fd->fd_sys instead of
 * the table below) calls this after the write: every layer's `wrote` hears of
 * it (e.g. the prefetch cache drops the blocks).  len < 0: anything. */
void xt_wrote(ADIO_File fd, ADIO_Offset off, ADIO_Offset len);
/* layer id runs collective call c without the table below: every layer
 * below l hears of it (their coll hook), before (end 0) and after (end 1) */
void xt_coll_notify(ADIO_File fd, enum xt_layer_id id, const struct xt_coll *c, int end);
/* Collective implementations.  A layer that runs a collective call by one of
 * several implementations (Orthrus' candidates) reports, during the call,
 * which one ran it: a number of its own from 1 to XT_COLL_IMPL_MAX (Orthrus:
 * candidate index + 1).  A layer above it (the trace) takes the report after
 * the call, knowing nothing of the layer that made it. */
#define XT_COLL_IMPL_MAX 15
static inline void xt_coll_ran(ADIO_File fd, int impl)
{
    struct xt_file *xf = xt_file(fd);
    if (xf && impl > 0 && impl <= XT_COLL_IMPL_MAX)
        xf->coll_impl = impl;
}

/* the implementation reported since the last take (0: none), forgotten */
static inline int xt_coll_taken(ADIO_File fd)
{
    struct xt_file *xf = xt_file(fd);
    int impl = xf ? xf->coll_impl : 0;
    if (xf)
        xf->coll_impl = 0;
    return impl;
}

/* may layer id read and write fd->fd_sys directly, as far as the layers below
 * it are concerned?  (Whether the file system's driver uses fd_sys is the
 * caller's question.) */
int xt_direct_io_ok(ADIO_File fd, enum xt_layer_id id);
/* does a layer below layer id hold writes back (holds_writes)? */
int xt_writes_held_below(ADIO_File fd, enum xt_layer_id id);

/* the hints files (xt_filehints.c): sys (ROMIO's hints, from the ROMIO_HINTS
 * file's "KEY VALUE" lines) over the site file's lines that apply to fd,
 * and the ROMIO_HINTS file's lines "PATTERN KEY VALUE" that match fd's name
 * over both (an info kept until xt_file_hints_release(fd)), or sys itself
 * when no line applies; publish: the lines that applied, as
 * romio_xt_file_hints (and romio_xt_site_hints) in fd->info */
MPI_Info xt_file_hints(ADIO_File fd, MPI_Info sys);
void xt_file_hints_release(ADIO_File fd);
void xt_file_hints_publish(ADIO_File fd);
/* during fd's open: the site file's path when key's value in xt_file_hints
 * comes from it (no ROMIO_HINTS line sets key), else NULL */
const char *xt_site_hint(ADIO_File fd, const char *key);
/* does info (MPI_INFO_NULL: none) have key? */
int xt_info_has(MPI_Info info, const char *key);

/* hint h's parsed value on fd (the default for ROMIO's internal files) */
const struct xt_hint_value *xt_hint(ADIO_File fd, enum xt_hint_id h);

/* collective hint processing (xt_info.c): does this rank have input for
 * romio-xt (a key of ours or with our prefix; at open a hint's variable)?
 * Then xt_info_apply, on every rank: read the hints (xt_hint_src), agree across ranks in one
 * allreduce (more only when ranks differ), warn once; every rank returns
 * the same xt_pass_end. */
int xt_info_wanted(MPI_Info users_info, int at_open);
/* a file's state: zeroed, with its rank, size and open time (NULL: no memory) */
struct xt_file *xt_file_new(ADIO_File fd);
/* the memory of every layer xf->hints want (xf->nalloc slots); 0 when an
 * allocation failed on this rank (the hint pass agrees on it); free: all of
 * them, stacked or not */
int xt_slots_alloc(struct xt_file *xf);
void xt_slots_free(struct xt_file *xf);
/* where a pass reads each hint: info's, else sys's (the hints files', at
 * open before ROMIO merges them in), else at open its variable; a variable
 * wins over a value of the site file's (xt_site_hint) that user, the
 * program's own info at open, does not give.  unknown: this rank cannot read
 * them yet (the file is read after this allreduce).  romio: an int of
 * ROMIO's that the pass's allreduce carries (MIN), or NULL */
struct xt_hint_src {
    MPI_Info info, sys, user;
    int unknown, *romio;
};
enum xt_pass_end {
    XT_PASS_DONE,               /* xf holds the agreed values (and layers' memory) */
    XT_PASS_NO_INPUT,           /* no rank has input: nothing changed */
    XT_PASS_NO_STATE,           /* a rank with input had no memory: nothing changed */
    XT_PASS_LATER,              /* a rank was unknown: nothing changed */
};
/* *pxf: the file's state; at open NULL, made here on ranks that need it
 * (the caller frees it unless XT_PASS_DONE; then it may be NULL on a rank
 * that ran out of memory, every rank then using no layers) */
enum xt_pass_end xt_info_apply(ADIO_File fd, struct xt_file **pxf, const struct xt_hint_src *src,
                               int at_open);
/* a file without layers, after open (MPI_File_set_info, set_view): the
 * hints change only what MPI_File_get_info shows, so no collective; each
 * rank keeps its own values, rank 0 warns.  Allocates fd's state if needed. */
void xt_info_alone(ADIO_File fd, MPI_Info users_info);
/* xf NULL: the defaults, no layers */
void xt_info_publish(ADIO_File fd, const struct xt_file *xf);
/* under romio_xt=auto, the stats record's "auto": per row, what its hint is
 * and why (auto's choice and the gate, given by a hint, or its needs missing) */
void xt_auto_report(const struct xt_file *xf, struct xt_json *j);
/* rank 0 at close when stats are on: the stats record's "hints", every key
 * and value MPI_File_get_info returns now (ROMIO's and romio-xt's), at most
 * 32 KiB of them ("hints_left_out": the number of keys left out) */
void xt_hints_report(ADIO_File fd, struct xt_json *j);
/* did romio_xt=auto set hint h on fd (not a hint given for it)? */
int xt_auto_chose(ADIO_File fd, enum xt_hint_id h);

/* the registered layers, bottom first */
extern const struct xt_layer *const xt_layers[];
extern const int xt_nlayers;

#endif

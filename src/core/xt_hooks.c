/* romio-xt: the hooks ROMIO calls (see the patches in adio/) and the layer stack. */
#include "xt_layer.h"
#include "xt_fns.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#define XT_COUNT_MEMBER(m) + 1
_Static_assert(0 XT_FNS_MEMBERS(XT_COUNT_MEMBER) + 1 == XT_FNS_COUNT,
               "xt_fns.h lists every ADIOI_Fns member");
_Static_assert(sizeof(ADIOI_Fns) == XT_FNS_COUNT * sizeof(void *),
               "ADIOI_Fns changed upstream: update xt_fns.h");
#undef XT_COUNT_MEMBER

/* set while ROMIO opens a file's shared-file-pointer helper file */
static int xt_opening_internal;

double xt_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

void xt_count(ADIO_File fd, enum xt_layer_id id, int k, int64_t n)
{
    struct xt_slot *slot = xt_slot_of(fd, id);
    if (slot && k >= 0 && k < slot->layer->ncounters)
        __atomic_fetch_add(&slot->counters[k], n, __ATOMIC_RELAXED);
}

void xt_note_request_async(ADIO_File fd, int is_write, int64_t bytes)
{
    struct xt_file *xf = xt_file(fd);
    if (!xf)
        return;
    __atomic_fetch_add(&xf->req_count[!!is_write], 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&xf->req_bytes[!!is_write], bytes, __ATOMIC_RELAXED);
}

void xt_note_request(ADIO_File fd, int is_write, int64_t bytes)
{
    xt_note_request_async(fd, is_write, bytes);
    xt_note_absorbed(fd);
}

void xt_note_absorbed(ADIO_File fd)
{
    struct xt_file *xf = xt_file(fd);
    if (xf)
        xf->handled++;
}

void xt_wrote(ADIO_File fd, ADIO_Offset off, ADIO_Offset len)
{
    struct xt_file *xf = xt_file(fd);
    for (int s = 0; xf && s < xf->nslots; s++)
        if (xf->slots[s].layer->wrote)
            xf->slots[s].layer->wrote(fd, xf->slots[s].state, off, len);
}

void xt_coll_notify(ADIO_File fd, enum xt_layer_id id, const struct xt_coll *c, int end)
{
    struct xt_file *xf = xt_file(fd);
    const struct xt_layer *l = xt_layers[id];
    for (int s = 0; xf && s < xf->nslots && xf->slots[s].layer != l; s++)
        if (xf->slots[s].layer->coll)
            xf->slots[s].layer->coll(fd, xf->slots[s].state, c, end);
}

int xt_direct_io_ok(ADIO_File fd, enum xt_layer_id id)
{
    struct xt_file *xf = xt_file(fd);
    const struct xt_layer *l = xt_layers[id];
    for (int s = 0; xf && s < xf->nslots && xf->slots[s].layer != l; s++)
        if (!xf->slots[s].layer->direct_io_ok)
            return 0;
    return 1;
}

const struct xt_hint_value *xt_hint(ADIO_File fd, enum xt_hint_id h)
{
    static struct xt_hint_value defaults[XT_NHINTS];
    static int init;
    struct xt_file *xf = xt_file(fd);
    if (xf)
        return &xf->hints[h];
    if (!init) {
        for (int k = 0; k < XT_NHINTS; k++)
            xt_hint_default(&xt_hint_defs[k], &defaults[k]);
        init = 1;
    }
    return &defaults[h];
}

/* ROMIO: after every ADIO_SetInfo (open, MPI_File_set_info, set_view) */
void ADIOI_Xt_set_info(ADIO_File fd, MPI_Info users_info)
{
    int at_open = 0;
    struct xt_file *xf = xt_file(fd);
    if (!xf) {
        if (xt_opening_internal)
            return;
        /* every rank having it is agreed by the hints' first allreduce */
        xf = xt_calloc(1, sizeof(*xf));
        if (xf) {
            MPI_Comm_rank(fd->comm, &xf->rank);
            MPI_Comm_size(fd->comm, &xf->nprocs);
            xf->open_time = xt_now();
        }
        at_open = 1;
    }
    if (xt_info_apply(fd, xf, users_info, at_open) != 0) {
        free(xf);               /* only at open: stock ROMIO runs this file */
        return;
    }
    if (at_open)
        fd->xt = xf;            /* ADIOI_Xt_open publishes (with the layers) */
    else
        xt_info_publish(fd, xf);
}

/* one layer's table: its own ops over the table below */
static void stack_table(struct xt_slot *slot, const ADIOI_Fns *lower)
{
    const ADIOI_Fns *ops = slot->layer->ops;
    slot->lower = lower;
    slot->fns = *lower;
#define XT_OVERRIDE(m) if (ops && ops->m) slot->fns.m = ops->m;
    XT_FNS_MEMBERS(XT_OVERRIDE)
#undef XT_OVERRIDE
}

static void free_slot(struct xt_file *xf, struct xt_slot *slot)
{
    if (!xf->arena) {
        free(slot->state);
        free(slot->counters);
    }
}

static void free_slots(struct xt_file *xf)
{
    for (int s = 0; s < xf->nslots; s++)
        free_slot(xf, &xf->slots[s]);
    xf->nslots = 0;
    free(xf->arena);
    xf->arena = NULL;
}

/* every wanted layer's state and counters: from xf->arena (no collective),
 * or allocated, the layers whose allocation failed on some rank (a bit
 * each) agreed with one allreduce for all layers (not one per layer: each
 * costs 0.1-0.5 ms at open with 4 ranks on ch3:sock, 5 of them with every
 * extension on) */
static void alloc_slots(ADIO_File fd, struct xt_file *xf, struct xt_slot *mine)
{
    unsigned failed = 0;
    int wanted = 0;
    _Static_assert(XT_NLAYERS <= 32, "a bit per layer");
    for (int k = 0; k < xt_nlayers; k++) {
        const struct xt_layer *l = xt_layers[k];
        size_t so, co;
        if (!l->wanted(xf))
            continue;
        wanted++;
        mine[k].layer = l;
        if (xf->arena) {
            xt_arena_at(k, &so, &co);
            mine[k].state = (char *) xf->arena + so;
            mine[k].counters = (int64_t *) ((char *) xf->arena + co);
            continue;
        }
        mine[k].state = xt_calloc(1, l->state_size);
        mine[k].counters = xt_calloc(l->ncounters + 1, sizeof(int64_t));
        if (!mine[k].state || !mine[k].counters)
            failed |= 1u << k;
    }
    if (!wanted || xf->arena)
        return;                 /* no collective (no layer, or the arena agreed at open) */
    unsigned all = failed;
    MPI_Allreduce(&failed, &all, 1, MPI_UNSIGNED, MPI_BOR, fd->comm);
    for (int k = 0; k < xt_nlayers; k++) {
        if (!mine[k].layer || !(all & (1u << k)))
            continue;
        xt_warn(fd, XT_WARN_ALL, failed & (1u << k) ? "out of memory (%s)" : NULL,
                mine[k].layer->name);
        free(mine[k].state);
        free(mine[k].counters);
        mine[k].layer = NULL;
    }
}

/* ROMIO: after a successful open, on every rank */
void ADIOI_Xt_open(ADIO_File fd)
{
    struct xt_file *xf = xt_file(fd);
    struct xt_slot mine[XT_NLAYERS] = { 0 };
    xt_opening_internal = 0;
    if (!xf)
        return;
    const ADIOI_Fns *below = fd->fns;
    alloc_slots(fd, xf, mine);
    for (int k = 0; k < xt_nlayers && xf->nslots < XT_MAX_LAYERS; k++) {
        const struct xt_layer *l = mine[k].layer;
        if (!l)
            continue;
        struct xt_slot *slot = &xf->slots[xf->nslots];
        *slot = mine[k];
        stack_table(slot, below);
        xf->nslots++;
        xf->slot_of[k] = slot;
        if (l->open && l->open(fd, slot->state) != 0) {
            xf->nslots--;
            xf->slot_of[k] = NULL;
            free_slot(xf, slot);
            continue;
        }
        below = &slot->fns;
    }
    if (xf->nslots > 0) {
        xf->stock = fd->fns;
        fd->fns = &xf->slots[xf->nslots - 1].fns;
    }
    xt_info_publish(fd, xf);
}

/* ROMIO: first thing in ADIO_Close (and when an open fails), on every rank */
void ADIOI_Xt_close(ADIO_File fd, int *error_code)
{
    struct xt_file *xf = xt_file(fd);
    *error_code = MPI_SUCCESS;
    xt_opening_internal = 0;
    if (!xf)
        return;
    for (int s = xf->nslots - 1; s >= 0; s--) {
        int err = MPI_SUCCESS;
        if (xf->slots[s].layer->close)
            xf->slots[s].layer->close(fd, xf->slots[s].state, &err);
        if (*error_code == MPI_SUCCESS)
            *error_code = err;
    }
    for (int s = 0; s < xf->nslots; s++) {
        int err = MPI_SUCCESS;
        if (xf->slots[s].layer->finish)
            xf->slots[s].layer->finish(fd, xf->slots[s].state, &err);
        if (*error_code == MPI_SUCCESS)
            *error_code = err;
    }
    if (xf->stock)
        fd->fns = xf->stock;
    free_slots(xf);
    free(xf);
    fd->xt = NULL;
}

/* ROMIO: after ADIO_Set_view in MPI_File_set_view, on every rank */
void ADIOI_Xt_set_view(ADIO_File fd, int error_code)
{
    struct xt_file *xf = xt_file(fd);
    for (int s = 0; xf && s < xf->nslots; s++)
        if (xf->slots[s].layer->view)
            xf->slots[s].layer->view(fd, xf->slots[s].state, error_code);
}

/* ROMIO: the table to open fd's shared-file-pointer file with.  That file
 * is ROMIO's own: it gets the stock table and no romio-xt layers. */
ADIOI_Fns *ADIOI_Xt_stock(ADIO_File fd)
{
    struct xt_file *xf = xt_file(fd);
    xt_opening_internal = 1;
    return (xf && xf->stock) ? xf->stock : fd->fns;
}

/* For tests and tools: describes fh's table stack, top first, e.g.
 * "stats>ufs", or "ufs" when fd->fns is the stock UFS table itself.  The
 * bottom is named "ufs" only when it is exactly &ADIO_UFS_operations. */
__attribute__((visibility("default")))
int romioxt_describe_stack(MPI_File fh, char *buf, int len)
{
    ADIO_File fd = MPIO_File_resolve(fh);
    struct xt_file *xf = fd ? xt_file(fd) : NULL;
    const ADIOI_Fns *bottom = (xf && xf->stock) ? xf->stock : (fd ? fd->fns : NULL);
    if (!fd || len <= 0)
        return -1;
    buf[0] = '\0';
    for (int s = xf ? xf->nslots - 1 : -1; s >= 0; s--)
        snprintf(buf + strlen(buf), len - strlen(buf), "%s>", xf->slots[s].layer->name);
    if (xf && xf->nslots && fd->fns != &xf->slots[xf->nslots - 1].fns)
        snprintf(buf + strlen(buf), len - strlen(buf), "?>");
    snprintf(buf + strlen(buf), len - strlen(buf), "%s",
             bottom == &ADIO_UFS_operations ? "ufs" : bottom ? bottom->fsname : "none");
    return 0;
}

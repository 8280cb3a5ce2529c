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

/* set while ROMIO opens a file's shared-file-pointer helper file.  This
 * and the open state below are per thread: MPICH holds ROMIO's global lock
 * over an open, Open MPI's io component opens without it (docs/openmpi.md) */
static _Thread_local int xt_opening_internal;

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

/* every slot below layer id's (the slots run bottom first) */
#define FOR_SLOTS_BELOW(xf, id, s) \
    for (int s = 0; (xf) && s < (xf)->nslots && (xf)->slots[s].layer != xt_layers[id]; s++)

void xt_coll_notify(ADIO_File fd, enum xt_layer_id id, const struct xt_coll *c, int end)
{
    struct xt_file *xf = xt_file(fd);
    FOR_SLOTS_BELOW(xf, id, s)
        if (xf->slots[s].layer->coll)
            xf->slots[s].layer->coll(fd, xf->slots[s].state, c, end);
}

int xt_direct_io_ok(ADIO_File fd, enum xt_layer_id id)
{
    struct xt_file *xf = xt_file(fd);
    FOR_SLOTS_BELOW(xf, id, s)
        if (!xf->slots[s].layer->direct_io_ok)
            return 0;
    return 1;
}

int xt_writes_held_below(ADIO_File fd, enum xt_layer_id id)
{
    struct xt_file *xf = xt_file(fd);
    FOR_SLOTS_BELOW(xf, id, s)
        if (xf->slots[s].layer->holds_writes)
            return 1;
    return 0;
}

const struct xt_hint_value *xt_hint(ADIO_File fd, enum xt_hint_id h)
{
    struct xt_file *xf = xt_file(fd);
    return xf ? &xf->hints[h] : &xt_hint_defaults()[h];
}

int xt_auto_chose(ADIO_File fd, enum xt_hint_id h)
{
    struct xt_file *xf = xt_file(fd);
    for (int k = 0; xf && k < XT_NAUTO; k++)
        if (xt_auto_rows[k].hint == (int) h && (xf->auto_chose & (1u << k)))
            return 1;
    return 0;
}

/* the file ADIO_Open is opening on this thread (from ADIOI_Xt_open_agree
 * to its ADIO_SetInfo), the program's info for it, and whether its pass is
 * over */
static _Thread_local ADIO_File xt_open_fd;
static _Thread_local MPI_Info xt_open_info;
static _Thread_local int xt_open_done;

/* the state a pass at open leaves: fd's own when the pass is done, none
 * when no rank had input (no state, no collectives after) or memory */
static int xt_open_end(ADIO_File fd, struct xt_file *xf, enum xt_pass_end end)
{
    if (end == XT_PASS_DONE) {
        fd->xt = xf;
        if (xf)
            xf->published = 0;
        return 1;
    }
    free(xf);
    return end != XT_PASS_LATER;
}

/* ROMIO: in ADIO_Open instead of its first allreduce (syshints_processed,
 * MIN), which the hint pass's carries.  A rank that has not read the
 * ROMIO_HINTS file yet (its first open) cannot know its hints: then the pass
 * runs at ADIO_SetInfo. */
int ADIOI_Xt_open_agree(ADIO_File fd, MPI_Info info, MPI_Info syshints, int syshints_processed)
{
    int romio = syshints_processed;
    xt_open_fd = fd;
    xt_open_info = info;
    xt_open_done = 1;
    if (xt_opening_internal) {  /* ROMIO's own file: its allreduce only */
        MPI_Allreduce(&syshints_processed, &romio, 1, MPI_INT, MPI_MIN, fd->comm);
        return romio;
    }
    const struct xt_hint_src src = {.info = info,.user = info,
        .sys = syshints == MPI_INFO_NULL ? syshints : xt_file_hints(fd, syshints),
        .unknown = syshints == MPI_INFO_NULL,.romio = &romio
    };
    struct xt_file *xf = NULL;
    const enum xt_pass_end end = xt_info_apply(fd, &xf, &src, 1);
    xt_open_done = xt_open_end(fd, xf, end);
    return romio;
}

/* ROMIO: in ADIO_Open, the system hints that apply to this file: the
 * ROMIO_HINTS file's per-file lines over its global ones (xt_filehints.c) */
MPI_Info ADIOI_Xt_file_hints(ADIO_File fd, MPI_Info syshints)
{
    return xt_opening_internal ? syshints : xt_file_hints(fd, syshints);
}

/* ROMIO: after every ADIO_SetInfo (open, MPI_File_set_info, set_view).  At
 * open the pass usually ran already; after open, a file without layers
 * needs no collective.  At open users_info holds the hints files' lines
 * where ROMIO merged them (ADIOI_Xt_file_hints); ROMIO 3.2.1 merges only
 * ROMIO_HINTS's "KEY VALUE" lines, so the others come as sys. */
void ADIOI_Xt_set_info(ADIO_File fd, MPI_Info users_info)
{
    struct xt_file *xf = xt_file(fd);
    const int at_open = fd == xt_open_fd;
    const struct xt_hint_src src = {.info = users_info,
        .sys = at_open && !xt_opening_internal ? xt_file_hints(fd, MPI_INFO_NULL) : MPI_INFO_NULL,
        .user = at_open ? xt_open_info : MPI_INFO_NULL
    };
    if (at_open)
        xt_open_fd = NULL;
    if (at_open && xt_opening_internal)
        return;
    if (at_open) {
        if (!xt_open_done) {
            const enum xt_pass_end end = xt_info_apply(fd, &xf, &src, 1);
            xt_open_end(fd, xf, end);
        }
        xt_topo_open(fd, users_info, xt_hint(fd, XT_H_CB_TOPOLOGY)->i);
    } else if (xf && xf->nagreed) {
        if (xt_info_apply(fd, &xf, &src, 0) == XT_PASS_DONE)
            xf->published = 0;  /* MPI_File_get_info publishes the new values */
    } else
        xt_info_alone(fd, users_info);
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

/* ROMIO: after a successful open, on every rank: stack the layers whose
 * memory the hint pass allocated (and agreed on: no collective here) */
void ADIOI_Xt_open(ADIO_File fd)
{
    struct xt_file *xf = xt_file(fd);
    xt_opening_internal = 0;
    xt_file_hints_release(fd);
    if (!xf)
        return;
    const ADIOI_Fns *below = fd->fns;
    const int n = xf->nalloc;
    xf->nalloc = xf->nslots = 0;
    for (int s = 0; s < n; s++) {       /* installed ones move down over failed ones */
        struct xt_slot *slot = &xf->slots[xf->nslots];
        const int id = xf->alloc_id[s];
        if (slot != &xf->slots[s])
            *slot = xf->slots[s];
        stack_table(slot, below);
        xf->slot_of[id] = slot;
        if (slot->layer->open && slot->layer->open(fd, slot->state) != 0) {
            xf->slot_of[id] = NULL;
            free(slot->state);
            free(slot->counters);
            continue;
        }
        xf->nslots++;
        below = &slot->fns;
    }
    if (xf->nslots > 0) {
        xf->stock = fd->fns;
        fd->fns = &xf->slots[xf->nslots - 1].fns;
    }
}

/* ROMIO: MPI_File_get_info, before it copies fd->info.  Our hints' values
 * (and the layers) go there on demand: setting ~100 keys at every open cost
 * ~66k instructions (callgrind), a third of an all-extensions open. */
void ADIOI_Xt_get_info(ADIO_File fd)
{
    struct xt_file *xf = xt_file(fd);
    if (xf && xf->published)
        return;
    xt_info_publish(fd, xf);
    if (xf)
        xf->published = 1;
}

/* the most the stats record's hints take: ROMIO's and romio-xt's keys fit */
#define XT_HINTS_REPORT_MAX (32 << 10)

void xt_hints_report(ADIO_File fd, struct xt_json *j)
{
    int nkeys = 0, flag, left = 0;
    char key[MPI_MAX_INFO_KEY + 1], *val = malloc(MPI_MAX_INFO_VAL + 1);
    const size_t start = j->len;
    const int64_t max = xt_test_hook("ROMIO_XT_TEST_HINTS_MAX", XT_HINTS_REPORT_MAX);
    ADIOI_Xt_get_info(fd);
    if (val && fd->info != MPI_INFO_NULL)
        MPI_Info_get_nkeys(fd->info, &nkeys);
    xt_json_open(j, "hints", '{');
    for (int k = 0; k < nkeys; k++) {
        if ((int64_t) (j->len - start) > max) {
            left = nkeys - k;
            break;
        }
        MPI_Info_get_nthkey(fd->info, k, key);
        ADIOI_Info_get(fd->info, key, MPI_MAX_INFO_VAL, val, &flag);
        if (flag)
            xt_json_str(j, key, val);
    }
    xt_json_close(j);
    if (left)
        xt_json_int(j, "hints_left_out", left);
    free(val);
}

/* ROMIO: first thing in ADIO_Close (and when an open fails), on every rank */
void ADIOI_Xt_close(ADIO_File fd, int *error_code)
{
    struct xt_file *xf = xt_file(fd);
    *error_code = MPI_SUCCESS;
    xt_opening_internal = 0;
    xt_file_hints_release(fd);
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
    xt_slots_free(xf);
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

/* romio-xt template layer: passes every call down unchanged.  Copy this
 * folder to start a layer (docs/DEVELOPING.md): its hint (null_hints.def), its
 * sources (module.mk), its tests (test/null/), one line in the registry
 * (src/core/xt_registry.h).  It overrides the contiguous read and write only
 * to count them (its section of the stats record); every other operation is
 * the table below's. */
#include "../core/xt_layer.h"

enum { NULL_C_READS, NULL_C_WRITES, NULL_C_BYTES, NULL_NCOUNTERS };
static const char *const null_counter_names[NULL_NCOUNTERS] = {
    [NULL_C_READS] = "read_contig", [NULL_C_WRITES] = "write_contig", [NULL_C_BYTES] = "bytes",
};

const struct xt_layer null_layer;

static void tally(ADIO_File fd, int k, int count, MPI_Datatype dt)
{
    xt_count(fd, XT_LAYER_null, k, 1);
    xt_count(fd, XT_LAYER_null, NULL_C_BYTES, xt_bytes(count, dt));
}

static void ADIOI_NULL_ReadContig(ADIO_File fd, void *buf, int count, MPI_Datatype dt, int fpt,
                                  ADIO_Offset off, ADIO_Status *status, int *err)
{
    tally(fd, NULL_C_READS, count, dt);
    xt_lower(fd, XT_LAYER_null)->ADIOI_xxx_ReadContig(fd, buf, count, dt, fpt, off, status, err);
}

static void ADIOI_NULL_WriteContig(ADIO_File fd, const void *buf, int count, MPI_Datatype dt,
                                   int fpt, ADIO_Offset off, ADIO_Status *status, int *err)
{
    tally(fd, NULL_C_WRITES, count, dt);
    xt_lower(fd, XT_LAYER_null)->ADIOI_xxx_WriteContig(fd, buf, count, dt, fpt, off, status, err);
}

static const ADIOI_Fns null_ops = {
    .ADIOI_xxx_ReadContig = ADIOI_NULL_ReadContig,
    .ADIOI_xxx_WriteContig = ADIOI_NULL_WriteContig,
};

static int null_wanted(const struct xt_file *xf)
{
    return xf->hints[XT_H_NULL].i == XT_H_NULL_enable;
}

const struct xt_layer null_layer = {
    .name = "null",
    .wanted = null_wanted,
    .ops = &null_ops,
    .counters = null_counter_names,
    .ncounters = NULL_NCOUNTERS,
    .direct_io_ok = 1,          /* it keeps nothing the file lacks */
};

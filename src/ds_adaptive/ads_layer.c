/* romio-xt adaptive data sieving: the layer.  Overrides ReadStrided and
 * WriteStrided (independent noncontiguous I/O, which two-phase also falls
 * back to) when romio_ds_read / romio_ds_write is "adaptive". */
#include "ads.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const ads_counter_names[ADS_NCOUNTERS] = {
    [ADS_C_CALLS] = "calls", [ADS_C_DELEGATED] = "delegated", [ADS_C_COLD_CALLS] = "cold_calls",
    [ADS_C_WINDOWS] = "windows", [ADS_C_READ_BYTES] = "bytes_read",
    [ADS_C_WRITE_BYTES] = "bytes_written", [ADS_C_USEFUL_BYTES] = "useful_bytes",
    [ADS_C_RMW] = "rmw", [ADS_C_THROUGH] = "through_hole", [ADS_C_SPLIT] = "split_at_hole",
    [ADS_C_LOCKED] = "locked_calls",
};

/* romio_ds_read/romio_ds_write is "adaptive" (both have the same choices) */
_Static_assert((int) XT_H_DS_READ_adaptive == (int) XT_H_DS_WRITE_adaptive,
               "romio_ds_read and romio_ds_write have the same choices");
static int is_adaptive(const struct xt_hint_value *v)
{
    return v->i == XT_H_DS_READ_adaptive;
}

static void ADIOI_ADS_ReadStrided(ADIO_File fd, void *buf, int count, MPI_Datatype dt,
                                  int fpt, ADIO_Offset off, ADIO_Status *st, int *err)
{
    if (!is_adaptive(xt_hint(fd, XT_H_DS_READ))) {
        xt_lower(fd, XT_LAYER_ads)->ADIOI_xxx_ReadStrided(fd, buf, count, dt, fpt, off, st, err);
        return;
    }
    ads_strided(fd, buf, count, dt, fpt, off, st, err, 0);
}

static void ADIOI_ADS_WriteStrided(ADIO_File fd, const void *buf, int count, MPI_Datatype dt,
                                   int fpt, ADIO_Offset off, ADIO_Status *st, int *err)
{
    if (!is_adaptive(xt_hint(fd, XT_H_DS_WRITE))) {
        xt_lower(fd, XT_LAYER_ads)->ADIOI_xxx_WriteStrided(fd, buf, count, dt, fpt, off, st, err);
        return;
    }
    ads_strided(fd, (void *) buf, count, dt, fpt, off, st, err, 1);
}

static int ads_wanted(const struct xt_file *xf)
{
    return is_adaptive(&xf->hints[XT_H_DS_READ]) || is_adaptive(&xf->hints[XT_H_DS_WRITE]);
}

static int ads_open(ADIO_File fd, void *state)
{
    struct ads_state *st = state;
    st->method = ads_methods[xt_hint(fd, XT_H_ADS_METHOD)->i];
    st->direct = xt_direct_io_ok(fd, XT_LAYER_ads) && xt_fs_has(fd, XT_FS_PLAIN_RW);
    st->via_lower = !st->direct && xt_fs_has(fd, XT_FS_PLAIN_RW);
    st->cal = ads_calib_defaults;
    st->cal_source = ADS_CAL_NONE;      /* ads_prepare, at the first planned call */
    return 0;
}

static void ads_close(ADIO_File fd, void *state, int *error_code)
{
    struct ads_state *st = state;
    free(st->scratch);
    free(st->pieces);
    st->scratch = NULL;
    st->pieces = NULL;
}

static void ads_report(ADIO_File fd, void *state, struct xt_json *j)
{
    static const char *const sources[] = {
        [ADS_CAL_HINTS] = "hints", [ADS_CAL_CACHE] = "cache", [ADS_CAL_DEVICE] = "device",
        [ADS_CAL_PROBE] = "probe",
        [ADS_CAL_DEFAULTS] = "defaults", [ADS_CAL_NONE] = "none"
    };
    const struct ads_state *st = state;
    xt_json_str(j, "method", st->method->name);
    xt_json_int(j, "direct_io", st->direct);
    xt_json_int(j, "align", st->align);
    xt_json_open(j, "calibration", '{');
    xt_json_str(j, "source", sources[st->cal_source]);
    xt_json_num(j, "read_latency_cold", st->cal.rd_lat_cold);
    xt_json_num(j, "read_bandwidth_cold", st->cal.rd_bw_cold);
    xt_json_num(j, "read_latency_warm", st->cal.rd_lat_warm);
    xt_json_num(j, "read_bandwidth_warm", st->cal.rd_bw_warm);
    xt_json_num(j, "write_latency", st->cal.wr_lat);
    xt_json_num(j, "write_bandwidth", st->cal.wr_bw);
    xt_json_num(j, "write_latency_past_eof", st->cal.wr_lat_eof);
    xt_json_num(j, "read_chunk_cold", st->cal.rd_chunk);
    xt_json_close(j);
}

static const ADIOI_Fns ads_ops = {
    .ADIOI_xxx_ReadStrided = ADIOI_ADS_ReadStrided,
    .ADIOI_xxx_WriteStrided = ADIOI_ADS_WriteStrided,
};

const struct xt_layer ads_layer = {
    .name = "ds_adaptive",
    .wanted = ads_wanted,
    .ops = &ads_ops,
    .state_size = sizeof(struct ads_state),
    .open = ads_open,
    .close = ads_close,
    .counters = ads_counter_names,
    .ncounters = ADS_NCOUNTERS,
    .report = ads_report,
};

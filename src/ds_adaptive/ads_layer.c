/* romio-xt adaptive data sieving: the layer.  Overrides ReadStrided and
 * WriteStrided (independent noncontiguous I/O, which two-phase also falls
 * back to) when romio_ds_read / romio_ds_write is "adaptive". */
#include "ads.h"

#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *const ads_counter_names[ADS_NCOUNTERS] = {
    [ADS_C_CALLS] = "calls", [ADS_C_DELEGATED] = "delegated", [ADS_C_COLD_CALLS] = "cold_calls",
    [ADS_C_WINDOWS] = "windows", [ADS_C_READ_BYTES] = "bytes_read",
    [ADS_C_WRITE_BYTES] = "bytes_written", [ADS_C_USEFUL_BYTES] = "useful_bytes",
    [ADS_C_RMW] = "rmw", [ADS_C_THROUGH] = "through_hole", [ADS_C_SPLIT] = "split_at_hole",
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

static int64_t alignment(ADIO_File fd)
{
    int64_t stripe = xt_hint(fd, XT_H_ADS_STRIPE)->i;
    struct stat sb;
    if (stripe > 0)
        return stripe;
    if (fd->hints->striping_unit > 0)
        return fd->hints->striping_unit;
    if (fd->fd_sys >= 0 && fstat(fd->fd_sys, &sb) == 0 && sb.st_blksize > 0)
        return sb.st_blksize;
    return 4096;
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

void ads_prepare(ADIO_File fd, struct ads_state *st)
{
    if (st->ready)
        return;
    st->ready = 1;
    st->align = alignment(fd);
    ads_calibrate(fd, st);
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
        [ADS_CAL_HINTS] = "hints", [ADS_CAL_CACHE] = "cache", [ADS_CAL_PROBE] = "probe",
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

/* --- calibration --------------------------------------------------------- */

/* Per process, lazily (the first call that plans; contiguous calls and files
 * without one never pay): the last directory's costs, so the opens after the
 * first in a directory cost nothing. */
static struct {
    char key[4200];
    struct ads_calib cal;
} memo;

/* this rank finds (memo, cache) or measures (probe) the costs of fd's
 * directory; the probe runs under the cache's lock, so ranks that start
 * together probe once and the others read its result */
static int calibrate_here(ADIO_File fd, struct ads_calib *cal)
{
    char path[4096], dir[4096], key[4200], cache[4096], why[512];
    snprintf(path, sizeof(path), "%s", fd->filename);
    snprintf(dir, sizeof(dir), "%s", dirname(path));
    int have_key = ads_calib_key(dir, key, sizeof(key)) == 0;
    int have_cache = ads_calib_cache_file(cache, sizeof(cache)) == 0;
    if (have_key && memo.key[0] && strcmp(memo.key, key) == 0) {
        *cal = memo.cal;
        return ADS_CAL_CACHE;
    }
    int source = ADS_CAL_CACHE, lock = -1;
    if (have_key && have_cache && ads_calib_load(cache, key, cal) == 0)
        goto found;
    if (have_key && have_cache && (lock = ads_calib_lock(cache)) >= 0 &&
        ads_calib_load(cache, key, cal) == 0)
        goto found;
    source = ADS_CAL_PROBE;
    if (ads_calib_probe(dir, cal, why, sizeof(why)) != 0) {
        ads_calib_unlock(lock);
        *cal = ads_calib_defaults;
        xt_warn(fd, XT_WARN_SELF, "romio_ads_calibrate: %s; using built-in costs (set "
                "romio_ads_latency and romio_ads_bandwidth to give your own)", why);
        return ADS_CAL_DEFAULTS;
    }
    if (have_key && have_cache)
        ads_calib_save(cache, key, cal);
  found:
    ads_calib_unlock(lock);
    if (have_key) {
        snprintf(memo.key, sizeof(memo.key), "%s", key);
        memo.cal = *cal;
    }
    return source;
}

void ads_calibrate(ADIO_File fd, struct ads_state *st)
{
    double lat = xt_hint(fd, XT_H_ADS_LATENCY)->d, bw = (double) xt_hint(fd, XT_H_ADS_BANDWIDTH)->i;
    int calibrate = xt_hint(fd, XT_H_ADS_CALIBRATE)->i == XT_H_ADS_CALIBRATE_enable;
    st->cal = ads_calib_defaults;
    st->cal_source = ADS_CAL_DEFAULTS;
    if (calibrate && (lat <= 0 || bw <= 0))
        st->cal_source = calibrate_here(fd, &st->cal);
    if (lat > 0) {      /* the user's numbers override the measured ones */
        st->cal.rd_lat_cold = st->cal.rd_lat_warm = st->cal.wr_lat = st->cal.wr_lat_eof = lat;
        st->cal_source = ADS_CAL_HINTS;
    }
    if (bw > 0) {
        st->cal.rd_bw_cold = st->cal.rd_bw_warm = st->cal.wr_bw = bw;
        st->cal_source = ADS_CAL_HINTS;
    }
}

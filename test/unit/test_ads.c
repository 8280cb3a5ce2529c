/* Adaptive data sieving: views, pieces, the planner and its methods, the
 * calibration cache format. */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "unit.h"
#include "../../src/ds_adaptive/ads_view.h"
#include "../../src/ds_adaptive/ads_plan.h"
#include "../../src/ds_adaptive/ads_calib.h"
#include "xt_hints.h"

/* blocks {0:3, 10:0 (a zero-length marker), 10:2, 20:5}, extent 32, base 100 */
static const int64_t idx[] = { 0, 10, 10, 20 }, len[] = { 3, 0, 2, 5 };
static int64_t cum[5];
static struct ads_view v;

static void setup(void)
{
    ck_assert_int_eq(ads_view_init(&v, 100, 32, 4, idx, len, cum), 10);
}

/* brute force: the address of every data byte, tile by tile */
static int64_t brute_addr(int64_t pos)
{
    int64_t t = pos / 10, r = pos % 10;
    for (int i = 0; i < 4; i++) {
        if (r < len[i])
            return 100 + t * 32 + idx[i] + r;
        r -= len[i];
    }
    return -1;
}

START_TEST(addr_matches_brute_force)
{
    setup();
    for (int64_t p = 0; p < 100; p++)
        ck_assert_int_eq(ads_view_addr(&v, p), brute_addr(p));
}
END_TEST

START_TEST(pos_inverts_addr)
{
    setup();
    for (int64_t p = 0; p < 100; p++)
        ck_assert_int_eq(ads_view_pos(&v, ads_view_addr(&v, p)), p);
    /* an address in a hole maps to the next data byte */
    ck_assert_int_eq(ads_view_pos(&v, 100 + 5), 3);
    ck_assert_int_eq(ads_view_pos(&v, 100 + 26), 10);        /* after the last block */
    ck_assert_int_eq(ads_view_pos(&v, 100 + 32 + 12), 15);
}
END_TEST

START_TEST(runs_cover_the_access)
{
    setup();
    struct ads_run_iter it;
    ads_run_begin(&it, &v, 4, 23);
    int64_t a, n, total = 0, prev_end = 0, runs = 0;
    while (ads_run_next(&it, &a, &n)) {
        ck_assert_int_gt(n, 0);
        ck_assert_int_ge(a, prev_end);
        for (int64_t k = 0; k < n; k++)
            ck_assert_int_eq(a + k, brute_addr(4 + total + k));
        total += n;
        prev_end = a + n;
        runs++;
    }
    ck_assert_int_eq(total, 23);
    ck_assert_int_eq(runs, 8);      /* 1 + 3 per tile in between + the last */
}
END_TEST

START_TEST(pieces_cut_by_memory)
{
    setup();
    /* memory: 4 bytes of every 6 */
    static const int64_t midx[] = { 0 }, mlen[] = { 4 };
    int64_t mcum[2];
    struct ads_view m;
    ads_view_init(&m, 1000, 6, 1, midx, mlen, mcum);
    struct ads_piece_iter it;
    struct ads_piece p;
    int64_t total = 0;
    ads_piece_begin(&it, &v, 0, &m, 0, 30);
    while (ads_piece_next(&it, &p)) {
        for (int64_t k = 0; k < p.len; k++) {
            ck_assert_int_eq(p.off + k, brute_addr(total + k));
            ck_assert_int_eq(p.mem + k, 1000 + (total + k) / 4 * 6 + (total + k) % 4);
        }
        total += p.len;
    }
    ck_assert_int_eq(total, 30);
}
END_TEST

static const struct ads_costs costs = {
    .read = {.lat = 100e-6, .bw = 1e9}, .write = {.lat = 2e-6, .bw = 2e9}, .align = 4096
};

/* windows for pieces of `data` bytes every `stride` bytes with method name,
 * under costs c */
static int windows_under(const struct ads_costs *c, int64_t max_window, const char *name,
                         int is_write, int64_t data, int64_t stride, int n, int64_t eof,
                         int64_t *bytes)
{
    struct ads_ctx x = {.c = c, .is_write = is_write, .eof = eof,
        .max_window = max_window, .access_end = (n - 1) * stride + data};
    struct ads_plan p;
    int windows = 0;
    *bytes = 0;
    ads_plan_init(&p, ads_method_find(name), &x, NULL, NULL, NULL, 500);
    for (int k = 0; k < n; k++) {
        if (!ads_plan_join(&p, k * stride, data)) {
            struct ads_window w = ads_plan_window(&p);
            *bytes += w.end - w.start;
            windows++;
            ads_plan_start(&p, k * stride, data);
        }
    }
    struct ads_window w = ads_plan_window(&p);
    *bytes += w.end - w.start;
    return windows + 1;
}

static int count_windows(const char *name, int is_write, int64_t data, int64_t stride,
                         int n, int64_t eof, int64_t *bytes)
{
    return windows_under(&costs, 1 << 20, name, is_write, data, stride, n, eof, bytes);
}

/* cells of the sweep (docs/ds_adaptive.md) where adaptive fell below 0.9x
 * the better stock setting, under the costs this machine's local disk
 * calibrates to when quiet (cold reads 67 us + 2.5 GB/s, writes 2.0 us +
 * 3.5 GB/s, a partial page read first, 4 KiB pages).  Each decision is the
 * one measured fastest in the same cell (ms, 3 runs: naive = piece by
 * piece, stock enable = through the holes):
 * - cold reads, 4 KiB pieces / 256 KiB holes and 1 MiB / 1 MiB: piece by
 *   piece (disable 25 against enable 69; 19.4 against 19.2);
 * - writes into the cold file, whole pages: 64 KiB / 64 KiB, 4 KiB / 32 KiB
 *   and 32 KiB / 4 KiB piece by piece (naive 0.9 against 17 through at
 *   4 KiB / 32 KiB; 0.56 against 6.2 at 32 KiB / 4 KiB): a write of whole
 *   pages reads nothing first;
 * - writes of 64 B pieces with 64 B or 32 KiB holes: through the holes
 *   (enable 9 against 74; 68 against 179): each piece alone would read its
 *   page first. */
START_TEST(adaptive_decides_the_sweeps_weak_cells)
{
    const struct ads_costs cold = {.read = {.lat = 67e-6, .bw = 2.5e9},
        .write = {.lat = 2.0e-6, .bw = 3.5e9}, .append_lat = 5.7e-6, .fill_lat = 67e-6,
        .align = 4096};
    const int64_t eof = 64 << 20, buf = 4 << 20;  /* ind_rd/wr_buffer_size */
    int64_t b;
    ck_assert_int_eq(windows_under(&cold, buf, "adaptive", 0, 4096, 4096 + (256 << 10), 246,
                                   eof, &b), 246);
    ck_assert_int_eq(windows_under(&cold, buf, "adaptive", 0, 1 << 20, 2 << 20, 8, eof, &b), 8);
    ck_assert_int_eq(windows_under(&cold, buf, "adaptive", 1, 65536, 131072, 16, eof, &b), 16);
    ck_assert_int_eq(b, 16 * 65536);
    ck_assert_int_eq(windows_under(&cold, buf, "adaptive", 1, 4096, 36864, 64, eof, &b), 64);
    ck_assert_int_eq(windows_under(&cold, buf, "adaptive", 1, 32768, 36864, 32, eof, &b), 32);
    ck_assert_int_eq(windows_under(&cold, buf, "adaptive", 1, 64, 128, 64, eof, &b), 1);
    ck_assert_int_lt(windows_under(&cold, buf, "adaptive", 1, 64, 32832, 512, eof, &b), 8);
}
END_TEST

/* adaptive writes past the end of file: 1 KiB pieces every 16 KiB, 64 of
 * them (the no-harm grid's strided writer into a new file).  With appending
 * writes as cheap as rewrites (append_lat 0: write.lat, 2 us) the pieces go
 * one by one; when extending the file costs 12 us a write, through the holes */
START_TEST(adaptive_write_past_eof_uses_append_cost)
{
    struct ads_costs c = {.read = {.lat = 1e-6, .bw = 1e9}, .write = {.lat = 2e-6, .bw = 2e9},
        .align = 1};
    for (int k = 0; k < 2; k++) {
        c.append_lat = k ? 12e-6 : 0;
        struct ads_ctx x = {.c = &c, .is_write = 1, .eof = 0, .max_window = 1 << 20,
            .access_end = 63 * 16384 + 1024};
        struct ads_plan p;
        int windows = 1;
        ads_plan_init(&p, ads_method_find("adaptive"), &x, NULL, NULL, NULL, 500);
        for (int j = 0; j < 64; j++)
            if (!ads_plan_join(&p, j * 16384, 1024)) {
                windows++;
                ads_plan_start(&p, j * 16384, 1024);
            }
        ck_assert_int_eq(windows, k ? 1 : 64);
    }
}
END_TEST

/* ads_methods[] is indexed by romio_ads_method's choices */
START_TEST(methods_by_hint_choice)
{
    for (int k = 0; k < XT_H_ADS_METHOD_N; k++)
        ck_assert_int_eq(xt_choice_index(xt_hint_defs[XT_H_ADS_METHOD].choices,
                                         ads_methods[k]->name), k);
}
END_TEST

START_TEST(methods_decide_as_documented)
{
    int64_t b;
    ck_assert_ptr_null(ads_method_find("nope"));
    /* naive: one window per piece with holes, one for contiguous pieces */
    ck_assert_int_eq(count_windows("naive", 0, 8, 64, 100, 1 << 30, &b), 100);
    ck_assert_int_eq(count_windows("naive", 0, 8, 8, 100, 1 << 30, &b), 1);
    /* romio: through every hole; fills the buffer to the end of the access */
    ck_assert_int_eq(count_windows("romio", 0, 8, 64, 100, 1 << 30, &b), 1);
    ck_assert_int_eq(b, 99 * 64 + 8);
    /* model: a 64 KiB hole moves in 65 us < 100 us: through; 1 MiB: split */
    ck_assert_int_eq(count_windows("model", 0, 8, 65536, 10, 1 << 30, &b), 1);
    ck_assert_int_eq(count_windows("model", 0, 8, 1 << 20, 10, 1 << 30, &b), 10);
    /* extent: as model; never past the last piece */
    ck_assert_int_eq(count_windows("extent", 0, 8, 4096, 10, 1 << 30, &b), 1);
    ck_assert_int_eq(b, 9 * 4096 + 8);
    /* adaptive reads: past the end of file holes are free */
    ck_assert_int_eq(count_windows("adaptive", 0, 8, 512 << 10, 2, 8, &b), 1);
    ck_assert_int_eq(count_windows("adaptive", 0, 8, 512 << 10, 2, 1 << 30, &b), 2);
    /* adaptive writes: a 64-byte hole below EOF needs a read-modify-write
     * costing more than a 2 us write: split; beyond EOF: 28 ns, through */
    ck_assert_int_eq(count_windows("adaptive", 1, 8, 72, 10, 1 << 30, &b), 10);
    ck_assert_int_eq(count_windows("adaptive", 1, 8, 72, 10, 0, &b), 1);
}
END_TEST

START_TEST(buffer_bounds_windows_with_holes)
{
    struct ads_ctx x = {.c = &costs, .eof = 1 << 30, .max_window = 100, .access_end = 1000};
    struct ads_plan p;
    ads_plan_init(&p, ads_method_find("romio"), &x, NULL, NULL, NULL, 500);
    ck_assert(ads_plan_join(&p, 0, 10));
    ck_assert(ads_plan_join(&p, 50, 10));
    ck_assert(!ads_plan_join(&p, 95, 10));      /* would end at 105 > 100 */
    /* a read cut only by the buffer reads on to the next piece (the kernel
     * sees one sequential stream); so does a write whose window ends past
     * the end of file (zeros: the file keeps no hole between windows); a
     * write below it, or a gap split, does not */
    ads_plan_init(&p, ads_method_find("extent"), &x, NULL, NULL, NULL, 500);
    ck_assert(ads_plan_join(&p, 0, 10) && ads_plan_join(&p, 50, 10));
    ck_assert(!ads_plan_join(&p, 95, 10));
    ck_assert_int_eq(ads_plan_window(&p).end, 95);
    ck_assert_int_eq(ads_plan_window(&p).holes, 75);
    ads_plan_start(&p, 95, 10);
    ck_assert_int_eq(ads_plan_window(&p).end, 105);
    x.is_write = 1;
    ads_plan_init(&p, ads_method_find("extent"), &x, NULL, NULL, NULL, 500);
    ck_assert(ads_plan_join(&p, 0, 10) && ads_plan_join(&p, 50, 10));
    ck_assert(!ads_plan_join(&p, 95, 10));
    ck_assert_int_eq(ads_plan_window(&p).end, 60);
    for (int k = 0; k < 3; k++) {
        x.eof = k == 0 ? 0 : k == 1 ? 60 : 61;
        ads_plan_init(&p, ads_method_find("extent"), &x, NULL, NULL, NULL, 500);
        ck_assert(ads_plan_join(&p, 0, 10) && ads_plan_join(&p, 50, 10));
        ck_assert(!ads_plan_join(&p, 95, 10));
        ck_assert_int_eq(ads_plan_window(&p).end, k < 2 ? 95 : 60);
    }
    x.eof = 1 << 30;
    x.is_write = 0;
    ads_plan_init(&p, ads_method_find("naive"), &x, NULL, NULL, NULL, 500);
    ck_assert(ads_plan_join(&p, 0, 10));
    ck_assert(!ads_plan_join(&p, 200, 10));
    ck_assert_int_eq(ads_plan_window(&p).end, 10);
    /* contiguous pieces without holes are not bounded by the buffer */
    ads_plan_init(&p, ads_method_find("naive"), &x, NULL, NULL, NULL, 500);
    ck_assert(ads_plan_join(&p, 0, 80));
    ck_assert(ads_plan_join(&p, 80, 80));
    /* the piece limit holds */
    ads_plan_init(&p, ads_method_find("naive"), &x, NULL, NULL, NULL, 2);
    ck_assert(ads_plan_join(&p, 0, 1));
    ck_assert(ads_plan_join(&p, 1, 1));
    ck_assert(!ads_plan_join(&p, 2, 1));
}
END_TEST

static int probes;
static int say_cold(void *arg)
{
    probes++;
    return *(int *) arg;
}

/* the page cache is looked at only when warm and cold costs disagree */
START_TEST(probe_only_when_it_matters)
{
    static const struct ads_costs warm = {.read = {1e-6, 4e9}, .write = {1e-6, 4e9}, .align = 1};
    static const struct ads_costs cold = {.read = {50e-6, 1e9}, .write = {50e-6, 1e9}, .align = 1};
    struct ads_ctx xw = {.c = &warm, .eof = INT64_MAX, .max_window = 1 << 20, .access_end = 1 << 30};
    struct ads_ctx xc = xw;
    xc.c = &cold;
    struct ads_plan p;
    int is_cold = 1;
    probes = 0;
    ads_plan_init(&p, ads_method_find("adaptive"), &xw, &xc, say_cold, &is_cold, 500);
    ck_assert(ads_plan_join(&p, 0, 8));
    ck_assert(ads_plan_join(&p, 100, 8));           /* 92 bytes: through for both */
    ck_assert(!ads_plan_join(&p, 600000, 8));       /* 600 KB: split for both */
    ck_assert_int_eq(probes, 0);
    ads_plan_start(&p, 600000, 8);
    ck_assert(ads_plan_join(&p, 620000, 8));        /* 20 KB: only cold says through */
    ck_assert_int_eq(probes, 1);
    ck_assert(ads_plan_join(&p, 640000, 8));
    ck_assert_int_eq(probes, 1);                    /* once per call */
    is_cold = 0;
    ads_plan_init(&p, ads_method_find("adaptive"), &xw, &xc, say_cold, &is_cold, 500);
    ck_assert(ads_plan_join(&p, 0, 8));
    ck_assert(!ads_plan_join(&p, 20000, 8));        /* warm: a request is cheaper */
    ck_assert_int_eq(probes, 2);
}
END_TEST

START_TEST(alignment_extra_bytes)
{
    ck_assert_int_eq(ads_extra_bytes(100, 8, 4096), 0);         /* inside one block */
    ck_assert_int_eq(ads_extra_bytes(4000, 200, 4096), 0);      /* neighbours' blocks */
    ck_assert_int_eq(ads_extra_bytes(4096, 8192, 4096), 8192);
    ck_assert_int_eq(ads_extra_bytes(100, 8192, 4096), 4096);
    ck_assert_int_eq(ads_extra_bytes(100, 50, 1), 50);
    ck_assert_int_eq(ads_extra_bytes(100, 0, 4096), 0);
}
END_TEST

START_TEST(calibration_lines_round_trip)
{
    struct ads_calib c = {1.5e-5, 1.2e9, 3e-7, 4e9, 2e-6, 3e9, 8e-6, 131072}, d;
    char line[512];
    ads_calib_format(line, sizeof(line), "42:/scratch/run", &c);
    ck_assert_int_eq(ads_calib_parse(line, "42:/scratch/run", &d), 0);
    ck_assert(d.rd_lat_cold == c.rd_lat_cold && d.wr_bw == c.wr_bw && d.rd_bw_warm == c.rd_bw_warm &&
              d.wr_lat_eof == c.wr_lat_eof && d.rd_chunk == c.rd_chunk);
    ck_assert_int_eq(ads_calib_parse(line, "42:/scratch", &d), -1);    /* other key */
    ck_assert_int_eq(ads_calib_parse("garbage", "42:/scratch/run", &d), -1);
    ck_assert_int_eq(ads_calib_parse("0 1 1 1 1 1 1 0 k", "k", &d), -1);  /* zero latency */
    ck_assert_int_eq(ads_calib_parse("1 1 1 1 1 1 0 0 k", "k", &d), -1);  /* zero past EOF */
    ck_assert_int_eq(ads_calib_parse("1 1 1 1 1 1 1 -1 k", "k", &d), -1); /* negative chunk */
    ck_assert_int_eq(ads_calib_parse("1 1 1 1 1 1 1 k", "k", &d), -1);    /* old 7-number line */
    ck_assert_int_eq(ads_calib_parse("1 1 1 1 1 1 1 0 k", "k", &d), 0);
    ck_assert(d.rd_chunk == 0);
}
END_TEST

/* a key matches only a whole line's tail after a space */
START_TEST(calibration_line_key_match)
{
    const char *l = "1 2 3 4 5 6 42:/scratch/run";
    ck_assert(ads_calib_line_is(l, strlen(l), "42:/scratch/run", 15));
    ck_assert(!ads_calib_line_is(l, strlen(l), "2:/scratch/run", 14));    /* no space before */
    ck_assert(!ads_calib_line_is(l, strlen(l), "42:/scratch", 11));
    ck_assert(!ads_calib_line_is("42:/x", 5, "42:/x", 5));                 /* nothing before */
    /* keys carry the probe's version: a line an older probe measured misses */
    char key[4200], old[4300];
    ck_assert_int_eq(ads_calib_key("/", key, sizeof(key)), 0);
    ck_assert(strncmp(key, "v3:", 3) == 0);
    snprintf(old, sizeof(old), "1 2 3 4 5 6 7 %s", strchr(key, ':') + 1);
    ck_assert(!ads_calib_line_is(old, strlen(old), key, strlen(key)));
}
END_TEST

/* save replaces a key's line and keeps the file at ADS_CALIB_KEEP lines,
 * newest kept; load finds the saved values */
/* the page-cache probe counts only pages that hold data: a sparse file's
 * holes read as zeros without the storage (a writer after another rank's
 * 1 KiB pieces every 16 KiB used to see its own range as cold) */
START_TEST(cold_probe_counts_data_pages_only)
{
    char path[] = "/tmp/ads-unit-XXXXXX", piece[1024];
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    unlink(path);
    memset(piece, 7, sizeof(piece));
    ck_assert_int_eq(ftruncate(fd, 1 << 20), 0);
    ck_assert_int_eq(ads_range_cold(fd, 0, 1 << 20), 0);        /* holes only */
    ck_assert_int_eq(pwrite(fd, piece, sizeof(piece), 0), sizeof(piece));
    ck_assert_int_eq(pwrite(fd, piece, sizeof(piece), 16 << 10), sizeof(piece));
    ck_assert_int_eq(lseek(fd, 123, SEEK_SET), 123);
    ck_assert_int_eq(ads_range_cold(fd, 0, 1 << 20), 0);        /* 2 data pages, cached */
    ck_assert_int_eq(lseek(fd, 0, SEEK_CUR), 123);              /* the offset kept */
    close(fd);
}
END_TEST

/* warm after a read, cold after the pages are evicted, warm again after a
 * read (cachestat where the kernel has it, mincore else) */
START_TEST(cold_probe_sees_eviction)
{
    char path[] = "/tmp/ads-unit-XXXXXX", buf[64 << 10];
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    unlink(path);
    memset(buf, 3, sizeof(buf));
    ck_assert_int_eq(pwrite(fd, buf, sizeof(buf), 0), sizeof(buf));
    ck_assert_int_eq(ads_range_cold(fd, 0, sizeof(buf)), 0);
    ck_assert_int_eq(fdatasync(fd), 0);
    ck_assert_int_eq(posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED), 0);
    ck_assert_int_eq(ads_range_cold(fd, 0, sizeof(buf)), 1);
    ck_assert_int_eq(pread(fd, buf, sizeof(buf), 0), sizeof(buf));
    ck_assert_int_eq(ads_range_cold(fd, 0, sizeof(buf)), 0);
    close(fd);
}
END_TEST

START_TEST(calibration_cache_bounded)
{
    char dir[] = "/tmp/ads-unit-XXXXXX", file[256], key[64];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(file, sizeof(file), "%s/sub/ads-calibration", dir);
    struct ads_calib c = {1e-5, 1e9, 1e-7, 4e9, 2e-6, 3e9, 4e-6}, d;
    for (int k = 0; k < 3 * ADS_CALIB_KEEP; k++) {
        snprintf(key, sizeof(key), "7:/d%d", k);
        c.wr_lat = 1e-6 * (k + 1);
        ck_assert_int_eq(ads_calib_save(file, key, &c), 0);
    }
    c.wr_lat = 9e-6;
    ck_assert_int_eq(ads_calib_save(file, key, &c), 0);       /* the newest key again */
    FILE *f = fopen(file, "r");
    char line[512];
    int lines = 0;
    while (f && fgets(line, sizeof(line), f))
        lines++;
    if (f)
        fclose(f);
    ck_assert_int_eq(lines, ADS_CALIB_KEEP);
    ck_assert_int_eq(ads_calib_load(file, key, &d), 0);
    ck_assert(d.wr_lat == 9e-6);
    snprintf(key, sizeof(key), "7:/d%d", 3 * ADS_CALIB_KEEP - ADS_CALIB_KEEP);
    ck_assert_int_eq(ads_calib_load(file, key, &d), 0);          /* still kept */
    ck_assert_int_eq(ads_calib_load(file, "7:/d0", &d), -1);       /* dropped */
    ck_assert_int_eq(ads_calib_load(file, "7:/d1", &d), -1);
    /* a directory not in the cache takes its device's newest line; another
     * device or probe version does not */
    ck_assert_int_eq(ads_calib_save(file, "v2:7:/scratch/a", &c), 0);
    c.wr_lat = 5e-6;
    ck_assert_int_eq(ads_calib_save(file, "v2:7:/scratch/b", &c), 0);
    ck_assert_int_eq(ads_calib_load(file, "v2:7:/scratch/new", &d), -1);
    ck_assert_int_eq(ads_calib_load_device(file, "v2:7:/scratch/new", &d), 0);
    ck_assert(d.wr_lat == 5e-6);
    ck_assert_int_eq(ads_calib_load_device(file, "v2:8:/scratch/new", &d), -1);
    ck_assert_int_eq(ads_calib_load_device(file, "v1:7:/scratch/new", &d), -1);
    ck_assert_int_eq(ads_calib_load_device(file, "nodevice", &d), -1);
    int lk = ads_calib_lock(file);
    ck_assert_int_ge(lk, 0);
    ads_calib_unlock(lk);
    char cmd[300];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* --- the fast path for regular runs -------------------------------------- */

/* segments expand to exactly the pieces ads_piece_next gives; whole blocks of
 * a regular view in one memory run come batched */
static int64_t check_segs_match_pieces(const struct ads_view *f, int64_t fpos,
                                       const struct ads_view *m, int64_t count, int64_t max)
{
    struct ads_piece_iter a, b;
    struct ads_seg s;
    struct ads_piece p;
    int64_t segs = 0, pieces = 0;
    ads_piece_begin(&a, f, fpos, m, 0, count);
    ads_piece_begin(&b, f, fpos, m, 0, count);
    while (ads_seg_next(&a, &s, max)) {
        ck_assert_int_ge(s.count, 1);
        ck_assert_int_le(s.count, max);
        for (int64_t k = 0; k < s.count; k++) {
            ck_assert(ads_piece_next(&b, &p));
            ck_assert_int_eq(p.off, s.off + k * s.stride);
            ck_assert_int_eq(p.mem, s.mem + k * s.mstride);
            ck_assert_int_eq(p.len, s.len);
            pieces++;
        }
        segs++;
    }
    ck_assert(!ads_piece_next(&b, &p));
    ck_assert_int_gt(pieces, 0);
    return segs;
}

START_TEST(segments_batch_regular_views)
{
    /* a vector: 50 blocks of 8 bytes, 24 apart (extent 50 * 24 - 16) */
    int64_t vidx[50], vlen[50], vcum[51], ccum[2], rcum[2], mcum[2];
    for (int i = 0; i < 50; i++) {
        vidx[i] = 24 * i;
        vlen[i] = 8;
    }
    struct ads_view f, c, r, m;
    ads_view_init(&f, 7, 49 * 24 + 8, 50, vidx, vlen, vcum);
    ck_assert_int_eq(f.reg_len, 8);
    ck_assert_int_eq(f.reg_stride, 24);
    ck_assert(!f.reg_tiles);            /* the next tile starts 16 bytes early */
    static const int64_t zero = 0, big = 1 << 20;
    ads_view_init(&c, 5000, big, 1, &zero, &big, ccum);         /* contiguous memory */
    /* one tile of whole blocks: one segment; two tiles: one per tile */
    ck_assert_int_eq(check_segs_match_pieces(&f, 0, &c, 400, 1 << 20), 1);
    ck_assert_int_eq(check_segs_match_pieces(&f, 0, &c, 800, 1 << 20), 2);
    /* starting inside a block, ending inside one: the cut pieces alone */
    ck_assert_int_eq(check_segs_match_pieces(&f, 3, &c, 400, 1 << 20), 3);
    /* at most max pieces per segment */
    ck_assert_int_eq(check_segs_match_pieces(&f, 0, &c, 400, 7), 8);
    /* a resized one-block type: tiles go on regularly, one segment */
    static const int64_t one_len = 8;
    ads_view_init(&r, 0, 24, 1, &zero, &one_len, rcum);
    ck_assert(r.reg_tiles);
    ck_assert_int_eq(check_segs_match_pieces(&r, 0, &c, 800, 1 << 20), 1);
    /* memory in runs of 20 bytes every 32: segments end with the memory runs */
    static const int64_t mlen = 20;
    ads_view_init(&m, 9000, 32, 1, &zero, &mlen, mcum);
    /* per 40 bytes: 2 whole blocks, the 4-byte cut, the other 4, 2 whole */
    ck_assert_int_eq(check_segs_match_pieces(&f, 0, &m, 400, 1 << 20), 40);
    /* irregular views (the zero-length marker): piece by piece */
    setup();
    ck_assert_int_eq(v.reg_len, 0);
    ck_assert_int_eq(check_segs_match_pieces(&v, 0, &c, 30, 1 << 20), 9);
}
END_TEST

struct plan_trace {
    int64_t windows, bytes, holes, through, split;
};

static void trace_window(struct plan_trace *t, const struct ads_plan *p)
{
    struct ads_window w = ads_plan_window(p);
    t->windows++;
    t->bytes += w.end - w.start;
    t->holes += w.holes;
}

/* the rest of a run read piece by piece once the planner says every gap
 * splits (ads_io.c's split_run): windows of one piece each, the last one
 * left as the current window */
static int split_runs;
static int64_t split_rest(struct plan_trace *t, struct ads_plan *p, int64_t k, int64_t data,
                          int64_t stride, int64_t n)
{
    if (!ads_plan_splits(p, data, stride, n - k - 1))
        return k;
    split_runs++;
    for (; k < n - 1; k++) {
        trace_window(t, p);
        ads_plan_start(p, (k + 1) * stride, data);
    }
    return n;
}

/* the planner fed the regular run at once decides as fed piece by piece;
 * by_run 2: and a run that splits at every gap is taken whole */
static struct plan_trace plan_pieces(const struct ads_method *m, const struct ads_ctx *x,
                                     const struct ads_ctx *xc, int *cold, int64_t data,
                                     int64_t stride, int64_t n, int by_run)
{
    struct ads_plan p;
    struct plan_trace t = {0};
    ads_plan_init(&p, m, x, xc, xc ? say_cold : NULL, cold, 128);
    for (int64_t k = 0; k < n;) {
        int64_t j = by_run ? ads_plan_join_run(&p, k * stride, data, stride, n - k)
            : ads_plan_join(&p, k * stride, data);
        ck_assert_int_le(j, n - k);
        k += j;
        if (k < n && (by_run || j == 0)) {  /* piece k does not join */
            trace_window(&t, &p);
            ads_plan_start(&p, k * stride, data);
            k = by_run == 2 ? split_rest(&t, &p, k, data, stride, n) : k;
            k += k < n;
        }
    }
    trace_window(&t, &p);
    t.through = p.through;
    t.split = p.split;
    return t;
}

START_TEST(runs_plan_as_pieces)
{
    static const int64_t datas[] = { 8, 64, 1000 }, strides[] = { 1, 72, 2000, 4096, 8192 + 100, 70000, 102400, 122880 };
    static const int64_t eofs[] = { 0, 50000, INT64_MAX };
    static const struct ads_costs warm = {.read = {1e-6, 4e9}, .write = {1e-6, 4e9}, .align = 1};
    split_runs = 0;
    for (int mi = 0; mi < ads_nmethods; mi++)
        for (int w = 0; w < 2; w++)
            for (int d = 0; d < 3; d++)
                for (int s = 0; s < 8; s++)
                    for (int e = 0; e < 3; e++)
                        for (int withcold = 0; withcold < 2; withcold++) {
            int64_t stride = strides[s] < datas[d] ? datas[d] : datas[d] + strides[s];
            struct ads_ctx x = {.c = &costs, .is_write = w, .eof = eofs[e],
                .max_window = 1 << 20, .access_end = 399 * stride + datas[d]};
            struct ads_ctx xc = x;
            xc.c = &warm;
            int cold = 1;
            probes = 0;
            struct plan_trace a = plan_pieces(ads_methods[mi], &x, withcold ? &xc : NULL, &cold,
                                              datas[d], stride, 400, 0);
            int pa = probes;
            for (int by_run = 1; by_run <= 2; by_run++) {
                probes = 0;
                struct plan_trace b = plan_pieces(ads_methods[mi], &x, withcold ? &xc : NULL,
                                                  &cold, datas[d], stride, 400, by_run);
                ck_assert_msg(a.windows == b.windows && a.bytes == b.bytes &&
                              a.holes == b.holes && a.through == b.through &&
                              a.split == b.split && pa == probes,
                              "%s write=%d data=%ld stride=%ld eof=%ld: %ld/%ld windows "
                              "%ld/%ld bytes %ld/%ld through %ld/%ld split %d/%d probes",
                              ads_methods[mi]->name, w, (long) datas[d], (long) stride,
                              (long) eofs[e], (long) a.windows, (long) b.windows, (long) a.bytes,
                              (long) b.bytes, (long) a.through, (long) b.through, (long) a.split,
                              (long) b.split, pa, probes);
            }
        }
    ck_assert_int_gt(split_runs, 0);
}
END_TEST

/* warm reads of small pieces through holes of 32 KiB and more (the sweep's
 * cells where planning piece by piece cost 10-17%): with this machine's
 * calibration (warm 0.56 us + 26 GB/s by the byte, cold 71 us + 2.6 GB/s
 * in 4 KiB pages) a warm file's run is answered as split at every gap at
 * once, so the call reads it piece by piece without planning each; where
 * cold costs go through the holes (under 256 KiB), the page cache is asked
 * once */
START_TEST(warm_split_runs_answered_once)
{
    static const struct ads_costs warm = {.read = {0.56e-6, 26e9}, .write = {2.2e-6, 5e9},
        .align = 1};
    static const struct ads_costs cold = {.read = {71e-6, 2.6e9}, .write = {2.2e-6, 5e9},
        .fill_lat = 71e-6, .align = 4096};
    static const int64_t cells[][2] = { {8, 1 << 20}, {64, 4 << 20}, {512, 32768},
        {4096, 32768}, {4096, 256 << 10}, {32768, 1 << 20} };
    for (int k = 0; k < 6; k++) {
        int64_t len = cells[k][0], stride = len + cells[k][1];
        struct ads_ctx xw = {.c = &warm, .eof = INT64_MAX, .max_window = 4 << 20,
            .access_end = 63 * stride + len};
        struct ads_ctx xc = xw;
        xc.c = &cold;
        for (int is_cold = 0; is_cold < 2; is_cold++) {
            struct ads_plan p;
            probes = 0;
            ads_plan_init(&p, ads_method_find("adaptive"), &xw, &xc, say_cold, &is_cold, 65536);
            ads_plan_start(&p, 0, len);
            int splits = ads_plan_splits(&p, len, stride, 63);
            int far = cells[k][1] >= (256 << 10);   /* cold costs split too */
            ck_assert_msg(splits == (!is_cold || far), "len %ld hole %ld cold %d", (long) len,
                          (long) cells[k][1], is_cold);
            ck_assert_int_eq(p.split, splits ? 63 : 0);
            ck_assert_int_eq(probes, !far);
        }
    }
    /* never for writes */
    struct ads_ctx xw = {.c = &warm, .is_write = 1, .eof = INT64_MAX, .max_window = 4 << 20,
        .access_end = 1 << 30};
    struct ads_plan p;
    ads_plan_init(&p, ads_method_find("naive"), &xw, NULL, NULL, NULL, 65536);
    ads_plan_start(&p, 0, 8);
    ck_assert(!ads_plan_splits(&p, 8, 1 << 20, 10));
}
END_TEST

/* cold windows are read in chunks only where they continue a stream: the
 * sweep's 1 MiB pieces with 4 MiB holes read whole (each starts a stream of
 * its own: 20 ms in chunks against 12 whole); with 1 MiB or 256 KiB holes,
 * or 32 KiB pieces through 8 B holes in one window, in chunks */
START_TEST(cold_stream_rule)
{
    const int64_t mib = 1 << 20;
    ck_assert(!ads_cold_stream(-1, 4 * mib, mib));         /* the first of far pieces */
    ck_assert(!ads_cold_stream(4 * mib, 4 * mib, mib));
    ck_assert(!ads_cold_stream(4 * mib, -1, mib));         /* the last */
    ck_assert(ads_cold_stream(mib, mib, mib));
    ck_assert(ads_cold_stream(-1, 256 << 10, mib));
    ck_assert(ads_cold_stream(4 * mib, 8, mib));           /* the next one continues it */
    ck_assert(ads_cold_stream(-1, -1, 32 * 32776));        /* the call's only window */
}
END_TEST

Suite *ads_suite(void)
{
    Suite *s = suite_create("ds_adaptive");
    TCase *tc = tcase_create("pure");
    /* ~0.5 s of CPU in all; a niced make check on a loaded machine gets a
     * fraction of a core, and Check's default 4 s is wall-clock */
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, addr_matches_brute_force);
    tcase_add_test(tc, methods_by_hint_choice);
    tcase_add_test(tc, pos_inverts_addr);
    tcase_add_test(tc, runs_cover_the_access);
    tcase_add_test(tc, pieces_cut_by_memory);
    tcase_add_test(tc, methods_decide_as_documented);
    tcase_add_test(tc, adaptive_decides_the_sweeps_weak_cells);
    tcase_add_test(tc, buffer_bounds_windows_with_holes);
    tcase_add_test(tc, alignment_extra_bytes);
    tcase_add_test(tc, probe_only_when_it_matters);
    tcase_add_test(tc, calibration_lines_round_trip);
    tcase_add_test(tc, calibration_line_key_match);
    tcase_add_test(tc, adaptive_write_past_eof_uses_append_cost);
    tcase_add_test(tc, calibration_cache_bounded);
    tcase_add_test(tc, cold_probe_counts_data_pages_only);
    tcase_add_test(tc, cold_probe_sees_eviction);
    tcase_add_test(tc, segments_batch_regular_views);
    tcase_add_test(tc, runs_plan_as_pieces);
    tcase_add_test(tc, warm_split_runs_answered_once);
    tcase_add_test(tc, cold_stream_rule);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_SUITE(ads_suite)

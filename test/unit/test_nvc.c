/* NVM write-behind: the item queue and the cache file format. */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "unit.h"
#include "nvc_store.h"

START_TEST(queue_takes_in_order_and_respects_release)
{
    struct nvc_queue q = { 0 };
    ck_assert_int_eq(nvc_queue_push(&q, 0, 10, 100), 0);
    ck_assert_int_eq(nvc_queue_push(&q, 10, 10, 200), 0);
    ck_assert_int_eq(nvc_queue_take(&q), -1);          /* release mark 0: held back */
    q.release = 1;
    ck_assert_int_eq(nvc_queue_take(&q), 0);
    ck_assert_int_eq(nvc_queue_take(&q), -1);          /* item 1 not released */
    q.release = SIZE_MAX;
    ck_assert_int_eq(nvc_queue_take(&q), 1);           /* disjoint: may run alongside */
    ck_assert(!nvc_queue_idle(&q));
    nvc_queue_done(&q, 1);
    ck_assert_uint_eq(q.low, 0);                        /* item 0 still in flight */
    nvc_queue_done(&q, 0);
    ck_assert_uint_eq(q.low, 2);
    ck_assert(nvc_queue_idle(&q));
    ck_assert_int_eq(q.max_end, 20);
    nvc_queue_free(&q);
}
END_TEST

START_TEST(overlapping_item_waits_for_earlier_one)
{
    struct nvc_queue q = {.release = SIZE_MAX };
    nvc_queue_push(&q, 0, 100, 0);
    nvc_queue_push(&q, 50, 100, 1);     /* overlaps item 0: must land after it */
    nvc_queue_push(&q, 500, 10, 2);
    ck_assert_int_eq(nvc_queue_take(&q), 0);
    ck_assert_int_eq(nvc_queue_take(&q), -1);
    nvc_queue_done(&q, 0);
    ck_assert_int_eq(nvc_queue_take(&q), 1);
    ck_assert_int_eq(nvc_queue_take(&q), 2);
    nvc_queue_free(&q);
}
END_TEST

START_TEST(last_overlap_finds_unsynced_items_only)
{
    struct nvc_queue q = {.release = SIZE_MAX };
    for (int k = 0; k < 5; k++)
        nvc_queue_push(&q, k * 10, 10, k);
    ck_assert_uint_eq(nvc_queue_last_overlap(&q, 15, 10), 3);   /* items 1 and 2 */
    ck_assert_uint_eq(nvc_queue_last_overlap(&q, 100, 10), 0);
    ck_assert_int_eq(nvc_queue_take(&q), 0);
    nvc_queue_done(&q, 0);
    ck_assert_uint_eq(nvc_queue_last_overlap(&q, 0, 5), 0);     /* synced */
    while (nvc_queue_take(&q) >= 0)
        ;
    for (int k = 1; k < 5; k++)
        nvc_queue_done(&q, k);
    nvc_queue_reset(&q);
    ck_assert_uint_eq(q.n, 0);
    ck_assert_uint_eq(q.release, SIZE_MAX);     /* flush_immediate keeps releasing */
    nvc_queue_free(&q);
}
END_TEST

static void fill(char *b, int64_t n, int seed)
{
    for (int64_t i = 0; i < n; i++)
        b[i] = (char) (i * 7 + seed);
}

/* appends two overlapping writes as records, marks the first record synced,
 * and replays: the global file gets the unsynced records in order */
START_TEST(cache_file_replays_unsynced_records_in_order)
{
    char dir[] = "/tmp/nvc-unit-XXXXXX", global[256], cpath[512];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(global, sizeof(global), "%s/global.dat", dir);
    int cfd = nvc_file_create(dir, global, 7, cpath, sizeof(cpath));
    ck_assert_int_ge(cfd, 0);
    ck_assert_ptr_nonnull(strstr(cpath, ".7.global.dat"));
    char a[1000], b[300], want[1000];
    fill(a, sizeof(a), 1);
    fill(b, sizeof(b), 2);
    int64_t tail = NVC_HDR_SIZE, recs[4];
    ck_assert_int_eq(nvc_file_append(cfd, &tail, a, 0, 1000, 400, recs), 0);   /* 3 records */
    ck_assert_int_eq(tail, NVC_HDR_SIZE + 3 * NVC_REC_SIZE + 1000);
    ck_assert_int_eq(nvc_file_append(cfd, &tail, b, 500, 300, 400, recs + 3), 0);
    ck_assert_int_eq(recs[3], NVC_HDR_SIZE + 3 * NVC_REC_SIZE + 1000);
    /* record 0 "synced" with different global contents: replay must skip it */
    ck_assert_int_eq(nvc_file_mark_synced(cfd, recs[0]), 0);
    close(cfd);
    int gfd = open(global, O_RDWR | O_CREAT, 0644);
    char marker[400];
    memset(marker, 'M', sizeof(marker));
    ck_assert_int_eq(pwrite(gfd, marker, 400, 0), 400);
    close(gfd);
    ck_assert_int_eq(nvc_file_replay(cpath, 0, NULL), 3);
    memcpy(want, marker, 400);
    memcpy(want + 400, a + 400, 600);
    memcpy(want + 500, b, 300);
    char got[1000];
    gfd = open(global, O_RDONLY);
    ck_assert_int_eq(pread(gfd, got, 1000, 0), 1000);
    close(gfd);
    ck_assert_int_eq(memcmp(got, want, 1000), 0);
    ck_assert_int_ne(access(cpath, F_OK), 0);   /* removed after replay */
    unlink(global);
    rmdir(dir);
}
END_TEST

START_TEST(replay_rejects_a_foreign_file_and_stops_at_a_torn_record)
{
    char dir[] = "/tmp/nvc-unit-XXXXXX", path[256], global[256], cpath[512];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(path, sizeof(path), "%s/other", dir);
    FILE *f = fopen(path, "w");
    fputs("not a cache file", f);
    fclose(f);
    ck_assert_int_lt(nvc_file_replay(path, 1, NULL), 0);
    snprintf(global, sizeof(global), "%s/g", dir);
    int cfd = nvc_file_create(dir, global, 1, cpath, sizeof(cpath));
    char a[100];
    fill(a, 100, 3);
    int64_t tail = NVC_HDR_SIZE, rec;
    nvc_file_append(cfd, &tail, a, 0, 100, 1000, &rec);
    ck_assert_int_eq(ftruncate(cfd, tail - 1), 0);  /* a record cut short by a crash */
    close(cfd);
    ck_assert_int_eq(nvc_file_replay(cpath, 0, NULL), 0);
    unlink(path);
    unlink(global);
    rmdir(dir);
}
END_TEST

Suite *nvc_suite(void)
{
    Suite *s = suite_create("nvm_cache");
    TCase *tc = tcase_create("store");
    tcase_add_test(tc, queue_takes_in_order_and_respects_release);
    tcase_add_test(tc, overlapping_item_waits_for_earlier_one);
    tcase_add_test(tc, last_overlap_finds_unsynced_items_only);
    tcase_add_test(tc, cache_file_replays_unsynced_records_in_order);
    tcase_add_test(tc, replay_rejects_a_foreign_file_and_stops_at_a_torn_record);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_SUITE(nvc_suite)

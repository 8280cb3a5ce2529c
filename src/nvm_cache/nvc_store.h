/* romio-xt NVM write-behind: the pure parts (no MPI, no ROMIO), unit-tested.
 *
 * nvc_queue: the extents cached and not yet synced, in write order, cut into
 * items of at most one sync chunk.  Sync threads take items in order; an item
 * never starts while an earlier overlapping item is still being copied, so
 * the global file ends up as if the writes had happened in order.
 *
 * The cache file: a header naming the global file, then one record per item
 * (record header + data), appended.  A sync thread marks a record synced
 * once its data is in the global file; romio-xt-recover replays the records
 * not marked, in order (nvc_file_replay). */
#ifndef NVC_STORE_H
#define NVC_STORE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum nvc_item_state { NVC_QUEUED, NVC_INFLIGHT, NVC_DONE };

struct nvc_item {
    int64_t off, len;           /* range in the global file */
    int64_t rec;                /* cache-file offset of its record */
    int state;
};

struct nvc_queue {
    struct nvc_item *v;
    size_t n, cap;
    size_t next;                /* first item not started */
    size_t low;                 /* first item not done */
    size_t release;             /* items below this index may start */
    int64_t max_end;            /* end of the furthest item since the last reset */
};

int nvc_queue_push(struct nvc_queue *q, int64_t off, int64_t len, int64_t rec);
/* the next item that may start (marked in flight), or -1 */
long nvc_queue_take(struct nvc_queue *q);
void nvc_queue_done(struct nvc_queue *q, size_t idx);
int nvc_queue_idle(const struct nvc_queue *q);
/* index + 1 of the last not-done item overlapping [off, off+len), or 0 */
size_t nvc_queue_last_overlap(const struct nvc_queue *q, int64_t off, int64_t len);
/* forget all items (only when idle) */
void nvc_queue_reset(struct nvc_queue *q);
void nvc_queue_free(struct nvc_queue *q);

/* --- the cache file ------------------------------------------------------ */
#define NVC_FILE_MAGIC "ROMIOXT-NVC-1"
#define NVC_HDR_SIZE 8192           /* magic[16], then the global path, NUL-terminated */
#define NVC_REC_MAGIC 0x5243564eu   /* "NVCR" */
#define NVC_REC_SIZE 32

struct nvc_rec {
    uint32_t magic;
    uint32_t synced;
    int64_t off, len;
    int64_t reserved;
};

/* creates DIR/romioxt-nvc.<pid>.<seq>.<basename of global> with its header;
 * returns the open fd and the path, or -errno */
int nvc_file_create(const char *dir, const char *global, int seq, char *path, size_t pathlen);
/* appends buf (len bytes for global offset off) at *tail as records of at
 * most chunk bytes; recs[] gets each record's offset (room for
 * ceil(len/chunk)); *tail advances.  0, or -errno (the file is cut back). */
int nvc_file_append(int cfd, int64_t *tail, const void *buf, int64_t off, int64_t len,
                    int64_t chunk, int64_t *recs);
int nvc_file_mark_synced(int cfd, int64_t rec);
/* copies item data (len bytes of record rec) to gfd at off, with buffer
 * buf of at least len bytes; 0 or -errno */
int nvc_file_copy(int cfd, int64_t rec, int gfd, int64_t off, int64_t len, char *buf);
/* recovery: replays cache file path's unsynced records into the global file
 * it names; removes the cache file unless keep.  Returns the number of
 * records replayed, or -errno; log gets one line. */
long nvc_file_replay(const char *path, int keep, FILE *log);

#endif

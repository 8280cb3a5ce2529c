/* romio-xt adaptive data sieving: a view is a flattened datatype tiled from a
 * base address: block i of tile t covers [base + t*extent + idx[i], +len[i]).
 * The same shape describes the file view (base = displacement) and a
 * noncontiguous memory buffer (base = the buffer).  Pure code, no MPI. */
#ifndef ADS_VIEW_H
#define ADS_VIEW_H

#include <stdint.h>

struct ads_view {
    int64_t base, extent;
    int n;
    const int64_t *idx, *len;
    int64_t *cum;       /* cum[i] = len[0] + ... + len[i-1]; cum[n] = data bytes per tile */
    /* regular views (all blocks reg_len > 0 bytes, reg_stride apart), as from
     * MPI_Type_vector; reg_len 0 otherwise.  reg_tiles: the stride goes on
     * across tiles (extent = n * reg_stride). */
    int64_t reg_len, reg_stride;
    int reg_tiles;
};

/* fills cum (n + 1 entries, caller-owned); returns the data bytes per tile */
int64_t ads_view_init(struct ads_view *v, int64_t base, int64_t extent, int n,
                      const int64_t *idx, const int64_t *len, int64_t *cum);
/* address of data byte pos (pos counts data bytes from the view's start) */
int64_t ads_view_addr(const struct ads_view *v, int64_t pos);
/* data position of the first data byte at or after address addr */
int64_t ads_view_pos(const struct ads_view *v, int64_t addr);

/* walks the contiguous runs of [pos, pos + count): O(1) per run */
struct ads_run_iter {
    const struct ads_view *v;
    int64_t pos, end;
    int64_t tile;       /* tile and block of pos, once started */
    int blk;
    int started;
};
/* next run: its address and length; 0 when done */
int ads_run_next(struct ads_run_iter *it, int64_t *addr, int64_t *len);

/* A piece is a run contiguous both in the file and in memory. */
struct ads_piece {
    int64_t off;        /* file offset */
    int64_t mem;        /* memory address (as an integer) */
    int64_t len;
};

/* walks the pieces of an access: file runs cut by memory runs */
struct ads_piece_iter {
    struct ads_run_iter file, mem;
    int64_t f_addr, f_left, m_addr, m_left;
};
void ads_run_begin(struct ads_run_iter *it, const struct ads_view *v, int64_t pos, int64_t count);
void ads_piece_begin(struct ads_piece_iter *it, const struct ads_view *file, int64_t file_pos,
                     const struct ads_view *mem, int64_t mem_pos, int64_t count);
int ads_piece_next(struct ads_piece_iter *it, struct ads_piece *p);

/* A segment is a regular run of count pieces of len bytes: piece k at file
 * offset off + k * stride and memory address mem + k * mstride.  One piece is
 * a segment of count 1. */
struct ads_seg {
    int64_t off, mem, len, stride, mstride, count;
};
/* the next segment of an access, at most max pieces: whole blocks of a
 * regular file view that follow one another in one memory run come as one
 * segment; everything else piece by piece */
int ads_seg_next(struct ads_piece_iter *it, struct ads_seg *s, int64_t max);

#endif

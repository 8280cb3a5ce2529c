/* What soak.c and soak_h5.c share: the byte pattern every write puts and
 * every read checks, and the HDF5 round (soak_h5.c, built when HDF5's
 * parallel headers are there; run.sh defines SOAK_HDF5 then). */
#ifndef SOAK_H
#define SOAK_H

/* the byte at file offset off in round `round` */
static inline unsigned char soak_pat(long long off, int round)
{
    return (unsigned char) ((off * 131 + round * 7 + (off >> 11)) & 0xff);
}

/* bytes per rank in the HDF5 dataset (one row each) */
enum { SOAK_H5_ROW = 262144 };

/* one HDF5 round on file `path` (created again); buf holds SOAK_H5_ROW
 * bytes; returns the number of bytes that differ (a failed call counts as
 * a whole row) */
long soak_h5_round(const char *path, int rank, int nprocs, int round, unsigned char *buf);

#endif

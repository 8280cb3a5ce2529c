/* The soak's HDF5 round (soak.c): through H5Pset_fapl_mpio on
 * MPI_COMM_WORLD, create a file with a [nprocs][SOAK_H5_ROW] byte dataset,
 * write it collectively (H5FD_MPIO_COLLECTIVE, one row, a hyperslab, per
 * rank), close; reopen read-only, read the next rank's row collectively,
 * verify every byte, close. */
#include <hdf5.h>
#include <mpi.h>
#include <string.h>
#include "soak.h"

/* the offset in the dataset of byte i of rank r's row */
static long long row_off(int r, long i)
{
    return (long long) r * SOAK_H5_ROW + i;
}

/* write (write != 0) or read row r of dataset d collectively from/into buf */
static herr_t xfer_row(hid_t d, int r, int write, unsigned char *buf)
{
    hsize_t start[2] = { (hsize_t) r, 0 }, count[2] = { 1, SOAK_H5_ROW }, n = SOAK_H5_ROW;
    hid_t fs = H5Dget_space(d), ms = H5Screate_simple(1, &n, NULL);
    hid_t dxpl = H5Pcreate(H5P_DATASET_XFER);
    herr_t e = H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL);
    e |= H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_COLLECTIVE);
    if (e >= 0)
        e = write ? H5Dwrite(d, H5T_NATIVE_UCHAR, ms, fs, dxpl, buf)
            : H5Dread(d, H5T_NATIVE_UCHAR, ms, fs, dxpl, buf);
    H5Pclose(dxpl);
    H5Sclose(ms);
    H5Sclose(fs);
    return e;
}

/* create path with the dataset and write rank's row; < 0 on failure */
static herr_t write_file(const char *path, hid_t fapl, int rank, int nprocs, unsigned char *buf)
{
    hsize_t dims[2] = { (hsize_t) nprocs, SOAK_H5_ROW };
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    hid_t space = H5Screate_simple(2, dims, NULL);
    hid_t d = H5Dcreate2(f, "soak", H5T_NATIVE_UCHAR, space, H5P_DEFAULT, H5P_DEFAULT,
                         H5P_DEFAULT);
    herr_t e = f < 0 || d < 0 ? -1 : xfer_row(d, rank, 1, buf);
    H5Dclose(d);
    H5Sclose(space);
    e |= H5Fclose(f);
    return e;
}

/* open path read-only and read row r into buf; < 0 on failure */
static herr_t read_file(const char *path, hid_t fapl, int r, unsigned char *buf)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, fapl);
    hid_t d = H5Dopen2(f, "soak", H5P_DEFAULT);
    herr_t e = f < 0 || d < 0 ? -1 : xfer_row(d, r, 0, buf);
    H5Dclose(d);
    e |= H5Fclose(f);
    return e;
}

long soak_h5_round(const char *path, int rank, int nprocs, int round, unsigned char *buf)
{
    const int next = (rank + 1) % nprocs;
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    long bad = 0;
    for (long i = 0; i < SOAK_H5_ROW; i++)
        buf[i] = soak_pat(row_off(rank, i), round);
    herr_t e = H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL);
    e |= write_file(path, fapl, rank, nprocs, buf);
    memset(buf, 0, SOAK_H5_ROW);
    e |= read_file(path, fapl, next, buf);
    H5Pclose(fapl);
    for (long i = 0; i < SOAK_H5_ROW; i++)
        bad += buf[i] != soak_pat(row_off(next, i), round);
    return e < 0 && bad == 0 ? SOAK_H5_ROW : bad;
}

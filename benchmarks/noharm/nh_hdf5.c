/* No-harm grid kernel through Debian's parallel HDF5 (libhdf5-mpich), run on
 * romio-xt via LD_LIBRARY_PATH: a 1-D dataset of uint32, rank r owns a
 * contiguous block, collective H5Dwrite/H5Dread in 1 MiB transfers
 * (contiguous layout), the four nh_run phases.
 *   nh_hdf5 FILE [MIB_PER_RANK]        (default 16) */
#include <hdf5.h>
#include "nh_common.h"

struct h5 {
    const char *path;
    int rank, np;
    long long bytes;
    uint32_t *buf;
};

static long long h5_phase(int write, int gen, void *ctx)
{
    struct h5 *c = ctx;
    const hsize_t xfer = (1 << 20) / 4, per = c->bytes / 4, total = per * c->np;
    long long bad = 0;
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS), dxpl = H5Pcreate(H5P_DATASET_XFER);
    H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL);
    H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_COLLECTIVE);
    hid_t f = write ? H5Fcreate(c->path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl)
        : H5Fopen(c->path, H5F_ACC_RDONLY, fapl);
    if (f < 0)
        return 1;
    hid_t fs = H5Screate_simple(1, &total, NULL), dcpl = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_obj_track_times(dcpl, 0);    /* no time stamps: files comparable byte for byte */
    hid_t d = write ? H5Dcreate2(f, "data", H5T_NATIVE_UINT32, fs, H5P_DEFAULT, dcpl,
                                 H5P_DEFAULT) : H5Dopen2(f, "data", H5P_DEFAULT);
    H5Pclose(dcpl);
    hid_t ms = H5Screate_simple(1, &xfer, NULL);
    for (hsize_t k = 0; d >= 0 && k < per / xfer; k++) {
        hsize_t start = c->rank * per + k * xfer;
        H5Sselect_hyperslab(fs, H5S_SELECT_SET, &start, NULL, &xfer, NULL);
        if (write) {
            nh_fill(c->buf, k * xfer, xfer, c->rank, gen);
            bad += H5Dwrite(d, H5T_NATIVE_UINT32, ms, fs, dxpl, c->buf) < 0;
        } else {
            memset(c->buf, 0, xfer * 4);
            bad += H5Dread(d, H5T_NATIVE_UINT32, ms, fs, dxpl, c->buf) < 0;
            bad += nh_check(c->buf, k * xfer, xfer, c->rank, gen);
        }
    }
    bad += d < 0 || H5Dclose(d) < 0;
    H5Sclose(ms);
    H5Sclose(fs);
    bad += H5Fclose(f) < 0;
    H5Pclose(dxpl);
    H5Pclose(fapl);
    return bad;
}

int main(int argc, char **argv)
{
    struct h5 c = {0};
    int rc = 2;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &c.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &c.np);
    if (argc >= 2) {
        c.path = argv[1];
        c.bytes = (argc > 2 ? atoll(argv[2]) : 16) << 20;
        c.buf = malloc(1 << 20);
        rc = nh_run("hdf5", c.path, c.bytes, h5_phase, &c);
        free(c.buf);
    } else if (c.rank == 0)
        fprintf(stderr, "usage: nh_hdf5 FILE [MIB_PER_RANK]\n");
    MPI_Finalize();
    return rc;
}

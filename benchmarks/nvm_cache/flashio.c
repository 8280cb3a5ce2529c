/* Flash-IO-like HDF5 checkpoint (the paper's description, scaled down): each
 * rank holds BLOCKS blocks of 8x8x8 zones; each of NVARS variables is one
 * dataset [nprocs*BLOCKS][8][8][8] of doubles, written collectively (one
 * H5Dwrite, i.e. one MPI_File_write_at_all, per variable).  The paper's
 * workflow per file (nvc_timing.h): create + write, compute, H5Fflush
 * (MPI_File_sync), H5Fclose.  Object times are not stored, so two runs give
 * byte-identical files.  After each close every rank reads its part back
 * and checks it.
 * usage: flashio --dir DIR [--files K] [--compute S] [--blocks B] [--nvars V]
 *        [--keep] (keep the files: DIR/flashio.<k>.h5) */
#include "nvc_timing.h"

#include <hdf5.h>
#include <stdlib.h>
#include <string.h>

enum { Z = 8 };

static double value(int v, int rank, size_t n, size_t k, int f)
{
    return v * 1e6 + (double) rank * n + k + f * 0.5;
}

/* reads this rank's part of every variable back (read-only open: stock
 * ROMIO) and compares; 1 on a mismatch */
static int check(const char *path, int nvars, size_t n, int f, int rank, hsize_t *start,
                 hsize_t *count)
{
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL);
    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, fapl);
    double *in = malloc(n * sizeof(double));
    int bad = file < 0;
    for (int v = 0; v < nvars && !bad; v++) {
        char name[32];
        snprintf(name, sizeof(name), "var%02d", v);
        hid_t ds = H5Dopen2(file, name, H5P_DEFAULT), fs = H5Dget_space(ds);
        hid_t ms = H5Screate_simple(4, count, NULL);
        H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL);
        bad |= H5Dread(ds, H5T_NATIVE_DOUBLE, ms, fs, H5P_DEFAULT, in) < 0;
        for (size_t k = 0; k < n && !bad; k++)
            bad = in[k] != value(v, rank, n, k, f);
        H5Sclose(ms);
        H5Sclose(fs);
        H5Dclose(ds);
    }
    if (file >= 0)
        H5Fclose(file);
    H5Pclose(fapl);
    free(in);
    if (bad)
        fprintf(stderr, "flashio: rank %d: %s does not read back\n", rank, path);
    return bad;
}

int main(int argc, char **argv)
{
    const char *dir = ".";
    int files = 4, blocks = 80, nvars = 24, keep = 0, rank, nprocs, bad = 0;
    double compute = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    for (int a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "--keep")) { keep = 1; continue; }
        if (a + 1 >= argc) break;
        if (!strcmp(argv[a], "--dir")) dir = argv[++a];
        else if (!strcmp(argv[a], "--files")) files = atoi(argv[++a]);
        else if (!strcmp(argv[a], "--compute")) compute = atof(argv[++a]);
        else if (!strcmp(argv[a], "--blocks")) blocks = atoi(argv[++a]);
        else if (!strcmp(argv[a], "--nvars")) nvars = atoi(argv[++a]);
    }
    size_t n = (size_t) blocks * Z * Z * Z;
    double *unk = malloc(n * sizeof(double));
    hsize_t dims[4] = { (hsize_t) nprocs * blocks, Z, Z, Z }, start[4] = { (hsize_t) rank * blocks, 0, 0, 0 };
    hsize_t count[4] = { (hsize_t) blocks, Z, Z, Z };
    for (int f = 0; f < files; f++) {
        char path[4096];
        struct nvc_times t = { 0 };
        snprintf(path, sizeof(path), "%s/flashio.%d.h5", dir, f);
        MPI_Barrier(MPI_COMM_WORLD);
        t.t0 = MPI_Wtime();
        hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
        H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL);
        hid_t fcpl = H5Pcreate(H5P_FILE_CREATE);
        hid_t file = H5Fcreate(path, H5F_ACC_TRUNC, fcpl, fapl);
        hid_t dxpl = H5Pcreate(H5P_DATASET_XFER);
        H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_COLLECTIVE);
        hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
        H5Pset_obj_track_times(dcpl, 0);
        H5Pset_alloc_time(dcpl, H5D_ALLOC_TIME_EARLY);
        hid_t fspace = H5Screate_simple(4, dims, NULL), mspace = H5Screate_simple(4, count, NULL);
        H5Sselect_hyperslab(fspace, H5S_SELECT_SET, start, NULL, count, NULL);
        for (int v = 0; v < nvars && !bad; v++) {
            char name[32];
            snprintf(name, sizeof(name), "var%02d", v);
            for (size_t k = 0; k < n; k++)
                unk[k] = value(v, rank, n, k, f);
            hid_t ds = H5Dcreate2(file, name, H5T_NATIVE_DOUBLE, fspace, H5P_DEFAULT, dcpl,
                                  H5P_DEFAULT);
            bad |= ds < 0 || H5Dwrite(ds, H5T_NATIVE_DOUBLE, mspace, fspace, dxpl, unk) < 0;
            H5Dclose(ds);
        }
        t.write = MPI_Wtime() - t.t0;
        nvc_compute(&t, compute);
        double s0 = MPI_Wtime();
        bad |= H5Fflush(file, H5F_SCOPE_GLOBAL) < 0;
        t.sync = MPI_Wtime() - s0;
        s0 = MPI_Wtime();
        H5Sclose(fspace);
        H5Sclose(mspace);
        H5Pclose(dcpl);
        H5Pclose(dxpl);
        H5Pclose(fcpl);
        H5Pclose(fapl);
        bad |= H5Fclose(file) < 0;
        t.close = MPI_Wtime() - s0;
        nvc_report("flashio", f, (long long) nvars * n * sizeof(double) * nprocs, &t, compute, path);
        MPI_Barrier(MPI_COMM_WORLD);
        bad |= check(path, nvars, n, f, rank, start, count);
        if (rank == 0 && !keep)
            unlink(path);
    }
    free(unk);
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0 && bad)
        fprintf(stderr, "flashio: an HDF5 call failed\n");
    MPI_Finalize();
    return bad;
}

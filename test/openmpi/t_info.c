/* romio-xt under Open MPI (test/openmpi/run.sh): MPI_File_get_info shows
 * romio-xt's effective hints after open and after MPI_File_set_view, and the
 * layer stack is the one the hints ask for.  Built with Debian's
 * mpicc.openmpi, run with --mca io romioxt.
 *   t_info FILE
 * Opens FILE with romio_ds_read=adaptive and romio_orthrus=enable, then
 * sets a view with romio_ads_method=extent.  Exit status 1 on any failure. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int errors;

/* key's value in fh's info equals want (want NULL: the key is present) */
static void expect(MPI_File fh, const char *when, const char *key, const char *want)
{
    MPI_Info info;
    char val[MPI_MAX_INFO_VAL + 1] = "";
    int flag = 0;
    MPI_File_get_info(fh, &info);
    MPI_Info_get(info, key, MPI_MAX_INFO_VAL, val, &flag);
    MPI_Info_free(&info);
    if (!flag || (want && strcmp(val, want) != 0)) {
        printf("%s: get_info %s = '%s' (%s), expected '%s'\n", when, key, val,
               flag ? "set" : "absent", want ? want : "any value");
        errors++;
    }
}

int main(int argc, char **argv)
{
    MPI_File fh;
    MPI_Info info;
    int rank, buf[256], all;
    char stack[256] = "";
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Info_create(&info);
    MPI_Info_set(info, "romio_ds_read", "adaptive");
    MPI_Info_set(info, "romio_orthrus", "enable");
    if (MPI_File_open(MPI_COMM_WORLD, argv[1], MPI_MODE_CREATE | MPI_MODE_RDWR, info, &fh)) {
        printf("open failed\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Info_free(&info);
    /* given hints, a romio-xt default never given, ROMIO's own, the layers */
    expect(fh, "open", "romio_ds_read", "adaptive");
    expect(fh, "open", "romio_orthrus", "enable");
    expect(fh, "open", "romio_prefetch", "disable");
    expect(fh, "open", "romio_ads_method", "adaptive");
    expect(fh, "open", "cb_buffer_size", NULL);
    expect(fh, "open", "romio_xt_layers", NULL);

    int (*describe)(MPI_File, char *, int) =
        (int (*)(MPI_File, char *, int)) dlsym(RTLD_DEFAULT, "mca_io_romioxt_describe");
    if (!describe || describe(fh, stack, sizeof(stack)) != 0 ||
        !strstr(stack, "orthrus") || !strstr(stack, "ds_adaptive")) {
        printf("layer stack '%s': expected orthrus and ds_adaptive (describe %s)\n", stack,
               describe ? "found" : "not found");
        errors++;
    }

    MPI_Info_create(&info);
    MPI_Info_set(info, "romio_ads_method", "extent");
    MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", info);
    MPI_Info_free(&info);
    expect(fh, "set_view", "romio_ads_method", "extent");
    expect(fh, "set_view", "romio_ds_read", "adaptive");

    for (int i = 0; i < 256; i++)
        buf[i] = rank * 256 + i;
    MPI_File_write_at_all(fh, rank * 256, buf, 256, MPI_INT, MPI_STATUS_IGNORE);
    memset(buf, 0, sizeof(buf));
    MPI_File_read_at_all(fh, rank * 256, buf, 256, MPI_INT, MPI_STATUS_IGNORE);
    for (int i = 0; i < 256; i++)
        if (buf[i] != rank * 256 + i) {
            printf("read back: int %d is %d\n", i, buf[i]);
            errors++;
            break;
        }
    MPI_File_close(&fh);
    MPI_Allreduce(&errors, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("stack=%s errors=%d\n", stack, all);
    MPI_Finalize();
    return all != 0;
}

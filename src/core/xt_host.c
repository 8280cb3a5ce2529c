/* romio-xt: what libromioxt.so adds to ROMIO's default glue so that it runs
 * inside a host MPI it was not built with (docs/library.md): file error
 * handlers of any kind (user ones too), ROMIO's messages for fatal errors,
 * MPI-5's integer handle conversions, and one lock around ROMIO's calls (MPICH's own is inside MPICH).  Compiled
 * only into the library, never into the patched MPICH, whose glue has these. */
#include "adio.h"
#include "adio_extern.h"

#include <dlfcn.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* --- ROMIO's lock ---------------------------------------------------------- */

static pthread_mutex_t cs_mu;
static pthread_once_t cs_once = PTHREAD_ONCE_INIT;
static _Thread_local int cs_depth;

void xt_greq_drain(void);

static void cs_init(void)
{
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&cs_mu, &a);
    pthread_mutexattr_destroy(&a);
}

void xt_host_cs_enter(void)
{
    pthread_once(&cs_once, cs_init);
    pthread_mutex_lock(&cs_mu);
    cs_depth++;
}

/* the outermost call runs the requests it started (core/xt_greq.c) */
void xt_host_cs_exit(void)
{
    if (cs_depth == 1)
        xt_greq_drain();
    cs_depth--;
    pthread_mutex_unlock(&cs_mu);
}

void xt_host_cs_yield(void)
{
    cs_depth--;
    pthread_mutex_unlock(&cs_mu);
    sched_yield();
    xt_host_cs_enter();
}

/* --- error handlers ---------------------------------------------------------
 * The host creates the handle (its MPI_Errhandler_free frees it); the
 * function behind it is kept here, since no MPI call returns it. */

typedef void xt_file_errfn(MPI_File *, int *, ...);
#define XT_ERRH_MAX 64

static struct {
    MPI_Errhandler eh;
    xt_file_errfn *fn;
} errh[XT_ERRH_MAX];
static int nerrh;
static _Thread_local char last_msg[1024];

/* --- ROMIO's messages -----------------------------------------------------
 * ROMIO names an error by MPICH's keys ("**filenoexist %s"); their texts come
 * from MPICH's errnames.txt (xt_errnames.h, made by scripts/build-lib.sh).
 * The code returned is the error class: a code of the host's own numbering
 * cannot carry a text portably (MPICH 4.0.2 garbles MPI_Add_error_code's
 * codes of predefined classes), so the text is printed only when a handler
 * is fatal. */

static const char *const errnames[][2] = {
#include "xt_errnames.h"
};
/* the conversions of a format, in order ("%s%d"), to match a key's to its text's */
static void conversions(const char *fmt, char *out, size_t n)
{
    size_t k = 0;
    for (const char *p = strchr(fmt, '%'); p && k + 3 < n; p = strchr(p + 2, '%')) {
        out[k++] = '%';
        out[k++] = p[1];
    }
    out[k] = 0;
}

static const char *errname(const char *key)
{
    char a[64], b[64];
    if (key == NULL)
        return NULL;
    for (size_t i = 0; i < sizeof errnames / sizeof errnames[0]; i++)
        if (strcmp(errnames[i][0], key) == 0) {
            conversions(key, a, sizeof a);
            conversions(errnames[i][1], b, sizeof b);
            return strcmp(a, b) == 0 ? errnames[i][1] : NULL;
        }
    return NULL;
}

int xt_host_err_create(int cls, const char *fcname, int line, const char *generic,
                       const char *specific, va_list ap)
{
    char text[MPI_MAX_ERROR_STRING];
    const char *fmt = errname(specific);
    if (fmt)
        vsnprintf(text, sizeof text, fmt, ap);
    else
        snprintf(text, sizeof text, "%s", errname(generic) ? errname(generic)
                 : specific ? specific : generic ? generic : "I/O error");
    snprintf(last_msg, sizeof last_msg, "%s (line %d): %s\n", fcname, line, text);
    return cls;
}

static xt_file_errfn *errh_fn(MPI_Errhandler eh)
{
    for (int i = 0; i < nerrh; i++)
        if (errh[i].eh == eh)
            return errh[i].fn;
    return NULL;
}

static int errh_apply(MPI_File fh, MPI_Errhandler eh, int code, MPI_Comm comm)
{
    xt_file_errfn *fn;
    if (eh == MPI_ERRORS_RETURN)
        return code;
    if ((fn = errh_fn(eh)) != NULL) {
        fn(&fh, &code);
        return code;
    }
    fprintf(stderr, "romio-xt: fatal MPI-IO error (class %d)%s%s", code,
            last_msg[0] ? ": " : "\n", last_msg);
    MPI_Abort(comm, 1);
    return code;
}

int xt_host_err_return_file(MPI_File fh, int code)
{
    MPI_Errhandler eh = fh == MPI_FILE_NULL ? ADIOI_DFLT_ERR_HANDLER : fh->err_handler;
    return errh_apply(fh, eh, code, MPI_COMM_WORLD);
}

int xt_host_err_return_comm(MPI_Comm comm, int code)
{
    MPI_Errhandler eh;
    PMPI_Comm_get_errhandler(comm, &eh);
    if (eh != MPI_ERRORS_RETURN) {
        fprintf(stderr, "romio-xt: fatal MPI-IO error (class %d)%s%s", code,
                last_msg[0] ? ": " : "\n", last_msg);
        PMPI_Abort(comm, 1);
    }
    return code;
}

/* made visible here: the MPI-5 ABI's mpi_abi.h declares MPI's functions
 * without the visibility MPICH's and Open MPI's headers give them */
#define XT_EXPORT __attribute__((visibility("default")))
XT_EXPORT int PMPI_File_create_errhandler(MPI_File_errhandler_function *fn, MPI_Errhandler *eh);
XT_EXPORT int MPI_File_create_errhandler(MPI_File_errhandler_function *fn, MPI_Errhandler *eh);
XT_EXPORT int PMPI_File_call_errhandler(MPI_File fh, int code);
XT_EXPORT int MPI_File_call_errhandler(MPI_File fh, int code);

typedef int host_create_fn(MPI_File_errhandler_function *, MPI_Errhandler *);

int PMPI_File_create_errhandler(MPI_File_errhandler_function *fn, MPI_Errhandler *eh)
{
    host_create_fn *host = (host_create_fn *) dlsym(RTLD_NEXT, "PMPI_File_create_errhandler");
    int rc;
    if (host == NULL || fn == NULL)
        return MPI_ERR_ARG;
    if ((rc = host(fn, eh)) != MPI_SUCCESS)
        return rc;
    xt_host_cs_enter();
    int slot = nerrh;
    for (int i = 0; i < nerrh; i++)
        if (errh[i].eh == *eh)
            slot = i;   /* the host reused a freed handle */
    if (slot == nerrh && nerrh < XT_ERRH_MAX)
        nerrh++;
    if (slot < XT_ERRH_MAX) {
        errh[slot].eh = *eh;
        errh[slot].fn = (xt_file_errfn *) fn;
    } else {
        rc = MPI_ERR_INTERN;
    }
    xt_host_cs_exit();
    return rc;
}

int PMPI_File_set_errhandler(MPI_File fh, MPI_Errhandler eh)
{
    xt_host_cs_enter();
    if (fh == MPI_FILE_NULL)
        ADIOI_DFLT_ERR_HANDLER = eh;
    else if (fh->cookie == ADIOI_FILE_COOKIE)
        fh->err_handler = eh;
    xt_host_cs_exit();
    return fh == MPI_FILE_NULL || fh->cookie == ADIOI_FILE_COOKIE ? MPI_SUCCESS : MPI_ERR_FILE;
}

int PMPI_File_get_errhandler(MPI_File fh, MPI_Errhandler *eh)
{
    if (fh != MPI_FILE_NULL && fh->cookie != ADIOI_FILE_COOKIE)
        return MPI_ERR_FILE;
    *eh = fh == MPI_FILE_NULL ? ADIOI_DFLT_ERR_HANDLER : fh->err_handler;
    return MPI_SUCCESS;
}

int PMPI_File_call_errhandler(MPI_File fh, int code)
{
    if (fh != MPI_FILE_NULL && fh->cookie != ADIOI_FILE_COOKIE)
        return MPI_ERR_FILE;
    errh_apply(fh, fh == MPI_FILE_NULL ? ADIOI_DFLT_ERR_HANDLER : fh->err_handler, code,
               MPI_COMM_WORLD);
    return MPI_SUCCESS;
}

/* MPI-5: a file handle as an int (Fortran's MPI_Fint) and back (no header
 * of an MPI-4 host declares them, so they are made visible here) */
XT_EXPORT int PMPI_File_toint(MPI_File fh);
XT_EXPORT MPI_File PMPI_File_fromint(int i);
XT_EXPORT int MPI_File_toint(MPI_File fh);
XT_EXPORT MPI_File MPI_File_fromint(int i);

int PMPI_File_toint(MPI_File fh)
{
    return (int) PMPI_File_c2f(fh);
}

MPI_File PMPI_File_fromint(int i)
{
    return PMPI_File_f2c((MPI_Fint) i);
}

#pragma weak MPI_File_create_errhandler = PMPI_File_create_errhandler
#pragma weak MPI_File_set_errhandler = PMPI_File_set_errhandler
#pragma weak MPI_File_get_errhandler = PMPI_File_get_errhandler
#pragma weak MPI_File_call_errhandler = PMPI_File_call_errhandler
#pragma weak MPI_File_toint = PMPI_File_toint
#pragma weak MPI_File_fromint = PMPI_File_fromint

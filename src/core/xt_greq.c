/* romio-xt: MPICH's generalized request classes (MPIX_Grequest_class_*),
 * which ROMIO's nonblocking I/O uses, for a host MPI without them (Open MPI
 * 5: libromioxt-ompi.so; docs/library.md).  A request is an ordinary
 * generalized request; since the host's MPI_Wait/MPI_Test cannot call the
 * class's poll function, the MPI-IO call that started it runs it to
 * completion (the class's wait function) before it returns: ROMIO's
 * nonblocking calls complete at once there.  With MPICH (whose mpi.h defines
 * MPICH) there is nothing to do. */
#include "adio.h"

#include <stdlib.h>

void xt_greq_drain(void);

#if defined(MPICH)
void xt_greq_drain(void)
{
}
#else

#define XT_GREQ_CLASSES 16

static struct {
    MPI_Grequest_query_function *query;
    MPI_Grequest_free_function *free;
    MPI_Grequest_cancel_function *cancel;
    MPIX_Grequest_wait_function *wait;
} cls[XT_GREQ_CLASSES];
static int ncls;

struct greq {
    void *state;
    MPIX_Grequest_wait_function *wait;
    struct greq *next;
};
static struct greq *head, **tail = &head;   /* started, not yet run (FIFO) */

int PMPIX_Grequest_class_create(MPI_Grequest_query_function *query_fn,
                                MPI_Grequest_free_function *free_fn,
                                MPI_Grequest_cancel_function *cancel_fn,
                                MPIX_Grequest_poll_function *poll_fn,
                                MPIX_Grequest_wait_function *wait_fn,
                                MPIX_Grequest_class *greq_class)
{
    (void) poll_fn;     /* the wait function polls until done */
    if (ncls == XT_GREQ_CLASSES)
        return MPI_ERR_INTERN;
    cls[ncls].query = query_fn;
    cls[ncls].free = free_fn;
    cls[ncls].cancel = cancel_fn;
    cls[ncls].wait = wait_fn;
    *greq_class = ++ncls;
    return MPI_SUCCESS;
}

int PMPIX_Grequest_class_allocate(MPIX_Grequest_class greq_class, void *extra_state,
                                  MPI_Request *request)
{
    struct greq *g;
    int k = greq_class - 1, rc;
    if (k < 0 || k >= ncls || (g = malloc(sizeof *g)) == NULL)
        return MPI_ERR_INTERN;
    rc = PMPI_Grequest_start(cls[k].query, cls[k].free, cls[k].cancel, extra_state, request);
    if (rc != MPI_SUCCESS) {
        free(g);
        return rc;
    }
    g->state = extra_state;
    g->wait = cls[k].wait;
    g->next = NULL;
    *tail = g;
    tail = &g->next;
    return MPI_SUCCESS;
}

/* under ROMIO's lock, as the outermost MPI-IO call returns */
void xt_greq_drain(void)
{
    struct greq *g;
    while ((g = head) != NULL) {
        head = g->next;
        if (head == NULL)
            tail = &head;
        g->wait(1, &g->state, 0.0, MPI_STATUS_IGNORE);
        free(g);
    }
}
#endif

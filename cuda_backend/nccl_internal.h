/*
 * nccl_internal.h: what nccl_comm.c (communicators: one process, or MPI)
 * and nccl_run.c (running a collective) share (prefix cv_nccl__). Only
 * compiled when CMake found NCCL (COLLVIZ_HAVE_NCCL).
 */
#ifndef CV_NCCL_INTERNAL_H
#define CV_NCCL_INTERNAL_H

#include <cuda_runtime_api.h>
#include <nccl.h>

#include <stdio.h>

#include "cuda_internal.h"

struct cv_nccl {
    int nranks;  /* communicator size */
    int nlocal;  /* ranks this process drives: nranks, or 1 under MPI */
    int first;   /* global rank of local rank 0 */
    int *device; /* CUDA ordinal per local rank */
    ncclComm_t *comm;
    cudaStream_t *stream;
    bool mpi, mpi_initialised_here;
    bool failed; /* NCCL failed: its communicators are aborted, not destroyed */
};

/* Records the failing call and NCCL's own words in err, sets `status` and
 * jumps to the function's `fail:` cleanup (CUDA_CHECK, in cuda_internal.h,
 * does the same for the CUDA runtime). */
#define NCCL_CHECK(call)                                                                   \
    do {                                                                                   \
        ncclResult_t r_ = (call);                                                          \
        if (r_ != ncclSuccess) {                                                           \
            snprintf(err, errlen, "%s: %s", #call, ncclGetErrorString(r_));                \
            status = CV_EBACKEND;                                                          \
            goto fail;                                                                     \
        }                                                                                  \
    } while (0)

/* A cv_nccl with room for nlocal ranks, all handles NULL; NULL when out of
 * memory. */
cv_nccl *cv_nccl__alloc(int nlocal);

/* After a failure: ncclCommAbort on every communicator (destroying one
 * would wait for work that may never finish), which also tells the peers.
 * Later runs on n are refused; close frees what is left. */
void cv_nccl__abort(cv_nccl *n);

/* Waits while a non-blocking communicator (NCCL 2.14 on; MPI's) reports
 * ncclInProgress; returns its state then, or NCCL's error. */
ncclResult_t cv_nccl__settle(ncclComm_t comm);

/* Under MPI, every process must take the same path: returns the worst
 * status of all processes (err says when it was another process's). Without
 * MPI it returns status. */
int cv_nccl__agree(const cv_nccl *n, int status, char *err, size_t errlen);

#endif /* CV_NCCL_INTERNAL_H */

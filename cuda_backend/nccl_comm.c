/*
 * nccl_comm.c: NCCL communicators for `collviz bench --backend nccl`, so
 * NCCL's times can be read beside our plans' (nccl_run.c runs them).
 *
 * One process drives every GPU with ncclCommInitAll; or, under MPI, each
 * process drives one GPU and MPI serves only to broadcast rank 0's
 * ncclUniqueId (the way nccl-tests and most training jobs bootstrap), which
 * is how a run goes beyond one machine. Before anything collective, the
 * processes agree on success (an MPI_Allreduce of the status), so a process
 * that finds no GPU makes all of them return instead of leaving the others
 * hanging in MPI_Bcast or ncclCommInitRank.
 *
 * Builds with a toolkit but without NCCL keep the same functions, which
 * then answer CV_EUNAVAIL.
 */
#include <cuda_runtime_api.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_internal.h"

#ifdef COLLVIZ_HAVE_NCCL
#include "nccl_internal.h"
#endif
#ifdef COLLVIZ_HAVE_MPI
#include <mpi.h>
#endif

bool cv_nccl_have_mpi(void)
{
#ifdef COLLVIZ_HAVE_MPI
    return true;
#else
    return false;
#endif
}

#ifndef COLLVIZ_HAVE_NCCL

/* ------------------------------------------- a toolkit but no NCCL found */

static int no_nccl(char *err, size_t errlen)
{
    int n, status = cv_cuda__device_count(&n, err, errlen);
    if (status != CV_OK)
        return status;
    snprintf(err, errlen, "NCCL unavailable: this collviz was built without NCCL "
                          "(install NCCL and configure with -DNCCL_HOME=...)");
    return CV_EUNAVAIL;
}

int cv_nccl_open(int ranks, cv_nccl **out, char *err, size_t errlen)
{
    *out = NULL;
    return no_nccl(err, errlen);
}
int cv_nccl_open_mpi(cv_nccl **out, char *err, size_t errlen)
{
    *out = NULL;
    return no_nccl(err, errlen);
}
int cv_nccl_ranks(const cv_nccl *nccl) { return 0; }
int cv_nccl_rank(const cv_nccl *nccl) { return 0; }
int cv_nccl_run(cv_nccl *nccl, const cv_spec *spec, int warmup, int iterations, cv_init init,
                uint64_t seed, bool verify, cv_nccl_result *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->wrong = -1;
    return no_nccl(err, errlen);
}
void cv_nccl_close(cv_nccl *nccl) {}
int cv_nccl_bench(const cv_spec *spec, int warmup, int iterations, cv_init init, uint64_t seed,
                  cv_nccl_result *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->wrong = -1;
    return no_nccl(err, errlen);
}

#else

/* ------------------------------------------------------------- helpers */

int cv_nccl__agree(const cv_nccl *n, int status, char *err, size_t errlen)
{
#ifdef COLLVIZ_HAVE_MPI
    if (n->mpi) {
        int worst = status;
        MPI_Allreduce(&status, &worst, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
        if (worst != CV_OK && status == CV_OK)
            snprintf(err, errlen, "another MPI process failed: %s", cv_strerror(worst));
        return worst;
    }
#endif
    return status;
}

cv_nccl *cv_nccl__alloc(int nlocal)
{
    cv_nccl *n = calloc(1, sizeof *n);
    if (!n)
        return NULL;
    n->nlocal = nlocal;
    n->device = calloc((size_t)nlocal, sizeof *n->device);
    n->comm = calloc((size_t)nlocal, sizeof *n->comm);
    n->stream = calloc((size_t)nlocal, sizeof *n->stream);
    if (!n->device || !n->comm || !n->stream) {
        cv_nccl_close(n);
        return NULL;
    }
    return n;
}

void cv_nccl__abort(cv_nccl *n)
{
    n->failed = true;
    for (int i = 0; n->comm && i < n->nlocal; i++)
        if (n->comm[i]) {
            if (n->device)
                cudaSetDevice(n->device[i]);
            ncclCommAbort(n->comm[i]);
            n->comm[i] = NULL;
        }
    cudaGetLastError();
}

void cv_nccl_close(cv_nccl *n)
{
    if (!n)
        return;
    for (int i = 0; i < n->nlocal; i++) {
        if (n->device)
            cudaSetDevice(n->device[i]);
        if (n->stream && n->stream[i])
            cudaStreamDestroy(n->stream[i]);
        if (n->comm && n->comm[i])
            ncclCommDestroy(n->comm[i]);
    }
    cudaGetLastError();
#ifdef COLLVIZ_HAVE_MPI
    if (n->mpi_initialised_here)
        MPI_Finalize();
#endif
    free(n->device);
    free(n->comm);
    free(n->stream);
    free(n);
}

int cv_nccl_ranks(const cv_nccl *n) { return n ? n->nranks : 0; }
int cv_nccl_rank(const cv_nccl *n) { return n ? n->first : 0; }

/* ---------------------------------------------------------- one process */

int cv_nccl_open(int ranks, cv_nccl **out, char *err, size_t errlen)
{
    int visible, status = cv_cuda__device_count(&visible, err, errlen);
    cv_nccl *n = NULL;
    *out = NULL;
    if (status != CV_OK)
        return status;
    if (ranks <= 0)
        ranks = visible;
    if (ranks > visible) {
        snprintf(err, errlen, "NCCL runs one rank per GPU: %d ranks asked, %d GPU%s visible", ranks,
                 visible, visible == 1 ? "" : "s");
        return CV_EINVAL;
    }
    n = cv_nccl__alloc(ranks);
    if (!n) {
        snprintf(err, errlen, "out of host memory opening NCCL");
        return CV_ENOMEM;
    }
    n->nranks = ranks;
    for (int i = 0; i < ranks; i++)
        n->device[i] = i;
    NCCL_CHECK(ncclCommInitAll(n->comm, ranks, n->device));
    for (int i = 0; i < ranks; i++) {
        CUDA_CHECK(cudaSetDevice(n->device[i]));
        CUDA_CHECK(cudaStreamCreateWithFlags(&n->stream[i], cudaStreamNonBlocking));
    }
    *out = n;
    return CV_OK;
fail:
    cv_nccl_close(n);
    return status;
}

int cv_nccl_bench(const cv_spec *spec, int warmup, int iterations, cv_init init, uint64_t seed,
                  cv_nccl_result *out, char *err, size_t errlen)
{
    cv_nccl *n = NULL;
    memset(out, 0, sizeof *out);
    out->wrong = -1;
    int status = cv_nccl_open(spec->ranks, &n, err, errlen);
    if (status == CV_OK)
        status = cv_nccl_run(n, spec, warmup, iterations, init, seed, true, out, err, errlen);
    cv_nccl_close(n);
    return status;
}

/* ------------------------------------------------------------------ MPI */

#ifdef COLLVIZ_HAVE_MPI

/* This process's rank among the processes on its node, which picks its GPU. */
static void node_rank(int world_rank, int *rank, int *size)
{
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, world_rank, MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, rank);
    MPI_Comm_size(node, size);
    MPI_Comm_free(&node);
}

int cv_nccl_open_mpi(cv_nccl **out, char *err, size_t errlen)
{
    int initialised = 0, status = CV_OK, visible = 0, world_rank, world_size, local, local_size;
    cv_nccl *n = NULL;
    ncclUniqueId id;
    *out = NULL;
    MPI_Initialized(&initialised);
    if (!initialised && MPI_Init(NULL, NULL) != MPI_SUCCESS) {
        snprintf(err, errlen, "MPI_Init failed");
        return CV_EUNAVAIL;
    }
    n = cv_nccl__alloc(1);
    if (!n) {
        snprintf(err, errlen, "out of host memory opening NCCL");
        if (!initialised)
            MPI_Finalize();
        return CV_ENOMEM;
    }
    n->mpi = true;
    n->mpi_initialised_here = !initialised;
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &world_size);
    node_rank(world_rank, &local, &local_size);
    n->nranks = world_size;
    n->first = world_rank;

    status = cv_cuda__device_count(&visible, err, errlen);
    if (status == CV_OK && local_size > visible) {
        snprintf(err, errlen, "NCCL runs one process per GPU: %d processes on this node, %d GPU%s",
                 local_size, visible, visible == 1 ? "" : "s");
        status = CV_EINVAL;
    }
    if (status == CV_OK) {
        n->device[0] = local;
        cudaError_t e = cudaSetDevice(local);
        if (e != cudaSuccess) {
            snprintf(err, errlen, "cudaSetDevice(%d): %s", local, cudaGetErrorString(e));
            status = CV_EBACKEND;
        }
    }
    if (status == CV_OK && world_rank == 0) {
        ncclResult_t r = ncclGetUniqueId(&id);
        if (r != ncclSuccess) {
            snprintf(err, errlen, "ncclGetUniqueId: %s", ncclGetErrorString(r));
            status = CV_EBACKEND;
        }
    }
    status = cv_nccl__agree(n, status, err, errlen);
    if (status != CV_OK)
        goto fail;
    MPI_Bcast(&id, (int)sizeof id, MPI_BYTE, 0, MPI_COMM_WORLD);
    /* No jumps from here to the agreement: every process must reach it. */
    ncclResult_t r = ncclCommInitRank(&n->comm[0], world_size, id, world_rank);
    if (r != ncclSuccess) {
        snprintf(err, errlen, "ncclCommInitRank: %s", ncclGetErrorString(r));
        status = CV_EBACKEND;
    } else {
        cudaError_t e = cudaStreamCreateWithFlags(&n->stream[0], cudaStreamNonBlocking);
        if (e != cudaSuccess) {
            snprintf(err, errlen, "cudaStreamCreateWithFlags: %s", cudaGetErrorString(e));
            status = CV_EBACKEND;
        }
    }
    status = cv_nccl__agree(n, status, err, errlen);
    if (status != CV_OK)
        goto fail;
    *out = n;
    return CV_OK;
fail:
    cv_nccl_close(n); /* finalises MPI if it was initialised here */
    return status;
}

#else

int cv_nccl_open_mpi(cv_nccl **out, char *err, size_t errlen)
{
    *out = NULL;
    snprintf(err, errlen, "MPI unavailable: this collviz was built without MPI "
                          "(install an MPI such as libopenmpi-dev and reconfigure)");
    return CV_EUNAVAIL;
}

#endif /* COLLVIZ_HAVE_MPI */

#endif /* COLLVIZ_HAVE_NCCL */

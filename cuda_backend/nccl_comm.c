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
#include <time.h>

#include "cuda_internal.h"
#include "cv_mpi.h"

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

/* The launcher's variables are read in one place, for both MPI backends
 * (collectives/cv_mpi.c). */
bool cv_nccl_mpi_launched(void) { return cv_mpi_launched(); }

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

int cv_nccl_create(int ranks, cv_nccl **out, char *err, size_t errlen)
{
    *out = NULL;
    return no_nccl(err, errlen);
}
int cv_nccl_create_mpi(cv_nccl **out, char *err, size_t errlen)
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
void cv_nccl_destroy(cv_nccl *nccl) {}
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
        cv_nccl_destroy(n);
        return NULL;
    }
    return n;
}

ncclResult_t cv_nccl__settle(ncclComm_t comm)
{
    const struct timespec nap = {0, 50 * 1000}; /* 50 us */
    for (;;) {
        ncclResult_t state = ncclSuccess, r = ncclCommGetAsyncError(comm, &state);
        if (r != ncclSuccess)
            return r;
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 14, 0)
        if (state == ncclInProgress) {
            nanosleep(&nap, NULL);
            continue;
        }
#endif
        return state;
    }
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

void cv_nccl_destroy(cv_nccl *n)
{
    if (!n)
        return;
    for (int i = 0; i < n->nlocal; i++) {
        if (n->device)
            cudaSetDevice(n->device[i]);
        if (n->stream && n->stream[i])
            cudaStreamDestroy(n->stream[i]);
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 14, 0)
        /* A non-blocking communicator (MPI's) finishes its work first. */
        if (n->mpi && n->comm && n->comm[i] && ncclCommFinalize(n->comm[i]) == ncclInProgress)
            cv_nccl__settle(n->comm[i]);
#endif
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

int cv_nccl_create(int ranks, cv_nccl **out, char *err, size_t errlen)
{
    int visible, status = cv_cuda__device_count(&visible, err, errlen);
    cv_nccl *n = NULL;
    *out = NULL;
    if (status != CV_OK)
        return status;
    if (ranks <= 0)
        ranks = visible;
    if (ranks > visible) { /* the machine cannot run it: exit 3, as for a missing GPU */
        snprintf(err, errlen, "NCCL runs one rank per GPU: %d ranks asked, %d GPU%s visible "
                 "(--backend cuda runs several ranks on one GPU)", ranks, visible,
                 visible == 1 ? "" : "s");
        return CV_EUNAVAIL;
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
    cv_nccl_destroy(n);
    return status;
}

int cv_nccl_bench(const cv_spec *spec, int warmup, int iterations, cv_init init, uint64_t seed,
                  cv_nccl_result *out, char *err, size_t errlen)
{
    cv_nccl *n = NULL;
    memset(out, 0, sizeof *out);
    out->wrong = -1;
    int status = cv_nccl_create(spec->ranks, &n, err, errlen);
    if (status == CV_OK)
        status = cv_nccl_run(n, spec, warmup, iterations, init, seed, true, out, err, errlen);
    cv_nccl_destroy(n);
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

#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 14, 0)

enum { TAG_INIT_FAILED = 7301 };

/* ncclCommInitRank is collective: a process whose init fails leaves the
 * others waiting for it inside theirs, forever. So the init does not
 * block (NCCL 2.14's ncclConfig_t.blocking = 0): each process polls its
 * own init and, on a side communicator, for word that another process
 * failed, in which case it aborts its own. A process that fails tells
 * every other one before it goes on to the agreement; afterwards each
 * process receives exactly the messages sent to it, so none is left
 * behind. */
static int init_rank(cv_nccl *n, ncclUniqueId id, int rank, int size, char *err, size_t errlen)
{
    const struct timespec nap = {0, 100 * 1000}; /* 100 us */
    MPI_Comm side;
    MPI_Request *sent = calloc((size_t)size, sizeof *sent);
    int status = CV_OK, failed_here = 0, failed = 0, word = 1;
    MPI_Comm_dup(MPI_COMM_WORLD, &side);
    ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
    config.blocking = 0;
    ncclResult_t r = ncclCommInitRankConfig(&n->comm[0], size, id, rank, &config);
    while (r == ncclInProgress || (r == ncclSuccess && n->comm[0])) {
        ncclResult_t state = ncclSuccess;
        r = ncclCommGetAsyncError(n->comm[0], &state);
        if (r == ncclSuccess)
            r = state;
        if (r != ncclInProgress)
            break;
        int flag = 0;
        MPI_Iprobe(MPI_ANY_SOURCE, TAG_INIT_FAILED, side, &flag, MPI_STATUS_IGNORE);
        if (flag) {
            snprintf(err, errlen, "another MPI process failed to initialise NCCL");
            status = CV_EBACKEND;
            break;
        }
        nanosleep(&nap, NULL);
    }
    if (status == CV_OK && r != ncclSuccess) {
        snprintf(err, errlen, "ncclCommInitRank: %s", ncclGetErrorString(r));
        status = CV_EBACKEND;
        failed_here = 1;
        for (int p = 0; sent && p < size; p++)
            sent[p] = MPI_REQUEST_NULL;
        for (int p = 0; p < size; p++) /* a word each: eager, even by MPI_Send */
            if (p != rank && sent)
                MPI_Isend(&word, 1, MPI_INT, p, TAG_INIT_FAILED, side, &sent[p]);
            else if (p != rank)
                MPI_Send(&word, 1, MPI_INT, p, TAG_INIT_FAILED, side);
    }
    if (status != CV_OK)
        cv_nccl__abort(n); /* an init in progress too: NCCL allows aborting it */
    MPI_Allreduce(&failed_here, &failed, 1, MPI_INT, MPI_SUM, side);
    for (int k = 0; k < failed - failed_here; k++) {
        int w;
        MPI_Recv(&w, 1, MPI_INT, MPI_ANY_SOURCE, TAG_INIT_FAILED, side, MPI_STATUS_IGNORE);
    }
    if (failed_here && sent)
        MPI_Waitall(size, sent, MPI_STATUSES_IGNORE);
    free(sent);
    MPI_Comm_free(&side);
    return status;
}

#else

/* Before NCCL 2.14 the init blocks, and a process whose init fails cannot
 * reach the others waiting inside theirs: it ends them all (exit 3, as a
 * backend that cannot run) rather than leave them hanging. */
static int init_rank(cv_nccl *n, ncclUniqueId id, int rank, int size, char *err, size_t errlen)
{
    ncclResult_t r = ncclCommInitRank(&n->comm[0], size, id, rank);
    if (r == ncclSuccess)
        return CV_OK;
    fprintf(stderr, "collviz: --backend nccl: ncclCommInitRank on rank %d: %s; ending every "
            "process\n", rank, ncclGetErrorString(r));
    MPI_Abort(MPI_COMM_WORLD, 3);
    snprintf(err, errlen, "ncclCommInitRank: %s", ncclGetErrorString(r));
    return CV_EBACKEND;
}

#endif

int cv_nccl_create_mpi(cv_nccl **out, char *err, size_t errlen)
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
    long launched = cv_mpi_launcher_size();
    if (world_size == 1 && launched > 1) {
        /* srun without --mpi=pmix, say: each process is alone in its world */
        snprintf(err, errlen, "MPI sees 1 process but the launcher started %ld: this MPI cannot "
                 "reach the launcher's process manager (with Slurm, try srun --mpi=pmix)",
                 launched);
        status = CV_EUNAVAIL;
    }
    if (status == CV_OK && local_size > visible) {
        snprintf(err, errlen, "NCCL runs one process per GPU: %d processes on this node, %d GPU%s",
                 local_size, visible, visible == 1 ? "" : "s");
        status = CV_EUNAVAIL;
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
    status = init_rank(n, id, world_rank, world_size, err, errlen);
    if (status == CV_OK) {
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
    cv_nccl_destroy(n); /* finalises MPI if it was initialised here */
    return status;
}

#else

int cv_nccl_create_mpi(cv_nccl **out, char *err, size_t errlen)
{
    *out = NULL;
    snprintf(err, errlen, "MPI unavailable: this collviz was built without MPI "
                          "(install an MPI such as libopenmpi-dev and reconfigure)");
    return CV_EUNAVAIL;
}

#endif /* COLLVIZ_HAVE_MPI */

#endif /* COLLVIZ_HAVE_NCCL */

/*
 * nccl_run.c: one collective through NCCL, timed and verified, for the
 * communicators of nccl_comm.c.
 *
 * Buffers follow cv_spec_buf_count, whose layouts are NCCL's. The ops NCCL
 * has as collectives call them; alltoall, gather, scatter and sendrecv are
 * grouped ncclSend/ncclRecv, as nccl-tests writes them, which runs on any
 * NCCL since 2.7. Timing follows nccl-tests too: every timed iteration
 * launched, one synchronisation, wall time divided by the iterations (under
 * MPI, the slowest process's). Avg goes to NCCL as ncclAvg on the inputs
 * as given: NCCL scales floats itself, so the pre-multiply our plans need
 * does not apply here.
 *
 * Verification compares with cv_verify against the inputs of cv_fill_input,
 * the same the plans are checked against. Under MPI rank 0 regenerates
 * every rank's inputs, receives every rank's outputs, and shares the count;
 * it allocates first and all processes agree before any output is sent, so
 * rank 0 running out of memory cannot leave the senders blocked.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nccl_internal.h"

#ifdef COLLVIZ_HAVE_MPI
#include <mpi.h>
#endif

typedef struct {
    int64_t nsend, nrecv; /* elements (0 where NCCL leaves the buffer unused) */
    char *send, *recv;    /* device; never NULL, so NCCL's argument checks pass */
} rank_bufs;

static bool nccl_type(cv_dtype dtype, ncclDataType_t *out)
{
    switch (dtype) {
    case CV_INT8: *out = ncclInt8; return true;
    case CV_INT32: *out = ncclInt32; return true;
    case CV_INT64: *out = ncclInt64; return true;
    case CV_FLOAT16: *out = ncclFloat16; return true;
    case CV_BFLOAT16: *out = ncclBfloat16; return true;
    case CV_FLOAT32: *out = ncclFloat32; return true;
    case CV_FLOAT64: *out = ncclFloat64; return true;
    default: return false;
    }
}

static bool nccl_op(cv_redop redop, ncclRedOp_t *out)
{
    switch (redop) {
    case CV_SUM: *out = ncclSum; return true;
    case CV_PROD: *out = ncclProd; return true;
    case CV_MIN: *out = ncclMin; return true;
    case CV_MAX: *out = ncclMax; return true;
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 10, 0)
    case CV_AVG: *out = ncclAvg; return true; /* NCCL 2.10 added it */
#endif
    default: return false; /* band, bor, bxor: NCCL has none */
    }
}

/* Enqueues rank's part of the collective; the caller brackets all local
 * ranks with ncclGroupStart/End, which point-to-point pairs need anyway. */
static ncclResult_t issue(const cv_spec *spec, int rank, const rank_bufs *b, ncclComm_t comm,
                          cudaStream_t st, ncclDataType_t dt, ncclRedOp_t op)
{
    size_t count = (size_t)spec->count, chunk = count * cv_dtype_size(spec->dtype);
    int nranks = spec->ranks, root = spec->root;
    ncclResult_t r = ncclSuccess;
    switch (spec->op) {
    case CV_OP_BROADCAST:
        return ncclBroadcast(rank == root ? b->send : b->recv, b->recv, count, dt, root, comm, st);
    case CV_OP_REDUCE: return ncclReduce(b->send, b->recv, count, dt, op, root, comm, st);
    case CV_OP_ALLGATHER: return ncclAllGather(b->send, b->recv, count, dt, comm, st);
    case CV_OP_REDUCESCATTER: return ncclReduceScatter(b->send, b->recv, count, dt, op, comm, st);
    case CV_OP_ALLREDUCE: return ncclAllReduce(b->send, b->recv, count, dt, op, comm, st);
    case CV_OP_ALLTOALL:
        for (int p = 0; p < nranks && r == ncclSuccess; p++) {
            r = ncclSend(b->send + p * chunk, count, dt, p, comm, st);
            if (r == ncclSuccess)
                r = ncclRecv(b->recv + p * chunk, count, dt, p, comm, st);
        }
        return r;
    case CV_OP_GATHER:
        r = ncclSend(b->send, count, dt, root, comm, st);
        for (int p = 0; rank == root && p < nranks && r == ncclSuccess; p++)
            r = ncclRecv(b->recv + p * chunk, count, dt, p, comm, st);
        return r;
    case CV_OP_SCATTER:
        for (int p = 0; rank == root && p < nranks && r == ncclSuccess; p++)
            r = ncclSend(b->send + p * chunk, count, dt, p, comm, st);
        if (r == ncclSuccess)
            r = ncclRecv(b->recv, count, dt, root, comm, st);
        return r;
    case CV_OP_SENDRECV:
        r = ncclSend(b->send, count, dt, (rank + 1) % nranks, comm, st);
        if (r == ncclSuccess)
            r = ncclRecv(b->recv, count, dt, (rank + nranks - 1) % nranks, comm, st);
        return r;
    default: return ncclInvalidArgument;
    }
}

static int launch(cv_nccl *n, const cv_spec *spec, const rank_bufs *bufs, int times,
                  ncclDataType_t dt, ncclRedOp_t op, char *err, size_t errlen)
{
    int status = CV_OK;
    for (int k = 0; k < times; k++) {
        NCCL_CHECK(ncclGroupStart());
        for (int i = 0; i < n->nlocal; i++) {
            ncclResult_t r = issue(spec, n->first + i, &bufs[i], n->comm[i], n->stream[i], dt, op);
            if (r != ncclSuccess) {
                ncclGroupEnd();
                snprintf(err, errlen, "NCCL %s: %s", cv_op_name(spec->op), ncclGetErrorString(r));
                n->failed = true;
                return CV_EBACKEND;
            }
        }
        ncclResult_t r = ncclGroupEnd();
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 14, 0)
        /* MPI's communicators do not block: the group is enqueued once
         * each of them stops reporting ncclInProgress. */
        if (r == ncclInProgress) {
            r = ncclSuccess;
            for (int i = 0; i < n->nlocal; i++) {
                ncclResult_t q = cv_nccl__settle(n->comm[i]);
                r = r == ncclSuccess ? q : r;
            }
        }
#endif
        NCCL_CHECK(r);
    }
fail:
    return status;
}

/* An error NCCL found on its own (a peer gone, a network fault): CV_OK
 * while there is none. NCCL's kernels can then wait forever, so callers
 * poll this instead of blocking on the stream. */
static int async_error(cv_nccl *n, int i, char *err, size_t errlen)
{
    ncclResult_t async = ncclSuccess, r = ncclCommGetAsyncError(n->comm[i], &async);
    if (r == ncclSuccess)
        r = async;
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 14, 0)
    if (r == ncclInProgress)
        r = ncclSuccess;
#endif
    if (r == ncclSuccess)
        return CV_OK;
    snprintf(err, errlen, "NCCL on rank %d: %s", n->first + i, ncclGetErrorString(r));
    n->failed = true;
    return CV_EBACKEND;
}

/* Waits for every local rank's stream, checking NCCL's asynchronous errors
 * while it waits, so that a failure elsewhere ends the wait. */
static int sync_all(cv_nccl *n, char *err, size_t errlen)
{
    int status = CV_OK;
    const struct timespec nap = {0, 50 * 1000}; /* 50 us */
    double start = cv_now_seconds();
    for (int i = 0; i < n->nlocal; i++) {
        CUDA_CHECK(cudaSetDevice(n->device[i]));
        for (;;) {
            cudaError_t q = cudaStreamQuery(n->stream[i]);
            if (q == cudaSuccess)
                break;
            if (q != cudaErrorNotReady)
                CUDA_CHECK(q);
            if ((status = async_error(n, i, err, errlen)) != CV_OK)
                return status;
            /* Spin at first, as a blocking wait would return at once: a nap
             * here would be timed with small collectives. Then back off. */
            if (cv_now_seconds() - start > 0.02)
                nanosleep(&nap, NULL);
        }
        if ((status = async_error(n, i, err, errlen)) != CV_OK)
            return status;
    }
fail:
    return status;
}

/* Device buffers of every local rank: inputs written, outputs poisoned with
 * 0xff bytes (NaN for floats) so an element NCCL never wrote cannot pass. */
static int setup(cv_nccl *n, const cv_spec *spec, cv_init init, uint64_t seed, rank_bufs *bufs,
                 char *err, size_t errlen)
{
    int status = CV_OK;
    size_t esize = cv_dtype_size(spec->dtype);
    void *host = NULL;
    for (int i = 0; i < n->nlocal; i++) {
        int g = n->first + i;
        rank_bufs *b = &bufs[i];
        b->nsend = cv_spec_buf_count(spec, CV_BUF_SEND, g);
        b->nrecv = cv_spec_buf_count(spec, CV_BUF_RECV, g);
        size_t sbytes = (size_t)b->nsend * esize, rbytes = (size_t)b->nrecv * esize;
        CUDA_CHECK(cudaSetDevice(n->device[i]));
        CUDA_CHECK(cudaMalloc((void **)&b->send, sbytes > 256 ? sbytes : 256));
        CUDA_CHECK(cudaMalloc((void **)&b->recv, rbytes > 256 ? rbytes : 256));
        CUDA_CHECK(cudaMemsetAsync(b->recv, 0xff, rbytes > 256 ? rbytes : 256, n->stream[i]));
        if (sbytes) {
            host = malloc(sbytes);
            if (!host) {
                snprintf(err, errlen, "out of host memory for rank %d's input", g);
                status = CV_ENOMEM;
                goto fail;
            }
            cv_fill_input(spec, init, seed, g, host);
            CUDA_CHECK(cudaMemcpyAsync(b->send, host, sbytes, cudaMemcpyHostToDevice, n->stream[i]));
            CUDA_CHECK(cudaStreamSynchronize(n->stream[i]));
            free(host);
            host = NULL;
        }
        CUDA_CHECK(cudaStreamSynchronize(n->stream[i]));
    }
fail:
    free(host);
    return status;
}

static void free_bufs(cv_nccl *n, rank_bufs *bufs)
{
    for (int i = 0; bufs && i < n->nlocal; i++) {
        cudaSetDevice(n->device[i]);
        cudaFree(bufs[i].send);
        cudaFree(bufs[i].recv);
    }
    cudaGetLastError();
    free(bufs);
}

#ifdef COLLVIZ_HAVE_MPI
/* MPI counts are ints: large outputs travel in pieces of at most 1 GiB. */
static void mpi_move(void *buf, size_t bytes, int peer, bool send)
{
    const size_t piece = (size_t)1 << 30;
    for (size_t off = 0; off < bytes; off += piece) {
        int len = (int)(bytes - off < piece ? bytes - off : piece);
        if (send)
            MPI_Send((char *)buf + off, len, MPI_BYTE, peer, 7, MPI_COMM_WORLD);
        else
            MPI_Recv((char *)buf + off, len, MPI_BYTE, peer, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
}
#endif

/* Reads every local rank's RECV back and counts the elements cv_verify
 * rejects: here, or under MPI on rank 0 with every rank's outputs sent to
 * it. Free of early returns between the agreements, so that every process
 * reaches each of them. */
static int verify_results(cv_nccl *n, const cv_spec *spec, cv_init init, uint64_t seed,
                          const rank_bufs *bufs, int64_t *wrong, char *err, size_t errlen)
{
    int nranks = spec->ranks, status = CV_OK;
    size_t esize = cv_dtype_size(spec->dtype);
    bool checker = !n->mpi || n->first == 0; /* this process runs cv_verify */
    void **in = calloc((size_t)nranks, sizeof *in), **outs = calloc((size_t)nranks, sizeof *outs);
    if (!in || !outs)
        status = CV_ENOMEM;
    for (int g = 0; g < nranks && status == CV_OK; g++) {
        bool local = g >= n->first && g < n->first + n->nlocal;
        int64_t nsend = cv_spec_buf_count(spec, CV_BUF_SEND, g);
        int64_t nrecv = cv_spec_buf_count(spec, CV_BUF_RECV, g);
        if ((checker || local) && nrecv > 0 && !(outs[g] = malloc((size_t)nrecv * esize)))
            status = CV_ENOMEM;
        if (checker && nsend > 0) {
            if (!(in[g] = malloc((size_t)nsend * esize)))
                status = CV_ENOMEM;
            else
                cv_fill_input(spec, init, seed, g, in[g]);
        }
    }
    if (status == CV_ENOMEM)
        snprintf(err, errlen, "out of host memory verifying NCCL's results");
    for (int i = 0; i < n->nlocal && status == CV_OK; i++) {
        int g = n->first + i;
        size_t bytes = (size_t)bufs[i].nrecv * esize;
        cudaError_t e = cudaSetDevice(n->device[i]);
        if (e == cudaSuccess && bytes)
            e = cudaMemcpyAsync(outs[g], bufs[i].recv, bytes, cudaMemcpyDeviceToHost, n->stream[i]);
        if (e == cudaSuccess)
            e = cudaStreamSynchronize(n->stream[i]);
        if (e != cudaSuccess) {
            snprintf(err, errlen, "reading NCCL's results: %s", cudaGetErrorString(e));
            status = CV_EBACKEND;
        }
    }
    status = cv_nccl__agree(n, status, err, errlen);
#ifdef COLLVIZ_HAVE_MPI
    if (status == CV_OK && n->mpi) {
        for (int g = 1; g < nranks; g++) {
            size_t bytes = (size_t)cv_spec_buf_count(spec, CV_BUF_RECV, g) * esize;
            if (bytes && n->first == 0)
                mpi_move(outs[g], bytes, g, false);
            else if (bytes && n->first == g)
                mpi_move(outs[g], bytes, 0, true);
        }
    }
#endif
    if (status == CV_OK && checker)
        *wrong = cv_verify(spec, (const void *const *)in, (const void *const *)outs);
#ifdef COLLVIZ_HAVE_MPI
    if (status == CV_OK && n->mpi)
        MPI_Bcast(wrong, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
#endif
    for (int g = 0; g < nranks; g++) {
        if (in)
            free(in[g]);
        if (outs)
            free(outs[g]);
    }
    free(in);
    free(outs);
    return status;
}

int cv_nccl_run(cv_nccl *n, const cv_spec *spec, int warmup, int iterations, cv_init init,
                uint64_t seed, bool verify, cv_nccl_result *out, char *err, size_t errlen)
{
    ncclDataType_t dt;
    ncclRedOp_t op = ncclSum;
    rank_bufs *bufs = NULL;
    int status;
    memset(out, 0, sizeof *out);
    out->wrong = -1;
    if (!n || !spec) {
        snprintf(err, errlen, "NCCL: no communicator or spec");
        return CV_EINVAL;
    }
    if (n->failed) {
        snprintf(err, errlen, "NCCL failed earlier on this communicator; open a new one");
        return CV_EBACKEND;
    }
    status = cv_spec_check(spec, CV_MAX_RANKS, err, errlen);
    if (status != CV_OK)
        return status;
    if (spec->ranks != n->nranks) {
        snprintf(err, errlen, "NCCL runs one rank per GPU: the spec has %d ranks, the "
                              "communicator %d", spec->ranks, n->nranks);
        return CV_EINVAL;
    }
    if (!nccl_type(spec->dtype, &dt) || (cv_op_reduces(spec->op) && !nccl_op(spec->redop, &op))) {
        snprintf(err, errlen, "NCCL has no %s on %s", cv_redop_name(spec->redop),
                 cv_dtype_name(spec->dtype));
        return CV_EINVAL;
    }
    if (iterations < 1 || warmup < 0) {
        snprintf(err, errlen, "NCCL: iterations must be >= 1 and warmup >= 0");
        return CV_EINVAL;
    }
    out->ranks = n->nranks;
    ncclGetVersion(&out->nccl_version);
    /* The header may be newer than the library loaded: ask the library. */
    if (out->nccl_version < NCCL_VERSION(2, 10, 0) &&
        (spec->dtype == CV_BFLOAT16 || (spec->redop == CV_AVG && cv_op_reduces(spec->op)))) {
        int v = out->nccl_version, big = v >= 10000; /* 2.9 on: X*10000 + Y*100 + Z */
        snprintf(err, errlen, "NCCL %d.%d.%d has no %s (it came in 2.10)", big ? v / 10000 : v / 1000,
                 big ? v / 100 % 100 : v / 100 % 10, v % 100,
                 spec->dtype == CV_BFLOAT16 ? "bfloat16" : "avg");
        return CV_EINVAL;
    }

    bufs = calloc((size_t)n->nlocal, sizeof *bufs);
    if (!bufs) {
        snprintf(err, errlen, "out of host memory running NCCL");
        status = CV_ENOMEM;
    } else {
        status = setup(n, spec, init, seed, bufs, err, errlen);
    }
    status = cv_nccl__agree(n, status, err, errlen);
    if (status == CV_OK)
        status = launch(n, spec, bufs, warmup, dt, op, err, errlen);
    if (status == CV_OK)
        status = sync_all(n, err, errlen);
    if (status == CV_OK) {
        double t0 = cv_now_seconds();
        status = launch(n, spec, bufs, iterations, dt, op, err, errlen);
        if (status == CV_OK)
            status = sync_all(n, err, errlen);
        out->seconds = (cv_now_seconds() - t0) / iterations;
    }
    if (n->failed || status == CV_EBACKEND)
        cv_nccl__abort(n); /* before anyone waits on NCCL's stuck work, here or in a peer */
    status = cv_nccl__agree(n, status, err, errlen);
#ifdef COLLVIZ_HAVE_MPI
    if (status == CV_OK && n->mpi)
        MPI_Allreduce(MPI_IN_PLACE, &out->seconds, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
#endif
    if (status == CV_OK && verify)
        status = verify_results(n, spec, init, seed, bufs, &out->wrong, err, errlen);
    free_bufs(n, bufs);
    return status;
}

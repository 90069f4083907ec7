/*
 * nccl_mock.c: NCCL on the CUDA runtime double's host memory, for running
 * cuda_backend/nccl_comm.c and nccl_run.c where no GPU (or NCCL) exists.
 *
 * Calls between ncclGroupStart and ncclGroupEnd are collected; the
 * outermost ncclGroupEnd waits for the streams they name (as NCCL's work
 * would wait behind what was enqueued before it) and then carries them
 * out with NCCL's documented semantics: a collective needs exactly one
 * call from every rank of its communicator, with the same count, type and
 * root; ncclSend from a to b pairs with ncclRecv on b from a, in order,
 * with the same count and type. Every buffer NCCL would touch must lie in
 * a live device allocation of the size NCCL would touch; anything else is
 * recorded as the runtime double's `problem` and answered with
 * ncclInvalidUsage. Reductions use the CPU backend's element kernels; avg
 * sums then divides by the rank count.
 */
#define _POSIX_C_SOURCE 200809L
#include "nccl.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_mock.h"
#include "cv_internal.h" /* cv__kernel */

typedef struct {
    int n;     /* ranks */
    int alive; /* communicators not destroyed */
    int joined;
} clique;

struct ncclComm {
    clique *c;
    int rank, dev;
    bool waiting; /* a non-blocking init of several processes: never completes */
};

typedef enum { C_ALLREDUCE, C_BROADCAST, C_REDUCE, C_ALLGATHER, C_REDUCESCATTER, C_SEND, C_RECV } kind_t;

typedef struct {
    kind_t kind;
    ncclComm_t comm;
    const char *send;
    char *recv;
    size_t count;
    ncclDataType_t dt;
    ncclRedOp_t op;
    int root, peer;
    cudaStream_t stream;
    bool done;
} call_t;

static call_t *calls;
static size_t ncalls, cap_calls;
static int depth;
static long live, aborted;

long mock_nccl_live(void) { return live; }
long mock_nccl_aborted(void) { return aborted; }

const char *ncclGetErrorString(ncclResult_t r)
{
    switch (r) {
    case ncclSuccess: return "no error";
    case ncclInvalidArgument: return "invalid argument (mock NCCL)";
    case ncclInvalidUsage: return "invalid usage (mock NCCL)";
    case ncclRemoteError: return "remote process exited or there was a network error (mock NCCL)";
    default: return "mock NCCL error";
    }
}

ncclResult_t ncclGetVersion(int *version)
{
    *version = mock_cuda_nccl_version() ? (int)mock_cuda_nccl_version() : NCCL_VERSION_CODE;
    return ncclSuccess;
}

static bool to_cv(ncclDataType_t dt, cv_dtype *out)
{
    switch (dt) {
    case ncclInt8: *out = CV_INT8; return true;
    case ncclInt32: *out = CV_INT32; return true;
    case ncclInt64: *out = CV_INT64; return true;
    case ncclFloat16: *out = CV_FLOAT16; return true;
    case ncclBfloat16: *out = CV_BFLOAT16; return true;
    case ncclFloat32: *out = CV_FLOAT32; return true;
    case ncclFloat64: *out = CV_FLOAT64; return true;
    default: return false;
    }
}

/* ------------------------------------------------------- communicators */

ncclResult_t ncclCommInitAll(ncclComm_t *comms, int ndev, const int *devlist)
{
    int visible = 0;
    if (!comms || ndev < 1 || cudaGetDeviceCount(&visible) != cudaSuccess)
        return ncclInvalidArgument;
    clique *c = (clique *)calloc(1, sizeof *c);
    if (!c)
        return ncclSystemError;
    c->n = c->alive = c->joined = ndev;
    for (int i = 0; i < ndev; i++) {
        int dev = devlist ? devlist[i] : i;
        if (dev < 0 || dev >= visible) {
            mock_cuda_problem("ncclCommInitAll: device %d of %d visible", dev, visible);
            for (int j = 0; j < i; j++)
                free(comms[j]);
            free(c);
            return ncclInvalidArgument;
        }
        comms[i] = (ncclComm_t)calloc(1, sizeof *comms[i]);
        comms[i]->c = c;
        comms[i]->rank = i;
        comms[i]->dev = dev;
        live++;
    }
    return ncclSuccess;
}

/* One process only: the id carries the clique's address. */
ncclResult_t ncclGetUniqueId(ncclUniqueId *id)
{
    memset(id, 0, sizeof *id);
    return ncclSuccess;
}

ncclResult_t ncclCommInitRank(ncclComm_t *comm, int nranks, ncclUniqueId id, int rank)
{
    clique *c = NULL;
    memcpy(&c, id.internal, sizeof c);
    if (nranks != 1 || rank != 0 || c) {
        mock_cuda_problem("ncclCommInitRank: the double runs one process (%d ranks)", nranks);
        return ncclInvalidUsage;
    }
    int dev = 0;
    ncclComm_t one = NULL;
    cudaGetDeviceCount(&dev);
    ncclResult_t r = ncclCommInitAll(&one, 1, NULL);
    *comm = one;
    return r;
}

ncclResult_t ncclCommInitRankConfig(ncclComm_t *comm, int nranks, ncclUniqueId id, int rank,
                                    ncclConfig_t *config)
{
    if (nranks == 1)
        return ncclCommInitRank(comm, nranks, id, rank);
    *comm = NULL;
    if (rank < 0 || rank >= nranks)
        return ncclInvalidArgument;
    if (mock_cuda_nccl_init_fail() == rank + 1)
        return ncclSystemError;
    if (!config || config->blocking) {
        mock_cuda_problem("ncclCommInitRankConfig: a blocking init of %d processes would wait "
                          "forever in the double", nranks);
        return ncclInvalidUsage;
    }
    clique *c = (clique *)calloc(1, sizeof *c);
    ncclComm_t one = (ncclComm_t)calloc(1, sizeof *one);
    if (!c || !one) {
        free(c);
        free(one);
        return ncclSystemError;
    }
    c->n = nranks;
    c->alive = c->joined = 1;
    one->c = c;
    one->rank = rank;
    one->waiting = true;
    cudaGetDevice(&one->dev);
    live++;
    *comm = one;
    return ncclInProgress;
}

/* The double's work is done by the time a call returns. */
ncclResult_t ncclCommFinalize(ncclComm_t comm)
{
    (void)comm;
    return ncclSuccess;
}

ncclResult_t ncclCommDestroy(ncclComm_t comm)
{
    if (!comm)
        return ncclSuccess;
    clique *c = comm->c;
    free(comm);
    live--;
    if (--c->alive == 0)
        free(c);
    return ncclSuccess;
}

ncclResult_t ncclCommAbort(ncclComm_t comm)
{
    if (comm)
        aborted++;
    return ncclCommDestroy(comm);
}

/* A peer that went away: reported from the first poll on, where the
 * double is set up with ncclerror=1. */
ncclResult_t ncclCommGetAsyncError(ncclComm_t comm, ncclResult_t *async)
{
    if (comm && comm->waiting) {
        *async = ncclInProgress;
        return ncclSuccess;
    }
    *async = mock_cuda_nccl_error() ? ncclRemoteError : ncclSuccess;
    return ncclSuccess;
}

/* --------------------------------------------------------------- calls */

static bool buffer_ok(const void *p, size_t bytes, const call_t *c, const char *what)
{
    if (bytes == 0)
        return true;
    int dev = -1;
    if (!mock_cuda_device_range(p, bytes, &dev)) {
        mock_cuda_problem("NCCL call %d on rank %d: its %s (%zu bytes) is not inside a device "
                          "allocation", (int)c->kind, c->comm->rank, what, bytes);
        return false;
    }
    if (dev != c->comm->dev) {
        mock_cuda_problem("NCCL rank %d (GPU %d) given a %s on GPU %d", c->comm->rank,
                          c->comm->dev, what, dev);
        return false;
    }
    return true;
}

/* The reduction of every rank's n elements at offset off of their send
 * buffers, rank order, into out. */
static void reduce_into(call_t **by_rank, int nr, size_t off, size_t n, cv_dtype dt,
                        ncclRedOp_t op, char *out)
{
    size_t esz = cv_dtype_size(dt);
    cv_redop r = op == ncclProd ? CV_PROD : op == ncclMax ? CV_MAX : op == ncclMin ? CV_MIN : CV_SUM;
    if (op == ncclAvg && cv_dtype_is_float(dt)) {
        /* NCCL's avg on floats: each input times 1/N, then the sum. */
        char *part = (char *)malloc(n * esz + 1);
        for (int q = 0; q < nr; q++) {
            memcpy(q ? part : out, by_rank[q]->send + off * esz, n * esz);
            cv__premultiply(dt, q ? part : out, (int64_t)n, nr);
            if (q)
                cv__combine(dt, CV_SUM, out, out, part, (int64_t)n);
        }
        free(part);
        return;
    }
    memcpy(out, by_rank[0]->send + off * esz, n * esz);
    for (int q = 1; q < nr; q++)
        cv__combine(dt, r, out, out, by_rank[q]->send + off * esz, (int64_t)n);
    if (op == ncclAvg) /* integers: the sum, then one division */
        cv__divide(dt, out, (int64_t)n, nr);
}

/* Carries out the collective of calls[first] with the same kind on the
 * same clique: one call per rank. */
static ncclResult_t run_collective(size_t first)
{
    call_t *c0 = &calls[first];
    clique *cq = c0->comm->c;
    int nr = cq->n;
    call_t **by_rank = (call_t **)calloc((size_t)nr, sizeof *by_rank);
    ncclResult_t res = ncclSuccess;
    cv_dtype dt = CV_INT8;
    for (size_t i = first; i < ncalls; i++) {
        call_t *c = &calls[i];
        if (c->done || c->kind != c0->kind || c->comm->c != cq)
            continue;
        if (by_rank[c->comm->rank]) {
            mock_cuda_problem("a collective called twice by rank %d in one group", c->comm->rank);
            res = ncclInvalidUsage;
        }
        by_rank[c->comm->rank] = c;
        c->done = true;
        if (c->count != c0->count || c->dt != c0->dt || c->root != c0->root || c->op != c0->op) {
            mock_cuda_problem("ranks disagree on a collective's count, type, op or root");
            res = ncclInvalidUsage;
        }
    }
    for (int r = 0; r < nr && res == ncclSuccess; r++)
        if (!by_rank[r]) {
            mock_cuda_problem("rank %d of %d missing from a collective", r, nr);
            res = ncclInvalidUsage;
        }
    if (res == ncclSuccess && !to_cv(c0->dt, &dt))
        res = ncclInvalidArgument;
    size_t n = c0->count, esz = cv_dtype_size(dt), bytes = n * esz;
    /* The buffers NCCL reads and writes, at the sizes it uses them. */
    for (int r = 0; r < nr && res == ncclSuccess; r++) {
        call_t *c = by_rank[r];
        bool ok = true;
        switch (c->kind) {
        case C_ALLREDUCE:
            ok = buffer_ok(c->send, bytes, c, "sendbuff") && buffer_ok(c->recv, bytes, c, "recvbuff");
            break;
        case C_BROADCAST:
            ok = (r != c->root || buffer_ok(c->send, bytes, c, "sendbuff")) &&
                 buffer_ok(c->recv, bytes, c, "recvbuff");
            break;
        case C_REDUCE:
            ok = buffer_ok(c->send, bytes, c, "sendbuff") &&
                 (r != c->root || buffer_ok(c->recv, bytes, c, "recvbuff"));
            break;
        case C_ALLGATHER:
            ok = buffer_ok(c->send, bytes, c, "sendbuff") &&
                 buffer_ok(c->recv, bytes * (size_t)nr, c, "recvbuff");
            break;
        case C_REDUCESCATTER:
            ok = buffer_ok(c->send, bytes * (size_t)nr, c, "sendbuff") &&
                 buffer_ok(c->recv, bytes, c, "recvbuff");
            break;
        default: break;
        }
        if (!ok)
            res = ncclInvalidUsage;
    }
    if (res == ncclSuccess && bytes > 0) {
        size_t tmp_bytes = c0->kind == C_ALLGATHER ? bytes * (size_t)nr : bytes;
        char *tmp = (char *)malloc(tmp_bytes);
        switch (c0->kind) {
        case C_ALLREDUCE:
            reduce_into(by_rank, nr, 0, n, dt, c0->op, tmp);
            for (int r = 0; r < nr; r++)
                memcpy(by_rank[r]->recv, tmp, bytes);
            break;
        case C_BROADCAST:
            memcpy(tmp, by_rank[c0->root]->send, bytes);
            for (int r = 0; r < nr; r++)
                memcpy(by_rank[r]->recv, tmp, bytes);
            break;
        case C_REDUCE:
            reduce_into(by_rank, nr, 0, n, dt, c0->op, tmp);
            memcpy(by_rank[c0->root]->recv, tmp, bytes);
            break;
        case C_ALLGATHER:
            for (int q = 0; q < nr; q++)
                memcpy(tmp + (size_t)q * bytes, by_rank[q]->send, bytes);
            for (int r = 0; r < nr; r++)
                memcpy(by_rank[r]->recv, tmp, tmp_bytes);
            break;
        case C_REDUCESCATTER:
            for (int r = 0; r < nr; r++) {
                reduce_into(by_rank, nr, (size_t)r * n, n, dt, c0->op, tmp);
                memcpy(by_rank[r]->recv, tmp, bytes);
            }
            break;
        default: break;
        }
        free(tmp);
    }
    free(by_rank);
    return res;
}

/* Pairs every send with the receive posted on its peer for it, in order. */
static ncclResult_t run_p2p(void)
{
    ncclResult_t res = ncclSuccess;
    for (size_t i = 0; i < ncalls; i++) {
        call_t *s = &calls[i];
        if (s->done || s->kind != C_SEND)
            continue;
        call_t *r = NULL;
        for (size_t j = 0; j < ncalls && !r; j++) {
            call_t *c = &calls[j];
            if (!c->done && c->kind == C_RECV && c->comm->c == s->comm->c &&
                c->comm->rank == s->peer && c->peer == s->comm->rank)
                r = c;
        }
        s->done = true;
        if (!r) {
            mock_cuda_problem("ncclSend from rank %d to %d has no matching ncclRecv",
                              s->comm->rank, s->peer);
            res = ncclInvalidUsage;
            continue;
        }
        r->done = true;
        cv_dtype dt;
        if (r->count != s->count || r->dt != s->dt || !to_cv(s->dt, &dt)) {
            mock_cuda_problem("ncclSend %d->%d of %zu elements met a receive of %zu",
                              s->comm->rank, s->peer, s->count, r->count);
            res = ncclInvalidUsage;
            continue;
        }
        size_t bytes = s->count * cv_dtype_size(dt);
        if (!buffer_ok(s->send, bytes, s, "send buffer") || !buffer_ok(r->recv, bytes, r, "receive buffer")) {
            res = ncclInvalidUsage;
            continue;
        }
        if (bytes)
            memmove(r->recv, s->send, bytes);
    }
    for (size_t j = 0; j < ncalls; j++)
        if (!calls[j].done && calls[j].kind == C_RECV) {
            mock_cuda_problem("ncclRecv on rank %d from %d has no matching ncclSend",
                              calls[j].comm->rank, calls[j].peer);
            calls[j].done = true;
            res = ncclInvalidUsage;
        }
    return res;
}

static ncclResult_t run_group(void)
{
    ncclResult_t res = ncclSuccess;
    /* NCCL's work runs behind what its streams already hold. */
    for (size_t i = 0; i < ncalls; i++)
        if (cudaStreamSynchronize(calls[i].stream) != cudaSuccess)
            res = ncclUnhandledCudaError;
    for (size_t i = 0; i < ncalls && res == ncclSuccess; i++)
        if (!calls[i].done && calls[i].kind != C_SEND && calls[i].kind != C_RECV)
            res = run_collective(i);
    if (res == ncclSuccess)
        res = run_p2p();
    ncalls = 0;
    return res;
}

ncclResult_t ncclGroupStart(void)
{
    depth++;
    return ncclSuccess;
}

ncclResult_t ncclGroupEnd(void)
{
    if (depth <= 0) {
        mock_cuda_problem("ncclGroupEnd without ncclGroupStart");
        return ncclInvalidUsage;
    }
    return --depth == 0 ? run_group() : ncclSuccess;
}

static ncclResult_t add(const call_t *c)
{
    if (!c->comm)
        return ncclInvalidArgument;
    if (ncalls == cap_calls) {
        size_t cap = cap_calls ? cap_calls * 2 : 64;
        call_t *more = (call_t *)realloc(calls, cap * sizeof *calls);
        if (!more)
            return ncclSystemError;
        calls = more;
        cap_calls = cap;
    }
    calls[ncalls++] = *c;
    /* Outside a group a call is a group of its own. */
    return depth == 0 ? run_group() : ncclSuccess;
}

ncclResult_t ncclAllReduce(const void *send, void *recv, size_t count, ncclDataType_t dt,
                           ncclRedOp_t op, ncclComm_t comm, cudaStream_t stream)
{
    call_t c = {.kind = C_ALLREDUCE, .comm = comm, .send = (const char *)send, .recv = (char *)recv,
                .count = count, .dt = dt, .op = op, .stream = stream};
    return add(&c);
}

ncclResult_t ncclBroadcast(const void *send, void *recv, size_t count, ncclDataType_t dt,
                           int root, ncclComm_t comm, cudaStream_t stream)
{
    call_t c = {.kind = C_BROADCAST, .comm = comm, .send = (const char *)send, .recv = (char *)recv,
                .count = count, .dt = dt, .root = root, .stream = stream};
    return add(&c);
}

ncclResult_t ncclReduce(const void *send, void *recv, size_t count, ncclDataType_t dt,
                        ncclRedOp_t op, int root, ncclComm_t comm, cudaStream_t stream)
{
    call_t c = {.kind = C_REDUCE, .comm = comm, .send = (const char *)send, .recv = (char *)recv,
                .count = count, .dt = dt, .op = op, .root = root, .stream = stream};
    return add(&c);
}

ncclResult_t ncclAllGather(const void *send, void *recv, size_t sendcount, ncclDataType_t dt,
                           ncclComm_t comm, cudaStream_t stream)
{
    call_t c = {.kind = C_ALLGATHER, .comm = comm, .send = (const char *)send, .recv = (char *)recv,
                .count = sendcount, .dt = dt, .stream = stream};
    return add(&c);
}

ncclResult_t ncclReduceScatter(const void *send, void *recv, size_t recvcount, ncclDataType_t dt,
                               ncclRedOp_t op, ncclComm_t comm, cudaStream_t stream)
{
    call_t c = {.kind = C_REDUCESCATTER, .comm = comm, .send = (const char *)send,
                .recv = (char *)recv, .count = recvcount, .dt = dt, .op = op, .stream = stream};
    return add(&c);
}

ncclResult_t ncclSend(const void *send, size_t count, ncclDataType_t dt, int peer, ncclComm_t comm,
                      cudaStream_t stream)
{
    call_t c = {.kind = C_SEND, .comm = comm, .send = (const char *)send, .count = count,
                .dt = dt, .peer = peer, .stream = stream};
    return add(&c);
}

ncclResult_t ncclRecv(void *recv, size_t count, ncclDataType_t dt, int peer, ncclComm_t comm,
                      cudaStream_t stream)
{
    call_t c = {.kind = C_RECV, .comm = comm, .recv = (char *)recv, .count = count, .dt = dt,
                .peer = peer, .stream = stream};
    return add(&c);
}

/*
 * cuda_mock.c: a CUDA runtime on host memory, for running the CUDA
 * backend's host code (cuda_backend/cuda_backend.cu) where no GPU exists.
 *
 * Streams are queues. Nothing runs when it is enqueued: work runs when the
 * host waits (a stream, an event, a device, a free), and then in a seeded
 * random order among the streams whose next item may run, where an event
 * wait may run once the record it captured has run. So the only order the
 * backend can rely on is the one it declared, as on a GPU, and a missing
 * wait becomes a wrong result. Each use is also checked against CUDA's
 * rules as far as they matter here: device pointers inside live
 * allocations (when enqueued and again when run), a kernel only on its
 * stream's current device and reading another GPU's memory only with peer
 * access enabled, an event recorded on a stream of its own device. The
 * first misuse is kept in the stats' `problem`. Faults can be injected: a
 * failing allocation, a refused launch, and a kernel that faults its GPU,
 * after which the GPU's synchronisations fail and its memory can only be
 * reclaimed by cudaDeviceReset, as on a real context.
 */
#define _POSIX_C_SOURCE 200809L
#include "cuda_mock.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_internal.h" /* the mock's cuda_runtime_api.h, cv_cuda__launch */
#include "cv_internal.h"   /* cv__kernel: the element arithmetic */

#define MOCK_MAX_DEV 8

typedef enum { OP_COPY, OP_SET, OP_KERNEL, OP_RECORD, OP_WAIT } op_kind;

typedef struct {
    op_kind kind;
    char *dst;
    const char *src;
    const char *local; /* a reduce-copy kernel's own operand */
    size_t bytes;
    int value;
    bool dst_dev, src_dev; /* which pointers are device memory */
    cv_dtype dtype;
    cv_redop redop;
    cv_xfer_kind xk;
    int64_t n;
    int divisor;
    struct CUevent_st *ev;
    unsigned long gen;
} op_t;

struct CUstream_st {
    int dev;
    op_t *q;
    size_t head, len, cap;
    bool dead;
    long ready_at;                 /* index in the ready set, or -1 */
    struct CUevent_st *waiting_on; /* its next item waits for this event */
};

struct CUevent_st {
    int dev;
    unsigned long recorded, completed; /* records enqueued / run */
    double time;
    bool timing, dead;
    struct CUstream_st **waiters; /* streams whose next item waits for this */
    size_t nwaiters, cap_waiters;
};

typedef struct {
    char *p;
    size_t bytes;
    int dev;
} alloc_t;

static struct {
    mock_cuda_config cfg;
    mock_cuda_stats st;
    int cur;
    alloc_t *allocs;
    size_t nallocs, cap_allocs;
    struct CUstream_st **streams;
    size_t nstreams, cap_streams;
    struct CUevent_st **events;
    size_t nevents, cap_events;
    long event_creates; /* for cfg.fail_event_at */
    struct CUstream_st **ready; /* streams whose next item can run now */
    size_t nready, cap_ready;
    bool peer_on[MOCK_MAX_DEV][MOCK_MAX_DEV];
    bool sticky[MOCK_MAX_DEV];
    size_t used[MOCK_MAX_DEV];
    cudaError_t last;
    double clock;
    unsigned long long rng;
} M;


static void *grow(void *arr, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return arr;
    size_t c = *cap ? *cap * 2 : 16;
    while (c < need)
        c *= 2;
    void *p = realloc(arr, c * size);
    if (!p) {
        fprintf(stderr, "cuda_mock: out of memory\n");
        abort();
    }
    *cap = c;
    return p;
}

static cudaError_t fail(cudaError_t e)
{
    M.last = e;
    return e;
}

/* ---------------------------------------------------------------- setup */

void mock_cuda_config_init(mock_cuda_config *c)
{
    memset(c, 0, sizeof *c);
    c->ndev = 1;
    c->mem_bytes = (size_t)1 << 30;
    c->seed = 1;
    const char *env = getenv("COLLVIZ_MOCK_CUDA");
    char key[16];
    unsigned long long v;
    int used;
    while (env && sscanf(env, " %15[a-z] = %llu%n", key, &v, &used) == 2) {
        if (!strcmp(key, "ndev"))
            c->ndev = (int)v;
        else if (!strcmp(key, "peer"))
            c->peer = v != 0;
        else if (!strcmp(key, "mem"))
            c->mem_bytes = (size_t)v;
        else if (!strcmp(key, "seed"))
            c->seed = v;
        else if (!strcmp(key, "nokernels"))
            c->no_kernels = v != 0;
        else if (!strcmp(key, "ncclerror"))
            c->nccl_error = v != 0;
        else if (!strcmp(key, "ncclversion"))
            c->nccl_version = (long)v;
        else if (!strcmp(key, "ncclinitfail"))
            c->nccl_init_fail = (long)v;
        env += used;
        env += *env == ',';
    }
}

static bool configured;

void mock_cuda_reset(const mock_cuda_config *c)
{
    configured = true;
    for (size_t i = 0; i < M.nallocs; i++)
        free(M.allocs[i].p);
    for (size_t i = 0; i < M.nstreams; i++) {
        free(M.streams[i]->q);
        free(M.streams[i]);
    }
    for (size_t i = 0; i < M.nevents; i++) {
        free(M.events[i]->waiters);
        free(M.events[i]);
    }
    free(M.allocs);
    free(M.streams);
    free(M.events);
    free(M.ready);
    memset(&M, 0, sizeof M);
    if (c)
        M.cfg = *c;
    else
        mock_cuda_config_init(&M.cfg);
    if (M.cfg.ndev > MOCK_MAX_DEV)
        M.cfg.ndev = MOCK_MAX_DEV;
    M.rng = M.cfg.seed ? M.cfg.seed : 1;
}

void mock_cuda_get_stats(mock_cuda_stats *s) { *s = M.st; }

/* --------------------------------------------------------------- memory */

/* The live allocation holding [p, p + bytes), or NULL. */
static alloc_t *find_alloc(const void *p, size_t bytes)
{
    const char *c = (const char *)p;
    for (size_t i = 0; i < M.nallocs; i++) {
        alloc_t *a = &M.allocs[i];
        if (c >= a->p && c + bytes <= a->p + a->bytes && c < a->p + (a->bytes ? a->bytes : 1))
            return a;
    }
    return NULL;
}

static void drop_alloc(size_t i)
{
    M.used[M.allocs[i].dev] -= M.allocs[i].bytes;
    free(M.allocs[i].p);
    M.allocs[i] = M.allocs[--M.nallocs];
    M.st.allocs--;
}

bool mock_cuda_device_range(const void *p, size_t bytes, int *dev)
{
    alloc_t *a = find_alloc(p, bytes);
    if (a && dev)
        *dev = a->dev;
    return a != NULL;
}

void mock_cuda_problem(const char *fmt, ...)
{
    if (M.st.problem[0])
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(M.st.problem, sizeof M.st.problem, fmt, ap);
    va_end(ap);
}

/* A live stream or event, else the misuse is recorded. */
static bool stream_ok(cudaStream_t s, const char *call)
{
    if (s && !s->dead)
        return true;
    mock_cuda_problem("%s on a %s stream", call, s ? "destroyed" : "NULL");
    return false;
}

static bool event_ok(cudaEvent_t e, const char *call)
{
    if (e && !e->dead)
        return true;
    mock_cuda_problem("%s on a %s event", call, e ? "destroyed" : "NULL");
    return false;
}

/* ------------------------------------------------------------ scheduler */

static unsigned long long next_random(void)
{
    M.rng ^= M.rng << 13;
    M.rng ^= M.rng >> 7;
    M.rng ^= M.rng << 17;
    return M.rng;
}

/* The ready set: streams whose next item may run. A stream whose next item
 * waits for an event not yet reached sits on that event's waiter list
 * instead, and is looked at again when a record of the event runs; so
 * picking the next item costs the same for 1024 streams as for 2. */
static void ready_add(struct CUstream_st *s)
{
    if (s->ready_at >= 0)
        return;
    M.ready = (struct CUstream_st **)grow(M.ready, &M.cap_ready, M.nready + 1, sizeof *M.ready);
    s->ready_at = (long)M.nready;
    M.ready[M.nready++] = s;
}

static void ready_remove(struct CUstream_st *s)
{
    if (s->ready_at < 0)
        return;
    struct CUstream_st *last = M.ready[--M.nready];
    M.ready[s->ready_at] = last;
    last->ready_at = s->ready_at;
    s->ready_at = -1;
}

static void unwait(struct CUstream_st *s)
{
    struct CUevent_st *e = s->waiting_on;
    for (size_t i = 0; e && i < e->nwaiters; i++)
        if (e->waiters[i] == s) {
            e->waiters[i] = e->waiters[--e->nwaiters];
            break;
        }
    s->waiting_on = NULL;
}

/* Files s where its next item puts it: ready, waiting, or idle. */
static void refresh(struct CUstream_st *s)
{
    if (s->head == s->len) {
        ready_remove(s);
        return;
    }
    const op_t *o = &s->q[s->head];
    if (o->kind == OP_WAIT && o->ev->completed < o->gen) {
        ready_remove(s);
        if (s->waiting_on != o->ev) {
            unwait(s);
            struct CUevent_st *e = o->ev;
            e->waiters = (struct CUstream_st **)grow(e->waiters, &e->cap_waiters, e->nwaiters + 1,
                                                     sizeof *e->waiters);
            e->waiters[e->nwaiters++] = s;
            s->waiting_on = e;
        }
        return;
    }
    unwait(s);
    ready_add(s);
}

static void execute(struct CUstream_st *s)
{
    op_t *o = &s->q[s->head++];
    bool dead_dev = M.sticky[s->dev]; /* a faulted context drops its work */
    M.clock += 1e-6 + (double)o->bytes * 1e-12;
    if ((o->dst_dev && !find_alloc(o->dst, o->bytes)) || (o->src_dev && !find_alloc(o->src, o->bytes)))
        mock_cuda_problem("work on GPU %d ran on memory freed after it was enqueued", s->dev);
    else if (o->kind == OP_COPY && !dead_dev)
        memmove(o->dst, o->src, o->bytes);
    else if (o->kind == OP_SET && !dead_dev)
        memset(o->dst, o->value, o->bytes);
    else if (o->kind == OP_KERNEL && !dead_dev) {
        if (++M.st.kernels == M.cfg.fault_at_kernel)
            M.sticky[s->dev] = true;
        else
        {
            cv__combine(o->dtype, o->redop, o->dst, o->xk == CV_XFER_REDUCE ? o->dst : o->local,
                        o->src, o->n);
            if (o->divisor > 0)
                cv__divide(o->dtype, o->dst, o->n, o->divisor);
        }
    } else if (o->kind == OP_RECORD) {
        struct CUevent_st *e = o->ev;
        e->completed = o->gen;
        e->time = M.clock;
        /* Its waiters look again; refresh files any still waiting (for a
         * later record) on a fresh list. */
        struct CUstream_st **list = e->waiters;
        size_t n = e->nwaiters;
        e->waiters = NULL;
        e->nwaiters = e->cap_waiters = 0;
        for (size_t i = 0; i < n; i++) {
            list[i]->waiting_on = NULL;
            refresh(list[i]);
        }
        free(list);
    }
    if (s->head == s->len)
        s->head = s->len = 0;
    refresh(s);
}

/* Runs the next item of a random ready stream; false if none can run. */
static bool run_one(void)
{
    if (M.nready == 0)
        return false;
    execute(M.ready[next_random() % M.nready]);
    return true;
}

typedef bool (*done_fn)(const void *arg);

static cudaError_t run_until(done_fn done, const void *arg, const char *what)
{
    while (!done(arg))
        if (!run_one()) {
            mock_cuda_problem("deadlock: %s waits for work that can never run", what);
            return fail(cudaErrorLaunchFailure);
        }
    return cudaSuccess;
}

static bool stream_empty(const void *arg)
{
    const struct CUstream_st *s = (const struct CUstream_st *)arg;
    return s->head == s->len;
}

static bool event_done(const void *arg)
{
    const struct CUevent_st *e = (const struct CUevent_st *)arg;
    return e->completed >= e->recorded;
}

static bool device_idle(const void *arg)
{
    int dev = *(const int *)arg;
    for (size_t i = 0; i < M.nstreams; i++)
        if (M.streams[i]->dev == dev && M.streams[i]->head != M.streams[i]->len)
            return false;
    return true;
}

/* Frees destroyed streams and events once no queued work can refer to
 * them, so that a long test does not scan thousands of dead streams. */
static void collect(void)
{
    for (size_t i = 0; i < M.nstreams; i++)
        if (M.streams[i]->head != M.streams[i]->len)
            return;
    size_t k = 0;
    for (size_t i = 0; i < M.nstreams; i++) {
        if (M.streams[i]->dead) {
            free(M.streams[i]->q);
            free(M.streams[i]);
        } else {
            M.streams[k++] = M.streams[i];
        }
    }
    M.nstreams = k;
    k = 0;
    for (size_t i = 0; i < M.nevents; i++) {
        if (M.events[i]->dead) {
            free(M.events[i]->waiters);
            free(M.events[i]);
        } else
            M.events[k++] = M.events[i];
    }
    M.nevents = k;
}

static cudaError_t push(struct CUstream_st *s, const op_t *o)
{
    if (!stream_ok(s, "work enqueued"))
        return fail(cudaErrorInvalidResourceHandle);
    s->q = (op_t *)grow(s->q, &s->cap, s->len + 1, sizeof *s->q);
    s->q[s->len++] = *o;
    if (s->len - s->head == 1)
        refresh(s); /* it is the next item */
    return cudaSuccess;
}

/* A device pointer range must lie inside a live allocation. */
static alloc_t *device_range(const void *p, size_t bytes, const char *what)
{
    alloc_t *a = find_alloc(p, bytes);
    if (!a)
        mock_cuda_problem("%s: %zu bytes at %p are not inside any device allocation", what, bytes, p);
    return a;
}

/* ------------------------------------------------------------ the API */

const char *cudaGetErrorName(cudaError_t e)
{
    switch (e) {
    case cudaSuccess: return "cudaSuccess";
    case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
    case cudaErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
    case cudaErrorInsufficientDriver: return "cudaErrorInsufficientDriver";
    case cudaErrorNoDevice: return "cudaErrorNoDevice";
    case cudaErrorNoKernelImageForDevice: return "cudaErrorNoKernelImageForDevice";
    case cudaErrorInvalidDevice: return "cudaErrorInvalidDevice";
    case cudaErrorDevicesUnavailable: return "cudaErrorDevicesUnavailable";
    case cudaErrorInvalidResourceHandle: return "cudaErrorInvalidResourceHandle";
    case cudaErrorNotReady: return "cudaErrorNotReady";
    case cudaErrorIllegalAddress: return "cudaErrorIllegalAddress";
    case cudaErrorPeerAccessAlreadyEnabled: return "cudaErrorPeerAccessAlreadyEnabled";
    case cudaErrorPeerAccessNotEnabled: return "cudaErrorPeerAccessNotEnabled";
    case cudaErrorLaunchFailure: return "cudaErrorLaunchFailure";
    case cudaErrorNotSupported: return "cudaErrorNotSupported";
    }
    return "cudaErrorUnknown";
}

const char *cudaGetErrorString(cudaError_t e)
{
    return e == cudaSuccess ? "no error" : e == cudaErrorMemoryAllocation ? "out of memory"
                                                                          : "mock CUDA error";
}

cudaError_t cudaGetLastError(void)
{
    if (M.sticky[M.cur])
        return cudaErrorIllegalAddress; /* sticky: not cleared */
    cudaError_t e = M.last;
    M.last = cudaSuccess;
    return e;
}

cudaError_t cudaGetDeviceCount(int *count)
{
    if (!configured)
        mock_cuda_reset(NULL); /* a whole program: COLLVIZ_MOCK_CUDA says how */
    *count = M.cfg.ndev;
    return M.cfg.ndev > 0 ? cudaSuccess : fail(cudaErrorNoDevice);
}

cudaError_t cudaDriverGetVersion(int *v)
{
    *v = 13000;
    return cudaSuccess;
}

cudaError_t cudaRuntimeGetVersion(int *v)
{
    *v = 13000;
    return cudaSuccess;
}

cudaError_t cudaSetDevice(int dev)
{
    if (dev < 0 || dev >= M.cfg.ndev)
        return fail(cudaErrorInvalidDevice);
    M.cur = dev;
    return cudaSuccess;
}

cudaError_t cudaGetDevice(int *dev)
{
    *dev = M.cur;
    return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int dev)
{
    if (dev < 0 || dev >= M.cfg.ndev)
        return fail(cudaErrorInvalidDevice);
    memset(prop, 0, sizeof *prop);
    snprintf(prop->name, sizeof prop->name, "collviz mock GPU");
    prop->totalGlobalMem = M.cfg.mem_bytes;
    prop->major = 9;
    return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int *value, cudaDeviceAttr attr, int dev)
{
    if (dev < 0 || dev >= M.cfg.ndev)
        return fail(cudaErrorInvalidDevice);
    *value = attr == cudaDevAttrMultiProcessorCount     ? 4
             : attr == cudaDevAttrComputeCapabilityMajor ? 7
             : attr == cudaDevAttrComputeCapabilityMinor ? 5
                                                         : 2048;
    return cudaSuccess;
}

cudaError_t cudaDeviceCanAccessPeer(int *can, int dev, int peer)
{
    if (dev < 0 || dev >= M.cfg.ndev || peer < 0 || peer >= M.cfg.ndev)
        return fail(cudaErrorInvalidDevice);
    *can = M.cfg.peer && dev != peer;
    return cudaSuccess;
}

cudaError_t cudaDeviceEnablePeerAccess(int peer, unsigned flags)
{
    (void)flags;
    if (peer < 0 || peer >= M.cfg.ndev || peer == M.cur || !M.cfg.peer)
        return fail(cudaErrorInvalidDevice);
    if (M.peer_on[M.cur][peer])
        return fail(cudaErrorPeerAccessAlreadyEnabled);
    M.peer_on[M.cur][peer] = true;
    return cudaSuccess;
}

cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total_bytes)
{
    *total_bytes = M.cfg.mem_bytes;
    *free_bytes = M.cfg.mem_bytes - M.used[M.cur];
    return cudaSuccess;
}

cudaError_t cudaMalloc(void **ptr, size_t bytes)
{
    *ptr = NULL;
    M.st.mallocs++;
    if (M.st.mallocs == M.cfg.fail_malloc_at || bytes > M.cfg.mem_bytes - M.used[M.cur])
        return fail(cudaErrorMemoryAllocation);
    size_t rounded = (bytes + 255) / 256 * 256;
    char *p = (char *)aligned_alloc(256, rounded ? rounded : 256);
    if (!p)
        return fail(cudaErrorMemoryAllocation);
    /* Never zero by luck (the first MiB is enough to catch a missing
     * memset, and filling gigabytes would dominate the tests' time). */
    memset(p, 0xA5, rounded < ((size_t)1 << 20) ? (rounded ? rounded : 256) : (size_t)1 << 20);
    M.allocs = (alloc_t *)grow(M.allocs, &M.cap_allocs, M.nallocs + 1, sizeof *M.allocs);
    M.allocs[M.nallocs++] = (alloc_t){p, bytes, M.cur};
    M.used[M.cur] += bytes;
    M.st.allocs++;
    *ptr = p;
    return cudaSuccess;
}

cudaError_t cudaFree(void *ptr)
{
    if (!ptr)
        return cudaSuccess;
    for (size_t i = 0; i < M.nallocs; i++)
        if (M.allocs[i].p == ptr) {
            int dev = M.allocs[i].dev;
            if (M.sticky[dev])
                return cudaErrorIllegalAddress; /* only a reset gives it back */
            /* cudaFree waits for the device's work, as the real one does. */
            cudaError_t e = run_until(device_idle, &dev, "cudaFree");
            if (e != cudaSuccess)
                return e;
            for (size_t j = 0; j < M.nallocs; j++)
                if (M.allocs[j].p == ptr) {
                    drop_alloc(j);
                    break;
                }
            return cudaSuccess;
        }
    mock_cuda_problem("cudaFree of a pointer that is not a live allocation");
    return fail(cudaErrorInvalidValue);
}

cudaError_t cudaMemsetAsync(void *ptr, int value, size_t bytes, cudaStream_t stream)
{
    if (bytes == 0)
        return cudaSuccess;
    if (!device_range(ptr, bytes, "cudaMemsetAsync"))
        return fail(cudaErrorInvalidValue);
    op_t o = {.kind = OP_SET, .dst = (char *)ptr, .bytes = bytes, .value = value, .dst_dev = true};
    return push(stream, &o);
}

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind,
                            cudaStream_t stream)
{
    bool dd = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
    bool sd = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
    if (bytes == 0)
        return cudaSuccess;
    if ((dd && !device_range(dst, bytes, "cudaMemcpyAsync destination")) ||
        (sd && !device_range(src, bytes, "cudaMemcpyAsync source")))
        return fail(cudaErrorInvalidValue);
    op_t o = {.kind = OP_COPY, .dst = (char *)dst, .src = (const char *)src, .bytes = bytes,
              .dst_dev = dd, .src_dev = sd};
    return push(stream, &o);
}

cudaError_t cudaMemcpyPeerAsync(void *dst, int dst_dev, const void *src, int src_dev, size_t bytes,
                                cudaStream_t stream)
{
    if (bytes == 0)
        return cudaSuccess;
    alloc_t *a = device_range(dst, bytes, "cudaMemcpyPeerAsync destination");
    alloc_t *b = device_range(src, bytes, "cudaMemcpyPeerAsync source");
    if (!a || !b)
        return fail(cudaErrorInvalidValue);
    if (a->dev != dst_dev || b->dev != src_dev) {
        mock_cuda_problem("cudaMemcpyPeerAsync names GPUs %d <- %d for memory on %d <- %d", dst_dev,
                src_dev, a->dev, b->dev);
        return fail(cudaErrorInvalidValue);
    }
    op_t o = {.kind = OP_COPY, .dst = (char *)dst, .src = (const char *)src, .bytes = bytes,
              .dst_dev = true, .src_dev = true};
    return push(stream, &o);
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned flags)
{
    (void)flags;
    struct CUstream_st *s = (struct CUstream_st *)calloc(1, sizeof *s);
    if (!s)
        return fail(cudaErrorMemoryAllocation);
    s->dev = M.cur;
    s->ready_at = -1;
    M.streams = (struct CUstream_st **)grow(M.streams, &M.cap_streams, M.nstreams + 1,
                                            sizeof *M.streams);
    M.streams[M.nstreams++] = s;
    M.st.streams++;
    *stream = s;
    return cudaSuccess;
}

cudaError_t cudaStreamDestroy(cudaStream_t s)
{
    if (!stream_ok(s, "cudaStreamDestroy"))
        return fail(cudaErrorInvalidResourceHandle);
    /* Work already enqueued still completes. */
    cudaError_t e = run_until(stream_empty, s, "cudaStreamDestroy");
    s->dead = true;
    M.st.streams--;
    collect();
    return e;
}

cudaError_t cudaStreamSynchronize(cudaStream_t s)
{
    if (!stream_ok(s, "cudaStreamSynchronize"))
        return fail(cudaErrorInvalidResourceHandle);
    cudaError_t e = run_until(stream_empty, s, "cudaStreamSynchronize");
    return e != cudaSuccess ? e : M.sticky[s->dev] ? cudaErrorIllegalAddress : cudaSuccess;
}

/* Work still queued: it runs (the double has no real concurrency) but the
 * answer is cudaErrorNotReady, as a GPU still busy would give, so that a
 * polling caller goes round its loop once. */
cudaError_t cudaStreamQuery(cudaStream_t s)
{
    if (!stream_ok(s, "cudaStreamQuery"))
        return fail(cudaErrorInvalidResourceHandle);
    if (!stream_empty(s)) {
        cudaError_t e = run_until(stream_empty, s, "cudaStreamQuery");
        return e != cudaSuccess ? e : cudaErrorNotReady;
    }
    return M.sticky[s->dev] ? cudaErrorIllegalAddress : cudaSuccess;
}

bool mock_cuda_nccl_error(void) { return M.cfg.nccl_error; }
long mock_cuda_nccl_version(void) { return M.cfg.nccl_version; }
long mock_cuda_nccl_init_fail(void) { return M.cfg.nccl_init_fail; }

cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned flags)
{
    (void)flags;
    if (!event_ok(e, "cudaStreamWaitEvent") || !stream_ok(s, "cudaStreamWaitEvent"))
        return fail(cudaErrorInvalidResourceHandle);
    if (e->recorded == 0)
        return cudaSuccess; /* never recorded: nothing to wait for */
    op_t o = {.kind = OP_WAIT, .ev = e, .gen = e->recorded};
    return push(s, &o);
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned flags)
{
    if (++M.event_creates == M.cfg.fail_event_at)
        return fail(cudaErrorMemoryAllocation);
    struct CUevent_st *e = (struct CUevent_st *)calloc(1, sizeof *e);
    if (!e)
        return fail(cudaErrorMemoryAllocation);
    e->dev = M.cur;
    e->timing = !(flags & cudaEventDisableTiming);
    M.events = (struct CUevent_st **)grow(M.events, &M.cap_events, M.nevents + 1, sizeof *M.events);
    M.events[M.nevents++] = e;
    M.st.events++;
    *event = e;
    return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t *event) { return cudaEventCreateWithFlags(event, 0); }

void mock_cuda_fail_event_in(long n) { M.cfg.fail_event_at = n > 0 ? M.event_creates + n : 0; }

cudaError_t cudaEventDestroy(cudaEvent_t e)
{
    if (!event_ok(e, "cudaEventDestroy"))
        return fail(cudaErrorInvalidResourceHandle);
    e->dead = true; /* the object stays while queued waits may refer to it */
    M.st.events--;
    collect();
    return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s)
{
    if (!event_ok(e, "cudaEventRecord"))
        return fail(cudaErrorInvalidResourceHandle);
    if (s && e->dev != s->dev) {
        mock_cuda_problem("an event of GPU %d recorded on a stream of GPU %d", e->dev, s->dev);
        return fail(cudaErrorInvalidResourceHandle);
    }
    op_t o = {.kind = OP_RECORD, .ev = e, .gen = e->recorded + 1};
    cudaError_t r = push(s, &o);
    if (r == cudaSuccess)
        e->recorded++;
    return r;
}

cudaError_t cudaEventSynchronize(cudaEvent_t e)
{
    if (!event_ok(e, "cudaEventSynchronize"))
        return fail(cudaErrorInvalidResourceHandle);
    cudaError_t r = run_until(event_done, e, "cudaEventSynchronize");
    return r != cudaSuccess ? r : M.sticky[e->dev] ? cudaErrorIllegalAddress : cudaSuccess;
}

cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b)
{
    if (!a || !b || a->dead || b->dead || !a->timing || !b->timing) {
        mock_cuda_problem("cudaEventElapsedTime on an event that is destroyed or has no timing");
        return fail(cudaErrorInvalidResourceHandle);
    }
    if (a->recorded == 0 || b->recorded == 0 || a->completed < a->recorded ||
        b->completed < b->recorded)
        return fail(cudaErrorNotReady);
    *ms = (float)((b->time - a->time) * 1e3);
    return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize(void)
{
    int dev = M.cur;
    cudaError_t e = run_until(device_idle, &dev, "cudaDeviceSynchronize");
    return e != cudaSuccess ? e : M.sticky[dev] ? cudaErrorIllegalAddress : cudaSuccess;
}

cudaError_t cudaDeviceReset(void)
{
    int dev = M.cur;
    M.st.resets++;
    for (size_t i = 0; i < M.nstreams; i++)
        if (M.streams[i]->dev == dev) {
            M.streams[i]->head = M.streams[i]->len = 0; /* the context's work is gone */
            ready_remove(M.streams[i]);
            unwait(M.streams[i]);
            if (!M.streams[i]->dead) {
                M.streams[i]->dead = true;
                M.st.streams--;
            }
        }
    for (size_t i = 0; i < M.nevents; i++)
        if (M.events[i]->dev == dev && !M.events[i]->dead) {
            M.events[i]->dead = true;
            M.st.events--;
        }
    for (size_t i = M.nallocs; i-- > 0;)
        if (M.allocs[i].dev == dev)
            drop_alloc(i);
    for (int d = 0; d < MOCK_MAX_DEV; d++)
        M.peer_on[dev][d] = M.peer_on[d][dev] = false;
    M.sticky[dev] = false;
    return cudaSuccess;
}

/* Whether this build has kernels for the current GPU: the double's GPUs
 * are of an architecture the build left out when cfg.no_kernels. */
cudaError_t cv_cuda__kernels_ok(void)
{
    return M.cfg.no_kernels ? fail(cudaErrorNoKernelImageForDevice) : cudaSuccess;
}

/* The backend's kernel launcher: the real one's contract, run by the
 * scheduler with the CPU backend's element arithmetic. */
cudaError_t cv_cuda__launch(cv_dtype dtype, cv_redop redop, cv_xfer_kind kind, void *dst,
                            const void *local, const void *src, int64_t n, int divisor,
                            int sms, cudaStream_t stream)
{
    if (sms < 1) {
        mock_cuda_problem("a kernel launched with %d multiprocessors to size its grid from", sms);
        return fail(cudaErrorInvalidValue);
    }
    if (n <= 0)
        return cudaSuccess;
    if ((kind != CV_XFER_REDUCE && kind != CV_XFER_REDUCE_COPY) || divisor < 0 ||
        (kind == CV_XFER_REDUCE_COPY && !local) || (divisor > 0 && cv_dtype_is_float(dtype)) ||
        (cv_redop_is_bitwise(redop) && cv_dtype_is_float(dtype)))
        return cudaErrorNotSupported;
    if (++M.st.launches == M.cfg.fail_launch_at)
        return fail(cudaErrorLaunchFailure);
    if (!stream_ok(stream, "a kernel launched"))
        return fail(cudaErrorInvalidResourceHandle);
    if (stream->dev != M.cur) {
        mock_cuda_problem("a kernel launched on GPU %d's stream while GPU %d is current", stream->dev,
                M.cur);
        return fail(cudaErrorInvalidResourceHandle);
    }
    size_t bytes = (size_t)n * cv_dtype_size(dtype);
    alloc_t *d = device_range(dst, bytes, "kernel destination");
    alloc_t *s = device_range(src, bytes, "kernel source");
    alloc_t *l = kind == CV_XFER_REDUCE_COPY ? device_range(local, bytes, "kernel own operand")
                                             : d;
    if (!d || !s || !l)
        return fail(cudaErrorIllegalAddress);
    if (l->dev != d->dev) {
        mock_cuda_problem("a reduce-copy's own operand is on GPU %d, its destination on GPU %d",
                          l->dev, d->dev);
        return fail(cudaErrorIllegalAddress);
    }
    if (d->dev != stream->dev || (s->dev != stream->dev && !M.peer_on[stream->dev][s->dev])) {
        mock_cuda_problem("a kernel on GPU %d touches GPU %d's memory without peer access", stream->dev,
                d->dev != stream->dev ? d->dev : s->dev);
        return fail(cudaErrorIllegalAddress);
    }
    op_t o = {.kind = OP_KERNEL, .dst = (char *)dst, .src = (const char *)src,
              .local = (const char *)local, .bytes = bytes, .dst_dev = true, .src_dev = true,
              .dtype = dtype, .redop = redop, .xk = kind, .n = n, .divisor = divisor};
    return push(stream, &o);
}

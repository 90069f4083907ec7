/*
 * cuda_backend.cu: the cv_backend table that executes plans on CUDA GPUs.
 *
 * Rank r (and an in-network plan's switch, participant N, after the ranks)
 * lives on visible device r mod D, in one allocation of its own that
 * holds its SEND, RECV and SCRATCH buffers (so 8 ranks share one GPU as 8
 * virtual devices). Each rank has a stream; a transfer is issued on the
 * stream of the rank it writes, so a step's transfers into different ranks
 * run concurrently while a step never races with itself (plans guarantee
 * that no transfer of a step touches a region another one writes).
 *
 * A step is a fork and join per device: a control stream records `begin`,
 * every rank stream written in the step waits for it, runs its transfers and
 * records `done`, the control stream waits for every `done` and records
 * `end`. run_step (a visual run, which reads the buffers after each step)
 * waits on the host for every device's `end`, and the step's time is the
 * longest begin-to-end interval over devices. run_all (bench mode) keeps
 * the host out of it: each step's end is an event (a mark) on every control
 * stream, the next step's `begin` on a GPU follows every GPU's mark, so the
 * whole plan is enqueued at once and waited for once; step times are read
 * off the marks afterwards. Copies are cudaMemcpyAsync (same GPU)
 * or cudaMemcpyPeerAsync (which the driver stages through host memory when
 * the GPUs cannot reach each other); reduce and divide are the kernels of
 * cuda_kernels.cu, which read a peer's memory directly where peer access
 * was enabled and otherwise a staging copy on the destination's GPU.
 *
 * Every CUDA call goes through CHECK, which records the call and CUDA's
 * error string into err and jumps to cleanup. A failure during a step
 * (such as a kernel fault) marks the state poisoned: close then resets the
 * devices it used, since a faulted context cannot free its own memory.
 */
#include <cuda_runtime.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_internal.h"

/* ------------------------------------------------------------------ types */

typedef struct {
    int ordinal;      /* CUDA device number */
    int sms;          /* multiprocessors: the kernels' grids are sized from it */
    cudaStream_t ctl; /* forks and joins the ranks' streams of a step */
    cudaEvent_t begin, end;
    cudaEvent_t *marks; /* run_all: the end of each step (nsteps + 1), made on first use */
    bool used;          /* written in the current step */
} cuda_dev;

typedef struct {
    int dev;                       /* index into state->devs */
    char *base;                    /* the one allocation behind buf[] */
    char *buf[CV_BUF_COUNT];       /* NULL where the buffer is empty */
    int64_t count[CV_BUF_COUNT];   /* elements */
    char *stage;                   /* reduce sources from unreachable GPUs */
    cudaStream_t stream;           /* every transfer that writes this rank */
    cudaEvent_t done;
    bool used; /* written in the current step */
} cuda_rank;

typedef struct {
    const cv_plan *plan;
    size_t esize;
    int nranks, ndevs;
    cuda_rank *ranks;
    cuda_dev *devs;
    bool *peer;    /* peer[a * ndevs + b]: device a reads device b's memory */
    bool *step_used; /* run_all: [step * ndevs + d], GPU d written in that step */
    bool poisoned; /* a step failed on the device: reset it on close */
} cuda_state;

/* Buffers inside a rank's allocation start on this boundary, which keeps
 * the kernels' 16-byte vector loads available. */
#define CUDA_BUF_ALIGN 256

/* --------------------------------------------------------------- errors */

/* Maps a CUDA error to a cv_status and writes "what: cudaErrorX (text)". */
static int cuda_fail(cudaError_t e, const char *what, char *err, size_t errlen)
{
    int status = CV_EBACKEND;
    if (e == cudaErrorMemoryAllocation)
        status = CV_ENOMEM;
    else if (e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver ||
             e == cudaErrorDevicesUnavailable)
        status = CV_EUNAVAIL;
    if (err && errlen)
        snprintf(err, errlen, "%s%s: %s (%s)", status == CV_EUNAVAIL ? "no CUDA device: " : "",
                 what, cudaGetErrorName(e), cudaGetErrorString(e));
    cudaGetLastError(); /* clear a non-sticky error so later calls start clean */
    return status;
}

#define CHECK(call)                                                                        \
    do {                                                                                   \
        cudaError_t e_ = (call);                                                           \
        if (e_ != cudaSuccess) {                                                           \
            status = cuda_fail(e_, #call, err, errlen);                                    \
            goto fail;                                                                     \
        }                                                                                  \
    } while (0)

extern "C" int cv_cuda__device_count(int *count, char *err, size_t errlen)
{
    *count = 0;
    cudaError_t e = cudaGetDeviceCount(count);
    if (e != cudaSuccess) {
        int driver = 0, runtime = 0;
        cudaDriverGetVersion(&driver);
        cudaRuntimeGetVersion(&runtime);
        /* "driver version is insufficient" is also what a machine with no
         * driver at all gets: say which it is. */
        if (e == cudaErrorInsufficientDriver && driver == 0)
            snprintf(err, errlen, "no CUDA device: no NVIDIA driver is installed "
                     "(cudaGetDeviceCount returned %s)", cudaGetErrorName(e));
        else if (e == cudaErrorInsufficientDriver)
            snprintf(err, errlen, "no CUDA device: the NVIDIA driver supports CUDA %d.%d, this "
                     "collviz needs %d.%d (cudaGetDeviceCount returned %s)", driver / 1000,
                     driver % 1000 / 10, runtime / 1000, runtime % 1000 / 10, cudaGetErrorName(e));
        else
            snprintf(err, errlen, "no CUDA device: cudaGetDeviceCount returned %s (%s)",
                     cudaGetErrorName(e), cudaGetErrorString(e));
        cudaGetLastError();
        *count = 0;
        return CV_EUNAVAIL;
    }
    if (*count < 1) {
        snprintf(err, errlen, "no CUDA device: cudaGetDeviceCount found 0 devices%s",
                 getenv("CUDA_VISIBLE_DEVICES") ? " (CUDA_VISIBLE_DEVICES is set)" : "");
        return CV_EUNAVAIL;
    }
    return CV_OK;
}

/* ------------------------------------------------------------- backend */

static int cuda_probe(char *err, size_t errlen)
{
    int n, status = cv_cuda__device_count(&n, err, errlen);
    if (status != CV_OK)
        return status;
    /* Creating a context is what fails on a busy exclusive-mode GPU or a
     * broken driver install; better found here than in the middle of a run. */
    cudaError_t e = cudaSetDevice(0);
    if (e == cudaSuccess)
        e = cudaFree(NULL);
    if (e != cudaSuccess) {
        snprintf(err, errlen, "no CUDA device: device 0 cannot be used: %s (%s)",
                 cudaGetErrorName(e), cudaGetErrorString(e));
        cudaGetLastError();
        return CV_EUNAVAIL;
    }
    /* Copies would work without them, and the first reduction would fail
     * in the middle of a run: say it now, with the fix. */
    e = cv_cuda__kernels_ok();
    if (e != cudaSuccess) {
        int major = 0, minor = 0;
        cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0);
        cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, 0);
        snprintf(err, errlen,
                 "no CUDA device: this build has no kernels for device 0 (compute capability "
                 "%d.%d); rebuild with -DCMAKE_CUDA_ARCHITECTURES=%d%d (%s)",
                 major, minor, major, minor, cudaGetErrorName(e));
        cudaGetLastError();
        return CV_EUNAVAIL;
    }
    return CV_OK;
}

static void cuda_close(void *opaque)
{
    cuda_state *s = (cuda_state *)opaque;
    if (!s)
        return;
    /* Errors are ignored here: this is the cleanup of every failure path, and
     * each call below is safe on a NULL or already-failed handle. */
    for (int r = 0; s->ranks && s->devs && r < s->nranks; r++) {
        cuda_rank *rk = &s->ranks[r];
        cudaSetDevice(s->devs[rk->dev].ordinal);
        if (rk->stream)
            cudaStreamSynchronize(rk->stream);
        cudaFree(rk->base);
        cudaFree(rk->stage);
        if (rk->done)
            cudaEventDestroy(rk->done);
        if (rk->stream)
            cudaStreamDestroy(rk->stream);
    }
    for (int d = 0; s->devs && d < s->ndevs; d++) {
        cuda_dev *dv = &s->devs[d];
        cudaSetDevice(dv->ordinal);
        if (dv->begin)
            cudaEventDestroy(dv->begin);
        if (dv->end)
            cudaEventDestroy(dv->end);
        if (dv->ctl)
            cudaStreamDestroy(dv->ctl);
        for (int k = 0; dv->marks && k <= s->plan->nsteps; k++)
            if (dv->marks[k])
                cudaEventDestroy(dv->marks[k]);
        free(dv->marks);
        if (s->poisoned)
            cudaDeviceReset();
    }
    cudaGetLastError();
    free(s->ranks);
    free(s->devs);
    free(s->peer);
    free(s->step_used);
    free(s);
}

/* Devices, their control streams and events, and peer access between them. */
static int open_devices(cuda_state *s, char *err, size_t errlen)
{
    int status = CV_OK;
    for (int d = 0; d < s->ndevs; d++) {
        cuda_dev *dv = &s->devs[d];
        CHECK(cudaSetDevice(d));
        CHECK(cudaDeviceGetAttribute(&dv->sms, cudaDevAttrMultiProcessorCount, d));
        CHECK(cudaStreamCreateWithFlags(&dv->ctl, cudaStreamNonBlocking));
        CHECK(cudaEventCreate(&dv->begin));
        CHECK(cudaEventCreate(&dv->end));
    }
    for (int a = 0; a < s->ndevs; a++) {
        for (int b = 0; b < s->ndevs; b++) {
            int can = 0;
            if (a == b)
                continue;
            CHECK(cudaDeviceCanAccessPeer(&can, a, b));
            if (!can)
                continue;
            CHECK(cudaSetDevice(a));
            cudaError_t e = cudaDeviceEnablePeerAccess(b, 0);
            /* Already enabled (by an earlier open) is as good as enabled now;
             * any other refusal just means staging. */
            s->peer[a * s->ndevs + b] = (e == cudaSuccess || e == cudaErrorPeerAccessAlreadyEnabled);
            cudaGetLastError();
        }
    }
fail:
    return status;
}

/* Staging each rank needs: its largest reduce from a GPU its own GPU cannot
 * read. Transfers into a rank run in order on its stream, so one staging
 * area of the largest such transfer serves them all. One pass over the
 * plan, which can hold a million transfers (direct alltoall, 1024 ranks). */
static void stage_counts(const cuda_state *s, int64_t *most)
{
    const cv_plan *p = s->plan;
    if (s->ndevs < 2)
        return;
    for (int64_t i = 0; i < p->ntransfers; i++) {
        const cv_transfer *t = &p->transfers[i];
        int dd = s->ranks[t->dst].dev, sd = s->ranks[t->src].dev;
        if (t->kind != CV_XFER_COPY && dd != sd && !s->peer[dd * s->ndevs + sd] &&
            t->count > most[t->dst])
            most[t->dst] = t->count;
    }
}

/* Sizes rank r's buffers and places them in its one allocation; returns
 * the allocation's bytes. */
static size_t rank_layout(cuda_state *s, int r, size_t offs[CV_BUF_COUNT])
{
    cuda_rank *rk = &s->ranks[r];
    size_t total = 0;
    for (int b = 0; b < CV_BUF_COUNT; b++) {
        rk->count[b] = cv_plan_buf_count(s->plan, (cv_buf)b, r);
        offs[b] = total;
        total += ((size_t)rk->count[b] * s->esize + CUDA_BUF_ALIGN - 1) / CUDA_BUF_ALIGN *
                 CUDA_BUF_ALIGN;
    }
    return total;
}

/* "512 B", "3.0 KiB", "12.5 MiB", "160.50 GiB": sizes as a reader takes them in. */
static const char *size_text(double bytes, char *out, size_t outlen)
{
    if (bytes >= 1073741824.0)
        snprintf(out, outlen, "%.2f GiB", bytes / 1073741824.0);
    else if (bytes >= 1048576.0)
        snprintf(out, outlen, "%.1f MiB", bytes / 1048576.0);
    else if (bytes >= 1024.0)
        snprintf(out, outlen, "%.1f KiB", bytes / 1024.0);
    else
        snprintf(out, outlen, "%.0f B", bytes);
    return out;
}

/* Refuses up front, with the sizes in the message, what cannot fit in a
 * GPU's free memory, rather than allocating most of it and failing on the
 * last rank. cudaMalloc can still fail (fragmentation, other processes);
 * that is reported the same way. */
static int check_fits(cuda_state *s, const int64_t *stages, char *err, size_t errlen)
{
    int status = CV_OK;
    for (int d = 0; d < s->ndevs; d++) {
        size_t need = 0, avail = 0, total = 0, offs[CV_BUF_COUNT];
        int ranks_here = 0;
        for (int r = d; r < s->nranks; r += s->ndevs, ranks_here++)
            need += rank_layout(s, r, offs) + (size_t)stages[r] * s->esize;
        CHECK(cudaSetDevice(s->devs[d].ordinal));
        CHECK(cudaMemGetInfo(&avail, &total));
        if (need > avail) {
            char a[32], b[32], c[32];
            snprintf(err, errlen, "out of device memory: %d rank%s on GPU %d need %s, %s of %s "
                     "free; lower --count or --ranks", ranks_here, ranks_here == 1 ? "" : "s",
                     s->devs[d].ordinal, size_text((double)need, a, sizeof a),
                     size_text((double)avail, b, sizeof b), size_text((double)total, c, sizeof c));
            return CV_ENOMEM;
        }
    }
fail:
    return status;
}

static int open_ranks(cuda_state *s, char *err, size_t errlen)
{
    int status = CV_OK;
    int64_t *stages = (int64_t *)calloc((size_t)s->nranks, sizeof *stages);
    if (!stages) {
        snprintf(err, errlen, "out of host memory opening the cuda backend");
        return CV_ENOMEM;
    }
    stage_counts(s, stages);
    status = check_fits(s, stages, err, errlen);
    for (int r = 0; r < s->nranks && status == CV_OK; r++) {
        cuda_rank *rk = &s->ranks[r];
        size_t offs[CV_BUF_COUNT], total = rank_layout(s, r, offs);
        size_t stage = (size_t)stages[r] * s->esize;
        CHECK(cudaSetDevice(s->devs[rk->dev].ordinal));
        CHECK(cudaStreamCreateWithFlags(&rk->stream, cudaStreamNonBlocking));
        CHECK(cudaEventCreateWithFlags(&rk->done, cudaEventDisableTiming));
        if (total) {
            cudaError_t e = cudaMalloc((void **)&rk->base, total);
            if (e != cudaSuccess) {
                status = cuda_fail(e, "cudaMalloc", err, errlen);
                snprintf(err, errlen, "out of device memory: rank %d needs %zu bytes on GPU %d "
                         "(%s); lower --count or --ranks", r, total, s->devs[rk->dev].ordinal,
                         cudaGetErrorName(e));
                goto fail;
            }
            /* Zeroed as the CPU backend's buffers are, so a visual trace
             * shows the same initial RECV and SCRATCH. */
            CHECK(cudaMemsetAsync(rk->base, 0, total, rk->stream));
        }
        for (int b = 0; b < CV_BUF_COUNT; b++)
            rk->buf[b] = rk->count[b] ? rk->base + offs[b] : NULL;
        if (stage) {
            cudaError_t e = cudaMalloc((void **)&rk->stage, stage);
            if (e != cudaSuccess) {
                status = cuda_fail(e, "cudaMalloc", err, errlen);
                snprintf(err, errlen, "out of device memory: rank %d's staging area of %zu bytes "
                         "on GPU %d (%s)", r, stage, s->devs[rk->dev].ordinal,
                         cudaGetErrorName(e));
                goto fail;
            }
        }
    }
    for (int r = 0; r < s->nranks && status == CV_OK; r++)
        CHECK(cudaStreamSynchronize(s->ranks[r].stream));
fail:
    free(stages);
    return status;
}

static int cuda_open(const cv_plan *plan, void **out, char *err, size_t errlen)
{
    int status, visible;
    *out = NULL;
    if (!plan || plan->spec.ranks < 1) {
        snprintf(err, errlen, "cuda backend: no plan to open");
        return CV_EINVAL;
    }
    status = cv_cuda__device_count(&visible, err, errlen);
    if (status != CV_OK)
        return status;
    cuda_state *s = (cuda_state *)calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of host memory opening the cuda backend");
        return CV_ENOMEM;
    }
    s->plan = plan;
    s->esize = cv_dtype_size(plan->spec.dtype);
    s->nranks = cv_plan_parts(plan); /* an in-network plan's switch lives on a GPU too */
    s->ndevs = visible < plan->spec.ranks ? visible : plan->spec.ranks;
    s->ranks = (cuda_rank *)calloc((size_t)s->nranks, sizeof *s->ranks);
    s->devs = (cuda_dev *)calloc((size_t)s->ndevs, sizeof *s->devs);
    s->peer = (bool *)calloc((size_t)s->ndevs * s->ndevs, sizeof *s->peer);
    if (!s->ranks || !s->devs || !s->peer) {
        cuda_close(s);
        snprintf(err, errlen, "out of host memory opening the cuda backend");
        return CV_ENOMEM;
    }
    /* Round-robin; set before anything can fail, since cuda_close uses it. */
    for (int d = 0; d < s->ndevs; d++)
        s->devs[d].ordinal = d;
    for (int r = 0; r < s->nranks; r++)
        s->ranks[r].dev = r % s->ndevs;
    status = open_devices(s, err, errlen);
    if (status == CV_OK)
        status = open_ranks(s, err, errlen);
    if (status != CV_OK) {
        cuda_close(s);
        return status;
    }
    *out = s;
    return CV_OK;
}

/* The device address of elements [off, off+count) of a rank's buffer, or
 * NULL (with err written) when the range is outside it. */
static char *region(cuda_state *s, int rank, cv_buf buf, int64_t off, int64_t count, char *err,
                    size_t errlen)
{
    if (rank < 0 || rank >= s->nranks || (int)buf < 0 || buf >= CV_BUF_COUNT || off < 0 ||
        count < 0 || off + count > s->ranks[rank].count[buf] || !s->ranks[rank].buf[buf]) {
        snprintf(err, errlen, "cuda backend: rank %d %s [%lld, %lld) is outside the buffer",
                 rank, cv_buf_name(buf), (long long)off, (long long)(off + count));
        return NULL;
    }
    return s->ranks[rank].buf[buf] + (size_t)off * s->esize;
}

static void settle(cuda_state *s);

/* write and read go through the rank's own stream and wait for it, so the
 * data is in place (or back) before they return, whatever the host memory.
 * A fault that first shows here (a sticky error from the device) is
 * settled like one in a step, so that close resets the device. */
static int cuda_write(void *opaque, int rank, cv_buf buf, int64_t off, int64_t count,
                      const void *src, char *err, size_t errlen)
{
    cuda_state *s = (cuda_state *)opaque;
    int status = CV_OK;
    if (count == 0)
        return CV_OK;
    char *dst = region(s, rank, buf, off, count, err, errlen);
    if (!dst)
        return CV_EINVAL;
    cuda_rank *rk = &s->ranks[rank];
    CHECK(cudaSetDevice(s->devs[rk->dev].ordinal));
    CHECK(cudaMemcpyAsync(dst, src, (size_t)count * s->esize, cudaMemcpyHostToDevice, rk->stream));
    CHECK(cudaStreamSynchronize(rk->stream));
fail:
    if (status == CV_EBACKEND)
        settle(s);
    return status;
}

static int cuda_read(void *opaque, int rank, cv_buf buf, int64_t off, int64_t count, void *dst,
                     char *err, size_t errlen)
{
    cuda_state *s = (cuda_state *)opaque;
    int status = CV_OK;
    if (count == 0)
        return CV_OK;
    char *src = region(s, rank, buf, off, count, err, errlen);
    if (!src)
        return CV_EINVAL;
    cuda_rank *rk = &s->ranks[rank];
    CHECK(cudaSetDevice(s->devs[rk->dev].ordinal));
    CHECK(cudaMemcpyAsync(dst, src, (size_t)count * s->esize, cudaMemcpyDeviceToHost, rk->stream));
    CHECK(cudaStreamSynchronize(rk->stream));
fail:
    if (status == CV_EBACKEND)
        settle(s);
    return status;
}

/* Enqueues transfer t on the stream of the rank it writes. */
static int issue(cuda_state *s, const cv_transfer *t, char *err, size_t errlen)
{
    int status = CV_OK;
    const cv_spec *spec = &s->plan->spec;
    size_t bytes = (size_t)t->count * s->esize;
    char *dst = region(s, t->dst, (cv_buf)t->dst_buf, t->dst_off, t->count, err, errlen);
    const char *src = region(s, t->src, (cv_buf)t->src_buf, t->src_off, t->count, err, errlen);
    if (!dst || !src)
        return CV_EINVAL; /* before the ranks are looked up: they may be out of range */
    cuda_rank *dr = &s->ranks[t->dst], *sr = &s->ranks[t->src];
    cuda_dev *dd = &s->devs[dr->dev], *sd = &s->devs[sr->dev];

    CHECK(cudaSetDevice(dd->ordinal));
    if (!dr->used) {
        CHECK(cudaStreamWaitEvent(dr->stream, dd->begin, 0));
        dr->used = dd->used = true;
    }
    if (t->kind == CV_XFER_COPY) {
        if (dd == sd)
            CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, dr->stream));
        else
            CHECK(cudaMemcpyPeerAsync(dst, dd->ordinal, src, sd->ordinal, bytes, dr->stream));
        return CV_OK;
    }
    if (t->kind != CV_XFER_REDUCE && t->kind != CV_XFER_REDUCE_COPY) {
        snprintf(err, errlen, "cuda backend: unknown transfer kind %d", t->kind);
        return CV_EINVAL;
    }
    {
        /* a reduce-copy's own operand lies on the receiver, so on dst's GPU */
        const char *local = NULL;
        if (t->kind == CV_XFER_REDUCE_COPY &&
            !(local = region(s, t->dst, (cv_buf)t->local_buf, t->local_off, t->count, err, errlen)))
            return CV_EINVAL;
        if (dd != sd && !s->peer[dr->dev * s->ndevs + sr->dev]) {
            CHECK(cudaMemcpyPeerAsync(dr->stage, dd->ordinal, src, sd->ordinal, bytes, dr->stream));
            src = dr->stage;
        }
        /* NCCL's postOp: the write that finishes an integer avg divides */
        bool divide = (t->flags & CV_XFER_FINISH) && spec->redop == CV_AVG &&
                      !cv_dtype_is_float(spec->dtype);
        cudaError_t e = cv_cuda__launch(spec->dtype, spec->redop, (cv_xfer_kind)t->kind, dst,
                                        local, src, t->count, divide ? spec->ranks : 0,
                                        dd->sms, dr->stream);
        if (e == cudaErrorNotSupported) {
            snprintf(err, errlen, "cuda backend: no kernel for %s on %s",
                     cv_redop_name(spec->redop), cv_dtype_name(spec->dtype));
            return CV_EINVAL;
        }
        if (e != cudaSuccess) { /* such as no kernel image for this GPU's architecture */
            status = cuda_fail(e, t->kind == CV_XFER_REDUCE ? "reduce kernel launch"
                                                            : "reduce-copy kernel launch",
                               err, errlen);
            goto fail;
        }
    }
fail:
    return status;
}

/* Lets whatever was enqueued finish (or fail) before anyone frees the
 * buffers, after a failure. An error that survives cudaGetLastError is
 * sticky (a kernel fault): the context is lost, and close must reset the
 * device. */
static void settle(cuda_state *s)
{
    for (int r = 0; r < s->nranks; r++) {
        cudaSetDevice(s->devs[s->ranks[r].dev].ordinal);
        if (s->ranks[r].stream)
            cudaStreamSynchronize(s->ranks[r].stream);
    }
    for (int d = 0; d < s->ndevs; d++) {
        cudaSetDevice(s->devs[d].ordinal);
        cudaGetLastError();
        if (cudaDeviceSynchronize() != cudaSuccess)
            s->poisoned = true;
    }
    cudaGetLastError();
}

/* Enqueues step `step` behind each GPU's `begin`, which the caller has just
 * recorded on the control streams: its transfers go onto the streams of the
 * ranks they write (issue() makes each stream wait for `begin` first), each
 * of those streams records `done`, and its GPU's control stream waits for
 * it. Whatever the caller records on a control stream next marks the end of
 * the step on that GPU. Sets the used flags of ranks and GPUs. */
static int enqueue_step(cuda_state *s, int step, char *err, size_t errlen)
{
    int status = CV_OK;
    const cv_step *st = &s->plan->steps[step];
    for (int r = 0; r < s->nranks; r++)
        s->ranks[r].used = false;
    for (int d = 0; d < s->ndevs; d++)
        s->devs[d].used = false;
    for (int64_t i = 0; i < st->count; i++) {
        status = issue(s, &s->plan->transfers[st->first + i], err, errlen);
        if (status != CV_OK)
            return status;
    }
    for (int r = 0; r < s->nranks; r++) {
        cuda_rank *rk = &s->ranks[r];
        if (!rk->used)
            continue;
        CHECK(cudaSetDevice(s->devs[rk->dev].ordinal));
        CHECK(cudaEventRecord(rk->done, rk->stream));
        CHECK(cudaStreamWaitEvent(s->devs[rk->dev].ctl, rk->done, 0));
    }
fail:
    return status;
}

/* One step, waited for on the host: what a visual run needs between steps. */
static int cuda_run_step(void *opaque, int step, double *seconds, char *err, size_t errlen)
{
    cuda_state *s = (cuda_state *)opaque;
    int status = CV_OK;
    float longest = 0.0f;
    *seconds = 0.0;
    if (step < 0 || step >= s->plan->nsteps) {
        snprintf(err, errlen, "cuda backend: step %d outside the plan's %d steps", step,
                 s->plan->nsteps);
        return CV_EINVAL;
    }
    for (int d = 0; d < s->ndevs; d++) {
        CHECK(cudaSetDevice(s->devs[d].ordinal));
        CHECK(cudaEventRecord(s->devs[d].begin, s->devs[d].ctl));
    }
    status = enqueue_step(s, step, err, errlen);
    if (status != CV_OK)
        goto fail;
    for (int d = 0; d < s->ndevs; d++) {
        CHECK(cudaSetDevice(s->devs[d].ordinal));
        CHECK(cudaEventRecord(s->devs[d].end, s->devs[d].ctl));
    }
    for (int d = 0; d < s->ndevs; d++) {
        float ms = 0.0f;
        CHECK(cudaEventSynchronize(s->devs[d].end));
        CHECK(cudaEventElapsedTime(&ms, s->devs[d].begin, s->devs[d].end));
        if (s->devs[d].used && ms > longest)
            longest = ms;
    }
    *seconds = longest / 1e3;
    return CV_OK;

fail:
    settle(s);
    return status;
}

/* The events that mark each step's end on each GPU, and which GPUs each
 * step writes, made once per state. */
static int make_marks(cuda_state *s, char *err, size_t errlen)
{
    int status = CV_OK;
    int n = s->plan->nsteps + 1;
    if (!s->step_used)
        s->step_used = (bool *)calloc((size_t)n * s->ndevs, sizeof *s->step_used);
    if (!s->step_used) {
        snprintf(err, errlen, "out of host memory for %d steps", n);
        return CV_ENOMEM;
    }
    for (int d = 0; d < s->ndevs; d++) {
        cuda_dev *dv = &s->devs[d];
        if (dv->marks)
            continue;
        dv->marks = (cudaEvent_t *)calloc((size_t)n, sizeof *dv->marks);
        if (!dv->marks) {
            snprintf(err, errlen, "out of host memory for %d step events", n);
            return CV_ENOMEM;
        }
        CHECK(cudaSetDevice(dv->ordinal));
        for (int k = 0; k < n; k++) {
            cudaError_t e = cudaEventCreate(&dv->marks[k]);
            if (e != cudaSuccess) {
                /* All or none: a later run must not find half a set. */
                for (int j = 0; j < k; j++)
                    cudaEventDestroy(dv->marks[j]);
                free(dv->marks);
                dv->marks = NULL;
                status = cuda_fail(e, "cudaEventCreate (step marks)", err, errlen);
                goto fail;
            }
        }
    }
fail:
    return status;
}

/* Every step, ordered on the GPUs themselves: step k's `begin` on a GPU
 * follows the end of step k-1 on every GPU (a control stream waits for the
 * other GPUs' marks), so the host enqueues the whole plan and waits once.
 * Bench mode uses this; the step times come from the marks afterwards. */
static int cuda_run_all(void *opaque, double *step_seconds, char *err, size_t errlen)
{
    cuda_state *s = (cuda_state *)opaque;
    int nsteps = s->plan->nsteps, nd = s->ndevs;
    int status = make_marks(s, err, errlen);
    if (status != CV_OK)
        return status;
    bool *used = s->step_used;
    for (int d = 0; d < nd; d++) {
        CHECK(cudaSetDevice(s->devs[d].ordinal));
        CHECK(cudaEventRecord(s->devs[d].marks[0], s->devs[d].ctl));
    }
    for (int k = 0; k < nsteps; k++) {
        for (int d = 0; d < nd; d++) {
            cuda_dev *dv = &s->devs[d];
            CHECK(cudaSetDevice(dv->ordinal));
            for (int o = 0; o < nd; o++) /* step k reads what k-1 wrote on every GPU */
                if (o != d)
                    CHECK(cudaStreamWaitEvent(dv->ctl, s->devs[o].marks[k], 0));
            CHECK(cudaEventRecord(dv->begin, dv->ctl));
        }
        status = enqueue_step(s, k, err, errlen);
        if (status != CV_OK)
            goto fail;
        for (int d = 0; d < nd; d++) {
            used[(size_t)k * nd + d] = s->devs[d].used;
            CHECK(cudaSetDevice(s->devs[d].ordinal));
            CHECK(cudaEventRecord(s->devs[d].marks[k + 1], s->devs[d].ctl));
        }
    }
    for (int d = 0; d < nd; d++) {
        CHECK(cudaSetDevice(s->devs[d].ordinal));
        CHECK(cudaEventSynchronize(s->devs[d].marks[nsteps]));
    }
    for (int k = 0; k < nsteps; k++) {
        float longest = 0.0f;
        for (int d = 0; d < nd; d++) {
            float ms = 0.0f;
            CHECK(cudaEventElapsedTime(&ms, s->devs[d].marks[k], s->devs[d].marks[k + 1]));
            if (used[(size_t)k * nd + d] && ms > longest)
                longest = ms;
        }
        step_seconds[k] = longest / 1e3;
    }
    return CV_OK;

fail:
    settle(s);
    return status;
}

static const cv_backend cuda_backend_table = {
    "cuda", cuda_probe, cuda_open, cuda_write, cuda_run_step, cuda_read, cuda_close, cuda_run_all,
    cv_cuda__membw, cv_cuda__plan_bound,
    "device-to-device copy bandwidth (read + write) measured in this run; bound = the bytes "
    "the plan reads and writes on its busiest GPU / that bandwidth",
    NULL, /* host_bytes: its buffers are on the device; open checks the device's memory */
    NULL, /* view: device memory, so inputs are copied in and results out */
    NULL, /* holds: one process holds every rank */
};

extern "C" const cv_backend *cv_cuda_backend(void) { return &cuda_backend_table; }

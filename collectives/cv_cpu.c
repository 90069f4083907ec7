/*
 * cv_cpu.c: the CPU-emulated device set, the backend collviz uses when no
 * GPU is present.
 *
 * Each rank is a virtual device with its own SEND, RECV and SCRATCH
 * allocations. A step's transfers are independent (plans are validated for
 * that), so run_step cuts them into pieces of at most PIECE_BYTES and lets a
 * pool of worker threads, one per core with the caller as one of them, take
 * pieces from a shared counter. Small steps run on the caller alone: waking
 * threads costs more than copying a few kilobytes.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cv_internal.h"

#define PIECE_BYTES (512 * 1024)
#define INLINE_BYTES (64 * 1024)

/* ------------------------------------------------------------ worker pool */

typedef struct {
    pthread_mutex_t mu;
    pthread_cond_t wake, done;
    pthread_mutex_t job_mu; /* one job at a time, whoever calls */
    int nthreads;           /* including the caller */
    uint64_t generation;
    int finished;
    void (*fn)(void *ctx, int64_t item);
    void *ctx;
    int64_t nitems;
    atomic_llong next;
} pool_t;

static pool_t pool = {
    .mu = PTHREAD_MUTEX_INITIALIZER,
    .wake = PTHREAD_COND_INITIALIZER,
    .done = PTHREAD_COND_INITIALIZER,
    .job_mu = PTHREAD_MUTEX_INITIALIZER,
};
static pthread_once_t pool_once = PTHREAD_ONCE_INIT;

static void pool_drain(void)
{
    for (;;) {
        int64_t i = atomic_fetch_add(&pool.next, 1);
        if (i >= pool.nitems)
            return;
        pool.fn(pool.ctx, i);
    }
}

static void *pool_worker(void *arg)
{
    (void)arg;
    uint64_t seen = 0;
    for (;;) {
        pthread_mutex_lock(&pool.mu);
        while (pool.generation == seen)
            pthread_cond_wait(&pool.wake, &pool.mu);
        seen = pool.generation;
        pthread_mutex_unlock(&pool.mu);
        pool_drain();
        pthread_mutex_lock(&pool.mu);
        if (++pool.finished == pool.nthreads - 1)
            pthread_cond_signal(&pool.done);
        pthread_mutex_unlock(&pool.mu);
    }
    return NULL;
}

int cv_cpu_threads(void)
{
    const char *env = getenv("COLLVIZ_THREADS");
    long n = env ? strtol(env, NULL, 10) : sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1)
        n = 1;
    if (n > 256)
        n = 256;
    return (int)n;
}

static void pool_start(void)
{
    pool.nthreads = cv_cpu_threads();
    for (int i = 1; i < pool.nthreads; i++) {
        pthread_t t;
        if (pthread_create(&t, NULL, pool_worker, NULL) != 0) {
            pool.nthreads = i; /* run with the threads we got */
            break;
        }
        pthread_detach(t);
    }
}

/* Runs fn(ctx, i) for i in [0, n) on every thread of the pool. */
static void pool_run(void (*fn)(void *, int64_t), void *ctx, int64_t n)
{
    pthread_once(&pool_once, pool_start);
    pthread_mutex_lock(&pool.job_mu);
    pool.fn = fn;
    pool.ctx = ctx;
    pool.nitems = n;
    atomic_store(&pool.next, 0);
    if (pool.nthreads > 1) {
        pthread_mutex_lock(&pool.mu);
        pool.finished = 0;
        pool.generation++;
        pthread_cond_broadcast(&pool.wake);
        pthread_mutex_unlock(&pool.mu);
    }
    pool_drain();
    if (pool.nthreads > 1) {
        pthread_mutex_lock(&pool.mu);
        while (pool.finished < pool.nthreads - 1)
            pthread_cond_wait(&pool.done, &pool.mu);
        pthread_mutex_unlock(&pool.mu);
    }
    pthread_mutex_unlock(&pool.job_mu);
}

void cv__parallel(void (*fn)(void *ctx, int64_t i), void *ctx, int64_t n) { pool_run(fn, ctx, n); }

/* ------------------------------------------------------------- the backend */

typedef struct {
    int64_t xfer, off, count; /* a piece of one transfer */
} piece;

typedef struct {
    const cv_plan *plan;
    size_t esz;
    unsigned char **bufs; /* [rank * CV_BUF_COUNT + buf] */
    int64_t *lens;
    piece *pieces;
    int64_t cap_pieces;
} cpu_state;

static int cpu_probe(char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    return CV_OK;
}

static void cpu_close(void *state)
{
    cpu_state *s = state;
    if (!s)
        return;
    if (s->bufs)
        for (int i = 0; i < cv_plan_parts(s->plan) * CV_BUF_COUNT; i++)
            free(s->bufs[i]);
    free(s->bufs);
    free(s->lens);
    free(s->pieces);
    free(s);
}

static int cpu_open(const cv_plan *plan, void **state, char *err, size_t errlen)
{
    const cv_spec *sp = &plan->spec;
    *state = NULL;
    cpu_state *s = calloc(1, sizeof *s);
    if (!s)
        goto nomem;
    s->plan = plan;
    s->esz = cv_dtype_size(sp->dtype);
    int nb = cv_plan_parts(plan) * CV_BUF_COUNT;
    s->lens = calloc((size_t)nb, sizeof *s->lens);
    s->bufs = calloc((size_t)nb, sizeof *s->bufs);
    if (!s->lens || !s->bufs)
        goto nomem;
    for (int r = 0; r < cv_plan_parts(plan); r++)
        for (int b = 0; b < CV_BUF_COUNT; b++) {
            int64_t n = cv_plan_buf_count(plan, (cv_buf)b, r);
            s->lens[r * CV_BUF_COUNT + b] = n;
        }
    /* cv_run has checked that they fit (host_bytes); this is for an
     * allocation that fails anyway. */
    for (int i = 0; i < nb; i++) {
        /* calloc: RECV and SCRATCH start as zeros, never as garbage. */
        s->bufs[i] = calloc((size_t)s->lens[i] + 1, s->esz);
        if (!s->bufs[i])
            goto nomem;
    }
    *state = s;
    return CV_OK;
nomem:
    snprintf(err, errlen, "out of memory allocating the CPU backend's buffers (%.1f GiB); lower "
                          "--count or --ranks", (double)cv_plan_host_buffer_bytes(plan) / 1073741824.0);
    cpu_close(s);
    return CV_ENOMEM;
}

static int check_range(cpu_state *s, int rank, cv_buf buf, int64_t off, int64_t count,
                       char *err, size_t errlen)
{
    if (rank < 0 || rank >= cv_plan_parts(s->plan) || (unsigned)buf >= CV_BUF_COUNT || off < 0 ||
        count < 0 || off + count > s->lens[rank * CV_BUF_COUNT + buf]) {
        snprintf(err, errlen, "cpu: access to rank %d %s [%lld, +%lld) out of bounds", rank,
                 cv_buf_name(buf), (long long)off, (long long)count);
        return CV_EINVAL;
    }
    return CV_OK;
}

static int cpu_write(void *state, int rank, cv_buf buf, int64_t off, int64_t count,
                     const void *src, char *err, size_t errlen)
{
    cpu_state *s = state;
    int rc = check_range(s, rank, buf, off, count, err, errlen);
    if (!rc && count)
        memcpy(s->bufs[rank * CV_BUF_COUNT + buf] + (size_t)off * s->esz, src,
               (size_t)count * s->esz);
    return rc;
}

static int cpu_read(void *state, int rank, cv_buf buf, int64_t off, int64_t count, void *dst,
                    char *err, size_t errlen)
{
    cpu_state *s = state;
    int rc = check_range(s, rank, buf, off, count, err, errlen);
    if (!rc && count)
        memcpy(dst, s->bufs[rank * CV_BUF_COUNT + buf] + (size_t)off * s->esz,
               (size_t)count * s->esz);
    return rc;
}

static void run_piece(void *ctx, int64_t i)
{
    cpu_state *s = ctx;
    const piece *pc = &s->pieces[i];
    const cv_transfer *t = &s->plan->transfers[pc->xfer];
    unsigned char *dst = s->bufs[t->dst * CV_BUF_COUNT + t->dst_buf] +
                         (size_t)(t->dst_off + pc->off) * s->esz;
    const unsigned char *src = s->bufs[t->src * CV_BUF_COUNT + t->src_buf] +
                               (size_t)(t->src_off + pc->off) * s->esz;
    const unsigned char *local = t->kind != CV_XFER_REDUCE_COPY
                                     ? NULL
                                     : s->bufs[t->dst * CV_BUF_COUNT + t->local_buf] +
                                           (size_t)(t->local_off + pc->off) * s->esz;
    cv__kernel(s->plan->spec.dtype, s->plan->spec.redop, t, dst, local, src, pc->count,
               s->plan->spec.ranks);
}

static int cpu_run_step(void *state, int step, double *seconds, char *err, size_t errlen)
{
    cpu_state *s = state;
    const cv_plan *p = s->plan;
    if (step < 0 || step >= p->nsteps) {
        snprintf(err, errlen, "cpu: step %d out of range (plan has %d)", step, p->nsteps);
        return CV_EINVAL;
    }
    const cv_step *st = &p->steps[step];
    double t0 = cv_now_seconds();
    int64_t per = PIECE_BYTES / (int64_t)s->esz, npieces = 0, bytes = 0;
    for (int64_t i = 0; i < st->count; i++) {
        int64_t c = p->transfers[st->first + i].count;
        npieces += (c + per - 1) / per;
        bytes += c * (int64_t)s->esz;
    }
    if (npieces > s->cap_pieces) {
        free(s->pieces);
        s->pieces = cv__xmalloc((size_t)npieces * sizeof *s->pieces);
        s->cap_pieces = npieces;
    }
    int64_t k = 0;
    for (int64_t i = 0; i < st->count; i++) {
        int64_t c = p->transfers[st->first + i].count;
        for (int64_t off = 0; off < c; off += per)
            s->pieces[k++] = (piece){st->first + i, off, c - off < per ? c - off : per};
    }
    if (bytes <= INLINE_BYTES)
        for (int64_t i = 0; i < npieces; i++)
            run_piece(s, i);
    else
        pool_run(run_piece, s, npieces);
    *seconds = cv_now_seconds() - t0;
    return CV_OK;
}

/* ------------------------------------------------------ bandwidth probe */

typedef struct {
    float *dst;
    const float *src;
    int64_t count;
    cv_xfer_kind kind;
} probe_job;

static void probe_piece(void *ctx, int64_t i)
{
    probe_job *j = ctx;
    int64_t per = PIECE_BYTES / (int64_t)sizeof(float), off = i * per;
    int64_t n = j->count - off < per ? j->count - off : per;
    cv_transfer t = {.kind = (uint8_t)j->kind};
    cv__kernel(CV_FLOAT32, CV_SUM, &t, j->dst + off, NULL, j->src + off, n, 1);
}

/* Best bytes-per-second of `reps` passes of one kernel over the buffers. */
static double probe(probe_job *j, int reps, double bytes_per_elem)
{
    int64_t per = PIECE_BYTES / (int64_t)sizeof(float), pieces = (j->count + per - 1) / per;
    double best = 0;
    for (int r = 0; r < reps; r++) {
        double t0 = cv_now_seconds();
        pool_run(probe_piece, j, pieces);
        double bw = bytes_per_elem * (double)j->count / (cv_now_seconds() - t0);
        best = bw > best ? bw : best;
    }
    return best;
}

void cv_cpu_measure_bandwidth(int64_t bytes, int reps, cv_membw *out)
{
    out->copy = out->reduce = 0;
    int64_t count = bytes / (int64_t)sizeof(float);
    float *src = malloc((size_t)count * sizeof(float)), *dst = malloc((size_t)count * sizeof(float));
    if (src && dst) {
        for (int64_t i = 0; i < count; i++) { /* touch every page before timing */
            src[i] = 1.0f;
            dst[i] = 0.0f;
        }
        probe_job j = {dst, src, count, CV_XFER_COPY};
        out->copy = probe(&j, reps, 2.0 * sizeof(float));
        j.kind = CV_XFER_REDUCE;
        out->reduce = probe(&j, reps, 3.0 * sizeof(float));
    }
    free(src);
    free(dst);
}

static int cpu_membw(int64_t bytes, int reps, cv_membw *bw, char *err, size_t errlen)
{
    cv_cpu_measure_bandwidth(bytes, reps, bw);
    if (bw->copy > 0 && bw->reduce > 0)
        return CV_OK;
    snprintf(err, errlen, "cannot measure memory bandwidth: no memory for 2 x %lld bytes",
             (long long)bytes);
    return CV_ENOMEM;
}

static double cpu_plan_bound(const cv_plan *plan, const cv_membw *bw, double *traffic)
{
    *traffic = (double)cv_plan_memory_bytes(plan);
    return cv_plan_memory_seconds(plan, bw);
}

static const cv_backend cpu_backend = {
    .name = "cpu",
    .membw = cpu_membw,
    .plan_bound = cpu_plan_bound,
    .bound_about = "the bytes each transfer reads and writes (copy 2x, reduce 3x) over the "
                   "bandwidth this machine's copy and reduce kernels reach, measured in this run "
                   "before and after each row (best seen)",
    .probe = cpu_probe,
    .open = cpu_open,
    .write = cpu_write,
    .run_step = cpu_run_step,
    .read = cpu_read,
    .close = cpu_close,
    .host_bytes = cv_plan_host_buffer_bytes,
};

const cv_backend *cv_cpu_backend(void) { return &cpu_backend; }

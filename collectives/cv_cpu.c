/*
 * cv_cpu.c: the CPU-emulated device set, the backend collviz uses when no
 * GPU is present.
 *
 * Each rank is a virtual device with its own SEND, RECV and SCRATCH
 * allocations. A step's transfers are independent (plans are validated for
 * that), so run_step cuts them into pieces of at most PIECE_BYTES and lets
 * the engine's pool of worker threads (cv_pool.c), one per core with the
 * caller as one of them, take pieces from a shared counter. Small steps run
 * on the caller alone: waking threads costs more than copying a few
 * kilobytes.
 *
 * Pieces are sized from the per-core cache. A step that writes more than
 * the last-level cache holds cannot expect its output to be in cache when
 * the next step reads it, so its copies and reduce-copies write with
 * non-temporal stores (cv__kernel_stream); smaller steps use ordinary
 * stores and leave their output in cache for the next step. Buffers are
 * first touched in open(), in pieces on the pool's threads, so no timed
 * step takes a page fault.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include "cv_internal.h"

#define INLINE_BYTES (64 * 1024)

/* ------------------------------------------------------------ the caches */

static int64_t piece_bytes, llc_bytes;
static pthread_once_t cache_once = PTHREAD_ONCE_INIT;

/* Bytes of the cache at sysfs index `level` (1 = L1d, 2 = L2, 3 = L3) as
 * the kernel reports it for cpu0, else sysconf's figure (glibc's can be the
 * whole package's on a virtual machine), else -1. */
static int64_t cache_size(int level, int sc_name)
{
    char path[96];
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", level);
    FILE *f = fopen(path, "r");
    long k = 0;
    char unit = 0;
    int64_t v = -1;
    if (f && fscanf(f, "%ld%c", &k, &unit) == 2 && k > 0)
        v = unit == 'M' ? (int64_t)k << 20 : unit == 'K' ? (int64_t)k << 10 : k;
    if (f)
        fclose(f);
    if (v <= 0 && sc_name >= 0)
        v = sysconf(sc_name);
    return v;
}

/* A piece: half the per-core L2 (its source, local input and destination
 * pass through it), between 64 KiB and 1 MiB; the LLC decides streaming. */
static void cache_init(void)
{
#ifdef _SC_LEVEL2_CACHE_SIZE
    int64_t l2 = cache_size(2, _SC_LEVEL2_CACHE_SIZE), l3 = cache_size(3, _SC_LEVEL3_CACHE_SIZE);
#else
    int64_t l2 = cache_size(2, -1), l3 = cache_size(3, -1);
#endif
    piece_bytes = l2 > 0 ? l2 / 2 : 512 * 1024;
    piece_bytes = piece_bytes < 64 * 1024 ? 64 * 1024 : piece_bytes > (1 << 20) ? 1 << 20 : piece_bytes;
    piece_bytes &= ~(int64_t)4095;
    llc_bytes = l3 > 0 ? l3 : l2 > 0 ? l2 : 8 << 20;
}

int64_t cv_cpu_llc_bytes(void)
{
    pthread_once(&cache_once, cache_init);
    return llc_bytes;
}

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
    bool stream; /* this step writes with non-temporal stores */
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

typedef struct {
    cpu_state *s;
    int nb;
} touch_job;

/* Zeroes piece i of the buffers laid end to end: RECV and SCRATCH start as
 * zeros, never as garbage, and every page is faulted in here, by the
 * threads that will run the steps, rather than in a timed step. */
static void touch_piece(void *ctx, int64_t i)
{
    touch_job *j = ctx;
    for (int b = 0; b < j->nb; b++) {
        int64_t len = (j->s->lens[b] + 1) * (int64_t)j->s->esz;
        int64_t np = (len + piece_bytes - 1) / piece_bytes;
        if (i < np) {
            int64_t at = i * piece_bytes, n = len - at < piece_bytes ? len - at : piece_bytes;
            memset(j->s->bufs[b] + at, 0, (size_t)n);
            return;
        }
        i -= np;
    }
}

static void first_touch(cpu_state *s, int nb)
{
    pthread_once(&cache_once, cache_init);
    int64_t pieces = 0;
    for (int b = 0; b < nb; b++)
        pieces += ((s->lens[b] + 1) * (int64_t)s->esz + piece_bytes - 1) / piece_bytes;
    touch_job j = {s, nb};
    cv__parallel(touch_piece, &j, pieces);
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
        /* at least line-aligned, so streamed stores write whole lines */
        size_t n = ((size_t)s->lens[i] + 1) * s->esz;
        void *p = cv__alloc_big(n);
        if (!p)
            goto nomem;
        s->bufs[i] = p;
    }
    first_touch(s, nb);
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

static void *cpu_view(void *state, int rank, cv_buf buf)
{
    cpu_state *s = state;
    if (rank < 0 || rank >= cv_plan_parts(s->plan) || (unsigned)buf >= CV_BUF_COUNT)
        return NULL;
    return s->bufs[rank * CV_BUF_COUNT + buf];
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
    (s->stream ? cv__kernel_stream : cv__kernel)(s->plan->spec.dtype, s->plan->spec.redop, t, dst,
                                                 local, src, pc->count, s->plan->spec.ranks);
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
    pthread_once(&cache_once, cache_init);
    int64_t per = piece_bytes / (int64_t)s->esz, npieces = 0, bytes = 0;
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
    s->stream = bytes > llc_bytes;
    if (bytes <= INLINE_BYTES)
        for (int64_t i = 0; i < npieces; i++)
            run_piece(s, i);
    else
        cv__parallel(run_piece, s, npieces);
    *seconds = cv_now_seconds() - t0;
    return CV_OK;
}

/* ------------------------------------------------------ bandwidth probe */

static int cpu_membw(int64_t bytes, int reps, cv_membw *bw, char *err, size_t errlen)
{
    /* Each array at least twice the last-level cache, so the two an
     * in-place reduce pass touches cannot stay in it: on a host with
     * 300 MiB of L3 (an H200 machine's 16 cores), two 128 MiB arrays did,
     * and the probe read a reduce at 1046 GB/s, or a copy at 1271 GB/s,
     * against about 190 from memory: every row looked far below its bound. */
    int64_t llc = cv_cpu_llc_bytes();
    if (bytes < 2 * llc)
        bytes = 2 * llc;
    if (cv_stream_probe(bytes, reps, cv_cpu_threads(), bw) == CV_OK && bw->copy > 0 &&
        bw->reduce > 0)
        return CV_OK;
    snprintf(err, errlen, "cannot measure memory bandwidth: no memory for 3 x %lld bytes",
             (long long)bytes);
    return CV_ENOMEM;
}

/* A plan whose buffers all fit in twice the last-level cache runs largely
 * from cache, which memory bandwidth does not bound: no bound (0). */
static double cpu_plan_bound(const cv_plan *plan, const cv_membw *bw, double *traffic)
{
    *traffic = (double)cv_plan_memory_bytes(plan);
    if ((double)cv_plan_host_buffer_bytes(plan) < 2.0 * (double)cv_cpu_llc_bytes())
        return 0;
    return cv_plan_memory_seconds(plan, bw);
}

static const cv_backend cpu_backend = {
    .name = "cpu",
    .membw = cpu_membw,
    .plan_bound = cpu_plan_bound,
    .bound_about = "the bytes each transfer reads and writes (copy 2x, reduce 3x) over the "
                   "memory bandwidth a STREAM-like probe of its own (not the backend's kernels) "
                   "reaches in this run: copy with non-temporal stores, and float32 reduce "
                   "(y[i] += x[i], or z[i] = x[i] + y[i] with non-temporal stores), before the "
                   "table, between and after a large row's iterations (best seen)",
    .probe = cpu_probe,
    .open = cpu_open,
    .write = cpu_write,
    .run_step = cpu_run_step,
    .read = cpu_read,
    .close = cpu_close,
    .host_bytes = cv_plan_host_buffer_bytes,
    .view = cpu_view,
};

const cv_backend *cv_cpu_backend(void) { return &cpu_backend; }

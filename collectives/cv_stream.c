/*
 * cv_stream.c: a small STREAM-like probe of the machine's memory bandwidth,
 * the yardstick `collviz bench` holds the CPU backend against.
 *
 * It deliberately shares no code with the backend (not its kernels, not its
 * thread pool, not its piece size): a bound measured with the backend's own
 * kernels would call a slow kernel fast. Each thread first-touches a slice
 * of three arrays itself (so its pages are local and no page fault lands
 * in a timed pass); all threads start each pass together at a barrier and
 * then take 1 MiB pieces of the arrays in turn. Two figures, best of the
 * passes:
 *   copy:   y[i] = x[i] with non-temporal stores, the best copy there is
 *           when the destination is not read back soon (ordinary stores
 *           would first read every destination line): 2 bytes per byte.
 *   reduce: over float32, 2 bytes read and 1 written per byte, the better
 *           of two forms, alternating pass by pass: y[i] += x[i] in place,
 *           and z[i] = x[i] + y[i] with non-temporal stores into a third
 *           array (the form of a reduce-copy, which on some machines is
 *           the faster one; a bound that knew only the first could read
 *           above 100%).
 * The arrays are kept for the life of the process once allocated: a bench
 * probes between the iterations of every large row, and allocating and
 * touching them afresh each time would cost more than the probe's passes.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cv_internal.h"

#if defined(__x86_64__) || defined(__SSE2__)
#include <immintrin.h>
#define HAVE_SSE2 1
#endif

/* Floats per piece of a pass (1 MiB): the threads take pieces in turn, so
 * at any moment they stream through neighbouring memory, which on some
 * machines moves a few percent more than each sweeping a slice of its own. */
#define PROBE_PIECE ((int64_t)1 << 18)

typedef struct {
    pthread_mutex_t mu;
    pthread_cond_t go_cv;
    int go; /* 0 until the barrier is set up for the threads started */
    pthread_barrier_t bar;
    float *x, *y, *z;  /* the whole arrays, 64-byte aligned */
    int64_t all;       /* floats in each, a multiple of 16 */
    atomic_llong next; /* the next piece of this pass */
} stream_sync;

typedef struct {
    stream_sync *sync;
    float *x, *y, *z; /* this thread's slice, to first-touch */
    int64_t n;        /* floats in the slice, a multiple of 16 */
    int reps, id;
    int form0;   /* the reduce form of the first reduce pass (0 or 1) */
    bool touch;  /* the arrays are new: first-touch this slice */
    double *sec; /* [2 * reps]: copy passes, then reduce passes (thread 0) */
} stream_thread;

#ifdef HAVE_SSE2
/* 32-byte non-temporal stores where the CPU has AVX: on some CPUs they move
 * more per cycle than 16-byte ones, and the probe must find the best copy. */
__attribute__((target("avx"))) static void copy_stream_avx(float *restrict y,
                                                           const float *restrict x, int64_t n)
{
    for (int64_t i = 0; i < n; i += 16) {
        __m256 a = _mm256_load_ps(x + i), b = _mm256_load_ps(x + i + 8);
        _mm256_stream_ps(y + i, a);
        _mm256_stream_ps(y + i + 8, b);
    }
    _mm_sfence();
}
#endif

static void copy_stream(float *restrict y, const float *restrict x, int64_t n)
{
#ifdef HAVE_SSE2
    if (__builtin_cpu_supports("avx")) {
        copy_stream_avx(y, x, n);
        return;
    }
    for (int64_t i = 0; i < n; i += 16) {
        __m128 a = _mm_load_ps(x + i), b = _mm_load_ps(x + i + 4);
        __m128 c = _mm_load_ps(x + i + 8), d = _mm_load_ps(x + i + 12);
        _mm_stream_ps(y + i, a);
        _mm_stream_ps(y + i + 4, b);
        _mm_stream_ps(y + i + 8, c);
        _mm_stream_ps(y + i + 12, d);
    }
    _mm_sfence();
#else
    memcpy(y, x, (size_t)n * sizeof *y);
#endif
}

static void add_stream(float *restrict y, const float *restrict x, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        y[i] += x[i];
}

#ifdef HAVE_SSE2
__attribute__((target("avx"))) static void
add3_stream_avx(float *restrict z, const float *restrict x, const float *restrict y, int64_t n)
{
    for (int64_t i = 0; i < n; i += 16) {
        __m256 a = _mm256_add_ps(_mm256_load_ps(x + i), _mm256_load_ps(y + i));
        __m256 b = _mm256_add_ps(_mm256_load_ps(x + i + 8), _mm256_load_ps(y + i + 8));
        _mm256_stream_ps(z + i, a);
        _mm256_stream_ps(z + i + 8, b);
    }
    _mm_sfence();
}
#endif

static void add3_stream(float *restrict z, const float *restrict x, const float *restrict y,
                        int64_t n)
{
#ifdef HAVE_SSE2
    if (__builtin_cpu_supports("avx")) {
        add3_stream_avx(z, x, y, n);
        return;
    }
    for (int64_t i = 0; i < n; i += 4)
        _mm_stream_ps(z + i, _mm_add_ps(_mm_load_ps(x + i), _mm_load_ps(y + i)));
    _mm_sfence();
#else
    for (int64_t i = 0; i < n; i++)
        z[i] = x[i] + y[i];
#endif
}

/* One pass of kind 0 (copy), 1 (y += x) or 2 (z = x + y), piece by piece. */
static void stream_pass(stream_sync *s, int kind)
{
    for (;;) {
        int64_t lo = atomic_fetch_add(&s->next, 1) * PROBE_PIECE;
        if (lo >= s->all)
            return;
        int64_t n = s->all - lo < PROBE_PIECE ? s->all - lo : PROBE_PIECE;
        if (kind == 0)
            copy_stream(s->y + lo, s->x + lo, n);
        else if (kind == 1)
            add_stream(s->y + lo, s->x + lo, n);
        else
            add3_stream(s->z + lo, s->x + lo, s->y + lo, n);
    }
}

static void *stream_main(void *arg)
{
    stream_thread *t = arg;
    stream_sync *s = t->sync;
    pthread_mutex_lock(&s->mu);
    while (!s->go)
        pthread_cond_wait(&s->go_cv, &s->mu);
    pthread_mutex_unlock(&s->mu);
    for (int64_t i = 0; t->touch && i < t->n; i++) { /* first touch, on this thread */
        t->x[i] = 1.0f;
        t->y[i] = 0.0f;
        t->z[i] = 0.0f;
    }
    for (int r = 0; r < 2 * t->reps; r++) {
        if (t->id == 0) /* every thread is past the last pass's end */
            atomic_store(&s->next, 0);
        pthread_barrier_wait(&s->bar);
        double t0 = cv_now_seconds();
        stream_pass(s, r < t->reps ? 0 : 1 + (r - t->reps + t->form0) % 2);
        pthread_barrier_wait(&s->bar);
        if (t->id == 0)
            t->sec[r] = cv_now_seconds() - t0;
    }
    return NULL;
}

static int probe_locked(int64_t bytes, int reps, int threads, cv_membw *out);

/* The arrays of earlier probes; probes take turns with them. */
static struct {
    pthread_mutex_t mu;
    float *x, *y, *z;
    size_t bytes; /* of each */
    int reduces;  /* reduce passes so far: the forms alternate across probes */
} kept = {.mu = PTHREAD_MUTEX_INITIALIZER};

int cv_stream_probe(int64_t bytes, int reps, int threads, cv_membw *out)
{
    pthread_mutex_lock(&kept.mu);
    int rc = probe_locked(bytes, reps, threads, out);
    pthread_mutex_unlock(&kept.mu);
    return rc;
}

static int probe_locked(int64_t bytes, int reps, int threads, cv_membw *out)
{
    out->copy = out->reduce = 0;
    threads = threads < 1 ? 1 : threads;
    reps = reps < 1 ? 1 : reps;
    int64_t per = bytes / (int64_t)sizeof(float) / threads / 16 * 16;
    per = per < 16 ? 16 : per;
    size_t slice = (size_t)per * sizeof(float);
    size_t need = slice * (size_t)threads;
    bool fresh = need > kept.bytes;
    if (fresh) {
        free(kept.x);
        free(kept.y);
        free(kept.z);
        kept.x = cv__alloc_big(need);
        kept.y = cv__alloc_big(need);
        kept.z = cv__alloc_big(need);
        kept.bytes = kept.x && kept.y && kept.z ? need : 0;
        if (!kept.bytes) {
            free(kept.x);
            free(kept.y);
            free(kept.z);
            kept.x = kept.y = kept.z = NULL;
            return CV_ENOMEM;
        }
    }
    float *x = kept.x, *y = kept.y, *z = kept.z;
    stream_thread *ts = cv__xcalloc((size_t)threads, sizeof *ts);
    pthread_t *tid = cv__xcalloc((size_t)threads, sizeof *tid);
    double *sec = cv__xcalloc(2 * (size_t)reps, sizeof *sec);
    stream_sync sync = {.mu = PTHREAD_MUTEX_INITIALIZER,
                        .go_cv = PTHREAD_COND_INITIALIZER,
                        .x = x,
                        .y = y,
                        .z = z,
                        .all = per * threads};
    int form0 = kept.reduces % 2;
    kept.reduces = (kept.reduces + reps) % 2;
    for (int i = 0; i < threads; i++)
        ts[i] = (stream_thread){&sync, x + i * per, y + i * per, z + i * per, per,
                                reps,  i,           form0,       fresh,       sec};
    int started = 1; /* this thread is thread 0 */
    while (started < threads && pthread_create(&tid[started], NULL, stream_main, &ts[started]) == 0)
        started++;
    pthread_barrier_init(&sync.bar, NULL, (unsigned)started);
    pthread_mutex_lock(&sync.mu);
    sync.go = 1;
    pthread_cond_broadcast(&sync.go_cv);
    pthread_mutex_unlock(&sync.mu);
    stream_main(&ts[0]);
    for (int i = 1; i < started; i++)
        pthread_join(tid[i], NULL);
    pthread_barrier_destroy(&sync.bar);
    double best_copy = 0, best_reduce = 0, moved = (double)slice * threads; /* every piece */
    for (int r = 0; r < reps; r++) {
        if (sec[r] > 0 && 2 * moved / sec[r] > best_copy)
            best_copy = 2 * moved / sec[r];
        if (sec[reps + r] > 0 && 3 * moved / sec[reps + r] > best_reduce)
            best_reduce = 3 * moved / sec[reps + r];
    }
    out->copy = best_copy;
    out->reduce = best_reduce;
    free(sec);
    free(tid);
    free(ts);
    return CV_OK;
}

/*
 * cv_pool.c: the engine's worker threads, one per core (or
 * $COLLVIZ_THREADS), with the caller as one of them. cv__parallel hands
 * them a job of n items, which they take from a shared counter; the CPU
 * backend runs a step's pieces this way, the inputs are filled and the
 * reference checks large results on them. Between jobs the workers spin
 * for a short while before they sleep, so a run of short steps does not
 * pay a wake-up for each.
 *
 * It sits just above cv_base.c in the order of docs/ARCHITECTURE.md.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include "cv_internal.h"

/* How long an idle worker polls for the next job before it sleeps. */
#define SPIN_SECONDS 50e-6

typedef struct {
    pthread_mutex_t mu;
    pthread_cond_t wake, done;
    pthread_mutex_t job_mu; /* one job at a time, whoever calls */
    int nthreads;           /* including the caller */
    atomic_ullong generation;
    atomic_int finished;
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

static void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/* Polls until *v differs from seen, for at most SPIN_SECONDS; true if it
 * changed. */
static bool spin_until_changed(atomic_ullong *v, uint64_t seen)
{
    double until = cv_now_seconds() + SPIN_SECONDS;
    for (int i = 0;; i++) {
        if (atomic_load(v) != seen)
            return true;
        cpu_relax();
        if ((i & 63) == 63 && cv_now_seconds() > until)
            return false;
    }
}

static void *pool_worker(void *arg)
{
    (void)arg;
    uint64_t seen = 0;
    for (;;) {
        if (!spin_until_changed(&pool.generation, seen)) {
            pthread_mutex_lock(&pool.mu);
            while (atomic_load(&pool.generation) == seen)
                pthread_cond_wait(&pool.wake, &pool.mu);
            pthread_mutex_unlock(&pool.mu);
        }
        seen = atomic_load(&pool.generation);
        pool_drain();
        if (atomic_fetch_add(&pool.finished, 1) + 1 == pool.nthreads - 1) {
            pthread_mutex_lock(&pool.mu); /* the caller may be asleep */
            pthread_cond_signal(&pool.done);
            pthread_mutex_unlock(&pool.mu);
        }
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
        atomic_store(&pool.finished, 0);
        pthread_mutex_lock(&pool.mu);
        atomic_fetch_add(&pool.generation, 1);
        pthread_cond_broadcast(&pool.wake);
        pthread_mutex_unlock(&pool.mu);
    }
    pool_drain();
    if (pool.nthreads > 1) {
        double until = cv_now_seconds() + SPIN_SECONDS;
        for (int i = 0; atomic_load(&pool.finished) < pool.nthreads - 1; i++) {
            cpu_relax();
            if ((i & 63) == 63 && cv_now_seconds() > until)
                break;
        }
        pthread_mutex_lock(&pool.mu);
        while (atomic_load(&pool.finished) < pool.nthreads - 1)
            pthread_cond_wait(&pool.done, &pool.mu);
        pthread_mutex_unlock(&pool.mu);
    }
    pthread_mutex_unlock(&pool.job_mu);
}

void cv__parallel(void (*fn)(void *ctx, int64_t i), void *ctx, int64_t n) { pool_run(fn, ctx, n); }

/*
 * cv_base.c: the engine's base, the small services every other file of
 * collectives/ (and the rest of the program) shares and that call nothing
 * above them: the fatal allocator (the one place that ends the program
 * when memory runs out), the clock (the one place that reads one), the
 * error helper, integer log2, and the parser of sizes such as "1.6GB".
 *
 * docs/ARCHITECTURE.md lists the files of collectives/ in the order in
 * which they may call each other; this one is at the bottom, and
 * tests/test_core_layers.sh checks that it stays there.
 */
#define _POSIX_C_SOURCE 200809L /* posix_memalign, clock_gettime */
#include <math.h>
#include <stdarg.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "cv_internal.h"

/* ------------------------------------------------------------- allocation */

/* One line, what is on stdout so far, and exit 2: a worker thread may
 * call this, so no atexit handler runs (_Exit). */
static _Noreturn void out_of_memory(size_t n, size_t size)
{
    if (size > 1)
        fprintf(stderr, "collviz: out of memory (%zu x %zu bytes)\n", n, size);
    else
        fprintf(stderr, "collviz: out of memory (%zu bytes)\n", n);
    fflush(stdout);
    _Exit(2);
}

void *cv_xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        out_of_memory(n, 1);
    return p;
}

/* Buffers of data: line-aligned, so the CPU backend's streaming stores
 * write whole lines from the first byte. (Advising them into transparent
 * huge pages was tried: on a busy machine the kernel's compaction for
 * them cost more system time than the page faults it saves.) */
void *cv__alloc_big(size_t n)
{
    void *p = NULL;
    return posix_memalign(&p, 64, n ? n : 1) ? NULL : p;
}

void *cv__xmalloc_big(size_t n)
{
    void *p = cv__alloc_big(n);
    if (!p)
        out_of_memory(n, 1);
    return p;
}

void *cv_xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        out_of_memory(n, size);
    return p;
}

void *cv_xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        out_of_memory(n, 1);
    return q;
}

char *cv_xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(cv_xmalloc(n), s, n);
}

/* -------------------------------------------------------------------- clock */

double cv_now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ------------------------------------------------------------------ errors */

int cv__fail(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return CV_EINVAL;
}

/* ------------------------------------------------------------------- log2 */

int cv__pow2_floor(int n)
{
    int p = 1;
    while (p * 2 <= n)
        p *= 2;
    return p;
}

int cv__log2_ceil(int n)
{
    int k = 0;
    while ((1 << k) < n)
        k++;
    return k;
}

/* ------------------------------------------------------------------ sizes */

int cv_parse_size(const char *s, int64_t *bytes)
{
    if (!s || !*s)
        return CV_EINVAL;
    char *end;
    double v = strtod(s, &end);
    if (end == s || !isfinite(v) || v < 0)
        return CV_EINVAL;
    static const struct {
        const char *suffix;
        double mult;
    } units[] = {
        {"", 1},         {"b", 1},           {"k", 1024.0},      {"m", 1048576.0},
        {"g", 1073741824.0}, {"t", 1099511627776.0}, {"kib", 1024.0}, {"mib", 1048576.0},
        {"gib", 1073741824.0}, {"tib", 1099511627776.0}, {"kb", 1e3}, {"mb", 1e6},
        {"gb", 1e9},     {"tb", 1e12},
    };
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        if (strcasecmp(end, units[i].suffix) != 0)
            continue;
        /* "kb" is 1000 but "k" is 1024 (nccl-tests' convention); case
         * decides nothing, so "KB" and "kB" agree. */
        double b = v * units[i].mult, whole = nearbyint(b);
        /* A size, but more than 64 bits hold: out of range, not "not a
         * size" (9223372036854775807 is exactly 2^63 - 1 in bytes). */
        if (b >= 9223372036854775808.0)
            return CV_ETOOBIG;
        /* No fractional bytes: 1.6GB is whole, 1e-30 is not 0. */
        if (fabs(b - whole) > 1e-9 * b || (whole == 0 && b != 0))
            return CV_EINVAL;
        *bytes = (int64_t)whole;
        return CV_OK;
    }
    return CV_EINVAL;
}

/*
 * test_cpu_kernels.c: the CPU backend's streaming kernels, checked for
 * correctness only (their speed is bench/'s business): cv__copy_stream
 * against memcpy, and cv__kernel_stream (copy, reduce, reduce-copy, the
 * integer avg's finishing division) against a reference computed here one
 * element at a time in wider arithmetic, for every dtype and every redop
 * it allows, sizes from 1 element up past several 4 KiB blocks, and
 * destinations, local inputs and sources at every misalignment within a
 * cache line. Bytes just outside the destination must be left alone. Also
 * the bandwidth probe's basic promise: two positive figures.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cv_internal.h"

static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Finite values with wrapping integer sums and products, and float values
 * whose sums and products round. */
static void fill(cv_dtype dt, unsigned char *buf, int64_t n, uint64_t *rng)
{
    for (int64_t i = 0; i < n; i++) {
        uint64_t r = rng_next(rng);
        double f = ((double)(r % 2001) - 1000.0) / 7.0;
        switch (dt) {
        case CV_INT8: ((int8_t *)buf)[i] = (int8_t)r; break;
        case CV_INT32: ((int32_t *)buf)[i] = (int32_t)r; break;
        case CV_INT64: ((int64_t *)buf)[i] = (int64_t)r; break;
        default: cv__value_set(dt, buf, i, f); break;
        }
    }
}

static int64_t int_get(cv_dtype dt, const unsigned char *p, int64_t i)
{
    switch (dt) {
    case CV_INT8: return ((const int8_t *)p)[i];
    case CV_INT32: return ((const int32_t *)p)[i];
    default: return ((const int64_t *)p)[i];
    }
}

static void int_set(cv_dtype dt, unsigned char *p, int64_t i, uint64_t v)
{
    switch (dt) {
    case CV_INT8: ((int8_t *)p)[i] = (int8_t)(uint8_t)v; break;
    case CV_INT32: ((int32_t *)p)[i] = (int32_t)(uint32_t)v; break;
    default: ((int64_t *)p)[i] = (int64_t)v; break;
    }
}

/* dst[i] = a[i] op b[i] in the dtype, then / ranks for an integer avg. */
static void reference(cv_dtype dt, cv_redop op, unsigned char *d, const unsigned char *a,
                      const unsigned char *b, int64_t n, bool divide, int ranks)
{
    for (int64_t i = 0; i < n; i++) {
        if (!cv_dtype_is_float(dt)) {
            int64_t x = int_get(dt, a, i), y = int_get(dt, b, i);
            uint64_t ux = (uint64_t)x, uy = (uint64_t)y, v;
            switch (op) {
            case CV_PROD: v = ux * uy; break;
            case CV_MIN: v = (uint64_t)(y < x ? y : x); break;
            case CV_MAX: v = (uint64_t)(y > x ? y : x); break;
            case CV_BAND: v = ux & uy; break;
            case CV_BOR: v = ux | uy; break;
            case CV_BXOR: v = ux ^ uy; break;
            default: v = ux + uy; break; /* sum, avg */
            }
            int_set(dt, d, i, v);
            if (divide)
                int_set(dt, d, i, (uint64_t)(int_get(dt, d, i) / ranks));
            continue;
        }
        /* Two values of a dtype of at most 24 significant bits add and
         * multiply exactly in double: one rounding to the dtype is the
         * correctly rounded result. float64 is computed in itself. */
        double x = cv_value_get(dt, a, i), y = cv_value_get(dt, b, i), v;
        switch (op) {
        case CV_PROD: v = x * y; break;
        case CV_MIN: v = y < x ? y : x; break;
        case CV_MAX: v = y > x ? y : x; break;
        default: v = x + y; break;
        }
        cv__value_set(dt, d, i, v);
    }
}

#define GUARD 64
#define MAXN 9000

static void check_case(cv_dtype dt, cv_redop op, cv_xfer_kind kind, int64_t n, int dmis,
                       int lmis, int smis, bool finish, uint64_t *rng)
{
    size_t esz = cv_dtype_size(dt), bytes = (size_t)n * esz;
    static _Alignas(64) unsigned char dbuf[(MAXN + 2 * GUARD) * 8 + 256],
        want[(MAXN + 2 * GUARD) * 8 + 256], lbuf[MAXN * 8 + 256], sbuf[MAXN * 8 + 256];
    unsigned char *d = dbuf + GUARD + (size_t)dmis * esz, *w = want + GUARD + (size_t)dmis * esz;
    unsigned char *l = lbuf + (size_t)lmis * esz, *s = sbuf + (size_t)smis * esz;
    fill(dt, d - GUARD, n + 2 * GUARD / (int64_t)esz, rng);
    memcpy(w - GUARD, d - GUARD, bytes + 2 * GUARD);
    fill(dt, l, n, rng);
    fill(dt, s, n, rng);
    cv_transfer t = {.kind = (uint8_t)kind, .flags = finish ? CV_XFER_FINISH : 0};
    int ranks = 3;
    bool divide = finish && op == CV_AVG && !cv_dtype_is_float(dt);
    if (kind == CV_XFER_COPY)
        memcpy(w, s, bytes);
    else
        reference(dt, op, w, kind == CV_XFER_REDUCE ? w : l, s, n, divide, ranks);
    cv__kernel_stream(dt, op, &t, d, l, s, n, ranks);
    EXPECT(memcmp(d - GUARD, w - GUARD, bytes + 2 * GUARD) == 0,
           "%s %s kind %d n %lld misalign dst %d local %d src %d finish %d",
           cv_dtype_name(dt), cv_redop_name(op), (int)kind, (long long)n, dmis, lmis, smis,
           finish);
}

static const int64_t sizes[] = {1, 2, 3, 7, 15, 16, 17, 31, 33, 63, 64, 65, 127, 129,
                                255, 257, 1000, 1023, 1025, 2048, 4099, 8191, MAXN};

int main(void)
{
    uint64_t rng = 42;
    /* cv__copy_stream itself, byte sizes around its thresholds, every
     * alignment of source and destination within a line */
    static _Alignas(64) unsigned char src[20000], dst[20000 + 256], want[20000 + 256];
    for (size_t k = 0; k < sizeof src; k++)
        src[k] = (unsigned char)rng_next(&rng);
    const size_t nb[] = {0, 1, 63, 64, 65, 255, 256, 257, 300, 4096, 4097, 19000};
    for (size_t z = 0; z < sizeof nb / sizeof *nb; z++)
        for (int dm = 0; dm < 64; dm += 7)
            for (int sm = 0; sm < 64; sm += 9) {
                memset(dst, 0xa5, sizeof dst);
                memset(want, 0xa5, sizeof want);
                memcpy(want + 64 + dm, src + sm, nb[z]);
                cv__copy_stream(dst + 64 + dm, src + sm, nb[z]);
                EXPECT(memcmp(dst, want, sizeof dst) == 0, "copy %zu bytes, dst +%d src +%d",
                       nb[z], dm, sm);
            }
    printf("streaming copy: %s\n", cv__copy_stream_kind());

    for (int dt = 0; dt < CV_DTYPE_COUNT; dt++)
        for (int op = 0; op < CV_REDOP_COUNT; op++) {
            if (cv_redop_is_bitwise((cv_redop)op) && cv_dtype_is_float((cv_dtype)dt))
                continue;
            for (size_t z = 0; z < sizeof sizes / sizeof *sizes; z++) {
                int64_t n = sizes[z];
                int step = n > 1000 ? 5 : 1; /* every misalignment where cheap */
                for (int m = 0; m < 8; m += step) {
                    int lm = (m * 3) % 8, sm = (m * 5 + 1) % 8;
                    check_case((cv_dtype)dt, (cv_redop)op, CV_XFER_REDUCE_COPY, n, m, lm, sm,
                               false, &rng);
                    check_case((cv_dtype)dt, (cv_redop)op, CV_XFER_REDUCE_COPY, n, m, lm, sm,
                               true, &rng);
                    check_case((cv_dtype)dt, (cv_redop)op, CV_XFER_REDUCE, n, m, lm, sm, true,
                               &rng);
                    if (op == 0)
                        check_case((cv_dtype)dt, (cv_redop)op, CV_XFER_COPY, n, m, lm, sm,
                                   false, &rng);
                }
            }
        }

    cv_membw bw;
    EXPECT(cv_stream_probe(1 << 20, 2, 2, &bw) == CV_OK && bw.copy > 0 && bw.reduce > 0,
           "probe gave copy %g reduce %g", bw.copy, bw.reduce);
    printf("%d checks, %d failures\n", checks, failures);
    return failures != 0;
}

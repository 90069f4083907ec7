/*
 * cv_values.c: element values. Half-precision conversions (float16 and
 * bfloat16 are stored as 16-bit patterns and computed in float, so they
 * work with any C compiler), reading, writing and formatting elements, the
 * inputs each init produces, and the element kernels the CPU backend runs.
 *
 * Integer arithmetic wraps: sums and products are computed in the unsigned
 * type of the same width, which makes every reduction order give the same
 * bits and keeps signed overflow (undefined in C) out of the picture.
 */
#include <math.h>
#include <string.h>

#include "cv_internal.h"

/* ------------------------------------------------------ half precision */

static uint32_t f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static float bits_f32(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* The conversions are written without branches (every case computed, the
 * right one selected), so the compiler vectorises the loops that use them
 * with the baseline instruction set; their results are those of IEEE
 * round-to-nearest-even, as NCCL's __float2half and __float2bfloat16.
 * Where a case needs a float operation, the choice is made with masks, not
 * ?: (which GCC turns back into a branch around the operation, since a
 * float operation may trap, and then cannot vectorise the loop). */

/* a where cond, else b */
static inline uint32_t pick(bool cond, uint32_t a, uint32_t b)
{
    uint32_t m = (uint32_t)0 - (uint32_t)cond;
    return (a & m) | (b & ~m);
}

/* float -> float16: one of three results by the magnitude of f.
 *   overflow, inf, NaN: inf, or the quiet NaN 0x7e00;
 *   subnormal or zero:  adding 0.5 rounds f onto the subnormal grid (steps
 *                       of 2^-24) in the FPU's own round-to-nearest-even,
 *                       and the mantissa is then the half's bits;
 *   normal:             rebias, and round the 13 dropped bits to nearest
 *                       even (a carry into the exponent is still right,
 *                       up to inf). */
static inline uint16_t f32_to_f16(float f)
{
    uint32_t x = f32_bits(f), sign = (x >> 16) & 0x8000u, ax = x & 0x7fffffffu;
    uint32_t big = ax > 0x7f800000u ? 0x7e00u : 0x7c00u;
    uint32_t sub = f32_bits(bits_f32(ax) + 0.5f) - 0x3f000000u;
    uint32_t norm = (ax - (112u << 23) + 0xfffu + ((ax >> 13) & 1u)) >> 13;
    uint32_t h = pick(ax >= (143u << 23), big, pick(ax < (113u << 23), sub, norm));
    return (uint16_t)(sign | h);
}

/* float16 -> float: the 15 low bits moved into place and rebiased for a
 * normal half, rebiased to float's all-ones exponent for inf and NaN, and
 * for a subnormal (or zero) read as 2^-14 * (1 + m/1024) less 2^-14,
 * which is m * 2^-24 exactly. */
static inline float f16_to_f32(uint16_t h)
{
    uint32_t u = (uint32_t)(h & 0x7fffu) << 13, exp = u & 0x0f800000u;
    uint32_t norm = u + (112u << 23), special = u + (224u << 23);
    uint32_t sub = f32_bits(bits_f32(u + (113u << 23)) - bits_f32(113u << 23));
    uint32_t v = pick(exp == 0x0f800000u, special, pick(exp == 0, sub, norm));
    return bits_f32(v | ((uint32_t)(h & 0x8000u) << 16));
}

/* float -> bfloat16: round the 16 dropped bits to nearest even; a NaN
 * keeps its top bits and is made quiet. */
static inline uint16_t f32_to_bf16(float f)
{
    uint32_t x = f32_bits(f);
    uint32_t rounded = (x + 0x7fffu + ((x >> 16) & 1u)) >> 16, nan = (x >> 16) | 0x40u;
    return (uint16_t)((x & 0x7fffffffu) > 0x7f800000u ? nan : rounded);
}

static inline float bf16_to_f32(uint16_t h) { return bits_f32((uint32_t)h << 16); }

uint16_t cv__f32_to_f16(float f) { return f32_to_f16(f); }
float cv__f16_to_f32(uint16_t h) { return f16_to_f32(h); }
uint16_t cv__f32_to_bf16(float f) { return f32_to_bf16(f); }
float cv__bf16_to_f32(uint16_t h) { return bf16_to_f32(h); }

/* --------------------------------------------------------- element access */

double cv_value_get(cv_dtype dtype, const void *base, int64_t i)
{
    switch (dtype) {
    case CV_INT8: return ((const int8_t *)base)[i];
    case CV_INT32: return ((const int32_t *)base)[i];
    case CV_INT64: return (double)((const int64_t *)base)[i];
    case CV_FLOAT16: return cv__f16_to_f32(((const uint16_t *)base)[i]);
    case CV_BFLOAT16: return cv__bf16_to_f32(((const uint16_t *)base)[i]);
    case CV_FLOAT32: return ((const float *)base)[i];
    case CV_FLOAT64: return ((const double *)base)[i];
    default: return 0;
    }
}

void cv_value_set(cv_dtype dtype, void *base, int64_t i, double v)
{
    cv__value_set(dtype, base, i, v);
}

void cv__value_set(cv_dtype dtype, void *base, int64_t i, double v)
{
    switch (dtype) {
    case CV_INT8: ((int8_t *)base)[i] = (int8_t)(uint8_t)(int64_t)v; break;
    case CV_INT32: ((int32_t *)base)[i] = (int32_t)(uint32_t)(int64_t)v; break;
    case CV_INT64: ((int64_t *)base)[i] = (int64_t)v; break;
    case CV_FLOAT16: ((uint16_t *)base)[i] = cv__f32_to_f16((float)v); break;
    case CV_BFLOAT16: ((uint16_t *)base)[i] = cv__f32_to_bf16((float)v); break;
    case CV_FLOAT32: ((float *)base)[i] = (float)v; break;
    case CV_FLOAT64: ((double *)base)[i] = v; break;
    default: break;
    }
}

int cv_value_format(cv_dtype dtype, const void *base, int64_t i, char *out, size_t outlen)
{
    if (dtype == CV_INT64)
        return snprintf(out, outlen, "%lld", (long long)((const int64_t *)base)[i]);
    if (!cv_dtype_is_float(dtype))
        return snprintf(out, outlen, "%.0f", cv_value_get(dtype, base, i));
    double v = cv_value_get(dtype, base, i);
    if (v == 0)
        return snprintf(out, outlen, "0"); /* no "-0" */
    /* A whole number reads as one: 12048, not 1.205e+04, which hid the
     * very digits a sum label is there to show. */
    if (v == floor(v) && fabs(v) < 1e7)
        return snprintf(out, outlen, "%.0f", v);
    return snprintf(out, outlen, "%.4g", v);
}

int cv_value_format_exact(cv_dtype dtype, const void *base, int64_t i, char *out, size_t outlen,
                          bool *is_number)
{
    *is_number = true;
    if (dtype == CV_INT64)
        return snprintf(out, outlen, "%lld", (long long)((const int64_t *)base)[i]);
    double v = cv_value_get(dtype, base, i);
    if (!cv_dtype_is_float(dtype)) /* a whole number: "%.0f" of it, without the float printer */
        return snprintf(out, outlen, "%lld", (long long)v);
    if (isnan(v) || isinf(v)) {
        *is_number = false;
        return snprintf(out, outlen, "%s", isnan(v) ? "nan" : v > 0 ? "inf" : "-inf");
    }
    /* the fewest significant digits that read back to the same double;
     * 17 always do */
    char text[40] = "";
    int prec = 1;
    for (; prec <= 17; prec++) {
        snprintf(text, sizeof text, "%.*g", prec, v);
        if (strtod(text, NULL) == v)
            break;
    }
    /* whole numbers up to 1e17 as digits (100, not 1e+02) */
    int e10 = v != 0 ? (int)floor(log10(fabs(v))) : 0;
    if (strchr(text, 'e') && e10 >= 0 && e10 < 17 && e10 + 1 > prec)
        snprintf(text, sizeof text, "%.*g", e10 + 1, v);
    return snprintf(out, outlen, "%s", text);
}

double cv__dtype_max(cv_dtype dtype)
{
    switch (dtype) {
    case CV_FLOAT16: return 65504.0;
    case CV_BFLOAT16: return 3.3895313892515355e38;
    case CV_FLOAT32: return 3.4028234663852886e38;
    default: return 1.7976931348623157e308;
    }
}

double cv__dtype_eps(cv_dtype dtype)
{
    switch (dtype) {
    case CV_FLOAT16: return 0x1p-11;
    case CV_BFLOAT16: return 0x1p-8;
    case CV_FLOAT32: return 0x1p-24;
    case CV_FLOAT64: return 0x1p-53;
    default: return 0;
    }
}

/* --------------------------------------------------------------- inputs */

static uint64_t splitmix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

typedef struct {
    const cv_spec *spec;
    cv_init init;
    uint64_t seed;
    int rank;
    void *dst;
    int64_t n;
} fill_job;

/* Elements per piece when a fill is shared among threads. */
#define FILL_PIECE ((int64_t)1 << 16)

/* Element i's value. Inlined into one loop per dtype below, where the
 * branches on init and dtype are the same for every element. */
static inline double fill_value(const fill_job *j, bool is_float, bool prod, int64_t i)
{
    if (j->init == CV_INIT_RANK)
        return j->rank + 1;
    if (j->init == CV_INIT_INDEX)
        return (double)j->rank * 100 + (double)i;
    if (j->init == CV_INIT_NAN)
        return i == 0 && j->rank == cv_init_nan_rank(j->spec) ? NAN : (double)j->rank * 100 + (double)i;
    /* Small integers are exact in every dtype, so sums of them can be
     * checked tightly; for prod, values near 1 keep products of many ranks
     * finite. */
    uint64_t r = splitmix64(j->seed ^ splitmix64(((uint64_t)j->rank << 40) ^ (uint64_t)i));
    if (prod)
        return is_float ? 1.0 + ((double)(r % 5) - 2.0) / 16.0 : (double)(r % 7) - 3.0;
    return is_float ? (double)(r % 17) - 8.0 : (double)(r % 201) - 100.0;
}

#define FILL_LOOP(T, CONV)                                                                 \
    for (int64_t i = lo; i < hi; i++)                                                      \
        ((T *)j->dst)[i] = CONV(fill_value(j, is_float, prod, i))

static void fill_range(const fill_job *j, int64_t lo, int64_t hi)
{
    const cv_spec *spec = j->spec;
    bool is_float = cv_dtype_is_float(spec->dtype);
    bool prod = spec->redop == CV_PROD && cv_op_reduces(spec->op);
    switch (spec->dtype) {
    case CV_FLOAT32: FILL_LOOP(float, (float)); break;
    case CV_FLOAT64: FILL_LOOP(double, (double)); break;
    case CV_INT32: FILL_LOOP(int32_t, (int32_t)(uint32_t)(int64_t)); break;
    case CV_INT8: FILL_LOOP(int8_t, (int8_t)(uint8_t)(int64_t)); break;
    default:
        for (int64_t i = lo; i < hi; i++)
            cv__value_set(spec->dtype, j->dst, i, fill_value(j, is_float, prod, i));
        break;
    }
}

static void fill_piece(void *ctx, int64_t k)
{
    const fill_job *j = ctx;
    int64_t lo = k * FILL_PIECE, hi = lo + FILL_PIECE < j->n ? lo + FILL_PIECE : j->n;
    fill_range(j, lo, hi);
}

/* Every element is a function of (seed, rank, index) alone, so a large
 * fill is shared among the CPU backend's threads: single-threaded it takes
 * seconds per GiB, which would dominate a bench sweep. */
void cv_fill_input(const cv_spec *spec, cv_init init, uint64_t seed, int rank, void *dst)
{
    fill_job j = {spec, init, seed, rank, dst, cv_spec_buf_count(spec, CV_BUF_SEND, rank)};
    if (j.n <= FILL_PIECE)
        fill_range(&j, 0, j.n);
    else
        cv__parallel(fill_piece, &j, (j.n + FILL_PIECE - 1) / FILL_PIECE);
}

/* NCCL's ncclAvg on floats (hostToDevRedOp in src/enqueue.cc) is a
 * pre-multiplied sum whose scalar is 1.0/nRanks computed in double, then
 * rounded to float, then to the dtype: __float2half(float(1.0/n)) for
 * float16, __float2bfloat16(float(1.0/n)) for bfloat16. Each input is
 * multiplied by that scalar in the dtype (__hmul): the product of two
 * halves is exact in float, so rounding it once to the dtype is the same. */
double cv__avg_scalar(cv_dtype dtype, int ranks)
{
    double s = 1.0 / ranks;
    if (dtype == CV_FLOAT64)
        return s;
    unsigned char tmp[8];
    cv__value_set(dtype, tmp, 0, (double)(float)s);
    return cv_value_get(dtype, tmp, 0);
}

void cv__premultiply(cv_dtype dtype, void *buf, int64_t n, int ranks)
{
    double s = cv__avg_scalar(dtype, ranks);
    switch (dtype) {
    case CV_FLOAT32: {
        float fs = (float)s, *p = buf;
        for (int64_t i = 0; i < n; i++)
            p[i] *= fs;
        break;
    }
    case CV_FLOAT64: {
        double *p = buf;
        for (int64_t i = 0; i < n; i++)
            p[i] *= s;
        break;
    }
    case CV_FLOAT16:
    case CV_BFLOAT16: {
        float fs = (float)s;
        for (int64_t i = 0; i < n; i++)
            cv__value_set(dtype, buf, i, (float)cv_value_get(dtype, buf, i) * fs);
        break;
    }
    default: break;
    }
}

/* -------------------------------------------------------------- kernels */

/* The reduction loops compute d = a (op) b. a is d itself (an in-place
 * reduce: the first branch, which the compiler vectorises without an
 * overlap check) or a region that does not overlap d. */
#define COMBINE_LOOP(EXPR)                                                                 \
    do {                                                                                   \
        if (a == d)                                                                        \
            for (int64_t i = 0; i < n; i++) {                                              \
                T x = d[i], y = b[i];                                                      \
                d[i] = (EXPR);                                                             \
            }                                                                              \
        else                                                                               \
            for (int64_t i = 0; i < n; i++) {                                              \
                T x = a[i], y = b[i];                                                      \
                d[i] = (EXPR);                                                             \
            }                                                                              \
    } while (0)

/* Integer loops: T the element type, U its unsigned twin. */
#define INT_KERNEL(T_, U)                                                                  \
    static void kernel_##T_(cv_redop op, T_ *restrict d, const T_ *a, const T_ *restrict b, \
                            int64_t n)                                                     \
    {                                                                                      \
        typedef T_ T;                                                                      \
        switch (op) {                                                                      \
        case CV_SUM:                                                                       \
        case CV_AVG: COMBINE_LOOP((T)(U)((U)x + (U)y)); break;                             \
        case CV_PROD: COMBINE_LOOP((T)(U)((U)x * (U)y)); break;                            \
        case CV_MIN: COMBINE_LOOP(y < x ? y : x); break;                                   \
        case CV_MAX: COMBINE_LOOP(y > x ? y : x); break;                                   \
        case CV_BAND: COMBINE_LOOP((T)(x & y)); break;                                     \
        case CV_BOR: COMBINE_LOOP((T)(x | y)); break;                                      \
        case CV_BXOR: COMBINE_LOOP((T)(x ^ y)); break;                                     \
        default: break;                                                                    \
        }                                                                                  \
    }                                                                                      \
    static void divide_##T_(T_ *d, int64_t n, int divisor)                                 \
    {                                                                                      \
        for (int64_t i = 0; i < n; i++)                                                    \
            d[i] = (T_)(d[i] / divisor);                                                   \
    }

/* Float loops; avg is a sum here (inputs were pre-multiplied). */
#define FLOAT_KERNEL(T_)                                                                   \
    static void kernel_##T_(cv_redop op, T_ *restrict d, const T_ *a, const T_ *restrict b, \
                            int64_t n)                                                     \
    {                                                                                      \
        typedef T_ T;                                                                      \
        switch (op) {                                                                      \
        case CV_SUM:                                                                       \
        case CV_AVG: COMBINE_LOOP(x + y); break;                                           \
        case CV_PROD: COMBINE_LOOP(x * y); break;                                          \
        case CV_MIN: COMBINE_LOOP(y < x ? y : x); break;                                   \
        case CV_MAX: COMBINE_LOOP(y > x ? y : x); break;                                   \
        default: break;                                                                    \
        }                                                                                  \
    }

INT_KERNEL(int8_t, uint8_t)
INT_KERNEL(int32_t, uint32_t)
INT_KERNEL(int64_t, uint64_t)
FLOAT_KERNEL(float)
FLOAT_KERNEL(double)

/* Half types are widened to float, combined and rounded back, which is the
 * correctly rounded result of one half-precision operation. One loop per
 * dtype and redop, with the conversions inlined, so each vectorises. */
#define HALF_LOOP(TO, FROM, EXPR)                                                          \
    do {                                                                                   \
        if (a == d)                                                                        \
            for (int64_t i = 0; i < n; i++) {                                              \
                float x = FROM(d[i]), y = FROM(b[i]);                                      \
                d[i] = TO(EXPR);                                                           \
            }                                                                              \
        else                                                                               \
            for (int64_t i = 0; i < n; i++) {                                              \
                float x = FROM(a[i]), y = FROM(b[i]);                                      \
                d[i] = TO(EXPR);                                                           \
            }                                                                              \
    } while (0)

#define HALF_KERNEL(NAME, TO, FROM)                                                        \
    static void NAME(cv_redop op, uint16_t *restrict d, const uint16_t *a,                 \
                     const uint16_t *restrict b, int64_t n)                                \
    {                                                                                      \
        switch (op) {                                                                      \
        case CV_PROD: HALF_LOOP(TO, FROM, x * y); break;                                   \
        case CV_MIN: HALF_LOOP(TO, FROM, y < x ? y : x); break;                            \
        case CV_MAX: HALF_LOOP(TO, FROM, y > x ? y : x); break;                            \
        default: HALF_LOOP(TO, FROM, x + y); break; /* sum, avg (pre-multiplied) */         \
        }                                                                                  \
    }

HALF_KERNEL(kernel_f16, f32_to_f16, f16_to_f32)
HALF_KERNEL(kernel_bf16, f32_to_bf16, bf16_to_f32)

void cv__combine(cv_dtype dtype, cv_redop redop, void *dst, const void *a, const void *b,
                 int64_t n)
{
    switch (dtype) {
    case CV_INT8: kernel_int8_t(redop, dst, a, b, n); break;
    case CV_INT32: kernel_int32_t(redop, dst, a, b, n); break;
    case CV_INT64: kernel_int64_t(redop, dst, a, b, n); break;
    case CV_FLOAT32: kernel_float(redop, dst, a, b, n); break;
    case CV_FLOAT64: kernel_double(redop, dst, a, b, n); break;
    case CV_FLOAT16: {
        int64_t k = cv__combine_f16_fast(redop, dst, a, b, n);
        kernel_f16(redop, (uint16_t *)dst + k, (const uint16_t *)a + k, (const uint16_t *)b + k,
                   n - k);
        break;
    }
    case CV_BFLOAT16: kernel_bf16(redop, dst, a, b, n); break;
    default: break;
    }
}

void cv__divide(cv_dtype dtype, void *dst, int64_t n, int divisor)
{
    switch (dtype) {
    case CV_INT8: divide_int8_t(dst, n, divisor); break;
    case CV_INT32: divide_int32_t(dst, n, divisor); break;
    case CV_INT64: divide_int64_t(dst, n, divisor); break;
    default: break; /* float avg was pre-multiplied */
    }
}

void cv__kernel(cv_dtype dtype, cv_redop redop, const cv_transfer *t, void *dst,
                const void *local, const void *src, int64_t n, int ranks)
{
    switch (t->kind) {
    case CV_XFER_COPY: memcpy(dst, src, (size_t)n * cv_dtype_size(dtype)); return;
    case CV_XFER_REDUCE: cv__combine(dtype, redop, dst, dst, src, n); break;
    case CV_XFER_REDUCE_COPY: cv__combine(dtype, redop, dst, local, src, n); break;
    default: return;
    }
    if ((t->flags & CV_XFER_FINISH) && redop == CV_AVG)
        cv__divide(dtype, dst, n, ranks);
}

/* Reduce-copies are combined a block at a time into a buffer that stays in
 * L1, then streamed out: the combine loops stay the vectorised ones above,
 * and the destination is written without being read. */
#define STREAM_BLOCK 4096

void cv__kernel_stream(cv_dtype dtype, cv_redop redop, const cv_transfer *t, void *dst,
                       const void *local, const void *src, int64_t n, int ranks)
{
    size_t esz = cv_dtype_size(dtype);
    if (t->kind == CV_XFER_COPY) {
        cv__copy_stream(dst, src, (size_t)n * esz);
        return;
    }
    if (t->kind != CV_XFER_REDUCE_COPY) {
        cv__kernel(dtype, redop, t, dst, local, src, n, ranks);
        return;
    }
    _Alignas(64) unsigned char tmp[STREAM_BLOCK];
    int64_t per = STREAM_BLOCK / (int64_t)esz;
    bool divide = (t->flags & CV_XFER_FINISH) && redop == CV_AVG;
    /* The first block ends where the destination reaches a line boundary
     * (when the element size allows), so later blocks stream whole lines. */
    int64_t first = (int64_t)((-(uintptr_t)dst & 63) / esz);
    for (int64_t i = 0; i < n;) {
        int64_t m = i == 0 && first ? first : per;
        m = n - i < m ? n - i : m;
        size_t off = (size_t)i * esz;
        i += m;
        cv__combine(dtype, redop, tmp, (const unsigned char *)local + off,
                    (const unsigned char *)src + off, m);
        if (divide)
            cv__divide(dtype, tmp, m, ranks);
        cv__copy_stream_nofence((unsigned char *)dst + off, tmp, (size_t)m * esz);
    }
    cv__copy_stream_fence();
}

/*
 * test_cpu_kernels.c: the CPU backend's streaming kernels, checked for
 * correctness only (their speed is bench/'s business): cv__copy_stream
 * against memcpy, and cv__kernel_stream (copy, reduce, reduce-copy, the
 * integer avg's finishing division) against a reference computed here one
 * element at a time in wider arithmetic, for every dtype and every redop
 * it allows, sizes from 1 element up past several 4 KiB blocks, and
 * destinations, local inputs and sources at every element-aligned byte
 * offset within a cache line (0 to 63; every fifth for the larger sizes).
 * Bytes just outside the destination must be left alone. The half-precision
 * conversions the kernels use are checked against references written here
 * from the definition (nearest representable value, ties to even): every
 * one of the 65536 inputs of float16 -> float and bfloat16 -> float, and
 * float -> float16 / bfloat16 over ties, their neighbours, subnormals,
 * overflow, inf, NaN and random patterns. Also the bandwidth probe's basic
 * promise: two positive figures, again when it reuses its arrays.
 */
#include <float.h>
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

/* ------------------------------------------------ half-precision reference */

static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static float bitsf(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* The value of a non-negative float16 pattern below NaN, from its fields;
 * 0x7c00 reads as 2^16, the value rounding treats as the step past the
 * largest finite half. */
static double f16_value(uint32_t h)
{
    uint32_t e = h >> 10, m = h & 0x3ffu;
    return e == 0 ? ldexp(m, -24) : ldexp(1024 + m, (int)e - 25);
}

/* The same for bfloat16; 0x7f80 reads as 2^128. */
static double bf16_value(uint32_t h)
{
    uint32_t e = h >> 7, m = h & 0x7fu;
    return e == 0 ? ldexp(m, -133) : ldexp(128 + m, (int)e - 134);
}

/* The nearest of patterns lo and lo + 1 to a, ties to the even pattern. */
static uint32_t nearest(double a, uint32_t lo, double (*value)(uint32_t))
{
    double dl = a - value(lo), dh = value(lo + 1) - a;
    return dl < dh ? lo : dh < dl ? lo + 1 : (lo & 1) ? lo + 1 : lo;
}

static uint16_t ref_f32_to_f16(float f)
{
    uint32_t x = fbits(f), sign = (x >> 16) & 0x8000u;
    if (isnan(f))
        return (uint16_t)(sign | 0x7e00u);
    double a = fabs((double)f);
    if (a >= 65536.0)
        return (uint16_t)(sign | 0x7c00u);
    uint32_t lo = 0, hi = 0x7c00u; /* the largest pattern whose value is <= a */
    while (lo < hi) {
        uint32_t mid = (lo + hi + 1) / 2;
        if (f16_value(mid) <= a)
            lo = mid;
        else
            hi = mid - 1;
    }
    return (uint16_t)(sign | (lo == 0x7c00u ? lo : nearest(a, lo, f16_value)));
}

static uint16_t ref_f32_to_bf16(float f)
{
    uint32_t x = fbits(f), sign = (x >> 16) & 0x8000u;
    if (isnan(f))
        return (uint16_t)((x >> 16) | 0x40u);
    if (isinf(f))
        return (uint16_t)(sign | 0x7f80u);
    double a = fabs((double)f);
    uint32_t lo = (x & 0x7fffffffu) >> 16; /* truncated: value(lo) <= a < value(lo + 1) */
    return (uint16_t)(sign | nearest(a, lo, bf16_value));
}

static void check_f32_to_halves(float f)
{
    uint16_t h = cv__f32_to_f16(f), w = ref_f32_to_f16(f);
    uint16_t b = cv__f32_to_bf16(f), wb = ref_f32_to_bf16(f);
    if (h != w || b != wb)
        EXPECT(false, "float %a (0x%08x): float16 0x%04x want 0x%04x, bfloat16 0x%04x want 0x%04x",
               (double)f, fbits(f), h, w, b, wb);
}

static void check_conversions(uint64_t *rng)
{
    int64_t bad16 = 0, badbf = 0;
    for (uint32_t h = 0; h < 65536; h++) {
        uint32_t sign = (h & 0x8000u) << 16, mag = h & 0x7fffu;
        /* float16 -> float: exact, NaN payload and sign kept */
        float got = cv__f16_to_f32((uint16_t)h);
        uint32_t want = mag > 0x7c00u ? sign | 0x7f800000u | ((h & 0x3ffu) << 13)
                        : mag == 0x7c00u ? sign | 0x7f800000u
                                         : sign | fbits((float)f16_value(mag));
        bad16 += fbits(got) != want;
        /* bfloat16 -> float: the same bits in the top half */
        double v = (h & 0x7f80u) == 0x7f80u ? 0 : bf16_value(h & 0x7fffu);
        float gb = cv__bf16_to_f32((uint16_t)h);
        badbf += (h & 0x7f80u) == 0x7f80u ? fbits(gb) != h << 16
                                           : (double)fabsf(gb) != v || (fbits(gb) >> 31) != h >> 15;
        /* float -> halves around this half's value: it, its neighbours, and
         * the tie halfway to the next half and its neighbours */
        if (mag < 0x7c00u) {
            float here = bitsf(sign | fbits((float)f16_value(mag)));
            float tie = (float)((f16_value(mag) + f16_value(mag + 1)) / 2);
            tie = sign ? -tie : tie;
            const float probes[] = {here, nextafterf(here, INFINITY), nextafterf(here, -INFINITY),
                                    tie, nextafterf(tie, INFINITY), nextafterf(tie, -INFINITY)};
            for (size_t k = 0; k < sizeof probes / sizeof *probes; k++)
                check_f32_to_halves(probes[k]);
        }
        /* float -> bfloat16 with every kind of dropped half: zero, just
         * above, just below and at the tie, the largest, and random */
        const uint32_t low[] = {0, 1, 0x7fff, 0x8000, 0x8001, 0xffff,
                                (uint32_t)rng_next(rng) & 0xffffu};
        for (size_t k = 0; k < sizeof low / sizeof *low; k++)
            check_f32_to_halves(bitsf(h << 16 | low[k]));
    }
    EXPECT(bad16 == 0 && badbf == 0, "float16 -> float: %lld wrong, bfloat16 -> float: %lld wrong",
           (long long)bad16, (long long)badbf);
    /* overflow to inf at and around 65520, the largest finite, inf, NaN */
    const float special[] = {65504.0f, 65519.0f, 65520.0f, 65521.0f, 65536.0f, 1e10f, FLT_MAX,
                             INFINITY, -INFINITY, NAN, -NAN, bitsf(0x7f800001u),
                             bitsf(0xffc00001u), 0x1p-25f, 0x1.000002p-25f, 0x1p-26f, 0x1p-149f,
                             0x1.8p-24f, 0x1.4p-24f, 0x1.ffcp-15f, 0x1.ffep-15f, 0x1.fffp-15f};
    for (size_t k = 0; k < sizeof special / sizeof *special; k++) {
        check_f32_to_halves(special[k]);
        check_f32_to_halves(-special[k]);
    }
    for (int k = 0; k < 1 << 20; k++) /* random float patterns */
        check_f32_to_halves(bitsf((uint32_t)rng_next(rng)));
}

#define GUARD 64
#define MAXN 9000

/* dmis, lmis, smis: byte offsets from a line boundary, multiples of the
 * element size. */
static void check_case(cv_dtype dt, cv_redop op, cv_xfer_kind kind, int64_t n, int dmis,
                       int lmis, int smis, bool finish, uint64_t *rng)
{
    size_t esz = cv_dtype_size(dt), bytes = (size_t)n * esz;
    static _Alignas(64) unsigned char dbuf[(MAXN + 2 * GUARD) * 8 + 256],
        want[(MAXN + 2 * GUARD) * 8 + 256], lbuf[MAXN * 8 + 256], sbuf[MAXN * 8 + 256];
    unsigned char *d = dbuf + GUARD + dmis, *w = want + GUARD + dmis;
    unsigned char *l = lbuf + lmis, *s = sbuf + smis;
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

/* Every float16 and bfloat16 pattern (NaNs, infs, subnormals, zeros of
 * both signs) combined with random patterns by each redop, kernel against
 * reference, bit for bit except in a NaN's sign and, for bfloat16, its
 * payload (they depend on which operand the hardware keeps when both are
 * NaN; a float16 NaN is always made 0x7e00). */
static void check_half_specials(uint64_t *rng)
{
    enum { N = 65536 };
    static _Alignas(64) uint16_t a[N], b[N], d[N], w[N];
    const cv_dtype dts[] = {CV_FLOAT16, CV_BFLOAT16};
    const cv_redop ops[] = {CV_SUM, CV_PROD, CV_MIN, CV_MAX, CV_AVG};
    for (int t = 0; t < 2; t++)
        for (int o = 0; o < 5; o++) {
            cv_dtype dt = dts[t];
            uint16_t expo = dt == CV_FLOAT16 ? 0x7c00u : 0x7f80u;
            for (int i = 0; i < N; i++) {
                a[i] = (uint16_t)i;
                b[i] = (uint16_t)rng_next(rng);
            }
            reference(dt, ops[o], (unsigned char *)w, (const unsigned char *)a,
                      (const unsigned char *)b, N, false, 3);
            cv_transfer tr = {.kind = CV_XFER_REDUCE_COPY};
            cv__kernel_stream(dt, ops[o], &tr, d, a, b, N, 3);
            int64_t bad = 0, first = -1;
            for (int i = 0; i < N; i++) {
                bool nan_d = (d[i] & expo) == expo && (d[i] & ~expo & 0x7fffu);
                bool nan_w = (w[i] & expo) == expo && (w[i] & ~expo & 0x7fffu);
                bool same = !nan_w ? d[i] == w[i]
                            : dt == CV_FLOAT16 ? (d[i] & 0x7fffu) == (w[i] & 0x7fffu)
                                               : nan_d;
                if (!same && first < 0)
                    first = i;
                bad += !same;
            }
            EXPECT(bad == 0, "%s %s over every pattern: %lld wrong, first 0x%04x op 0x%04x: 0x%04x want 0x%04x",
                   cv_dtype_name(dt), cv_redop_name(ops[o]), (long long)bad,
                   first < 0 ? 0 : a[first], first < 0 ? 0 : b[first], first < 0 ? 0 : d[first],
                   first < 0 ? 0 : w[first]);
        }
}

static const int64_t sizes[] = {1, 2, 3, 7, 15, 16, 17, 31, 33, 63, 64, 65, 127, 129,
                                255, 257, 1000, 1023, 1025, 2048, 4099, 8191, MAXN};

/* One random stream through the copy, the kernels, the conversions and
 * float16's specials: each of those cases goes on from the one above. */
static uint64_t rng = 42;

/* cv__copy_stream itself, byte sizes around its thresholds, every
 * alignment of source and destination within a line */
static void copy_stream(void)
{
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
}

static void kernels(void)
{
    for (int dt = 0; dt < CV_DTYPE_COUNT; dt++)
        for (int op = 0; op < CV_REDOP_COUNT; op++) {
            if (cv_redop_is_bitwise((cv_redop)op) && cv_dtype_is_float((cv_dtype)dt))
                continue;
            for (size_t z = 0; z < sizeof sizes / sizeof *sizes; z++) {
                int64_t n = sizes[z];
                /* every element-aligned offset within a line where cheap */
                int esz = (int)cv_dtype_size((cv_dtype)dt), step = esz * (n > 1000 ? 5 : 1);
                for (int m = 0; m < 64; m += step) {
                    int lm = (m * 3) % 64, sm = (m * 5 + esz) % 64;
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
}

static void conversions(void) { check_conversions(&rng); }

static void half_specials(void)
{
    check_half_specials(&rng);
    printf("float16 kernel: %s\n", cv__half_kind());
}

/* the probe, then again on its kept arrays (smaller), then on larger;
 * pieces that do not divide the arrays, odd thread and pass counts (the
 * reduce forms alternate across calls) */
static void probe(void)
{
    const int64_t probe_bytes[] = {1 << 20, 1 << 19, 1 << 21};
    for (int k = 0; k < 3; k++) {
        cv_membw bw;
        EXPECT(cv_stream_probe(probe_bytes[k], 2, 2, &bw) == CV_OK && bw.copy > 0 && bw.reduce > 0,
               "probe of %lld bytes gave copy %g reduce %g", (long long)probe_bytes[k], bw.copy,
               bw.reduce);
    }
    const int64_t odd[][3] = {{(5 << 20) + 4096, 3, 3}, {1 << 20, 1, 1}, {(3 << 20) + 64, 1, 2}};
    for (int k = 0; k < 3; k++) {
        cv_membw bw;
        EXPECT(cv_stream_probe(odd[k][0], (int)odd[k][1], (int)odd[k][2], &bw) == CV_OK &&
                   bw.copy > 0 && bw.reduce > 0,
               "probe of %lld bytes, %lld passes, %lld threads gave copy %g reduce %g",
               (long long)odd[k][0], (long long)odd[k][1], (long long)odd[k][2], bw.copy,
               bw.reduce);
    }
}

static const test_case cases[] = {
    CASE("copy-stream", copy_stream),
    CASE_THEN("kernels", kernels),
    CASE_THEN("conversions", conversions),
    CASE_THEN("half-specials", half_specials),
    CASE("probe", probe),
};

int main(int argc, char **argv) { return CASES_MAIN(argc, argv, cases); }

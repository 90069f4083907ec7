/*
 * cv_half_f16c.c: the float16 reduce loop with the x86 F16C conversion
 * instructions, used where the CPU has them (and AVX2) at run time. The
 * portable loop in cv_values.c converts with integer arithmetic; these
 * instructions convert eight elements in one, with the same results:
 * float16 -> float is exact, float -> float16 rounds to nearest even, and
 * a NaN result is made the quiet NaN sign | 0x7e00 that the portable
 * conversion gives (the instruction would keep part of the payload).
 */
#include "cv_internal.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <immintrin.h>

__attribute__((target("avx2,f16c"))) static int64_t
kernel_f16c(cv_redop op, uint16_t *d, const uint16_t *a, const uint16_t *b, int64_t n)
{
    const __m128i mag = _mm_set1_epi16(0x7fff), inf = _mm_set1_epi16(0x7c00),
                  qnan = _mm_set1_epi16(0x7e00), sign = _mm_set1_epi16((short)0x8000);
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256 x = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(a + i)));
        __m256 y = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(b + i)));
        __m256 v;
        switch (op) {
        case CV_PROD: v = _mm256_mul_ps(x, y); break;
        case CV_MIN: v = _mm256_min_ps(y, x); break; /* y < x ? y : x */
        case CV_MAX: v = _mm256_max_ps(y, x); break; /* y > x ? y : x */
        default: v = _mm256_add_ps(x, y); break;     /* sum, avg (pre-multiplied) */
        }
        __m128i h = _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
        __m128i nan = _mm_cmpgt_epi16(_mm_and_si128(h, mag), inf);
        __m128i fixed = _mm_or_si128(_mm_and_si128(h, sign), qnan);
        h = _mm_or_si128(_mm_andnot_si128(nan, h), _mm_and_si128(nan, fixed));
        _mm_storeu_si128((__m128i *)(d + i), h);
    }
    return i;
}

/* AVX2 (whose check includes the OS saving the wide registers) and F16C,
 * CPUID leaf 1 ECX bit 29: clang's __builtin_cpu_supports has no "f16c". */
static bool have_f16c(void)
{
    static int known; /* 0 not asked yet, 1 no, 2 yes: CPUID traps in a VM, so ask once */
    int k = __atomic_load_n(&known, __ATOMIC_RELAXED);
    if (k == 0) {
        unsigned a, b, c, d;
        bool yes = __builtin_cpu_supports("avx2") && __get_cpuid(1, &a, &b, &c, &d) &&
                   (c & (1u << 29));
        k = yes ? 2 : 1;
        __atomic_store_n(&known, k, __ATOMIC_RELAXED);
    }
    return k == 2;
}

int64_t cv__combine_f16_fast(cv_redop op, uint16_t *d, const uint16_t *a, const uint16_t *b,
                             int64_t n)
{
    if (have_f16c())
        return kernel_f16c(op, d, a, b, n);
    return 0;
}

const char *cv__half_kind(void)
{
    return have_f16c() ? "f16c" : "portable";
}
#else
int64_t cv__combine_f16_fast(cv_redop op, uint16_t *d, const uint16_t *a, const uint16_t *b,
                             int64_t n)
{
    return 0;
}

const char *cv__half_kind(void) { return "portable"; }
#endif

/*
 * cv_copy.c: the CPU backend's streaming copy, for transfers whose
 * destination is not read back soon.
 *
 * An ordinary store to a line that is not in cache first reads the line
 * (write-allocate), so memcpy of a large buffer moves 3 bytes for every 2
 * it needs to. Non-temporal stores write whole lines straight to memory.
 * x86-64 always has SSE2's; AVX2's 32-byte ones are used where the CPU
 * says it has them (checked once, at run time); elsewhere, memcpy. The
 * head up to the first aligned destination byte and the tail are copied
 * with memcpy; the source may have any alignment. Non-temporal stores are
 * weakly ordered: a fence (sfence) after the last one makes them visible
 * before anything the thread does next, such as saying its piece is done.
 */
#include <string.h>

#include "cv_internal.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define CV_X86 1
#endif

#ifdef CV_X86
static void copy_sse2(unsigned char *d, const unsigned char *s, size_t n)
{
    size_t i = 0; /* d is 64-byte aligned: whole lines only */
    for (; i + 64 <= n; i += 64) {
        __m128i a = _mm_loadu_si128((const __m128i *)(s + i));
        __m128i b = _mm_loadu_si128((const __m128i *)(s + i + 16));
        __m128i c = _mm_loadu_si128((const __m128i *)(s + i + 32));
        __m128i e = _mm_loadu_si128((const __m128i *)(s + i + 48));
        _mm_stream_si128((__m128i *)(d + i), a);
        _mm_stream_si128((__m128i *)(d + i + 16), b);
        _mm_stream_si128((__m128i *)(d + i + 32), c);
        _mm_stream_si128((__m128i *)(d + i + 48), e);
    }
    memcpy(d + i, s + i, n - i);
}

__attribute__((target("avx2"))) static void copy_avx2(unsigned char *d, const unsigned char *s,
                                                        size_t n)
{
    size_t i = 0;
    for (; i + 128 <= n; i += 128) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(s + i));
        __m256i b = _mm256_loadu_si256((const __m256i *)(s + i + 32));
        __m256i c = _mm256_loadu_si256((const __m256i *)(s + i + 64));
        __m256i e = _mm256_loadu_si256((const __m256i *)(s + i + 96));
        _mm256_stream_si256((__m256i *)(d + i), a);
        _mm256_stream_si256((__m256i *)(d + i + 32), b);
        _mm256_stream_si256((__m256i *)(d + i + 64), c);
        _mm256_stream_si256((__m256i *)(d + i + 96), e);
    }
    if (i + 64 <= n) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(s + i));
        __m256i b = _mm256_loadu_si256((const __m256i *)(s + i + 32));
        _mm256_stream_si256((__m256i *)(d + i), a);
        _mm256_stream_si256((__m256i *)(d + i + 32), b);
        i += 64;
    }
    memcpy(d + i, s + i, n - i);
}
#endif

/* The copy routine in use, for the test's and the bench's record. */
const char *cv__copy_stream_kind(void)
{
#ifdef CV_X86
    return __builtin_cpu_supports("avx2") ? "avx2" : "sse2";
#else
    return "memcpy";
#endif
}

void cv__copy_stream_fence(void)
{
#ifdef CV_X86
    _mm_sfence();
#endif
}

void cv__copy_stream_nofence(void *dst, const void *src, size_t n)
{
#ifdef CV_X86
    unsigned char *d = dst;
    const unsigned char *s = src;
    if (n < 256) { /* not worth the fence */
        memcpy(d, s, n);
        return;
    }
    /* Lines written partly with ordinary stores and partly with streaming
     * ones are slow: ordinary stores up to the first line boundary, whole
     * lines streamed, ordinary stores for the last partial line. */
    size_t head = (size_t)(-(uintptr_t)d & 63);
    memcpy(d, s, head);
    if (__builtin_cpu_supports("avx2"))
        copy_avx2(d + head, s + head, n - head);
    else
        copy_sse2(d + head, s + head, n - head);
#else
    memcpy(dst, src, n);
#endif
}

void cv__copy_stream(void *dst, const void *src, size_t n)
{
    cv__copy_stream_nofence(dst, src, n);
    cv__copy_stream_fence();
}

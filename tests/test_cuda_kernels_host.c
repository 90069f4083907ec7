/*
 * test_cuda_kernels_host.c: the CUDA kernels' own per-thread code, run on
 * the host through cv_cuda__emulate, against the CPU backend's element
 * kernels (cv__combine, cv__divide). No GPU is involved, so it runs on every
 * machine with the toolkit: what it checks is the arithmetic (integer
 * wrapping, min/max, float16 and bfloat16 rounding, reduce and reduce-copy,
 * integer avg's division) and the
 * index ranges (16-byte vector part, tail, grid-stride loops with grids
 * smaller and larger than the work), which must give results identical to
 * the CPU's, bit for bit. Whether the GPU executes the same code correctly
 * is test_cuda's job, on a machine with a device.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_internal.h"
#include "cv_internal.h"
#include "check.h"

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Random elements that are finite in the dtype (NaN bit patterns may
 * legitimately differ between two correct conversions), with a share of
 * large magnitudes so that sums and products overflow and round. */
static void fill(cv_dtype dtype, void *buf, int64_t n, uint64_t *rng)
{
    for (int64_t i = 0; i < n; i++) {
        uint64_t r = splitmix64(rng);
        switch (dtype) {
        case CV_INT8: ((int8_t *)buf)[i] = (int8_t)r; break;
        case CV_INT32: ((int32_t *)buf)[i] = (int32_t)r; break;
        case CV_INT64: ((int64_t *)buf)[i] = (int64_t)r; break;
        case CV_FLOAT16: {
            uint16_t h = (uint16_t)r;
            if ((h & 0x7c00u) == 0x7c00u) /* inf or NaN: make it finite */
                h &= 0xbfffu;
            ((uint16_t *)buf)[i] = h;
            break;
        }
        case CV_BFLOAT16: {
            uint16_t h = (uint16_t)r;
            if ((h & 0x7f80u) == 0x7f80u)
                h &= 0xbfffu;
            ((uint16_t *)buf)[i] = h;
            break;
        }
        case CV_FLOAT32:
            ((float *)buf)[i] = (float)((double)(int64_t)(r >> 11) / 65536.0 *
                                        ((r & 7) == 0 ? 1e25 : 1.0));
            break;
        default:
            ((double *)buf)[i] = (double)(int64_t)(r >> 11) / 65536.0 * ((r & 7) == 0 ? 1e290 : 1.0);
            break;
        }
    }
}

/* One transfer's element work, emulated and on the CPU, over the same
 * bytes: reduce (dst op= src) or reduce-copy (dst = own op src, own in a
 * separate allocation), divided by a divisor or not. */
static void check_one(cv_dtype dtype, cv_redop redop, cv_xfer_kind kind, bool divide, int64_t n,
                      int dst_off, int src_off, int max_blocks, uint64_t *rng)
{
    size_t esz = cv_dtype_size(dtype), bytes = (size_t)(n + 16) * esz; /* offsets < 16 */
    size_t alloc = (bytes + 63) / 64 * 64 + 64;
    unsigned char *src = aligned_alloc(64, alloc), *own = aligned_alloc(64, alloc),
                  *gpu = aligned_alloc(64, alloc), *cpu = aligned_alloc(64, alloc);
    fill(dtype, src, n + 16, rng);
    fill(dtype, own, n + 16, rng);
    fill(dtype, gpu, n + 16, rng);
    memcpy(cpu, gpu, bytes);
    void *d_gpu = gpu + (size_t)dst_off * esz, *d_cpu = cpu + (size_t)dst_off * esz;
    const void *s = src + (size_t)src_off * esz;
    /* the own operand sits at the source's offset: aligned or not with dst */
    const void *l = kind == CV_XFER_REDUCE_COPY ? own + (size_t)src_off * esz : NULL;
    int divisor = divide ? 1 + (int)(splitmix64(rng) % 16) : 0;

    cudaError_t e = cv_cuda__emulate(dtype, redop, kind, d_gpu, l, s, n, divisor, max_blocks);
    cv__combine(dtype, redop, d_cpu, l ? l : d_cpu, s, n);
    if (divisor)
        cv__divide(dtype, d_cpu, n, divisor);
    EXPECT(e == cudaSuccess, "%s %s kind %d: emulate returned %d", cv_dtype_name(dtype),
           cv_redop_name(redop), kind, (int)e);
    /* The whole allocation: elements outside [off, off+n) must be untouched. */
    EXPECT(memcmp(gpu, cpu, bytes) == 0,
           "%s %s %s%s n=%lld dst+%d src+%d blocks=%d differs from the CPU", cv_dtype_name(dtype),
           cv_redop_name(redop), kind == CV_XFER_REDUCE ? "reduce" : "reduce-copy",
           divisor ? " + divide" : "", (long long)n, dst_off, src_off, max_blocks);
    free(src);
    free(own);
    free(gpu);
    free(cpu);
}

int main(void)
{
    static const int64_t sizes[] = {0, 1, 2, 3, 7, 8, 15, 16, 17, 31, 33, 69, 1000, 4099, 10007};
    /* dst and src offsets: aligned, misaligned alike (head, vectors, tail),
     * misaligned differently (no vectors) */
    static const int offsets[][2] = {{0, 0}, {1, 1}, {0, 1}, {3, 0}, {2, 6}, {5, 5}, {7, 15}};
    static const int blocks[] = {1, 2, 1000};
    uint64_t rng = 12345;
    for (int d = 0; d < CV_DTYPE_COUNT; d++)
        for (int r = 0; r < CV_REDOP_COUNT; r++) {
            if (cv_redop_is_bitwise(r) && cv_dtype_is_float(d))
                continue;
            for (int k = CV_XFER_REDUCE; k <= CV_XFER_REDUCE_COPY; k++)
                for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
                    for (size_t oi = 0; oi < sizeof offsets / sizeof offsets[0]; oi++)
                        for (size_t bi = 0; bi < sizeof blocks / sizeof blocks[0]; bi++)
                            check_one(d, r, k, false, sizes[si], offsets[oi][0],
                                      offsets[oi][1], blocks[bi], &rng);
        }
    /* Integer avg's finish: the reduction, then the division, in one kernel;
     * floats are never divided (they were pre-multiplied). */
    for (int d = CV_INT8; d <= CV_INT64; d++)
        for (int k = CV_XFER_REDUCE; k <= CV_XFER_REDUCE_COPY; k++)
            for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
                for (size_t oi = 0; oi < sizeof offsets / sizeof offsets[0]; oi++)
                    check_one(d, CV_AVG, k, true, sizes[si], offsets[oi][0], offsets[oi][1], 2,
                              &rng);

    /* The body of a transfer whose pointers share their misalignment is
     * still moved 16 bytes at a time; only differently misaligned pointers
     * fall back to single elements. */
    static _Alignas(16) unsigned char buf[3][4096];
    for (int d = 0; d < CV_DTYPE_COUNT; d++) {
        int64_t esz = (int64_t)cv_dtype_size(d), v = 16 / esz, n = 1000;
        for (int off = 0; off < 4; off++) {
            const unsigned char *p0 = buf[0] + off * esz, *p1 = buf[1] + off * esz,
                                *p2 = buf[2] + off * esz;
            int64_t head = (v - off % v) % v, want = (n - head) / v * v;
            EXPECT(cv_cuda__vector_elements(d, p0, p1, p2, n) == want,
                   "%s at element offset %d: %lld of %lld elements vectorised, expected %lld",
                   cv_dtype_name(d), off, (long long)cv_cuda__vector_elements(d, p0, p1, p2, n),
                   (long long)n, (long long)want);
        }
        EXPECT(cv_cuda__vector_elements(d, buf[0], buf[1], buf[2], 2) == (v <= 2 ? 2 : 0),
               "%s: 2 aligned elements", cv_dtype_name(d));
        EXPECT(cv_cuda__vector_elements(d, buf[0] + esz, buf[1], buf[2], n) == 0,
               "%s: pointers misaligned differently cannot be vectorised", cv_dtype_name(d));
    }

    /* What has no kernel is refused without touching memory. */
    float a[4] = {1, 2, 3, 4}, b[4] = {1, 1, 1, 1};
    EXPECT(cv_cuda__emulate(CV_FLOAT32, CV_BXOR, CV_XFER_REDUCE, a, NULL, b, 4, 0, 1) ==
                   cudaErrorNotSupported && a[3] == 4.0f,
           "bxor on float32 was not refused");
    EXPECT(cv_cuda__emulate(CV_INT32, CV_SUM, CV_XFER_REDUCE, a, NULL, b, 4, -1, 1) ==
               cudaErrorNotSupported,
           "a negative divisor was not refused");
    EXPECT(cv_cuda__emulate(CV_FLOAT32, CV_AVG, CV_XFER_REDUCE, a, NULL, b, 4, 2, 1) ==
                   cudaErrorNotSupported && a[3] == 4.0f,
           "a float divide was not refused (the CPU backend never divides floats)");
    EXPECT(cv_cuda__emulate(CV_FLOAT32, CV_SUM, CV_XFER_REDUCE_COPY, a, NULL, b, 4, 0, 1) ==
                   cudaErrorNotSupported && a[3] == 4.0f,
           "a reduce-copy without its own operand was not refused");
    EXPECT(cv_cuda__emulate(CV_FLOAT32, CV_SUM, CV_XFER_COPY, a, NULL, b, 4, 0, 1) ==
                   cudaErrorNotSupported && a[3] == 4.0f,
           "a copy has no kernel (it is cudaMemcpyAsync)");
    printf("%d checks, %d failures (host emulation of the kernels; no GPU involved)\n", checks,
           failures);
    return failures ? 1 : 0;
}

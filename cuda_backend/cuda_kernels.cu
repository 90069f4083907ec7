/*
 * cuda_kernels.cu: the element kernels behind the CUDA backend's reduce and
 * reduce-copy transfers (copies are cudaMemcpyAsync and need no kernel):
 * dst = a op b, where a is dst itself (reduce) or the receiver's own
 * operand (reduce-copy, NCCL's recvReduceCopy), and, on the write that
 * finishes an integer avg, dst / N right after, as NCCL's postOp.
 *
 * The arithmetic is the CPU backend's (collectives/cv_values.c), so integer
 * results are identical and float results round the same way:
 *   - integers wrap: sum and prod are done in the unsigned twin type;
 *   - min and max are `b < a ? b : a` and `b > a ? b : a` on the stored type;
 *   - float16 and bfloat16 are uint16 bit patterns, widened to float,
 *     combined, and rounded back to nearest-even;
 *   - avg reduces as sum (floats were pre-multiplied by 1/N before `write`;
 *     integers divide where the plan marks the reduction finished,
 *     truncating as C does).
 * One template per (element type, redop) keeps the inner loop free of
 * branches. Each thread moves 16 bytes at a time when all pointers are
 * 16-byte aligned, which is what reaches the memory bandwidth on a large
 * transfer; the tail and misaligned transfers take the element-wise loop.
 */
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <stdint.h>

#include "cuda_internal.h"

/* ------------------------------------------------------- element types */

/* S: how the element is stored; C: the type arithmetic is done in; U: the
 * unsigned twin integers wrap in. load/store convert between S and C. */
struct elem_i8 {
    typedef int8_t S;
    typedef uint8_t U;
    static const bool is_int = true;
};
struct elem_i32 {
    typedef int32_t S;
    typedef uint32_t U;
    static const bool is_int = true;
};
struct elem_i64 {
    typedef int64_t S;
    typedef uint64_t U;
    static const bool is_int = true;
};
struct elem_f32 {
    typedef float S;
    typedef float C;
    static const bool is_int = false;
    static __host__ __device__ __forceinline__ C load(S s) { return s; }
    static __host__ __device__ __forceinline__ S store(C c) { return c; }
};
struct elem_f64 {
    typedef double S;
    typedef double C;
    static const bool is_int = false;
    static __host__ __device__ __forceinline__ C load(S s) { return s; }
    static __host__ __device__ __forceinline__ S store(C c) { return c; }
};
struct elem_f16 {
    typedef uint16_t S;
    typedef float C;
    static const bool is_int = false;
    static __host__ __device__ __forceinline__ C load(S s) { return __half2float(__ushort_as_half(s)); }
    static __host__ __device__ __forceinline__ S store(C c) { return __half_as_ushort(__float2half_rn(c)); }
};
struct elem_bf16 {
    typedef uint16_t S;
    typedef float C;
    static const bool is_int = false;
    static __host__ __device__ __forceinline__ C load(S s)
    {
        return __bfloat162float(__ushort_as_bfloat16(s));
    }
    static __host__ __device__ __forceinline__ S store(C c)
    {
        return __bfloat16_as_ushort(__float2bfloat16_rn(c));
    }
};

/* dst (op) src for one element; avg is a sum (see the top of the file). */
template <class E, int OP>
__host__ __device__ __forceinline__ typename E::S combine(typename E::S a, typename E::S b)
{
    typedef typename E::S S;
    if constexpr (E::is_int) {
        typedef typename E::U U;
        if constexpr (OP == CV_SUM || OP == CV_AVG)
            return (S)(U)((U)a + (U)b);
        else if constexpr (OP == CV_PROD)
            return (S)(U)((U)a * (U)b);
        else if constexpr (OP == CV_MIN)
            return b < a ? b : a;
        else if constexpr (OP == CV_MAX)
            return b > a ? b : a;
        else if constexpr (OP == CV_BAND)
            return (S)(a & b);
        else if constexpr (OP == CV_BOR)
            return (S)(a | b);
        else
            return (S)(a ^ b);
    } else {
        typename E::C x = E::load(a), y = E::load(b);
        if constexpr (OP == CV_PROD)
            return E::store(x * y);
        else if constexpr (OP == CV_MIN)
            return E::store(y < x ? y : x);
        else if constexpr (OP == CV_MAX)
            return E::store(y > x ? y : x);
        else
            return E::store(x + y);
    }
}

/* dst / divisor, truncating for integers as C's `/` does after promotion. */
template <class E>
__host__ __device__ __forceinline__ typename E::S divide(typename E::S a, int divisor)
{
    typedef typename E::S S;
    if constexpr (E::is_int) {
        if constexpr (sizeof(S) == 8)
            return (S)(a / (S)divisor);
        else
            return (S)((int)a / divisor);
    } else {
        return E::store(E::load(a) / (typename E::C)divisor);
    }
}

/* ------------------------------------------------------------- kernels */

/* The device compiler unrolls the per-vector loop; the host compiler, which
 * also sees this code for cv_cuda__emulate, does not know the pragma. */
#ifdef __CUDA_ARCH__
#define CV_UNROLL _Pragma("unroll")
#else
#define CV_UNROLL
#endif

/* 16 bytes seen as elements, so one load feeds 16 / sizeof(S) combines. */
template <typename S>
union vec16 {
    uint4 v;
    S e[16 / sizeof(S)];
};

/* One element: a op b, then the integer avg's division where asked. */
template <class E, int OP>
__host__ __device__ __forceinline__ typename E::S finish(typename E::S a, typename E::S b,
                                                         int divisor)
{
    typename E::S r = combine<E, OP>(a, b);
    if constexpr (E::is_int)
        if (divisor > 0)
            r = divide<E>(r, divisor);
    return r;
}

/* What thread `first` of `stride` threads does for dst[i] = a[i] op b[i]
 * (then / divisor when divisor > 0), i < n: the first nvec*V elements 16
 * bytes at a time (nvec is 0 when a pointer is misaligned), the rest one
 * element at a time, both grid-stride so any grid size is correct. a is dst
 * itself or a region apart from it. Host and device, so that
 * cv_cuda__emulate can run the very same code on a machine without a GPU. */
template <class E, int OP>
__host__ __device__ __forceinline__ void reduce_thread(typename E::S *dst, const typename E::S *a,
                                                       const typename E::S *__restrict__ b,
                                                       int64_t n, int64_t nvec, int divisor,
                                                       int64_t first, int64_t stride)
{
    typedef typename E::S S;
    const int V = 16 / sizeof(S);
    uint4 *d4 = reinterpret_cast<uint4 *>(dst);
    const uint4 *a4 = reinterpret_cast<const uint4 *>(a);
    const uint4 *b4 = reinterpret_cast<const uint4 *>(b);
    for (int64_t i = first; i < nvec; i += stride) {
        vec16<S> x, y;
        x.v = a4[i];
        y.v = b4[i];
        CV_UNROLL
        for (int k = 0; k < V; k++)
            x.e[k] = finish<E, OP>(x.e[k], y.e[k], divisor);
        d4[i] = x.v;
    }
    for (int64_t i = nvec * V + first; i < n; i += stride)
        dst[i] = finish<E, OP>(a[i], b[i], divisor);
}

template <class E, int OP>
__global__ void reduce_kernel(typename E::S *dst, const typename E::S *a,
                              const typename E::S *__restrict__ b, int64_t n, int64_t nvec,
                              int divisor)
{
    reduce_thread<E, OP>(dst, a, b, n, nvec, divisor,
                         (int64_t)blockIdx.x * blockDim.x + threadIdx.x,
                         (int64_t)gridDim.x * blockDim.x);
}

/* ------------------------------------------------------------ dispatch */

static const int threads_per_block = 256;

/* Blocks for `work` items of one thread each, capped at what the device
 * keeps resident: more would only queue behind the grid-stride loop. */
static unsigned grid_for(int64_t work, int max_blocks)
{
    int64_t blocks = (work + threads_per_block - 1) / threads_per_block;
    if (blocks > max_blocks)
        blocks = max_blocks;
    return blocks < 1 ? 1u : (unsigned)blocks;
}

/* Where the work runs: a kernel on a stream, or every thread of the same
 * grid one after another on the host (threads never share an element, so
 * any order gives the GPU's result). */
struct on_device {
    cudaStream_t stream;
    template <class E, int OP>
    cudaError_t reduce(unsigned grid, typename E::S *dst, const typename E::S *a,
                       const typename E::S *b, int64_t n, int64_t nvec, int divisor)
    {
        reduce_kernel<E, OP><<<grid, threads_per_block, 0, stream>>>(dst, a, b, n, nvec, divisor);
        return cudaGetLastError();
    }
};

struct on_host {
    template <class E, int OP>
    cudaError_t reduce(unsigned grid, typename E::S *dst, const typename E::S *a,
                       const typename E::S *b, int64_t n, int64_t nvec, int divisor)
    {
        int64_t stride = (int64_t)grid * threads_per_block;
        for (int64_t t = 0; t < stride; t++)
            reduce_thread<E, OP>(dst, a, b, n, nvec, divisor, t, stride);
        return cudaSuccess;
    }
};

template <class E, class Where>
static cudaError_t launch_elem(Where &where, cv_redop redop, void *dst_, const void *a_,
                               const void *b_, int64_t n, int divisor, int max_blocks)
{
    typedef typename E::S S;
    const int V = 16 / sizeof(S);
    S *dst = static_cast<S *>(dst_);
    const S *a = static_cast<const S *>(a_), *b = static_cast<const S *>(b_);
    bool aligned = (uintptr_t)dst % 16 == 0 && (uintptr_t)a % 16 == 0 && (uintptr_t)b % 16 == 0;
    int64_t nvec = aligned ? n / V : 0;
    unsigned grid = grid_for(nvec + (n - nvec * V), max_blocks);

    /* Plans finish integer avg with a division; float avg was pre-multiplied,
     * and the CPU backend divides no float, so refuse one rather than differ. */
    if constexpr (!E::is_int)
        if (divisor > 0)
            return cudaErrorNotSupported;
    switch (redop) {
    case CV_SUM:
    case CV_AVG: return where.template reduce<E, CV_SUM>(grid, dst, a, b, n, nvec, divisor);
    case CV_PROD: return where.template reduce<E, CV_PROD>(grid, dst, a, b, n, nvec, divisor);
    case CV_MIN: return where.template reduce<E, CV_MIN>(grid, dst, a, b, n, nvec, divisor);
    case CV_MAX: return where.template reduce<E, CV_MAX>(grid, dst, a, b, n, nvec, divisor);
    case CV_BAND:
    case CV_BOR:
    case CV_BXOR:
        if constexpr (E::is_int) {
            if (redop == CV_BAND)
                return where.template reduce<E, CV_BAND>(grid, dst, a, b, n, nvec, divisor);
            if (redop == CV_BOR)
                return where.template reduce<E, CV_BOR>(grid, dst, a, b, n, nvec, divisor);
            return where.template reduce<E, CV_BXOR>(grid, dst, a, b, n, nvec, divisor);
        } else {
            return cudaErrorNotSupported; /* bitwise ops have no float meaning */
        }
    default: return cudaErrorNotSupported;
    }
}

template <class Where>
static cudaError_t dispatch(Where &where, cv_dtype dtype, cv_redop redop, cv_xfer_kind kind,
                            void *dst, const void *local, const void *src, int64_t n, int divisor,
                            int max_blocks)
{
    if (n <= 0)
        return cudaSuccess;
    if ((kind != CV_XFER_REDUCE && kind != CV_XFER_REDUCE_COPY) || divisor < 0 ||
        (kind == CV_XFER_REDUCE_COPY && !local))
        return cudaErrorNotSupported;
    const void *a = kind == CV_XFER_REDUCE ? dst : local;
    switch (dtype) {
    case CV_INT8: return launch_elem<elem_i8>(where, redop, dst, a, src, n, divisor, max_blocks);
    case CV_INT32: return launch_elem<elem_i32>(where, redop, dst, a, src, n, divisor, max_blocks);
    case CV_INT64: return launch_elem<elem_i64>(where, redop, dst, a, src, n, divisor, max_blocks);
    case CV_FLOAT16: return launch_elem<elem_f16>(where, redop, dst, a, src, n, divisor, max_blocks);
    case CV_BFLOAT16: return launch_elem<elem_bf16>(where, redop, dst, a, src, n, divisor, max_blocks);
    case CV_FLOAT32: return launch_elem<elem_f32>(where, redop, dst, a, src, n, divisor, max_blocks);
    case CV_FLOAT64: return launch_elem<elem_f64>(where, redop, dst, a, src, n, divisor, max_blocks);
    default: return cudaErrorNotSupported;
    }
}

extern "C" cudaError_t cv_cuda__launch(cv_dtype dtype, cv_redop redop, cv_xfer_kind kind,
                                       void *dst, const void *local, const void *src, int64_t n,
                                       int divisor, int max_blocks, cudaStream_t stream)
{
    on_device where = {stream};
    return dispatch(where, dtype, redop, kind, dst, local, src, n, divisor, max_blocks);
}

extern "C" cudaError_t cv_cuda__kernels_ok(void)
{
    cudaFuncAttributes a;
    return cudaFuncGetAttributes(&a, reduce_kernel<elem_f32, CV_SUM>);
}

extern "C" cudaError_t cv_cuda__emulate(cv_dtype dtype, cv_redop redop, cv_xfer_kind kind,
                                        void *dst, const void *local, const void *src, int64_t n,
                                        int divisor, int max_blocks)
{
    on_host where;
    return dispatch(where, dtype, redop, kind, dst, local, src, n, divisor, max_blocks);
}

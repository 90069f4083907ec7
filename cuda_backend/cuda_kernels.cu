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
 * branches. Each thread moves 16 bytes at a time, which is what reaches the
 * memory bandwidth on a large transfer: a transfer whose pointers share
 * their misalignment (a chunk at an odd offset of every rank's buffer)
 * takes its first elements one at a time up to the 16-byte boundary, the
 * body in vectors and the last few elements one at a time. Grids hold what
 * the GPU keeps resident of that kernel (its occupancy), no more.
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
/* The bit casts go through __half_raw and __nv_bfloat16_raw, whose
 * conversions are host-and-device in every CUDA since 11.0; the
 * __ushort_as_half family is device-only before 12.2, and this code also
 * runs on the host (cv_cuda__emulate). */
struct elem_f16 {
    typedef uint16_t S;
    typedef float C;
    static const bool is_int = false;
    static __host__ __device__ __forceinline__ C load(S s)
    {
        __half_raw r;
        r.x = s;
        return __half2float(__half(r));
    }
    static __host__ __device__ __forceinline__ S store(C c)
    {
        return static_cast<__half_raw>(__float2half_rn(c)).x;
    }
};
struct elem_bf16 {
    typedef uint16_t S;
    typedef float C;
    static const bool is_int = false;
    static __host__ __device__ __forceinline__ C load(S s)
    {
        __nv_bfloat16_raw r;
        r.x = s;
        return __bfloat162float(__nv_bfloat16(r));
    }
    static __host__ __device__ __forceinline__ S store(C c)
    {
        return static_cast<__nv_bfloat16_raw>(__float2bfloat16_rn(c)).x;
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

/* How one transfer's n elements split: `head` elements one at a time until
 * every pointer sits on a 16-byte boundary, then `nvec` vectors of 16
 * bytes, then the rest one at a time. Where the pointers are misaligned
 * differently from each other no vector fits: head = nvec = 0. */
typedef struct {
    int64_t n, head, nvec;
} span;

template <typename S>
static span split(const S *dst, const S *a, const S *b, int64_t n)
{
    const int V = 16 / sizeof(S);
    span sp = {n, 0, 0};
    uintptr_t mis = (uintptr_t)dst % 16;
    if ((uintptr_t)a % 16 != mis || (uintptr_t)b % 16 != mis || mis % sizeof(S) != 0)
        return sp;
    sp.head = mis ? (int64_t)((16 - mis) / sizeof(S)) : 0;
    if (sp.head > n)
        sp.head = n;
    sp.nvec = (n - sp.head) / V;
    return sp;
}

/* What thread `first` of `stride` threads does for dst[i] = a[i] op b[i]
 * (then / divisor when divisor > 0), i < n: its share of the head, of the
 * 16-byte vectors and of the tail, each grid-stride so any grid size is
 * correct. a is dst itself or a region apart from it. Host and device, so
 * that cv_cuda__emulate can run the very same code on a machine without a
 * GPU. */
template <class E, int OP>
__host__ __device__ __forceinline__ void reduce_thread(typename E::S *dst, const typename E::S *a,
                                                       const typename E::S *__restrict__ b,
                                                       span sp, int divisor, int64_t first,
                                                       int64_t stride)
{
    typedef typename E::S S;
    const int V = 16 / sizeof(S);
    for (int64_t i = first; i < sp.head; i += stride)
        dst[i] = finish<E, OP>(a[i], b[i], divisor);
    uint4 *d4 = reinterpret_cast<uint4 *>(dst + sp.head);
    const uint4 *a4 = reinterpret_cast<const uint4 *>(a + sp.head);
    const uint4 *b4 = reinterpret_cast<const uint4 *>(b + sp.head);
    for (int64_t i = first; i < sp.nvec; i += stride) {
        vec16<S> x, y;
        x.v = a4[i];
        y.v = b4[i];
        CV_UNROLL
        for (int k = 0; k < V; k++)
            x.e[k] = finish<E, OP>(x.e[k], y.e[k], divisor);
        d4[i] = x.v;
    }
    for (int64_t i = sp.head + sp.nvec * V + first; i < sp.n; i += stride)
        dst[i] = finish<E, OP>(a[i], b[i], divisor);
}

template <class E, int OP>
__global__ void reduce_kernel(typename E::S *dst, const typename E::S *a,
                              const typename E::S *__restrict__ b, span sp, int divisor)
{
    reduce_thread<E, OP>(dst, a, b, sp, divisor, (int64_t)blockIdx.x * blockDim.x + threadIdx.x,
                         (int64_t)gridDim.x * blockDim.x);
}

/* ------------------------------------------------------------ dispatch */

static const int threads_per_block = 256;

/* Threads the split needs: one per vector, and one per element of the
 * longer of head and tail (all of it, where nothing is vectorised). */
template <typename S>
static int64_t threads_for(span sp)
{
    const int V = 16 / sizeof(S);
    int64_t tail = sp.n - sp.head - sp.nvec * V, most = sp.nvec;
    most = sp.head > most ? sp.head : most;
    return tail > most ? tail : most;
}

/* Blocks for `work` threads, capped at max_blocks: more would only queue
 * behind the grid-stride loop. */
static unsigned grid_for(int64_t work, int64_t max_blocks)
{
    int64_t blocks = (work + threads_per_block - 1) / threads_per_block;
    if (blocks > max_blocks)
        blocks = max_blocks;
    return blocks < 1 ? 1u : (unsigned)blocks;
}

/* Blocks of one kernel that a multiprocessor of the current GPU keeps
 * resident, asked once per kernel and GPU (kernels that need more
 * registers, such as int8 min/max or int64 divide, fit fewer than 8). The
 * backend calls from one thread at a time; a race would only ask twice. */
enum { OCC_DEVICES = 64 };
template <class E, int OP>
static int resident_per_sm(void)
{
    static int cache[OCC_DEVICES]; /* 0: not asked yet */
    int dev = 0, per_sm = 0;
    if (cudaGetDevice(&dev) != cudaSuccess)
        dev = -1;
    if (dev >= 0 && dev < OCC_DEVICES && cache[dev] > 0)
        return cache[dev];
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, reduce_kernel<E, OP>,
                                                      threads_per_block, 0) != cudaSuccess ||
        per_sm < 1) {
        cudaGetLastError(); /* the launch will say what is wrong */
        per_sm = 1;
    } else if (dev >= 0 && dev < OCC_DEVICES) {
        cache[dev] = per_sm;
    }
    return per_sm;
}

/* Where the work runs: a kernel on a stream, with a grid of at most the
 * blocks the GPU keeps resident (sms x what occupancy allows), or every
 * thread of a grid of at most max_blocks run one after another on the host
 * (threads never share an element, so any order gives the GPU's result). */
struct on_device {
    cudaStream_t stream;
    int sms;
    template <class E, int OP>
    cudaError_t reduce(typename E::S *dst, const typename E::S *a, const typename E::S *b,
                       span sp, int divisor)
    {
        int64_t cap = (int64_t)sms * resident_per_sm<E, OP>();
        unsigned grid = grid_for(threads_for<typename E::S>(sp), cap);
        reduce_kernel<E, OP><<<grid, threads_per_block, 0, stream>>>(dst, a, b, sp, divisor);
        return cudaGetLastError();
    }
};

struct on_host {
    int max_blocks;
    template <class E, int OP>
    cudaError_t reduce(typename E::S *dst, const typename E::S *a, const typename E::S *b,
                       span sp, int divisor)
    {
        unsigned grid = grid_for(threads_for<typename E::S>(sp), max_blocks);
        int64_t stride = (int64_t)grid * threads_per_block;
        for (int64_t t = 0; t < stride; t++)
            reduce_thread<E, OP>(dst, a, b, sp, divisor, t, stride);
        return cudaSuccess;
    }
};

template <class E, class Where>
static cudaError_t launch_elem(Where &where, cv_redop redop, void *dst_, const void *a_,
                               const void *b_, int64_t n, int divisor)
{
    typedef typename E::S S;
    S *dst = static_cast<S *>(dst_);
    const S *a = static_cast<const S *>(a_), *b = static_cast<const S *>(b_);
    span sp = split(dst, a, b, n);

    /* Plans finish integer avg with a division; float avg was pre-multiplied,
     * and the CPU backend divides no float, so refuse one rather than differ. */
    if constexpr (!E::is_int)
        if (divisor > 0)
            return cudaErrorNotSupported;
    switch (redop) {
    case CV_SUM:
    case CV_AVG: return where.template reduce<E, CV_SUM>(dst, a, b, sp, divisor);
    case CV_PROD: return where.template reduce<E, CV_PROD>(dst, a, b, sp, divisor);
    case CV_MIN: return where.template reduce<E, CV_MIN>(dst, a, b, sp, divisor);
    case CV_MAX: return where.template reduce<E, CV_MAX>(dst, a, b, sp, divisor);
    case CV_BAND:
    case CV_BOR:
    case CV_BXOR:
        if constexpr (E::is_int) {
            if (redop == CV_BAND)
                return where.template reduce<E, CV_BAND>(dst, a, b, sp, divisor);
            if (redop == CV_BOR)
                return where.template reduce<E, CV_BOR>(dst, a, b, sp, divisor);
            return where.template reduce<E, CV_BXOR>(dst, a, b, sp, divisor);
        } else {
            return cudaErrorNotSupported; /* bitwise ops have no float meaning */
        }
    default: return cudaErrorNotSupported;
    }
}

template <class Where>
static cudaError_t dispatch(Where &where, cv_dtype dtype, cv_redop redop, cv_xfer_kind kind,
                            void *dst, const void *local, const void *src, int64_t n, int divisor)
{
    if (n <= 0)
        return cudaSuccess;
    if ((kind != CV_XFER_REDUCE && kind != CV_XFER_REDUCE_COPY) || divisor < 0 ||
        (kind == CV_XFER_REDUCE_COPY && !local))
        return cudaErrorNotSupported;
    const void *a = kind == CV_XFER_REDUCE ? dst : local;
    switch (dtype) {
    case CV_INT8: return launch_elem<elem_i8>(where, redop, dst, a, src, n, divisor);
    case CV_INT32: return launch_elem<elem_i32>(where, redop, dst, a, src, n, divisor);
    case CV_INT64: return launch_elem<elem_i64>(where, redop, dst, a, src, n, divisor);
    case CV_FLOAT16: return launch_elem<elem_f16>(where, redop, dst, a, src, n, divisor);
    case CV_BFLOAT16: return launch_elem<elem_bf16>(where, redop, dst, a, src, n, divisor);
    case CV_FLOAT32: return launch_elem<elem_f32>(where, redop, dst, a, src, n, divisor);
    case CV_FLOAT64: return launch_elem<elem_f64>(where, redop, dst, a, src, n, divisor);
    default: return cudaErrorNotSupported;
    }
}

extern "C" cudaError_t cv_cuda__launch(cv_dtype dtype, cv_redop redop, cv_xfer_kind kind,
                                       void *dst, const void *local, const void *src, int64_t n,
                                       int divisor, int sms, cudaStream_t stream)
{
    on_device where = {stream, sms > 0 ? sms : 1};
    return dispatch(where, dtype, redop, kind, dst, local, src, n, divisor);
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
    on_host where = {max_blocks > 0 ? max_blocks : 1};
    return dispatch(where, dtype, redop, kind, dst, local, src, n, divisor);
}

template <typename S>
static int64_t vector_elements(const void *dst, const void *a, const void *b, int64_t n)
{
    span sp = split((const S *)dst, (const S *)a, (const S *)b, n);
    return sp.nvec * (int64_t)(16 / sizeof(S));
}

extern "C" int64_t cv_cuda__vector_elements(cv_dtype dtype, const void *dst, const void *a,
                                            const void *b, int64_t n)
{
    switch (cv_dtype_size(dtype)) {
    case 1: return vector_elements<uint8_t>(dst, a, b, n);
    case 2: return vector_elements<uint16_t>(dst, a, b, n);
    case 4: return vector_elements<uint32_t>(dst, a, b, n);
    case 8: return vector_elements<uint64_t>(dst, a, b, n);
    default: return 0;
    }
}

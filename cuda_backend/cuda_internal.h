/*
 * cuda_internal.h: declarations shared by the CUDA backend's files and not
 * part of its public interface (prefix cv_cuda__). C and CUDA both include
 * it: the element kernels are launched from the backend (.cu) and the
 * "no CUDA device" reason is written the same way by the backend and by the
 * NCCL runner (.c).
 */
#ifndef CV_CUDA_INTERNAL_H
#define CV_CUDA_INTERNAL_H

#include <cuda_runtime_api.h>
#include <stdio.h>

#include "cv_cuda.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Visible devices, or CV_EUNAVAIL with "no CUDA device: cudaGetDeviceCount
 * returned ..." (no driver, driver too old, CUDA_VISIBLE_DEVICES hiding
 * them) or "... found 0 devices". */
int cv_cuda__device_count(int *count, char *err, size_t errlen);
/* The backend table's memory bound (cv_backend.membw, .plan_bound):
 * device-to-device copy bandwidth, and the busiest GPU's bytes over it
 * (cuda_info.c). */
int cv_cuda__membw(int64_t bytes, int reps, cv_membw *bw, char *err, size_t errlen);
double cv_cuda__plan_bound(const cv_plan *plan, const cv_membw *bw, double *traffic);

/* Enqueues one transfer's element work on `stream` (on dst's device):
 * dst = dst redop src (CV_XFER_REDUCE; local unused) or dst = local redop
 * src (CV_XFER_REDUCE_COPY; local is the receiver's own operand, apart from
 * dst); avg reduces as sum. divisor > 0 divides the result (the write that
 * finishes an integer avg), 0 leaves it. 16-byte vector loads and stores
 * wherever the pointers share their misalignment (elements before the
 * first 16-byte boundary and after the last are done one at a time). The
 * grid is at most sms (the GPU's multiprocessors) times the blocks of that
 * kernel one multiprocessor keeps resident. Returns the launch status, or cudaErrorNotSupported,
 * without launching, for a combination with no kernel (a bitwise redop or
 * a divisor on a float dtype, an unknown dtype or kind, a negative
 * divisor). */
cudaError_t cv_cuda__launch(cv_dtype dtype, cv_redop redop, cv_xfer_kind kind, void *dst,
                            const void *local, const void *src, int64_t n, int divisor, int sms,
                            cudaStream_t stream);

/* cudaSuccess when the current device can run this build's kernels; an
 * error such as cudaErrorNoKernelImageForDevice when none was built for
 * its architecture (CMAKE_CUDA_ARCHITECTURES left it out). */
cudaError_t cv_cuda__kernels_ok(void);

/* The same work on host memory, without a GPU: every thread of the grid
 * cv_cuda__launch would use runs the kernels' own per-thread code, one
 * thread after another, with a grid of at most max_blocks. For tests on
 * machines without a device: it checks the kernels' arithmetic and index
 * ranges, not the GPU. */
cudaError_t cv_cuda__emulate(cv_dtype dtype, cv_redop redop, cv_xfer_kind kind, void *dst,
                             const void *local, const void *src, int64_t n, int divisor,
                             int max_blocks);

/* How many of n elements of dtype at dst, a and b the kernels move 16
 * bytes at a time (0 where the pointers' misalignments differ). */
int64_t cv_cuda__vector_elements(cv_dtype dtype, const void *dst, const void *a, const void *b,
                                 int64_t n);

#ifdef __cplusplus
}
#endif

/* For host C code: records the failing call and the runtime's own words in
 * err, sets `status` (CV_ENOMEM for an allocation failure, else
 * CV_EBACKEND), clears the sticky error and jumps to the function's `fail:`
 * cleanup. The caller has `err`, `errlen` and `status` in scope. */
#define CUDA_CHECK(call)                                                                   \
    do {                                                                                   \
        cudaError_t e_ = (call);                                                           \
        if (e_ != cudaSuccess) {                                                           \
            snprintf(err, errlen, "%s: %s (%s)", #call, cudaGetErrorName(e_),              \
                     cudaGetErrorString(e_));                                              \
            status = e_ == cudaErrorMemoryAllocation ? CV_ENOMEM : CV_EBACKEND;            \
            cudaGetLastError();                                                            \
            goto fail;                                                                     \
        }                                                                                  \
    } while (0)

#endif /* CV_CUDA_INTERNAL_H */

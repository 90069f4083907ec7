/*
 * cv_cuda.h: the CUDA backend's C interface (prefix cv_cuda_).
 *
 * cv_cuda_backend() fills the same cv_backend table as the CPU backend, so
 * every plan runs on GPUs unchanged. In a build without a CUDA toolkit the
 * table comes from cuda_stub.c and its probe answers CV_EUNAVAIL.
 */
#ifndef CV_CUDA_H
#define CV_CUDA_H

#include "cv.h"

#ifdef __cplusplus
extern "C" {
#endif

const cv_backend *cv_cuda_backend(void);

#ifdef __cplusplus
}
#endif

#endif /* CV_CUDA_H */

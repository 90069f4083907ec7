/*
 * backend_host.cpp: cuda_backend/cuda_backend.cu, which holds host code
 * only (its kernels are in cuda_kernels.cu), compiled as C++ against the
 * CUDA runtime test double beside this file, for test_cuda_mock.
 */
#include "../../cuda_backend/cuda_backend.cu"

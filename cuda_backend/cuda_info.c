/*
 * cuda_info.c: what the benchmark reports beside its table: the devices,
 * driver and runtime it ran on, and the device-to-device copy bandwidth
 * measured in the same run, against which the backend's step times are
 * judged (docs/CUDA.md, "the 85% target").
 *
 * Host code only, so it is C and goes through the project's C warnings.
 */
#include <cuda_runtime_api.h>

#include <stdio.h>
#include <string.h>

#include "cuda_internal.h"

int cv_cuda_devices(char *err, size_t errlen)
{
    int n, status = cv_cuda__device_count(&n, err, errlen);
    return status == CV_OK ? n : status;
}

/* "13.0" from 13000 */
static void version_text(int v, char *out, size_t outlen)
{
    snprintf(out, outlen, "%d.%d", v / 1000, (v % 1000) / 10);
}

int cv_cuda_describe(char *out, size_t outlen)
{
    int n, same = 1, driver = 0, runtime = 0;
    int status = cv_cuda__device_count(&n, out, outlen);
    if (status != CV_OK)
        return status;
    struct cudaDeviceProp first, p;
    char *err = out;
    size_t errlen = outlen;
    CUDA_CHECK(cudaGetDeviceProperties(&first, 0));
    for (int d = 1; d < n; d++) {
        CUDA_CHECK(cudaGetDeviceProperties(&p, d));
        same &= strcmp(p.name, first.name) == 0;
    }
    CUDA_CHECK(cudaDriverGetVersion(&driver));
    CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
    char dv[16], rv[16];
    version_text(driver, dv, sizeof dv);
    version_text(runtime, rv, sizeof rv);
    snprintf(out, outlen, "%d x %s%s (sm_%d%d, %.1f GiB), driver %s, runtime %s", n, first.name,
             same ? "" : " and others", first.major, first.minor,
             (double)first.totalGlobalMem / (1024.0 * 1024.0 * 1024.0), dv, rv);
fail:
    return status;
}

int cv_cuda_copy_bandwidth(int64_t bytes, int iterations, double *bytes_per_second, char *err,
                           size_t errlen)
{
    int n, status = cv_cuda__device_count(&n, err, errlen);
    void *a = NULL, *b = NULL;
    cudaStream_t stream = NULL;
    cudaEvent_t start = NULL, stop = NULL;
    float ms = 0.0f;
    *bytes_per_second = 0.0;
    if (status != CV_OK)
        return status;
    if (bytes < 1 || iterations < 1) {
        snprintf(err, errlen, "copy bandwidth: bytes and iterations must be positive");
        return CV_EINVAL;
    }
    CUDA_CHECK(cudaSetDevice(0));
    CUDA_CHECK(cudaMalloc(&a, (size_t)bytes));
    CUDA_CHECK(cudaMalloc(&b, (size_t)bytes));
    CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    /* Touch both buffers first so the timed copies find them mapped. */
    CUDA_CHECK(cudaMemsetAsync(a, 1, (size_t)bytes, stream));
    CUDA_CHECK(cudaMemcpyAsync(b, a, (size_t)bytes, cudaMemcpyDeviceToDevice, stream));
    CUDA_CHECK(cudaEventRecord(start, stream));
    for (int i = 0; i < iterations; i++)
        CUDA_CHECK(cudaMemcpyAsync(b, a, (size_t)bytes, cudaMemcpyDeviceToDevice, stream));
    CUDA_CHECK(cudaEventRecord(stop, stream));
    CUDA_CHECK(cudaEventSynchronize(stop));
    CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    if (ms > 0.0f)
        *bytes_per_second = 2.0 * (double)bytes * iterations / (ms / 1e3);
fail:
    if (stream)
        cudaStreamSynchronize(stream);
    cudaFree(a);
    cudaFree(b);
    if (start)
        cudaEventDestroy(start);
    if (stop)
        cudaEventDestroy(stop);
    if (stream)
        cudaStreamDestroy(stream);
    cudaGetLastError();
    return status;
}

/* The probe's copies are 1 GiB where the device has room for four times
 * that: on an H200 a 128 MiB copy reached 1% less than the 1 GiB copies of
 * a broadcast or send/recv row, which then read 101% of their bound. */
#define MEMBW_LARGE ((int64_t)1 << 30)

int cv_cuda__membw(int64_t bytes, int reps, cv_membw *bw, char *err, size_t errlen)
{
    double rate = 0;
    size_t avail = 0, total = 0;
    if (bytes < MEMBW_LARGE && cudaSetDevice(0) == cudaSuccess &&
        cudaMemGetInfo(&avail, &total) == cudaSuccess && (int64_t)avail >= 4 * MEMBW_LARGE)
        bytes = MEMBW_LARGE;
    cudaGetLastError();
    /* A copy is quick: twenty passes at the least let the clocks settle. */
    int status = cv_cuda_copy_bandwidth(bytes, reps < 20 ? 20 : reps, &rate, err, errlen);
    bw->copy = bw->reduce = status == CV_OK ? rate : 0;
    return status;
}

double cv_cuda__plan_bound(const cv_plan *plan, const cv_membw *bw, double *traffic)
{
    char err[CV_ERR_LEN];
    int devices = cv_cuda_devices(err, sizeof err);
    *traffic = cv_cuda_plan_traffic(plan, devices > 0 ? devices : 1);
    return bw->copy > 0 ? *traffic / bw->copy : 0;
}

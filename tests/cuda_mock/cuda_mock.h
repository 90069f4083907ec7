/*
 * cuda_mock.h: control of the CUDA runtime test double (cuda_mock.c), which
 * lets tests/test_cuda_mock.c run cuda_backend/cuda_backend.cu's host code
 * on a machine without a GPU. See cuda_runtime_api.h beside it for what
 * the double checks.
 */
#ifndef COLLVIZ_CUDA_MOCK_H
#define COLLVIZ_CUDA_MOCK_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    int ndev;                /* visible GPUs; 0: cudaGetDeviceCount finds none */
    bool peer;               /* every GPU can read every other GPU's memory */
    size_t mem_bytes;        /* memory of each GPU */
    unsigned long long seed; /* the order in which independent work runs */
    long fail_malloc_at;     /* the Nth cudaMalloc fails (1-based); 0: none */
    long fail_launch_at;     /* the Nth kernel launch is refused; 0: none */
    long fail_event_at;      /* the Nth event creation fails (out of memory); 0: none */
    bool no_kernels;         /* the build has no kernels for these GPUs' architecture */
    bool nccl_error;         /* NCCL reports an asynchronous error (a peer gone) */
    long nccl_version;       /* what ncclGetVersion answers; 0: the header's */
    long fault_at_kernel;    /* the Nth kernel to run faults its GPU (sticky); 0: none */
    long nccl_init_fail;     /* rank N-1 of a communicator of several processes fails its
                                init (the others wait for it, as NCCL's do); 0: none */
} mock_cuda_config;

typedef struct {
    long allocs, streams, events; /* alive now */
    long mallocs, launches, kernels, resets;
    char problem[512]; /* the first misuse seen ("" if none): stays until reset */
} mock_cuda_stats;

/* 1 GPU of 1 GiB, seed 1, no faults; then COLLVIZ_MOCK_CUDA where set, as
 * "ndev=2,peer=1,mem=4096,seed=3" (any of the fields, in any order), which
 * is how a whole program built on the double (collviz-mockgpu) is set up.
 * Without a mock_cuda_reset, the first API call configures it that way. */
void mock_cuda_config_init(mock_cuda_config *c);
/* Starts afresh with c: forgets (and frees) everything of the last run. */
void mock_cuda_reset(const mock_cuda_config *c);
void mock_cuda_get_stats(mock_cuda_stats *s);
/* The nth event created from now on fails (out of memory); 0: none. */
void mock_cuda_fail_event_in(long n);
/* For the NCCL double: whether it is to report an asynchronous error. */
bool mock_cuda_nccl_error(void);
long mock_cuda_nccl_version(void);
long mock_cuda_nccl_init_fail(void);

/* For the NCCL double (nccl_mock.c): whether [p, p + bytes) lies in a live
 * device allocation (and on which GPU), and recording a misuse. */
bool mock_cuda_device_range(const void *p, size_t bytes, int *dev);
void mock_cuda_problem(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif

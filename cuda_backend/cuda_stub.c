/*
 * cuda_stub.c: the CUDA backend and the NCCL runner in a build without a
 * CUDA toolkit. Everything answers CV_EUNAVAIL with a reason starting "no
 * CUDA device", so `--backend cuda` and `--backend nccl` exit 3 and
 * `--backend auto` falls back to the CPU.
 */
#include <stdio.h>
#include <string.h>

#include "cv_cuda.h"

static int stub_probe(char *err, size_t errlen)
{
    snprintf(err, errlen, "no CUDA device: this collviz was built without the CUDA toolkit "
                          "(configure with -DCOLLVIZ_CUDA=ON where nvcc is installed)");
    return CV_EUNAVAIL;
}

static int stub_open(const cv_plan *plan, void **state, char *err, size_t errlen)
{
    (void)plan;
    *state = NULL;
    return stub_probe(err, errlen);
}

static const cv_backend stub_backend = {
    .name = "cuda", .probe = stub_probe, .open = stub_open,
};

const cv_backend *cv_cuda_backend(void) { return &stub_backend; }

int cv_cuda_devices(char *err, size_t errlen) { return stub_probe(err, errlen); }

int cv_cuda_describe(char *out, size_t outlen) { return stub_probe(out, outlen); }

int cv_cuda_copy_bandwidth(int64_t bytes, int iterations, double *bytes_per_second, char *err,
                           size_t errlen)
{
    *bytes_per_second = 0.0;
    return stub_probe(err, errlen);
}

int cv_nccl_create(int ranks, cv_nccl **out, char *err, size_t errlen)
{
    *out = NULL;
    return stub_probe(err, errlen);
}

bool cv_nccl_have_mpi(void) { return false; }

bool cv_nccl_mpi_launched(void) { return false; } /* open then says there is no CUDA */

int cv_nccl_create_mpi(cv_nccl **out, char *err, size_t errlen)
{
    *out = NULL;
    return stub_probe(err, errlen);
}

int cv_nccl_ranks(const cv_nccl *nccl) { return 0; }

int cv_nccl_rank(const cv_nccl *nccl) { return 0; }

int cv_nccl_run(cv_nccl *nccl, const cv_spec *spec, int warmup, int iterations, cv_init init,
                uint64_t seed, bool verify, cv_nccl_result *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->wrong = -1;
    return stub_probe(err, errlen);
}

void cv_nccl_destroy(cv_nccl *nccl) { (void)nccl; }

int cv_nccl_bench(const cv_spec *spec, int warmup, int iterations, cv_init init, uint64_t seed,
                  cv_nccl_result *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->wrong = -1;
    return stub_probe(err, errlen);
}

/*
 * cuda_stub.c: the CUDA backend in a build without a CUDA toolkit. Its probe
 * and open answer CV_EUNAVAIL with a reason, so `--backend cuda` exits 3 and
 * `--backend auto` falls back to the CPU.
 */
#include <stdio.h>

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

/*
 * plan_traffic.c: the memory traffic a plan needs on the CUDA backend's
 * busiest GPU, the numerator of the benchmark's bandwidth bound.
 *
 * Kept apart from the CUDA code because it is plain arithmetic over the
 * plan: built with and without a toolkit, so a machine without a GPU can
 * still print the bound it would be measured against. The byte counts are
 * those the kernels must move at the least: a copy reads its source and
 * writes its destination, a reduce or reduce-copy reads both operands and
 * writes the destination (its own operand lies on the destination's GPU).
 * Within a step the GPUs work in parallel, so a step costs its busiest
 * GPU's bytes.
 */
#include <stdlib.h>

#include "cv_cuda.h"

double cv_cuda_plan_traffic(const cv_plan *plan, int devices)
{
    if (!plan || plan->spec.ranks < 1)
        return 0.0;
    if (devices < 1)
        devices = 1;
    if (devices > plan->spec.ranks)
        devices = plan->spec.ranks;
    double *bytes = calloc((size_t)devices, sizeof *bytes);
    if (!bytes)
        return 0.0;
    double esize = (double)cv_dtype_size(plan->spec.dtype), total = 0.0;
    for (int k = 0; k < plan->nsteps; k++) {
        const cv_step *st = &plan->steps[k];
        for (int d = 0; d < devices; d++)
            bytes[d] = 0.0;
        for (int64_t i = 0; i < st->count; i++) {
            const cv_transfer *t = &plan->transfers[st->first + i];
            double n = (double)t->count * esize;
            int sd = t->src % devices, dd = t->dst % devices;
            bytes[sd] += n;
            bytes[dd] += t->kind == CV_XFER_COPY ? n : 2 * n;
        }
        double busiest = 0.0;
        for (int d = 0; d < devices; d++)
            if (bytes[d] > busiest)
                busiest = bytes[d];
        total += busiest;
    }
    free(bytes);
    return total;
}

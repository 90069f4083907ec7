/*
 * test_cuda_nccl.c: the NCCL runner, one rank per GPU, checked with
 * cv_verify against the same inputs the plans get.
 *
 * One communicator over every visible GPU (at most 8) runs every op, every
 * dtype and every redop NCCL has, at counts {0, 1, N-1, N, 7N+3, 1M}; then
 * the refusals: bitwise redops, and more ranks than GPUs. With --mpi the
 * communicator is bootstrapped through MPI instead (run it under
 * `mpirun -np P`, one process per GPU) and only rank 0 prints.
 *
 * Without a CUDA device, or in a build without NCCL, it prints why and
 * exits 77 (skipped).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cv.h"
#include "cv_cuda.h"
#include "check.h"

static int me;

static void check_op(cv_nccl *nccl, cv_op op, int64_t count)
{
    int n = cv_nccl_ranks(nccl);
    for (int d = 0; d < CV_DTYPE_COUNT; d++)
        for (int r = 0; r <= CV_AVG; r++) {
            if (!cv_op_reduces(op) && r != CV_SUM)
                continue;
            char err[CV_ERR_LEN] = "";
            cv_spec s;
            cv_spec_init(&s);
            s.op = op;
            s.ranks = n;
            s.count = count;
            s.dtype = d;
            s.redop = r;
            s.root = cv_op_has_root(op) ? n - 1 : 0;
            cv_algo algos[CV_ALGO_COUNT];
            cv_op_algos(op, algos);
            s.algo = algos[0]; /* NCCL picks its own; the spec only needs to be valid */
            cv_nccl_result res;
            int rc = cv_nccl_run(nccl, &s, 1, 2, CV_INIT_RANDOM, 7, true, &res, err, sizeof err);
            EXPECT(rc == CV_OK, "%s %s %s count %lld: %s", cv_op_name(op), cv_dtype_name(d),
                   cv_redop_name(r), (long long)count, err);
            if (rc == CV_OK)
                EXPECT(res.wrong == 0 && res.seconds >= 0.0 && res.ranks == n,
                       "%s %s %s count %lld: %lld wrong", cv_op_name(op), cv_dtype_name(d),
                       cv_redop_name(r), (long long)count, (long long)res.wrong);
        }
}

static void check_refusals(cv_nccl *nccl, bool mpi)
{
    char err[CV_ERR_LEN] = "";
    cv_spec s;
    cv_spec_init(&s);
    s.ranks = cv_nccl_ranks(nccl);
    s.dtype = CV_INT32;
    s.redop = CV_BXOR;
    cv_nccl_result res;
    int rc = cv_nccl_run(nccl, &s, 0, 1, CV_INIT_RANDOM, 1, true, &res, err, sizeof err);
    EXPECT(rc == CV_EINVAL, "bxor through NCCL returned %d", rc);
    s.redop = CV_SUM;
    s.ranks = cv_nccl_ranks(nccl) + 1;
    rc = cv_nccl_run(nccl, &s, 0, 1, CV_INIT_RANDOM, 1, true, &res, err, sizeof err);
    EXPECT(rc == CV_EINVAL, "a spec with more ranks than the communicator ran (%d)", rc);
    if (!mpi) {
        cv_nccl *more = NULL;
        rc = cv_nccl_create(cv_nccl_ranks(nccl) + 1, &more, err, sizeof err);
        EXPECT(rc == CV_EUNAVAIL && more == NULL, "more ranks than GPUs opened (%d)", rc);
        cv_nccl_destroy(more);
    }
}

/* The communicator the cases run on, opened once before them. */
static cv_nccl *comm;
static bool over_mpi;

/* One op at counts {0, 1, N-1, N, 7N+3, big}. On the runtime double
 * (test_cuda_nccl_mock) every byte moves on the CPU, under the sanitizers
 * in CI: a smaller large count there. */
static void one_op(int op)
{
    int n = cv_nccl_ranks(comm);
    int64_t big = getenv("COLLVIZ_MOCK_CUDA") ? (int64_t)1 << 14 : (int64_t)1 << 20;
    int64_t counts[] = {0, 1, n - 1, n, 7 * (int64_t)n + 3, big};
    for (int c = 0; c < 6; c++)
        check_op(comm, (cv_op)op, counts[c]);
}

static int op_name(int i, char *name, size_t len)
{
    if (i >= CV_OP_COUNT)
        return 0;
    snprintf(name, len, "%s", cv_op_name((cv_op)i));
    return 1;
}

static void refusals(void) { check_refusals(comm, over_mpi); }

static const test_case cases[] = {
    CASE_EACH("", op_name, one_op),
    CASE("refusals", refusals),
};

int main(int argc, char **argv)
{
    over_mpi = cases_flag(&argc, argv, "--mpi");
    cases_args(argc, argv, cases, CASES_COUNT(cases));
    char err[CV_ERR_LEN] = "", device[256] = "";
    int gpus = cv_cuda_devices(err, sizeof err);
    if (gpus < 1) {
        printf("SKIPPED: NCCL cannot run here: %s\n", err);
        return 77;
    }
    int rc = over_mpi ? cv_nccl_create_mpi(&comm, err, sizeof err)
                 : cv_nccl_create(gpus < 8 ? gpus : 8, &comm, err, sizeof err);
    if (rc == CV_EUNAVAIL) {
        printf("SKIPPED: NCCL cannot run here: %s\n", err);
        return 77;
    }
    if (rc != CV_OK) {
        printf("FAIL: opening NCCL: %s\n", err);
        return 1;
    }
    me = cv_nccl_rank(comm);
    cv_cuda_describe(device, sizeof device);
    if (me == 0)
        printf("device: %s; NCCL communicator of %d rank%s%s\n", device, cv_nccl_ranks(comm),
               cv_nccl_ranks(comm) == 1 ? " (one GPU: NCCL runs one rank)" : "s",
               over_mpi ? " over MPI" : "");
    cases_quiet(me != 0); /* every rank runs the cases; rank 0 reports */
    cases_run();
    cv_nccl_destroy(comm);
    return cases_end();
}

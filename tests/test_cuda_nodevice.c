/*
 * test_cuda_nodevice.c: the CUDA backend and the NCCL runner on a machine
 * without a usable GPU, which is every CI machine and any laptop.
 *
 * The test hides every device (CUDA_VISIBLE_DEVICES=-1, set before the
 * first CUDA call) so it checks the same path with or without a GPU, in a
 * build with the toolkit and in one with the stub: the probe, open, cv_run,
 * the device queries and the NCCL entry points all answer CV_EUNAVAIL with a
 * reason starting "no CUDA device", and nothing crashes or hangs. It also
 * checks cv_cuda_plan_traffic, plain arithmetic, on a plan built by hand.
 * With --mpi (under mpiexec) it checks the MPI bootstrap's failure path.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cv.h"
#include "cv_cuda.h"
#include "check.h"

static const char no_device[] = "no CUDA device";

static bool says_no_device(const char *err)
{
    return strncmp(err, no_device, sizeof no_device - 1) == 0;
}

static void check_backend(void)
{
    const cv_backend *be = cv_cuda_backend();
    char err[CV_ERR_LEN] = "";
    EXPECT(be && strcmp(be->name, "cuda") == 0, "backend is named cuda");

    int rc = be->probe(err, sizeof err);
    EXPECT(rc == CV_EUNAVAIL, "probe returned %d (%s), want CV_EUNAVAIL", rc, err);
    EXPECT(says_no_device(err), "probe says \"%s\", want it to start \"%s\"", err, no_device);
    printf("probe: %s\n", err);

    cv_spec spec;
    cv_spec_init(&spec);
    spec.ranks = 8;
    spec.count = 1024;
    cv_plan *plan = NULL;
    rc = cv_plan_create(&spec, &plan, err, sizeof err);
    EXPECT(rc == CV_OK, "plan: %s", err);
    if (rc)
        return;

    void *state = (void *)&rc; /* must come back NULL */
    err[0] = 0;
    rc = be->open(plan, &state, err, sizeof err);
    EXPECT(rc == CV_EUNAVAIL && state == NULL, "open returned %d, state %p", rc, state);
    EXPECT(says_no_device(err), "open says \"%s\"", err);
    if (be->close)
        be->close(NULL);

    cv_run_opts opts;
    cv_run_opts_init(&opts);
    cv_trace *trace = NULL;
    err[0] = 0;
    rc = cv_run(plan, be, &opts, &trace, err, sizeof err);
    EXPECT(rc == CV_EUNAVAIL && trace == NULL, "cv_run returned %d", rc);
    EXPECT(says_no_device(err), "cv_run says \"%s\"", err);
    cv_trace_destroy(trace);
    cv_plan_destroy(plan);
}

static void check_queries(void)
{
    char err[CV_ERR_LEN] = "";
    int rc = cv_cuda_devices(err, sizeof err);
    EXPECT(rc == CV_EUNAVAIL && says_no_device(err), "cv_cuda_devices: %d (%s)", rc, err);

    err[0] = 0;
    rc = cv_cuda_describe(err, sizeof err);
    EXPECT(rc == CV_EUNAVAIL && says_no_device(err), "cv_cuda_describe: %d (%s)", rc, err);

    double bw = -1.0;
    err[0] = 0;
    rc = cv_cuda_copy_bandwidth(1 << 20, 3, &bw, err, sizeof err);
    EXPECT(rc == CV_EUNAVAIL && bw == 0.0 && says_no_device(err), "copy bandwidth: %d (%s)", rc,
           err);
}

static void check_nccl(void)
{
    char err[CV_ERR_LEN] = "";
    cv_spec spec;
    cv_spec_init(&spec);
    spec.ranks = 2;
    cv_nccl_result res;
    int rc = cv_nccl_bench(&spec, 1, 2, CV_INIT_RANDOM, 1, &res, err, sizeof err);
    EXPECT(rc == CV_EUNAVAIL && says_no_device(err), "cv_nccl_bench: %d (%s)", rc, err);
    EXPECT(res.wrong == -1 || res.wrong == 0, "nothing verified, yet wrong = %lld",
           (long long)res.wrong);

    cv_nccl *nccl = (cv_nccl *)&rc;
    err[0] = 0;
    rc = cv_nccl_create(0, &nccl, err, sizeof err);
    EXPECT(rc == CV_EUNAVAIL && nccl == NULL && says_no_device(err), "cv_nccl_create: %d (%s)", rc,
           err);
    EXPECT(cv_nccl_ranks(NULL) == 0 && cv_nccl_rank(NULL) == 0, "ranks of no communicator");
    cv_nccl_destroy(NULL);
    printf("nccl: %s (MPI bootstrap %s)\n", err, cv_nccl_have_mpi() ? "built" : "not built");
}

/* Two steps over four float32 ranks: the traffic of each step is its
 * busiest GPU's, with ranks placed round-robin. */
static void check_traffic(void)
{
    cv_transfer xfers[] = {
        /* step 0: copy 0 -> 1 (10 elements), reduce 2 -> 3 (10 elements) */
        {.src = 0, .dst = 1, .src_buf = CV_BUF_SEND, .dst_buf = CV_BUF_RECV, .kind = CV_XFER_COPY,
         .count = 10},
        {.src = 2, .dst = 3, .src_buf = CV_BUF_SEND, .dst_buf = CV_BUF_RECV,
         .kind = CV_XFER_REDUCE, .count = 10},
        /* step 1: reduce-copy 1 -> 0 (5 elements), 0's own operand in its SEND */
        {.src = 1, .dst = 0, .src_buf = CV_BUF_RECV, .dst_buf = CV_BUF_RECV,
         .kind = CV_XFER_REDUCE_COPY, .local_buf = CV_BUF_SEND, .count = 5},
    };
    cv_step steps[] = {{.first = 0, .count = 2, .phase = "a"}, {.first = 2, .count = 1, .phase = "b"}};
    cv_plan plan;
    memset(&plan, 0, sizeof plan);
    cv_spec_init(&plan.spec);
    plan.spec.ranks = 4;
    plan.spec.dtype = CV_FLOAT32;
    plan.nsteps = 2;
    plan.steps = steps;
    plan.ntransfers = 3;
    plan.transfers = xfers;
    /* one GPU: 2*40 + 3*40 = 200, then 3*20 = 60 */
    double one = cv_cuda_plan_traffic(&plan, 1);
    EXPECT(one == 260.0, "traffic on one GPU: %.0f, want 260", one);
    /* two GPUs: ranks 0,2 on GPU 0 (reads 40 + 40), ranks 1,3 on GPU 1
     * (writes 40, reads and writes 80): 120; then GPU 0 reads its own 20
     * and writes 20 while GPU 1 is read 20: 40 */
    double two = cv_cuda_plan_traffic(&plan, 2);
    EXPECT(two == 160.0, "traffic on two GPUs: %.0f, want 160", two);
    /* more GPUs than ranks counts as one GPU per rank */
    double many = cv_cuda_plan_traffic(&plan, 16);
    double four = cv_cuda_plan_traffic(&plan, 4);
    EXPECT(many == four, "16 GPUs (%.0f) should be as 4 (%.0f)", many, four);
    EXPECT(cv_cuda_plan_traffic(NULL, 1) == 0.0, "no plan, no traffic");
}

/* Under mpiexec: every process finds no device, all of them learn it,
 * none hangs, and MPI is finalised (the launcher fails otherwise). */
static void check_mpi(void)
{
    char err[CV_ERR_LEN] = "";
    cv_nccl *nccl = (cv_nccl *)&checks;
    int rc = cv_nccl_create_mpi(&nccl, err, sizeof err);
    EXPECT(rc == CV_EUNAVAIL && nccl == NULL, "cv_nccl_create_mpi: %d (%s)", rc, err);
    EXPECT(says_no_device(err) || !cv_nccl_have_mpi(), "cv_nccl_create_mpi says \"%s\"", err);
    printf("mpi: %s\n", err);
}

static const test_case cases[] = {
    CASE("backend", check_backend),
    CASE("queries", check_queries),
    CASE("nccl", check_nccl),
    CASE("traffic", check_traffic),
};

int main(int argc, char **argv)
{
    /* Before any CUDA call: the runtime reads it once, when it starts. */
    setenv("CUDA_VISIBLE_DEVICES", "-1", 1);
    /* --mpi: the bootstrap under a launcher, every process one run of
     * check_mpi (test_cuda_nodevice_mpi), outside the table. */
    if (argc > 1 && strcmp(argv[1], "--mpi") == 0) {
        check_mpi();
        printf("%d checks, %d failures\n", checks, failures);
        return failures ? 1 : 0;
    }
    return CASES_MAIN(argc, argv, cases);
}

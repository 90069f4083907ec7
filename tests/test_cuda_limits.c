/*
 * test_cuda_limits.c: the CUDA backend at its edges, on a machine with a
 * GPU: buffers larger than device memory (one rank too big, or too many
 * ranks) fail with CV_ENOMEM and give every byte back; 1024 ranks share the
 * GPUs and still compute the right result; out-of-range reads and writes
 * and a reduction with no kernel are refused without harming the state;
 * opening and closing repeatedly leaks nothing. It also prints the
 * device-to-device copy bandwidth and the 85% target's bound for ring
 * allreduce, 8 ranks, 256 MiB float32 (information, not a timed test).
 *
 * Without a CUDA device it prints why and exits 77 (skipped). The same
 * source also builds as test_cuda_limits_mock, on the CUDA runtime test
 * double of tests/cuda_mock/, so it runs (with made-up timings) everywhere.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cv.h"
#include "cv_cuda.h"

#ifdef COLLVIZ_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

#ifdef COLLVIZ_HAVE_CUDA

static size_t free_bytes(size_t *total)
{
    size_t avail = 0, all = 0;
    cudaSetDevice(0);
    cudaDeviceSynchronize();
    cudaMemGetInfo(&avail, &all);
    if (total)
        *total = all;
    return avail;
}

/* Device memory given back within this slack counts as all of it (the
 * runtime keeps small pools of its own). */
static const size_t slack = (size_t)64 << 20;

/* Buffers beyond the device's memory: the device decides in the backend's
 * open, which must refuse with CV_ENOMEM, name the cause and give every
 * byte back. cv_run as a whole refuses too, whichever check speaks first:
 * its host-memory check (inputs and read-back results on the host can
 * exceed the host's memory before the device is asked) or the device's. */
static void check_too_big(const char *what, cv_op op, int ranks, int64_t count)
{
    char err[CV_ERR_LEN] = "";
    cv_spec s;
    cv_spec_init(&s);
    s.op = op;
    s.ranks = ranks;
    s.count = count;
    s.dtype = CV_FLOAT32;
    cv_plan *p = NULL;
    if (cv_plan_create(&s, &p, err, sizeof err) != CV_OK) {
        EXPECT(0, "%s: plan: %s", what, err);
        return;
    }
    const cv_backend *be = cv_cuda_backend();
    size_t before = free_bytes(NULL);
    void *st = NULL;
    int rc = be->open(p, &st, err, sizeof err);
    size_t after = free_bytes(NULL);
    EXPECT(rc == CV_ENOMEM, "%s: open returned %d, want CV_ENOMEM", what, rc);
    if (rc == CV_OK)
        be->close(st);
    EXPECT(strstr(err, "out of device memory") != NULL, "%s: message \"%s\"", what, err);
    EXPECT(after + slack >= before, "%s: %zu MiB free before, %zu MiB after", what, before >> 20,
           after >> 20);
    printf("%s: open: %s\n", what, err);

    err[0] = '\0';
    cv_run_opts o;
    cv_run_opts_init(&o);
    cv_trace *t = NULL;
    rc = cv_run(p, be, &o, &t, err, sizeof err);
    EXPECT(rc == CV_ENOMEM && t == NULL, "%s: cv_run returned %d, want CV_ENOMEM", what, rc);
    EXPECT(strstr(err, "out of device memory") != NULL || strstr(err, "would need") != NULL,
           "%s: cv_run's message \"%s\"", what, err);
    printf("%s: run: %s\n", what, err);
    cv_trace_destroy(t);
    cv_plan_destroy(p);
}

static void check_many_ranks(cv_op op, int ranks, int64_t count, cv_dtype dtype)
{
    char err[CV_ERR_LEN] = "";
    cv_spec s;
    cv_spec_init(&s);
    s.op = op;
    cv_algo algos[CV_ALGO_COUNT];
    cv_op_algos(op, algos); /* the op's default: not every op has a ring */
    s.algo = algos[0];
    s.ranks = ranks;
    s.count = count;
    s.dtype = dtype;
    cv_plan *p = NULL;
    if (cv_plan_create(&s, &p, err, sizeof err) != CV_OK) {
        EXPECT(0, "%s %d ranks: plan: %s", cv_op_name(op), ranks, err);
        return;
    }
    cv_run_opts o;
    cv_run_opts_init(&o);
    o.init = CV_INIT_RANDOM;
    cv_trace *t = NULL;
    int rc = cv_run(p, cv_cuda_backend(), &o, &t, err, sizeof err);
    EXPECT(rc == CV_OK, "%s %d ranks: %s", cv_op_name(op), ranks, err);
    if (rc == CV_OK)
        EXPECT(cv_trace_wrong(t) == 0, "%s %d ranks: %lld wrong", cv_op_name(op), ranks,
               (long long)cv_trace_wrong(t));
    cv_trace_destroy(t);
    cv_plan_destroy(p);
}

/* Direct calls into the table: refusals leave the state usable. */
static void check_refusals(void)
{
    char err[CV_ERR_LEN] = "";
    const cv_backend *be = cv_cuda_backend();
    cv_spec s;
    cv_spec_init(&s);
    s.ranks = 2;
    s.count = 16;
    cv_plan *p = NULL;
    cv_plan_create(&s, &p, err, sizeof err);
    void *st = NULL;
    int rc = be->open(p, &st, err, sizeof err);
    EXPECT(rc == CV_OK, "open: %s", err);
    if (rc) {
        cv_plan_destroy(p);
        return;
    }
    float buf[32] = {0};
    EXPECT(be->write(st, 0, CV_BUF_SEND, 10, 10, buf, err, sizeof err) == CV_EINVAL,
           "write past the end accepted");
    EXPECT(be->write(st, 2, CV_BUF_SEND, 0, 1, buf, err, sizeof err) == CV_EINVAL,
           "write to rank 2 of 2 accepted");
    EXPECT(be->read(st, 0, CV_BUF_RECV, -1, 2, buf, err, sizeof err) == CV_EINVAL,
           "read at -1 accepted");
    double sec;
    EXPECT(be->run_step(st, p->nsteps, &sec, err, sizeof err) == CV_EINVAL, "step past the end");
    for (int i = 0; i < 16; i++)
        buf[i] = (float)i;
    for (int r = 0; r < 2; r++)
        EXPECT(be->write(st, r, CV_BUF_SEND, 0, 16, buf, err, sizeof err) == CV_OK, "write: %s", err);
    for (int k = 0; k < p->nsteps; k++)
        EXPECT(be->run_step(st, k, &sec, err, sizeof err) == CV_OK, "step %d: %s", k, err);
    EXPECT(be->read(st, 1, CV_BUF_RECV, 0, 16, buf + 16, err, sizeof err) == CV_OK, "read: %s", err);
    EXPECT(buf[16 + 5] == 10.0f, "allreduce of i over 2 ranks: element 5 is %g", buf[16 + 5]);
    be->close(st);

    /* A bitwise reduction on floats has no kernel: a plan built by hand,
     * since cv_plan_create rejects the spec. */
    cv_transfer x = {.src = 0, .dst = 1, .src_buf = CV_BUF_SEND, .dst_buf = CV_BUF_RECV,
                     .kind = CV_XFER_REDUCE, .count = 4};
    cv_step step = {.first = 0, .count = 1, .phase = "bad"};
    cv_plan bad = *p;
    bad.spec.redop = CV_BAND;
    bad.steps = &step;
    bad.nsteps = 1;
    bad.transfers = &x;
    bad.ntransfers = 1;
    st = NULL;
    rc = be->open(&bad, &st, err, sizeof err);
    EXPECT(rc == CV_OK, "open: %s", err);
    if (rc == CV_OK) {
        rc = be->run_step(st, 0, &sec, err, sizeof err);
        EXPECT(rc == CV_EINVAL, "band on float32 ran (%d)", rc);
        EXPECT(be->read(st, 1, CV_BUF_RECV, 0, 4, buf, err, sizeof err) == CV_OK,
               "state unusable after a refusal: %s", err);
        be->close(st);
    }
    cv_plan_destroy(p);
}

static void check_no_leak(void)
{
    char err[CV_ERR_LEN] = "";
    cv_spec s;
    cv_spec_init(&s);
    s.ranks = 8;
    /* Smaller on the runtime double, which zeroes every buffer on the CPU. */
    s.count = getenv("COLLVIZ_MOCK_CUDA") ? (int64_t)1 << 16 : (int64_t)1 << 22;
    cv_plan *p = NULL;
    cv_plan_create(&s, &p, err, sizeof err);
    size_t before = free_bytes(NULL);
    for (int i = 0; i < 50; i++) {
        void *st = NULL;
        int rc = cv_cuda_backend()->open(p, &st, err, sizeof err);
        EXPECT(rc == CV_OK, "open %d: %s", i, err);
        cv_cuda_backend()->close(st);
    }
    size_t after = free_bytes(NULL);
    EXPECT(after + slack >= before, "50 opens: %zu MiB free before, %zu MiB after", before >> 20,
           after >> 20);
    cv_plan_destroy(p);
}

static void print_bound(void)
{
    char err[CV_ERR_LEN] = "";
    double bw = 0.0;
    int rc = cv_cuda_copy_bandwidth((int64_t)256 << 20, 10, &bw, err, sizeof err);
    EXPECT(rc == CV_OK && bw > 0.0, "copy bandwidth: %s", err);
    cv_spec s;
    cv_spec_init(&s);
    s.ranks = 8;
    s.count = ((int64_t)256 << 20) / 4;
    cv_plan *p = NULL;
    cv_plan_create(&s, &p, err, sizeof err);
    double traffic = cv_cuda_plan_traffic(p, 1);
    printf("device-to-device copy: %.1f GB/s of traffic; ring allreduce 8 ranks 256 MiB float32 "
           "moves %.2f GB on one GPU: bound %.3f ms\n",
           bw / 1e9, traffic / 1e9, bw > 0 ? traffic / bw * 1e3 : 0.0);
    cv_plan_destroy(p);
}

/* The device's size, read once before the cases. */
static int gpus;
static size_t total;

/* One rank whose buffers alone exceed a GPU's memory ... */
static void one_rank_too_big(void)
{
    check_too_big("one rank too big", CV_OP_ALLREDUCE, 1, (int64_t)(total / 4) + 1);
}

/* ... and ranks that each fit but together do not. */
static void too_many_ranks(void)
{
    check_too_big("too many ranks", CV_OP_ALLREDUCE, 64 * gpus,
                  (int64_t)(total / 4 / 64 + (1 << 20)));
}

/* Checking 1024 ranks against the reference costs ranks^2 x count: the
 * runtime double (which runs under the sanitizers in CI) takes a count
 * that still gives some ranks one element and others none. */
static void allreduce_1024(void)
{
    check_many_ranks(CV_OP_ALLREDUCE, 1024, getenv("COLLVIZ_MOCK_CUDA") ? 1027 / 2 : 1027, CV_INT32);
}
static void alltoall_64(void) { check_many_ranks(CV_OP_ALLTOALL, 64, 3, CV_FLOAT16); }
static void reducescatter_100(void) { check_many_ranks(CV_OP_REDUCESCATTER, 100, 1000, CV_BFLOAT16); }

static const test_case cases[] = {
    CASE("too-big/one-rank", one_rank_too_big),
    CASE("too-big/many-ranks", too_many_ranks),
    CASE("many-ranks/allreduce-1024", allreduce_1024),
    CASE("many-ranks/alltoall-64", alltoall_64),
    CASE("many-ranks/reducescatter-100", reducescatter_100),
    CASE("refusals", check_refusals),
    CASE("no-leak", check_no_leak),
    CASE("bound", print_bound),
};

int main(int argc, char **argv)
{
    cases_args(argc, argv, cases, CASES_COUNT(cases));
    char err[CV_ERR_LEN] = "", device[256] = "";
    if (cv_cuda_backend()->probe(err, sizeof err) != CV_OK) {
        printf("SKIPPED: the CUDA backend cannot run here: %s\n", err);
        return 77;
    }
    cv_cuda_describe(device, sizeof device);
    printf("device: %s\n", device);
    gpus = cv_cuda_devices(err, sizeof err);
    free_bytes(&total);
    cases_run();
    return cases_end();
}

#else

/* Without the toolkit: one case, skipped, so the build still lists one. */
static void no_toolkit(void)
{
    cases_skip("SKIPPED: this collviz was built without the CUDA toolkit");
}

static const test_case cases[] = {
    CASE("built-without-cuda", no_toolkit),
};

int main(int argc, char **argv) { return CASES_MAIN(argc, argv, cases); }

#endif

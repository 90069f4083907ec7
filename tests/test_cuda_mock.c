/*
 * test_cuda_mock.c: the CUDA backend's host code (cuda_backend/cuda_backend.cu,
 * compiled as C++) on the CUDA runtime test double of tests/cuda_mock/, so
 * its orchestration is checked on every machine, GPU or not.
 *
 * The double runs queued work only when the host waits, in a random order
 * bounded by the streams and event waits the backend declared; so these
 * runs check that the backend declares every order it relies on: the fork
 * and join of each step in run_step (visual) and the event chain of
 * run_all (bench), on 1 GPU, on 2 GPUs with peer access and on 3 without
 * (staged copies and reduces), each under several schedules. Results must
 * equal the CPU backend's byte for byte (the double does the element
 * arithmetic with the CPU's kernels), every step of a visual run too.
 * Then the failure paths: no device, plans larger than device memory, every
 * allocation failing in turn, a refused launch, a kernel that faults its
 * GPU; each must give its status and message and leave nothing allocated,
 * no stream and no event behind, resetting a faulted GPU. The double's
 * own checks (device pointers, peer access, devices of streams and events,
 * deadlock) must find nothing.
 *
 * What this cannot check: anything the GPU itself does (the kernels are
 * checked on the host by test_cuda_kernels_host, and on a device by
 * test_cuda), timing, or the real runtime's behaviour where the double is
 * simpler than it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cuda_mock.h"
#include "cv.h"
#include "nccl.h" /* the double's: mock_nccl_live, mock_nccl_aborted */
#include "cv_cuda.h"

static void describe(const cv_spec *s, char *out, size_t len)
{
    snprintf(out, len, "%s/%s N=%d count=%lld %s %s", cv_op_name(s->op), cv_algo_name(s->algo),
             s->ranks, (long long)s->count, cv_dtype_name(s->dtype), cv_redop_name(s->redop));
}

/* Nothing of the last run may remain, and the double saw no misuse. */
static void expect_clean(const char *what)
{
    mock_cuda_stats st;
    mock_cuda_get_stats(&st);
    EXPECT(st.allocs == 0 && st.streams == 0 && st.events == 0,
           "%s: left %ld allocations, %ld streams, %ld events", what, st.allocs, st.streams,
           st.events);
    EXPECT(st.problem[0] == 0, "%s: %s", what, st.problem);
}

static cv_trace *run(const cv_plan *p, const cv_backend *be, bool visual, int iterations,
                     char *err, size_t errlen, int *rc)
{
    cv_run_opts o;
    cv_run_opts_init(&o);
    o.init = CV_INIT_RANDOM;
    o.seed = 7;
    o.visual = visual;
    o.iterations = iterations;
    o.warmup = iterations > 1 ? 1 : 0;
    cv_trace *t = NULL;
    *rc = cv_run(p, be, &o, &t, err, errlen);
    return t;
}

/* The plan of s on the CPU and on the mock GPUs: equal outputs, and in a
 * visual run equal buffers after every step. */
static void compare(const cv_spec *s, bool visual, int iterations)
{
    char err[CV_ERR_LEN] = "", what[160];
    describe(s, what, sizeof what);
    cv_plan *p = NULL;
    if (cv_plan_create(s, &p, err, sizeof err) != CV_OK) {
        EXPECT(0, "%s: plan: %s", what, err);
        return;
    }
    int rc_cpu, rc_gpu;
    cv_trace *cpu = run(p, cv_cpu_backend(), visual, iterations, err, sizeof err, &rc_cpu);
    cv_trace *gpu = run(p, cv_cuda_backend(), visual, iterations, err, sizeof err, &rc_gpu);
    EXPECT(rc_cpu == CV_OK && rc_gpu == CV_OK, "%s: cpu %d, mock cuda %d: %s", what, rc_cpu, rc_gpu,
           err);
    expect_clean(what);
    if (cpu && gpu) {
        size_t esz = cv_dtype_size(s->dtype);
        EXPECT(cv_trace_wrong(gpu) == 0, "%s: %lld wrong", what, (long long)cv_trace_wrong(gpu));
        for (int r = 0; r < s->ranks; r++) {
            int64_t n = cv_spec_buf_count(s, CV_BUF_RECV, r);
            const void *a = cv_trace_output(cpu, r), *b = cv_trace_output(gpu, r);
            EXPECT(n == 0 || (a && b && memcmp(a, b, (size_t)n * esz) == 0),
                   "%s (%s): rank %d differs from the CPU", what, visual ? "visual" : "bench", r);
        }
        for (int k = 0; !visual && k < p->nsteps; k++)
            EXPECT(cv_trace_step_seconds(gpu, k) >= 0, "%s: step %d time %g", what, k,
                   cv_trace_step_seconds(gpu, k));
        cv_state *sc = NULL, *sg = NULL;
        if (visual && cv_state_create(cpu, &sc) == CV_OK && cv_state_create(gpu, &sg) == CV_OK) {
            for (int k = 0; k <= p->nsteps; k++) {
                cv_state_seek(sc, k);
                cv_state_seek(sg, k);
                for (int r = 0; r < s->ranks; r++)
                    for (int b = 0; b < CV_BUF_COUNT; b++) {
                        cv_bufview x = cv_state_buf(sc, r, (cv_buf)b), y = cv_state_buf(sg, r, (cv_buf)b);
                        EXPECT(x.count == y.count &&
                                   (x.count == 0 || memcmp(x.values, y.values, (size_t)x.count * esz) == 0),
                               "%s: after step %d rank %d %s differs", what, k, r, cv_buf_name((cv_buf)b));
                    }
            }
        }
        cv_state_destroy(sc);
        cv_state_destroy(sg);
    }
    cv_trace_destroy(cpu);
    cv_trace_destroy(gpu);
    cv_plan_destroy(p);
}

static bool allowed(cv_op op, cv_dtype d, cv_redop r)
{
    if (!cv_op_reduces(op) && r != CV_SUM)
        return false;
    return !(cv_redop_is_bitwise(r) && cv_dtype_is_float(d));
}

static cv_spec make_spec(cv_op op, cv_algo algo, int n, int64_t count)
{
    cv_spec s;
    cv_spec_init(&s);
    s.op = op;
    s.algo = algo;
    s.ranks = n;
    s.count = count;
    s.root = cv_op_has_root(op) ? (n * 5 / 7) % n : 0;
    s.slices = cv_algo_uses_slices(op, algo) ? 1 + (int)(count % 3) : 1;
    s.nodes = cv_algo_uses_nodes(op, algo) && n % 2 == 0 ? 2 : 1; /* across nodes where it can */
    return s;
}

/* Every op and algorithm on `ndev` mock GPUs under one schedule. */
static void matrix(int ndev, bool peer, unsigned long long seed)
{
    mock_cuda_config cfg;
    mock_cuda_config_init(&cfg);
    cfg.ndev = ndev;
    cfg.peer = peer;
    cfg.seed = seed;
    mock_cuda_reset(&cfg);
    static const int ranks[] = {1, 2, 3, 5, 8};
    static const cv_dtype dtypes[] = {CV_INT32, CV_FLOAT16, CV_INT8, CV_FLOAT64};
    static const cv_redop redops[] = {CV_SUM, CV_MAX, CV_AVG, CV_BXOR};
    int before = failures;
    for (int op = 0; op < CV_OP_COUNT; op++) {
        cv_algo algos[CV_ALGO_COUNT];
        int na = cv_op_algos((cv_op)op, algos);
        for (int a = 0; a < na; a++) {
            for (int ri = 0; ri < 5; ri++) {
                int n = ranks[ri];
                int64_t counts[] = {0, 1, n - 1, 7 * (int64_t)n + 3};
                for (int ci = 0; ci < 4; ci++)
                    for (int d = 0; d < 4; d++)
                        for (int r = 0; r < 4; r++) {
                            if (!allowed((cv_op)op, dtypes[d], redops[r]) || (n - 1 == 0 && ci == 2))
                                continue;
                            cv_spec s = make_spec((cv_op)op, algos[a], n, counts[ci]);
                            s.dtype = dtypes[d];
                            s.redop = redops[r];
                            compare(&s, false, 2);
                        }
            }
            cv_spec s = make_spec((cv_op)op, algos[a], 5, 23);
            compare(&s, true, 1);
            if (cv_op_reduces((cv_op)op)) {
                s.dtype = CV_INT8;
                s.redop = CV_AVG; /* the final divide step */
                compare(&s, true, 1);
            }
        }
    }
    printf("%d GPU%s%s, schedule %llu: %s\n", ndev, ndev == 1 ? "" : "s",
           ndev == 1 ? "" : peer ? " with peer access" : " without peer access", seed,
           failures == before ? "ok" : "FAILED");
}

/* cv_run of allreduce ring on 4 ranks must fail with `want` and clean up. */
static void expect_failure(const mock_cuda_config *cfg, bool visual, int want, const char *needle,
                           const char *what)
{
    mock_cuda_reset(cfg);
    cv_spec s = make_spec(CV_OP_ALLREDUCE, CV_ALGO_RING, 4, 40);
    cv_plan *p = NULL;
    char err[CV_ERR_LEN] = "";
    if (cv_plan_create(&s, &p, err, sizeof err) != CV_OK) {
        EXPECT(0, "plan: %s", err);
        return;
    }
    int rc;
    cv_trace *t = run(p, cv_cuda_backend(), visual, 2, err, sizeof err, &rc);
    EXPECT(rc == want && !t, "%s: status %d, want %d (%s)", what, rc, want, err);
    EXPECT(strstr(err, needle) != NULL, "%s: message lacks '%s': %s", what, needle, err);
    expect_clean(what);
    cv_trace_destroy(t);
    cv_plan_destroy(p);
}

static void failures_and_cleanup(void)
{
    mock_cuda_config cfg;
    char err[CV_ERR_LEN] = "", what[96];
    int before = failures;

    /* No device at all. */
    mock_cuda_config_init(&cfg);
    cfg.ndev = 0;
    mock_cuda_reset(&cfg);
    EXPECT(cv_cuda_backend()->probe(err, sizeof err) == CV_EUNAVAIL &&
               strstr(err, "no CUDA device"),
           "no device: %s", err);

    /* A GPU whose architecture the build left out: refused by the probe,
     * with the flag that fixes it, not at the first reduction. */
    mock_cuda_config_init(&cfg);
    cfg.no_kernels = true;
    mock_cuda_reset(&cfg);
    EXPECT(cv_cuda_backend()->probe(err, sizeof err) == CV_EUNAVAIL &&
               strstr(err, "no CUDA device") && strstr(err, "compute capability 7.5") &&
               strstr(err, "CMAKE_CUDA_ARCHITECTURES=75"),
           "no kernels: %s", err);

    /* Larger than the GPU: refused before allocating, with the sizes. */
    mock_cuda_config_init(&cfg);
    cfg.mem_bytes = 512;
    expect_failure(&cfg, false, CV_ENOMEM, "out of device memory", "plan larger than the GPU");

    /* Every allocation failing in turn: out of memory, nothing left behind;
     * past the last allocation the run succeeds. */
    mock_cuda_stats st;
    for (long k = 1;; k++) {
        mock_cuda_config_init(&cfg);
        cfg.ndev = 2;
        cfg.fail_malloc_at = k;
        snprintf(what, sizeof what, "cudaMalloc %ld failing", k);
        mock_cuda_reset(&cfg);
        cv_spec s = make_spec(CV_OP_ALLREDUCE, CV_ALGO_RING, 4, 40);
        cv_plan *p = NULL;
        cv_plan_create(&s, &p, err, sizeof err);
        int rc;
        cv_trace *t = run(p, cv_cuda_backend(), false, 1, err, sizeof err, &rc);
        mock_cuda_get_stats(&st);
        expect_clean(what);
        cv_trace_destroy(t);
        cv_plan_destroy(p);
        if (st.mallocs < k) {
            EXPECT(rc == CV_OK, "%s: every allocation succeeded but the run gave %d: %s", what,
                   rc, err);
            break;
        }
        EXPECT(rc == CV_ENOMEM && strstr(err, "out of device memory"), "%s: %d %s", what, rc, err);
    }

    /* A refused launch and a kernel that faults its GPU, in both modes. */
    for (int visual = 0; visual < 2; visual++)
        for (long k = 1; k <= 6; k++) {
            mock_cuda_config_init(&cfg);
            cfg.fail_launch_at = k;
            snprintf(what, sizeof what, "launch %ld refused (%s)", k, visual ? "visual" : "bench");
            expect_failure(&cfg, visual, CV_EBACKEND, "kernel launch: cudaErrorLaunchFailure", what);
            mock_cuda_config_init(&cfg);
            cfg.fault_at_kernel = k;
            snprintf(what, sizeof what, "kernel %ld faults (%s)", k, visual ? "visual" : "bench");
            expect_failure(&cfg, visual, CV_EBACKEND, "cudaErrorIllegalAddress", what);
            mock_cuda_get_stats(&st);
            EXPECT(st.resets >= 1, "%s: the faulted GPU was not reset", what);
        }

    /* Every event creation failing in turn (bench mode makes a mark per
     * step on first use): out of memory, named, nothing left behind. */
    int refused = 0;
    for (long k = 1; k <= 64; k++) {
        mock_cuda_config_init(&cfg);
        cfg.fail_event_at = k;
        mock_cuda_reset(&cfg);
        cv_spec s = make_spec(CV_OP_ALLREDUCE, CV_ALGO_RING, 4, 40);
        cv_plan *p = NULL;
        if (cv_plan_create(&s, &p, err, sizeof err) != CV_OK)
            break;
        int rc;
        cv_trace *t = run(p, cv_cuda_backend(), false, 2, err, sizeof err, &rc);
        snprintf(what, sizeof what, "event creation %ld fails", k);
        if (rc == CV_OK) { /* past the last creation */
            cv_trace_destroy(t);
            cv_plan_destroy(p);
            break;
        }
        refused++;
        EXPECT(rc == CV_ENOMEM && strstr(err, "cudaEventCreate"), "%s: %d %s", what, rc, err);
        expect_clean(what);
        cv_plan_destroy(p);
    }
    EXPECT(refused >= 3, "only %d event creations could be made to fail", refused);

    /* A run that failed making its step marks leaves the state usable: the
     * next run on it makes them again rather than using a half-made set. */
    mock_cuda_config_init(&cfg);
    mock_cuda_reset(&cfg);
    {
        cv_spec s = make_spec(CV_OP_ALLREDUCE, CV_ALGO_RING, 4, 40);
        cv_plan *p = NULL;
        void *state = NULL;
        const cv_backend *be = cv_cuda_backend();
        double secs[64];
        if (cv_plan_create(&s, &p, err, sizeof err) == CV_OK && p->nsteps < 63 &&
            be->open(p, &state, err, sizeof err) == CV_OK) {
            mock_cuda_fail_event_in(3); /* the third of the step marks */
            int rc1 = be->run_all(state, secs, err, sizeof err);
            mock_cuda_fail_event_in(0);
            int rc2 = be->run_all(state, secs, err, sizeof err);
            EXPECT(rc1 == CV_ENOMEM && rc2 == CV_OK, "run_all after a failed one: %d then %d (%s)",
                   rc1, rc2, err);
            be->close(state);
        } else
            EXPECT(0, "open: %s", err);
        cv_plan_destroy(p);
        expect_clean("run_all again after failing to make its marks");
    }

    /* NCCL reporting an asynchronous error (a peer gone): the wait ends
     * with it, the communicators are aborted rather than destroyed (which
     * would wait for the stuck work), and the communicator refuses to run
     * again. */
    mock_cuda_config_init(&cfg);
    cfg.ndev = 2;
    cfg.nccl_error = true;
    mock_cuda_reset(&cfg);
    {
        cv_nccl *nc = NULL;
        cv_nccl_result res;
        cv_spec s = make_spec(CV_OP_ALLREDUCE, CV_ALGO_RING, 2, 64);
        long aborted = mock_nccl_aborted();
        int rc = cv_nccl_create(2, &nc, err, sizeof err);
        EXPECT(rc == CV_OK, "NCCL open: %s", err);
        if (rc == CV_OK) {
            rc = cv_nccl_run(nc, &s, 1, 2, CV_INIT_RANDOM, 1, true, &res, err, sizeof err);
            EXPECT(rc == CV_EBACKEND && strstr(err, "remote process exited"),
                   "NCCL async error: %d %s", rc, err);
            EXPECT(mock_nccl_aborted() - aborted == 2 && mock_nccl_live() == 0,
                   "after the error: %ld aborted, %ld alive", mock_nccl_aborted() - aborted,
                   mock_nccl_live());
            rc = cv_nccl_run(nc, &s, 1, 2, CV_INIT_RANDOM, 1, true, &res, err, sizeof err);
            EXPECT(rc == CV_EBACKEND && strstr(err, "open a new one"), "run after abort: %d %s",
                   rc, err);
            cv_nccl_destroy(nc);
        }
        expect_clean("NCCL async error");
    }
    printf("failure paths: %s\n", failures == before ? "ok" : "FAILED");
}

/* The schedules the matrix runs under: GPUs, peer access, the seed of the
 * streams' order. */
static const struct {
    int ndev;
    bool peer;
    unsigned long long seed;
} schedules[] = {{1, false, 1}, {1, false, 2}, {1, false, 3},
                 {2, true, 4},  {3, false, 5}, {3, true, 6}};

/* "1-gpu/seed-1", "2-gpus-peer/seed-4". */
static int schedule_name(int i, char *name, size_t len)
{
    if (i >= (int)(sizeof schedules / sizeof *schedules))
        return 0;
    snprintf(name, len, "%d-gpu%s%s/seed-%llu", schedules[i].ndev, schedules[i].ndev == 1 ? "" : "s",
             schedules[i].peer ? "-peer" : "", schedules[i].seed);
    return 1;
}

static void schedule(int i)
{
    matrix(schedules[i].ndev, schedules[i].peer, schedules[i].seed);
}

static const test_case cases[] = {
    CASE_EACH("matrix", schedule_name, schedule),
    CASE("failures-and-cleanup", failures_and_cleanup),
};

int main(int argc, char **argv)
{
    cases_args(argc, argv, cases, CASES_COUNT(cases));
    cases_run();
    mock_cuda_reset(NULL);
    return cases_end();
}

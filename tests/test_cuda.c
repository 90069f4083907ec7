/*
 * test_cuda.c: the CPU backend's property suite, run on the CUDA backend.
 *
 * Every op and algorithm, ranks {1, 2, 3, 4, 5, 7, 8, 16}, counts {0, 1,
 * N-1, N, 7N+3}, every dtype and every redop the op allows: the plan runs
 * through cv_run on CUDA and on the CPU; both must match the reference
 * (cv_trace_wrong == 0, floats within cv_verify's tolerance) and integer
 * results must be identical byte for byte. Then larger counts, which take
 * the kernels' 16-byte path and grid-stride loops, in bench mode (warm-up
 * plus several iterations over the same inputs); and visual runs, whose
 * every intermediate step must equal the CPU's for integer dtypes.
 *
 * Without a CUDA device it prints why and exits 77, which ctest reports as
 * skipped.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cv.h"
#include "cv_cuda.h"
#include "check.h"

static void describe(const cv_spec *s, char *out, size_t len)
{
    snprintf(out, len, "%s/%s N=%d count=%lld %s %s root=%d slices=%d", cv_op_name(s->op),
             cv_algo_name(s->algo), s->ranks, (long long)s->count, cv_dtype_name(s->dtype),
             cv_redop_name(s->redop), s->root, s->slices);
}

static cv_trace *run_on(const cv_plan *p, const cv_backend *be, cv_init init, int iterations,
                        bool visual, const char *what)
{
    char err[CV_ERR_LEN] = "";
    cv_run_opts o;
    cv_run_opts_init(&o);
    o.init = init;
    o.seed = 42;
    o.visual = visual;
    o.iterations = iterations;
    o.warmup = iterations > 1 ? 1 : 0;
    cv_trace *t = NULL;
    int rc = cv_run(p, be, &o, &t, err, sizeof err);
    EXPECT(rc == CV_OK, "%s on %s: %s", what, be->name, err);
    if (rc)
        return NULL;
    EXPECT(cv_trace_wrong(t) == 0, "%s on %s init=%s: %lld wrong", what, be->name,
           cv_init_name(init), (long long)cv_trace_wrong(t));
    return t;
}

/* Runs s on both backends; integer outputs must be identical. */
static void check_run(const cv_spec *s, cv_init init, int iterations)
{
    char err[CV_ERR_LEN], what[160];
    describe(s, what, sizeof what);
    cv_plan *p = NULL;
    if (cv_plan_create(s, &p, err, sizeof err)) {
        EXPECT(0, "%s: plan: %s", what, err);
        return;
    }
    cv_trace *gpu = run_on(p, cv_cuda_backend(), init, iterations, false, what);
    cv_trace *cpu = run_on(p, cv_cpu_backend(), init, 1, false, what);
    if (gpu && cpu && !cv_dtype_is_float(s->dtype)) {
        size_t esz = cv_dtype_size(s->dtype);
        for (int r = 0; r < s->ranks; r++) {
            int64_t n = cv_spec_buf_count(s, CV_BUF_RECV, r);
            const void *a = cv_trace_output(gpu, r), *b = cv_trace_output(cpu, r);
            if (n && a && b)
                EXPECT(memcmp(a, b, (size_t)n * esz) == 0, "%s: rank %d differs from the CPU",
                       what, r);
        }
    }
    if (gpu) {
        for (int k = 0; k < p->nsteps; k++)
            EXPECT(cv_trace_step_seconds(gpu, k) >= 0.0, "%s: step %d time negative", what, k);
    }
    cv_trace_destroy(gpu);
    cv_trace_destroy(cpu);
    cv_plan_destroy(p);
}

/* Visual runs: after every step, every buffer of every rank equals the
 * CPU's (integers), so the GPU animates exactly what the CPU does. */
static void check_visual(const cv_spec *s)
{
    char err[CV_ERR_LEN], what[160];
    describe(s, what, sizeof what);
    cv_plan *p = NULL;
    if (cv_plan_create(s, &p, err, sizeof err))
        return;
    cv_trace *gpu = run_on(p, cv_cuda_backend(), CV_INIT_INDEX, 1, true, what);
    cv_trace *cpu = run_on(p, cv_cpu_backend(), CV_INIT_INDEX, 1, true, what);
    cv_state *sg = NULL, *sc = NULL;
    if (gpu && cpu && cv_state_create(gpu, &sg) == CV_OK && cv_state_create(cpu, &sc) == CV_OK) {
        size_t esz = cv_dtype_size(s->dtype);
        for (int k = 0; k <= p->nsteps; k++) {
            cv_state_seek(sg, k);
            cv_state_seek(sc, k);
            for (int r = 0; r < s->ranks; r++)
                for (int b = 0; b < CV_BUF_COUNT; b++) {
                    cv_bufview g = cv_state_buf(sg, r, b), c = cv_state_buf(sc, r, b);
                    EXPECT(g.count == c.count && (g.count == 0 ||
                                                  memcmp(g.values, c.values, (size_t)g.count * esz) == 0),
                           "%s: after step %d rank %d %s differs from the CPU", what, k, r,
                           cv_buf_name(b));
                }
        }
    }
    cv_state_destroy(sg);
    cv_state_destroy(sc);
    cv_trace_destroy(gpu);
    cv_trace_destroy(cpu);
    cv_plan_destroy(p);
}

static void spec_for(cv_spec *s, cv_op op, cv_algo algo, int n, int64_t count, int variant)
{
    cv_spec_init(s);
    s->op = op;
    s->algo = algo;
    s->ranks = n;
    s->count = count;
    s->root = cv_op_has_root(op) ? (n * 5 / 7) % n : 0;
    s->slices = (op == CV_OP_BROADCAST || op == CV_OP_REDUCE) ? 1 + variant % 4 : 1;
}

static bool allowed(cv_op op, int dtype, int redop)
{
    if (!cv_op_reduces(op) && redop != CV_SUM)
        return false;
    return !(cv_redop_is_bitwise(redop) && cv_dtype_is_float(dtype));
}

/* The (op, algorithm) pairs in order, each op's algorithms as it lists
 * them: one case each, named "allreduce/ring". --part K/N (the runner's)
 * shares them among N processes; scripts/gpu_check.sh runs 8. */
static bool op_algo_at(int i, cv_op *op, cv_algo *algo)
{
    for (int o = 0; o < CV_OP_COUNT; o++) {
        cv_algo algos[CV_ALGO_COUNT];
        int na = cv_op_algos(o, algos);
        if (i < na) {
            *op = (cv_op)o;
            *algo = algos[i];
            return true;
        }
        i -= na;
    }
    return false;
}

static int op_algo_name(int i, char *name, size_t len)
{
    cv_op op;
    cv_algo algo;
    if (!op_algo_at(i, &op, &algo))
        return 0;
    snprintf(name, len, "%s/%s", cv_op_name(op), cv_algo_name(algo));
    return 1;
}

static bool on_double;

/* One op and algorithm at rank counts 1 to 5, 7, 8 and 16 and the counts {0, 1,
 * N-1, N, 7N+3}, every dtype and redop, and large counts. */
static void check_op_algo(int i)
{
    cv_op op = CV_OP_ALLREDUCE;
    cv_algo algo = CV_ALGO_RING;
    op_algo_at(i, &op, &algo);
    static const int ranks[] = {1, 2, 3, 4, 5, 7, 8, 16};
    const int nranks = (int)(sizeof ranks / sizeof ranks[0]);
    for (int ri = 0; ri < nranks; ri++) {
        int n = ranks[ri];
        int64_t counts[] = {0, 1, n - 1, n, 7 * (int64_t)n + 3};
        for (int ci = 0; ci < 5; ci++) {
            cv_spec s;
            spec_for(&s, op, algo, n, counts[ci], ci);
            for (int d = 0; d < CV_DTYPE_COUNT; d++)
                for (int r = 0; r < CV_REDOP_COUNT; r++) {
                    if (!allowed(op, d, r))
                        continue;
                    s.dtype = d;
                    s.redop = r;
                    check_run(&s, CV_INIT_RANDOM, ci == 4 ? 3 : 1);
                    if (d == CV_INT32 || d == CV_FLOAT64)
                        check_run(&s, CV_INIT_INDEX, 1);
                }
        }
    }
    /* Large enough for the 16-byte path, several blocks and
     * chunks that are not multiples of the vector width; not on
     * the runtime double (the GPU check's rehearsal), which runs
     * every kernel on the host and whose own test covers them. */
    for (int n = 3; n <= 8 && !on_double; n += 5) {
        static const cv_dtype big_dtypes[] = {CV_INT8, CV_INT64, CV_BFLOAT16, CV_FLOAT32};
        for (int d = 0; d < 4; d++)
            for (int r = 0; r < CV_REDOP_COUNT; r++) {
                if (!allowed(op, big_dtypes[d], r) || (r != CV_SUM && r != CV_MAX &&
                                                       r != CV_AVG && r != CV_BXOR))
                    continue;
                cv_spec s;
                spec_for(&s, op, algo, n, ((int64_t)1 << 18) + 5, 1);
                s.dtype = big_dtypes[d];
                s.redop = r;
                check_run(&s, CV_INIT_RANDOM, 3);
            }
    }
    cv_spec s;
    spec_for(&s, op, algo, 4, 31, 2);
    s.dtype = CV_INT32;
    check_visual(&s);
    if (cv_op_reduces(op)) {
        s.dtype = CV_INT8;
        s.redop = CV_AVG; /* with the final divide step */
        check_visual(&s);
    }
}

static const test_case cases[] = {
    CASE_EACH("", op_algo_name, check_op_algo),
};

int main(int argc, char **argv)
{
    cases_args(argc, argv, cases, CASES_COUNT(cases));
    char err[CV_ERR_LEN] = "", device[256] = "";
    int rc = cv_cuda_backend()->probe(err, sizeof err);
    if (rc != CV_OK) {
        printf("SKIPPED: the CUDA backend cannot run here: %s\n", err);
        return 77;
    }
    cv_cuda_describe(device, sizeof device);
    printf("device: %s\n", device);
    on_double = getenv("COLLVIZ_MOCK_CUDA") != NULL;
    cases_run();
    return cases_end();
}

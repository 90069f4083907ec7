/*
 * test_collectives.c: the core engine's property suite.
 *
 * For every op and algorithm, every rank count 1..17, 32 and 64 and the
 * counts {0, 1, N-1, N, 7N+3}: the plan validates (bounds, no conflicts
 * within a step, nothing read before it is written, every result written),
 * its provenance matches the op's semantics, and executing it on the CPU
 * backend gives the reference result for every dtype and redop. Visual
 * traces are checked to end in the same buffers the backend returned, and
 * seeking backwards to restore the earlier state exactly.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cv.h"
#include "check.h"

static void describe(const cv_spec *s, char *out, size_t len)
{
    snprintf(out, len, "%s/%s N=%d count=%lld %s %s root=%d slices=%d nodes=%d",
             cv_op_name(s->op), cv_algo_name(s->algo), s->ranks, (long long)s->count,
             cv_dtype_name(s->dtype), cv_redop_name(s->redop), s->root, s->slices, s->nodes);
}

/* Builds, validates and checks provenance of one spec's plan. */
static void check_plan(const cv_spec *s)
{
    char err[CV_ERR_LEN], what[160];
    describe(s, what, sizeof what);
    cv_plan *p = NULL;
    int rc = cv_plan_create(s, &p, err, sizeof err);
    EXPECT(rc == CV_OK, "%s: build: %s", what, err);
    if (rc)
        return;
    rc = cv_plan_validate(p, err, sizeof err);
    EXPECT(rc == CV_OK, "%s: validate: %s", what, err);
    if (s->ranks <= CV_MAX_VISUAL_RANKS) {
        rc = cv_plan_check_provenance(p, err, sizeof err);
        EXPECT(rc == CV_OK, "%s: provenance: %s", what, err);
    }
    cv_plan_destroy(p);
}

static void check_run(const cv_spec *s, cv_init init)
{
    char err[CV_ERR_LEN], what[160];
    describe(s, what, sizeof what);
    cv_plan *p = NULL;
    if (cv_plan_create(s, &p, err, sizeof err))
        return;
    cv_run_opts o;
    cv_run_opts_init(&o);
    o.init = init;
    o.seed = 42;
    cv_trace *t = NULL;
    int rc = cv_run(p, cv_cpu_backend(), &o, &t, err, sizeof err);
    EXPECT(rc == CV_OK, "%s: run: %s", what, err);
    if (!rc)
        EXPECT(cv_trace_wrong(t) == 0, "%s init=%s: %lld wrong", what, cv_init_name(init),
               (long long)cv_trace_wrong(t));
    cv_trace_destroy(t);
    cv_plan_destroy(p);
}

/* A run that keeps nothing (bench's) fills and checks in the CPU
 * backend's own buffers: right results pass, and it keeps no copies. */
static void check_in_place(const cv_spec *s)
{
    char err[CV_ERR_LEN], what[160];
    describe(s, what, sizeof what);
    cv_plan *p = NULL;
    if (cv_plan_create(s, &p, err, sizeof err))
        return;
    cv_run_opts o;
    cv_run_opts_init(&o);
    o.init = CV_INIT_RANDOM;
    o.discard = true;
    o.iterations = 2;
    cv_trace *t = NULL;
    int rc = cv_run(p, cv_cpu_backend(), &o, &t, err, sizeof err);
    EXPECT(rc == CV_OK, "%s: in-place run: %s", what, err);
    if (!rc) {
        EXPECT(cv_trace_wrong(t) == 0, "%s: in place: %lld wrong", what,
               (long long)cv_trace_wrong(t));
        EXPECT(!cv_trace_input(t, 0) && !cv_trace_output(t, s->ranks - 1),
               "%s: a discarding run kept its values", what);
    }
    cv_trace_destroy(t);
    cv_plan_destroy(p);
}

/* The CPU backend with rank 0's first result spoiled after the last step:
 * an in-place check must count it, so it cannot pass by checking nothing. */
static int spoil_step = -1;
static int spoiled_run_step(void *st, int step, double *sec, char *err, size_t errlen)
{
    const cv_backend *cpu = cv_cpu_backend();
    int rc = cpu->run_step(st, step, sec, err, errlen);
    if (!rc && step == spoil_step)
        ((int32_t *)cpu->view(st, 0, CV_BUF_RECV))[0] += 1;
    return rc;
}

static void check_in_place_catches(void)
{
    cv_backend spoiled = *cv_cpu_backend();
    spoiled.run_step = spoiled_run_step;
    spoiled.run_all = NULL;
    static const cv_op ops[] = {CV_OP_ALLREDUCE, CV_OP_ALLGATHER, CV_OP_REDUCESCATTER,
                                CV_OP_BROADCAST, CV_OP_ALLTOALL};
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        cv_spec s;
        cv_spec_init(&s);
        s.op = ops[i];
        s.ranks = 5;
        s.count = 11;
        s.dtype = CV_INT32;
        cv_algo algos[CV_ALGO_COUNT];
        cv_op_algos(s.op, algos);
        s.algo = algos[0];
        cv_plan *p = NULL;
        char err[CV_ERR_LEN];
        EXPECT(cv_plan_create(&s, &p, err, sizeof err) == CV_OK, "plan: %s", err);
        if (!p)
            continue;
        spoil_step = p->nsteps - 1;
        for (int discard = 0; discard < 2; discard++) {
            cv_run_opts o;
            cv_run_opts_init(&o);
            o.init = CV_INIT_RANDOM;
            o.discard = discard;
            cv_trace *t = NULL;
            int rc = cv_run(p, &spoiled, &o, &t, err, sizeof err);
            EXPECT(rc == CV_OK && cv_trace_wrong(t) == 1,
                   "%s: a spoiled result (discard %d): run %d, %lld wrong", cv_op_name(s.op),
                   discard, rc, t ? (long long)cv_trace_wrong(t) : -1LL);
            cv_trace_destroy(t);
        }
        cv_plan_destroy(p);
    }
}

/* A visual run ends in the backend's results, and seeking back restores. */
static void check_visual(const cv_spec *s)
{
    char err[CV_ERR_LEN], what[160];
    describe(s, what, sizeof what);
    cv_plan *p = NULL;
    if (cv_plan_create(s, &p, err, sizeof err))
        return;
    cv_run_opts o;
    cv_run_opts_init(&o);
    o.visual = true;
    cv_trace *t = NULL;
    int rc = cv_run(p, cv_cpu_backend(), &o, &t, err, sizeof err);
    EXPECT(rc == CV_OK, "%s: visual run: %s", what, err);
    if (rc) {
        cv_plan_destroy(p);
        return;
    }
    EXPECT(cv_trace_wrong(t) == 0, "%s: visual run wrong", what);
    cv_state *st = NULL;
    EXPECT(cv_state_create(t, &st) == CV_OK, "%s: state", what);
    size_t esz = cv_dtype_size(s->dtype);
    cv_state_seek(st, p->nsteps);
    for (int r = 0; r < s->ranks; r++) {
        cv_bufview v = cv_state_buf(st, r, CV_BUF_RECV);
        int64_t n = cv_spec_buf_count(s, CV_BUF_RECV, r);
        EXPECT(v.count == n, "%s: rank %d recv length", what, r);
        if (n)
            EXPECT(memcmp(v.values, cv_trace_output(t, r), (size_t)n * esz) == 0,
                   "%s: rank %d final state differs from output", what, r);
    }
    /* Forward to step 1, remember rank 0's RECV, go to the end and back. */
    if (p->nsteps >= 2 && cv_spec_buf_count(s, CV_BUF_RECV, 0) > 0) {
        cv_state_seek(st, 1);
        cv_bufview v = cv_state_buf(st, 0, CV_BUF_RECV);
        size_t bytes = (size_t)v.count * esz;
        unsigned char *copy = malloc(bytes);
        uint64_t *masks = malloc((size_t)v.count * sizeof *masks);
        memcpy(copy, v.values, bytes);
        memcpy(masks, v.masks, (size_t)v.count * sizeof *masks);
        cv_state_seek(st, p->nsteps);
        cv_state_seek(st, 1);
        v = cv_state_buf(st, 0, CV_BUF_RECV);
        EXPECT(memcmp(copy, v.values, bytes) == 0 &&
                   memcmp(masks, v.masks, (size_t)v.count * sizeof *masks) == 0,
               "%s: seeking back does not restore step 1", what);
        free(copy);
        free(masks);
    }
    cv_state_destroy(st);
    cv_trace_destroy(t);
    cv_plan_destroy(p);
}

static void check_volumes(void)
{
    char err[CV_ERR_LEN];
    for (int n = 2; n <= 16; n++) {
        cv_spec s;
        cv_spec_init(&s);
        s.ranks = n;
        s.count = (int64_t)n * 1000;
        s.dtype = CV_FLOAT32;
        cv_plan *p = NULL;
        cv_plan_create(&s, &p, err, sizeof err);
        int64_t d = s.count * 4;
        for (int r = 0; r < n; r++)
            EXPECT(cv_plan_bytes_sent(p, r) == 2 * (n - 1) * d / n,
                   "ring allreduce N=%d rank %d sends %lld bytes, want 2(N-1)/N*D", n, r,
                   (long long)cv_plan_bytes_sent(p, r));
        EXPECT(cv_plan_comm_steps(p) == 2 * (n - 1), "ring allreduce N=%d steps", n);
        cv_plan_destroy(p);

        s.op = CV_OP_ALLGATHER;
        s.count = 1000; /* per rank; the gathered D is N * 1000 elements */
        cv_plan_create(&s, &p, err, sizeof err);
        d = (int64_t)n * 1000 * 4;
        for (int r = 0; r < n; r++)
            EXPECT(cv_plan_bytes_sent(p, r) == (n - 1) * d / n,
                   "ring allgather N=%d rank %d sends %lld, want (N-1)/N*D", n, r,
                   (long long)cv_plan_bytes_sent(p, r));
        cv_plan_destroy(p);
    }
}

/* run --json's numbers read back exactly: every float16 value, and float64
 * values one ulp apart print differently; non-finite ones are words. */
static void check_format_exact(void)
{
    char text[48];
    bool number;
    int bad = 0;
    for (uint32_t u = 0; u < 65536; u++) {
        uint16_t h = (uint16_t)u;
        double v = cv_value_get(CV_FLOAT16, &h, 0);
        cv_value_format_exact(CV_FLOAT16, &h, 0, text, sizeof text, &number);
        if (v != v)
            bad += number || strcmp(text, "nan") != 0;
        else if (!number ? strcmp(text, v > 0 ? "inf" : "-inf") != 0 : strtod(text, NULL) != v)
            bad++;
    }
    EXPECT(bad == 0, "%d float16 values do not read back", bad);
    double a[2] = {99.99999999999999, 100.0};
    char ta[48], tb[48];
    cv_value_format_exact(CV_FLOAT64, a, 0, ta, sizeof ta, &number);
    cv_value_format_exact(CV_FLOAT64, a, 1, tb, sizeof tb, &number);
    EXPECT(strcmp(ta, tb) != 0 && strtod(ta, NULL) == a[0] && !strcmp(tb, "100"),
           "float64 one ulp apart: %s and %s", ta, tb);
}

/* The compact form the stage and the terminal show: a whole number in
 * full (12048, never 1.205e+04), other values to four digits. */
static void check_format_compact(void)
{
    float f[] = {12048.0f, -3.0f, 0.25f, 15000000.0f, -0.0f, 1234.5f};
    const char *want[] = {"12048", "-3", "0.25", "1.5e+07", "0", "1234"};
    for (int i = 0; i < 6; i++) {
        char text[48];
        cv_value_format(CV_FLOAT32, f, i, text, sizeof text);
        EXPECT(strcmp(text, want[i]) == 0, "float32 %g: %s, want %s", f[i], text, want[i]);
    }
    uint16_t h = 0;
    cv_value_set(CV_BFLOAT16, &h, 0, 4096);
    char text[48];
    cv_value_format(CV_BFLOAT16, &h, 0, text, sizeof text);
    EXPECT(strcmp(text, "4096") == 0, "bfloat16 4096: %s", text);
}

/* float16 prod of 0, 100, ..., 600 along a tree: 100 x 200 x ... overflows
 * to inf before the 0 arrives, and inf x 0 is NaN, a legitimate result that
 * --verify must accept; sum that overflows both ways (inf - inf) too. */
static void check_overflow_nan(void)
{
    cv_spec s;
    cv_spec_init(&s);
    s.algo = CV_ALGO_TREE;
    s.ranks = 7;
    s.count = 1;
    s.dtype = CV_FLOAT16;
    s.redop = CV_PROD;
    cv_plan *p = NULL;
    cv_trace *t = NULL;
    char err[CV_ERR_LEN];
    cv_run_opts o;
    cv_run_opts_init(&o);
    if (cv_plan_create(&s, &p, err, sizeof err) == CV_OK &&
        cv_run(p, cv_cpu_backend(), &o, &t, err, sizeof err) == CV_OK) {
        double v = cv_value_get(s.dtype, cv_trace_output(t, 0), 0);
        EXPECT(v != v && cv_trace_wrong(t) == 0, "float16 prod of 0..600: %g, %lld wrong", v,
               (long long)cv_trace_wrong(t));
    }
    /* and a NaN where the exact result is finite and nothing overflows is wrong */
    uint16_t in[2][1] = {{0x3c00}, {0x4000}}, nan[1] = {0x7e00}; /* 1, 2; NaN */
    const void *ins[2] = {in[0], in[1]}, *outs[2] = {nan, nan};
    s.ranks = 2;
    EXPECT(cv_verify(&s, ins, outs) == 2, "NaN for 1 x 2 accepted");
    cv_trace_destroy(t);
    cv_plan_destroy(p);
}

/* cv_verify on results large enough to be checked on several threads:
 * right results pass, and every wrong element is counted once, whichever
 * thread's share it falls in. */
static void check_verify_threads(void)
{
    cv_spec s;
    cv_spec_init(&s);
    s.op = CV_OP_ALLGATHER;
    s.algo = CV_ALGO_RING;
    s.ranks = 4;
    s.count = (int64_t)1 << 18; /* 4 x 1 Mi result elements */
    s.dtype = CV_INT32;
    int32_t *in[4], *out[4];
    int64_t n = s.count * s.ranks;
    for (int r = 0; r < 4; r++) {
        in[r] = malloc((size_t)s.count * sizeof(int32_t));
        out[r] = malloc((size_t)n * sizeof(int32_t));
        cv_fill_input(&s, CV_INIT_RANDOM, 5, r, in[r]);
    }
    for (int r = 0; r < 4; r++)
        for (int g = 0; g < 4; g++)
            memcpy(out[r] + (size_t)g * (size_t)s.count, in[g], (size_t)s.count * sizeof(int32_t));
    int64_t w0 = cv_verify(&s, (const void *const *)in, (const void *const *)out);
    out[0][0] ^= 1;
    out[2][n / 2] ^= 1;
    out[3][n - 1] ^= 1;
    int64_t w3 = cv_verify(&s, (const void *const *)in, (const void *const *)out);
    EXPECT(w0 == 0 && w3 == 3, "cv_verify on %lld elements: %lld wrong when right, %lld with 3 wrong",
           (long long)(4 * n), (long long)w0, (long long)w3);
    for (int r = 0; r < 4; r++) {
        free(in[r]);
        free(out[r]);
    }
}

/* cv_verify on the ops that reduce, which it checks index by index (each
 * input index reduced once, then compared with every result that holds it):
 * right results pass and every wrong element on any rank is counted once,
 * for allreduce (every rank holds each index), reduce (the root only) and
 * reducescatter (each index on one rank), integers and floats. */
static void check_verify_reductions(void)
{
    static const cv_op ops[] = {CV_OP_ALLREDUCE, CV_OP_REDUCE, CV_OP_REDUCESCATTER};
    static const cv_dtype dts[] = {CV_INT32, CV_FLOAT32};
    for (size_t oi = 0; oi < sizeof ops / sizeof *ops; oi++)
        for (size_t di = 0; di < 2; di++) {
            cv_spec s;
            cv_spec_init(&s);
            s.op = ops[oi];
            s.algo = CV_ALGO_DIRECT;
            s.ranks = 5;
            s.root = 3;
            s.count = 1001;
            s.dtype = dts[di];
            size_t esz = cv_dtype_size(s.dtype);
            void *in[5], *out[5];
            for (int r = 0; r < 5; r++) {
                in[r] = malloc((size_t)cv_spec_buf_count(&s, CV_BUF_SEND, r) * esz);
                out[r] = malloc((size_t)cv_spec_result_count(&s, r) * esz + 1);
                cv_fill_input(&s, CV_INIT_RANDOM, 9, r, in[r]);
            }
            cv_reference(&s, (const void *const *)in, out);
            int64_t w0 = cv_verify(&s, (const void *const *)in, (const void *const *)out);
            int64_t bad = 0;
            for (int r = 0; r < 5; r++) {
                int64_t n = cv_spec_result_count(&s, r);
                if (!n)
                    continue;
                int64_t i = (r * 397) % n; /* a different element on each rank */
                cv_value_set(s.dtype, out[r], i, cv_value_get(s.dtype, out[r], i) + 1000);
                bad++;
            }
            int64_t w1 = cv_verify(&s, (const void *const *)in, (const void *const *)out);
            EXPECT(w0 == 0 && w1 == bad, "cv_verify %s %s: %lld wrong when right, %lld of %lld",
                   cv_op_name(s.op), cv_dtype_name(s.dtype), (long long)w0, (long long)w1,
                   (long long)bad);
            for (int r = 0; r < 5; r++) {
                free(in[r]);
                free(out[r]);
            }
        }
}

/* The (op, algorithm) pairs in order, each op's algorithms as it lists
 * them: one case each, named "allreduce/ring". */
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

/* run and bench go up to 1024 ranks: one op and algorithm there too
 * (--large), with a rank count that is not a power of two and counts N
 * does not divide. */
static void check_large(int i)
{
    static const int ranks[] = {100, 1000, 1024};
    cv_op op = CV_OP_ALLREDUCE;
    cv_algo algo = CV_ALGO_RING;
    op_algo_at(i, &op, &algo);
    for (int ri = 0; ri < 3; ri++) {
        int n = ranks[ri];
        /* the all-to-all ops move N x N blocks, and one-shot holds every
         * peer's whole buffer on every rank: keep their count small */
        bool square = op == CV_OP_ALLGATHER || op == CV_OP_ALLTOALL ||
                      op == CV_OP_REDUCESCATTER || op == CV_OP_GATHER || op == CV_OP_SCATTER ||
                      algo == CV_ALGO_ONE_SHOT;
        int64_t counts[] = {1, square ? 3 : 2 * (int64_t)n + 5};
        for (int ci = 0; ci < 2; ci++) {
            cv_spec s;
            cv_spec_init(&s);
            s.op = op;
            s.algo = algo;
            s.ranks = n;
            s.count = counts[ci];
            s.dtype = CV_INT32;
            s.root = cv_op_has_root(op) ? n / 3 : 0;
            s.slices = cv_algo_uses_slices(op, s.algo) ? 3 : 1;
            s.nodes = cv_algo_uses_nodes(op, s.algo) ? (ci ? 2 : 4) : 1;
            check_plan(&s);
            check_run(&s, CV_INIT_RANDOM);
        }
    }
}

/* One op and algorithm at every rank count 1..17, 32 and 64 and the counts
 * {0, 1, N-1, N, 7N+3}: every dtype and redop, random and index inputs,
 * in place, and visual runs up to 17 ranks and 64 elements. */
static void check_op_algo(int i)
{
    static const int ranks[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 32, 64};
    int nranks = (int)(sizeof ranks / sizeof ranks[0]);
    cv_op op = CV_OP_ALLREDUCE;
    cv_algo algo = CV_ALGO_RING;
    op_algo_at(i, &op, &algo);
    for (int ri = 0; ri < nranks; ri++) {
        int n = ranks[ri];
        int64_t counts[] = {0, 1, n - 1, n, 7 * (int64_t)n + 3};
        for (int ci = 0; ci < 5; ci++) {
            cv_spec s;
            cv_spec_init(&s);
            s.op = op;
            s.algo = algo;
            s.ranks = n;
            s.count = counts[ci];
            s.root = cv_op_has_root(op) ? (n * 5 / 7) % n : 0;
            s.slices = cv_algo_uses_slices(op, s.algo) ? 1 + ci % 4 : 1;
            if (cv_algo_uses_nodes(op, s.algo)) { /* one node, a few, one rank each */
                int div = 2;
                while (div <= n && n % div)
                    div++;
                s.nodes = ci % 3 == 0 ? 1 : ci % 3 == 1 ? (div <= n ? div : 1) : n;
            }
            check_plan(&s);
            for (int d = 0; d < CV_DTYPE_COUNT; d++)
                for (int r = 0; r < CV_REDOP_COUNT; r++) {
                    if (!cv_op_reduces(op) && r != CV_SUM)
                        continue;
                    if (cv_redop_is_bitwise(r) && cv_dtype_is_float(d))
                        continue;
                    s.dtype = d;
                    s.redop = r;
                    if (r == CV_AVG && !cv_dtype_is_float(d))
                        check_plan(&s); /* with the final divide step */
                    check_run(&s, CV_INIT_RANDOM);
                    if (d == CV_INT32 || d == CV_FLOAT64)
                        check_run(&s, CV_INIT_INDEX);
                    if ((d == CV_FLOAT32 || d == CV_INT32) && ci % 2 == 0)
                        check_in_place(&s);
                }
            s.dtype = CV_FLOAT32;
            s.redop = CV_SUM;
            if (n <= 17 && s.count <= 64)
                check_visual(&s);
        }
    }
}

/* --init nan: one NaN at element 0 of rank 2. Every op and algorithm
 * (sum, float32) still matches the reference, and the NaN lands exactly
 * where the op's semantics put rank 2's element 0 (rank 2 is the root),
 * counted here from the op alone: in every rank's result for allreduce,
 * allgather and broadcast, in one place for reduce, gather,
 * reducescatter (rank 0's share), scatter and alltoall (both send block 0
 * to rank 0). */
static int nan_places(const cv_spec *s)
{
    int nr = cv_init_nan_rank(s);
    switch (s->op) {
    case CV_OP_ALLREDUCE: case CV_OP_ALLGATHER: return s->ranks;
    case CV_OP_BROADCAST: return s->root == nr ? s->ranks : 0;
    case CV_OP_REDUCE: case CV_OP_GATHER: case CV_OP_REDUCESCATTER: return 1;
    case CV_OP_SCATTER: return s->root == nr ? 1 : 0; /* its block 0, to rank 0 */
    case CV_OP_ALLTOALL: return 1; /* block 0 of rank 2 goes to rank 0 */
    default: return -1;
    }
}

static void check_nan_spreads(int i)
{
    cv_op op;
    cv_algo algo;
    if (!op_algo_at(i, &op, &algo))
        return;
    static const int ranks[] = {1, 2, 3, 5, 8};
    for (size_t k = 0; k < sizeof ranks / sizeof ranks[0]; k++) {
        cv_spec s;
        cv_spec_init(&s);
        s.op = op;
        s.algo = algo;
        s.ranks = ranks[k];
        s.count = 7;
        s.root = cv_init_nan_rank(&s);
        char err[CV_ERR_LEN], what[160];
        describe(&s, what, sizeof what);
        cv_plan *p = NULL;
        if (cv_plan_create(&s, &p, err, sizeof err))
            continue; /* an algorithm that needs more ranks */
        cv_run_opts o;
        cv_run_opts_init(&o);
        o.init = CV_INIT_NAN;
        cv_trace *t = NULL;
        int rc = cv_run(p, cv_cpu_backend(), &o, &t, err, sizeof err);
        EXPECT(rc == CV_OK, "%s: run: %s", what, err);
        if (rc == CV_OK) {
            EXPECT(cv_trace_wrong(t) == 0, "%s: %lld wrong", what, (long long)cv_trace_wrong(t));
            int nans = 0;
            for (int r = 0; r < s.ranks; r++) {
                const void *out = cv_trace_output(t, r);
                for (int64_t e = 0; out && e < cv_spec_result_count(&s, r); e++)
                    nans += isnan(cv_value_get(s.dtype, out, e));
            }
            int want = nan_places(&s);
            EXPECT(want < 0 || nans == want, "%s: %d NaN in the results, expected %d", what, nans,
                   want);
        }
        cv_trace_destroy(t);
        cv_plan_destroy(p);
    }
    cv_spec s;
    cv_spec_init(&s);
    s.op = op;
    s.algo = algo;
    s.dtype = CV_INT32;
    char err[CV_ERR_LEN];
    EXPECT(cv_init_check(&s, CV_INIT_NAN, err, sizeof err) == CV_EINVAL && strstr(err, "int32"),
           "int32 refused: %s", err);
}

static const test_case cases[] = {
    CASE("volumes", check_volumes),
    CASE("overflow-nan", check_overflow_nan),
    CASE("format-exact", check_format_exact),
    CASE("format-compact", check_format_compact),
    CASE_EACH("", op_algo_name, check_op_algo),
    CASE("verify-reductions", check_verify_reductions),
    CASE("in-place-catches", check_in_place_catches),
    CASE_EACH("nan", op_algo_name, check_nan_spreads),
};

/* `--large`, a ctest of its own: 100, 1000 and 1024 ranks, and cv_verify
 * on results large enough to be checked on several threads. */
static const test_case large_cases[] = {
    CASE_EACH("", op_algo_name, check_large),
    CASE("verify-threads", check_verify_threads),
};

int main(int argc, char **argv)
{
    if (cases_flag(&argc, argv, "--large"))
        return CASES_MAIN(argc, argv, large_cases);
    return CASES_MAIN(argc, argv, cases);
}

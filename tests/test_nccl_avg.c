/*
 * test_nccl_avg.c: avg on floats, bit for bit as NCCL computes it.
 *
 * NCCL's ncclAvg on a float type is a pre-multiplied sum (hostToDevRedOp
 * in src/enqueue.cc): the scalar is 1.0/nRanks computed in double, rounded
 * to float, then to the dtype (__float2half(float(1.0/n)),
 * __float2bfloat16(float(1.0/n))), and every input is multiplied by it in
 * the dtype (FuncPreMulSum's preOp, __hmul) before the sum. This test
 * models that with its own rounding (frexp and rint, not the engine's
 * conversions) and checks the engine's pre-multiply for every finite
 * float16 and bfloat16 value at every rank count 1..64, then whole runs:
 * the three cases where a float 1/N gives another answer than NCCL
 * (100 vs 99.9375, 100 vs 100.5, 1.0078125 vs 1.0), and sums whose order
 * cannot matter (two ranks; inputs whose scaled values add exactly).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cv_internal.h"

/* Round v to the nearest value with `bits` significant bits and exponent
 * at least `emin` (subnormals), ties to even; the rounding mode is the
 * default one, so rint rounds ties to even. */
static double round_bits(double v, int bits, int emin)
{
    if (v == 0 || !isfinite(v))
        return v;
    int e;
    frexp(v, &e); /* v = m * 2^e, 0.5 <= |m| < 1 */
    if (e - 1 < emin)
        e = emin + 1;
    double q = ldexp(1.0, e - bits); /* the spacing of representable values */
    return rint(v / q) * q;
}

static double as_half(double v) { return round_bits(v, 11, -14); }
static double as_bf16(double v) { return round_bits(v, 8, -126); }

/* What NCCL's preOp gives for input x of the dtype on n ranks. */
static double nccl_premul(cv_dtype d, double x, int n)
{
    double (*rnd)(double) = d == CV_FLOAT16 ? as_half : as_bf16;
    double scalar = rnd((float)(1.0 / n));
    return rnd(x * scalar); /* the exact product, rounded once */
}

/* Every finite value of a 16-bit float type at every rank count. */
static void check_premultiply(cv_dtype d)
{
    uint16_t *in = malloc(65536 * sizeof *in), *out = malloc(65536 * sizeof *out);
    int n_in = 0;
    for (uint32_t u = 0; u < 65536; u++) {
        uint16_t h = (uint16_t)u;
        bool special = d == CV_FLOAT16 ? (h & 0x7c00u) == 0x7c00u : (h & 0x7f80u) == 0x7f80u;
        if (!special)
            in[n_in++] = h;
    }
    int before = failures;
    for (int n = 1; n <= 64; n++) {
        memcpy(out, in, (size_t)n_in * sizeof *in);
        cv__premultiply(d, out, n_in, n);
        for (int i = 0; i < n_in; i++) {
            double x = cv_value_get(d, in, i), got = cv_value_get(d, out, i);
            double want = nccl_premul(d, x, n);
            /* compare values (both are exact in double); keep the sign of zero */
            EXPECT(got == want && signbit(got) == signbit(want),
                   "%s x %g on %d ranks: %.17g, NCCL %.17g", cv_dtype_name(d), x, n, got, want);
            if (failures - before > 10)
                goto done;
        }
    }
done:
    printf("%-9s pre-multiply, every finite value, 1..64 ranks: %s\n", cv_dtype_name(d),
           failures == before ? "ok" : "FAILED");
    free(in);
    free(out);
}

/* Runs a spec on the CPU and returns rank `rank`'s result element `i`. */
static double run_one(const cv_spec *s, cv_init init, uint64_t seed, int rank, int64_t i,
                      int64_t *wrong)
{
    cv_plan *p = NULL;
    cv_trace *t = NULL;
    char err[CV_ERR_LEN];
    double v = NAN;
    if (cv_plan_create(s, &p, err, sizeof err) == CV_OK) {
        cv_run_opts o;
        cv_run_opts_init(&o);
        o.init = init;
        o.seed = seed;
        if (cv_run(p, cv_cpu_backend(), &o, &t, err, sizeof err) == CV_OK) {
            v = cv_value_get(s->dtype, cv_trace_output(t, rank), i);
            *wrong = cv_trace_wrong(t);
        }
    }
    EXPECT(t != NULL, "run: %s", err);
    cv_trace_destroy(t);
    cv_plan_destroy(p);
    return v;
}

static cv_spec avg_spec(cv_op op, cv_algo algo, int ranks, int64_t count, cv_dtype d)
{
    cv_spec s;
    cv_spec_init(&s);
    s.op = op;
    s.algo = algo;
    s.ranks = ranks;
    s.count = count;
    s.dtype = d;
    s.redop = CV_AVG;
    return s;
}

/* The three cases of the issue that reported the difference, as NCCL gives
 * them: a float 1/N would give 100, 100 and 1.0078125. */
static void check_known(void)
{
    int64_t wrong = -1;
    cv_spec s = avg_spec(CV_OP_ALLREDUCE, CV_ALGO_RING, 3, 1, CV_FLOAT16);
    double v = run_one(&s, CV_INIT_INDEX, 1, 0, 0, &wrong);
    EXPECT(v == 99.9375 && wrong == 0, "float16 avg of 0, 100, 200: %.17g, NCCL 99.9375", v);
    s.dtype = CV_BFLOAT16;
    v = run_one(&s, CV_INIT_INDEX, 1, 0, 0, &wrong);
    EXPECT(v == 100.5 && wrong == 0, "bfloat16 avg of 0, 100, 200: %.17g, NCCL 100.5", v);
    s = avg_spec(CV_OP_REDUCE, CV_ALGO_TREE, 3, 146, CV_BFLOAT16);
    s.root = 1;
    v = run_one(&s, CV_INIT_RANDOM, 2015038995, 1, 7, &wrong);
    EXPECT(v == 1.0 && wrong == 0, "bfloat16 avg of 8, -5, 0 (tree reduce): %.17g, NCCL 1.0", v);
    /* the model agrees on all three */
    EXPECT(nccl_premul(CV_FLOAT16, 100, 3) + nccl_premul(CV_FLOAT16, 200, 3) == 99.9375 &&
               nccl_premul(CV_BFLOAT16, 100, 3) + nccl_premul(CV_BFLOAT16, 200, 3) == 100.5 &&
               nccl_premul(CV_BFLOAT16, 8, 3) + nccl_premul(CV_BFLOAT16, -5, 3) == 1.0,
           "the model of NCCL's avg");
}

/* Whole runs whose sums no order can change: on two ranks a sum has one
 * addition; on a power of two the scaled small integers add exactly. Every
 * algorithm, every float dtype, both backends' arithmetic (CPU here). */
static void check_runs(void)
{
    static const cv_dtype dts[] = {CV_FLOAT16, CV_BFLOAT16, CV_FLOAT32, CV_FLOAT64};
    for (int di = 0; di < 4; di++)
        for (int n = 2; n <= 8; n *= 2) {
            cv_algo algos[CV_ALGO_COUNT];
            int na = cv_op_algos(CV_OP_ALLREDUCE, algos);
            for (int a = 0; a < na; a++) {
                cv_spec s = avg_spec(CV_OP_ALLREDUCE, algos[a], n, 5, dts[di]);
                cv_plan *p = NULL;
                cv_trace *t = NULL;
                char err[CV_ERR_LEN];
                cv_run_opts o;
                cv_run_opts_init(&o);
                o.init = CV_INIT_RANDOM;
                o.seed = 7;
                if (cv_plan_create(&s, &p, err, sizeof err) == CV_OK &&
                    cv_run(p, cv_cpu_backend(), &o, &t, err, sizeof err) == CV_OK) {
                    for (int64_t i = 0; i < s.count; i++) {
                        double want = 0;
                        for (int r = 0; r < n; r++) {
                            double x = cv_value_get(s.dtype, cv_trace_input(t, r), i);
                            want += dts[di] == CV_FLOAT16 || dts[di] == CV_BFLOAT16
                                        ? nccl_premul(dts[di], x, n)
                                        : x * (dts[di] == CV_FLOAT32 ? (double)(float)(1.0 / n)
                                                                     : 1.0 / n);
                        }
                        for (int r = 0; r < n; r++) {
                            double got = cv_value_get(s.dtype, cv_trace_output(t, r), i);
                            EXPECT(got == want, "%s %s avg on %d ranks, element %lld rank %d: "
                                   "%.17g, NCCL %.17g", cv_dtype_name(s.dtype),
                                   cv_algo_name(s.algo), n, (long long)i, r, got, want);
                        }
                    }
                } else {
                    EXPECT(0, "%s %s: %s", cv_dtype_name(s.dtype), cv_algo_name(s.algo), err);
                }
                cv_trace_destroy(t);
                cv_plan_destroy(p);
            }
        }
}

static void premultiply_float16(void) { check_premultiply(CV_FLOAT16); }
static void premultiply_bfloat16(void) { check_premultiply(CV_BFLOAT16); }

static const test_case cases[] = {
    CASE("premultiply/float16", premultiply_float16),
    CASE("premultiply/bfloat16", premultiply_bfloat16),
    CASE("known", check_known),
    CASE("runs", check_runs),
};

int main(int argc, char **argv) { return CASES_MAIN(argc, argv, cases); }

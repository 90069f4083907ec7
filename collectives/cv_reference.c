/*
 * cv_reference.c: what each op means, written as plainly as possible and
 * without looking at any plan, and the comparison of a backend's results
 * with it.
 *
 * Every result element of every rank is either a copy of one input element
 * (broadcast, scatter, gather, allgather, alltoall, sendrecv) or a reduction
 * over all ranks of one input index (reduce, allreduce, reducescatter).
 * Integer reductions wrap and are compared exactly: any order of a wrapping
 * sum gives the same bits. Float reductions depend on the order, so they
 * are computed in double here and compared within a bound that grows with
 * the rank count and the magnitude of what was summed. Large results are
 * checked on several threads, each with its own share of the elements, and
 * reductions a block of indices at a time with one plain loop per dtype
 * and redop (the same arithmetic, in the same order, as the element-wise
 * reference; not the backend's kernels).
 */
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <string.h>

#include "cv_internal.h"

/* Where result element i of rank r comes from, for the copying ops. */
static void copy_source(const cv_spec *s, int r, int64_t i, int *src_rank, int64_t *src_idx)
{
    int64_t c = s->count > 0 ? s->count : 1;
    switch (s->op) {
    case CV_OP_BROADCAST: *src_rank = s->root; *src_idx = i; break;
    case CV_OP_SCATTER: *src_rank = s->root; *src_idx = (int64_t)r * c + i; break;
    case CV_OP_GATHER:
    case CV_OP_ALLGATHER: *src_rank = (int)(i / c); *src_idx = i % c; break;
    case CV_OP_ALLTOALL: *src_rank = (int)(i / c); *src_idx = (int64_t)r * c + i % c; break;
    default: *src_rank = (r - 1 + s->ranks) % s->ranks; *src_idx = i; break; /* sendrecv */
    }
}

/* The input index that result element i of rank r reduces over. */
static int64_t reduce_index(const cv_spec *s, int r, int64_t i)
{
    return s->op == CV_OP_REDUCESCATTER ? (int64_t)r * s->count + i : i;
}

static int64_t int_get(cv_dtype d, const void *base, int64_t i)
{
    switch (d) {
    case CV_INT8: return ((const int8_t *)base)[i];
    case CV_INT32: return ((const int32_t *)base)[i];
    default: return ((const int64_t *)base)[i];
    }
}

static void int_set(cv_dtype d, void *base, int64_t i, uint64_t bits)
{
    switch (d) {
    case CV_INT8: ((int8_t *)base)[i] = (int8_t)(uint8_t)bits; break;
    case CV_INT32: ((int32_t *)base)[i] = (int32_t)(uint32_t)bits; break;
    default: ((int64_t *)base)[i] = (int64_t)bits; break;
    }
}

/* Integer reduction over ranks, in rank order, wrapping at the dtype's width. */
static void int_reduce(const cv_spec *s, const void *const *in, int64_t idx, void *out, int64_t o)
{
    uint64_t acc = 0;
    int64_t best = 0;
    for (int r = 0; r < s->ranks; r++) {
        int64_t x = int_get(s->dtype, in[r], idx);
        uint64_t u = (uint64_t)x;
        if (r == 0) {
            acc = u;
            best = x;
            continue;
        }
        switch (s->redop) {
        case CV_PROD: acc *= u; break;
        case CV_MIN: best = x < best ? x : best; break;
        case CV_MAX: best = x > best ? x : best; break;
        case CV_BAND: acc &= u; break;
        case CV_BOR: acc |= u; break;
        case CV_BXOR: acc ^= u; break;
        default: acc += u; break; /* sum, avg */
        }
    }
    if (s->redop == CV_MIN || s->redop == CV_MAX) {
        int_set(s->dtype, out, o, (uint64_t)best);
    } else if (s->redop == CV_AVG) {
        /* NCCL: sum in the dtype, then divide by N. */
        int_set(s->dtype, out, o, acc);
        int_set(s->dtype, out, o, (uint64_t)(int_get(s->dtype, out, o) / s->ranks));
    } else {
        int_set(s->dtype, out, o, acc);
    }
}

/* avg on floats: each input is first multiplied, in its own dtype, by 1/N
 * rounded to the dtype (NCCL's pre-multiplied sum). */
static double premultiplied(const cv_spec *s, double x)
{
    double scalar = cv__avg_scalar(s->dtype, s->ranks);
    if (s->dtype == CV_FLOAT64)
        return x * scalar;
    unsigned char tmp[8];
    cv__value_set(s->dtype, tmp, 0, (float)x * (float)scalar);
    return cv_value_get(s->dtype, tmp, 0);
}

typedef struct {
    double value; /* exact up to double rounding */
    double mag;   /* what the error bound scales with; 0 = must be exact */
    double peak;  /* the largest magnitude a partial result can reach in some order */
} float_expect;

static float_expect float_reduce(const cv_spec *s, const void *const *in, int64_t idx)
{
    float_expect e = {0, 0, 0};
    double nonzero = 1; /* product of the non-zero factors */
    for (int r = 0; r < s->ranks; r++) {
        double x = cv_value_get(s->dtype, in[r], idx);
        if (s->redop == CV_AVG)
            x = premultiplied(s, x);
        if (x != 0)
            nonzero *= fabs(x);
        if (r == 0) {
            e.value = x;
            e.mag = s->redop == CV_MIN || s->redop == CV_MAX ? 0 : fabs(x);
            continue;
        }
        switch (s->redop) {
        case CV_PROD: e.value *= x; e.mag *= fabs(x); break;
        case CV_MIN: e.value = x < e.value ? x : e.value; break;
        case CV_MAX: e.value = x > e.value ? x : e.value; break;
        default: e.value += x; e.mag += fabs(x); break;
        }
    }
    /* A product that meets its zero factor late may have overflowed first:
     * the non-zero factors bound every partial product. */
    e.peak = s->redop == CV_PROD ? nonzero : e.mag;
    return e;
}

void cv_reference(const cv_spec *s, const void *const *inputs, void **expected)
{
    size_t esz = cv_dtype_size(s->dtype);
    for (int r = 0; r < s->ranks; r++) {
        int64_t n = cv_spec_result_count(s, r);
        for (int64_t i = 0; i < n; i++) {
            if (!cv_op_reduces(s->op)) {
                int src;
                int64_t idx;
                copy_source(s, r, i, &src, &idx);
                memcpy((unsigned char *)expected[r] + (size_t)i * esz,
                       (const unsigned char *)inputs[src] + (size_t)idx * esz, esz);
            } else if (!cv_dtype_is_float(s->dtype)) {
                int_reduce(s, inputs, reduce_index(s, r, i), expected[r], i);
            } else {
                cv__value_set(s->dtype, expected[r], i,
                              float_reduce(s, inputs, reduce_index(s, r, i)).value);
            }
        }
    }
}

static bool float_ok(const cv_spec *s, double got, float_expect e)
{
    double tol = (s->ranks + 2) * cv__dtype_eps(s->dtype) * e.mag; /* 0 for min, max */
    if (fabs(got - e.value) <= tol)
        return true;
    /* Where the exact result (or a partial one) can leave the dtype's range,
     * different orders legitimately overflow differently: to inf, and for
     * prod to NaN where an overflowed partial product then meets a zero
     * (inf * 0), and for sum where partial sums overflow to opposite signs
     * (inf - inf). */
    double max = cv__dtype_max(s->dtype);
    bool may_overflow = !isfinite(e.value) || e.peak > max;
    return may_overflow && (!isfinite(got) || fabs(got) >= max);
}

/* The input indices a reducing op reduces over: count, or ranks x count
 * for reducescatter (each rank's share of its own). */
static int64_t reduce_indices(const cv_spec *s)
{
    return s->op == CV_OP_REDUCESCATTER ? (int64_t)s->ranks * s->count : s->count;
}

/* Wrong elements among [lo, hi) of rank r's result, for the ops that copy:
 * each element is compared with the one input element it comes from. */
static int64_t verify_copies(const cv_spec *s, const void *const *inputs,
                             const void *const *outputs, int r, int64_t lo, int64_t hi)
{
    size_t esz = cv_dtype_size(s->dtype);
    int64_t wrong = 0;
    for (int64_t i = lo; i < hi; i++) {
        const unsigned char *got = (const unsigned char *)outputs[r] + (size_t)i * esz;
        int src;
        int64_t idx;
        copy_source(s, r, i, &src, &idx);
        wrong += memcmp(got, (const unsigned char *)inputs[src] + (size_t)idx * esz, esz) != 0;
    }
    return wrong;
}

/* Blocks of input indices that verify_reductions reduces at a time: the
 * dtype's switch and the redop's are taken once per block and rank, and
 * the loops inside are plain typed ones. */
#define VERIFY_BLOCK 512

/* in[idx0 .. idx0 + m) of an integer dtype, sign-extended. */
static void load_ints(cv_dtype d, const void *base, int64_t idx0, int64_t m, int64_t *x)
{
    switch (d) {
    case CV_INT8: {
        const int8_t *p = (const int8_t *)base + idx0;
        for (int64_t k = 0; k < m; k++)
            x[k] = p[k];
        break;
    }
    case CV_INT32: {
        const int32_t *p = (const int32_t *)base + idx0;
        for (int64_t k = 0; k < m; k++)
            x[k] = p[k];
        break;
    }
    default: memcpy(x, (const int64_t *)base + idx0, (size_t)m * sizeof *x); break;
    }
}

/* The value of a wrapped uint64 at the dtype's width, sign-extended. */
static int64_t int_wrap(cv_dtype d, uint64_t u)
{
    switch (d) {
    case CV_INT8: return (int8_t)(uint8_t)u;
    case CV_INT32: return (int32_t)(uint32_t)u;
    default: return (int64_t)u;
    }
}

/* The same reduction as int_reduce, for indices [idx0, idx0 + m): want[k]
 * is the expected element, sign-extended. */
static void int_reduce_block(const cv_spec *s, const void *const *in, int64_t idx0, int64_t m,
                             int64_t *want)
{
    uint64_t acc[VERIFY_BLOCK];
    int64_t x[VERIFY_BLOCK];
    load_ints(s->dtype, in[0], idx0, m, want);
    for (int64_t k = 0; k < m; k++)
        acc[k] = (uint64_t)want[k];
    for (int r = 1; r < s->ranks; r++) {
        load_ints(s->dtype, in[r], idx0, m, x);
        switch (s->redop) {
        case CV_PROD: for (int64_t k = 0; k < m; k++) acc[k] *= (uint64_t)x[k]; break;
        case CV_MIN: for (int64_t k = 0; k < m; k++) want[k] = x[k] < want[k] ? x[k] : want[k]; break;
        case CV_MAX: for (int64_t k = 0; k < m; k++) want[k] = x[k] > want[k] ? x[k] : want[k]; break;
        case CV_BAND: for (int64_t k = 0; k < m; k++) acc[k] &= (uint64_t)x[k]; break;
        case CV_BOR: for (int64_t k = 0; k < m; k++) acc[k] |= (uint64_t)x[k]; break;
        case CV_BXOR: for (int64_t k = 0; k < m; k++) acc[k] ^= (uint64_t)x[k]; break;
        default: for (int64_t k = 0; k < m; k++) acc[k] += (uint64_t)x[k]; break; /* sum, avg */
        }
    }
    if (s->redop == CV_MIN || s->redop == CV_MAX)
        return;
    for (int64_t k = 0; k < m; k++)
        want[k] = int_wrap(s->dtype, acc[k]);
    if (s->redop == CV_AVG) /* NCCL: sum in the dtype, then divide by N */
        for (int64_t k = 0; k < m; k++)
            want[k] = int_wrap(s->dtype, (uint64_t)(want[k] / s->ranks));
}

/* in[idx0 .. idx0 + m) of a float dtype as doubles; with avg, each first
 * multiplied in its dtype by 1/N rounded to the dtype, as premultiplied()
 * does for one element. */
static void load_floats(const cv_spec *s, const void *base, int64_t idx0, int64_t m, bool avg,
                        double *x)
{
    float fs = avg ? (float)cv__avg_scalar(s->dtype, s->ranks) : 1.0f;
    switch (s->dtype) {
    case CV_FLOAT16: {
        const uint16_t *p = (const uint16_t *)base + idx0;
        for (int64_t k = 0; k < m; k++)
            x[k] = cv__f16_to_f32(p[k]);
        if (avg)
            for (int64_t k = 0; k < m; k++)
                x[k] = cv__f16_to_f32(cv__f32_to_f16((float)x[k] * fs));
        break;
    }
    case CV_BFLOAT16: {
        const uint16_t *p = (const uint16_t *)base + idx0;
        for (int64_t k = 0; k < m; k++)
            x[k] = cv__bf16_to_f32(p[k]);
        if (avg)
            for (int64_t k = 0; k < m; k++)
                x[k] = cv__bf16_to_f32(cv__f32_to_bf16((float)x[k] * fs));
        break;
    }
    case CV_FLOAT32: {
        const float *p = (const float *)base + idx0;
        if (avg)
            for (int64_t k = 0; k < m; k++)
                x[k] = (float)((float)p[k] * fs);
        else
            for (int64_t k = 0; k < m; k++)
                x[k] = p[k];
        break;
    }
    default: {
        const double *p = (const double *)base + idx0;
        double ds = avg ? cv__avg_scalar(s->dtype, s->ranks) : 1.0;
        if (avg)
            for (int64_t k = 0; k < m; k++)
                x[k] = p[k] * ds;
        else
            memcpy(x, p, (size_t)m * sizeof *x);
        break;
    }
    }
}

/* The same reduction as float_reduce, for indices [idx0, idx0 + m), in
 * the same order (rank 0 first) and so with the same bits. */
static void float_reduce_block(const cv_spec *s, const void *const *in, int64_t idx0, int64_t m,
                               float_expect *e)
{
    double value[VERIFY_BLOCK], mag[VERIFY_BLOCK], nonzero[VERIFY_BLOCK], x[VERIFY_BLOCK];
    bool avg = s->redop == CV_AVG, minmax = s->redop == CV_MIN || s->redop == CV_MAX;
    load_floats(s, in[0], idx0, m, avg, value);
    for (int64_t k = 0; k < m; k++) {
        mag[k] = minmax ? 0 : fabs(value[k]);
        nonzero[k] = value[k] != 0 ? fabs(value[k]) : 1;
    }
    for (int r = 1; r < s->ranks; r++) {
        load_floats(s, in[r], idx0, m, avg, x);
        if (s->redop == CV_PROD)
            for (int64_t k = 0; k < m; k++)
                nonzero[k] = x[k] != 0 ? nonzero[k] * fabs(x[k]) : nonzero[k];
        switch (s->redop) {
        case CV_PROD:
            for (int64_t k = 0; k < m; k++) {
                value[k] *= x[k];
                mag[k] *= fabs(x[k]);
            }
            break;
        case CV_MIN: for (int64_t k = 0; k < m; k++) value[k] = x[k] < value[k] ? x[k] : value[k]; break;
        case CV_MAX: for (int64_t k = 0; k < m; k++) value[k] = x[k] > value[k] ? x[k] : value[k]; break;
        default:
            for (int64_t k = 0; k < m; k++) {
                value[k] += x[k];
                mag[k] += fabs(x[k]);
            }
            break;
        }
    }
    for (int64_t k = 0; k < m; k++)
        e[k] = (float_expect){value[k], mag[k], s->redop == CV_PROD ? nonzero[k] : mag[k]};
}

/* Wrong result elements among those that reduce input indices [lo, hi).
 * Each index is reduced once, then compared with every result element that
 * holds it (allreduce: one per rank), so checking costs ranks x count, in
 * proportion to the data, not ranks^2 x count. Indices go a block at a
 * time; a block never crosses from one reducescatter rank's share into
 * the next. */
static int64_t verify_reductions(const cv_spec *s, const void *const *inputs,
                                 const void *const *outputs, int64_t lo, int64_t hi)
{
    bool is_float = cv_dtype_is_float(s->dtype), rs = s->op == CV_OP_REDUCESCATTER;
    int64_t c = s->count > 0 ? s->count : 1, wrong = 0;
    float_expect e[VERIFY_BLOCK];
    int64_t want[VERIFY_BLOCK], got_i[VERIFY_BLOCK];
    double got_f[VERIFY_BLOCK];
    double tol_scale = (s->ranks + 2) * cv__dtype_eps(s->dtype);
    for (int64_t idx0 = lo; idx0 < hi;) {
        int64_t end = idx0 + VERIFY_BLOCK < hi ? idx0 + VERIFY_BLOCK : hi;
        if (rs && end > (idx0 / c + 1) * c)
            end = (idx0 / c + 1) * c;
        int64_t m = end - idx0;
        if (is_float)
            float_reduce_block(s, inputs, idx0, m, e);
        else
            int_reduce_block(s, inputs, idx0, m, want);
        /* reducescatter: index idx is element idx % count of rank idx / count */
        int r0 = rs ? (int)(idx0 / c) : 0, r1 = rs ? r0 + 1 : s->ranks;
        int64_t i0 = rs ? idx0 % c : idx0;
        for (int r = r0; r < r1; r++) {
            int64_t n = cv_spec_result_count(s, r) - i0;
            n = n < m ? n : m;
            if (n <= 0)
                continue;
            if (!is_float) {
                load_ints(s->dtype, outputs[r], i0, n, got_i);
                for (int64_t k = 0; k < n; k++)
                    wrong += got_i[k] != want[k];
                continue;
            }
            load_floats(s, outputs[r], i0, n, false, got_f);
            for (int64_t k = 0; k < n; k++) {
                /* the common case inline, every other through float_ok */
                if (fabs(got_f[k] - e[k].value) <= tol_scale * e[k].mag)
                    continue;
                wrong += !float_ok(s, got_f[k], e[k]);
            }
        }
        idx0 = end;
    }
    return wrong;
}

/* Large results are checked by several threads, each taking the same
 * share of every rank's elements: checking 8 ranks of 1 GiB one element at
 * a time would take minutes. */
typedef struct {
    const cv_spec *s;
    const void *const *inputs, *const *outputs;
    int part, parts;
    int64_t wrong;
} verify_job;

static void *verify_part(void *arg)
{
    verify_job *j = (verify_job *)arg;
    const cv_spec *s = j->s;
    if (cv_op_reduces(s->op)) {
        int64_t n = reduce_indices(s);
        j->wrong += verify_reductions(s, j->inputs, j->outputs, n * j->part / j->parts,
                                      n * (j->part + 1) / j->parts);
        return NULL;
    }
    for (int r = 0; r < s->ranks; r++) {
        int64_t n = cv_spec_result_count(s, r);
        j->wrong += verify_copies(s, j->inputs, j->outputs, r, n * j->part / j->parts,
                                  n * (j->part + 1) / j->parts);
    }
    return NULL;
}

int64_t cv_verify(const cv_spec *s, const void *const *inputs, const void *const *outputs)
{
    int64_t total = 0;
    for (int r = 0; r < s->ranks; r++) {
        int64_t n = cv_spec_result_count(s, r);
        if (n > 0 && !outputs[r])
            return n; /* a missing result is all wrong */
        total += n;
    }
    enum { MAX_PARTS = 64 };
    int parts = total < ((int64_t)1 << 20) ? 1 : cv_cpu_threads();
    if (parts > MAX_PARTS)
        parts = MAX_PARTS;
    verify_job jobs[MAX_PARTS];
    pthread_t tid[MAX_PARTS];
    bool started[MAX_PARTS] = {false};
    for (int p = 0; p < parts; p++) {
        jobs[p] = (verify_job){s, inputs, outputs, p, parts, 0};
        if (p > 0)
            started[p] = pthread_create(&tid[p], NULL, verify_part, &jobs[p]) == 0;
    }
    verify_part(&jobs[0]);
    int64_t wrong = jobs[0].wrong;
    for (int p = 1; p < parts; p++) {
        if (started[p])
            pthread_join(tid[p], NULL);
        else
            verify_part(&jobs[p]); /* no thread to be had: this one does it */
        wrong += jobs[p].wrong;
    }
    return wrong;
}

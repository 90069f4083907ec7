/*
 * cv_trace.c: executing a plan on a backend and recording what happened.
 *
 * cv_run writes the inputs, runs the plan (warmup and timed iterations for
 * benchmarks), reads the results back and verifies them against the
 * reference. In visual mode it runs once and, after every step, reads back
 * exactly the regions that step wrote: the trace keeps the initial buffers
 * plus these per-step deltas, which costs memory in proportion to the data
 * moved rather than to (steps x buffers).
 *
 * A cv_state replays deltas to show any point of the run: forward by
 * applying the next steps, backward by replaying from the start. Provenance
 * masks and "last changed" steps are derived during replay from the plan
 * itself, so they are the same whichever backend produced the values.
 */
#include <math.h>
#include <string.h>
#include <time.h>

#include "cv_internal.h"

#define VISUAL_LIMIT_BYTES ((int64_t)256 << 20)

struct cv_trace {
    const cv_plan *plan;
    const char *backend;
    bool visual;
    double *step_seconds;
    double total_seconds;
    void **inputs, **outputs; /* per rank; NULL where unused */
    int64_t wrong;
    /* visual mode */
    int64_t *lens;          /* [rank * CV_BUF_COUNT + buf] */
    unsigned char **init;   /* initial contents, as the backend holds them */
    int64_t *delta_off;     /* per step, byte offset into delta; nsteps + 1 */
    unsigned char *delta;
};

struct cv_state {
    const cv_trace *t;
    int step;
    unsigned char **vals;
    uint64_t **masks;
    int32_t **last;
};

void cv_run_opts_init(cv_run_opts *o)
{
    memset(o, 0, sizeof *o);
    o->init = CV_INIT_INDEX;
    o->seed = 1;
    o->iterations = 1;
    o->verify = true;
}

static int64_t buf_len(const cv_plan *p, int rank, int buf)
{
    return cv_plan_buf_count(p, (cv_buf)buf, rank);
}

int cv_visual_check(const cv_plan *plan, char *err, size_t errlen)
{
    const cv_spec *s = &plan->spec;
    if (s->ranks > CV_MAX_VISUAL_RANKS) {
        snprintf(err, errlen, "visual mode shows at most %d ranks, not %d", CV_MAX_VISUAL_RANKS,
                 s->ranks);
        return CV_ETOOBIG;
    }
    int64_t need = cv__visual_bytes(plan);
    if (need > VISUAL_LIMIT_BYTES) {
        snprintf(err, errlen, "recording every step of %s %s with %d ranks x %lld elements "
                              "needs %lld MiB (limit %lld MiB); lower --count or --ranks",
                 cv_op_name(s->op), cv_algo_name(s->algo), s->ranks, (long long)s->count,
                 (long long)(need >> 20), (long long)(VISUAL_LIMIT_BYTES >> 20));
        return CV_ETOOBIG;
    }
    return CV_OK;
}

int cv_run(const cv_plan *plan, const cv_backend *be, const cv_run_opts *opts, cv_trace **out,
           char *err, size_t errlen)
{
    const cv_spec *s = &plan->spec;
    cv_run_opts o;
    if (opts)
        o = *opts;
    else
        cv_run_opts_init(&o);
    if (o.iterations < 1)
        o.iterations = 1;
    if (o.warmup < 0)
        o.warmup = 0;
    *out = NULL;
    if (o.visual) {
        int vrc = cv_visual_check(plan, err, errlen);
        if (vrc)
            return vrc;
        o.iterations = 1;
        o.warmup = 0;
    }
    int rc = o.inputs ? CV_OK : cv_init_check(s, o.init, err, errlen);
    if (rc)
        return rc;
    rc = be->probe(err, errlen);
    if (rc)
        return rc;
    rc = cv_run_check_memory(plan, be, &o, err, errlen);
    if (rc)
        return rc;
    void *st = NULL;
    rc = be->open(plan, &st, err, errlen);
    if (rc)
        return rc;

    size_t esz = cv_dtype_size(s->dtype);
    int n = s->ranks, nb = cv_plan_parts(plan) * CV_BUF_COUNT;
    cv_trace *t = cv__xcalloc(1, sizeof *t);
    t->plan = plan;
    t->backend = be->name;
    t->visual = o.visual;
    t->step_seconds = cv__xcalloc((size_t)plan->nsteps + 1, sizeof *t->step_seconds);
    t->inputs = cv__xcalloc((size_t)n, sizeof *t->inputs);
    t->outputs = cv__xcalloc((size_t)n, sizeof *t->outputs);

    /* A backend of several processes (cv_backend.holds): this one's own
     * ranks, and whether it is the one that gathers and checks. */
#define HERE(r) (!be->holds || be->holds(st, (r)))
    bool checker = HERE(0);
    bool premul = cv__avg_premultiplies(s);       /* NCCL's avg on floats */
    bool direct = cv__run_in_place(plan, be, &o); /* inputs and results in the backend's memory */
    void *scaled = NULL;
    for (int r = 0; r < n && !rc; r++) {
        int64_t cnt = cv_spec_buf_count(s, CV_BUF_SEND, r);
        if (!cnt)
            continue;
        if (direct) {
            cv_fill_input(s, o.init, o.seed, r, be->view(st, r, CV_BUF_SEND));
            continue;
        }
        if (!HERE(r) && !checker)
            continue;
        t->inputs[r] = cv__xmalloc_big((size_t)cnt * esz);
        if (o.inputs) /* the user's own values */
            memcpy(t->inputs[r], o.inputs[r], (size_t)cnt * esz);
        else
            cv_fill_input(s, o.init, o.seed, r, t->inputs[r]);
        const void *src = t->inputs[r];
        if (premul) { /* NCCL's avg on floats: inputs pre-multiplied by 1/N */
            scaled = cv__xrealloc(scaled, (size_t)cnt * esz);
            memcpy(scaled, t->inputs[r], (size_t)cnt * esz);
            cv__premultiply(s->dtype, scaled, cnt, n);
            src = scaled;
        }
        if (HERE(r))
            rc = be->write(st, r, CV_BUF_SEND, 0, cnt, src, err, errlen);
    }
    free(scaled);

    if (!rc && o.visual) {
        t->lens = cv__xcalloc((size_t)nb, sizeof *t->lens);
        t->init = cv__xcalloc((size_t)nb, sizeof *t->init);
        for (int i = 0; i < nb && !rc; i++) {
            t->lens[i] = buf_len(plan, i / CV_BUF_COUNT, i % CV_BUF_COUNT);
            t->init[i] = cv__xcalloc((size_t)t->lens[i] + 1, esz);
            if (checker || HERE(i / CV_BUF_COUNT))
                rc = be->read(st, i / CV_BUF_COUNT, i % CV_BUF_COUNT, 0, t->lens[i], t->init[i],
                              err, errlen);
        }
        int64_t moved = 0;
        t->delta_off = cv__xcalloc((size_t)plan->nsteps + 1, sizeof *t->delta_off);
        for (int k = 0; k < plan->nsteps; k++) {
            t->delta_off[k] = moved * (int64_t)esz;
            for (int64_t i = 0; i < plan->steps[k].count; i++)
                moved += plan->transfers[plan->steps[k].first + i].count;
        }
        t->delta_off[plan->nsteps] = moved * (int64_t)esz;
        t->delta = cv__xmalloc((size_t)moved * esz + 1);
    }

    int total_iters = o.warmup + o.iterations;
    bool whole = !o.visual && be->run_all; /* every step at once, one wait */
    double *each = whole ? cv__xcalloc((size_t)plan->nsteps + 1, sizeof *each) : NULL;
    for (int it = 0; it < total_iters && !rc; it++) {
        bool timed = it >= o.warmup;
        double t0 = cv_now_seconds();
        if (whole) {
            rc = be->run_all(st, each, err, errlen);
            for (int k = 0; timed && !rc && k < plan->nsteps; k++)
                t->step_seconds[k] += each[k] / o.iterations;
        }
        for (int k = 0; !whole && k < plan->nsteps && !rc; k++) {
            double sec = 0;
            rc = be->run_step(st, k, &sec, err, errlen);
            if (timed)
                t->step_seconds[k] += sec / o.iterations;
            if (o.on_step)
                o.on_step(o.progress_user, k + 1, plan->nsteps);
            if (rc || !o.visual)
                continue;
            unsigned char *d = t->delta + t->delta_off[k];
            for (int64_t i = 0; i < plan->steps[k].count && !rc; i++) {
                const cv_transfer *x = &plan->transfers[plan->steps[k].first + i];
                if (checker || HERE(x->dst))
                    rc = be->read(st, x->dst, x->dst_buf, x->dst_off, x->count, d, err, errlen);
                d += (size_t)x->count * esz;
            }
        }
        if (timed)
            t->total_seconds += (cv_now_seconds() - t0) / o.iterations;
        if (o.progress)
            o.progress(o.progress_user, it + 1, total_iters);
    }
    free(each);

    if (!rc && o.verify && direct) {
        if (o.on_step)
            o.on_step(o.progress_user, -1, plan->nsteps);
        const void **in = cv__xcalloc((size_t)n, sizeof *in);
        const void **res = cv__xcalloc((size_t)n, sizeof *res);
        for (int r = 0; r < n; r++) {
            in[r] = cv_spec_buf_count(s, CV_BUF_SEND, r) ? be->view(st, r, CV_BUF_SEND) : NULL;
            res[r] = cv_spec_buf_count(s, CV_BUF_RECV, r) ? be->view(st, r, CV_BUF_RECV) : NULL;
        }
        t->wrong = cv_verify(s, in, res);
        free(in);
        free(res);
    }
    if (!rc && !direct && (o.verify || o.visual)) {
        for (int r = 0; r < n && !rc; r++) {
            int64_t cnt = cv_spec_buf_count(s, CV_BUF_RECV, r);
            if (!cnt || (!checker && !HERE(r)))
                continue;
            t->outputs[r] = cv__xmalloc_big((size_t)cnt * esz);
            rc = be->read(st, r, CV_BUF_RECV, 0, cnt, t->outputs[r], err, errlen);
        }
    }
    be->close(st);
    if (rc) {
        cv_trace_destroy(t);
        return rc < 0 ? rc : CV_EBACKEND;
    }
    if (o.verify && !direct && o.on_step)
        o.on_step(o.progress_user, -1, plan->nsteps);
    if (o.verify && !direct && checker)
        t->wrong = cv_verify(s, (const void *const *)t->inputs, (const void *const *)t->outputs);
#undef HERE
    if (o.discard && !o.visual)
        for (int r = 0; r < n; r++) {
            free(t->inputs[r]);
            free(t->outputs[r]);
            t->inputs[r] = t->outputs[r] = NULL;
        }
    *out = t;
    return CV_OK;
}

void cv_trace_destroy(cv_trace *t)
{
    if (!t)
        return;
    int n = t->plan->spec.ranks;
    for (int r = 0; r < n; r++) {
        free(t->inputs[r]);
        free(t->outputs[r]);
    }
    if (t->init)
        for (int i = 0; i < cv_plan_parts(t->plan) * CV_BUF_COUNT; i++)
            free(t->init[i]);
    free(t->init);
    free(t->lens);
    free(t->delta_off);
    free(t->delta);
    free(t->inputs);
    free(t->outputs);
    free(t->step_seconds);
    free(t);
}

const cv_plan *cv_trace_plan(const cv_trace *t) { return t->plan; }
const char *cv_trace_backend(const cv_trace *t) { return t->backend; }
bool cv_trace_visual(const cv_trace *t) { return t->visual; }
double cv_trace_total_seconds(const cv_trace *t) { return t->total_seconds; }
int64_t cv_trace_wrong(const cv_trace *t) { return t->wrong; }

int cv_trace_set_step_seconds(cv_trace *t, const double *seconds, int n)
{
    if (!t || !seconds || n != t->plan->nsteps)
        return CV_EINVAL;
    for (int k = 0; k < n; k++)
        if (!(seconds[k] >= 0) || !isfinite(seconds[k]))
            return CV_EINVAL;
    memcpy(t->step_seconds, seconds, (size_t)n * sizeof *seconds);
    return CV_OK;
}

double cv_trace_step_seconds(const cv_trace *t, int step)
{
    return step >= 0 && step < t->plan->nsteps ? t->step_seconds[step] : 0;
}

const void *cv_trace_input(const cv_trace *t, int rank)
{
    return rank >= 0 && rank < t->plan->spec.ranks ? t->inputs[rank] : NULL;
}

const void *cv_trace_output(const cv_trace *t, int rank)
{
    return rank >= 0 && rank < t->plan->spec.ranks ? t->outputs[rank] : NULL;
}

/* ------------------------------------------------------------------ state */

static void state_reset(cv_state *s)
{
    const cv_trace *t = s->t;
    size_t esz = cv_dtype_size(t->plan->spec.dtype);
    for (int i = 0; i < cv_plan_parts(t->plan) * CV_BUF_COUNT; i++) {
        int64_t n = t->lens[i];
        int part = i / CV_BUF_COUNT; /* a switch, after the ranks, has no SEND */
        uint64_t m = i % CV_BUF_COUNT == CV_BUF_SEND && part < 64 ? (uint64_t)1 << part : 0;
        memcpy(s->vals[i], t->init[i], (size_t)n * esz);
        for (int64_t e = 0; e < n; e++) {
            s->masks[i][e] = m;
            s->last[i][e] = -1;
        }
    }
    s->step = 0;
}

int cv_state_create(const cv_trace *t, cv_state **out)
{
    *out = NULL;
    if (!t->visual)
        return CV_EINVAL;
    int nb = cv_plan_parts(t->plan) * CV_BUF_COUNT;
    size_t esz = cv_dtype_size(t->plan->spec.dtype);
    cv_state *s = cv__xcalloc(1, sizeof *s);
    s->t = t;
    s->vals = cv__xcalloc((size_t)nb, sizeof *s->vals);
    s->masks = cv__xcalloc((size_t)nb, sizeof *s->masks);
    s->last = cv__xcalloc((size_t)nb, sizeof *s->last);
    for (int i = 0; i < nb; i++) {
        s->vals[i] = cv__xcalloc((size_t)t->lens[i] + 1, esz);
        s->masks[i] = cv__xcalloc((size_t)t->lens[i] + 1, sizeof(uint64_t));
        s->last[i] = cv__xcalloc((size_t)t->lens[i] + 1, sizeof(int32_t));
    }
    state_reset(s);
    *out = s;
    return CV_OK;
}

void cv_state_destroy(cv_state *s)
{
    if (!s)
        return;
    for (int i = 0; i < cv_plan_parts(s->t->plan) * CV_BUF_COUNT; i++) {
        free(s->vals[i]);
        free(s->masks[i]);
        free(s->last[i]);
    }
    free(s->vals);
    free(s->masks);
    free(s->last);
    free(s);
}

static void state_apply(cv_state *s, int k)
{
    const cv_plan *p = s->t->plan;
    size_t esz = cv_dtype_size(p->spec.dtype);
    const unsigned char *d = s->t->delta + s->t->delta_off[k];
    for (int64_t i = 0; i < p->steps[k].count; i++) {
        const cv_transfer *x = &p->transfers[p->steps[k].first + i];
        int di = x->dst * CV_BUF_COUNT + x->dst_buf, si = x->src * CV_BUF_COUNT + x->src_buf;
        uint64_t *dm = s->masks[di] + x->dst_off;
        const uint64_t *sm = s->masks[si] + x->src_off;
        /* reduce-copy: the receiver's own operand; a reduce: dst itself */
        const uint64_t *lm = x->kind == CV_XFER_REDUCE_COPY
                                 ? s->masks[x->dst * CV_BUF_COUNT + x->local_buf] + x->local_off
                                 : dm;
        for (int64_t e = 0; e < x->count; e++) {
            dm[e] = x->kind == CV_XFER_COPY ? sm[e] : lm[e] | sm[e];
            s->last[di][x->dst_off + e] = k;
        }
        memcpy(s->vals[di] + (size_t)x->dst_off * esz, d, (size_t)x->count * esz);
        d += (size_t)x->count * esz;
    }
}

void cv_state_seek(cv_state *s, int k)
{
    int nsteps = s->t->plan->nsteps;
    k = k < 0 ? 0 : k > nsteps ? nsteps : k;
    if (k < s->step)
        state_reset(s);
    while (s->step < k)
        state_apply(s, s->step++);
}

int cv_state_step(const cv_state *s) { return s->step; }

cv_bufview cv_state_buf(const cv_state *s, int rank, cv_buf buf)
{
    cv_bufview v = {0};
    if (rank < 0 || rank >= cv_plan_parts(s->t->plan) || (unsigned)buf >= CV_BUF_COUNT)
        return v;
    int i = rank * CV_BUF_COUNT + buf;
    v.values = s->vals[i];
    v.masks = s->masks[i];
    v.last_changed = s->last[i];
    v.count = s->t->lens[i];
    return v;
}

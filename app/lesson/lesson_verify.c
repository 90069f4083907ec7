/*
 * lesson_verify.c: checks predict-value answers against the engine itself.
 * Each setup a predict-value quiz uses is run once on the CPU backend in
 * visual mode, exactly as the stage will show it (same init and seed), and
 * the trace is sought to the state after the beat's next step. An answer
 * in a lesson file is thus never trusted: if a plan generator changes, the
 * validator says which quiz went stale.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "lesson_walk.h"

/* Integers compare exactly; floats within a relative 1e-6 (half and
 * bfloat16 values are small integers in lessons, so this is ample). */
static bool same_value(cv_dtype dtype, double a, double b)
{
    if (!cv_dtype_is_float(dtype))
        return a == b;
    double scale = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
    return fabs(a - b) <= 1e-6 * (scale > 1 ? scale : 1);
}

static void fmt_value(char *out, size_t n, double v)
{
    snprintf(out, n, "%.6g", v);
}

static void check_setup(lesson__ctx *c, int setup)
{
    const cv_plan *plan = c->plans[setup];
    const lesson_setup *s = &c->setups[setup];
    cv_run_opts opts;
    cv_run_opts_init(&opts);
    opts.init = s->init;
    opts.seed = s->seed;
    opts.visual = true;
    opts.iterations = 1;
    opts.warmup = 0;
    char err[CV_ERR_LEN];
    cv_trace *trace = NULL;
    cv_state *state = NULL;
    size_t first_off = 0;
    for (int i = 0; i < c->npending; i++) {
        if (c->pending[i].setup == setup) {
            first_off = c->pending[i].answer_off;
            break;
        }
    }
    if (cv_run(plan, cv_cpu_backend(), &opts, &trace, err, sizeof err) != CV_OK) {
        lesson__err(c, first_off, "cannot run this setup to check the quiz: %s", err);
        goto done;
    }
    if (cv_state_create(trace, &state) != CV_OK) {
        lesson__err(c, first_off, "cannot read the trace to check the quiz");
        goto done;
    }
    for (int i = 0; i < c->npending; i++) {
        const lesson__pending *p = &c->pending[i];
        if (p->setup != setup)
            continue;
        const lesson_quiz *q = p->quiz;
        cv_state_seek(state, p->step + 1);
        cv_bufview view = cv_state_buf(state, q->rank, q->buf);
        if (q->index >= view.count || !view.values) {
            lesson__err(c, p->answer_off, "the trace has no rank %d %s[%lld] after step %d", q->rank,
                        cv_buf_name(q->buf), (long long)q->index, p->step + 1);
            continue;
        }
        double actual = cv_value_get(plan->spec.dtype, view.values, q->index);
        char have[32], given[32];
        fmt_value(have, sizeof have, actual);
        if (!same_value(plan->spec.dtype, actual, q->options[q->answer])) {
            fmt_value(given, sizeof given, q->options[q->answer]);
            lesson__err(c, p->answer_off,
                        "the trace holds %s at rank %d %s[%lld] after step %d; options[%d] is %s",
                        have, q->rank, cv_buf_name(q->buf), (long long)q->index, p->step + 1,
                        q->answer, given);
            continue;
        }
        for (int k = 0; k < q->noptions; k++) {
            if (k != q->answer && same_value(plan->spec.dtype, actual, q->options[k]))
                lesson__err(c, p->answer_off,
                            "options[%d] also matches the traced value %s; expected exactly one "
                            "right option",
                            k, have);
        }
    }
done:
    cv_state_destroy(state);
    cv_trace_destroy(trace);
}

void lesson__check_traces(lesson__ctx *c)
{
    for (int s = 0; s < c->nsetups; s++) {
        if (!c->plans[s])
            continue;
        for (int i = 0; i < c->npending; i++) {
            if (c->pending[i].setup == s) {
                check_setup(c, s);
                break;
            }
        }
    }
}

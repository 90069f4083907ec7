/*
 * show_model.c: the cost model's prediction for a bench result, and the
 * result as a text table (show.h).
 *
 * The prediction is not a formula restated here: each row's plan is built
 * again from the file's op, algorithm, ranks and dtype at that row's size,
 * exactly as bench built it, and priced by cv_cost_plan, so the dashed
 * line is what `collviz cost` would say for each size.
 */
#include <stdlib.h>
#include <string.h>

#include "show.h"

const cv_link *show_default_link(const char *backend)
{
    if (backend && (!strcmp(backend, "cuda") || !strcmp(backend, "nccl")))
        return cv_link_find("nvlink4");
    return NULL;
}

int show_model(show_result *r, const cv_link *link, char *err, size_t errlen)
{
    cv_spec spec = r->spec;
    /* bench's size is the whole buffer; for the per-rank ops it counts
     * every rank's share (the same test bench itself makes). */
    bool per_rank = cv_op_bench_per_rank(spec.op);
    double unit = (double)cv_spec_bench_unit(&spec);
    for (int i = 0; i < r->nrows; i++) {
        show_row *w = &r->rows[i];
        double count = w->size / unit;
        if (count != (double)(int64_t)count) {
            snprintf(err, errlen, "%s: results[%d].size %.0f is not a whole number of %s%s "
                     "elements, so its plan cannot be rebuilt for the model", r->path, i,
                     w->size, per_rank ? "ranks x " : "", cv_dtype_name(spec.dtype));
            return CV_EINVAL;
        }
        spec.count = (int64_t)count;
        char why[CV_ERR_LEN];
        cv_plan *plan = NULL;
        if (cv_plan_build(&spec, &plan, why, sizeof why) != CV_OK) {
            snprintf(err, errlen, "%s: results[%d]: %s", r->path, i, why);
            return CV_EINVAL;
        }
        cv_cost cost;
        cv_cost_plan(plan, link, &cost);
        cv_plan_destroy(plan);
        w->model_us = cost.seconds * 1e6;
        w->model_busbw = cost.busbw / 1e9;
    }
    return CV_OK;
}

void show_title(const show_result *r, char *out, size_t outlen)
{
    const cv_spec *s = &r->spec;
    char root[24] = "", redop[24] = "";
    if (cv_op_has_root(s->op))
        snprintf(root, sizeof root, ", root %d", s->root);
    if (cv_op_reduces(s->op))
        snprintf(redop, sizeof redop, " %s", cv_redop_name(s->redop));
    /* nccl picks its own algorithm; the file's algo is only what the model
     * prices, so the title must not claim NCCL ran it. */
    bool nccl = !strcmp(r->backend, "nccl");
    snprintf(out, outlen, "%s %s, %d ranks%s, %s%s, backend %s", cv_op_title(s->op),
             nccl ? "(NCCL's algorithm)" : cv_algo_name(s->algo), s->ranks, root,
             cv_dtype_name(s->dtype), redop, r->backend);
}

void show_print_table(FILE *out, const show_result *r, const char *model_about)
{
    char title[256];
    show_title(r, title, sizeof title);
    bool model = r->nrows > 0 && r->rows[0].model_busbw >= 0;
    fprintf(out, "# %s: %s", r->path, title);
    if (r->iters >= 0)
        fprintf(out, ", %ld iterations after %ld warmup", r->iters, r->warmup >= 0 ? r->warmup : 0);
    fprintf(out, "\n# model: %s\n", model_about);
    fprintf(out, "# %12s %12s %11s %9s %9s %7s", "size", "count", "time", "algbw", "busbw",
            "#wrong");
    if (model)
        fprintf(out, " %11s %9s", "model time", "model bus");
    fprintf(out, "\n# %12s %12s %11s %9s %9s %7s", "(B)", "(elements)", "(us)", "(GB/s)",
            "(GB/s)", "");
    if (model)
        fprintf(out, " %11s %9s", "(us)", "(GB/s)");
    fputc('\n', out);
    for (int i = 0; i < r->nrows; i++) {
        const show_row *w = &r->rows[i];
        char count[24], wrong[24];
        snprintf(count, sizeof count, w->count >= 0 ? "%.0f" : "-", w->count);
        snprintf(wrong, sizeof wrong, w->wrong >= 0 ? "%.0f" : "N/A", w->wrong);
        fprintf(out, "  %12.0f %12s %11.1f %9.2f %9.2f %7s", w->size, count, w->time_us,
                w->algbw, w->busbw, wrong);
        if (model)
            fprintf(out, " %11.1f %9.2f", w->model_us, w->model_busbw);
        fputc('\n', out);
    }
}

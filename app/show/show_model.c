/*
 * show_model.c: the cost model's prediction for a bench result, and the
 * result as a text table (show.h).
 *
 * The prediction is not a formula restated here: each row's plan is built
 * again from the file's op, algorithm, ranks and dtype at that row's size,
 * exactly as bench built it, and priced by cv_cost_plan, so the dashed
 * line is what `collviz cost` would say for each size; where pricing every
 * row would take more than a couple of seconds, it is priced at sizes
 * spread over the rows, and the line runs through those.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "show.h"

const cv_link *show_default_link(const char *backend)
{
    if (backend && (!strcmp(backend, "cuda") || !strcmp(backend, "nccl")))
        return cv_link_find("nvlink4");
    return NULL;
}

/* GPU names as nccl-tests' Rank lines print them, and the links their
 * machines have: the first match in the name wins, so "H100 PCIe" reads
 * as PCIe before "H100" reads as NVLink. */
const cv_link *show_gpu_link(const char *gpu, const cv_link **inter, char *why, size_t len)
{
    static const struct {
        const char *key, *intra, *inter;
    } map[] = {
        {"PCIe", "pcie4", "ib-hdr"},    {"PCIE", "pcie4", "ib-hdr"},   {"RTX", "pcie4", "eth100"},
        {"GeForce", "pcie4", "eth100"}, {"A100", "nvlink3", "ib-hdr"}, {"A800", "nvlink3", "ib-hdr"},
        {"H100", "nvlink4", "ib-ndr"},  {"H800", "nvlink4", "ib-ndr"}, {"H200", "nvlink4", "ib-ndr"},
        {"H20", "nvlink4", "ib-ndr"},   {"L40", "pcie4", "ib-hdr"},    {"L4", "pcie4", "eth100"},
        {"A10", "pcie4", "eth100"},     {"A40", "pcie4", "ib-hdr"},    {"T4", "pcie4", "eth100"},
    };
    *inter = NULL;
    if (!gpu || !*gpu)
        return NULL;
    for (size_t i = 0; i < sizeof map / sizeof *map; i++) {
        if (!strstr(gpu, map[i].key))
            continue;
        *inter = cv_link_find(map[i].inter);
        snprintf(why, len, "%s for the %s named in the file", map[i].intra, map[i].key);
        return cv_link_find(map[i].intra);
    }
    return NULL;
}

/* Pricing a row builds its plan: a 1024-rank pairwise alltoall is a
 * million transfers a plan, and a file of 4096 such rows took fourteen
 * minutes. So the first row is priced and timed, then as many rows more as
 * fit in about this long, spread evenly over the sizes on the chart's log
 * axis (rows sorted by size, as bench writes them); the rest get no model
 * (-1), and the chart's dashed line runs through the sizes priced. */
#define SHOW_MODEL_SECONDS 2.0
#define SHOW_MODEL_MIN 16

static int price(show_result *r, int i, const cv_link *link, char *err, size_t errlen)
{
    cv_spec spec = r->spec;
    double count = r->rows[i].size / (double)cv_spec_bench_unit(&spec);
    if (count < 1 || count != (double)(int64_t)count)
        return CV_OK; /* no plan at this size (show_model refused it where it must have one) */
    spec.count = (int64_t)count;
    char why[CV_ERR_LEN];
    cv_cost_model *model = NULL; /* priced a step at a time: no plan in memory */
    if (cv_cost_model_create(&spec, &model, why, sizeof why) != CV_OK) {
        if (r->rows[i].line > 0)
            snprintf(err, errlen, "%s:%d: %s", r->path, r->rows[i].line, why);
        else
            snprintf(err, errlen, "%s: results[%d]: %s", r->path, i, why);
        return CV_EINVAL;
    }
    cv_cost cost;
    if (cv_spec_nodes(&spec) > 1 && r->has_inter)
        cv_cost_model_price(model, spec.proto, link, &r->inter, &cost);
    else
        cv_cost_model_price(model, spec.proto, link, NULL, &cost);
    cv_cost_model_destroy(model);
    r->rows[i].model_us = cost.seconds * 1e6;
    r->rows[i].model_busbw = cost.busbw / 1e9;
    return CV_OK;
}

int show_model(show_result *r, const cv_link *link, int *priced, char *err, size_t errlen)
{
    *priced = 0;
    /* bench's size is the whole buffer; for the per-rank ops it counts
     * every rank's share (the same test bench itself makes). */
    bool per_rank = cv_op_bench_per_rank(r->spec.op);
    double unit = (double)cv_spec_bench_unit(&r->spec);
    /* NCCL's table is priced at every power of two: sizes below the rank
     * count of a per-rank op have no plan, and keep no model */
    bool lenient = !strcmp(r->source, "nccl-log");
    /* the largest count a plan addresses (cv_spec_check's bound, which
     * names --count, a flag show is not given) */
    int64_t most = INT64_MAX / 16 / (r->spec.ranks > 0 ? r->spec.ranks : 1);
    for (int i = 0; i < r->nrows; i++) {
        double count = r->rows[i].size / unit;
        char where[64];
        if (r->rows[i].line > 0)
            snprintf(where, sizeof where, "%d: size", r->rows[i].line);
        else
            snprintf(where, sizeof where, " results[%d].size", i);
        if (count > (double)most) {
            snprintf(err, errlen,
                     "%s:%s %.0f B is too large to model: at %d ranks a size of at most %lld B "
                     "(%lld %s elements%s) is allowed",
                     r->path, where, r->rows[i].size, r->spec.ranks,
                     (long long)(most * cv_spec_bench_unit(&r->spec)), (long long)most,
                     cv_dtype_name(r->spec.dtype), per_rank ? " a rank" : "");
            return CV_EINVAL;
        }
        if (!lenient && count != (double)(int64_t)count) {
            snprintf(err, errlen, "%s:%s %.0f is not a whole number of %s%s elements, so its "
                     "plan cannot be rebuilt for the model", r->path, where, r->rows[i].size,
                     per_rank ? "ranks x " : "", cv_dtype_name(r->spec.dtype));
            return CV_EINVAL;
        }
    }
    if (r->nrows == 0)
        return CV_OK;
    double t0 = cv_now_seconds();
    if (price(r, 0, link, err, errlen) != CV_OK)
        return CV_EINVAL;
    double each = cv_now_seconds() - t0;
    int n = r->nrows, want = n;
    if (each > 0 && each * n > SHOW_MODEL_SECONDS) {
        /* at least SHOW_MODEL_MIN rows, so that a machine busy with other
         * work still draws a whole table of nccl-tests' usual 20-30 sizes */
        double fit = SHOW_MODEL_SECONDS / each;
        want = fit < SHOW_MODEL_MIN ? SHOW_MODEL_MIN : fit > n ? n : (int)fit;
        if (want > n)
            want = n;
    }
    *priced = 1;
    for (int i = 1; want == n && i < n; i++) {
        if (price(r, i, link, err, errlen) != CV_OK)
            return CV_EINVAL;
        (*priced)++;
    }
    if (want == n)
        return CV_OK;
    /* want rows: the first, the last, and between them the rows nearest to
     * sizes evenly spaced on the chart's log axis */
    double lo = log(r->rows[0].size > 0 ? r->rows[0].size : 1);
    double hi = log(r->rows[n - 1].size > 0 ? r->rows[n - 1].size : 1);
    for (int k = 1, i = 0; k < want; k++) {
        double target = lo + (hi - lo) * k / (want - 1);
        while (i < n - 1 && log(r->rows[i + 1].size > 0 ? r->rows[i + 1].size : 1) <= target)
            i++;
        if (r->rows[i].model_us >= 0)
            continue;
        if (price(r, i, link, err, errlen) != CV_OK)
            return CV_EINVAL;
        (*priced)++;
    }
    return CV_OK;
}

void show_title(const show_result *r, char *out, size_t outlen)
{
    const cv_spec *s = &r->spec;
    if (!strcmp(r->source, "nccl-log")) {
        char ranks[48] = "";
        if (s->ranks > 0)
            snprintf(ranks, sizeof ranks, ", %d ranks", s->ranks);
        snprintf(out, outlen, "NCCL's choice for %s by size%s%s%s (its tuning table)",
                 ncclog_coll_name(r->coll), ranks, r->version[0] ? ", NCCL " : "", r->version);
        return;
    }
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

void show_origin(const show_result *r, char *out, size_t outlen)
{
    out[0] = '\0';
    if (strcmp(r->source, "nccl-tests"))
        return;
    char ver[48] = "", gpu[128] = "";
    if (r->version[0])
        snprintf(ver, sizeof ver, " %s", r->version);
    if (r->gpu[0] && r->hosts > 1)
        snprintf(gpu, sizeof gpu, ", %d x %s on %d hosts", r->spec.ranks, r->gpu, r->hosts);
    else if (r->gpu[0])
        snprintf(gpu, sizeof gpu, ", %d x %s", r->spec.ranks, r->gpu);
    snprintf(out, outlen, "%s%snccl-tests%s%s", r->program, r->program[0] ? ", " : "", ver, gpu);
}

/* NCCL's choice as a table: size, pick, NCCL's time, best Ring and Tree,
 * and collviz's model. */
static void print_choice_table(FILE *out, const show_result *r, const char *model_about)
{
    char title[256];
    show_title(r, title, sizeof title);
    fprintf(out, "# %s: %s, line %ld\n# model: %s\n", r->path, title, r->table_line,
            model_about);
    if (r->checked)
        fprintf(out, "# NCCL's per-call lines agree at %d of the %d sizes they name\n", r->agree,
                r->checked);
    bool tuner = r->nrows > 0 && r->rows[0].model_pick[0]; /* show --nccl */
    int same = 0;
    fprintf(out, "# %12s  %-18s %11s %11s %11s %11s%s\n", "size (B)", "NCCL picks", "its time",
            "best Ring", "best Tree", tuner ? "model" : "collviz", tuner ? "  model picks" : "");
    for (int i = 0; i < r->nrows; i++) {
        const ncclog_choice *c = &r->choice[i];
        char t[4][24];
        double v[4] = {c->time_us, c->ring_us, c->tree_us, r->rows[i].model_us};
        for (int k = 0; k < 4; k++)
            snprintf(t[k], sizeof t[k], v[k] >= 0 ? "%.1f us" : "-", v[k]);
        fprintf(out, "  %12.0f  %-18s %11s %11s %11s %11s", r->rows[i].size, r->rows[i].pick,
                t[0], t[1], t[2], t[3]);
        if (tuner) {
            bool agree = !strcmp(r->rows[i].pick, r->rows[i].model_pick);
            same += agree;
            fprintf(out, "  %s%s", r->rows[i].model_pick, agree ? "" : "  (differs)");
        }
        fputc('\n', out);
    }
    if (tuner)
        fprintf(out, "# the model picks as this table does at %d of the %d sizes\n", same,
                r->nrows);
}

void show_print_table(FILE *out, const show_result *r, const char *model_about)
{
    if (!strcmp(r->source, "nccl-log")) {
        print_choice_table(out, r, model_about);
        return;
    }
    char title[256], origin[256];
    show_title(r, title, sizeof title);
    show_origin(r, origin, sizeof origin);
    bool model = r->nrows > 0 && r->rows[0].model_busbw >= 0;
    bool picks = model && r->rows[0].pick[0];
    fprintf(out, "# %s: %s", r->path, title);
    if (origin[0])
        fprintf(out, "\n# from %s", origin);
    if (r->iters >= 0)
        fprintf(out, ", %ld iterations after %ld warmup", r->iters, r->warmup >= 0 ? r->warmup : 0);
    fprintf(out, "\n# model: %s\n", model_about);
    fprintf(out, "# %12s %12s %11s %9s %9s %7s", "size", "count", "time", "algbw", "busbw",
            "#wrong");
    if (model)
        fprintf(out, " %11s %9s", "model time", "model bus");
    if (picks)
        fprintf(out, "  %s", "NCCL's pick");
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
        if (model && w->model_us >= 0)
            fprintf(out, " %11.1f %9.2f", w->model_us, w->model_busbw);
        else if (model)
            fprintf(out, " %11s %9s", "-", "-"); /* a size the model was not priced at */
        if (picks)
            fprintf(out, "  %s", w->pick);
        fputc('\n', out);
    }
}

int show_model_nccl(show_result *r, const ncclog_system *sys, const char *only, char *about,
                    size_t alen, char *err, size_t errlen)
{
    int coll = -1;
    for (int c = 0; c < NCCLOG_COLLS; c++)
        if (ncclog_coll_op(c) == r->spec.op)
            coll = c;
    if (coll < 0) {
        snprintf(err, errlen, "--nccl: NCCL's tuner prices broadcast, reduce, allgather, "
                 "reducescatter and allreduce; %s is not one of them", cv_op_name(r->spec.op));
        return CV_EINVAL;
    }
    int nranks = sys->nodes * sys->gpus_per_node;
    if (r->spec.ranks > 0 && r->spec.ranks != nranks) {
        snprintf(err, errlen, "--nccl: %s has %d ranks, the system %d (%d node%s x %d GPUs): "
                 "give --nodes or --gpus-per-node", r->path, r->spec.ranks, nranks, sys->nodes,
                 sys->nodes == 1 ? "" : "s", sys->gpus_per_node);
        return CV_EINVAL;
    }
    ncclog_graph g[NCCLOG_ALGOS];
    ncclog_tuning t;
    int threads[NCCLOG_ALGOS][NCCLOG_PROTOS];
    ncclog_tuner_graphs(sys, g);
    ncclog_tuner_table(sys, g, &t, threads);
    if (only && ncclog_tuner_only(&t, only, err, errlen))
        return CV_EINVAL;
    cv_spec spec = r->spec; /* for nccl-tests' busbw factor on the system's ranks */
    spec.ranks = nranks;
    double factor = cv_spec_busbw_factor(&spec);
    for (int i = 0; i < r->nrows; i++) {
        ncclog_choice ch;
        ncclog_choice_at(&t, NCCLOG_TUNER_VERSION, sys->nodes, nranks, g[1].channels, coll,
                         (int64_t)r->rows[i].size, &ch);
        r->rows[i].model_us = ch.time_us;
        r->rows[i].model_busbw = ch.time_us > 0 ? r->rows[i].size / (ch.time_us * 1e3) * factor
                                                : -1;
        /* on a tuning table the row's pick is NCCL's own: the model's
         * goes beside it */
        show_row *w = &r->rows[i];
        bool table = !strcmp(r->source, "nccl-log");
        if (ch.algo >= 0)
            snprintf(table ? w->model_pick : w->pick, table ? sizeof w->model_pick : sizeof w->pick,
                     "%s/%s", ncclog_algo_name(ch.algo), ncclog_proto_name(ch.proto));
    }
    snprintf(about, alen, "NCCL's tuner, modelled (collviz cost --nccl %s%s%s): %d node%s x %d "
             "GPUs, its pick at each size", sys->name, only ? " --nccl-algo " : "",
             only ? only : "", sys->nodes, sys->nodes == 1 ? "" : "s", sys->gpus_per_node);
    return CV_OK;
}

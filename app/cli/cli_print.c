/*
 * cli_print.c: the terminal step-through of a trace.
 *
 * The header gives the step count as the textbook counts it, one step per
 * communication round, with its formula ("6 steps = 2(N-1)"). For each
 * step: its phase, its transfers (src rank.buffer[range] -> dst
 * rank.buffer[range], copy, reduce, or reduce-copy with the receiver's own
 * operand), its measured time, then every rank's buffers. A local
 * sub-phase of a round (MPICH's staging) is listed under its round. Each element is a 9-column cell: the value on one line
 * and, below it, the ranks whose inputs it contains ("0+1+2", "0-5" for a
 * run, "all" for every rank); "." marks an element nothing has written yet
 * and "*" one this step changed. 4 ranks x 8 elements fit in 80 columns.
 */
#include <string.h>

#include "cli.h"

#define CELLS_PER_LINE 8
#define MAX_CELLS 32       /* per buffer; the rest is summarised */
#define MAX_TRANSFERS 16   /* per step; the rest is summarised */

/* "0+1+2", "0-5,7", "all" or "5 ranks", at most 8 characters. */
static void format_mask(uint64_t m, int ranks, char *out, size_t len)
{
    if (!m) {
        snprintf(out, len, ".");
        return;
    }
    uint64_t all = ranks >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << ranks) - 1;
    if (m == all && ranks > 1) {
        snprintf(out, len, "all");
        return;
    }
    char buf[256] = "";
    int members = 0;
    bool runs = false;
    for (int r = 0; r < ranks && r < 64; r++) {
        if (!(m >> r & 1))
            continue;
        members++;
        int e = r;
        while (e + 1 < ranks && e + 1 < 64 && (m >> (e + 1) & 1))
            e++;
        size_t used = strlen(buf);
        if (e - r >= 2) {
            snprintf(buf + used, sizeof buf - used, "%s%d-%d", used ? "," : "", r, e);
            runs = true;
            members += e - r;
            r = e;
        } else {
            snprintf(buf + used, sizeof buf - used, "%s%d", used ? (runs ? "," : "+") : "", r);
        }
    }
    if (strlen(buf) > 8)
        snprintf(out, len, "%d ranks", members);
    else
        snprintf(out, len, "%s", buf);
}

static void print_buffer(FILE *out, const cv_trace *t, const cv_state *st, int rank, cv_buf buf)
{
    const cv_spec *s = &cv_trace_plan(t)->spec;
    cv_bufview v = cv_state_buf(st, rank, buf);
    if (!v.count)
        return;
    int step = cv_state_step(st) - 1; /* the step just applied */
    int64_t shown = v.count < MAX_CELLS ? v.count : MAX_CELLS;
    for (int64_t base = 0; base < shown; base += CELLS_PER_LINE) {
        char label[16] = ""; /* on the first line of the buffer only */
        if (base == 0 && rank >= s->ranks) /* an in-network plan's switch */
            snprintf(label, sizeof label, "sw scr");
        else if (base == 0)
            snprintf(label, sizeof label, "r%d %s", rank,
                     buf == CV_BUF_SCRATCH ? "scr" : cv_buf_name(buf));
        fprintf(out, "%-8s", label);
        int64_t end = base + CELLS_PER_LINE < shown ? base + CELLS_PER_LINE : shown;
        /* Columns of 8, wider where a value needs it: a value is never
         * cut (1.205e+04 once printed as 1.205e+0). */
        char vals[CELLS_PER_LINE][32];
        int width = 8;
        for (int64_t i = base; i < end; i++) {
            char *val = vals[i - base];
            if (!v.masks[i])
                snprintf(val, 32, ".");
            else
                cv_value_format(s->dtype, v.values, i, val, 32);
            int len = (int)strlen(val);
            width = len > width ? len : width;
        }
        for (int64_t i = base; i < end; i++) {
            bool changed = step >= 0 && v.last_changed[i] == step;
            fprintf(out, "%*s%c", width, vals[i - base], changed ? '*' : ' ');
        }
        fprintf(out, "\n%-8s", "");
        for (int64_t i = base; i < end; i++) {
            char m[32];
            format_mask(v.masks[i], s->ranks, m, sizeof m);
            fprintf(out, "%*.*s ", width, width, m);
        }
        fputc('\n', out);
    }
    if (v.count > shown)
        fprintf(out, "%-8s... %lld more elements\n", "", (long long)(v.count - shown));
}

/* "r3" for a rank, "sw" for an in-network plan's switch. */
static const char *part_name(const cv_plan *p, int part, char *out, size_t len)
{
    if (part >= p->spec.ranks)
        snprintf(out, len, "sw");
    else
        snprintf(out, len, "r%d", part);
    return out;
}

/* "r0.send[0..2) -> r1.recv[0..2) reduce-copy with r1.send[0..2)", and
 * the NCCL primitives where the step's transfers do not all share them. */
static void print_transfer(FILE *out, const cv_plan *p, const cv_transfer *x, bool prims)
{
    char a[16], b[16];
    fprintf(out, "  %s.%s[%lld..%lld) -> %s.%s[%lld..%lld) %s", part_name(p, x->src, a, sizeof a),
            cv_buf_name(x->src_buf), (long long)x->src_off, (long long)(x->src_off + x->count),
            part_name(p, x->dst, b, sizeof b), cv_buf_name(x->dst_buf), (long long)x->dst_off,
            (long long)(x->dst_off + x->count), cv_xfer_kind_name(x->kind));
    if (x->kind == CV_XFER_REDUCE_COPY)
        fprintf(out, " with %s.%s[%lld..%lld)", b, cv_buf_name(x->local_buf),
                (long long)x->local_off, (long long)(x->local_off + x->count));
    cv_redop redop = p->spec.redop;
    if ((x->flags & CV_XFER_FINISH) && redop == CV_AVG)
        fprintf(out, ", finished");
    char nccl[64];
    if (prims && cv_transfer_prims_text(x, nccl, sizeof nccl) > 0)
        fprintf(out, "  [%s]", nccl);
    fputc('\n', out);
}

/* The NCCL primitives every transfer between ranks of the step shares
 * ("send -> recvReduceSend"), or "" when they differ or there are none. */
static void shared_prims(const cv_plan *p, const cv_step *st, char *out, size_t len)
{
    out[0] = 0;
    char one[64];
    for (int64_t i = st->first; i < st->first + st->count; i++) {
        const cv_transfer *x = &p->transfers[i];
        if (x->src == x->dst)
            continue;
        cv_transfer_prims_text(x, one, sizeof one);
        if (!one[0] || (out[0] && strcmp(out, one) != 0)) {
            out[0] = 0;
            return;
        }
        snprintf(out, len, "%s", one);
    }
}

static void print_all_buffers(FILE *out, const cv_trace *t, const cv_state *st, bool inputs)
{
    const cv_plan *p = cv_trace_plan(t);
    for (int r = 0; r < cv_plan_parts(p); r++) {
        if (inputs)
            print_buffer(out, t, st, r, CV_BUF_SEND);
        else {
            print_buffer(out, t, st, r, CV_BUF_RECV);
            print_buffer(out, t, st, r, CV_BUF_SCRATCH);
        }
    }
}

void cli_print_steps(FILE *out, const cv_trace *t)
{
    const cv_plan *p = cv_trace_plan(t);
    const cv_spec *s = &p->spec;
    size_t esz = cv_dtype_size(s->dtype);
    fprintf(out, "%s %s: %d ranks x %lld %s", cv_op_title(s->op), cv_algo_name(s->algo),
            s->ranks, (long long)s->count, cv_dtype_name(s->dtype));
    if (cv_op_reduces(s->op))
        fprintf(out, ", %s", cv_redop_name(s->redop));
    if (cv_op_has_root(s->op))
        fprintf(out, ", root %d", s->root);
    if (cv_spec_nodes(s) > 1)
        fprintf(out, ", %d nodes x %d", cv_spec_nodes(s), cv_spec_ranks_per_node(s));
    char rounds[128];
    cv_plan_rounds_text(p, rounds, sizeof rounds);
    fprintf(out, ", backend %s, %s\n", cv_trace_backend(t), rounds);

    cv_state *st = NULL;
    if (!cv_trace_visual(t) || cv_state_create(t, &st) != CV_OK) {
        fprintf(out, "(buffers not recorded for this size: showing the transfers only)\n");
    } else {
        fprintf(out, "\ninputs (each cell: value, then the ranks whose input it holds)\n");
        print_all_buffers(out, t, st, true);
    }
    for (int k = 0; k < p->nsteps; k++) {
        const cv_step *step = &p->steps[k];
        int64_t bytes = 0;
        for (int64_t i = 0; i < step->count; i++) {
            const cv_transfer *x = &p->transfers[step->first + i];
            if (x->src != x->dst)
                bytes += x->count * (int64_t)esz;
        }
        if (step->local) /* a sub-phase: no round of its own */
            fprintf(out, "\nstep %d/%d, local  %s  %lld transfers, %.1f us\n", step->round,
                    p->nrounds, step->phase, (long long)step->count,
                    cv_trace_step_seconds(t, k) * 1e6);
        else
            fprintf(out, "\nstep %d/%d  %s  %lld transfers, %lld B between ranks, %.1f us\n",
                    step->round, p->nrounds, step->phase, (long long)step->count,
                    (long long)bytes, cv_trace_step_seconds(t, k) * 1e6);
        char nccl[64];
        shared_prims(p, step, nccl, sizeof nccl);
        if (nccl[0]) /* the primitives NCCL's kernel calls here, to find in its source */
            fprintf(out, "  NCCL: %s\n", nccl);
        for (int64_t i = 0; i < step->count && i < MAX_TRANSFERS; i++)
            print_transfer(out, p, &p->transfers[step->first + i], !nccl[0]);
        if (step->count > MAX_TRANSFERS)
            fprintf(out, "  ... %lld more transfers\n", (long long)(step->count - MAX_TRANSFERS));
        if (st) {
            cv_state_seek(st, k + 1);
            print_all_buffers(out, t, st, false);
        }
    }
    cv_state_destroy(st);
    int64_t wrong = cv_trace_wrong(t);
    fprintf(out, "\n%s: %lld of the results differ from the reference\n",
            wrong ? "WRONG" : "verified", (long long)wrong);
}

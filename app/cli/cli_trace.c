/*
 * cli_trace.c: a trace read back. `collviz run --trace-out FILE` (and `run
 * --json`) write a run whole: the spec, the plan's steps with their
 * measured times, every rank's inputs and results, the backend and the
 * host (docs/JSON.md). gui, export and the page open such a file anywhere:
 * the same plan is replayed from the recorded inputs on the CPU backend,
 * checked against the reference as every run is, and shown with the
 * recorded run's times, backend and host; where the recorded results
 * differ from the replay's, the window says in how many elements.
 *
 * The file is never trusted: it goes through the JSON reader every file
 * goes through (size cap, no FIFOs, positions), each member is checked for
 * its type and range (numbers read and quoted as written), the spec as the
 * command line's is (root, slices and redop included), the values as
 * --input's are, and the steps and each step's transfers against the plan
 * collviz makes for that spec. Every problem is one line with the file,
 * line and column.
 *
 * Its memory is bounded by its header: inputs, outputs and transfers are
 * lazy arrays (jr_opts.lazy: checked as JSON, never a tree), the spec and
 * the steps are read first, and a run the stage cannot show, or that would
 * not fit in the memory available, is refused before a value is read; the
 * values then go from the text straight into their buffers.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli_internal.h"

/* A trace of 64 ranks x 64 KiB of float32 takes some 20 MB of text. */
#define TRACE_MAX_BYTES ((size_t)256 << 20)

typedef struct {
    const jr_doc *doc;
    char *err;
    size_t errlen;
} trace_reader;

static bool say(trace_reader *tr, jr_val at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static bool say(trace_reader *tr, jr_val at, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    jr_say(tr->doc, at.j ? jr_off(tr->doc, at) : 0, tr->err, tr->errlen, "%s", msg);
    return false;
}

/* Member key of the root: required, or NULL-valued when absent. */
static bool member(trace_reader *tr, jr_val root, const char *key, bool required, jr_val *out)
{
    *out = jr_member(tr->doc, root, key);
    if (!out->j && required)
        return say(tr, root,
                   "missing \"%s\"; a trace is what collviz run --trace-out (or --json) writes",
                   key);
    return true;
}

static bool want_string(trace_reader *tr, jr_val root, const char *key, bool required,
                        const char **out)
{
    jr_val v;
    *out = NULL;
    if (!member(tr, root, key, required, &v))
        return false;
    if (!v.j || cJSON_IsNull(v.j))
        return !required || say(tr, v, "\"%s\" is null; expected a string", key);
    if (!cJSON_IsString(v.j))
        return say(tr, v, "\"%s\" must be a string", key);
    *out = v.j->valuestring;
    return true;
}

/* The whole number a token writes, exactly (cJSON's double would make
 * 9007199254740993 ...992): false for one that is not whole or not an
 * int64. */
static bool whole_number(const char *text, long long *out)
{
    char *end;
    errno = 0;
    if (text[strspn(text, "-0123456789")] == '\0') {
        long long x = strtoll(text, &end, 10);
        *out = x;
        return *text && !*end && errno != ERANGE;
    }
    double d = strtod(text, &end);
    if (*end || end == text || !(d == floor(d)) || fabs(d) >= 9.2e18)
        return false;
    *out = (long long)d;
    return true;
}

/* A whole number in [lo, hi]; absent or null leaves *out as it is where
 * not required. A number refused is quoted as the file writes it. */
static bool want_int(trace_reader *tr, jr_val root, const char *key, bool required, long long lo,
                     long long hi, long long *out)
{
    jr_val v;
    if (!member(tr, root, key, required, &v))
        return false;
    if (!v.j || cJSON_IsNull(v.j))
        return !required || say(tr, v, "\"%s\" is null; expected a whole number", key);
    char text[80];
    long long x = 0;
    if (!cJSON_IsNumber(v.j) || !whole_number(jr_number_text(tr->doc, v, text, sizeof text), &x) ||
        x < lo || x > hi)
        return say(tr, v, "\"%s\" must be a whole number from %lld to %lld, not %s", key, lo, hi,
                   jr_found(tr->doc, v, text, sizeof text));
    *out = x;
    return true;
}

/* A name one of parse's: op, algo, dtype, redop, proto. */
static bool want_name(trace_reader *tr, jr_val root, const char *key, bool required,
                      int (*parse)(const char *), int *out)
{
    const char *s;
    if (!want_string(tr, root, key, required, &s))
        return false;
    if (!s)
        return true;
    int v = parse(s);
    if (v < 0)
        return say(tr, jr_member(tr->doc, root, key), "\"%s\": unknown name \"%s\"", key, s);
    *out = v;
    return true;
}

static bool read_spec(trace_reader *tr, jr_val root, int max_ranks, cv_spec *s)
{
    cv_spec_init(s);
    int op = -1, algo = -1, dtype = CV_FLOAT32, redop = CV_SUM, proto = CV_PROTO_SIMPLE;
    long long ranks = 0, count = 0, root_rank = 0, slices = 1, nodes = 1;
    bool ok = want_name(tr, root, "op", true, cv_op_parse, &op) &&
              want_name(tr, root, "algo", true, cv_algo_parse, &algo) &&
              want_int(tr, root, "ranks", true, 1, max_ranks, &ranks) &&
              want_int(tr, root, "count", true, 0, INT64_MAX / 16, &count) &&
              want_name(tr, root, "dtype", true, cv_dtype_parse, &dtype) &&
              want_name(tr, root, "redop", false, cv_redop_parse, &redop) &&
              want_int(tr, root, "root", false, 0, max_ranks - 1, &root_rank) &&
              want_int(tr, root, "slices", false, 1, CV_MAX_SLICES, &slices) &&
              want_int(tr, root, "nodes", false, 1, max_ranks, &nodes) &&
              want_name(tr, root, "proto", false, cv_proto_parse, &proto);
    if (!ok)
        return false;
    s->op = (cv_op)op;
    s->algo = (cv_algo)algo;
    s->ranks = (int)ranks;
    s->count = count;
    s->dtype = (cv_dtype)dtype;
    s->redop = (cv_redop)redop;
    s->root = (int)root_rank;
    s->slices = (int)slices;
    s->nodes = (int)nodes;
    s->proto = (cv_proto)proto;
    /* What the command line refuses, a trace may not say either
     * (cli_finish_spec): its writer puts null or 1 there. */
    jr_val rv = jr_member(tr->doc, root, "root"), sv = jr_member(tr->doc, root, "slices"),
           ov = jr_member(tr->doc, root, "redop");
    if (rv.j && !cJSON_IsNull(rv.j) && !cv_algo_uses_root(s->op, s->algo) &&
        (!cv_op_has_root(s->op) || s->root != 0))
        return say(tr, rv, "\"root\" is %d, but %s %s has no root (the command line refuses "
                           "--root for it; its trace says %s)", s->root, cv_op_name(s->op),
                   cv_algo_name(s->algo), cv_op_has_root(s->op) ? "0" : "null");
    if (sv.j && s->slices != 1 && !cv_algo_uses_slices(s->op, s->algo))
        return say(tr, sv, "\"slices\" is %d, but %s %s is not pipelined (the command line "
                           "refuses --slices for it; its trace says 1)", s->slices,
                   cv_op_name(s->op), cv_algo_name(s->algo));
    if (ov.j && !cJSON_IsNull(ov.j) && !cv_op_reduces(s->op))
        return say(tr, ov, "\"redop\" is \"%s\", but %s does not reduce (the command line "
                           "refuses --redop for it; its trace says null)",
                   cv_redop_name(s->redop), cv_op_name(s->op));
    char why[CV_ERR_LEN];
    if (cv_spec_check(s, max_ranks, why, sizeof why) != CV_OK)
        return say(tr, root, "the run it records is not one collviz runs: %s", why);
    /* Its values are in the file, a byte or more each: a count the file
     * cannot hold is refused before any buffer is made for it. */
    double values = 0;
    for (int r = 0; r < s->ranks; r++)
        values += (double)cv_spec_buf_count(s, CV_BUF_SEND, r) +
                  (double)cv_spec_buf_count(s, CV_BUF_RECV, r);
    if (values > (double)jr_end(tr->doc, root)) {
        char text[80];
        jr_val cv = jr_member(tr->doc, root, "count");
        return say(tr, cv,
                   "\"count\" %s: a run of that size has %.0f values, more than this file of %zu "
                   "bytes holds",
                   jr_number_text(tr->doc, cv, text, sizeof text), values, jr_end(tr->doc, root));
    }
    return true;
}

/* A step's recorded transfers against the plan's: as many, each between
 * the same ranks with as many elements. They are read from the text (a
 * lazy array: 14 members a transfer would be a tree of millions of values
 * in a large trace) and only compared; the replay runs the plan. */
static bool read_transfers(trace_reader *tr, jr_val st, int k, const cv_plan *plan)
{
    const jr_doc *d = tr->doc;
    const cv_step *step = &plan->steps[k];
    jr_tok xs = jr_tok_of(d, jr_member(d, st, "transfers"));
    char found[64];
    if (xs.kind != JR_TARRAY)
        return say(tr, xs.kind == JR_TNONE ? st : jr_member(d, st, "transfers"),
                   "step %d's \"transfers\" must be an array, not %s", k + 1,
                   jr_tok_found(d, xs, found, sizeof found));
    int64_t i = 0;
    jr_tok x;
    for (x = jr_tok_first(d, xs); x.kind != JR_TNONE && i < step->count;
         x = jr_tok_next(d, x), i++) {
        const cv_transfer *t = &plan->transfers[step->first + i];
        static const char *const keys[] = {"src", "dst", "count"};
        int64_t want[] = {t->src, t->dst, t->count};
        for (int m = 0; m < 3; m++) {
            bool twice = false;
            size_t at = 0;
            jr_tok v = jr_tok_member(d, x, keys[m], &twice, &at);
            char text[80];
            long long got = 0;
            bool whole = v.kind == JR_TNUMBER && whole_number(jr_tok_text(d, v, text, sizeof text),
                                                              &got);
            if (twice) {
                jr_say(d, at, tr->err, tr->errlen,
                       "duplicate key \"%s\" in steps[%d].transfers[%lld]", keys[m], k,
                       (long long)i);
                return false;
            }
            if (!whole || got != want[m]) {
                jr_say(d, v.kind == JR_TNONE ? x.off : v.off, tr->err, tr->errlen,
                       "step %d, transfer %lld: \"%s\" is %s where collviz's plan for this spec "
                       "has %lld (a trace records the transfers of the plan it ran)", k + 1,
                       (long long)i + 1, keys[m],
                       v.kind == JR_TNONE ? "missing" : jr_tok_found(d, v, text, sizeof text),
                       (long long)want[m]);
                return false;
            }
        }
    }
    if (x.kind != JR_TNONE || i < step->count) {
        int64_t n = i;
        for (; x.kind != JR_TNONE; x = jr_tok_next(d, x))
            n++;
        jr_say(d, xs.off, tr->err, tr->errlen,
               "step %d has %lld transfers; collviz's plan for this spec has %lld there (a trace "
               "records the transfers of the plan it ran)", k + 1, (long long)n,
               (long long)step->count);
        return false;
    }
    return true;
}

/* steps: one object a step of the plan, each with its measured time_us
 * and the transfers it ran. */
static bool read_steps(trace_reader *tr, jr_val root, const cv_plan *plan, cli_trace *t)
{
    jr_val steps;
    if (!member(tr, root, "steps", true, &steps))
        return false;
    if (!cJSON_IsArray(steps.j))
        return say(tr, steps, "\"steps\" must be an array, one object a step");
    int n = plan->nsteps;
    if (jr_count(steps) != n)
        return say(tr, steps, "%d steps; collviz's plan for this spec has %d (a trace records "
                              "every step of the plan it ran)", jr_count(steps), n);
    t->step_seconds = calloc((size_t)n + 1, sizeof *t->step_seconds);
    if (!t->step_seconds)
        return say(tr, steps, "out of memory");
    t->nsteps = n;
    int k = 0;
    for (jr_val st = jr_child(tr->doc, steps); st.j; st = jr_next(tr->doc, st), k++) {
        jr_val us = cJSON_IsObject(st.j) ? jr_member(tr->doc, st, "time_us") : (jr_val){NULL, -1};
        if (!us.j)
            return say(tr, st, "step %d has no \"time_us\"", k + 1);
        if (!cJSON_IsNumber(us.j) || !(us.j->valuedouble >= 0) || !isfinite(us.j->valuedouble))
            return say(tr, us, "step %d's \"time_us\" must be a number of microseconds, 0 or "
                               "more", k + 1);
        t->step_seconds[k] = us.j->valuedouble * 1e-6;
        if (!read_transfers(tr, st, k, plan))
            return false;
        t->transfers += plan->steps[k].count;
    }
    return true;
}

/* Whether showing the recorded run fits, from the header alone, before a
 * value is read: the stage's bound (what the window holds step by step,
 * CV_VISUAL_STAGE_BYTES) and the memory available for the text, the
 * values and the stage. A trace cannot be made smaller: the message says
 * what was recorded and what the stage takes. */
static bool trace_fits(trace_reader *tr, jr_val root, const cv_plan *plan)
{
    const cv_spec *s = &plan->spec;
    int64_t stage = cv_visual_footprint(plan, 3), esz = (int64_t)cv_dtype_size(s->dtype);
    double values = 0;
    for (int r = 0; r < s->ranks; r++)
        values += (double)(cv_spec_buf_count(s, CV_BUF_SEND, r) +
                           cv_spec_buf_count(s, CV_BUF_RECV, r)) * (double)esz;
    if (stage > CV_VISUAL_STAGE_BYTES)
        return say(tr, jr_member(tr->doc, root, "count"),
                   "it records %s %s with %d ranks x %lld %s, which would hold %lld MiB on the "
                   "stage step by step; the stage holds at most %lld MiB, so this trace cannot "
                   "be shown (record a run with a smaller --count or fewer --ranks)",
                   cv_op_name(s->op), cv_algo_name(s->algo), s->ranks, (long long)s->count,
                   cv_dtype_name(s->dtype), (long long)(stage >> 20),
                   (long long)(CV_VISUAL_STAGE_BYTES >> 20));
    double need = (double)stage + values + (double)tr->doc->len;
    char source[64];
    /* asked as the JSON reader asks: only of what is large enough to matter */
    int64_t have = need > 64.0 * 1048576.0 ? cv_memory_available(source, sizeof source) : INT64_MAX;
    if (need > (double)have)
        return say(tr, root, "showing the run it records would need %.1f MiB of memory (the file "
                             "%.1f, its values %.1f, the stage %.1f) but %s is %.1f MiB",
                   need / 1048576.0, (double)tr->doc->len / 1048576.0, values / 1048576.0,
                   (double)stage / 1048576.0, source, (double)have / 1048576.0);
    return true;
}

/* The arrays a trace holds its values in: read from the text, never
 * held as a tree (jr_opts.lazy). */
static const char *const trace_lazy[] = {"inputs", "outputs", "transfers", NULL};

/* A file (text NULL) or text in memory, checked and read: the header
 * first (spec, steps, whether it fits), then the values, straight into
 * the typed buffers. */
static bool trace_read(const char *name, const char *text, size_t len, int max_ranks, cli_trace *t,
                       char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    jr_opts o = {.max_bytes = TRACE_MAX_BYTES, .max_depth = 16, .lazy = trace_lazy};
    jr_doc doc;
    jr_error e;
    jr_status st = text ? jr_read_text(name, text, len, &o, &doc, &e)
                        : jr_read_file(name, &o, &doc, &e);
    if (st != JR_OK) {
        jr_error_text(&e, name, err, errlen);
        jr_destroy(&doc);
        return false;
    }
    trace_reader tr = {&doc, err, errlen};
    jr_val root = jr_root(&doc);
    const char *format = NULL, *backend = NULL, *host = NULL, *created = NULL;
    long long version = 1, wrong = 0;
    jr_val nl = cJSON_IsObject(root.j) ? jr_member(&doc, root, "nccl_log") : (jr_val){NULL, -1};
    bool ok = cJSON_IsObject(root.j) ||
              say(&tr, root, "expected '{' opening a trace (run --trace-out writes one)");
    ok = ok && want_string(&tr, root, "format", false, &format);
    if (ok && format && strcmp(format, "collviz-run") != 0)
        ok = say(&tr, jr_member(&doc, root, "format"),
                 "\"format\" is \"%s\"; a trace's is \"collviz-run\"", format);
    ok = ok && want_int(&tr, root, "version", false, 1, 1000000, &version);
    if (ok && version != 1)
        ok = say(&tr, jr_member(&doc, root, "version"),
                 "version %lld: this collviz reads version 1; a newer collviz wrote it", version);
    if (ok && nl.j)
        ok = say(&tr, nl, "this run followed an NCCL log's ring and trees (nccl_log); replay it "
                          "with collviz gui --nccl-log and its inputs instead");
    ok = ok && read_spec(&tr, root, max_ranks, &t->spec);
    ok = ok && want_string(&tr, root, "backend", true, &backend) &&
         want_string(&tr, root, "host", false, &host) &&
         want_string(&tr, root, "created", false, &created) &&
         want_int(&tr, root, "wrong", false, 0, INT64_MAX / 16, &wrong);
    cv_plan *plan = NULL;
    char why[CV_ERR_LEN];
    if (ok && cv_plan_create(&t->spec, &plan, why, sizeof why) != CV_OK)
        ok = say(&tr, root, "its spec has no plan: %s", why);
    ok = ok && trace_fits(&tr, root, plan) && read_steps(&tr, root, plan, t);
    cv_plan_destroy(plan);
    jr_val in = {NULL, -1}, out = {NULL, -1};
    ok = ok && member(&tr, root, "inputs", true, &in) && member(&tr, root, "outputs", true, &out);
    ok = ok && cli__read_buffers(&doc, in, &t->spec, CV_BUF_SEND, &t->inputs, err, errlen);
    ok = ok && cli__read_buffers(&doc, out, &t->spec, CV_BUF_RECV, &t->outputs, err, errlen);
    if (ok) {
        snprintf(t->backend, sizeof t->backend, "%s", backend);
        snprintf(t->host, sizeof t->host, "%s", host ? host : "");
        snprintf(t->created, sizeof t->created, "%s", created ? created : "");
        t->wrong = wrong;
    }
    jr_destroy(&doc);
    if (!ok)
        cli_trace_destroy(t);
    return ok;
}

bool cli_trace_read(const char *path, int max_ranks, cli_trace *t, char *err, size_t errlen)
{
    return trace_read(path, NULL, 0, max_ranks, t, err, errlen);
}

bool cli_trace_parse(const char *name, const char *text, size_t len, int max_ranks, cli_trace *t,
                     char *err, size_t errlen)
{
    return trace_read(name, text ? text : "", text ? len : 0, max_ranks, t, err, errlen);
}

void cli_trace_destroy(cli_trace *t)
{
    if (!t)
        return;
    cli_free_inputs(t->inputs, t->spec.ranks);
    cli_free_inputs(t->outputs, t->spec.ranks);
    free(t->step_seconds);
    memset(t, 0, sizeof *t);
}

int64_t cli_trace_differs(const cli_trace *t, const cv_trace *replay)
{
    const cv_spec *s = &t->spec;
    size_t esz = cv_dtype_size(s->dtype);
    int64_t differ = 0;
    for (int r = 0; r < s->ranks; r++) {
        const unsigned char *a = t->outputs ? t->outputs[r] : NULL;
        const unsigned char *b = cv_trace_output(replay, r);
        int64_t n = cv_spec_buf_count(s, CV_BUF_RECV, r);
        if (!a || !b)
            continue;
        for (int64_t i = 0; i < n; i++)
            differ += memcmp(a + (size_t)i * esz, b + (size_t)i * esz, esz) != 0;
    }
    return differ;
}

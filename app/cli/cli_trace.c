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
 * its type and range, the spec as the command line's is, the values as
 * --input's are, and the number of steps against the plan collviz makes
 * for that spec. Every problem is one line with the file, line and column.
 */
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

/* A whole number in [lo, hi]; absent or null leaves *out as it is where
 * not required. */
static bool want_int(trace_reader *tr, jr_val root, const char *key, bool required, long long lo,
                     long long hi, long long *out)
{
    jr_val v;
    if (!member(tr, root, key, required, &v))
        return false;
    if (!v.j || cJSON_IsNull(v.j))
        return !required || say(tr, v, "\"%s\" is null; expected a whole number", key);
    double d = cJSON_IsNumber(v.j) ? v.j->valuedouble : NAN;
    if (!(d == floor(d)) || d < (double)lo || d > (double)hi)
        return say(tr, v, "\"%s\" must be a whole number from %lld to %lld", key, lo, hi);
    *out = (long long)d;
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
    char why[CV_ERR_LEN];
    if (cv_spec_check(s, max_ranks, why, sizeof why) != CV_OK)
        return say(tr, root, "the run it records is not one collviz runs: %s", why);
    /* Its values are in the file, a byte or more each: a count the file
     * cannot hold is refused before any buffer is made for it. */
    double values = 0;
    for (int r = 0; r < s->ranks; r++)
        values += (double)cv_spec_buf_count(s, CV_BUF_SEND, r) +
                  (double)cv_spec_buf_count(s, CV_BUF_RECV, r);
    if (values > (double)jr_end(tr->doc, root))
        return say(tr, jr_member(tr->doc, root, "count"),
                   "\"count\" %lld: a run of that size has %.0f values, more than this file of "
                   "%zu bytes holds", (long long)s->count, values, jr_end(tr->doc, root));
    return true;
}

/* steps: one object a step of the plan, each with its measured time_us. */
static bool read_steps(trace_reader *tr, jr_val root, const cv_spec *s, cli_trace *t)
{
    jr_val steps;
    if (!member(tr, root, "steps", true, &steps))
        return false;
    if (!cJSON_IsArray(steps.j))
        return say(tr, steps, "\"steps\" must be an array, one object a step");
    cv_plan *plan = NULL;
    char why[CV_ERR_LEN];
    if (cv_plan_create(s, &plan, why, sizeof why) != CV_OK)
        return say(tr, root, "its spec has no plan: %s", why);
    int n = plan->nsteps;
    cv_plan_destroy(plan);
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
    }
    return true;
}

/* A file (text NULL) or text in memory, read whole and checked. */
static bool trace_read(const char *name, const char *text, size_t len, int max_ranks, cli_trace *t,
                       char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    jr_opts o = {.max_bytes = TRACE_MAX_BYTES, .max_depth = 16};
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
    ok = ok && read_steps(&tr, root, &t->spec, t);
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

/*
 * lesson_quiz_load.c: reads a beat's quiz. Answers that can be
 * checked without a trace are checked here: a choice index in range, a
 * number against the cost model (the model's value wins when the file gives
 * none, so lessons cannot drift from the model), and the cells a
 * predict-cells quiz lists against the destinations of the plan's next step.
 * predict-value answers are queued for lesson_verify.c, which needs a trace.
 * Diagrams are read in lesson_diagram.c.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lesson_walk.h"

static const char *kind_name(int i) { return lesson_quiz_kind_name((lesson_quiz_kind)i); }
static const char *op_name(int i) { return cv_op_name((cv_op)i); }
static const char *algo_name(int i) { return cv_algo_name((cv_algo)i); }
static const char *dtype_name(int i) { return cv_dtype_name((cv_dtype)i); }
static const char *proto_name(int i) { return cv_proto_name((cv_proto)i); }
static const char *quantity_name(int i) { return lesson_cost_quantity_name((lesson_cost_quantity)i); }

static int kind_parse(const char *s)
{
    for (int i = 0; i < LESSON_QUIZ_KIND_COUNT; i++)
        if (strcmp(s, kind_name(i)) == 0)
            return i;
    return -1;
}

static int quantity_parse(const char *s)
{
    for (int i = 0; i < LESSON_COST_QUANTITY_COUNT; i++)
        if (strcmp(s, quantity_name(i)) == 0)
            return i;
    return -1;
}

static int buf_parse(const char *s)
{
    for (int b = 0; b < CV_BUF_COUNT; b++)
        if (strcmp(s, cv_buf_name((cv_buf)b)) == 0)
            return b;
    return -1;
}

static void fmt_num(char *out, size_t n, double v)
{
    snprintf(out, n, "%.4g", v);
}

/* ------------------------------------------------------------ cost model */

/* One link of a cost reference: a preset named by `key` ("link",
 * "inter_link"), or a bandwidth `bw_key` in GB/s with an optional latency
 * `alpha_key` in microseconds. Returns 1 when a link was given (*out points
 * at the preset or at custom), 0 when none was, -1 after a problem. */
static int read_link(lesson__ctx *c, lesson__val v, const char *where, const char *key,
                     const char *bw_key, const char *alpha_key, cv_link *custom,
                     const cv_link **out)
{
    char names[512], path[256];
    const char *link_name = NULL;
    double bw = 0, alpha = 0;
    int got_link = lesson__want_string(c, v, key, where, false, &link_name);
    int got_bw = lesson__want_number(c, v, bw_key, where, false, &bw);
    int got_alpha = lesson__want_number(c, v, alpha_key, where, false, &alpha);
    if (got_link < 0 || got_bw < 0 || got_alpha < 0)
        return -1;
    *out = NULL;
    if (got_link > 0) {
        bool ok = true;
        *out = cv_link_find(link_name);
        if (!*out) {
            const cv_link *presets;
            int n = cv_link_presets(&presets);
            names[0] = '\0';
            for (int i = 0; i < n; i++) {
                if (i)
                    strncat(names, ", ", sizeof names - strlen(names) - 1);
                strncat(names, presets[i].name, sizeof names - strlen(names) - 1);
            }
            char found[LESSON__CLIP];
            lesson__err(c, lesson__off(c, lesson__member(c, v, key)),
                        "%s.%s must be one of: %s; not \"%s\"", where, key, names,
                        lesson__clip(found, sizeof found, link_name));
            ok = false;
        }
        if (got_bw > 0) {
            lesson__err(c, lesson__off(c, lesson__member(c, v, bw_key)),
                        "%s: give either \"%s\" or \"%s\", not both", where, key, bw_key);
            ok = false;
        }
        if (got_alpha > 0) {
            lesson__err(c, lesson__off(c, lesson__member(c, v, alpha_key)),
                        "%s.%s goes with %s; a link preset has its own alpha", where, alpha_key,
                        bw_key);
            ok = false;
        }
        return ok ? 1 : -1;
    }
    if (got_bw > 0) {
        bool ok = true;
        if (bw <= 0) {
            lesson__path(path, sizeof path, where, bw_key);
            lesson__type_err(c, lesson__member(c, v, bw_key), path, "a number above 0");
            ok = false;
        }
        if (alpha < 0) {
            lesson__path(path, sizeof path, where, alpha_key);
            lesson__type_err(c, lesson__member(c, v, alpha_key), path, "a number of at least 0");
            ok = false;
        }
        custom->bw = bw * 1e9;
        custom->alpha = alpha * 1e-6;
        *out = custom;
        return ok ? 1 : -1;
    }
    if (got_alpha > 0) {
        lesson__err(c, lesson__off(c, lesson__member(c, v, alpha_key)),
                    "%s.%s goes with %s, which is missing", where, alpha_key, bw_key);
        return -1;
    }
    return 0;
}

static void describe_link(char *out, size_t n, const cv_link *link, const cv_link *custom)
{
    if (link != custom)
        snprintf(out, n, "link %s", link->name);
    else
        snprintf(out, n, "%g GB/s", link->bw / 1e9);
}

/* The model's time of spec's op with algorithm algo at `count` elements. */
static bool time_at(const cv_spec *base, cv_algo algo, int64_t count, const cv_link *link,
                    const cv_link *inter, double *sec, char *err, size_t errlen)
{
    cv_spec s = *base;
    s.algo = algo;
    s.count = count;
    cv_cost cost;
    if (!lesson__model_cost(&s, link, inter, false, &cost, err, errlen))
        return false;
    *sec = cost.seconds;
    return true;
}

/* The smallest size (a whole number of elements) at which spec's
 * algorithm and `versus` change places: where the one slower on one element
 * stops being slower. Doubling finds a size on the other side, bisection the
 * first element count there. The model's time is affine in the size on each
 * side of a chunk boundary, so the difference changes sign once. */
static bool crossover_bytes(const cv_spec *spec, cv_algo versus, int64_t unit, const cv_link *link,
                            const cv_link *inter, int64_t *out, char *err, size_t errlen)
{
    const int64_t limit = (int64_t)1 << 42; /* 4.4 TB: beyond any message */
    if (lesson__model_get_crossover(spec, versus, link, inter, out))
        return true;
    double a, b;
    if (!time_at(spec, spec->algo, 1, link, inter, &a, err, errlen) ||
        !time_at(spec, versus, 1, link, inter, &b, err, errlen))
        return false;
    int sign0 = (a > b) - (a < b);
    int64_t lo = 1, hi = 2;
    for (;; lo = hi, hi *= 2) {
        if (sign0 == 0) {
            snprintf(err, errlen, "%s and %s take the same time at one element; there is no "
                     "crossover to ask about", cv_algo_name(spec->algo), cv_algo_name(versus));
            return false;
        }
        if (hi > limit / unit) {
            snprintf(err, errlen, "%s is %s than %s at every size up to %lld bytes; there is no "
                     "crossover to ask about", cv_algo_name(spec->algo),
                     sign0 > 0 ? "slower" : "faster", cv_algo_name(versus), (long long)limit);
            return false;
        }
        if (!time_at(spec, spec->algo, hi, link, inter, &a, err, errlen) ||
            !time_at(spec, versus, hi, link, inter, &b, err, errlen))
            return false;
        if ((a > b) - (a < b) != sign0)
            break;
    }
    while (hi - lo > 1) { /* the sign at lo is sign0, at hi it is not */
        int64_t mid = lo + (hi - lo) / 2;
        if (!time_at(spec, spec->algo, mid, link, inter, &a, err, errlen) ||
            !time_at(spec, versus, mid, link, inter, &b, err, errlen))
            return false;
        if ((a > b) - (a < b) == sign0)
            lo = mid;
        else
            hi = mid;
    }
    *out = hi * unit;
    lesson__model_put_crossover(spec, versus, link, inter, *out);
    return true;
}

bool lesson__read_cost(lesson__ctx *c, lesson__val v, const char *where, lesson_cost_ref *ref,
                       char *about, size_t aboutlen)
{
    static const char *const keys[] = {"op",       "algo",          "ranks",          "bytes",
                                       "dtype",    "slices",        "nodes",          "link",
                                       "bw_gbps",  "alpha_us",      "inter_link",     "inter_bw_gbps",
                                       "inter_alpha_us", "versus", "quantity", "proto", NULL};
    if (!lesson__want_object(c, v, where))
        return false;
    bool ok = lesson__keys(c, v, where, keys);
    char names[512], path[256];
    int op = 0, algo = -1, dtype = CV_FLOAT32, quantity = 0;
    long long ranks = 0, slices = 1, nodes = 1;
    lesson__names(names, sizeof names, op_name, CV_OP_COUNT);
    ok = lesson__want_enum(c, v, "op", where, true, cv_op_parse, names, &op) > 0 && ok;
    lesson__names(names, sizeof names, algo_name, CV_ALGO_COUNT);
    int got_algo = lesson__want_enum(c, v, "algo", where, false, cv_algo_parse, names, &algo);
    ok = got_algo >= 0 && ok;
    ok = lesson__want_int(c, v, "ranks", where, true, 1, CV_MAX_RANKS, &ranks) > 0 && ok;
    lesson__names(names, sizeof names, dtype_name, CV_DTYPE_COUNT);
    ok = lesson__want_enum(c, v, "dtype", where, false, cv_dtype_parse, names, &dtype) >= 0 && ok;
    int got_slices = lesson__want_int(c, v, "slices", where, false, 1, CV_MAX_SLICES, &slices);
    ok = got_slices >= 0 && ok;
    int got_nodes = lesson__want_int(c, v, "nodes", where, false, 1, CV_MAX_RANKS, &nodes);
    ok = got_nodes >= 0 && ok;
    int proto = CV_PROTO_SIMPLE;
    lesson__names(names, sizeof names, proto_name, CV_PROTO_COUNT);
    ok = lesson__want_enum(c, v, "proto", where, false, cv_proto_parse, names, &proto) >= 0 && ok;
    lesson__names(names, sizeof names, quantity_name, LESSON_COST_QUANTITY_COUNT);
    ok = lesson__want_enum(c, v, "quantity", where, true, quantity_parse, names, &quantity) > 0 &&
         ok;

    bool crossover = quantity == LESSON_COST_CROSSOVER_BYTES ||
                     quantity == LESSON_COST_CROSSOVER_KB || quantity == LESSON_COST_CROSSOVER_MB;
    int versus = -1;
    lesson__names(names, sizeof names, algo_name, CV_ALGO_COUNT);
    int got_versus = lesson__want_enum(c, v, "versus", where, false, cv_algo_parse, names, &versus);
    ok = got_versus >= 0 && ok;
    if (ok && crossover != (got_versus > 0)) {
        lesson__err(c, lesson__off(c, crossover ? v : lesson__member(c, v, "versus")),
                    crossover ? "%s.quantity %s needs \"versus\": the algorithm to compare with"
                              : "%s.versus goes with a crossover quantity (crossover_bytes, "
                                "crossover_kb, crossover_mb)%s",
                    where, crossover ? quantity_name(quantity) : "");
        ok = false;
    }
    int64_t bytes = 0;
    lesson__val bv = lesson__member(c, v, "bytes");
    lesson__path(path, sizeof path, where, "bytes");
    if (!bv.j && crossover) {
        bytes = 0; /* the crossover is the size being sought */
    } else if (!bv.j) {
        lesson__err(c, lesson__off(c, v), "missing required key \"bytes\" in %s", where);
        ok = false;
    } else if (crossover) {
        lesson__err(c, lesson__off(c, bv),
                    "%s: a crossover quantity seeks the size; leave \"bytes\" out", where);
        ok = false;
    } else if (cJSON_IsNumber(bv.j) && bv.j->valuedouble >= 1 && bv.j->valuedouble <= 9e15 &&
               floor(bv.j->valuedouble) == bv.j->valuedouble) {
        bytes = (int64_t)bv.j->valuedouble;
    } else if (!cJSON_IsString(bv.j) || cv_parse_size(bv.j->valuestring, &bytes) != CV_OK ||
               bytes < 1) {
        lesson__type_err(c, bv, path,
                         "a size in bytes such as 1610612736, \"1.61GB\" or \"512MiB\"");
        ok = false;
    }

    cv_link custom = {0}, inter_custom = {0};
    const cv_link *link = NULL, *inter = NULL;
    int got_link = read_link(c, v, where, "link", "bw_gbps", "alpha_us", &custom, &link);
    int got_inter = read_link(c, v, where, "inter_link", "inter_bw_gbps", "inter_alpha_us",
                              &inter_custom, &inter);
    ok = got_link >= 0 && got_inter >= 0 && ok;
    if (got_link == 0) {
        lesson__err(c, lesson__off(c, v), "%s needs \"link\" (a preset) or \"bw_gbps\"", where);
        ok = false;
    }
    /* Two levels go together: several nodes need the link between them,
     * and a link between nodes means nothing in one node. */
    if (ok && nodes > 1 && got_inter == 0) {
        lesson__err(c, lesson__off(c, lesson__member(c, v, "nodes")),
                    "%s.nodes %lld needs the link between nodes: \"inter_link\" (a preset) or "
                    "\"inter_bw_gbps\"", where, nodes);
        ok = false;
    }
    if (ok && nodes <= 1 && got_inter > 0) {
        lesson__val iv = lesson__member(c, v, "inter_link");
        if (!iv.j)
            iv = lesson__member(c, v, "inter_bw_gbps");
        lesson__err(c, lesson__off(c, iv),
                    "%s: a link between nodes needs \"nodes\" of 2 or more (the ranks split into "
                    "that many nodes)", where);
        ok = false;
    }
    bool per_node = quantity == LESSON_COST_INTER_STEPS || quantity == LESSON_COST_INTER_SENT_MB ||
                    quantity == LESSON_COST_INTER_SENT_GB;
    if (ok && per_node && nodes <= 1) {
        lesson__err(c, lesson__off(c, lesson__member(c, v, "quantity")),
                    "%s.quantity %s counts traffic between nodes; give \"nodes\" of 2 or more",
                    where, quantity_name(quantity));
        ok = false;
    }
    if (!ok)
        return false;

    cv_spec spec;
    cv_spec_init(&spec);
    spec.op = (cv_op)op;
    spec.ranks = (int)ranks;
    spec.dtype = (cv_dtype)dtype;
    spec.slices = (int)slices;
    spec.nodes = (int)nodes;
    spec.proto = (cv_proto)proto;
    spec.count = 1;
    if (got_algo > 0) {
        if (!cv_op_has_algo(spec.op, (cv_algo)algo)) {
            lesson__err(c, lesson__off(c, lesson__member(c, v, "algo")),
                        "%s.algo \"%s\" is not offered for %s", where, cv_algo_name((cv_algo)algo),
                        cv_op_name(spec.op));
            return false;
        }
        spec.algo = (cv_algo)algo;
    } else {
        cv_algo offered[CV_ALGO_COUNT];
        if (cv_op_algos(spec.op, offered) > 0)
            spec.algo = offered[0];
    }
    /* Only some plans are cut into slices; elsewhere the engine ignores
     * them, and a quiz that names them would be answered for a plan it does
     * not describe. */
    if (got_slices > 0 && slices > 1 && !cv_algo_uses_slices(spec.op, spec.algo)) {
        lesson__err(c, lesson__off(c, lesson__member(c, v, "slices")),
                    "%s.slices %lld has no effect on %s %s; only the pipelined algorithms are cut "
                    "into slices (collviz list)",
                    where, slices, cv_op_name(spec.op), cv_algo_name(spec.algo));
        return false;
    }
    int64_t unit = cv_spec_bench_unit(&spec);
    if (crossover) {
        if (!cv_op_has_algo(spec.op, (cv_algo)versus) || versus == (int)spec.algo) {
            lesson__err(c, lesson__off(c, lesson__member(c, v, "versus")),
                        "%s.versus \"%s\" must be another algorithm %s offers", where,
                        cv_algo_name((cv_algo)versus), cv_op_name(spec.op));
            return false;
        }
        char err[CV_ERR_LEN];
        if (!crossover_bytes(&spec, (cv_algo)versus, unit, link, inter, &bytes, err, sizeof err)) {
            lesson__err(c, lesson__off(c, v), "%s: %s", where, err);
            return false;
        }
    }
    if (unit <= 0 || bytes % unit != 0) {
        lesson__err(c, lesson__off(c, bv),
                    "%s %lld is not a whole number of elements: expected a multiple of %lld bytes "
                    "(%s of %s on %d ranks)",
                    path, (long long)bytes, (long long)unit, cv_op_name(spec.op),
                    cv_dtype_name(spec.dtype), spec.ranks);
        return false;
    }
    spec.count = bytes / unit;
    char err[CV_ERR_LEN];
    cv_cost cost;
    if (!lesson__model_cost(&spec, link, inter, true, &cost, err, sizeof err)) {
        lesson__err(c, lesson__off(c, v), "%s: %s", where, err);
        return false;
    }
    double value;
    switch ((lesson_cost_quantity)quantity) {
    case LESSON_COST_TIME_S: value = cost.seconds; break;
    case LESSON_COST_TIME_MS: value = cost.seconds * 1e3; break;
    case LESSON_COST_TIME_US: value = cost.seconds * 1e6; break;
    case LESSON_COST_SENT_BYTES: value = (double)cost.max_sent; break;
    case LESSON_COST_SENT_MB: value = (double)cost.max_sent / 1e6; break;
    case LESSON_COST_SENT_GB: value = (double)cost.max_sent / 1e9; break;
    case LESSON_COST_ALGBW_GBPS: value = cost.algbw / 1e9; break;
    case LESSON_COST_BUSBW_GBPS: value = cost.busbw / 1e9; break;
    case LESSON_COST_STEPS: value = cost.steps; break;
    case LESSON_COST_COMM_STEPS: value = cost.comm_steps; break;
    case LESSON_COST_INTER_STEPS: value = cost.inter_rounds; break;
    case LESSON_COST_INTER_SENT_MB: value = (double)cost.max_sent_inter / 1e6; break;
    case LESSON_COST_INTER_SENT_GB: value = (double)cost.max_sent_inter / 1e9; break;
    case LESSON_COST_CROSSOVER_BYTES: value = (double)bytes; break;
    case LESSON_COST_CROSSOVER_KB: value = (double)bytes / 1e3; break;
    case LESSON_COST_CROSSOVER_MB: value = (double)bytes / 1e6; break;
    default: value = 0; break;
    }
    memset(ref, 0, sizeof *ref);
    ref->spec = spec;
    ref->bytes = bytes;
    ref->link = link != &custom ? lesson__strdup(c->arena, link->name) : NULL;
    ref->bw_gbps = link->bw / 1e9;
    ref->alpha_us = link->alpha * 1e6;
    if (inter) {
        ref->inter_link = inter != &inter_custom ? lesson__strdup(c->arena, inter->name) : NULL;
        ref->inter_bw_gbps = inter->bw / 1e9;
        ref->inter_alpha_us = inter->alpha * 1e6;
    }
    ref->value = value;
    ref->quantity = (lesson_cost_quantity)quantity;
    ref->versus = crossover ? (cv_algo)versus : spec.algo;
    char sl[32] = "", nd[96] = "", l1[64], l2[64];
    if (spec.slices > 1)
        snprintf(sl, sizeof sl, ", %d slices", spec.slices);
    describe_link(l1, sizeof l1, link, &custom);
    if (inter) {
        describe_link(l2, sizeof l2, inter, &inter_custom);
        snprintf(nd, sizeof nd, ", %d nodes (between them %s)", spec.nodes, l2);
    }
    if (crossover)
        snprintf(about, aboutlen, "%s %s against %s, %d ranks, %s%s, %s%s", cv_op_name(spec.op),
                 cv_algo_name(spec.algo), cv_algo_name(ref->versus), spec.ranks,
                 cv_dtype_name(spec.dtype), sl, l1, nd);
    else
        snprintf(about, aboutlen, "%s %s, %d ranks, %lld bytes of %s%s, %s%s", cv_op_name(spec.op),
                 cv_algo_name(spec.algo), spec.ranks, (long long)bytes, cv_dtype_name(spec.dtype),
                 sl, l1, nd);
    return true;
}

/* ---------------------------------------------------------- quiz kinds */

static bool read_choice(lesson__ctx *c, lesson__val v, const char *where, lesson_quiz *q)
{
    static const char *const keys[] = {"text", "why", NULL};
    char path[256];
    bool ok = true;
    lesson__val cv = lesson__member(c, v, "choices");
    lesson__path(path, sizeof path, where, "choices");
    if (!cv.j) {
        lesson__err(c, lesson__off(c, v), "missing required key \"choices\" in %s", where);
        ok = false;
    } else if (lesson__want_array(c, cv, path, 2, 6)) {
        q->nchoices = lesson__count(cv);
        q->choices = lesson__alloc(c->arena, (size_t)q->nchoices * sizeof(lesson_choice));
        for (int i = 0; i < q->nchoices; i++) {
            lesson__val e = lesson__item(c, cv, i);
            char ep[288];
            snprintf(ep, sizeof ep, "%s[%d]", path, i);
            if (!lesson__want_object(c, e, ep)) {
                ok = false;
                continue;
            }
            ok = lesson__keys(c, e, ep, keys) && ok;
            ok = lesson__want_text(c, e, "text", ep, true, &q->choices[i].text) > 0 && ok;
            ok = lesson__want_text(c, e, "why", ep, false, &q->choices[i].why) >= 0 && ok;
        }
    } else {
        ok = false;
    }
    long long answer = 0;
    if (lesson__want_int(c, v, "answer", where, true, 0, 1000, &answer) <= 0)
        return false;
    q->answer = (int)answer;
    if (!ok)
        return false;
    if (answer >= q->nchoices) {
        lesson__err(c, lesson__off(c, lesson__member(c, v, "answer")),
                    "%s.answer %lld is out of range: there are %d choices (0 to %d)", where,
                    answer, q->nchoices, q->nchoices - 1);
        return false;
    }
    if (!lesson_text_present(&q->explain)) {
        for (int i = 0; i < q->nchoices; i++) {
            if (i != q->answer && !lesson_text_present(&q->choices[i].why)) {
                lesson__err(c, lesson__off(c, lesson__item(c, cv, i)),
                            "%s[%d] is a wrong choice with no \"why\"; expected a \"why\" on it "
                            "or an \"explain\" on the quiz",
                            path, i);
                ok = false;
            }
        }
    }
    return ok;
}

/* The cost model's own word units have their Chinese built in ("steps",
 * the unit of quantity comm_steps, is 步); NULL for others. */
static const char *builtin_zh(const char *unit)
{
    return strcmp(unit, "steps") == 0 ? "\xE6\xAD\xA5" : NULL;
}

/* Units written in letters that are not symbols (ms, µs, GB, s, bit...)
 * are words a Chinese reader needs in Chinese. */
static bool needs_zh(const char *unit)
{
    static const char *const symbols[] = {"ms", "us", "s", "ns", "kB", "MB", "GB", "TB", "KiB",
                                          "MiB", "GiB", "bit", "GPU", "B", NULL};
    bool letters = strlen(unit) >= 3; /* "x", "k": symbols */
    for (const char *p = unit; *p; p++)
        letters &= (*p >= 'a' && *p <= 'z') || *p == '-';
    for (int i = 0; symbols[i]; i++)
        if (strcmp(unit, symbols[i]) == 0)
            return false;
    return letters;
}

static bool read_number(lesson__ctx *c, lesson__val v, const char *where, lesson_quiz *q)
{
    char path[256];
    bool ok = true;
    const char *unit = NULL;
    int got_unit = lesson__want_string(c, v, "unit", where, true, &unit);
    if (got_unit > 0 && strlen(unit) > 16) {
        lesson__err(c, lesson__off(c, lesson__member(c, v, "unit")),
                    "%s.unit must be at most 16 bytes", where);
        got_unit = -1;
    }
    ok = got_unit > 0 && ok;
    double tol = 0, pct = 0, answer = 0;
    int got_tol = lesson__want_number(c, v, "tolerance", where, false, &tol);
    int got_pct = lesson__want_number(c, v, "tolerance_pct", where, false, &pct);
    if (got_tol > 0 && tol < 0) {
        lesson__path(path, sizeof path, where, "tolerance");
        lesson__type_err(c, lesson__member(c, v, "tolerance"), path, "a number of at least 0");
        got_tol = -1;
    }
    if (got_pct > 0 && (pct <= 0 || pct > 100)) {
        lesson__path(path, sizeof path, where, "tolerance_pct");
        lesson__type_err(c, lesson__member(c, v, "tolerance_pct"), path,
                         "a percentage above 0 and at most 100");
        got_pct = -1;
    }
    if (got_tol > 0 && got_pct > 0) {
        lesson__err(c, lesson__off(c, lesson__member(c, v, "tolerance_pct")),
                    "%s: give either tolerance or tolerance_pct, not both", where);
        ok = false;
    }
    ok = got_tol >= 0 && got_pct >= 0 && ok;
    q->tolerance_pct = got_tol <= 0;
    q->tolerance = got_tol > 0 ? tol : got_pct > 0 ? pct : 5.0;

    lesson__val fc = lesson__member(c, v, "from_cost");
    int got_answer = lesson__want_number(c, v, "answer", where, !fc.j, &answer);
    ok = got_answer >= 0 && ok;
    if (fc.j) {
        char about[256];
        lesson__path(path, sizeof path, where, "from_cost");
        if (!lesson__read_cost(c, fc, path, &q->cost, about, sizeof about))
            return false;
        double model = q->cost.value;
        q->has_cost = true;
        const char *want = lesson_cost_quantity_unit(q->cost.quantity);
        bool micro = strcmp(want, "us") == 0 && strcmp(unit, "\xC2\xB5s") == 0;
        if (got_unit > 0 && strcmp(unit, want) != 0 && !micro) {
            lesson__err(c, lesson__off(c, lesson__member(c, v, "unit")),
                        "%s.unit must be \"%s\" for quantity %s, not \"%s\"", where, want,
                        lesson_cost_quantity_name(q->cost.quantity), unit);
            ok = false;
        }
        if (got_answer > 0) {
            double allowed = q->tolerance_pct ? fabs(model) * q->tolerance / 100 : q->tolerance;
            if (fabs(answer - model) > allowed + 1e-12 * fabs(model)) {
                char m[32], a[32], t[40];
                fmt_num(m, sizeof m, model);
                fmt_num(a, sizeof a, answer);
                if (q->tolerance_pct)
                    snprintf(t, sizeof t, "%g%%", q->tolerance);
                else
                    snprintf(t, sizeof t, "%g %s", q->tolerance, want);
                lesson__err(c, lesson__off(c, lesson__member(c, v, "answer")),
                            "cost model gives %s %s for %s; the answer %s differs by more than the "
                            "tolerance %s",
                            m, want, about, a, t);
                ok = false;
            }
        }
        q->number = got_answer > 0 ? answer : model;
    } else {
        q->number = answer;
    }
    if (got_unit > 0)
        q->unit = lesson__strdup(c->arena, unit);
    const char *zh = NULL;
    int got_zh = lesson__want_string(c, v, "unit_zh", where, false, &zh);
    if (got_zh > 0 && (strlen(zh) > 24 || !zh[0])) {
        lesson__err(c, lesson__off(c, lesson__member(c, v, "unit_zh")),
                    "%s.unit_zh must be 1 to 24 bytes", where);
        ok = false;
    } else if (got_zh > 0) {
        q->unit_zh = lesson__strdup(c->arena, zh);
    } else if (got_unit > 0 && builtin_zh(unit)) {
        q->unit_zh = builtin_zh(unit);
    }
    ok = got_zh >= 0 && ok;
    /* a unit that is an English word needs its Chinese: the Chinese
     * interface would otherwise ask for "sequences" */
    if (got_unit > 0 && got_zh == 0 && !builtin_zh(unit) && needs_zh(unit)) {
        lesson__err(c, lesson__off(c, lesson__member(c, v, "unit")),
                    "%s.unit \"%s\" is an English word: give unit_zh, the unit as the Chinese "
                    "interface shows it", where, unit);
        ok = false;
    }
    return ok;
}

/* A predict quiz looks at the step after its beat's: there must be one. */
static bool has_next_step(lesson__ctx *c, lesson__val v, const char *where, int setup, int step)
{
    if (setup < 0)
        return false;
    int nsteps = c->plans[setup]->nsteps;
    if (step < nsteps)
        return true;
    lesson__err(c, lesson__off(c, v),
                "%s asks about the next step, but its beat is at step %d, the plan's last (%d "
                "steps); expected a beat step from 0 to %d",
                where, step, nsteps, nsteps - 1);
    return false;
}

static bool read_predict_value(lesson__ctx *c, lesson__val v, const char *where, int setup,
                               int step, lesson_quiz *q)
{
    const cv_plan *plan = setup >= 0 ? c->plans[setup] : NULL;
    long long maxrank = plan ? plan->spec.ranks - 1 : CV_MAX_VISUAL_RANKS - 1;
    long long rank = 0, index = 0, answer = 0;
    int buf = 0;
    char path[256];
    bool ok = lesson__want_int(c, v, "rank", where, true, 0, maxrank, &rank) > 0;
    ok = lesson__want_enum(c, v, "buf", where, true, buf_parse, "send, recv, scratch", &buf) > 0 &&
         ok;
    ok = lesson__want_int(c, v, "index", where, true, 0, (long long)1 << 40, &index) > 0 && ok;
    lesson__val ov = lesson__member(c, v, "options");
    lesson__path(path, sizeof path, where, "options");
    if (!ov.j) {
        lesson__err(c, lesson__off(c, v), "missing required key \"options\" in %s", where);
        ok = false;
    } else if (lesson__want_array(c, ov, path, 2, 6)) {
        q->noptions = lesson__count(ov);
        q->options = lesson__alloc(c->arena, (size_t)q->noptions * sizeof(double));
        for (int i = 0; i < q->noptions; i++) {
            lesson__val e = lesson__item(c, ov, i);
            char ep[288];
            snprintf(ep, sizeof ep, "%s[%d]", path, i);
            if (!cJSON_IsNumber(e.j) || !isfinite(e.j->valuedouble)) {
                lesson__type_err(c, e, ep, "a number");
                ok = false;
                continue;
            }
            q->options[i] = e.j->valuedouble;
            for (int k = 0; k < i; k++) {
                if (q->options[k] == q->options[i]) {
                    lesson__err(c, lesson__off(c, e), "%s repeats options[%d]; expected distinct "
                                "values", ep, k);
                    ok = false;
                }
            }
        }
    } else {
        ok = false;
    }
    if (lesson__want_int(c, v, "answer", where, true, 0, 1000, &answer) <= 0)
        return false;
    if (!ok)
        return false;
    if (answer >= q->noptions) {
        lesson__err(c, lesson__off(c, lesson__member(c, v, "answer")),
                    "%s.answer %lld is out of range: there are %d options (0 to %d)", where, answer,
                    q->noptions, q->noptions - 1);
        return false;
    }
    q->rank = (int)rank;
    q->buf = (cv_buf)buf;
    q->index = index;
    q->answer = (int)answer;
    if (plan) {
        int64_t have = cv_plan_buf_count(plan, q->buf, q->rank);
        if (index >= have) {
            lesson__err(c, lesson__off(c, lesson__member(c, v, "index")),
                        "%s.index %lld is outside rank %d's %s buffer (%lld elements)", where,
                        index, q->rank, cv_buf_name(q->buf), (long long)have);
            return false;
        }
    }
    return has_next_step(c, v, where, setup, step);
}

/* Queues a predict-value quiz for the trace check. Only a quiz that read
 * cleanly is queued: a failed one's slot is reused by the next quiz. */
static void queue_trace_check(lesson__ctx *c, lesson__val v, int setup, int step, lesson_quiz *q)
{
    if (c->npending == c->cap_pending) {
        c->cap_pending = c->cap_pending ? c->cap_pending * 2 : 8;
        c->pending = lesson__xrealloc(c->pending, (size_t)c->cap_pending * sizeof(*c->pending));
    }
    c->pending[c->npending++] = (lesson__pending){
        q, setup, step, lesson__off(c, lesson__member(c, v, "answer"))};
}

/* Reports up to five cells of one kind of mismatch, then how many more. */
static void report_cells(lesson__ctx *c, size_t off, const char *where, const lesson_cell *cells,
                         int n, int step, bool unlisted)
{
    for (int i = 0; i < n && i < 5; i++) {
        if (unlisted)
            lesson__err(c, off, "%s: rank %d %s[%lld] is written by step %d but not listed", where,
                        cells[i].rank, cv_buf_name(cells[i].buf), (long long)cells[i].index, step);
        else
            lesson__err(c, off, "%s: rank %d %s[%lld] is listed but not written by step %d", where,
                        cells[i].rank, cv_buf_name(cells[i].buf), (long long)cells[i].index, step);
    }
    if (n > 5)
        lesson__err(c, off, "%s: and %d more cells %s by step %d", where, n - 5,
                    unlisted ? "written but not listed" : "listed but not written", step);
}

static bool read_predict_cells(lesson__ctx *c, lesson__val v, const char *where, int setup,
                               int step, lesson_quiz *q)
{
    char path[256];
    bool ok = true;
    lesson__val cv = lesson__member(c, v, "cells");
    lesson__path(path, sizeof path, where, "cells");
    if (!cv.j) {
        lesson__err(c, lesson__off(c, v), "missing required key \"cells\" in %s", where);
        return false;
    }
    if (!lesson__want_array(c, cv, path, 1, 256))
        return false;
    q->ncells = lesson__count(cv);
    q->cells = lesson__alloc(c->arena, (size_t)q->ncells * sizeof(lesson_chunk));
    for (int i = 0; i < q->ncells; i++) {
        char ep[288];
        snprintf(ep, sizeof ep, "%s[%d]", path, i);
        lesson__val e = lesson__item(c, cv, i);
        if (!lesson__read_chunk(c, e, ep, setup, &q->cells[i])) {
            ok = false;
            continue;
        }
        const lesson_chunk *a = &q->cells[i];
        for (int k = 0; k < i; k++) {
            const lesson_chunk *b = &q->cells[k];
            if (a->rank == b->rank && a->buf == b->buf && a->first < b->first + b->count &&
                b->first < a->first + a->count) {
                lesson__err(c, lesson__off(c, e), "%s overlaps %s[%d]", ep, path, k);
                ok = false;
            }
        }
    }
    if (!ok || !has_next_step(c, v, where, setup, step))
        return false;

    /* Mark what the plan's next step writes and what the quiz lists. */
    const cv_plan *plan = c->plans[setup];
    int ranks = plan->spec.ranks;
    size_t cells = (size_t)ranks * CV_BUF_COUNT * LESSON_MAX_ELEMS;
    unsigned char *mark = lesson__xcalloc(cells, 1); /* bit 1 written, bit 2 listed */
#define LESSON__CELL(r, b, i) mark[((size_t)(r) * CV_BUF_COUNT + (size_t)(b)) * LESSON_MAX_ELEMS + (size_t)(i)]
    const cv_step *st = &plan->steps[step];
    for (int64_t t = st->first; t < st->first + st->count; t++) {
        const cv_transfer *x = &plan->transfers[t];
        if (x->dst >= ranks) /* the switch of an in-network plan: not a cell to click */
            continue;
        for (int64_t i = 0; i < x->count && x->dst_off + i < LESSON_MAX_ELEMS; i++)
            LESSON__CELL(x->dst, x->dst_buf, x->dst_off + i) |= 1;
    }
    for (int k = 0; k < q->ncells; k++) {
        const lesson_chunk *ch = &q->cells[k];
        for (int64_t i = 0; i < ch->count; i++)
            LESSON__CELL(ch->rank, ch->buf, ch->first + i) |= 2;
    }
    lesson_cell *missing = lesson__xcalloc(cells, sizeof(lesson_cell));
    lesson_cell *extra = lesson__xcalloc(cells, sizeof(lesson_cell));
    int nmissing = 0, nextra = 0;
    for (int r = 0; r < ranks; r++)
        for (int b = 0; b < CV_BUF_COUNT; b++)
            for (int i = 0; i < LESSON_MAX_ELEMS; i++) {
                unsigned m = LESSON__CELL(r, b, i);
                lesson_cell cell = {r, (cv_buf)b, i};
                if (m == 1)
                    missing[nmissing++] = cell;
                else if (m == 2)
                    extra[nextra++] = cell;
            }
#undef LESSON__CELL
    size_t off = lesson__off(c, cv);
    report_cells(c, off, path, missing, nmissing, step + 1, true);
    report_cells(c, off, path, extra, nextra, step + 1, false);
    free(missing);
    free(extra);
    free(mark);
    return nmissing == 0 && nextra == 0;
}

bool lesson__read_quiz(lesson__ctx *c, lesson__val v, const char *where, int beat, int setup,
                       int step, lesson_quiz *q)
{
    static const char *const common[] = {"id", "kind", "prompt", "card", "explain", "mistake"};
    static const char *const extra[LESSON_QUIZ_KIND_COUNT][7] = {
        {"choices", "answer"},
        {"answer", "unit", "unit_zh", "tolerance", "tolerance_pct", "from_cost"},
        {"rank", "buf", "index", "options", "answer"},
        {"cells"},
    };
    if (!lesson__want_object(c, v, where))
        return false;
    memset(q, 0, sizeof *q);
    q->beat = beat;
    char names[256];
    int kind = -1;
    lesson__names(names, sizeof names, kind_name, LESSON_QUIZ_KIND_COUNT);
    if (lesson__want_enum(c, v, "kind", where, true, kind_parse, names, &kind) <= 0)
        return false;
    q->kind = (lesson_quiz_kind)kind;
    const char *allowed[16];
    int n = 0;
    for (size_t i = 0; i < sizeof common / sizeof *common; i++)
        allowed[n++] = common[i];
    for (int i = 0; extra[kind][i]; i++)
        allowed[n++] = extra[kind][i];
    allowed[n] = NULL;
    bool ok = lesson__keys(c, v, where, allowed);
    ok = lesson__want_id(c, v, "id", where, true, &q->id) > 0 && ok;
    ok = lesson__want_text(c, v, "prompt", where, true, &q->prompt) > 0 && ok;
    ok = lesson__want_text(c, v, "card", where, true, &q->card) > 0 && ok;
    ok = lesson__want_text(c, v, "explain", where, q->kind != LESSON_QUIZ_CHOICE, &q->explain) >= 0 &&
         ok;
    /* The mistake card it names; the lesson checks the index once its
     * mistakes are read (lesson_load.c). */
    long long mistake = -1;
    if (lesson__want_int(c, v, "mistake", where, false, 0, LESSON_MAX_MISTAKES - 1, &mistake) < 0)
        ok = false;
    q->mistake = (int)mistake;
    switch (q->kind) {
    case LESSON_QUIZ_CHOICE: ok = read_choice(c, v, where, q) && ok; break;
    case LESSON_QUIZ_NUMBER: ok = read_number(c, v, where, q) && ok; break;
    case LESSON_QUIZ_PREDICT_VALUE: ok = read_predict_value(c, v, where, setup, step, q) && ok; break;
    default: ok = read_predict_cells(c, v, where, setup, step, q) && ok; break;
    }
    ok = ok && q->id;
    if (ok && q->kind == LESSON_QUIZ_PREDICT_VALUE)
        queue_trace_check(c, v, setup, step, q);
    return ok;
}

/*
 * lesson_load.c: reads one lesson file into a lesson (docs/LESSONS.md is the
 * format). Loading is validating: the shared JSON reader (collectives/json/jr.h)
 * refuses a file that is not a regular file or is above the size cap
 * unread, checks its syntax, the text a terminal would act on and keys
 * given twice, and gives every value its place; then the lesson is walked
 * key by key. The walk never stops at the first problem: each reader reports
 * and the walk carries on, so a writer sees every problem of a file at once.
 *
 * Setups are turned into plans as they are met, so each beat's step and
 * highlight is checked against the real plan; quizzes are checked in
 * lesson_quiz_load.c and, against a trace, in lesson_verify.c.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lesson_walk.h"

static const char *op_name(int i) { return cv_op_name((cv_op)i); }
static const char *algo_name(int i) { return cv_algo_name((cv_algo)i); }
static const char *dtype_name(int i) { return cv_dtype_name((cv_dtype)i); }
static const char *redop_name(int i) { return cv_redop_name((cv_redop)i); }
static const char *init_name(int i) { return cv_init_name((cv_init)i); }
static const char *track_name(int i) { return lesson_track_name((lesson_track)i); }

/* Registers a setup and its plan (NULL when bad); returns its index. */
static int add_setup(lesson__ctx *c, const lesson_setup *s, cv_plan *plan)
{
    if (c->nsetups == c->cap_setups) {
        c->cap_setups = c->cap_setups ? c->cap_setups * 2 : 4;
        c->setups = lesson__xrealloc(c->setups, (size_t)c->cap_setups * sizeof(*c->setups));
        c->plans = lesson__xrealloc(c->plans, (size_t)c->cap_setups * sizeof(*c->plans));
    }
    c->setups[c->nsetups] = *s;
    c->plans[c->nsetups] = plan;
    return c->nsetups++;
}

/* Checks what the engine and the stage can show, then builds the plan. */
static cv_plan *setup_plan(lesson__ctx *c, lesson__val v, const char *where, const lesson_setup *s)
{
    char err[CV_ERR_LEN];
    if (cv_spec_check(&s->spec, CV_MAX_VISUAL_RANKS, err, sizeof err) != CV_OK) {
        lesson__err(c, lesson__off(c, v), "%s: %s", where, err);
        return NULL;
    }
    for (int r = 0; r < s->spec.ranks; r++) {
        for (int b = CV_BUF_SEND; b <= CV_BUF_RECV; b++) {
            int64_t n = cv_spec_buf_count(&s->spec, (cv_buf)b, r);
            if (n > LESSON_MAX_ELEMS) {
                lesson__err(c, lesson__off(c, v),
                            "%s: rank %d's %s buffer would hold %lld elements; the stage shows "
                            "at most %d per buffer (lower count or ranks)",
                            where, r, cv_buf_name((cv_buf)b), (long long)n, LESSON_MAX_ELEMS);
                return NULL;
            }
        }
    }
    cv_plan *plan = NULL;
    if (cv_plan_create(&s->spec, &plan, err, sizeof err) != CV_OK) {
        lesson__err(c, lesson__off(c, v), "%s: the engine cannot build this plan: %s", where, err);
        return NULL;
    }
    if (plan->scratch_count > LESSON_MAX_ELEMS || plan->switch_scratch > LESSON_MAX_ELEMS) {
        lesson__err(c, lesson__off(c, v),
                    "%s: the scratch buffer would hold %lld elements; the stage shows at most %d "
                    "per buffer (lower count or ranks)",
                    where,
                    (long long)(plan->scratch_count > plan->switch_scratch ? plan->scratch_count
                                                                            : plan->switch_scratch),
                    LESSON_MAX_ELEMS);
        cv_plan_destroy(plan);
        return NULL;
    }
    return plan;
}

/* One array of n ranks (a ring, or a tree's parents, -1 allowed) into out;
 * false after reporting. */
static bool read_rank_list(lesson__ctx *c, lesson__val a, const char *where, int n, bool parents,
                           int32_t *out)
{
    if (!lesson__want_array(c, a, where, n, n))
        return false;
    bool ok = true;
    for (int i = 0; i < n; i++) {
        lesson__val e = lesson__item(c, a, i);
        char ep[300], what[80];
        snprintf(ep, sizeof ep, "%s[%d]", where, i);
        snprintf(what, sizeof what, parents ? "a rank from 0 to %d, or -1 for the root"
                                             : "a rank from 0 to %d",
                 n - 1);
        double d = cJSON_IsNumber(e.j) ? e.j->valuedouble : -2;
        if (d < (parents ? -1 : 0) || d > n - 1 || (double)(int)d != d) {
            lesson__type_err(c, e, ep, what);
            ok = false;
            continue;
        }
        out[i] = (int32_t)d;
    }
    return ok;
}

/* "ring" and "trees": the ring and the double tree the stage follows, as
 * an NCCL log gives them (`collviz nccl-log --json` prints both). A setup
 * that gives neither keeps the lesson's, unless its rank count differs. */
static bool read_topology(lesson__ctx *c, lesson__val v, const char *where, lesson_setup *s)
{
    lesson__val ring = lesson__member(c, v, "ring"), trees = lesson__member(c, v, "trees");
    int n = s->spec.ranks;
    if (!ring.j && !trees.j) {
        if (s->spec.topo && s->spec.topo->ranks != n)
            s->spec.topo = NULL;
        return true;
    }
    cv_topology *t = lesson__alloc(c->arena, sizeof *t);
    if (s->spec.topo && s->spec.topo->ranks == n)
        *t = *s->spec.topo;
    t->ranks = n;
    char path[256];
    bool ok = true;
    if (ring.j) {
        lesson__path(path, sizeof path, where, "ring");
        t->has_ring = ok = read_rank_list(c, ring, path, n, false, t->ring);
    }
    if (trees.j) {
        lesson__path(path, sizeof path, where, "trees");
        if (lesson__want_array(c, trees, path, 2, 2)) {
            char tp[288];
            for (int k = 0; k < 2; k++) {
                snprintf(tp, sizeof tp, "%s[%d]", path, k);
                ok = read_rank_list(c, lesson__item(c, trees, k), tp, n, true, t->parent[k]) && ok;
            }
            t->has_trees = ok;
        } else {
            ok = false;
        }
    }
    char err[CV_ERR_LEN];
    if (ok && cv_topology_check(t, err, sizeof err) != CV_OK) {
        lesson__err(c, lesson__off(c, ring.j ? ring : trees), "%s: %s", where, err);
        ok = false;
    }
    s->spec.topo = t;
    return ok;
}

/* The lesson's setup (override false) or a beat's override of it. Returns
 * the setup's index, or -1 when it is bad. */
static int read_setup(lesson__ctx *c, lesson__val v, const char *where, bool override)
{
    static const char *const keys[] = {"op",    "algo",  "ranks", "count", "dtype", "redop",
                                       "root",  "slices", "nodes", "init", "seed",  "ring",
                                       "trees", NULL};
    if (!lesson__want_object(c, v, where))
        return -1;
    if (override && !v.j->child)
        return c->plans[0] ? 0 : -1; /* "setup": {} goes back to the lesson's own */
    bool ok = lesson__keys(c, v, where, keys);
    lesson_setup s;
    if (override) {
        s = c->setups[0];
    } else {
        cv_spec_init(&s.spec);
        s.init = CV_INIT_INDEX;
        s.seed = 1;
    }
    char names[512];
    int op = (int)s.spec.op, algo = -1, dtype = (int)s.spec.dtype, redop = (int)s.spec.redop;
    int init = (int)s.init;
    long long ranks = s.spec.ranks, count = s.spec.count, root = s.spec.root;
    long long slices = s.spec.slices, seed = (long long)s.seed;
    long long nodes = s.spec.nodes > 1 ? s.spec.nodes : 1;

    lesson__names(names, sizeof names, op_name, CV_OP_COUNT);
    int got_op = lesson__want_enum(c, v, "op", where, !override, cv_op_parse, names, &op);
    ok = got_op >= 0 && ok;
    lesson__names(names, sizeof names, algo_name, CV_ALGO_COUNT);
    int got_algo = lesson__want_enum(c, v, "algo", where, false, cv_algo_parse, names, &algo);
    ok = got_algo >= 0 && ok;
    ok = lesson__want_int(c, v, "ranks", where, !override, 1, LESSON_MAX_RANKS, &ranks) >= 0 && ok;
    ok = lesson__want_int(c, v, "count", where, !override, 1, 1 << 20, &count) >= 0 && ok;
    lesson__names(names, sizeof names, dtype_name, CV_DTYPE_COUNT);
    ok = lesson__want_enum(c, v, "dtype", where, false, cv_dtype_parse, names, &dtype) >= 0 && ok;
    lesson__names(names, sizeof names, redop_name, CV_REDOP_COUNT);
    ok = lesson__want_enum(c, v, "redop", where, false, cv_redop_parse, names, &redop) >= 0 && ok;
    ok = lesson__want_int(c, v, "root", where, false, 0, LESSON_MAX_RANKS - 1, &root) >= 0 && ok;
    ok = lesson__want_int(c, v, "slices", where, false, 1, CV_MAX_SLICES, &slices) >= 0 && ok;
    ok = lesson__want_int(c, v, "nodes", where, false, 1, LESSON_MAX_RANKS, &nodes) >= 0 && ok;
    lesson__names(names, sizeof names, init_name, CV_INIT_COUNT);
    ok = lesson__want_enum(c, v, "init", where, false, cv_init_parse, names, &init) >= 0 && ok;
    ok = lesson__want_int(c, v, "seed", where, false, 0, (long long)1 << 53, &seed) >= 0 && ok;
    if (!ok)
        return -1;
    if (override && c->plans[0] == NULL)
        return -1; /* the lesson's own setup is bad and already reported */

    s.spec.op = (cv_op)op;
    if (got_algo > 0) {
        if (!cv_op_has_algo(s.spec.op, (cv_algo)algo)) {
            cv_algo offered[CV_ALGO_COUNT];
            int n = cv_op_algos(s.spec.op, offered);
            names[0] = '\0';
            for (int i = 0; i < n; i++) {
                if (i)
                    strncat(names, ", ", sizeof names - strlen(names) - 1);
                strncat(names, cv_algo_name(offered[i]), sizeof names - strlen(names) - 1);
            }
            lesson__val av = lesson__member(c, v, "algo");
            lesson__err(c, lesson__off(c, av), "%s.algo \"%s\" is not offered for %s; expected one of: %s",
                        where, cv_algo_name((cv_algo)algo), cv_op_name(s.spec.op), names);
            return -1;
        }
        s.spec.algo = (cv_algo)algo;
    } else if (!override || (got_op > 0 && s.spec.op != c->setups[0].spec.op)) {
        cv_algo offered[CV_ALGO_COUNT];
        if (cv_op_algos(s.spec.op, offered) > 0)
            s.spec.algo = offered[0];
    }
    s.spec.ranks = (int)ranks;
    s.spec.count = count;
    s.spec.dtype = (cv_dtype)dtype;
    s.spec.redop = (cv_redop)redop;
    s.spec.root = (int)root;
    s.spec.slices = (int)slices;
    s.spec.nodes = (int)nodes;
    s.init = (cv_init)init;
    s.seed = (uint64_t)seed;
    if (!read_topology(c, v, where, &s))
        return -1;
    cv_plan *plan = setup_plan(c, v, where, &s);
    if (!plan)
        return -1;
    return add_setup(c, &s, plan);
}

static bool read_highlight(lesson__ctx *c, lesson__val v, const char *where, int setup,
                           lesson_highlight *h)
{
    static const char *const keys[] = {"ranks", "chunks", "links", NULL};
    if (!lesson__want_object(c, v, where))
        return false;
    bool ok = lesson__keys(c, v, where, keys);
    if (!v.j->child) {
        lesson__err(c, lesson__off(c, v), "%s needs at least one of: ranks, chunks, links", where);
        return false;
    }
    const cv_plan *plan = setup >= 0 ? c->plans[setup] : NULL;
    int maxrank = plan ? plan->spec.ranks - 1 : CV_MAX_VISUAL_RANKS - 1;
    char path[256];

    lesson__val a = lesson__member(c, v, "ranks");
    lesson__path(path, sizeof path, where, "ranks");
    if (a.j && lesson__want_array(c, a, path, 1, CV_MAX_VISUAL_RANKS)) {
        h->nranks = lesson__count(a);
        h->ranks = lesson__alloc(c->arena, (size_t)h->nranks * sizeof(int));
        for (int i = 0; i < h->nranks; i++) {
            lesson__val e = lesson__item(c, a, i);
            char ep[288], what[64];
            snprintf(ep, sizeof ep, "%s[%d]", path, i);
            snprintf(what, sizeof what, "a rank from 0 to %d", maxrank);
            double d = cJSON_IsNumber(e.j) ? e.j->valuedouble : -1;
            if (d < 0 || d > maxrank || (double)(int)d != d) {
                lesson__type_err(c, e, ep, what);
                ok = false;
                continue;
            }
            h->ranks[i] = (int)d;
            for (int k = 0; k < i; k++) {
                if (h->ranks[k] == h->ranks[i]) {
                    lesson__err(c, lesson__off(c, e), "%s: rank %d is listed twice", ep, (int)d);
                    ok = false;
                }
            }
        }
    } else if (a.j) {
        ok = false;
    }

    lesson__val ch = lesson__member(c, v, "chunks");
    lesson__path(path, sizeof path, where, "chunks");
    if (ch.j && lesson__want_array(c, ch, path, 1, 256)) {
        h->nchunks = lesson__count(ch);
        h->chunks = lesson__alloc(c->arena, (size_t)h->nchunks * sizeof(lesson_chunk));
        for (int i = 0; i < h->nchunks; i++) {
            char ep[288];
            snprintf(ep, sizeof ep, "%s[%d]", path, i);
            ok = lesson__read_chunk(c, lesson__item(c, ch, i), ep, setup, &h->chunks[i]) && ok;
        }
    } else if (ch.j) {
        ok = false;
    }

    lesson__val ln = lesson__member(c, v, "links");
    lesson__path(path, sizeof path, where, "links");
    if (ln.j && lesson__want_array(c, ln, path, 1, 256)) {
        h->nlinks = lesson__count(ln);
        h->links = lesson__alloc(c->arena, (size_t)h->nlinks * sizeof(lesson_link));
        for (int i = 0; i < h->nlinks; i++) {
            lesson__val e = lesson__item(c, ln, i);
            char ep[288], what[96];
            snprintf(ep, sizeof ep, "%s[%d]", path, i);
            snprintf(what, sizeof what, "a pair [src, dst] of different ranks from 0 to %d",
                     maxrank);
            lesson__val s = lesson__item(c, e, 0), d = lesson__item(c, e, 1);
            bool pair = cJSON_IsArray(e.j) && lesson__count(e) == 2 && cJSON_IsNumber(s.j) &&
                        cJSON_IsNumber(d.j) && floor(s.j->valuedouble) == s.j->valuedouble &&
                        floor(d.j->valuedouble) == d.j->valuedouble;
            if (!pair) {
                lesson__type_err(c, e, ep, what);
                ok = false;
                continue;
            }
            double sv = s.j->valuedouble, dv = d.j->valuedouble;
            if (sv < 0 || sv > maxrank || dv < 0 || dv > maxrank) {
                char st[64], dt[64];
                lesson__err(c, lesson__off(c, e), "%s: [%s, %s] names a rank outside 0 to %d", ep,
                            lesson__found(c, s, st, sizeof st),
                            lesson__found(c, d, dt, sizeof dt), maxrank);
                ok = false;
                continue;
            }
            if (sv == dv) {
                lesson__err(c, lesson__off(c, e), "%s goes from rank %d to itself; expected two "
                            "different ranks", ep, (int)sv);
                ok = false;
                continue;
            }
            h->links[i].src = (int)sv;
            h->links[i].dst = (int)dv;
        }
    } else if (ln.j) {
        ok = false;
    }
    return ok;
}

/* A beat's step: an integer, "start" or "end", within the setup's plan. */
static bool read_step(lesson__ctx *c, lesson__val bv, const char *where, int setup, int *step)
{
    lesson__val v = lesson__member(c, bv, "step");
    char path[256];
    lesson__path(path, sizeof path, where, "step");
    if (!v.j) {
        lesson__err(c, lesson__off(c, bv), "missing required key \"step\" in %s", where);
        return false;
    }
    int nsteps = setup >= 0 ? c->plans[setup]->nsteps : -1;
    if (cJSON_IsString(v.j) && strcmp(v.j->valuestring, "start") == 0) {
        *step = 0;
        return true;
    }
    if (cJSON_IsString(v.j) && strcmp(v.j->valuestring, "end") == 0) {
        *step = nsteps > 0 ? nsteps : 0;
        return true;
    }
    double d = cJSON_IsNumber(v.j) ? v.j->valuedouble : -1;
    if (d < 0 || d > (1 << 30) || (double)(int)d != d) {
        char what[96];
        if (nsteps >= 0)
            snprintf(what, sizeof what, "an integer from 0 to %d, \"start\" or \"end\"", nsteps);
        else
            snprintf(what, sizeof what, "an integer of at least 0, \"start\" or \"end\"");
        lesson__type_err(c, v, path, what);
        return false;
    }
    if (nsteps >= 0 && d > nsteps) {
        const cv_spec *sp = &c->plans[setup]->spec;
        lesson__err(c, lesson__off(c, v),
                    "step %d is beyond the plan's step count %d (%s %s on %d ranks); expected 0 "
                    "to %d, \"start\" or \"end\"",
                    (int)d, nsteps, cv_op_name(sp->op), cv_algo_name(sp->algo), sp->ranks, nsteps);
        return false;
    }
    *step = (int)d;
    return true;
}

static void read_beats(lesson__ctx *c, lesson__val root)
{
    static const char *const keys[] = {"step", "text",    "setup",    "highlight",
                                       "quiz", "diagram", "timeline", NULL};
    lesson *l = c->l;
    lesson__val beats = lesson__member(c, root, "beats");
    if (!beats.j) {
        lesson__err(c, lesson__off(c, root), "missing required key \"beats\" in the lesson");
        return;
    }
    if (!lesson__want_array(c, beats, "beats", 1, LESSON_MAX_BEATS))
        return;
    l->nbeats = lesson__count(beats);
    l->beats = lesson__alloc(c->arena, (size_t)l->nbeats * sizeof(lesson_beat));
    l->quizzes = lesson__alloc(c->arena, (size_t)l->nbeats * sizeof(lesson_quiz));
    size_t *quiz_id_off = lesson__xcalloc((size_t)l->nbeats, sizeof(size_t));
    int cur = c->plans[0] ? 0 : -1, quizzes_given = 0;
    lesson_diagram *diagram = NULL;
    lesson_timeline *timeline = NULL;

    for (int i = 0; i < l->nbeats; i++) {
        lesson__val bv = lesson__item(c, beats, i);
        lesson_beat *b = &l->beats[i];
        char where[64];
        snprintf(where, sizeof where, "beats[%d]", i);
        if (!lesson__want_object(c, bv, where))
            continue;
        lesson__keys(c, bv, where, keys);

        lesson__val sv = lesson__member(c, bv, "setup");
        if (sv.j) {
            char path[96];
            lesson__path(path, sizeof path, where, "setup");
            int prev = cur;
            cur = read_setup(c, sv, path, true);
            b->new_setup = cur != prev;
        }
        b->setup = cur >= 0 ? cur : 0;
        read_step(c, bv, where, cur, &b->step);
        lesson__want_text(c, bv, "text", where, true, &b->text);

        lesson__val hv = lesson__member(c, bv, "highlight");
        if (hv.j) {
            char path[96];
            lesson__path(path, sizeof path, where, "highlight");
            read_highlight(c, hv, path, cur, &b->highlight);
        }
        lesson__val dv = lesson__member(c, bv, "diagram");
        if (dv.j) {
            char path[96];
            lesson__path(path, sizeof path, where, "diagram");
            diagram = cJSON_IsNull(dv.j) ? NULL : lesson__read_diagram(c, dv, path);
        }
        b->diagram = diagram;
        lesson__val tv = lesson__member(c, bv, "timeline");
        if (tv.j) {
            char path[96];
            lesson__path(path, sizeof path, where, "timeline");
            timeline = cJSON_IsNull(tv.j) ? NULL : lesson__read_timeline(c, tv, path);
        }
        b->timeline = timeline;

        lesson__val qv = lesson__member(c, bv, "quiz");
        if (qv.j) {
            char path[96];
            lesson__path(path, sizeof path, where, "quiz");
            quizzes_given++;
            lesson_quiz *q = &l->quizzes[l->nquizzes];
            if (lesson__read_quiz(c, qv, path, i, cur, b->step, q)) {
                lesson__val idv = lesson__member(c, qv, "id");
                quiz_id_off[l->nquizzes] = lesson__off(c, idv);
                for (int k = 0; k < l->nquizzes; k++) {
                    if (strcmp(l->quizzes[k].id, q->id) == 0)
                        lesson__err(c, quiz_id_off[l->nquizzes],
                                    "duplicate quiz id \"%s\" (also beats[%d].quiz)", q->id,
                                    l->quizzes[k].beat);
                }
                b->quiz = q;
                l->nquizzes++;
                lesson__position(c, quiz_id_off[l->nquizzes - 1], &q->line, &q->col);
                lesson__check_giveaway(c, lesson__off(c, lesson__member(c, bv, "text")),
                                       &b->text, q);
                if (i > 0) {
                    char place[32];
                    snprintf(place, sizeof place, "beats[%d]", i - 1);
                    lesson__check_giveaway_at(
                        c, lesson__off(c, lesson__member(c, lesson__item(c, beats, i - 1), "text")),
                        &l->beats[i - 1].text, q, place);
                }
                lesson__check_giveaway_at(c, lesson__off(c, lesson__member(c, root, "title")),
                                          &l->title, q, "the title");
                if (lesson_text_present(&l->summary))
                    lesson__check_giveaway_at(c,
                                              lesson__off(c, lesson__member(c, root, "summary")),
                                              &l->summary, q, "the summary");
            }
        }
    }
    free(quiz_id_off);
    if (quizzes_given < LESSON_MIN_QUIZZES)
        lesson__err(c, lesson__off(c, beats), "a lesson needs at least %d quizzes; this one has %d",
                    LESSON_MIN_QUIZZES, quizzes_given);
}

static void read_mistakes_and_sources(lesson__ctx *c, lesson__val root)
{
    static const char *const keys[] = {"myth", "truth", NULL};
    lesson *l = c->l;
    lesson__val m = lesson__member(c, root, "mistakes");
    if (m.j && lesson__want_array(c, m, "mistakes", 0, LESSON_MAX_MISTAKES)) {
        l->nmistakes = lesson__count(m);
        l->mistakes = lesson__alloc(c->arena, (size_t)l->nmistakes * sizeof(lesson_mistake));
        for (int i = 0; i < l->nmistakes; i++) {
            lesson__val v = lesson__item(c, m, i);
            char where[64];
            snprintf(where, sizeof where, "mistakes[%d]", i);
            if (!lesson__want_object(c, v, where))
                continue;
            lesson__keys(c, v, where, keys);
            lesson__want_text(c, v, "myth", where, true, &l->mistakes[i].myth);
            lesson__want_text(c, v, "truth", where, true, &l->mistakes[i].truth);
        }
    }
    lesson__val s = lesson__member(c, root, "sources");
    if (s.j && lesson__want_array(c, s, "sources", 0, 20)) {
        l->nsources = lesson__count(s);
        l->sources = lesson__alloc(c->arena, (size_t)l->nsources * sizeof(char *));
        for (int i = 0; i < l->nsources; i++) {
            lesson__val v = lesson__item(c, s, i);
            char where[64];
            snprintf(where, sizeof where, "sources[%d]", i);
            if (!cJSON_IsString(v.j) || !v.j->valuestring[0]) {
                lesson__type_err(c, v, where, "a non-empty string");
                continue;
            }
            l->sources[i] = lesson__strdup(c->arena, v.j->valuestring);
        }
    }
}

/* A quiz that names a mistake card must name one the lesson has: the
 * drill shows that card, and only that one, after the quiz. */
static void check_mistake_links(lesson__ctx *c, lesson__val root)
{
    lesson *l = c->l;
    lesson__val beats = lesson__member(c, root, "beats");
    for (int i = 0; i < l->nbeats; i++) {
        const lesson_quiz *q = l->beats[i].quiz;
        if (!q || q->mistake < l->nmistakes)
            continue;
        lesson__val quiz = lesson__member(c, lesson__item(c, beats, i), "quiz");
        lesson__val v = lesson__member(c, quiz, "mistake");
        if (l->nmistakes == 0)
            lesson__err(c, lesson__off(c, v),
                        "beats[%d].quiz.mistake %d names a mistake card, but the lesson has none",
                        i, q->mistake);
        else
            lesson__err(c, lesson__off(c, v),
                        "beats[%d].quiz.mistake %d names no mistake card: the lesson has %d "
                        "(0 to %d)",
                        i, q->mistake, l->nmistakes, l->nmistakes - 1);
    }
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static void read_lesson(lesson__ctx *c, lesson__val root)
{
    static const char *const keys[] = {"format",   "id",      "track",   "order",
                                       "title",    "summary", "setup",   "beats",
                                       "mistakes", "sources", "figures", NULL};
    lesson *l = c->l;
    lesson__pos *pos = lesson__positions(l);
    char names[256];
    lesson__keys(c, root, "", keys);

    long long format = 0;
    /* The only version so far: anything else, a number or not, is told so. */
    lesson__want_int(c, root, "format", "", true, LESSON_FORMAT, LESSON_FORMAT, &format);

    const char *id = NULL;
    lesson__val idv = lesson__member(c, root, "id");
    if (lesson__want_id(c, root, "id", "", true, &id) > 0) {
        l->id = id;
        lesson__position(c, lesson__off(c, idv), &pos->id_line, &pos->id_col);
        if (c->name && c->l->path) {
            char want[LESSON_MAX_ID + 8];
            snprintf(want, sizeof want, "%s.json", id);
            if (strcmp(base_name(c->name), want) != 0)
                lesson__err(c, lesson__off(c, idv),
                            "id \"%s\" does not match the file name \"%s\"; expected the file to "
                            "be named %s",
                            id, base_name(c->name), want);
        }
    } else {
        l->id = "?";
    }

    int track = 0;
    lesson__names(names, sizeof names, track_name, LESSON_TRACK_COUNT);
    lesson__want_enum(c, root, "track", "", true, lesson_track_parse, names, &track);
    l->track = (lesson_track)track;
    long long order = 0;
    if (lesson__want_int(c, root, "order", "", true, 1, 100000, &order) > 0)
        lesson__position(c, lesson__off(c, lesson__member(c, root, "order")), &pos->order_line,
                         &pos->order_col);
    l->order = (int)order;
    lesson__want_text(c, root, "title", "", true, &l->title);
    lesson__want_text(c, root, "summary", "", false, &l->summary);

    lesson__val sv = lesson__member(c, root, "setup");
    if (!sv.j) {
        lesson__err(c, lesson__off(c, root), "missing required key \"setup\" in the lesson");
        lesson_setup none = {0};
        cv_spec_init(&none.spec);
        add_setup(c, &none, NULL);
    } else if (read_setup(c, sv, "setup", false) < 0) {
        /* a placeholder keeps index 0 the lesson's own setup; its NULL plan
         * tells later checks that the setup is already reported bad */
        lesson_setup none = {0};
        cv_spec_init(&none.spec);
        add_setup(c, &none, NULL);
    }
    read_beats(c, root);
    read_mistakes_and_sources(c, root);
    check_mistake_links(c, root);
    lesson__read_figures(c, root);

    for (int i = 0; i < l->nquizzes; i++) {
        lesson_quiz *q = &l->quizzes[i];
        size_t n = strlen(l->id) + strlen(q->id) + 2;
        char *key = lesson__alloc(c->arena, n);
        snprintf(key, n, "%s/%s", l->id, q->id);
        q->key = key;
    }
}

static void ctx_free(lesson__ctx *c)
{
    for (int i = 0; i < c->nsetups; i++)
        cv_plan_destroy(c->plans[i]);
    free(c->plans);
    free(c->setups);
    free(c->pending);
}

/* The walk reports in passes (structure, then traces); a writer reads the
 * file top to bottom, so its messages are put in line order (stable). */
static void sort_diags(lesson_diags *d, int first)
{
    for (int i = first + 1; i < d->count; i++) {
        lesson_diag g = d->items[i];
        int k = i;
        while (k > first && (d->items[k - 1].line > g.line ||
                             (d->items[k - 1].line == g.line && d->items[k - 1].col > g.col))) {
            d->items[k] = d->items[k - 1];
            k--;
        }
        d->items[k] = g;
    }
}

/* The reader's refusal as the loader's message: where the reader could
 * place it, at its line and column (a file too big at 1:1), with "not
 * JSON: " before a syntax error. */
static void reader_diag(lesson_diags *diags, const char *shown, const jr_error *e)
{
    int line = e->line, col = e->col;
    if (e->status == JR_EBIG)
        line = col = 1;
    lesson_diags_add(diags, shown, line, col, "%s%s", e->status == JR_ESYNTAX ? "not JSON: " : "",
                     e->msg);
}

/* How every lesson is read: the course's limits, and lesson text that no
 * terminal would act on (the reader's text check). */
static const jr_opts lesson_read = {.max_bytes = LESSON_MAX_FILE_BYTES,
                                    .max_depth = LESSON_MAX_DEPTH,
                                    .text_name = "lesson text",
                                    .root_name = "the lesson"};

/* Walks a document the reader accepted; name NULL: a buffer. */
static int load_doc(const char *name, const jr_doc *doc, unsigned flags, lesson **out,
                    lesson_diags *diags)
{
    const char *shown = name ? name : "<buffer>";
    int first_diag = diags->count;
    lesson__ctx c = {.name = shown, .doc = doc, .diags = diags, .flags = flags};
    c.arena = lesson__arena_create();
    lesson *l = lesson__alloc(c.arena, sizeof(lesson));
    l->arena_ = c.arena;
    l->path = name ? lesson__strdup(c.arena, name) : NULL;
    l->id = "?";
    c.l = l;
    lesson__val root = jr_root(doc);
    if (!cJSON_IsObject(root.j)) {
        char found[64];
        lesson__found(&c, root, found, sizeof found);
        lesson__err(&c, lesson__off(&c, root), "the lesson must be a JSON object, not %s", found);
    } else {
        read_lesson(&c, root);
        if (!(flags & LESSON_LOAD_NO_TRACE))
            lesson__check_traces(&c);
    }
    sort_diags(diags, first_diag);

    if (c.errors > 0) {
        ctx_free(&c);
        lesson__arena_destroy(c.arena);
        return -1;
    }
    l->nsetups = c.nsetups;
    l->setups = lesson__alloc(c.arena, (size_t)c.nsetups * sizeof(lesson_setup));
    l->setup_steps = lesson__alloc(c.arena, (size_t)c.nsetups * sizeof(int));
    for (int i = 0; i < c.nsetups; i++) {
        l->setups[i] = c.setups[i];
        l->setup_steps[i] = c.plans[i]->nsteps;
    }
    ctx_free(&c);
    *out = l;
    return 0;
}

int lesson_load_buffer(const char *name, const char *data, size_t len, unsigned flags,
                       lesson **out, lesson_diags *diags)
{
    *out = NULL;
    const char *shown = name ? name : "<buffer>";
    jr_doc doc;
    jr_error e;
    if (jr_read_text(shown, data, len, &lesson_read, &doc, &e) != JR_OK) {
        reader_diag(diags, shown, &e);
        return -1;
    }
    int rc = load_doc(name, &doc, flags, out, diags);
    jr_destroy(&doc);
    return rc;
}

int lesson_load_file(const char *path, unsigned flags, lesson **out, lesson_diags *diags)
{
    *out = NULL;
    /* The reader opens without blocking and reads only a regular file: a
     * stray pipe in the lessons directory is refused, not waited on; a
     * huge file is refused from its size, before a byte is read. */
    jr_doc doc;
    jr_error e;
    if (jr_read_file(path, &lesson_read, &doc, &e) != JR_OK) {
        reader_diag(diags, path, &e);
        return -1;
    }
    int rc = load_doc(path, &doc, flags, out, diags);
    jr_destroy(&doc);
    return rc;
}

void lesson_destroy(lesson *l)
{
    if (l)
        lesson__arena_destroy(l->arena_);
}

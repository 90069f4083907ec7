/*
 * lesson_timeline.c: reads a beat's step timeline, the picture of one
 * training step as lanes (a compute stream and a communication stream, or
 * one row per pipeline stage) holding blocks over time. It is what the
 * parallelism lessons use to show overlap: a collective that runs while
 * compute goes on is hidden, one nothing runs beside is exposed.
 *
 * A communication block's duration is never typed in: it is the cost
 * model's, through the same from_cost a figure takes (times `times`), so
 * the picture cannot drift from the numbers the text states. Compute and
 * bubble durations are givens. Everything the renderer would otherwise
 * have to guard against (two blocks on one lane at once, a block after one
 * that does not exist, labels longer than its fields) is refused here with
 * its position.
 */
#include <math.h>
#include <string.h>

#include "lesson_walk.h"

static const char *const span_kinds[LESSON_SPAN_KIND_COUNT] = {"compute", "comm", "bubble"};

static int span_kind_parse(const char *s)
{
    for (int i = 0; i < LESSON_SPAN_KIND_COUNT; i++)
        if (strcmp(s, span_kinds[i]) == 0)
            return i;
    return -1;
}

/* The time units a timeline may be drawn in, and the cost quantity a
 * communication block of that timeline must ask the model for. A
 * schedule drawn in equal slots (a pipeline's) has no such quantity. */
#define UNIT_SLOT 3
static const char *const units[] = {"s", "ms", "us", "slot"};
static const lesson_cost_quantity unit_quantity[] = {LESSON_COST_TIME_S, LESSON_COST_TIME_MS,
                                                     LESSON_COST_TIME_US};

static int unit_parse(const char *s)
{
    for (int i = 0; i < 4; i++)
        if (strcmp(s, units[i]) == 0)
            return i;
    return strcmp(s, "\xC2\xB5s") == 0 ? 2 : -1;
}

static int find_lane(const lesson_timeline *t, const char *id)
{
    for (int i = 0; i < t->nlanes; i++)
        if (t->lanes[i].id && strcmp(t->lanes[i].id, id) == 0)
            return i;
    return -1;
}

static int find_block(const lesson_timeline *t, int upto, const char *id)
{
    for (int i = 0; i < upto; i++)
        if (t->blocks[i].id && strcmp(t->blocks[i].id, id) == 0)
            return i;
    return -1;
}

static bool read_lanes(lesson__ctx *c, lesson__val v, const char *where, lesson_timeline *t)
{
    static const char *const lane_keys[] = {"id", "label", NULL};
    char path[256];
    lesson__val lv = lesson__member(c, v, "lanes");
    lesson__path(path, sizeof path, where, "lanes");
    if (!lv.j) {
        lesson__err(c, lesson__off(c, v), "missing required key \"lanes\" in %s", where);
        return false;
    }
    if (!lesson__want_array(c, lv, path, 1, LESSON_TIMELINE_MAX_LANES))
        return false;
    t->nlanes = lesson__count(lv);
    t->lanes = lesson__alloc(c->arena, (size_t)t->nlanes * sizeof(lesson_lane));
    bool ok = true;
    for (int i = 0; i < t->nlanes; i++) {
        lesson__val e = lesson__item(c, lv, i);
        lesson_lane *ln = &t->lanes[i];
        char ep[288];
        snprintf(ep, sizeof ep, "%s[%d]", path, i);
        if (!lesson__want_object(c, e, ep)) {
            ok = false;
            continue;
        }
        ok = lesson__keys(c, e, ep, lane_keys) && ok;
        ok = lesson__want_id(c, e, "id", ep, true, &ln->id) > 0 && ok;
        ok = lesson__want_text(c, e, "label", ep, true, &ln->label) > 0 && ok;
        ok = lesson__label_fits(c, e, ep, &ln->label, LESSON_MAX_LANE_LABEL, "a lane") && ok;
        if (ln->id && find_lane(&(lesson_timeline){.lanes = t->lanes, .nlanes = i}, ln->id) >= 0) {
            lesson__err(c, lesson__off(c, lesson__member(c, e, "id")),
                        "duplicate lane id \"%s\" in %s", ln->id, path);
            ok = false;
        }
    }
    return ok;
}

/* Where a block or marker sits: "start"/"at" (a time from 0) or "after"
 * (the end of an earlier block: a chain of blocks whose durations come
 * from the model needs no arithmetic in the file). Exactly one. */
static bool read_when(lesson__ctx *c, lesson__val e, const char *ep, const char *key,
                      const lesson_timeline *t, int upto, double *out)
{
    double at = 0;
    const char *after = NULL;
    int got_at = lesson__want_number(c, e, key, ep, false, &at);
    int got_after = lesson__want_string(c, e, "after", ep, false, &after);
    if (got_at < 0 || got_after < 0)
        return false;
    if ((got_at > 0) == (got_after > 0)) {
        lesson__err(c, lesson__off(c, e),
                    "%s needs exactly one of \"%s\" (a time) and \"after\" (an earlier block's id)",
                    ep, key);
        return false;
    }
    if (got_at > 0) {
        if (at < 0) {
            char path[300];
            lesson__path(path, sizeof path, ep, key);
            lesson__type_err(c, lesson__member(c, e, key), path, "a time of at least 0");
            return false;
        }
        *out = at;
        return true;
    }
    int k = find_block(t, upto, after);
    if (k < 0) {
        char name[LESSON__CLIP];
        lesson__err(c, lesson__off(c, lesson__member(c, e, "after")),
                    "%s.after \"%s\" names no earlier block of this timeline", ep,
                    lesson__clip(name, sizeof name, after));
        return false;
    }
    *out = t->blocks[k].start + t->blocks[k].duration;
    return true;
}

/* A communication block's duration: {"from_cost": {...}, "times": x},
 * the model's time in the timeline's unit. */
static bool read_cost_duration(lesson__ctx *c, lesson__val dv, const char *dp, int unit,
                               lesson_span *b)
{
    static const char *const keys[] = {"from_cost", "times", NULL};
    if (!lesson__want_object(c, dv, dp))
        return false;
    if (unit == UNIT_SLOT) {
        lesson__err(c, lesson__off(c, dv),
                    "%s: a timeline in slots holds no comm block; the cost model prices time (give "
                    "\"unit\": \"s\", \"ms\" or \"us\")",
                    dp);
        return false;
    }
    bool ok = lesson__keys(c, dv, dp, keys);
    char path[320], about[256];
    double times = 1;
    int got_times = lesson__want_number(c, dv, "times", dp, false, &times);
    if (got_times > 0 && !(times > 0)) {
        lesson__path(path, sizeof path, dp, "times");
        lesson__type_err(c, lesson__member(c, dv, "times"), path, "a number above 0");
        ok = false;
    }
    lesson__val fc = lesson__member(c, dv, "from_cost");
    if (!fc.j) {
        lesson__err(c, lesson__off(c, dv), "missing required key \"from_cost\" in %s", dp);
        return false;
    }
    lesson__path(path, sizeof path, dp, "from_cost");
    if (got_times < 0 || !ok || !lesson__read_cost(c, fc, path, &b->cost, about, sizeof about))
        return false;
    if (b->cost.quantity != unit_quantity[unit]) {
        lesson__err(c, lesson__off(c, lesson__member(c, fc, "quantity")),
                    "%s.quantity must be %s: the timeline is drawn in %s", path,
                    lesson_cost_quantity_name(unit_quantity[unit]), units[unit]);
        return false;
    }
    b->has_cost = true;
    b->times = times;
    b->duration = b->cost.value * times;
    return true;
}

/* A block's duration: a number for compute and bubbles (a given), the
 * cost model's for communication. */
static bool read_duration(lesson__ctx *c, lesson__val e, const char *ep, int unit, lesson_span *b)
{
    char dp[320];
    lesson__path(dp, sizeof dp, ep, "duration");
    lesson__val dv = lesson__member(c, e, "duration");
    if (!dv.j) {
        lesson__err(c, lesson__off(c, e), "missing required key \"duration\" in %s", ep);
        return false;
    }
    if (b->kind == LESSON_SPAN_COMM) {
        if (cJSON_IsNumber(dv.j)) {
            lesson__err(c, lesson__off(c, dv),
                        "%s of a comm block comes from the cost model: give {\"from_cost\": "
                        "{...}} as a figure does, not a number",
                        dp);
            return false;
        }
        return read_cost_duration(c, dv, dp, unit, b);
    }
    if (!cJSON_IsNumber(dv.j) || !isfinite(dv.j->valuedouble) || dv.j->valuedouble <= 0) {
        lesson__type_err(c, dv, dp,
                         cJSON_IsObject(dv.j)
                             ? "a number: only a comm block's duration comes from the cost model"
                             : "a number above 0");
        return false;
    }
    b->duration = dv.j->valuedouble;
    b->times = 1;
    return true;
}

static bool read_block(lesson__ctx *c, lesson__val e, const char *ep, int unit, lesson_timeline *t,
                       int i)
{
    static const char *const keys[] = {"id",    "lane",  "label",    "kind",
                                       "start", "after", "duration", NULL};
    lesson_span *b = &t->blocks[i];
    if (!lesson__want_object(c, e, ep))
        return false;
    bool ok = lesson__keys(c, e, ep, keys);
    int kind = LESSON_SPAN_COMPUTE;
    const char *lane = NULL;
    ok = lesson__want_id(c, e, "id", ep, false, &b->id) >= 0 && ok;
    ok = lesson__want_enum(c, e, "kind", ep, false, span_kind_parse, "compute, comm, bubble",
                           &kind) >= 0 &&
         ok;
    b->kind = (lesson_span_kind)kind;
    ok = lesson__want_text(c, e, "label", ep, false, &b->label) >= 0 && ok;
    ok = lesson__label_fits(c, e, ep, &b->label, LESSON_MAX_SPAN_LABEL, "a block") && ok;
    b->lane = -1;
    if (lesson__want_string(c, e, "lane", ep, true, &lane) > 0) {
        b->lane = find_lane(t, lane);
        if (b->lane < 0) {
            char name[LESSON__CLIP];
            lesson__err(c, lesson__off(c, lesson__member(c, e, "lane")),
                        "%s.lane \"%s\" names no lane of this timeline", ep,
                        lesson__clip(name, sizeof name, lane));
            ok = false;
        }
    } else {
        ok = false;
    }
    if (b->id && find_block(t, i, b->id) >= 0) {
        lesson__err(c, lesson__off(c, lesson__member(c, e, "id")), "duplicate block id \"%s\"",
                    b->id);
        ok = false;
    }
    ok = read_when(c, e, ep, "start", t, i, &b->start) && ok;
    ok = read_duration(c, e, ep, unit, b) && ok;
    return ok;
}

/* A lane runs one thing at a time: two blocks of one lane that share any
 * time are refused at the later one. */
static bool check_overlaps(lesson__ctx *c, lesson__val bv, const char *path, lesson_timeline *t)
{
    bool ok = true;
    for (int i = 0; i < t->nblocks; i++) {
        const lesson_span *b = &t->blocks[i];
        for (int k = 0; k < i && b->lane >= 0; k++) {
            const lesson_span *a = &t->blocks[k];
            double eps = 1e-9 * fmax(1, t->end);
            if (a->lane != b->lane || a->start + a->duration <= b->start + eps ||
                b->start + b->duration <= a->start + eps)
                continue;
            lesson__err(
                c, lesson__off(c, lesson__item(c, bv, i)),
                "%s[%d] (%.4g to %.4g %s) overlaps %s[%d] (%.4g to %.4g %s) on lane \"%s\"; "
                "a lane runs one block at a time",
                path, i, b->start, b->start + b->duration, t->unit, path, k, a->start,
                a->start + a->duration, t->unit, t->lanes[b->lane].id);
            ok = false;
            break;
        }
    }
    return ok;
}

static bool read_blocks(lesson__ctx *c, lesson__val v, const char *where, int unit,
                        lesson_timeline *t)
{
    char path[256];
    lesson__val bv = lesson__member(c, v, "blocks");
    lesson__path(path, sizeof path, where, "blocks");
    if (!bv.j) {
        lesson__err(c, lesson__off(c, v), "missing required key \"blocks\" in %s", where);
        return false;
    }
    if (!lesson__want_array(c, bv, path, 1, LESSON_TIMELINE_MAX_BLOCKS))
        return false;
    t->nblocks = lesson__count(bv);
    t->blocks = lesson__alloc(c->arena, (size_t)t->nblocks * sizeof(lesson_span));
    bool ok = true;
    for (int i = 0; i < t->nblocks; i++) {
        char ep[288];
        snprintf(ep, sizeof ep, "%s[%d]", path, i);
        if (read_block(c, lesson__item(c, bv, i), ep, unit, t, i)) {
            double e = t->blocks[i].start + t->blocks[i].duration;
            t->end = e > t->end ? e : t->end;
        } else {
            ok = false;
            t->blocks[i].lane = -1; /* out of the overlap check */
        }
    }
    return check_overlaps(c, bv, path, t) && ok;
}

static bool read_markers(lesson__ctx *c, lesson__val v, const char *where, lesson_timeline *t)
{
    static const char *const keys[] = {"at", "after", "label", NULL};
    char path[256];
    lesson__val mv = lesson__member(c, v, "markers");
    lesson__path(path, sizeof path, where, "markers");
    if (!mv.j)
        return true;
    if (!lesson__want_array(c, mv, path, 0, LESSON_TIMELINE_MAX_MARKERS))
        return false;
    t->nmarkers = lesson__count(mv);
    t->markers = lesson__alloc(c->arena,
                               (size_t)(t->nmarkers ? t->nmarkers : 1) * sizeof(lesson_marker));
    bool ok = true;
    for (int i = 0; i < t->nmarkers; i++) {
        lesson__val e = lesson__item(c, mv, i);
        lesson_marker *m = &t->markers[i];
        char ep[288];
        snprintf(ep, sizeof ep, "%s[%d]", path, i);
        if (!lesson__want_object(c, e, ep)) {
            ok = false;
            continue;
        }
        ok = lesson__keys(c, e, ep, keys) && ok;
        ok = lesson__want_text(c, e, "label", ep, true, &m->label) > 0 && ok;
        ok = lesson__label_fits(c, e, ep, &m->label, LESSON_MAX_SPAN_LABEL, "a marker") && ok;
        ok = read_when(c, e, ep, "at", t, t->nblocks, &m->at) && ok;
        t->end = m->at > t->end ? m->at : t->end;
    }
    return ok;
}

lesson_timeline *lesson__read_timeline(lesson__ctx *c, lesson__val v, const char *where)
{
    static const char *const keys[] = {"unit", "lanes", "blocks", "markers", NULL};
    if (!lesson__want_object(c, v, where))
        return NULL;
    lesson_timeline *t = lesson__alloc(c->arena, sizeof *t);
    bool ok = lesson__keys(c, v, where, keys);
    int unit = 1;
    ok = lesson__want_enum(c, v, "unit", where, false, unit_parse, "s, ms, us, slot", &unit) >= 0 &&
         ok;
    t->unit = units[unit];
    ok = read_lanes(c, v, where, t) && ok;
    if (!ok)
        return NULL; /* blocks name lanes */
    ok = read_blocks(c, v, where, unit, t);
    ok = read_markers(c, v, where, t) && ok;
    return ok ? t : NULL;
}

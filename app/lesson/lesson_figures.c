/*
 * lesson_figures.c: the numbers a lesson's text states, declared in its
 * "figures" so they cannot drift from the model or from each other.
 *
 * A figure is a value and a unit as the text writes them ("18.9", "ms"),
 * and either a cost reference (the same from_cost a number quiz takes,
 * optionally multiplied by `times`, for "four all-to-alls per layer") or a
 * `given` reason (an input of the problem, a measurement, a datasheet
 * figure), or a `fact` of the facts table (lesson_facts.c). The loader evaluates the model and refuses a value outside the
 * tolerance, and refuses a figure that neither the English nor the Chinese
 * text states: a figure nobody reads is a figure nobody checks.
 * tests/test_lesson_figures.c closes the loop from the other side: every
 * time, size and bandwidth a text states must be a figure, a quiz's model
 * answer or an input of a problem the lesson prices.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lesson_walk.h"

/* Every text of the lesson in one language, for the stated-figure check. */
static bool lesson_states(const lesson *l, lesson_lang lang, double value, const char *unit)
{
#define LESSON__HAS(t) ((t).s[lang] && lesson__writes_value((t).s[lang], value, unit))
    if (LESSON__HAS(l->title) || LESSON__HAS(l->summary))
        return true;
    for (int b = 0; b < l->nbeats; b++)
        if (LESSON__HAS(l->beats[b].text))
            return true;
    for (int i = 0; i < l->nquizzes; i++) {
        const lesson_quiz *q = &l->quizzes[i];
        if (LESSON__HAS(q->prompt) || LESSON__HAS(q->card) || LESSON__HAS(q->explain))
            return true;
        for (int k = 0; k < q->nchoices; k++)
            if (LESSON__HAS(q->choices[k].text) || LESSON__HAS(q->choices[k].why))
                return true;
    }
    for (int m = 0; m < l->nmistakes; m++)
        if (LESSON__HAS(l->mistakes[m].myth) || LESSON__HAS(l->mistakes[m].truth))
            return true;
#undef LESSON__HAS
    return false;
}

/* The model's unit for a quantity, with the microsecond sign a text writes
 * accepted for "us". */
static bool unit_fits(const char *unit, lesson_cost_quantity q)
{
    const char *want = lesson_cost_quantity_unit(q);
    return strcmp(unit, want) == 0 || (strcmp(want, "us") == 0 && strcmp(unit, "µs") == 0);
}

static bool read_figure(lesson__ctx *c, lesson__val v, const char *where, lesson_figure *f)
{
    static const char *const keys[] = {"value",         "unit",  "tolerance",
                                       "tolerance_pct", "times", "from_cost",
                                       "given",         "fact",  NULL};
    if (!lesson__want_object(c, v, where))
        return false;
    bool ok = lesson__keys(c, v, where, keys);
    char path[256];
    double tol = 0, pct = 0, times = 1;
    ok = lesson__want_number(c, v, "value", where, true, &f->value) > 0 && ok;
    ok = lesson__want_string(c, v, "unit", where, true, &f->unit) > 0 && ok;
    if (f->unit && (!f->unit[0] || strlen(f->unit) > 16)) {
        lesson__path(path, sizeof path, where, "unit");
        lesson__type_err(c, lesson__member(c, v, "unit"), path, "a unit of 1 to 16 bytes");
        ok = false;
    }
    int got_tol = lesson__want_number(c, v, "tolerance", where, false, &tol);
    int got_pct = lesson__want_number(c, v, "tolerance_pct", where, false, &pct);
    int got_times = lesson__want_number(c, v, "times", where, false, &times);
    ok = got_tol >= 0 && got_pct >= 0 && got_times >= 0 && ok;
    if (got_tol > 0 && tol < 0) {
        lesson__path(path, sizeof path, where, "tolerance");
        lesson__type_err(c, lesson__member(c, v, "tolerance"), path, "a number of at least 0");
        ok = false;
    }
    if (got_pct > 0 && (pct <= 0 || pct > 100)) {
        lesson__path(path, sizeof path, where, "tolerance_pct");
        lesson__type_err(c, lesson__member(c, v, "tolerance_pct"), path,
                         "a percentage above 0 and at most 100");
        ok = false;
    }
    if (got_tol > 0 && got_pct > 0) {
        lesson__err(c, lesson__off(c, lesson__member(c, v, "tolerance_pct")),
                    "%s: give either tolerance or tolerance_pct, not both", where);
        ok = false;
    }
    if (got_times > 0 && !(times > 0)) {
        lesson__path(path, sizeof path, where, "times");
        lesson__type_err(c, lesson__member(c, v, "times"), path, "a number above 0");
        ok = false;
    }
    /* The strings live in cJSON's tree, which goes when loading ends. */
    if (f->unit)
        f->unit = lesson__strdup(c->arena, f->unit);
    f->tolerance_pct = got_tol <= 0;
    f->tolerance = got_tol > 0 ? tol : got_pct > 0 ? pct : 5.0;
    f->times = times;

    lesson__val fc = lesson__member(c, v, "from_cost");
    int got_given = lesson__want_string(c, v, "given", where, false, &f->given);
    const char *fact = NULL;
    int got_fact = lesson__want_string(c, v, "fact", where, false, &fact);
    ok = got_given >= 0 && got_fact >= 0 && ok;
    if (got_given > 0)
        f->given = lesson__strdup(c->arena, f->given);
    if (got_given > 0 && !f->given[0]) {
        lesson__path(path, sizeof path, where, "given");
        lesson__type_err(c, lesson__member(c, v, "given"), path,
                         "a non-empty reason: where the figure comes from");
        ok = false;
    }
    if ((fc.j != NULL) + (got_given > 0) + (got_fact > 0) != 1) {
        lesson__err(c, lesson__off(c, v),
                    "%s needs exactly one of \"from_cost\" (the model computes it), \"fact\" (the "
                    "course's facts table states it) and \"given\" (why it is not computed: an "
                    "input, a measurement)",
                    where);
        return false;
    }
    if ((got_given > 0 || got_fact > 0) && got_times > 0) {
        lesson__err(c, lesson__off(c, lesson__member(c, v, "times")),
                    "%s.times multiplies the model's value; a %s figure has none", where,
                    got_fact > 0 ? "fact" : "given");
        ok = false;
    }
    if (ok && got_given > 0)
        lesson__check_given(c, v, where, f->given);
    if (ok && got_fact > 0)
        return lesson__check_fact(c, v, where, f, fact, got_tol > 0 || got_pct > 0);
    if (!ok || !fc.j)
        return ok;
    char about[256];
    lesson__path(path, sizeof path, where, "from_cost");
    if (!lesson__read_cost(c, fc, path, &f->cost, about, sizeof about))
        return false;
    f->has_cost = true;
    if (!unit_fits(f->unit, f->cost.quantity)) {
        lesson__err(c, lesson__off(c, lesson__member(c, v, "unit")),
                    "%s.unit must be \"%s\" for quantity %s, not \"%s\"", where,
                    lesson_cost_quantity_unit(f->cost.quantity),
                    lesson_cost_quantity_name(f->cost.quantity), f->unit);
        return false;
    }
    double model = f->cost.value * f->times;
    double allowed = f->tolerance_pct ? fabs(model) * f->tolerance / 100 : f->tolerance;
    if (fabs(f->value - model) > allowed + 1e-12 * fabs(model)) {
        char t[40], x[40] = "";
        if (f->tolerance_pct)
            snprintf(t, sizeof t, "%g%%", f->tolerance);
        else
            snprintf(t, sizeof t, "%g %s", f->tolerance, f->unit);
        if (f->times != 1)
            snprintf(x, sizeof x, " (%g times %.4g)", f->times, f->cost.value);
        lesson__err(c, lesson__off(c, lesson__member(c, v, "value")),
                    "cost model gives %.4g %s%s for %s; the figure %g differs by more than the "
                    "tolerance %s",
                    model, f->unit, x, about, f->value, t);
        return false;
    }
    return true;
}

void lesson__read_figures(lesson__ctx *c, lesson__val root)
{
    lesson *l = c->l;
    lesson__val fv = lesson__member(c, root, "figures");
    if (!fv.j || !lesson__want_array(c, fv, "figures", 0, 200))
        return;
    l->nfigures = lesson__count(fv);
    l->figures = lesson__alloc(c->arena, (size_t)l->nfigures * sizeof(lesson_figure));
    for (int i = 0; i < l->nfigures; i++) {
        char where[64];
        snprintf(where, sizeof where, "figures[%d]", i);
        lesson__val v = lesson__item(c, fv, i);
        lesson_figure *f = &l->figures[i];
        if (!read_figure(c, v, where, f))
            continue;
        /* For the message: the shortest form of the value. */
        char num[64];
        snprintf(num, sizeof num, "%.15g", f->value);
        for (int lang = 0; lang < LESSON_LANG_COUNT; lang++) {
            if (!lesson_states(l, (lesson_lang)lang, f->value, f->unit))
                lesson__err(c, lesson__off(c, lesson__member(c, v, "value")),
                            "%s: no %s text of the lesson states \"%s %s\"; a figure must be "
                            "written, value then unit, in every language",
                            where, lesson_lang_name((lesson_lang)lang), num, f->unit);
        }
    }
}

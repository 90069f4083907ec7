/*
 * lesson_facts.c: the facts several lessons state, each written once with
 * its source. A lesson's figure refers to one by id ("fact":
 * "h100-nvls-busbw") instead of giving its reason by hand; the loader then
 * checks that the figure's value and unit are the fact's. A figure given
 * by hand whose reason describes a fact of this table (its words, found
 * together in the reason) is refused, whatever its value: two lessons can
 * thus neither disagree on such a figure nor each keep a copy of it.
 * docs/LESSONS.md lists the table; add a fact when a second lesson needs a
 * measured or published figure that a first one already states.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lesson_walk.h"

typedef struct {
    const char *id;
    double value;
    const char *unit;
    const char *what;   /* what was measured, for messages */
    const char *source; /* where it is written */
    /* A given reason holding one alternative ('|') of each term describes
     * this fact; unless (alternatives) excuses it. */
    const char *words[3];
    const char *unless;
} fact;

static const fact facts[] = {
    {"h100-nvls-busbw",
     480,
     "GB/s",
     "nccl-tests' all-reduce bus bandwidth on one 8×H100 NVSwitch node with NVLink SHARP (NVLS), "
     "NCCL's default there",
     "nccl-tests issues #212, #290 (473.6 GB/s measured) and #309: the maintainers call about "
     "480 GB/s the expected single-node busbw (tests/model/measured/README.md)",
     {"nccl-tests", "H100", "NVLS|NVLink SHARP"},
     NULL},
    {"h100-ring-busbw",
     370,
     "GB/s",
     "nccl-tests' all-reduce bus bandwidth on one 8×H100 node with rings (NCCL_ALGO=Ring)",
     "nccl-tests issues #212 and #309: the maintainers put a plain ring on one 8×H100 node at "
     "about "
     "370 GB/s (tests/model/measured/README.md)",
     {"nccl-tests", "H100", "ring"},
     "NVLS|NVLink SHARP"},
};

static const fact *find(const char *id)
{
    for (size_t i = 0; i < sizeof facts / sizeof facts[0]; i++)
        if (strcmp(facts[i].id, id) == 0)
            return &facts[i];
    return NULL;
}

static const fact *described(const char *reason)
{
    const char *end = reason + strlen(reason);
    for (size_t i = 0; i < sizeof facts / sizeof facts[0]; i++) {
        const fact *f = &facts[i];
        bool all = true;
        for (int k = 0; k < 3 && f->words[k] && all; k++)
            all = lesson__holds_any(reason, end, f->words[k]);
        if (all && !(f->unless && lesson__holds_any(reason, end, f->unless)))
            return f;
    }
    return NULL;
}

bool lesson__check_fact(lesson__ctx *c, lesson__val v, const char *where, lesson_figure *fig,
                        const char *id, bool tolerance_given)
{
    const fact *f = find(id);
    if (!f) {
        char names[512] = "";
        for (size_t i = 0; i < sizeof facts / sizeof facts[0]; i++) {
            if (i)
                strncat(names, ", ", sizeof names - strlen(names) - 1);
            strncat(names, facts[i].id, sizeof names - strlen(names) - 1);
        }
        char shown[LESSON__CLIP];
        lesson__err(c, lesson__off(c, lesson__member(c, v, "fact")),
                    "%s.fact \"%s\" is not in the facts table; expected one of: %s", where,
                    lesson__clip(shown, sizeof shown, id), names);
        return false;
    }
    fig->fact = f->id;
    /* A fact is stated as it is, unless the figure allows for rounding. */
    double allowed = !tolerance_given     ? 0
                     : fig->tolerance_pct ? fabs(f->value) * fig->tolerance / 100
                                          : fig->tolerance;
    if (strcmp(fig->unit, f->unit) != 0 ||
        fabs(fig->value - f->value) > allowed + 1e-9 * f->value) {
        lesson__err(c, lesson__off(c, lesson__member(c, v, "value")),
                    "%s is %g %s, but the fact %s is %g %s (%s; %s)", where, fig->value, fig->unit,
                    f->id, f->value, f->unit, f->what, f->source);
        return false;
    }
    return true;
}

void lesson__check_given(lesson__ctx *c, lesson__val v, const char *where, const char *reason)
{
    const fact *f = described(reason);
    if (f)
        lesson__err(c, lesson__off(c, lesson__member(c, v, "given")),
                    "%s gives by hand what the fact %s states (%g %s, %s): write \"fact\": \"%s\" "
                    "instead of \"given\", so every lesson takes it from one place",
                    where, f->id, f->value, f->unit, f->what, f->id);
}

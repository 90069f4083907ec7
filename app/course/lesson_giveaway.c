/*
 * lesson_giveaway.c: a beat must not print its own quiz's answer.
 *
 * A beat's text is shown right above its quiz, so a sentence such as
 * "... ≈ 4.7 ms" over "how long does it take?" turns the quiz into
 * copying. For a number quiz the validator looks, in every language, for
 * the answer written the way a person would round it (75, 4.7, 4.70, 0.875)
 * followed by its unit; any such value within the quiz's tolerance is an
 * error that points at the beat's text. The arithmetic belongs in the
 * quiz's explanation, which is shown after the answer.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lesson_walk.h"

/* Spaces a lesson may put between a number and its unit: ' ', NBSP,
 * narrow NBSP. Returns the bytes skipped. */
static size_t skip_space(const char *s)
{
    if (*s == ' ')
        return 1;
    if ((unsigned char)s[0] == 0xC2 && (unsigned char)s[1] == 0xA0)
        return 2;
    if ((unsigned char)s[0] == 0xE2 && (unsigned char)s[1] == 0x80 && (unsigned char)s[2] == 0xAF)
        return 3;
    return 0;
}

bool lesson__writes(const char *text, const char *num, const char *unit)
{
    size_t n = strlen(num), u = strlen(unit);
    for (const char *p = strstr(text, num); p; p = strstr(p + 1, num)) {
        if (p > text && (isdigit((unsigned char)p[-1]) || p[-1] == '.' || p[-1] == ','))
            continue;
        const char *e = p + n;
        if (isdigit((unsigned char)*e) || ((*e == '.' || *e == ',') && isdigit((unsigned char)e[1])))
            continue;
        e += skip_space(e);
        if (strncmp(e, unit, u) == 0 && !isalpha((unsigned char)e[u]))
            return true;
    }
    return false;
}

void lesson__check_giveaway(lesson__ctx *c, size_t text_off, const lesson_text *text,
                            const lesson_quiz *q)
{
    if (q->kind != LESSON_QUIZ_NUMBER || !q->unit || !q->unit[0] || !isfinite(q->number))
        return;
    double allowed = q->tolerance_pct ? fabs(q->number) * q->tolerance / 100 : q->tolerance;
    for (int lang = 0; lang < LESSON_LANG_COUNT; lang++) {
        const char *t = text->s[lang];
        if (!t)
            continue;
        for (int k = 0; k < 4; k++) {
            /* 75, 4.7, 4.70 and three significant digits */
            char num[64];
            if (k < 3)
                snprintf(num, sizeof num, "%.*f", k, q->number);
            else
                snprintf(num, sizeof num, "%.3g", q->number);
            double v = strtod(num, NULL);
            if (fabs(v - q->number) > allowed + 1e-9 * fabs(q->number) || !lesson__writes(t, num, q->unit))
                continue;
            lesson__err(c, text_off,
                        "the %s text gives away its quiz's answer (\"%s %s\"); pose the problem "
                        "here and show the arithmetic in the quiz's explain",
                        lesson_lang_name((lesson_lang)lang), num, q->unit);
            return;
        }
    }
}

/*
 * lesson_giveaway.c: a quiz must not be answered by the text around it.
 *
 * A beat's text is shown right above its quiz, the beat before it a moment
 * earlier, and the lesson's title and summary in the menu: a sentence such
 * as "... ≈ 4.7 ms" over "how long does it take?" turns the quiz into
 * copying. For a number quiz the validator looks, in every language, for
 * the answer written the way a person would round it (75, 4.7, 4.70, 0.875)
 * followed by its unit; any such value within the quiz's tolerance is an
 * error that points at the text that gives it away. For a choice quiz it
 * looks for the right choice's words, whole, in the same places, where no
 * wrong choice's words appear too. The arithmetic belongs in the quiz's
 * explanation, which is shown after the answer.
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

bool lesson__writes_value(const char *text, double value, const char *unit)
{
    size_t u = strlen(unit);
    for (const char *p = text; *p; p++) {
        if (!isdigit((unsigned char)*p) ||
            (p > text && (isdigit((unsigned char)p[-1]) || p[-1] == '.' || p[-1] == ',')))
            continue;
        char *end;
        double v = strtod(p, &end);
        if (end == p)
            continue;
        const char *e = end;
        e += skip_space(e);
        if (strncmp(e, unit, u) == 0 && !isalpha((unsigned char)e[u]) &&
            fabs(v - value) <= 1e-9 * fabs(value))
            return true;
        p = end - 1;
    }
    return false;
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

/* The rounded form of q's answer that text writes with its unit, or NULL. */
static const char *written_answer(const lesson_quiz *q, const char *t, char *num, size_t n)
{
    double allowed = q->tolerance_pct ? fabs(q->number) * q->tolerance / 100 : q->tolerance;
    for (int k = 0; k < 4; k++) {
        /* 75, 4.7, 4.70 and three significant digits */
        if (k < 3)
            snprintf(num, n, "%.*f", k, q->number);
        else
            snprintf(num, n, "%.3g", q->number);
        double v = strtod(num, NULL);
        if (fabs(v - q->number) <= allowed + 1e-9 * fabs(q->number) && lesson__writes(t, num, q->unit))
            return num;
    }
    return NULL;
}

/* Lower-cases ASCII letters, drops a final full stop and surrounding
 * spaces: the form a choice's words are compared in. */
static void fold(char *out, size_t n, const char *s)
{
    while (*s == ' ')
        s++;
    size_t k = 0;
    for (; *s && k + 1 < n; s++)
        out[k++] = (char)tolower((unsigned char)*s);
    while (k > 0 && (out[k - 1] == ' ' || out[k - 1] == '.'))
        k--;
    out[k] = '\0';
}

/* Does text hold the words of a choice, whole (not inside a longer word)? */
static bool holds(const char *text, const char *words)
{
    char hay[LESSON_MAX_TEXT + 1], needle[LESSON_MAX_TEXT + 1];
    fold(hay, sizeof hay, text);
    fold(needle, sizeof needle, words);
    size_t n = strlen(needle);
    if (n < 3) /* "No", "2": too short to mean anything on their own */
        return false;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle)) {
        bool before = p == hay || !isalnum((unsigned char)p[-1]);
        bool after = !isalnum((unsigned char)p[n]);
        if (before && after)
            return true;
    }
    return false;
}

void lesson__check_giveaway_at(lesson__ctx *c, size_t text_off, const lesson_text *text,
                               const lesson_quiz *q, const char *place)
{
    for (int lang = 0; lang < LESSON_LANG_COUNT; lang++) {
        const char *t = text->s[lang];
        if (!t)
            continue;
        if (q->kind == LESSON_QUIZ_NUMBER && q->unit && q->unit[0] && isfinite(q->number)) {
            char num[64];
            if (!written_answer(q, t, num, sizeof num))
                continue;
            if (!place)
                lesson__err(c, text_off,
                            "the %s text gives away its quiz's answer (\"%s %s\"); pose the "
                            "problem here and show the arithmetic in the quiz's explain",
                            lesson_lang_name((lesson_lang)lang), num, q->unit);
            else
                lesson__err(c, text_off,
                            "the %s text of %s gives away the answer of beats[%d].quiz (\"%s "
                            "%s\"); say it after the quiz, in its explain or a later beat",
                            lesson_lang_name((lesson_lang)lang), place, q->beat, num, q->unit);
            return;
        }
        if (q->kind == LESSON_QUIZ_CHOICE && q->answer >= 0 && q->answer < q->nchoices) {
            const char *right = q->choices[q->answer].text.s[lang];
            if (!right || !holds(t, right))
                continue;
            bool any_wrong = false;
            for (int i = 0; i < q->nchoices && !any_wrong; i++)
                any_wrong = i != q->answer && q->choices[i].text.s[lang] &&
                            holds(t, q->choices[i].text.s[lang]);
            if (any_wrong)
                continue;
            char shown[LESSON__CLIP];
            lesson__err(c, text_off,
                        "the %s text of %s gives away the answer of beats[%d].quiz (\"%s\"); "
                        "reword the text or the choice",
                        lesson_lang_name((lesson_lang)lang), place ? place : "its beat", q->beat,
                        lesson__clip(shown, sizeof shown, right));
            return;
        }
    }
}

void lesson__check_giveaway(lesson__ctx *c, size_t text_off, const lesson_text *text,
                            const lesson_quiz *q)
{
    lesson__check_giveaway_at(c, text_off, text, q, NULL);
}

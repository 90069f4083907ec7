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
 * wrong choice's words appear too; for a predict-value quiz, for the right
 * option's value stated as a number of its own (not a rank, a step, a
 * count or a term of a formula) where no wrong option's value appears.
 * The arithmetic belongs in the quiz's explanation, which is shown after
 * the answer.
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

/* The bytes of a micro sign at s: 'u', MICRO SIGN U+00B5 or GREEK SMALL
 * LETTER MU U+03BC (quizzes write "us", texts "µs"); 0 for anything else. */
static size_t micro(const char *s)
{
    const unsigned char *u = (const unsigned char *)s;
    if (u[0] == 'u')
        return 1;
    if ((u[0] == 0xC2 && u[1] == 0xB5) || (u[0] == 0xCE && u[1] == 0xBC))
        return 2;
    return 0;
}

bool lesson__unit_at(const char *s, const char *unit)
{
    size_t a = micro(s), b = micro(unit);
    if (a && b) {
        s += a;
        unit += b;
    }
    size_t u = strlen(unit);
    return strncmp(s, unit, u) == 0 && !isalpha((unsigned char)s[u]);
}

bool lesson__writes_value(const char *text, double value, const char *unit)
{
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
        if (lesson__unit_at(e, unit) && fabs(v - value) <= 1e-9 * fabs(value))
            return true;
        p = end - 1;
    }
    return false;
}

bool lesson__writes(const char *text, const char *num, const char *unit)
{
    size_t n = strlen(num);
    for (const char *p = strstr(text, num); p; p = strstr(p + 1, num)) {
        if (p > text && (isdigit((unsigned char)p[-1]) || p[-1] == '.' || p[-1] == ','))
            continue;
        const char *e = p + n;
        if (isdigit((unsigned char)*e) || ((*e == '.' || *e == ',') && isdigit((unsigned char)e[1])))
            continue;
        e += skip_space(e);
        if (lesson__unit_at(e, unit))
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

/* Is p (inside text) right after, or at, an operator of a formula: an
 * ASCII one or the minus sign, middle dot or times sign? */
static bool after_operator(const char *text, const char *p)
{
    if (p > text && strchr("+-*/^=_.,[", p[-1]))
        return true;
    if (p - text >= 2 && ((!memcmp(p - 2, "\xC2\xB7", 2)) || !memcmp(p - 2, "\xC3\x97", 2)))
        return true;
    return p - text >= 3 && !memcmp(p - 3, "\xE2\x88\x92", 3);
}

static bool at_operator(const char *e)
{
    return (*e && strchr("+-*/^[]", *e)) || !memcmp(e, "\xC2\xB7", 2) ||
           !memcmp(e, "\xC3\x97", 2) || !strncmp(e, "\xE2\x88\x92", 3);
}

/* Does the number from p to e name or count something, or stand in a
 * formula, rather than state a value: "rank 2", "step 3", "count = 1",
 * "rank 1's", "3 XOR 4", "1 + 2", "4 个"? */
static bool names_thing(const char *text, const char *p, const char *e)
{
    static const char *const before[] = {"rank ", "ranks ", "GPU ", "GPUs ", "step ", "steps ",
                                         "slice ", "chunk ", "node ", "round ", "= ", "XOR ",
                                         "AND ", "OR ", "+ ", "\xC3\x97 ", "\xC2\xB7 ",
                                         "\xE2\x88\x92 ", "- ", NULL};
    static const char *const after[] = {"'s", " +", " \xC3\x97", " \xC2\xB7", " \xE2\x88\x92",
                                        " -", " XOR", " AND", " OR", " =", "\xE4\xB8\xAA",
                                        " \xE4\xB8\xAA", "\xE5\xBC\xA0", " \xE5\xBC\xA0",
                                        "\xE6\xAD\xA5", " \xE6\xAD\xA5", NULL}; /* 个 张 步 */
    for (int i = 0; before[i]; i++) {
        size_t n = strlen(before[i]);
        if ((size_t)(p - text) >= n && !strncmp(p - n, before[i], n))
            return true;
    }
    for (int i = 0; after[i]; i++)
        if (!strncmp(e, after[i], strlen(after[i])))
            return true;
    return false;
}

/* Does text write value as a number of its own: not part of a longer
 * number, a name ("log2", "c0") or an index ("recv[1]"), and, when strict,
 * not in a formula ("k−2", "2·D") or a label (names_thing)? */
static bool writes_number(const char *text, double value, bool strict)
{
    for (const char *p = text; *p; p++) {
        if (!isdigit((unsigned char)*p))
            continue;
        bool joined = (p > text && (isalnum((unsigned char)p[-1]) || strchr("_.,[", p[-1])));
        char *end;
        double v = strtod(p, &end);
        const char *e = end;
        joined = joined || isalpha((unsigned char)*e) || *e == '[' || *e == ']' ||
                 ((*e == '.' || *e == ',') && isdigit((unsigned char)e[1]));
        if (strict)
            joined = joined || after_operator(text, p) || at_operator(e) ||
                     names_thing(text, p, e);
        p = end - 1;
        if (!joined && v == value)
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
        if (q->kind == LESSON_QUIZ_PREDICT_VALUE && q->answer >= 0 && q->answer < q->noptions &&
            isfinite(q->options[q->answer])) {
            double right = q->options[q->answer];
            if (!writes_number(t, right, true))
                continue;
            bool any_wrong = false;
            for (int i = 0; i < q->noptions && !any_wrong; i++)
                any_wrong = i != q->answer && writes_number(t, q->options[i], false);
            if (any_wrong)
                continue;
            lesson__err(c, text_off,
                        "the %s text of %s gives away the answer of beats[%d].quiz (%g); "
                        "say it after the quiz, in its explain or a later beat",
                        lesson_lang_name((lesson_lang)lang), place ? place : "its beat", q->beat,
                        right);
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

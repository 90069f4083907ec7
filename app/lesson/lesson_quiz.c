/*
 * lesson_quiz.c: deciding whether an answer is right, for every quiz kind,
 * and reading answers typed in a terminal. The GUI calls the check_*
 * functions with what was clicked; the text player and the drill go
 * through lesson_check_typed. A verdict always carries what to show next:
 * the picked choice's own "why" when the lesson gives one, else the quiz's
 * explanation.
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lesson_internal.h"

static void verdict_init(lesson_verdict *v, const lesson_quiz *q, bool correct)
{
    memset(v, 0, sizeof *v);
    v->correct = correct;
    v->why = lesson_text_present(&q->explain) ? &q->explain : NULL;
}

bool lesson_check_choice(const lesson_quiz *q, int picked, lesson_verdict *v)
{
    bool ok = picked == q->answer;
    verdict_init(v, q, ok);
    if (q->kind == LESSON_QUIZ_CHOICE && picked >= 0 && picked < q->nchoices &&
        lesson_text_present(&q->choices[picked].why))
        v->why = &q->choices[picked].why;
    if (q->kind == LESSON_QUIZ_PREDICT_VALUE)
        v->expected = q->options[q->answer];
    return ok;
}

uint64_t lesson__next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

int lesson_quiz_order(const lesson_quiz *q, int order[LESSON_MAX_SHOWN])
{
    int n = q->kind == LESSON_QUIZ_CHOICE          ? q->nchoices
            : q->kind == LESSON_QUIZ_PREDICT_VALUE ? q->noptions
                                                   : 0;
    if (n > LESSON_MAX_SHOWN)
        n = LESSON_MAX_SHOWN;
    for (int i = 0; i < n; i++)
        order[i] = i;
    /* Fisher-Yates on splitmix64, seeded by FNV-1a of the key. */
    uint64_t h = 1469598103934665603ull;
    for (const unsigned char *p = (const unsigned char *)(q->key ? q->key : ""); *p; p++)
        h = (h ^ *p) * 1099511628211ull;
    for (int i = n - 1; i > 0; i--) {
        int j = (int)(lesson__next_random(&h) % (uint64_t)(i + 1));
        int t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    return n;
}

int lesson_quiz_shown(const lesson_quiz *q, int i)
{
    int order[LESSON_MAX_SHOWN];
    int n = lesson_quiz_order(q, order);
    for (int k = 0; k < n; k++)
        if (order[k] == i)
            return k;
    return -1;
}

bool lesson_check_number(const lesson_quiz *q, double value, lesson_verdict *v)
{
    double allowed = q->tolerance_pct ? fabs(q->number) * q->tolerance / 100 : q->tolerance;
    /* a hair of slack so "12.25" typed for 12.25 never fails on rounding */
    bool ok = isfinite(value) && fabs(value - q->number) <= allowed + 1e-9 * fabs(q->number);
    verdict_init(v, q, ok);
    v->expected = q->number;
    return ok;
}

bool lesson_cells_contain(const lesson_chunk *cells, int ncells, const lesson_cell *cell)
{
    for (int i = 0; i < ncells; i++) {
        const lesson_chunk *c = &cells[i];
        if (c->rank == cell->rank && c->buf == cell->buf && cell->index >= c->first &&
            cell->index < c->first + c->count)
            return true;
    }
    return false;
}

bool lesson_check_cells(const lesson_quiz *q, const lesson_cell *picked, int npicked,
                        lesson_verdict *v)
{
    int64_t total = 0, hit = 0;
    int extra = 0;
    for (int i = 0; i < q->ncells; i++)
        total += q->cells[i].count;
    for (int i = 0; i < npicked; i++) {
        bool dup = false;
        for (int k = 0; k < i && !dup; k++)
            dup = picked[k].rank == picked[i].rank && picked[k].buf == picked[i].buf &&
                  picked[k].index == picked[i].index;
        if (dup)
            continue;
        if (lesson_cells_contain(q->cells, q->ncells, &picked[i]))
            hit++;
        else
            extra++;
    }
    bool ok = extra == 0 && hit == total;
    verdict_init(v, q, ok);
    v->missing = (int)(total - hit);
    v->extra = extra;
    return ok;
}

static const char *skip_space(const char *s)
{
    while (*s && isspace((unsigned char)*s))
        s++;
    return s;
}

/* Trims leading and trailing space into out (an overlong line is cut
 * between characters). */
static void trimmed(const char *s, char *out, size_t n)
{
    s = skip_space(s);
    lesson_utf8_copy(out, n, s);
    size_t len = strlen(out);
    while (len > 0 && isspace((unsigned char)out[len - 1]))
        out[--len] = '\0';
}

/* A letter a.. picks an entry; returns its index or -1. */
static int letter_index(const char *s, int count)
{
    if (s[0] && !s[1] && isalpha((unsigned char)s[0])) {
        int i = tolower((unsigned char)s[0]) - 'a';
        if (i >= 0 && i < count)
            return i;
    }
    return -1;
}

/* One cell or range of a typed answer: "RANK BUF INDEX", or a half-open
 * range "RANK BUF[FIRST..END)" (the brackets optional, "RANK BUF
 * FIRST..END"), the notation the stage and `collviz run` print. The older
 * inclusive "RANK BUF FIRST-LAST" is still read, so a learner who types it
 * is understood; it is no longer shown. Sets [first, end). */
static bool parse_cell_range(const char *p, long *rank, char *buf, size_t nbuf, long *first,
                             long *end)
{
    char *e;
    p = skip_space(p);
    *rank = strtol(p, &e, 10);
    if (e == p || !isspace((unsigned char)*e))
        return false;
    p = skip_space(e);
    size_t n = 0;
    while (isalpha((unsigned char)p[n]))
        n++;
    if (n == 0 || n >= nbuf)
        return false;
    memcpy(buf, p, n);
    buf[n] = '\0';
    p = skip_space(p + n);
    bool bracket = *p == '[';
    if (bracket)
        p = skip_space(p + 1);
    if (!isdigit((unsigned char)*p))
        return false;
    *first = strtol(p, &e, 10);
    *end = *first + 1;
    p = skip_space(e);
    if (p[0] == '.' && p[1] == '.') {
        p = skip_space(p + 2);
        if (!isdigit((unsigned char)*p))
            return false;
        *end = strtol(p, &e, 10);
        p = skip_space(e);
        if (*p == ')')
            p++;
        else if (bracket)
            return false; /* "[0..2]" would be ambiguous: only [a..b) is half-open */
    } else if (*p == '-' && !bracket) {
        p = skip_space(p + 1);
        if (!isdigit((unsigned char)*p))
            return false;
        *end = strtol(p, &e, 10) + 1;
        p = e;
    } else if (bracket) {
        if (*p != ']')
            return false;
        p++;
    }
    return *skip_space(p) == '\0';
}

static bool parse_cells(const char *line, lesson_cell **out, int *nout, char *err, size_t errlen)
{
    char *copy = lesson__xstrdup(line);
    int cap = 16, n = 0;
    lesson_cell *cells = lesson__xmalloc((size_t)cap * sizeof(*cells));
    bool ok = true;
    char *save = NULL;
    for (char *part = strtok_r(copy, ",;", &save); part && ok; part = strtok_r(NULL, ",;", &save)) {
        long rank, first, end;
        char buf[16];
        if (!*skip_space(part))
            continue;
        if (!parse_cell_range(part, &rank, buf, sizeof buf, &first, &end) || end <= first ||
            end - first > 4097 || rank < 0) {
            ok = false;
            break;
        }
        int b = -1;
        for (int k = 0; k < CV_BUF_COUNT; k++)
            if (strcasecmp(buf, cv_buf_name((cv_buf)k)) == 0)
                b = k;
        if (b < 0) {
            ok = false;
            break;
        }
        for (long i = first; i < end; i++) {
            if (n == cap) {
                cap *= 2;
                cells = lesson__xrealloc(cells, (size_t)cap * sizeof(*cells));
            }
            cells[n++] = (lesson_cell){(int)rank, (cv_buf)b, i};
        }
    }
    free(copy);
    if (!ok || n == 0) {
        snprintf(err, errlen,
                 "type cells as RANK BUF INDEX or RANK BUF[FIRST..END) (half-open: the element "
                 "END is not included), separated by commas, e.g. \"1 recv[0..2), 2 recv 3\"");
        free(cells);
        return false;
    }
    *out = cells;
    *nout = n;
    return true;
}

bool lesson_check_typed(const lesson_quiz *q, const char *line, lesson_verdict *v, char *err,
                        size_t errlen)
{
    char s[512];
    trimmed(line, s, sizeof s);
    switch (q->kind) {
    case LESSON_QUIZ_CHOICE: {
        int i = letter_index(s, q->nchoices);
        char *end;
        long k = strtol(s, &end, 10);
        if (i < 0 && *s && !*end && k >= 1 && k <= q->nchoices)
            i = (int)k - 1;
        if (i < 0) {
            snprintf(err, errlen, "type a letter from a to %c", 'a' + q->nchoices - 1);
            return false;
        }
        int order[LESSON_MAX_SHOWN];
        lesson_quiz_order(q, order);
        lesson_check_choice(q, order[i], v); /* letters name shown positions */
        return true;
    }
    case LESSON_QUIZ_PREDICT_VALUE: {
        int i = letter_index(s, q->noptions);
        if (i >= 0) {
            int order[LESSON_MAX_SHOWN];
            lesson_quiz_order(q, order);
            i = order[i]; /* letters name shown positions */
        } else {
            char *end;
            double d = strtod(s, &end);
            if (*s && !*skip_space(end)) {
                for (int k = 0; k < q->noptions; k++)
                    if (q->options[k] == d)
                        i = k;
                if (i < 0)
                    i = q->noptions; /* a value not offered: simply wrong */
            }
        }
        if (i < 0) {
            snprintf(err, errlen, "type a letter from a to %c, or the value",
                     'a' + q->noptions - 1);
            return false;
        }
        lesson_check_choice(q, i, v);
        return true;
    }
    case LESSON_QUIZ_NUMBER: {
        char *end;
        double d = strtod(s, &end);
        const char *rest = skip_space(end);
        if (end == s || !isfinite(d) || (*rest && !lesson_quiz_unit_matches(q, rest))) {
            snprintf(err, errlen, "type a number (in %s)", q->unit);
            return false;
        }
        lesson_check_number(q, d, v);
        return true;
    }
    default: {
        lesson_cell *cells = NULL;
        int n = 0;
        if (!parse_cells(s, &cells, &n, err, errlen))
            return false;
        lesson_check_cells(q, cells, n, v);
        free(cells);
        return true;
    }
    }
}

const char *lesson_quiz_unit(const lesson_quiz *q, lesson_lang lang)
{
    if (lang == LESSON_ZH && q->unit_zh)
        return q->unit_zh;
    if (q->unit && strcmp(q->unit, "us") == 0)
        return "\xC2\xB5s"; /* written "us" in a file, read as µs */
    return q->unit ? q->unit : "";
}

bool lesson_quiz_unit_matches(const lesson_quiz *q, const char *typed)
{
    if (!q->unit)
        return false;
    if (strcasecmp(typed, q->unit) == 0 || (q->unit_zh && strcmp(typed, q->unit_zh) == 0))
        return true;
    bool micro = strcmp(q->unit, "us") == 0 || strcmp(q->unit, "\xC2\xB5s") == 0;
    return micro && (strcasecmp(typed, "us") == 0 || strcmp(typed, "\xC2\xB5s") == 0);
}

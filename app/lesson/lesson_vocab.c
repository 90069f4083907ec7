/*
 * lesson_vocab.c: the lesson module's names (languages, tracks, quiz kinds,
 * cost quantities) and its diagnostics list. Names here are the spellings
 * the JSON format uses (docs/LESSONS.md), so loader, CLI and GUI agree.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "lesson_internal.h"

const char *lesson_lang_name(lesson_lang lang) { return cv_lang_name(lang); }

int lesson_lang_parse(const char *s)
{
    /* Lesson files and progress spell languages exactly ("en", not "EN"). */
    int l = cv_lang_parse(s);
    return l >= 0 && strcmp(s, cv_lang_name((cv_lang)l)) == 0 ? l : -1;
}

const char *lesson_text_get(const lesson_text *t, lesson_lang lang)
{
    if (!t)
        return "";
    if ((unsigned)lang < LESSON_LANG_COUNT && t->s[lang])
        return t->s[lang];
    return t->s[LESSON_EN] ? t->s[LESSON_EN] : "";
}

bool lesson_text_present(const lesson_text *t)
{
    return t && t->s[LESSON_EN] != NULL;
}

size_t lesson_utf8_prefix(const char *s, size_t max)
{
    size_t n = 0;
    while (n < max && s[n])
        n++;
    if (n < max || !s[n])
        return n; /* all of s fits */
    /* s[n] is the first byte left out: while it continues a character,
     * that character started inside the prefix and must go too. */
    while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
        n--;
    return n;
}

bool lesson_utf8_copy(char *out, size_t n, const char *s)
{
    if (n == 0)
        return false;
    size_t k = lesson_utf8_prefix(s, n - 1);
    memcpy(out, s, k);
    out[k] = '\0';
    return s[k] == '\0';
}

static const char *const track_names[LESSON_TRACK_COUNT] = {"primitives", "algorithms", "cost",
                                                            "parallelism"};
static const char *const track_titles[LESSON_TRACK_COUNT][LESSON_LANG_COUNT] = {
    {"Primitives", "通信原语"},
    {"Algorithms", "算法"},
    {"Cost", "通信开销"},
    {"Parallelism", "并行方式"},
};

const char *lesson_track_name(lesson_track track)
{
    return (unsigned)track < LESSON_TRACK_COUNT ? track_names[track] : "?";
}

const char *lesson_track_title(lesson_track track, lesson_lang lang)
{
    if ((unsigned)track >= LESSON_TRACK_COUNT)
        return "?";
    return track_titles[track][(unsigned)lang < LESSON_LANG_COUNT ? lang : LESSON_EN];
}

int lesson_track_parse(const char *s)
{
    for (int i = 0; i < LESSON_TRACK_COUNT; i++)
        if (strcmp(s, track_names[i]) == 0)
            return i;
    return -1;
}

static const char *const quiz_kind_names[LESSON_QUIZ_KIND_COUNT] = {"choice", "number",
                                                                    "predict-value",
                                                                    "predict-cells"};

const char *lesson_quiz_kind_name(lesson_quiz_kind kind)
{
    return (unsigned)kind < LESSON_QUIZ_KIND_COUNT ? quiz_kind_names[kind] : "?";
}

static const char *const quantity_names[LESSON_COST_QUANTITY_COUNT] = {
    "time_s", "time_ms", "time_us", "sent_bytes", "sent_mb", "sent_gb", "algbw_gbps",
    "busbw_gbps", "steps", "comm_steps", "inter_steps", "inter_sent_mb", "inter_sent_gb",
    "crossover_bytes", "crossover_kb", "crossover_mb"};
static const char *const quantity_units[LESSON_COST_QUANTITY_COUNT] = {
    "s", "ms", "us", "B", "MB", "GB", "GB/s", "GB/s", "steps", "steps", "steps", "MB", "GB", "B", "kB", "MB"};

const char *lesson_cost_quantity_name(lesson_cost_quantity q)
{
    return (unsigned)q < LESSON_COST_QUANTITY_COUNT ? quantity_names[q] : "?";
}

const char *lesson_cost_quantity_unit(lesson_cost_quantity q)
{
    return (unsigned)q < LESSON_COST_QUANTITY_COUNT ? quantity_units[q] : "?";
}

/* ------------------------------------------------------------ diagnostics */

void lesson_diags_init(lesson_diags *d)
{
    memset(d, 0, sizeof *d);
}

void lesson_diags_destroy(lesson_diags *d)
{
    for (int i = 0; i < d->count; i++) {
        free(d->items[i].file);
        free(d->items[i].message);
    }
    free(d->items);
    memset(d, 0, sizeof *d);
}

void lesson_diags_add(lesson_diags *d, const char *file, int line, int col, const char *fmt, ...)
{
    if (d->count == d->cap) {
        d->cap = d->cap ? d->cap * 2 : 16;
        d->items = lesson__xrealloc(d->items, (size_t)d->cap * sizeof(*d->items));
    }
    char msg[2048];
    va_list ap;
    va_start(ap, fmt);
    int len = vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (len >= (int)sizeof msg) /* cut: end on a whole character */
        msg[lesson_utf8_prefix(msg, sizeof msg - 1)] = '\0';
    lesson_diag *g = &d->items[d->count++];
    g->file = lesson__xstrdup(file ? file : "<buffer>");
    g->line = line;
    g->col = col;
    g->message = lesson__xstrdup(msg);
}

void lesson_diags_print(const lesson_diags *d, FILE *out)
{
    for (int i = 0; i < d->count; i++) {
        const lesson_diag *g = &d->items[i];
        /* A file's name and a message quoting its text may hold anything
         * (an ESC in a name clears a terminal): escaped, both. */
        char file[1024], msg[2048];
        cli_escape(g->file, file, sizeof file);
        cli_escape(g->message, msg, sizeof msg);
        if (g->line > 0)
            fprintf(out, "%s:%d:%d: %s\n", file, g->line, g->col, msg);
        else
            fprintf(out, "%s: %s\n", file, msg);
    }
}

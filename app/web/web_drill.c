/*
 * web_drill.c: the interview drill in the page (`?drill`, or the bar's
 * "drill"). The drill is words, not animation, so the page shows it as the
 * terminal does, in a text panel with a line to type into (web.js), and
 * this file drives the same drill (app/lesson/lesson_drill.c) a line at a time:
 * each call returns what the drill printed since the last one. Answers and
 * the score go into the progress file as in the terminal, and from there
 * into the browser's storage.
 */
#define _POSIX_C_SOURCE 200809L
#include <emscripten.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cv.h"
#include "lesson_drill.h"
#include "lesson_cmd.h"
#include "lesson_progress.h"
#include "web.h"

static struct {
    bool loaded;
    lesson_course course;
    lesson_progress prog;
    char path[4096];
    lesson_drill_progress dp;
    lesson_drill_item *items;
    lesson_drill_session *s;
    lesson_lang lang;
    FILE *out;
    char *buf;
    size_t len, taken;
    char *last; /* the text handed to the page last */
} d;

/* What was printed since the last call, for the page (valid until the
 * next call). */
static const char *take_text(void)
{
    if (d.out)
        fflush(d.out);
    free(d.last);
    size_t n = d.buf && d.len > d.taken ? d.len - d.taken : 0;
    d.last = malloc(n + 1);
    if (!d.last)
        return "";
    if (n)
        memcpy(d.last, d.buf + d.taken, n);
    d.last[n] = '\0';
    d.taken += n;
    return d.last;
}

static void finish(void)
{
    lesson_drill_result res;
    lesson_drill_end(d.s, &res);
    d.s = NULL;
    lesson_drill_finish(&d.dp, &res, d.lang, d.out);
}

EMSCRIPTEN_KEEPALIVE const char *web_drill_start(int zh, int seconds, int count)
{
    if (!d.out && !(d.out = open_memstream(&d.buf, &d.len)))
        return "collviz: drill: out of memory\n";
    if (d.s)
        finish();
    if (!d.loaded) {
        if (lesson_cmd_load_course(&d.course, NULL, false) < 0) {
            fprintf(d.out, "collviz: drill: the lessons could not be loaded\n");
            return take_text();
        }
        lesson_cmd_load_progress(&d.prog, d.path, sizeof d.path);
        d.dp = (lesson_drill_progress){&d.prog, d.path};
        d.loaded = true;
    }
    d.lang = zh ? LESSON_ZH : LESSON_EN;
    uint64_t seed = ((uint64_t)time(NULL) ^ (uint64_t)(cv_now_seconds() * 1e6)) & 0x7fffffff;
    free(d.items);
    int n = lesson_drill_items(&d.course, seed, &d.items);
    if (count > 0 && count < n)
        n = count;
    if (n == 0) {
        fprintf(d.out, "collviz: drill: no quizzes found (no lessons loaded)\n");
        return take_text();
    }
    lesson_drill_say_start(d.out, d.lang, n, seconds, seed);
    d.s = lesson_drill_begin(d.items, n, d.lang, seconds, d.out, lesson_drill_record_answer, &d.dp);
    return take_text();
}

EMSCRIPTEN_KEEPALIVE const char *web_drill_answer(const char *line)
{
    if (!d.s)
        return "";
    if (!lesson_drill_take(d.s, line) || lesson_drill_over(d.s))
        finish();
    return take_text();
}

EMSCRIPTEN_KEEPALIVE const char *web_drill_tick(void)
{
    if (d.s && lesson_drill_time_up(d.s))
        finish();
    return take_text();
}

EMSCRIPTEN_KEEPALIVE int web_drill_left(void)
{
    if (!d.s)
        return -2;
    double left = lesson_drill_seconds_left(d.s);
    return left < 0 ? -1 : (int)(left + 0.999);
}

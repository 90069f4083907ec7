/*
 * drill.h: the interview drill (prefix drill_): every quiz of every lesson
 * in a random order against a clock, in the terminal, with the standard
 * answer card after each and the lessons' mistake cards along the way.
 */
#ifndef DRILL_H
#define DRILL_H

#include <stdint.h>
#include <stdio.h>

#include "lesson.h"

/* `collviz drill [--lang en|zh] [--time SECONDS] [--seed S] [--count N]
 * [--dir DIR]` (also declared in app.h for main.c's dispatch table). */
int app_cmd_drill(int argc, char **argv);

typedef struct {
    const lesson *l;
    const lesson_quiz *q;
} drill_item;

/* Every quiz of the course, shuffled by seed (the same seed gives the same
 * order). Returns the count; *out is malloc'ed (free it). */
int drill_items(const lesson_course *c, uint64_t seed, drill_item **out);

typedef struct {
    int asked, right;
    bool timed_out;
} drill_result;

/* Runs the drill on fd `in` (read directly so the clock can interrupt a
 * wait) and out. seconds <= 0: no clock. on_answer, when set, is told each
 * answer (progress keeping). */
void drill_run(const drill_item *items, int n, lesson_lang lang, double seconds, int in, FILE *out,
               void (*on_answer)(void *user, const lesson_quiz *q, bool correct), void *user,
               drill_result *res);

#endif /* DRILL_H */

/*
 * drill.h: the interview drill (prefix drill_): every quiz of every lesson
 * in a random order against a clock, in the terminal, with the standard
 * answer card after each and, after a quiz that names one, the mistake
 * card it is about.
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

/* One drill, fed a line at a time: what the terminal's drill_run and the
 * browser's page (app/web/web_drill.c) both drive. drill_begin prints the
 * first question (seconds <= 0: no clock); drill_take takes the line typed
 * for the question on screen and prints the verdict, the answer cards and
 * the next question (or the same one again, when the line is no answer;
 * Enter alone passes, "q" stops), false once the drill is over;
 * drill_time_up ends it, saying so, once the clock has run out (true when
 * it ended that way). on_answer, when set, is told each answer (progress
 * keeping). drill_end gives the score and frees the session. */
typedef struct drill_session drill_session;
drill_session *drill_begin(const drill_item *items, int n, lesson_lang lang, double seconds,
                           FILE *out, void (*on_answer)(void *user, const lesson_quiz *q,
                                                        bool correct),
                           void *user);
bool drill_take(drill_session *s, const char *line);
bool drill_time_up(drill_session *s);
bool drill_over(const drill_session *s);
double drill_seconds_left(const drill_session *s); /* -1: no clock */
void drill_end(drill_session *s, drill_result *res);

/* Runs the drill on fd `in` (read directly so the clock can interrupt a
 * wait) and out. seconds <= 0: no clock. on_answer, when set, is told each
 * answer (progress keeping). */
void drill_run(const drill_item *items, int n, lesson_lang lang, double seconds, int in, FILE *out,
               void (*on_answer)(void *user, const lesson_quiz *q, bool correct), void *user,
               drill_result *res);

/* Around a drill, the same in the terminal and the page: the opening line
 * (how many, how long, the seed that repeats it); each answer saved to the
 * progress file at once (drill_record_answer, an on_answer for a
 * drill_progress); the score recorded and said at the end. */
struct progress;
typedef struct {
    struct progress *p;
    const char *path;
} drill_progress;
void drill_say_start(FILE *out, lesson_lang lang, int n, long seconds, uint64_t seed);
void drill_record_answer(void *user, const lesson_quiz *q, bool correct);
void drill_finish(drill_progress *d, const drill_result *res, lesson_lang lang, FILE *out);

#endif /* DRILL_H */

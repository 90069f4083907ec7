/*
 * lesson_drill.h: the interview drill (prefix lesson_drill_): every quiz of every lesson
 * in a random order against a clock, in the terminal, with the standard
 * answer card after each and, after a quiz that names one, the mistake
 * card it is about.
 */
#ifndef LESSON_DRILL_H
#define LESSON_DRILL_H

#include <stdint.h>
#include <stdio.h>

#include "lesson.h"

/* `collviz drill [--lang en|zh] [--time SECONDS] [--seed S] [--count N]
 * [--dir DIR]` (also declared in cli.h for main.c's dispatch table). */
int lesson_cmd_drill(int argc, char **argv);

typedef struct {
    const lesson *l;
    const lesson_quiz *q;
} lesson_drill_item;

/* Every quiz of the course, shuffled by seed (the same seed gives the same
 * order). Returns the count; *out is malloc'ed (free it). */
int lesson_drill_items(const lesson_course *c, uint64_t seed, lesson_drill_item **out);

typedef struct {
    int asked, right;
    bool timed_out;
} lesson_drill_result;

/* One drill, fed a line at a time: what the terminal's lesson_drill_run and the
 * browser's page (app/web/web_drill.c) both drive. lesson_drill_begin prints the
 * first question (seconds <= 0: no clock); lesson_drill_take takes the line typed
 * for the question on screen and prints the verdict, the answer cards and
 * the next question (or the same one again, when the line is no answer;
 * Enter alone passes, "q" stops), false once the drill is over;
 * lesson_drill_time_up ends it, saying so, once the clock has run out (true when
 * it ended that way). on_answer, when set, is told each answer (progress
 * keeping). lesson_drill_end gives the score and frees the session. */
typedef struct lesson_drill_session lesson_drill_session;
lesson_drill_session *lesson_drill_begin(const lesson_drill_item *items, int n, lesson_lang lang, double seconds,
                           FILE *out, void (*on_answer)(void *user, const lesson_quiz *q,
                                                        bool correct),
                           void *user);
bool lesson_drill_take(lesson_drill_session *s, const char *line);
bool lesson_drill_time_up(lesson_drill_session *s);
bool lesson_drill_over(const lesson_drill_session *s);
double lesson_drill_seconds_left(const lesson_drill_session *s); /* -1: no clock */
void lesson_drill_end(lesson_drill_session *s, lesson_drill_result *res);

/* Runs the drill on fd `in` (read directly so the clock can interrupt a
 * wait) and out. seconds <= 0: no clock. on_answer, when set, is told each
 * answer (progress keeping). */
void lesson_drill_run(const lesson_drill_item *items, int n, lesson_lang lang, double seconds, int in, FILE *out,
               void (*on_answer)(void *user, const lesson_quiz *q, bool correct), void *user,
               lesson_drill_result *res);

/* Around a drill, the same in the terminal and the page: the opening line
 * (how many, how long, the seed that repeats it); each answer saved to the
 * progress file at once (lesson_drill_record_answer, an on_answer for a
 * lesson_drill_progress); the score recorded and said at the end. */
struct lesson_progress;
typedef struct {
    struct lesson_progress *p;
    const char *path;
} lesson_drill_progress;
void lesson_drill_say_start(FILE *out, lesson_lang lang, int n, long seconds, uint64_t seed);
void lesson_drill_record_answer(void *user, const lesson_quiz *q, bool correct);
void lesson_drill_finish(lesson_drill_progress *d, const lesson_drill_result *res, lesson_lang lang, FILE *out);

#endif /* LESSON_DRILL_H */

/*
 * lesson_internal.h: what the lesson_*.c files share and nothing else sees
 * (prefix lesson__): the arena every lesson's strings and arrays live in,
 * the model's remembered answers and the players' short strings.
 *
 * The text of a lesson is read by collviz's one JSON reader
 * (collectives/json/jr.h): its strict scanner checks the syntax and refuses what a
 * terminal would act on, and gives every value its line and column, which
 * the loader (lesson_walk.h) names in each complaint.
 */
#ifndef LESSON_INTERNAL_H
#define LESSON_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lesson.h"

/* ------------------------------------------------------------------ memory */

/* Fatal on out of memory: cv.h's one allocator, as everywhere in collviz. */
#define lesson__xmalloc cv_xmalloc
#define lesson__xcalloc cv_xcalloc
#define lesson__xrealloc cv_xrealloc
#define lesson__xstrdup cv_xstrdup

/* splitmix64: the next number of a small deterministic generator, so a
 * seed gives the same drill, and a quiz key the same answer order,
 * everywhere (lesson_quiz.c). */
uint64_t lesson__next_random(uint64_t *state);

lesson__arena *lesson__arena_create(void);
void lesson__arena_destroy(lesson__arena *a); /* accepts NULL */
void *lesson__alloc(lesson__arena *a, size_t n); /* zeroed, aligned for any type */
char *lesson__strdup(lesson__arena *a, const char *s);

/* ------------------------------------------------------------------ model */

/* The model's cost of spec's plan on link (inter between nodes, or NULL),
 * from the remembered answers when they hold it (lesson_model.c); else
 * built and priced, and kept when `remember` (not for the probes of a
 * crossover's search, whose answer is kept instead). False with err when
 * the spec cannot be planned. */
bool lesson__model_cost(const cv_spec *spec, const cv_link *link, const cv_link *inter,
                        bool remember, cv_cost *out, char *err, size_t errlen);
/* A crossover's size in bytes (spec's algorithm against versus), when
 * remembered; and remembering one. */
bool lesson__model_get_crossover(const cv_spec *spec, cv_algo versus, const cv_link *link,
                                 const cv_link *inter, int64_t *bytes);
void lesson__model_put_crossover(const cv_spec *spec, cv_algo versus, const cv_link *link,
                                 const cv_link *inter, int64_t bytes);

/* Levenshtein distance, capped (returns cap when larger). */
int lesson__distance(const char *a, const char *b, int cap);

/* Private position bookkeeping the course uses for cross-file messages. */
typedef struct {
    int id_line, id_col;
    int order_line, order_col;
} lesson__pos;
lesson__pos *lesson__positions(const lesson *l);

/* Short interface strings of the terminal players, in both languages. */
typedef enum {
    LESSON__SAY_BEAT,
    LESSON__SAY_QUIZ,
    LESSON__SAY_ANSWER,
    LESSON__SAY_RIGHT,
    LESSON__SAY_WRONG,
    LESSON__SAY_TRY_AGAIN,
    LESSON__SAY_CARD,
    LESSON__SAY_MYTH,
    LESSON__SAY_TRUTH,
    LESSON__SAY_NEXT,
    LESSON__SAY_STAGE,
    LESSON__SAY_OF,
    LESSON__SAY_STEPS,
    LESSON__SAY_LAST_STEP,
    LESSON__SAY_NEXT_STEP,
    LESSON__SAY_TYPE_LETTER,
    LESSON__SAY_TYPE_VALUE,
    LESSON__SAY_TYPE_NUMBER,
    LESSON__SAY_TYPE_CELLS,
    LESSON__SAY_MISSING,
    LESSON__SAY_EXTRA,
    LESSON__SAY_TOLERANCE,
    LESSON__SAY_DONE,
    LESSON__SAY_RANGES,
    LESSON__SAY_COUNT
} lesson__say_id;
const char *lesson__say(lesson__say_id id, lesson_lang lang);

/* "Right." / "Not quite." plus what the picked choice missed. */
void lesson__print_verdict(const lesson_quiz *q, const lesson_verdict *v, lesson_lang lang,
                           FILE *out);

#endif /* LESSON_INTERNAL_H */

/*
 * lesson_internal.h: what the lesson_*.c files share and nothing else sees
 * (prefix lesson__): the arena every lesson's strings and arrays live in,
 * and the position scanner.
 *
 * cJSON gives no positions, so before cJSON parses a file a small scanner
 * walks the same text, checks its syntax with messages that say what was
 * expected, and records for every value its byte offset (and, for an object
 * member, the offset of its key). Its nodes come in the same order as
 * cJSON's children, so the loader walks both trees in lockstep and can name
 * the line and column of anything it complains about.
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

/* ---------------------------------------------------------------- scanner */

typedef enum {
    LESSON__J_NULL,
    LESSON__J_FALSE,
    LESSON__J_TRUE,
    LESSON__J_NUMBER,
    LESSON__J_STRING,
    LESSON__J_ARRAY,
    LESSON__J_OBJECT
} lesson__jtype;

typedef struct {
    uint8_t type;    /* lesson__jtype */
    uint32_t off;    /* byte offset of the value's first character */
    uint32_t key_off; /* object member: byte offset of its key's '"' */
    int32_t first;   /* first child, -1 if none */
    int32_t next;    /* next sibling, -1 if none */
} lesson__jnode;

typedef struct {
    lesson__jnode *nodes;
    int32_t n, cap;
} lesson__jdoc;

/* Scans text[start, len). Returns 0 with doc filled (node 0 is the root), or
 * -1 with *err_off and a message saying what was expected. */
int lesson__jscan(const char *text, size_t len, size_t start, lesson__jdoc *doc, size_t *err_off,
                  char *err, size_t errlen);
void lesson__jdoc_free(lesson__jdoc *doc);

/* 1-based line and column (in characters) of byte off; start skips a BOM. */
void lesson__position(const char *text, size_t len, size_t start, size_t off, int *line,
                      int *col);

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

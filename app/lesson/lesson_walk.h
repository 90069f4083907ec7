/*
 * lesson_walk.h: the loader's private toolkit (prefix lesson__), shared by
 * lesson_load.c (the lesson, its setups and beats), lesson_quiz_load.c
 * (quizzes, cost references), lesson_diagram.c, lesson_timeline.c,
 * lesson_verify.c and lesson_walk.c, and nothing else: with
 * collectives/json/jr.h, the only header of the course that mentions
 * cJSON, which must not leak past the loader.
 *
 * A lesson__val is the shared reader's jr_val: a cJSON node with the
 * scanner's node for the same value, so every complaint can name a line
 * and column. The lesson__want_* readers check one member's presence, type
 * and range and report what was expected; they return 1 when a value was
 * read, 0 when an optional member is absent, and -1 after reporting a
 * problem, so callers can carry on and find the next problem too.
 */
#ifndef LESSON_WALK_H
#define LESSON_WALK_H

#include <cjson/cJSON.h>

#include "jr.h"
#include "lesson_internal.h"

typedef jr_val lesson__val; /* j NULL: absent */

/* A predict-value quiz waiting for the trace check. */
typedef struct {
    lesson_quiz *quiz;
    int setup;
    int step; /* the beat's step; the check looks at step + 1 */
    size_t answer_off;
} lesson__pending;

typedef struct {
    const char *name; /* file name in messages */
    const jr_doc *doc; /* the text, its positions and cJSON's tree */
    lesson_diags *diags;
    int errors;
    unsigned flags;
    lesson__arena *arena;
    lesson *l;
    /* setups as they are met; plans[i] NULL when setup i was bad */
    lesson_setup *setups;
    cv_plan **plans;
    int nsetups, cap_setups;
    lesson__pending *pending;
    int npending, cap_pending;
} lesson__ctx;

#define LESSON__MAX_DIAGS_PER_FILE 100

void lesson__err(lesson__ctx *c, size_t off, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
size_t lesson__off(const lesson__ctx *c, lesson__val v);     /* the value's offset */
size_t lesson__key_off(const lesson__ctx *c, lesson__val v); /* its key's offset */

/* A string from the file, shortened for a message: at most n - 4 bytes of
 * s, cut between characters, then "…" when it was cut. Returns out (n at
 * least 5; LESSON__CLIP suits a name or a key). */
#define LESSON__CLIP 68
const char *lesson__clip(char *out, size_t n, const char *s);

/* "where.key", or "key" when where is empty. */
void lesson__path(char *out, size_t n, const char *where, const char *key);
/* How a found value is named in messages: "a string", "null", or a number
 * as the file writes it ("20", not "2e+01"). */
const char *lesson__found(const lesson__ctx *c, lesson__val v, char *out, size_t n);
/* Line and column of byte off of the lesson's text. */
void lesson__position(const lesson__ctx *c, size_t off, int *line, int *col);

lesson__val lesson__member(const lesson__ctx *c, lesson__val obj, const char *key);
int lesson__count(lesson__val arr);
lesson__val lesson__item(const lesson__ctx *c, lesson__val arr, int i);

/* Reports unknown keys of obj (the reader refused a key given twice);
 * allowed is NULL-terminated. Returns false if any were found. */
bool lesson__keys(lesson__ctx *c, lesson__val obj, const char *where,
                  const char *const *allowed);
/* Reports "where must be <what>, not <found>" at v. */
void lesson__type_err(lesson__ctx *c, lesson__val v, const char *where, const char *what);

/* v must be an object (or array); reports and returns false otherwise. */
bool lesson__want_object(lesson__ctx *c, lesson__val v, const char *where);
bool lesson__want_array(lesson__ctx *c, lesson__val v, const char *where, int min, int max);

int lesson__want_int(lesson__ctx *c, lesson__val obj, const char *key, const char *where,
                     bool required, long long min, long long max, long long *out);
int lesson__want_number(lesson__ctx *c, lesson__val obj, const char *key, const char *where,
                        bool required, double *out);
int lesson__want_string(lesson__ctx *c, lesson__val obj, const char *key, const char *where,
                        bool required, const char **out);
/* A string that must be one of the names parse() accepts; names lists
 * them for the message ("a, b, c"). */
int lesson__want_enum(lesson__ctx *c, lesson__val obj, const char *key, const char *where,
                      bool required, int (*parse)(const char *), const char *names, int *out);
int lesson__want_text(lesson__ctx *c, lesson__val obj, const char *key, const char *where,
                      bool required, lesson_text *out);
/* A text given directly (not as a member). */
bool lesson__read_text(lesson__ctx *c, lesson__val v, const char *where, lesson_text *out);
/* An id string: [a-z][a-z0-9-]*, at most LESSON_MAX_ID characters. */
int lesson__want_id(lesson__ctx *c, lesson__val obj, const char *key, const char *where,
                    bool required, const char **out);

/* A chunk {rank, buf, first, count} checked against setup s (plans[s]
 * may be NULL: ranges are then not checked). */
bool lesson__read_chunk(lesson__ctx *c, lesson__val v, const char *where, int setup,
                        lesson_chunk *out);

/* lesson_quiz_load.c and lesson_diagram.c */
/* A from_cost object: builds the plan and runs the cost model; ref->value
 * is the model's value for ref->quantity; about names the setup for
 * messages. */
bool lesson__read_cost(lesson__ctx *c, lesson__val v, const char *where, lesson_cost_ref *ref,
                       char *about, size_t aboutlen);
bool lesson__read_quiz(lesson__ctx *c, lesson__val v, const char *where, int beat, int setup,
                       int step, lesson_quiz *out);
lesson_diagram *lesson__read_diagram(lesson__ctx *c, lesson__val v, const char *where);
/* A label the renderer draws on one line from a field of max bytes: a
 * longer one, or one holding a control character, is an error at the
 * offending language's string; what ("a box") names it in the message. */
bool lesson__label_fits(lesson__ctx *c, lesson__val owner, const char *where,
                        const lesson_text *label, size_t max, const char *what);
/* lesson_timeline.c: a beat's step timeline. */
lesson_timeline *lesson__read_timeline(lesson__ctx *c, lesson__val v, const char *where);

/* lesson_giveaway.c: an error at text_off when a beat's text (any
 * language) writes its number quiz's answer with the unit. */
void lesson__check_giveaway(lesson__ctx *c, size_t text_off, const lesson_text *text,
                            const lesson_quiz *q);
/* The same for another place the learner reads before the quiz: place
 * names it in the message ("the title", "beats[2]"); a choice quiz's right
 * answer, written whole where no wrong one is, gives it away too. */
void lesson__check_giveaway_at(lesson__ctx *c, size_t text_off, const lesson_text *text,
                               const lesson_quiz *q, const char *place);
/* Does s start with unit, not followed by a letter? A micro sign matches
 * 'u' either way ("µs" in a text is the "us" of a quiz). */
bool lesson__unit_at(const char *s, const char *unit);
/* Does text write num (not inside a longer number), then unit? */
bool lesson__writes(const char *text, const char *num, const char *unit);
/* Does text write a number equal to value (as 0.6 or 0.60), then unit? */
bool lesson__writes_value(const char *text, double value, const char *unit);

/* lesson_figures.c: reads the lesson's "figures" (after the beats, so
 * every text is there to be searched) and checks each against the model
 * and against the texts that must state it. */
void lesson__read_figures(lesson__ctx *c, lesson__val root);

/* lesson_claims.c: an error at off when text (the string at path where)
 * states a claim the course once made and found wrong. */
void lesson__check_claims(lesson__ctx *c, size_t off, const char *where, const char *text);
/* Does [s, e) hold one of the '|'-separated alternatives of term, ASCII
 * case aside? */
bool lesson__holds_any(const char *s, const char *e, const char *term);

/* lesson_facts.c: a figure that names a fact ("fact": id) must state the
 * fact's value (within its tolerance when the figure gives one) and unit;
 * sets fig->fact. A given reason that describes a fact is an error. */
bool lesson__check_fact(lesson__ctx *c, lesson__val v, const char *where, lesson_figure *fig,
                        const char *id, bool tolerance_given);
void lesson__check_given(lesson__ctx *c, lesson__val v, const char *where, const char *reason);

/* lesson_verify.c: runs the trace checks of the pending quizzes. */
void lesson__check_traces(lesson__ctx *c);

/* Names lists for messages. */
void lesson__names(char *out, size_t n, const char *(*name)(int), int count);

#endif /* LESSON_WALK_H */

/*
 * lesson.h: collviz's lessons (prefix lesson_): the loaded form of the JSON
 * files under lessons/ (format in docs/LESSONS.md), the validator's
 * diagnostics, the course, quiz checking, and the terminal commands.
 *
 * The loader turns a file into plain C structs; cJSON never leaves it. Loading
 * is also validating: every problem is collected as file:line:column plus a
 * message, a lesson with any problem is left out of the course, and the rest
 * of the course still loads. Loading builds each setup's plan (so a beat's
 * step can be checked against the real step count), recomputes cost-model
 * answers, and, unless LESSON_LOAD_NO_TRACE is given, runs every setup on the
 * CPU backend in visual mode to check predict-the-next-state answers.
 *
 * Everything a lesson owns lives in one arena freed by lesson_destroy, so the
 * structs below are read-only views: never free or keep their pointers past
 * lesson_destroy / lesson_course_destroy.
 */
#ifndef LESSON_H
#define LESSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cv.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- limits */

#define LESSON_FORMAT 1
#define LESSON_MAX_FILE_BYTES (1 << 20) /* refused before parsing */
#define LESSON_MAX_DEPTH 32
#define LESSON_MAX_LESSONS 512
#define LESSON_MAX_BEATS 200
#define LESSON_MAX_RANKS 16   /* the stage must stay readable */
#define LESSON_MAX_ELEMS 256  /* per buffer per rank */
#define LESSON_MAX_TEXT 4000  /* bytes per language */
#define LESSON_MAX_ID 48
#define LESSON_MIN_QUIZZES 2
#define LESSON_MAX_MISTAKES 50 /* mistake cards per lesson */
/* Diagram labels, bytes per language: the renderer draws a label on one
 * line from a fixed field (render.h: rd_diagram_box.label[64],
 * rd_diagram_arrow.label[48], each with its terminating NUL), so the
 * validator refuses a longer one instead of letting it be cut. */
#define LESSON_MAX_BOX_LABEL 63
#define LESSON_MAX_ARROW_LABEL 47
/* Step timelines: the same rule for lane and block labels (render.h:
 * rd_steptl.lanes[][32], rd_steptl_block.label[32]), and the renderer's
 * fixed arrays. */
#define LESSON_MAX_LANE_LABEL 31
#define LESSON_MAX_SPAN_LABEL 31
#define LESSON_TIMELINE_MAX_LANES 8
#define LESSON_TIMELINE_MAX_BLOCKS 64
#define LESSON_TIMELINE_MAX_MARKERS 4

/* --------------------------------------------------------------- vocabulary */

/* The window's and the lessons' language is one enum, cv.h's cv_lang;
 * these names stay for the lesson engine's code. */
typedef cv_lang lesson_lang;
#define LESSON_EN CV_LANG_EN
#define LESSON_ZH CV_LANG_ZH
#define LESSON_LANG_COUNT CV_LANG_COUNT
const char *lesson_lang_name(lesson_lang lang); /* "en", "zh" */
int lesson_lang_parse(const char *s);           /* -1 if unknown */

/* A translated text. s[LESSON_EN] and s[LESSON_ZH]; both NULL for an
 * optional text that was left out. */
typedef struct {
    const char *s[LESSON_LANG_COUNT];
} lesson_text;
/* The text in lang, falling back to English, then to "". */
const char *lesson_text_get(const lesson_text *t, lesson_lang lang);
bool lesson_text_present(const lesson_text *t);

/* UTF-8 that must be shortened is cut between characters, never inside
 * one. lesson_utf8_prefix: the length of the longest prefix of s of at
 * most max bytes that ends on a character boundary (strlen(s) when all of
 * s fits). lesson_utf8_copy: copies that prefix of s into out[n] (n >= 1,
 * always NUL-terminated); returns false when s had to be cut. */
size_t lesson_utf8_prefix(const char *s, size_t max);
bool lesson_utf8_copy(char *out, size_t n, const char *s);

typedef enum {
    LESSON_TRACK_PRIMITIVES,
    LESSON_TRACK_ALGORITHMS,
    LESSON_TRACK_COST,
    LESSON_TRACK_PARALLELISM,
    LESSON_TRACK_COUNT
} lesson_track;
const char *lesson_track_name(lesson_track track); /* "primitives" */
/* The track's title for menus, e.g. "Primitives" / "通信原语". */
const char *lesson_track_title(lesson_track track, lesson_lang lang);
int lesson_track_parse(const char *s);

/* ------------------------------------------------------------------ lesson */

/* What the stage runs: a spec plus how inputs are filled. */
typedef struct {
    cv_spec spec;
    cv_init init;
    uint64_t seed;
} lesson_setup;

/* A region of one rank's buffer: count elements from first. */
typedef struct {
    int rank;
    cv_buf buf;
    int64_t first;
    int64_t count;
} lesson_chunk;

/* One cell of the stage, as a learner clicks it. */
typedef struct {
    int rank;
    cv_buf buf;
    int64_t index;
} lesson_cell;

typedef struct {
    int src, dst;
} lesson_link;

typedef struct {
    int *ranks;
    int nranks;
    lesson_chunk *chunks;
    int nchunks;
    lesson_link *links;
    int nlinks;
} lesson_highlight;

typedef enum {
    LESSON_BOX_COMPUTE,
    LESSON_BOX_DATA,
    LESSON_BOX_COMM,   /* a collective or send/recv: the accent colour */
    LESSON_BOX_DEVICE, /* a GPU or node frame, drawn behind the rest */
    LESSON_BOX_KIND_COUNT
} lesson_box_kind;

typedef struct {
    const char *id;
    lesson_text label;
    int x, y, w, h; /* grid cells */
    lesson_box_kind kind;
} lesson_box;

typedef struct {
    int from, to;      /* indices into the diagram's boxes */
    lesson_text label; /* may be absent */
} lesson_arrow;

typedef struct {
    int cols, rows;
    lesson_box *boxes;
    int nboxes;
    lesson_arrow *arrows;
    int narrows;
} lesson_diagram;

typedef enum {
    LESSON_QUIZ_CHOICE,
    LESSON_QUIZ_NUMBER,
    LESSON_QUIZ_PREDICT_VALUE,
    LESSON_QUIZ_PREDICT_CELLS,
    LESSON_QUIZ_KIND_COUNT
} lesson_quiz_kind;
const char *lesson_quiz_kind_name(lesson_quiz_kind kind); /* "predict-value" */

typedef enum {
    LESSON_COST_TIME_S,
    LESSON_COST_TIME_MS,
    LESSON_COST_TIME_US,
    LESSON_COST_SENT_BYTES,
    LESSON_COST_SENT_MB,
    LESSON_COST_SENT_GB,
    LESSON_COST_ALGBW_GBPS,
    LESSON_COST_BUSBW_GBPS,
    LESSON_COST_STEPS,      /* the plan's communication rounds (cv_cost.steps) */
    LESSON_COST_COMM_STEPS, /* steps that move data between ranks (cv_cost.comm_steps) */
    LESSON_COST_INTER_STEPS,   /* rounds in which some transfer crosses nodes (two-level model) */
    LESSON_COST_INTER_SENT_MB, /* bytes the busiest NIC sends to other nodes, 10^6 */
    LESSON_COST_INTER_SENT_GB, /* the same in 10^9 bytes */
    LESSON_COST_CROSSOVER_BYTES, /* the size where algo and versus take equal time */
    LESSON_COST_CROSSOVER_KB,    /* the same in 10^3 bytes */
    LESSON_COST_CROSSOVER_MB,    /* the same in 10^6 bytes */
    LESSON_COST_QUANTITY_COUNT
} lesson_cost_quantity;
const char *lesson_cost_quantity_name(lesson_cost_quantity q); /* "time_ms" */
const char *lesson_cost_quantity_unit(lesson_cost_quantity q); /* "ms" */

/* A number quiz's answer declared as coming from the cost model. With
 * spec.nodes > 1 the two-level model (cv_cost_plan_nodes) prices transfers
 * inside a node on the link and those between nodes on the inter link. */
typedef struct {
    cv_spec spec;     /* op, algo, ranks, dtype, slices, nodes; count derived from bytes */
    int64_t bytes;    /* nccl-tests' size */
    const char *link; /* preset name, or NULL when bw_gbps is given */
    double bw_gbps;   /* GB/s, one direction of one link (preset's when link) */
    double alpha_us;  /* per-message latency (preset's when link) */
    cv_algo versus;   /* crossover quantities: the algorithm compared with */
    const char *inter_link;  /* between nodes: preset name, or NULL */
    double inter_bw_gbps;    /* 0 when there is one node */
    double inter_alpha_us;
    double value;     /* what the model gives for quantity */
    lesson_cost_quantity quantity;
} lesson_cost_ref;

/* A step timeline: lanes (streams, or pipeline stages) and the blocks that
 * run on them over one training step, in `unit` ("s", "ms", "us", or
 * "slot" for a schedule drawn in equal slots). A comm block's duration is
 * the cost model's (has_cost, times `times`); a compute or bubble block's
 * is given. Blocks of one lane never overlap. */
typedef enum {
    LESSON_SPAN_COMPUTE,
    LESSON_SPAN_COMM,   /* a collective: hidden where compute runs beside it, else exposed */
    LESSON_SPAN_BUBBLE, /* a pipeline stage waiting */
    LESSON_SPAN_KIND_COUNT
} lesson_span_kind;

typedef struct {
    const char *id;
    lesson_text label;
} lesson_lane;

typedef struct {
    const char *id;    /* may be NULL */
    int lane;          /* index into the timeline's lanes */
    lesson_text label; /* may be absent */
    lesson_span_kind kind;
    double start, duration;
    bool has_cost;
    lesson_cost_ref cost; /* duration = cost.value * times */
    double times;
} lesson_span;

typedef struct {
    double at;
    lesson_text label;
} lesson_marker;

typedef struct {
    const char *unit; /* "s", "ms", "us", "slot" */
    lesson_lane *lanes;
    int nlanes;
    lesson_span *blocks;
    int nblocks;
    lesson_marker *markers;
    int nmarkers;
    double end; /* the latest block end or marker */
} lesson_timeline;

typedef struct {
    lesson_text text;
    lesson_text why; /* may be absent */
} lesson_choice;

typedef struct {
    const char *id;  /* unique within the lesson */
    const char *key; /* "<lesson id>/<quiz id>": progress and the drill */
    int line, col;   /* where its id is in the file: messages that span files */
    lesson_quiz_kind kind;
    int beat; /* index of the beat that asks it */
    lesson_text prompt, card, explain; /* explain may be absent for choice */
    int mistake; /* index into the lesson's mistakes of the card this quiz is about; -1: none */

    /* choice and predict-value: the right index */
    int answer;
    /* choice */
    lesson_choice *choices;
    int nchoices;
    /* number: answer within tolerance (absolute, or percent of the answer) */
    double number;
    double tolerance;
    bool tolerance_pct;
    const char *unit;    /* as written ("us" is shown as "µs": lesson_quiz_unit) */
    const char *unit_zh; /* the unit in Chinese where it is a word ("sequences"), or NULL */
    bool has_cost;
    lesson_cost_ref cost;
    /* predict-value: what rank holds at buf[index] after the next step */
    int rank;
    cv_buf buf;
    int64_t index;
    double *options;
    int noptions;
    /* predict-cells: exactly the cells the next step writes */
    lesson_chunk *cells;
    int ncells;
} lesson_quiz;

/* A number quiz's unit as a learner of lang reads it: unit_zh in Chinese
 * where the quiz gives one, else the unit ("" for none). */
const char *lesson_quiz_unit(const lesson_quiz *q, lesson_lang lang);
/* Whether what follows a typed number names q's unit: the unit, its
 * Chinese word, or "us" for "µs" (case aside). */
bool lesson_quiz_unit_matches(const lesson_quiz *q, const char *typed);

typedef struct {
    int step;       /* the stage's state: after `step` steps of the setup's plan */
    int setup;      /* index into the lesson's setups in effect at this beat */
    bool new_setup; /* this beat switched the setup (restart the animation) */
    lesson_text text;
    lesson_highlight highlight;
    lesson_quiz *quiz;        /* NULL when none */
    lesson_diagram *diagram;  /* the diagram in effect (carried from earlier beats), or NULL */
    lesson_timeline *timeline; /* the step timeline in effect (carried the same way), or NULL */
} lesson_beat;

typedef struct {
    lesson_text myth, truth;
} lesson_mistake;

/* A number the lesson's text states, declared so it cannot drift: either
 * computed by the cost model (has_cost: value must lie within the tolerance
 * of the model's value times `times`), or `given` (an input of a problem, a
 * measurement, a datasheet figure) with the reason, or a `fact` of the
 * course's facts table (a figure several lessons state). Either way the loader
 * checks that the English and the Chinese text both write it, value then
 * unit. */
typedef struct {
    double value;     /* as the text writes it */
    const char *unit; /* as the text writes it: "ms", "µs", "GB/s", "steps" */
    double tolerance;
    bool tolerance_pct;
    double times; /* the model's value is multiplied by this (1: as is) */
    bool has_cost;
    lesson_cost_ref cost;
    const char *given; /* NULL when has_cost or fact */
    const char *fact;  /* the facts table's id (lesson_facts.c), or NULL */
} lesson_figure;

typedef struct lesson__arena lesson__arena;

typedef struct {
    const char *path; /* as given to the loader */
    const char *id;
    lesson_track track;
    int order;
    lesson_text title, summary; /* summary may be absent */
    lesson_setup *setups;       /* setups[0] is the lesson's own */
    int *setup_steps;           /* the plan's step count of each setup */
    int nsetups;
    lesson_beat *beats;
    int nbeats;
    lesson_quiz *quizzes; /* every beat's quiz, in beat order */
    int nquizzes;
    lesson_mistake *mistakes;
    int nmistakes;
    const char **sources;
    int nsources;
    lesson_figure *figures;
    int nfigures;
    lesson__arena *arena_;
} lesson;

/* ------------------------------------------------------------ diagnostics */

typedef struct {
    char *file;
    int line, col; /* 1-based; col counts characters; 0 when not about a place */
    char *message;
} lesson_diag;

typedef struct {
    lesson_diag *items;
    int count, cap;
} lesson_diags;

void lesson_diags_init(lesson_diags *d);
void lesson_diags_destroy(lesson_diags *d);
void lesson_diags_add(lesson_diags *d, const char *file, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* One "file:line:column: message" line each (file: message without a place). */
void lesson_diags_print(const lesson_diags *d, FILE *out);

/* ----------------------------------------------------------------- loading */

enum {
    LESSON_LOAD_NO_TRACE = 1 << 0 /* skip the trace runs (predict quizzes unchecked) */
};

/* Loads and validates one lesson. On success returns 0 and *out; on any
 * problem returns -1, *out NULL, and every problem found is in diags. name is
 * the path used in messages and for the `<id>.json` file-name rule (NULL:
 * the rule is not applied, name shown as "<buffer>"). */
int lesson_load_buffer(const char *name, const char *data, size_t len, unsigned flags,
                       lesson **out, lesson_diags *diags);
int lesson_load_file(const char *path, unsigned flags, lesson **out, lesson_diags *diags);
void lesson_destroy(lesson *l); /* accepts NULL */

/* The course: every lesson that loaded, sorted by track then order. */
typedef struct {
    lesson **lessons;
    int nlessons;
    int nfailed; /* files that had problems and were left out */
} lesson_course;

void lesson_course_init(lesson_course *c);
/* Loads every path (a .json file, or a directory whose *.json files are
 * loaded in name order). Problems go to diags; files with problems are left
 * out; checks across files (duplicate ids, duplicate order in a track) are
 * made too. Returns how many files had problems. */
int lesson_course_load(lesson_course *c, const char *const *paths, int npaths, unsigned flags,
                       lesson_diags *diags);
void lesson_course_destroy(lesson_course *c);
/* Index of the lesson with this id, or -1. */
int lesson_course_find(const lesson_course *c, const char *id);
/* Up to max lesson indices whose ids are close to id (edit distance or
 * shared prefix), closest first; returns how many. */
int lesson_course_suggest(const lesson_course *c, const char *id, int *out, int max);
/* Where `collviz` alone resumes: the lesson in progress at its saved beat
 * (clamped), else the first lesson not yet done, else the first. Returns
 * the lesson index and sets *beat, or -1 when the course is empty. */
struct lesson_progress;
int lesson_course_resume(const lesson_course *c, const struct lesson_progress *p, int *beat);
/* The language to teach in: the one saved in progress, else Chinese when
 * the locale (LC_ALL, LC_MESSAGES, LANG) says zh, else English. */
lesson_lang lesson_default_lang(const struct lesson_progress *p);
/* Where the course is: the directory $COLLVIZ_LESSONS_DIR or
 * $COLLVIZ_LESSONS names (no fallback when it is not a directory), else
 * lessons/ next to the executable (a build tree, an unpacked copy), else
 * PREFIX/share/collviz/lessons for an installed one (cli_data_dir). False,
 * with why, when none exists. */
bool lesson_find_dir(char *out, size_t outlen, char *why, size_t whylen);

/* ------------------------------------------------------------ quiz checks */

typedef struct {
    bool correct;
    /* What to show: the picked choice's "why" when it has one, otherwise the
     * quiz's explain (may be absent for a right choice). */
    const lesson_text *why;
    double expected; /* number: the right value */
    int missing;     /* predict-cells: written cells not picked */
    int extra;       /* predict-cells: picked cells not written */
} lesson_verdict;

/* picked: choice index (choice) or option index (predict-value). */
bool lesson_check_choice(const lesson_quiz *q, int picked, lesson_verdict *v);

/* The order a choice or predict-value quiz shows its answers in: order[k]
 * is the index in the file of the k-th shown (a, b, c or 1, 2, 3). A
 * shuffle fixed by the quiz's key, so the window, the terminal and the
 * drill always show the same order, and the right answer lands anywhere
 * however the file lists it. Returns the count (0 for other kinds). */
#define LESSON_MAX_SHOWN 6
int lesson_quiz_order(const lesson_quiz *q, int order[LESSON_MAX_SHOWN]);
/* The shown position (0-based) of the file's answer i, or -1. */
int lesson_quiz_shown(const lesson_quiz *q, int i);
bool lesson_check_number(const lesson_quiz *q, double value, lesson_verdict *v);
/* Duplicate picks count once. */
bool lesson_check_cells(const lesson_quiz *q, const lesson_cell *picked, int npicked,
                        lesson_verdict *v);
/* Any kind from a line a learner typed in the terminal: a choice by letter
 * (a, b, ...) or number (1, 2, ...), a number with an optional unit, cells as
 * "RANK BUF INDEX[-LAST]" separated by commas ("1 recv 0-3, 2 recv 1").
 * Returns false (and a hint in err) when the line cannot be read. */
bool lesson_check_typed(const lesson_quiz *q, const char *line, lesson_verdict *v, char *err,
                        size_t errlen);
/* Is this cell part of the answer of a predict-cells quiz? */
bool lesson_cells_contain(const lesson_chunk *cells, int ncells, const lesson_cell *cell);

/* ----------------------------------------------------- terminal and GUI */

/* How the window looks, from `collviz lesson`'s flags: NULL or 0 keeps
 * the default (the saved theme, a window that fits the screen). */
typedef struct {
    const char *theme; /* dark, light or projector */
    int width, height; /* both > 0: this size */
    bool fullscreen;
    const char *shots; /* where S saves screenshots */
    long frames;       /* > 0: quit after this many frames */
} lesson_window;

/* Opens the window on lesson course->lessons[lesson_index] at beat
 * (0-based) in lang, as win asks (NULL: the defaults). Returns an
 * CLI_EXIT_* code; CLI_EXIT_UNAVAIL when no window can be opened, in which
 * case `collviz lesson` falls back to the text player. The window's library
 * provides one (gui_open_lesson); the course never links the window. */
typedef int (*lesson_window_fn)(const lesson_course *course, int lesson_index, int beat,
                                lesson_lang lang, const lesson_window *win);

/* The text player: prints beats from `beat` on, with the stage's buffers at
 * each beat's step; asks quizzes on in when interactive (reading answers
 * from in), otherwise prints each quiz with its answer. Returns CLI_EXIT_*. */
typedef struct {
    lesson_lang lang;
    bool interactive;
    bool show_state; /* print the buffers at each beat */
    /* Optional: told as the learner moves on (progress keeping). on_quiz
     * gets the first attempt's result; on_finish runs after the last beat. */
    void (*on_beat)(void *user, int beat);
    void (*on_quiz)(void *user, const lesson_quiz *q, bool correct);
    void (*on_finish)(void *user);
    void *user;
} lesson_play_opts;
void lesson_play_opts_init(lesson_play_opts *opts);
int lesson_play_text(const lesson *l, int beat, const lesson_play_opts *opts, FILE *in,
                     FILE *out);

/* Prints the stage at a beat (every rank's send and recv values) for the
 * terminal; used by the text player and the drill. */
void lesson_print_state(const lesson *l, int beat, FILE *out);

/* Prints a quiz's prompt and what can be answered (choices lettered,
 * options, the unit, how to type cells). */
void lesson_print_quiz(const lesson_quiz *q, lesson_lang lang, FILE *out);
/* Prints the right answer, the explanation and the standard-answer card. */
void lesson_print_answer(const lesson_quiz *q, lesson_lang lang, FILE *out);
/* Asks a quiz on in/out: up to two tries, then the answer; the card last.
 * Returns 1 if the first try was right, 0 if not, -1 when in ended or the
 * learner typed q (quit). */
int lesson_ask_quiz(const lesson_quiz *q, lesson_lang lang, FILE *in, FILE *out);

#ifdef __cplusplus
}
#endif

/* Writes the cost model's answers computed so far in this process (a
 * loaded course's figures and quizzes) to path, for COLLVIZ_MODEL_CACHE
 * (lesson_model.c); how many, or -1 with err. */
int lesson_model_cache_write(const char *path, char *err, size_t errlen);

#endif /* LESSON_H */

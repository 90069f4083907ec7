/*
 * render.h: collviz's renderer (prefix rd_): trace + time + view -> pixels.
 *
 * The renderer reads a visual trace through cv_state and draws one frame of
 * it onto any SDL_Renderer: a window's, or a software renderer on an
 * SDL_Surface for PNG/GIF export, golden-image tests and the benchmark.  It
 * never runs a backend and never plans; the app layer re-plans and hands it
 * new traces.  Time t runs from 0 to the plan's step count: floor(t) is the
 * step in progress, the fraction places the chunks in flight, so stepping
 * back is just drawing a smaller t.
 *
 * Pieces: the shipped fonts (fontconfig for what they lack) and strings
 * cached as textures (rd_text), three themes whose palettes are data, an
 * English/Chinese string table, the keymap, a layout function that tests
 * can check for overlaps, the frame drawer with a hit test for the mouse,
 * and PNG/GIF writers.
 */
#ifndef RD_RENDER_H
#define RD_RENDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <SDL.h>

#include "cv.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Fraction of a step at which the chunks in flight land and the
 * destination cells change; the rest of the step shows what landed. */
#define RD_ARRIVE 0.55

/* ---------------------------------------------------------------- themes */

typedef enum { RD_THEME_DARK, RD_THEME_LIGHT, RD_THEME_PROJECTOR, RD_THEME_COUNT } rd_theme_id;

/* Rank colours picked by hand; past them, hues step by the golden angle. */
#define RD_RANK_COLORS 20
/* A chart's lines: busbw, algbw, model (rd_series in rd_chart.h). */
#define RD_THEME_SERIES 3

/* A theme's palette. The built-in ones (rd_theme.c) are replaced by
 * assets/themes/NAME.json where those files exist, and every other such
 * file is a theme of its own, numbered after them (rd_themes_load). */
typedef struct {
    const char *name;
    SDL_Color bg, panel, card, edge, text, dim, accent, link, empty, flash, warn, band_a, band_b;
    float text_scale; /* projector: 1.5 */
    float line;       /* line thickness in UI units */
    int nranks;       /* 1 to RD_RANK_COLORS */
    SDL_Color ranks[RD_RANK_COLORS];
    SDL_Color series[RD_THEME_SERIES];
} rd_theme;

const rd_theme *rd_theme_get(rd_theme_id id);
int rd_theme_parse(const char *s); /* -1 when unknown */
int rd_theme_count(void); /* the built-in themes and the files' own: ids 0 to count - 1 */
/* Reads ASSETS/themes/NAME.json, each a complete theme (the format:
 * assets/README.md): dark, light and projector replace the built-in
 * palettes, any other NAME is added. A missing file leaves its theme built
 * in; so does a bad one (a file's own theme is left out), and then err
 * says "FILE:LINE:COLUMN: what is wrong" for the first bad file and
 * CV_EINVAL is returned. assets NULL: back to the built-in themes alone.
 * Call it before drawing, from one thread. */
int rd_themes_load(const char *assets, char *err, size_t errlen);
/* One palette file over theme id as it is now, all or nothing: members it
 * leaves out keep their values (a file of assets/themes must give all). */
int rd_theme_load_file(rd_theme_id id, const char *path, char *err, size_t errlen);
/* One colour per rank, distinct for neighbours; stable for a given rank. */
SDL_Color rd_theme_rank_color(const rd_theme *th, int rank);
/* The same from the dark theme's palette, where no theme is at hand. */
SDL_Color rd_rank_color(int rank);
/* The chunk letter convention of the source notes: chunk 0 is "a", 1 "b"
 * ...; digits after it name the ranks whose data it holds ("a0+a1").
 * Beyond z and Z (chunk 52 on, at 53 ranks and more) a number: "#63". */
void rd_chunk_name(int chunk, char *out, size_t outlen);
/* The same as a label starts, before the rank numbers: a numbered chunk
 * gets a colon so that its digits never run into the ranks' ("#63:0+63",
 * not "#630+63"). */
void rd_chunk_prefix(int chunk, char *out, size_t outlen);

/* The label of element i of a rank's buffer holding the inputs of mask:
 * its chunk's letter and the ranks, "b0+1", "c0-3", "c14-15+0-1", "#63:0+63"; scratch
 * (no letter) "{1,2}" as "{1+2}". "" when nothing was written. */
void rd_chunk_label(const cv_spec *spec, cv_buf b, int rank, int64_t i, uint64_t mask, char *out,
                     size_t outlen);
/* The elements [first, first + count) of the chunk element e of a rank's
 * buffer belongs to (the buffer's elements of the same chunk letter). */
void rd_chunk_range(const cv_spec *spec, cv_buf b, int rank, int64_t e, int64_t *first,
                    int64_t *count);
/* The state a frame at time t shows (the steps done: k, or k + 1 once
 * step k's chunks have landed), the step in progress and its fraction. */
int rd_shown_step(const cv_plan *plan, double t, int *step, double *frac);
/* The step a frame at time t talks about: the step in flight, or, when t
 * is a whole number k > 0 (paused on a state), step k-1, the one that
 * produced it; *after says which. */
int rd_ref_step(int nsteps, double t, bool *after);

/* ----------------------------------------------------------------- text */

typedef struct {
    char path[1024]; /* "" = none */
    int index;       /* the face within a collection (.ttc) */
} rd_font_file;
typedef struct {
    rd_font_file latin; /* required */
    rd_font_file cjk;   /* path "" when there is no CJK face */
    rd_font_file mono;  /* monospace for code; path "" = the Latin face */
} rd_font_paths;
/* Or'ed into a text size (px | RD_TEXT_MONO): the monospace face, for code
 * and formulas. Text with CJK characters keeps the CJK font. */
#define RD_TEXT_MONO 0x10000

/* The faces collviz ships in ASSETS/fonts (DejaVu Sans, DejaVu Sans Mono,
 * WenQuanYi Micro Hei cut down to GB2312), so text looks the same on every
 * machine; for one the assets lack (assets NULL, or a file missing),
 * fontconfig's DejaVu Sans or another installed Latin sans, WenQuanYi Micro
 * Hei or Noto Sans CJK, DejaVu Sans Mono. COLLVIZ_FONT and COLLVIZ_FONT_CJK
 * override the Latin and CJK faces (an unreadable COLLVIZ_FONT_CJK: no CJK
 * face). CV_EUNAVAIL with a one-line message naming the Debian package when
 * there is no Latin face. A character none of the faces has is looked up
 * through fontconfig when it is drawn (rd_font.c). */
int rd_fonts_find(const char *assets, rd_font_paths *out, char *err, size_t errlen);

typedef struct rd_text rd_text;
rd_text *rd_text_create(SDL_Renderer *r, const rd_font_paths *fonts, char *err, size_t errlen);
void rd_text_destroy(rd_text *t); /* accepts NULL */
bool rd_text_has_cjk(const rd_text *t);
/* Characters drawn so far that no face has (drawn as boxes): how many
 * distinct ones, and the first in *first (when not NULL and any). */
int rd_text_missing(const rd_text *t, uint32_t *first);
/* Size in pixels of s at pixel size px (no truncation). */
void rd_text_measure(rd_text *t, const char *s, int px, int *w, int *h);
/* Draws s with its top-left corner at (x, y), cut with an ellipsis to
 * max_w pixels when max_w > 0. Returns the rectangle it covered. Rendered
 * strings are cached as textures (LRU keyed by string, size, colour and
 * width limit). */
SDL_Rect rd_text_draw(rd_text *t, const char *s, int px, SDL_Color c, int x, int y, int max_w);
/* Draws s inside box: vertically centred, aligned left, centred or right
 * (RD_ALIGN_*), cut with an ellipsis to the box's width, or, with
 * RD_ALIGN_FIT, not drawn at all when it does not fit (numbers must never be
 * cut). Returns the rectangle covered (w == 0 when nothing was drawn). */
enum { RD_ALIGN_LEFT = 0, RD_ALIGN_CENTER = 1, RD_ALIGN_RIGHT = 2, RD_ALIGN_FIT = 4 };
SDL_Rect rd_text_draw_in(rd_text *t, const char *s, int px, SDL_Color c, SDL_Rect box, int align);
/* Splits s into lines of at most max_w pixels (words for Latin text, any
 * character for CJK). Writes up to maxlines NUL-terminated lines into
 * buf (each at most linelen bytes); returns the line count. */
int rd_text_wrap(rd_text *t, const char *s, int px, int max_w, char *buf, int maxlines,
                 int linelen);
/* The font file s is drawn with at px: the face its characters chose. */
const char *rd_text_font(rd_text *t, const char *s, int px);
/* Drops every cached texture (after SDL_RENDER_TARGETS_RESET). */
void rd_text_flush(rd_text *t);

/* -------------------------------------------------------------- strings */

typedef enum {
    RD_S_STEP_OF, RD_S_PHASE, RD_S_RANKS, RD_S_BACKEND, RD_S_BUSIEST, RD_S_TOTAL, RD_S_MEASURED,
    RD_S_MODEL, RD_S_IN, RD_S_OUT, RD_S_TMP, RD_S_UNUSED, RD_S_GPU, RD_S_ROOT, RD_S_SWITCH, RD_S_PLAYING,
    RD_S_PAUSED, RD_S_SPEED, RD_S_LEGEND_COLOUR, RD_S_LEGEND_CHUNK, RD_S_AGGREGATED,
    RD_S_VALUE, RD_S_FROM, RD_S_LAST_CHANGED, RD_S_INITIAL, RD_S_NEVER, RD_S_HELP_TITLE,
    RD_S_HELP_CLOSE, RD_S_JUST_HAPPENED, RD_S_NEXT, RD_S_STEPS, RD_S_BYTES_PER_RANK, RD_S_START, RD_S_DONE,
    RD_S_NO_TRACE, RD_S_NO_CJK, RD_S_LOCAL, RD_S_LEGEND_BLOCK, RD_S_LEGEND_DOT,
    RD_S_LENS, RD_S_NODES_OF, RD_S_NODE, RD_S_LEGEND_NET, RD_S_RANK1, RD_S_IN_FLIGHT,
    RD_S_LEGEND_GATHERED, RD_S_VALUES, RD_S_LEGEND_NUMBERED, RD_S_RESULT, RD_S_TL_COMPUTE,
    RD_S_TL_HIDDEN, RD_S_TL_EXPOSED, RD_S_TL_BUBBLE, RD_S_TL_SLOTS, RD_S_LEGEND_LL,
    RD_S_LEGEND_LL128, RD_S_NODE_SWITCH, RD_S_TREE_ROOT, RD_S_XOR, RD_S_DISTANCE, RD_S_SHIFT, RD_S_ROUND_OF, RD_S_ELEMS, RD_S_COUNT_
} rd_string;
const char *rd_str(cv_lang lang, rd_string id);
/* The strings with numbers in them (STEP_OF: a of b; GPU,
 * AGGREGATED, LAST_CHANGED: a; TREE_ROOT: tree a, its root b; XOR:
 * partner = r XOR a; DISTANCE: a round's distance a; SHIFT: to the rank
 * a ahead (a < 0: behind); ROUND_OF: round a of b; ELEMS: a elements). */
void rd_strf(cv_lang lang, rd_string id, char *out, size_t outlen, long long a, long long b);
/* A plan step's phase name (cv_step.phase) in lang, into out; false where
 * a part of it has no translation (it is copied as it is). */
bool rd_phase_text(cv_lang lang, const char *phase, char *out, size_t outlen);

/* Compare mode's closing sentence (rd_verdict.c): which of plans a and b
 * finishes first in the model (link inside a node; inter between nodes,
 * used where the spec has them), by how much, and why, in the model's own
 * terms (alpha per step against bytes over bandwidth). "" on bad input. */
void rd_compare_verdict(const cv_plan *a, const cv_plan *b, const cv_link *link,
                        const cv_link *inter, cv_lang lang, char *out, size_t outlen);

/* ------------------------------------------------------------------ keys */

/* What a key or a button does. The renderer draws the buttons and the
 * help from the keymap below; the app maps key presses and clicks onto
 * these and decides what they mean where it is (the stage, a lesson, the
 * lesson menu). */
/* A table drawn over the window (the reference card): a title, a line
 * under it, a header row and rows of cells, a legend at the foot. Rows
 * that start a group (a new collective) get a rule above them. The text
 * shrinks until the table fits; nothing is cut. */
typedef struct {
    const char *title, *caption, *legend, *close;
    int ncols, nrows;
    const char *const *header; /* ncols */
    const char *const *cells;  /* nrows x ncols, row by row; "" where empty */
    const bool *group_start;   /* nrows, or NULL */
} rd_table;

typedef enum {
    RD_ACT_NONE, RD_ACT_HOME, RD_ACT_BACK, RD_ACT_PLAY, RD_ACT_FORWARD, RD_ACT_END,
    RD_ACT_SLOWER, RD_ACT_FASTER, RD_ACT_OP, RD_ACT_ALGO, RD_ACT_RANKS, RD_ACT_COUNT,
    RD_ACT_DTYPE, RD_ACT_REDOP, RD_ACT_BACKEND, RD_ACT_COMPARE, RD_ACT_THEME, RD_ACT_LANG,
    RD_ACT_SHOT, RD_ACT_HELP, RD_ACT_QUIT,
    RD_ACT_ALGO2,      /* compare mode: the second algorithm */
    RD_ACT_PANEL,      /* show or hide the narration panel */
    RD_ACT_FULLSCREEN,
    RD_ACT_CLOSE,      /* Esc: closes what is open over the stage */
    RD_ACT_SCROLL_UP, RD_ACT_SCROLL_DOWN,
    RD_ACT_CHANNEL,    /* a stage set up from an NCCL log: its next channel */
    RD_ACT_CARD,       /* the reference card (F3) */
    RD_ACT_REPLAY,     /* play the last step again */
    RD_ACT_POINTER,    /* a large ring at the mouse for a class to follow */
    RD_ACT_INPUTS,     /* the next pattern of input values */
    RD_ACT_EDIT,       /* edit a send buffer's value (the selected cell) */
    /* lessons */
    RD_ACT_PAGE_PREV, RD_ACT_MENU, RD_ACT_PAGE_NEXT, RD_ACT_ANSWER, RD_ACT_CHECK,
    RD_ACT_COUNT_
} rd_action;

/* Modifiers a key needs: none (Shift up), Shift, or either. Keys held with
 * Ctrl, Alt or the system key do nothing. */
enum { RD_MOD_NONE, RD_MOD_SHIFT, RD_MOD_ANY };
/* Where a key works, and where its button is drawn. */
enum { RD_KEYS_STAGE = 1, RD_KEYS_LESSON = 2 };
enum { RD_BUTTON_NONE, RD_BUTTON_BAR, RD_BUTTON_NAV /* a lesson's row under its text */ };

/* One row of the keymap: the single table that input handling, the help
 * overlay, the button bar and a lesson's keys all read (rd_keys.c). A new
 * binding is one more row: it works at once and shows in the help. */
typedef struct {
    SDL_Keycode key;  /* SDLK_UNKNOWN: a help line with no key (the mouse) */
    int mod;          /* RD_MOD_* */
    rd_action action;
    int arg;          /* cycling: -1 goes backwards; RD_ACT_ANSWER: the answer, 0-based */
    const char *name; /* the key as the help shows it; NULL: not named there */
    const char *label[CV_LANG_COUNT]; /* the button's words */
    const char *help[CV_LANG_COUNT];  /* NULL: another key for the line above */
    int where;        /* RD_KEYS_* */
    int button;       /* RD_BUTTON_* */
} rd_key;

/* The whole table; returns its length. */
int rd_keymap(const rd_key **out);
/* The row a key press means (lesson: lesson keys count too), or NULL. */
const rd_key *rd_key_find(SDL_Keycode key, Uint16 mod, bool lesson);
/* The action's first row (its key name, label and help), or NULL. */
const rd_key *rd_key_of(rd_action a);
/* A button's words: its label, "pause" for a playing play button. */
const char *rd_button_label(rd_action a, cv_lang lang, bool playing);

/* ----------------------------------------------------------------- frame */

/* A small box-and-arrow diagram for the narration panel (lessons): boxes
 * on a grid of cols x rows cells, as docs/LESSONS.md defines them. */
#define RD_DIAGRAM_MAX_BOXES 32
#define RD_DIAGRAM_MAX_ARROWS 64
typedef enum { RD_BOX_COMPUTE, RD_BOX_DATA, RD_BOX_COMM, RD_BOX_DEVICE } rd_box_kind;
typedef struct {
    int x, y, w, h; /* grid cells */
    int kind;       /* rd_box_kind: comm in the accent, device as a frame behind */
    char label[64];
} rd_diagram_box;
typedef struct {
    int from, to; /* box indices */
    char label[48];
} rd_diagram_arrow;
typedef struct {
    int cols, rows;
    int nboxes, narrows;
    rd_diagram_box boxes[RD_DIAGRAM_MAX_BOXES];
    rd_diagram_arrow arrows[RD_DIAGRAM_MAX_ARROWS];
} rd_diagram;

/* A step timeline for the narration panel or beside the stage (lessons):
 * lanes (streams, or pipeline stages) of blocks over one step, in unit
 * ("s", "ms", "us", or "slot": the axis counts slots), as docs/LESSONS.md
 * defines them. A comm block is hidden
 * where a compute block (of any lane) runs beside it and exposed where
 * none does; the renderer shows which. */
#define RD_STEPTL_MAX_LANES 8
#define RD_STEPTL_MAX_BLOCKS 64
#define RD_STEPTL_MAX_MARKERS 4
typedef enum { RD_SPAN_COMPUTE, RD_SPAN_COMM, RD_SPAN_BUBBLE } rd_span_kind;
typedef struct {
    int lane;           /* index into lanes */
    int kind;           /* rd_span_kind */
    double start, dur;  /* in the timeline's unit */
    char label[32];
} rd_steptl_block;
typedef struct {
    double at;
    char label[32];
} rd_steptl_marker;
typedef struct {
    char unit[8];
    int nlanes, nblocks, nmarkers;
    char lanes[RD_STEPTL_MAX_LANES][32];
    rd_steptl_block blocks[RD_STEPTL_MAX_BLOCKS];
    rd_steptl_marker markers[RD_STEPTL_MAX_MARKERS];
} rd_steptl;

/* Where a step timeline's parts go in area (rd_steptl_place): a column
 * of lane names label_w wide, the lanes, the time axis under them and the
 * legend at the bottom; time t is at x = plot.x + (t - t0) * plot.w /
 * (t1 - t0). */
#define RD_STEPTL_MAX_TICKS 12
typedef struct {
    SDL_Rect names;                        /* the lane names' column */
    SDL_Rect plot;                         /* the lanes, where the blocks go */
    SDL_Rect lane[RD_STEPTL_MAX_LANES];    /* each lane's row, across the plot */
    SDL_Rect block[RD_STEPTL_MAX_BLOCKS];  /* each block; w >= 1 */
    SDL_Rect axis;                         /* the tick labels' row */
    SDL_Rect legend;
    double t0, t1;
    int nticks;
    double tick[RD_STEPTL_MAX_TICKS];
} rd_steptl_geom;
void rd_steptl_place(const rd_steptl *d, SDL_Rect area, int label_w, int px,
                     rd_steptl_geom *g);
/* x of time t in the plot. */
int rd_steptl_x(const rd_steptl_geom *g, double t);
/* Block b's exposed time: the part of a comm block no compute block
 * covers (0 for compute and bubbles). The exposed pieces go to seg[][2]
 * (start, end), at most maxseg of them, their count to *nseg (either may
 * be NULL/0). */
double rd_steptl_exposed(const rd_steptl *d, int b, double (*seg)[2], int maxseg, int *nseg);

/* Clickable answers under the narration (quizzes). */
#define RD_MAX_CHOICES 6
typedef enum { RD_CHOICE_PLAIN, RD_CHOICE_PICKED, RD_CHOICE_RIGHT, RD_CHOICE_WRONG } rd_choice_state;
/* Navigation buttons in a row at the bottom of the narration (lessons). */
#define RD_MAX_NAV 4
/* Wrapped lines of the narration panel, as laid out. */
#define RD_NARR_LINES 256

typedef struct {
    const char *title; /* may be NULL */
    const char *body;  /* paragraphs separated by '\n'; may be NULL */
    const char *just;  /* the step that made the state shown, in words; may be NULL */
    const char *next;  /* the step that comes next; may be NULL */
    bool flying;       /* just is the step in flight: headed "In flight", not "Just happened" */
    bool result;       /* next is compare mode's verdict: headed "Result", not "Next" */
    const rd_diagram *diagram; /* may be NULL */
    const rd_steptl *steptl;   /* a step timeline; may be NULL */
    double steptl_t;           /* its cursor, 0..1 of its length; < 0: none */
    int nchoices;
    const char *choices[RD_MAX_CHOICES]; /* wrapped onto up to 5 lines each */
    int choice_state[RD_MAX_CHOICES];
    const char *footer; /* a hint line at the bottom ("N: next"), may be NULL */
    /* Lessons; all optional (NULL / 0 leave the panel as above). Text in
     * `backticks` is drawn in the monospace face and the accent colour,
     * without the backticks. */
    const char *kicker;     /* a small line above the title: track, beat k of n */
    const char *prompt;     /* a quiz question, set apart under the body */
    const char *feedback;   /* the verdict and why, under the prompt */
    int feedback_state;     /* rd_choice_state: RIGHT and WRONG colour its bar */
    const char *input;      /* a typed-answer field when not NULL ("" = empty) */
    const char *input_unit; /* written after the field; may be NULL */
    bool nav;               /* the lesson's navigation buttons (the keymap's RD_BUTTON_NAV rows) */
    int scroll;             /* text lines scrolled off the top; clamped when drawn */
} rd_narration;

/* One algorithm on the stage; compare mode shows two side by side. */
typedef struct {
    const cv_trace *trace; /* visual trace, or NULL (message shown instead) */
    cv_state *state;       /* the caller's cv_state for trace; the renderer seeks it */
    cv_state *before;      /* a second one (may be NULL): the state before a landing step,
                            * for its arithmetic */
    const cv_link *link;   /* for model times; NULL = nvlink4, as `collviz cost` */
    const cv_link *inter;  /* between nodes, for a plan whose spec has nodes (the
                            * two-level model); NULL = link everywhere */
    const char *backend;   /* name shown in the header */
    double t;              /* this panel's time in its steps; < 0: the frame's t (compare
                            * mode runs both panels on one model-time axis) */
    const char *widest;    /* the widest value the trace ever holds, as shown
                            * (rd_trace_widest); cells are sized for it. NULL:
                            * guessed from the inputs and the results */
} rd_panel;

/* A region of a buffer: count elements from first (highlights, picks). */
typedef struct {
    int rank;
    cv_buf buf;
    int64_t first, count;
} rd_region;

#define RD_MAX_REGIONS 64
#define RD_MAX_HL_LINKS 64

#define RD_MAX_NODE_HOSTS 64
typedef struct {
    rd_theme_id theme;
    cv_lang lang;
    float dpi_scale;    /* output pixels per window unit (HiDPI), 1 for surfaces */
    int npanels;        /* 1, or 2 in compare mode */
    rd_panel panels[2];
    double t;           /* 0 .. max nsteps: the timeline's position */
    double speed;       /* shown in the header */
    bool playing;
    bool landed;        /* paused right after playing a step: keep showing what it did */
    bool help;          /* help overlay */
    const rd_table *card; /* the reference card over everything (F3), or NULL */
    bool pointer;       /* a large ring at the mouse (X), for a projector */
    bool narration;     /* right-hand narration panel */
    bool controls;      /* button bar and timeline (off for clean export) */
    int mouse_x, mouse_y; /* output pixels; -1 when outside */
    int focus;          /* the rank the lens shows (a card clicked); -1: the root, or 0 */
    const char *message;  /* a banner (error or notice), or NULL */
    bool hide_measured;   /* golden images: measured times vary run to run */
    /* Lesson mode: a wider narration panel (shown in smaller windows too)
     * and the diagram beside the stage instead of inside the panel. */
    bool lesson;
    /* Emphasis (panel 0): ranks (bit r), buffer regions, links src -> dst;
     * picks are cells the learner clicked (drawn with a check frame). */
    uint64_t hl_ranks;
    int nhl_regions, npicks, nhl_links;
    rd_region hl_regions[RD_MAX_REGIONS];
    rd_region picks[RD_MAX_REGIONS];
    int nwrong;         /* picks a checked answer got wrong: marked in the warning colour */
    rd_region wrong[RD_MAX_REGIONS];
    int hl_links[RD_MAX_HL_LINKS][2];
    rd_narration narr;
    /* The host of each node where an NCCL log named them (NULL or "":
     * none); the legend says "node 0 (host-a)". */
    const char *node_host[RD_MAX_NODE_HOSTS];
} rd_frame;

void rd_frame_init(rd_frame *f);

/* ---------------------------------------------------------------- layout */

#define RD_LAYOUT_MAX_RANKS CV_MAX_VISUAL_RANKS
/* Cards a panel can have: the ranks', then an in-network plan's switches
 * (the network's one, or one a node). */
#define RD_LAYOUT_MAX_PARTS (2 * RD_LAYOUT_MAX_RANKS)
/* Where the lens's card is kept, after the ranks' and the switches'. */
#define RD_LENS_CARD RD_LAYOUT_MAX_PARTS

typedef enum {
    RD_SHAPE_SINGLE,
    RD_SHAPE_CIRCLE, /* around an ellipse */
    RD_SHAPE_LEVELS, /* a tree's levels */
    RD_SHAPE_GRID,   /* rows of cards in rank order */
    RD_SHAPE_LOOP,   /* a ring folded into rows: every link between neighbouring cards */
    RD_SHAPE_ROWS    /* rows in rank order with lanes between them: links that skip
                      * cards go round them (a double tree's, a hypercube's pairs) */
} rd_shape;

/* How a row of a card shows its buffer. CELLS: one cell per element with
 * its value (and its label where there is room), wrapped onto lines.
 * CHUNKS: one block per chunk of the op's partition, with its label and as
 * many of its values as fit, where single cells could not each be legible.
 * STRIPES: too small for text even then: cells stand for `group` elements
 * and show their stripes only (the legend says so; hover reads them). */
typedef enum { RD_ROW_CELLS, RD_ROW_CHUNKS, RD_ROW_STRIPES } rd_row_mode;

typedef struct {
    SDL_Rect card;                /* the GPU card */
    SDL_Rect title;               /* "GPU 3" line */
    SDL_Rect label[CV_BUF_COUNT]; /* row labels ("send", "recv") */
    SDL_Rect row[CV_BUF_COUNT];   /* the cells' area; w == 0 when not drawn */
    int cells[CV_BUF_COUNT];      /* drawn cells in the row */
    int per_line[CV_BUF_COUNT];   /* cells on one line; the row wraps onto more */
    int64_t group[CV_BUF_COUNT];  /* elements per drawn cell (>= 1) */
    int64_t part[CV_BUF_COUNT];   /* > 0: cell j holds chunk j of a count `part`
                                   * split over `cells` chunks as the op splits
                                   * it (rd_cell_span), instead of `group` */
    int64_t count[CV_BUF_COUNT];  /* elements in the buffer */
    unsigned char mode[CV_BUF_COUNT]; /* rd_row_mode */
} rd_card_layout;

/* A drawn cell's place, and the elements it holds; the cell an element is
 * drawn in. */
SDL_Rect rd_cell_rect(const rd_card_layout *cl, int b, int j);
void rd_cell_span(const rd_card_layout *cl, int b, int j, int64_t *first, int64_t *count);
int rd_cell_of(const rd_card_layout *cl, int b, int64_t e);

typedef struct {
    SDL_Rect area;    /* this panel's part of the stage */
    SDL_Rect caption; /* compare mode: algo and its numbers */
    SDL_Rect legend;
    rd_shape shape;
    int nranks;
    int nparts;       /* cards: the ranks, then an in-network plan's switches */
    int nrows;        /* buffer rows per card */
    int cell_px;      /* text size inside cards: titles, values */
    int label_px;     /* chunk labels under values; 0 when cells have no room for them */
    /* Where the cards cannot each show every value legibly: one rank's
     * card again, large enough to read, beside them (the lens).
     * cards[RD_LENS_CARD] is its card; lens.w == 0 when there is none. */
    SDL_Rect lens;
    int lens_rank;
    int lens_px, lens_label_px;
    rd_card_layout cards[RD_LENS_CARD + 1]; /* ranks, switches, ..., the lens */
    /* Bit d of under[s]: the link from s to d, where it cannot run
     * straight, goes round below the cards (else above): a double tree's
     * second tree, the way back of a hypercube's pairs. */
    uint64_t under[RD_LAYOUT_MAX_PARTS];
    /* A double binary tree's two trees drawn as trees above the cards
     * (ntrees 2; 0: none): tree t's box, its title on its first line
     * (tree_title), rank r's node in it (tree_node[t][r], rank number
     * inside), r's parent in it (tree_up[t][r], -1 at the root; an edge
     * joins each node to its parent's), and the edges the shown step
     * uses (bit r of tree_lit[t]: the edge from r to its parent). */
    int ntrees;
    int tree_px;      /* the rank numbers' size in the nodes */
    SDL_Rect tree[2], tree_title[2];
    SDL_Rect tree_node[2][RD_LAYOUT_MAX_RANKS];
    signed char tree_up[2][RD_LAYOUT_MAX_RANKS];
    uint64_t tree_lit[2];
    /* A hypercube's round (recursive doubling and halving, Rabenseifner,
     * Bruck, PAT) in a strip above the cards (rounds.w == 0: none; its
     * height the same at every step): the shown step's rule on its first
     * line (round_text, "round 2 of 3: partner = r XOR 2 · distance 2 ·
     * 4 elements"; empty in a step between ranks' rounds), then a chip for
     * each pair the round joins (pair[i] = {src, dst}; pair_both: the two
     * exchange). The rule: partner = r XOR round_xor (> 0), else every
     * rank sends to r + round_shift (mod ranks; 0: no one rule). */
    SDL_Rect rounds, round_line;
    char round_text[192];
    int round_px, round_xor, round_shift, npairs;
    SDL_Rect pair_box[RD_LAYOUT_MAX_RANKS];
    unsigned char pair[RD_LAYOUT_MAX_RANKS][2];
    bool pair_both[RD_LAYOUT_MAX_RANKS];
} rd_panel_layout;

/* What a line of the narration panel is: it picks the line's colour. */
typedef enum {
    RD_LINE_KICKER, RD_LINE_TITLE, RD_LINE_BODY, RD_LINE_PROMPT, RD_LINE_FEEDBACK,
    RD_LINE_HEAD, RD_LINE_STEP, RD_LINE_MORE, RD_LINE_CHOICE, RD_LINE_NUMBER, RD_LINE_NAV,
    RD_LINE_FOOTER, RD_LINE_INPUT, RD_LINE_UNIT
} rd_line_role;

/* One line of the narration panel where it is drawn. Text in `backticks`
 * is drawn in the monospace face; code says the line starts inside such a
 * span. bar: a coloured bar at the text column's left (1 accent, 2 right,
 * 3 wrong, 4 dim); rule_y > 0: a thin rule across the column at that y. */
typedef struct {
    char text[256];
    SDL_Rect box;
    int px;
    int rule_y;
    unsigned char role, bar, align; /* rd_line_role, bar, RD_ALIGN_* */
    bool code;
} rd_line;

typedef struct {
    int w, h;       /* output pixels */
    float ui;       /* UI scale: dpi scale x window size factor x theme */
    int px_small, px_text, px_big; /* text sizes */
    int nsteps;     /* the timeline's length: the longest plan's steps */
    SDL_Rect header;
    SDL_Rect stage;
    SDL_Rect narration; /* w == 0 when hidden */
    SDL_Rect buttons;   /* w == 0 when hidden */
    SDL_Rect button[RD_ACT_COUNT_]; /* bar buttons by action; w == 0: none */
    SDL_Rect timeline;  /* w == 0 when hidden */
    SDL_Rect lane_names; /* compare mode: each timeline lane's algorithm, left of it; w == 0: none */
    SDL_Rect message;
    SDL_Rect diagram;   /* lesson mode: the diagram beside the stage; w == 0 when none */
    SDL_Rect steptl;    /* lesson mode: the step timeline under the stage; w == 0 when none */
    /* The narration panel's insides. */
    SDL_Rect choice[RD_MAX_CHOICES]; /* answer buttons; w == 0 when not shown */
    int nnav;
    SDL_Rect nav[RD_MAX_NAV];        /* navigation buttons, and what each does */
    rd_action nav_action[RD_MAX_NAV];
    SDL_Rect input;     /* the typed-answer field */
    SDL_Rect narr_diagram; /* a diagram inside the panel */
    SDL_Rect narr_steptl;  /* a step timeline inside the panel */
    SDL_Rect narr_text; /* the text column */
    int narr_scroll;    /* narration lines scrolled off the top, after clamping */
    int narr_scroll_max; /* 0 when the whole text fits */
    int narr_head_line;  /* the scroll that puts "Just happened" at the top; 0: none */
    int nlines;
    rd_line lines[RD_NARR_LINES];
    int npanels;
    rd_panel_layout panels[2];
} rd_layout;

/* A value as the stage shows it: floats that hold whole numbers without
 * an exponent (12240, not 1.224e+04), others to four digits. */
void rd_value_text(cv_dtype dtype, const void *values, int64_t i, char *out, size_t outlen);
/* The widest value (as shown) any buffer of a visual trace holds at any
 * step, using view (a cv_state of t, left at step 0). */
void rd_trace_widest(const cv_trace *t, cv_state *view, char *out, size_t outlen);

/* Where everything goes for a frame of w x h output pixels, the narration
 * panel's lines and buttons included, measuring text with `text`. Panels
 * with no trace get an empty stage. The drawer draws what this returns and
 * the hit test reads it, so a click is tested against the frame it lands
 * on, not the last one drawn. */
void rd_layout_compute(const rd_frame *f, int w, int h, rd_text *text, rd_layout *out);

/* The route of the link from card s to card d of panel p as drawn, from
 * s's edge to d's edge (both: the link runs both ways, each direction on
 * its own line): a straight line where that crosses no other card, else
 * an arc round the cards between them. Returns its points (at most
 * RD_ROUTE_MAX). A chunk in flight leaves its cells, follows the route
 * and lands in its cells: rd_flight_path gives its whole path (at most
 * RD_ROUTE_MAX + 2 points). rd_route_clear says whether a path stays on
 * the panel and off every card but s and d (the lens's included). */
#define RD_ROUTE_MAX 18
int rd_link_route(const rd_layout *L, int p, int s, int d, bool both, float (*pts)[2]);
int rd_flight_path(const rd_layout *L, int p, const cv_transfer *x, bool both, float (*pts)[2]);
bool rd_route_clear(const rd_layout *L, int p, int s, int d, const float (*pts)[2], int n);

/* ---------------------------------------------------------------- drawer */

typedef struct rd_ctx rd_ctx;
rd_ctx *rd_create(SDL_Renderer *r, const rd_font_paths *fonts, char *err, size_t errlen);
void rd_destroy(rd_ctx *c); /* accepts NULL */
rd_text *rd_ctx_text(rd_ctx *c);
/* Draws one frame onto the whole output of the renderer (not presented). */
void rd_draw(rd_ctx *c, const rd_frame *f);
/* Draws a one-line notice in the middle of the output, on the theme's
 * background (not presented): what the window is busy with before a frame
 * it takes a while to make ("Preparing the stage ..."). */
void rd_draw_notice(rd_ctx *c, rd_theme_id theme, const char *text);
/* The layout of the last frame drawn (overlays drawn after it use it). */
const rd_layout *rd_last_layout(const rd_ctx *c);
/* Forget cached layers (trace freed, render targets reset). */
void rd_invalidate(rd_ctx *c);

/* Every box the last frame drew text into (for the layout tests):
 * kind 0 = text, 1 = card. Enabled by rd_debug_boxes(c, true). */
typedef struct {
    SDL_Rect r;
    int kind;
    int layer; /* 0 = stage, 1 = overlay (help, tooltip): may cover others */
    bool cut;  /* text too wide for its box, drawn cut with an ellipsis */
    char text[64];
} rd_box;
void rd_debug_boxes(rd_ctx *c, bool on);
int rd_boxes(const rd_ctx *c, const rd_box **out);

/* What lies under a point of a laid-out frame. */
typedef enum {
    RD_HIT_NONE, RD_HIT_BUTTON, RD_HIT_TIMELINE, RD_HIT_CELL, RD_HIT_CHOICE,
    RD_HIT_NARRATION, /* elsewhere on the narration panel (wheel scrolls it) */
    RD_HIT_CARD,      /* a card, not on a cell: panel and rank */
    RD_HIT_ROW        /* a row's name: panel, rank, buf, the whole buffer */
} rd_hit_kind;
typedef struct {
    rd_hit_kind kind;
    rd_action action; /* RD_HIT_BUTTON: a bar or navigation button */
    int choice;       /* RD_HIT_CHOICE: the index */
    double t;         /* RD_HIT_TIMELINE: time under the point */
    int panel, rank;  /* RD_HIT_CELL */
    cv_buf buf;
    int64_t first, count; /* elements the cell covers */
    int pick;             /* what a click picks: RD_PICK_* */
} rd_hit;
enum { RD_PICK_CELL, RD_PICK_CHUNK, RD_PICK_ROW };
rd_hit rd_hit_test(const rd_layout *L, int x, int y);

/* ------------------------------------------------------------- images */

/* Reads the renderer's output into a new ARGB8888 surface (NULL on error). */
SDL_Surface *rd_read_pixels(SDL_Renderer *r);
int rd_save_png(SDL_Surface *s, const char *path, char *err, size_t errlen);

/* Animated GIF: one global palette (from the first frame's colours), each
 * frame mapped to its nearest colours. */
typedef struct rd_gif rd_gif;
rd_gif *rd_gif_create(const char *path, int w, int h, char *err, size_t errlen);
int rd_gif_add(rd_gif *g, SDL_Surface *frame, int delay_cs, char *err, size_t errlen);
int rd_gif_destroy(rd_gif *g, char *err, size_t errlen); /* accepts NULL */

#ifdef __cplusplus
}
#endif

#endif /* RD_RENDER_H */

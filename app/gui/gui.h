/*
 * gui.h: the collviz window and its player (prefix gui_).
 *
 * A gui owns the spec, the plan, the visual trace (one, or two in compare
 * mode) and the player state (time t, playing, speed).  Keys and clicks map
 * onto rd_action values; changing op, algorithm, ranks, count, dtype, redop
 * or backend re-plans and re-runs at once through cv_plan_create + cv_run
 * (visual), keeping the time when the new plan still has it.  The renderer
 * (render/render.h) only ever reads the trace.
 *
 * The same object runs headless on a software renderer (tests, export), so
 * every behaviour of the window can be checked without a display.
 *
 * Lessons drive it through the narration and player calls below: set the
 * narration text, highlights, a diagram and answer buttons, and "play to
 * step k and pause"; hooks let a lesson see events and clicks first.
 */
#ifndef GUI_H
#define GUI_H

#include <stdbool.h>

#include "cv.h"
#include "render.h"

typedef struct gui gui;

typedef struct {
    cv_spec spec;              /* checked by the caller */
    const cv_backend *backend; /* NULL = CPU */
    bool compare;              /* start in compare mode */
    cv_algo compare_algo;      /* the second algorithm (same op) */
    cv_init init;
    uint64_t seed;
    rd_theme_id theme;
    cv_lang lang;
    int width, height;         /* window size in window units; 1280 x 800 */
    bool sized;                /* width x height asked for: not shrunk to the display */
    bool fullscreen;
    bool headless;             /* software renderer on a surface, no window */
    bool narration;            /* show the narration panel (default true) */
    const char *link;          /* cost-model link preset name, NULL = default */
    const char *inter_link;    /* the same between nodes, NULL = ib-ndr */
    /* Values the user gave (--input) for inputs_spec's send buffers, used
     * instead of init's while the stage's buffers have that layout (same
     * op, ranks, count, dtype and root); NULL: init's. Borrowed: they must
     * outlive the gui. */
    const void *const *inputs;
    cv_spec inputs_spec;
    /* A replayed trace (--trace): while a side of the stage shows
     * recorded_spec, its measured step times are recorded_seconds (one a
     * step of the plan) and its header names recorded_label ("cuda,
     * recorded on node7") instead of the replaying backend. Borrowed. */
    const double *recorded_seconds;
    const char *recorded_label;
    cv_spec recorded_spec;
} gui_options;

void gui_options_init(gui_options *o);
/* The element count the stage picks for op on ranks when none is given:
 * at least one element per rank's chunk (two on small stages), so every
 * chunk has a value to read and rows stay short enough to read. */
int64_t gui_default_count(cv_op op, int ranks);

/* CV_OK if the stage o sets up (both sides in compare mode) stays within
 * CV_VISUAL_STAGE_BYTES; else CV_ETOOBIG and one line in err saying what
 * would help (for a recorded run: not a smaller count). Asked before a
 * window opens for a trace, so a refusal is one line and exit 2. */
int gui_stage_check(const gui_options *o, char *err, size_t n);

/* Opens the window (or the headless surface), plans and runs the spec.
 * CV_EUNAVAIL when no display or no font (err says which and, for fonts,
 * the Debian package). A failing first run is not fatal: the window opens
 * with the reason shown. */
int gui_create(const gui_options *o, gui **out, char *err, size_t errlen);
/* Initialises SDL's video with the software renderer's hints. CV_EUNAVAIL
 * and err "no display (...)" where there is none: neither DISPLAY nor
 * WAYLAND_DISPLAY set (SDL is then not asked, and prints nothing), or
 * SDL_VIDEODRIVER dummy or offscreen. */
int gui_video_init(char *err, size_t errlen);
/* Shrinks a default window size (video initialised) to what the first
 * display can show whole, title bar and taskbar allowed for: a 1280x800
 * window on a 1366x768 laptop would put the buttons below the screen. */
void gui_fit_display(int *w, int *h);
void gui_destroy(gui *g); /* accepts NULL */
/* The fonts to draw with: the shipped ones in assets/ (found once per
 * process, their theme palettes read then too), else fontconfig's.
 * CV_EINVAL when $COLLVIZ_ASSETS_DIR is not a directory, CV_EUNAVAIL when
 * there is no font at all; err says which (gui_assets.c). */
int gui_fonts(rd_font_paths *fonts, char *err, size_t errlen);
/* Sets the window's icon from assets/ (nothing when there are none). */
void gui_set_icon(SDL_Window *win);
/* Reads the theme files of assets/ now, if not yet (what gui_fonts does
 * first): a theme that exists only as a file is then a word --theme takes
 * and one the T key reaches. */
void gui_load_themes(void);

/* Draws into a w x h surface of its own from now on (ARGB8888, rows
 * without padding) instead of the window, which stays for its events: the
 * browser hands what changed to its canvas itself, faster than SDL's copy
 * of the whole frame through the window (app/web/web_loop.c). Called again
 * for a new size. CV_OK, or a status with err, the drawing left as it was. */
int gui_draw_offscreen(gui *g, int w, int h, char *err, size_t errlen);
/* That surface, or NULL when drawing into the window (or headless). */
SDL_Surface *gui_offscreen(gui *g);

/* The main loop: events, playback, drawing, until quit. Returns 0. It
 * calls gui_frame until that says stop, pacing itself at about 60 frames
 * a second while something moves; the browser calls the same gui_frame
 * from its own loop (app/web/). */
int gui_run(gui *g);
/* Another window's loop (show's chart): calls frame(state, may_wait)
 * until it returns false, on the desktop waiting for events between
 * frames as gui_run does; in the browser (web_loop.c), once per display
 * frame, never returning. */
void gui_run_loop(bool (*frame)(void *state, bool may_wait), void *state);
/* What the loop keeps between frames: when the last began, and whether
 * the stage must be drawn again. */
typedef struct {
    double last;
    bool dirty;
    bool redraw; /* set from outside (a resized canvas): draw the next frame */
} gui_loop;
void gui_loop_init(gui_loop *l);
/* One pass of the loop: the events waiting (may_wait: first sleep up to a
 * quarter of a second for one when nothing moves), playback, and a frame
 * when anything changed. False once the window is to close. */
bool gui_frame(gui *g, gui_loop *l, bool may_wait);
/* Whether something moves, so the next frame is due at once. */
bool gui_loop_busy(const gui *g);
/* Pieces of the loop, for tests and lessons that run their own. */
void gui_handle_event(gui *g, const SDL_Event *e);
/* What a key or a button does (arg as the keymap's: -1 cycles back; the
 * answer of RD_ACT_ANSWER); gui_hooks.on_action sees it first. */
void gui_do(gui *g, rd_action a, int arg);
void gui_tick(gui *g, double seconds); /* advances playback */
void gui_render(gui *g);               /* draws the frame (not presented) */
bool gui_quit_requested(const gui *g);
int gui_frames(const gui *g); /* frames drawn and presented so far */

SDL_Renderer *gui_renderer(gui *g);
rd_ctx *gui_rd(gui *g);

/* ------------------------------------------------------------- player */

double gui_time(const gui *g);
int gui_nsteps(const gui *g);      /* max over panels */
bool gui_playing(const gui *g);
double gui_speed(const gui *g);
/* How many speeds - and + step through (0.1x to 8x). */
int gui_speed_count(void);
void gui_seek(gui *g, double t);   /* pauses */
void gui_play(gui *g, bool on);
/* Plays from the current time up to step k (the state after k steps) and
 * pauses there; gui_target_reached tells when it got there. */
void gui_play_to(gui *g, int k);
bool gui_target_reached(const gui *g);

/* --------------------------------------------------------------- spec */

const cv_spec *gui_spec(const gui *g);
const cv_trace *gui_trace(const gui *g, int panel); /* NULL if none */
bool gui_compare(const gui *g);
cv_algo gui_compared_algo(const gui *g); /* compare mode's second algorithm */
cv_init gui_init(const gui *g);           /* how the inputs are filled, and the seed */
uint64_t gui_seed(const gui *g);
bool gui_lesson_mode(const gui *g);       /* a lesson drives the stage */
/* Re-plans and re-runs for spec (and, in compare mode, the second
 * algorithm). On failure the previous trace stays and the reason is shown
 * in the window; returns the cv_status. */
int gui_set_spec(gui *g, const cv_spec *spec);
int gui_set_compare(gui *g, bool on, cv_algo second);
int gui_set_backend(gui *g, const cv_backend *b);
void gui_set_theme(gui *g, rd_theme_id t);
void gui_set_lang(gui *g, cv_lang l);
cv_lang gui_lang(const gui *g);
/* A banner over the stage for `seconds` (0 = until replaced; NULL clears). */
void gui_message(gui *g, const char *text, double seconds);
const char *gui_current_message(const gui *g);

/* ---------------------------------------------------------- narration */

/* Replaces the default explanation with a lesson's text (copied); NULL
 * title and body give the default back. */
void gui_narrate(gui *g, const char *title, const char *body);
void gui_set_highlights(gui *g, uint64_t ranks, const rd_region *regions, int nregions,
                        const int (*links)[2], int nlinks);
void gui_clear_highlights(gui *g);
void gui_set_diagram(gui *g, const rd_diagram *d); /* copied; NULL clears */
/* A step timeline (copied; NULL clears). Its cursor sweeps it once from
 * the start whenever a different timeline is set. */
void gui_set_step_timeline(gui *g, const rd_steptl *d);
/* Answer buttons under the narration; states are rd_choice_state values
 * (NULL = all plain). n = 0 removes them. */
void gui_set_choices(gui *g, const char *const *choices, int n, const int *states);
void gui_set_picks(gui *g, const rd_region *picks, int n);
/* Picks a checked answer got wrong, marked on the stage (n = 0 clears). */
void gui_set_wrong_picks(gui *g, const rd_region *wrong, int n);
void gui_set_footer(gui *g, const char *text);

/* ------------------------------------------------------------ lessons */

/* Lesson mode: a wider narration panel that stays in small windows, and
 * the diagram beside the stage rather than inside the panel. */
void gui_set_lesson_mode(gui *g, bool on);
/* What a lesson adds to the narration (all copied; NULL leaves a part out,
 * a NULL q clears them all): a small line above the title, the quiz's
 * question, the verdict under it (state: an rd_choice_state colouring its
 * bar) and a typed-answer field (input NULL = no field) with its unit. */
typedef struct {
    const char *kicker, *prompt, *feedback;
    int feedback_state;
    const char *input, *input_unit;
} gui_quiz_text;
void gui_narrate_quiz(gui *g, const gui_quiz_text *q);
/* The lesson's navigation buttons at the bottom of the panel (the
 * keymap's RD_BUTTON_NAV rows); a click is the same action as their key. */
void gui_set_nav(gui *g, bool on);
/* Leaves the narration's "Next" out (a quiz asks what the next step does). */
void gui_hide_next(gui *g, bool hide);
/* Scrolls the narration's text by lines (negative: up); the drawer clamps
 * it to the text, so INT_MAX goes to the end. The mouse wheel over the
 * panel and the Up and Down keys scroll it too. */
void gui_scroll_narration(gui *g, int lines);
void gui_set_narration_scroll(gui *g, int line); /* absolute; 0 = the top */
/* True when values given for `given`'s send buffers fit spec's: the same
 * op, ranks, count, dtype and root (the algorithm may differ). */
bool gui_inputs_fit(const cv_spec *given, const cv_spec *spec);
/* Sets what runs in one re-plan: spec on backend (NULL = CPU) with inputs
 * filled by init and seed (not gui_options.inputs), compare mode off. On failure nothing changes
 * and the reason is shown, as for gui_set_spec. */
int gui_set_run(gui *g, const cv_spec *spec, const cv_backend *backend, cv_init init,
                uint64_t seed);
/* Editing an input on the stage (gui_edit.c): a send buffer's element,
 * typed in the dtype's syntax (whole numbers for integers; for floats also
 * nan, inf, -inf), runs the collective again on the new inputs (through
 * cv_run_opts.inputs, so verification uses them) and keeps the time shown.
 * gui_edit_begin selects rank's element i and opens the field (false: no
 * such send element, or a lesson drives the stage); gui_edit_type appends
 * text; gui_edit_commit parses it: a value the dtype cannot hold is
 * refused (CV_EINVAL), the reason, naming the limit ("int8 holds -128 to
 * 127"), in err and on the stage, and the field stays open; on CV_OK the
 * field closes. gui_edit_cancel closes it with nothing changed. */
bool gui_edit_begin(gui *g, int rank, int64_t i);
void gui_edit_type(gui *g, const char *text);
int gui_edit_commit(gui *g, char *err, size_t errlen);
void gui_edit_cancel(gui *g);
/* Whether the field is open, and which cell is selected (NULL: not asked). */
bool gui_editing(const gui *g, int *rank, int64_t *i);
const char *gui_edit_text(const gui *g);
/* Where rank's send element i is drawn on the stage (panel 0) now, in
 * window units (what a click gives): false where it is not drawn. */
bool gui_send_cell_point(gui *g, int rank, int64_t i, int *x, int *y);
/* Reads text as one value of dtype d into out (one element): CV_OK, or
 * CV_EINVAL and one line in err naming what d holds. */
int gui_parse_value(cv_dtype d, const char *text, void *out, char *err, size_t errlen);
rd_theme_id gui_theme(const gui *g);
/* Output pixels per window unit (HiDPI): mouse coordinates times this are
 * the renderer's pixels. */
float gui_dpi(const gui *g);
const cv_backend *gui_backend(const gui *g);

/* Hooks see things first; returning true from on_event or on_action
 * swallows it (on_action gets every key of the keymap and every button).
 * before_draw runs at the start of gui_render (a lesson catches up with a
 * language or theme change there); after_draw runs once the frame is drawn,
 * before it is presented (overlays such as the lesson menu). */
typedef struct {
    bool (*on_event)(void *user, gui *g, const SDL_Event *e);
    void (*on_frame)(void *user, gui *g);
    void (*on_choice)(void *user, gui *g, int choice);
    void (*on_cell)(void *user, gui *g, const rd_hit *hit); /* a click on a cell */
    bool (*on_action)(void *user, gui *g, rd_action a, int arg);
    void (*before_draw)(void *user, gui *g);
    void (*after_draw)(void *user, gui *g);
    void *user;
} gui_hooks;
void gui_set_hooks(gui *g, const gui_hooks *h);

/* The default explanation of the current op/algorithm and step
 * (gui_text.c); second is the compared algorithm, or CV_ALGO_COUNT. */
void gui__explain(const cv_spec *spec, cv_algo second, cv_lang lang, char *title, size_t tlen,
                  char *body, size_t blen);
/* The step (0-based) in words: who sends to whom, the first few chunks
 * with their values read from before (the state before the step) and,
 * given after (the state after it), what reductions made of them; brief:
 * the pattern and the count only, for one side of a comparison. Either
 * state may be NULL (no values). */
void gui__describe_step(const cv_plan *plan, int step, cv_state *before, cv_state *after,
                        cv_lang lang, bool brief, char *out, size_t outlen);
/* Whether the op/algorithm pair has its own explanation (test_gui_text). */
bool gui__has_pair_text(cv_op op, cv_algo a);

#endif /* GUI_H */

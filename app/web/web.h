/*
 * web.h: the browser build's glue (app/web/), shared by its entry point
 * (web_main.c), its loop (web_loop.c) and the page's script (web.js),
 * which must agree on these folders.
 */
#ifndef WEB_H
#define WEB_H

/* Where the page's data file puts lessons/ and assets/. */
#define WEB_DATA_DIR "/collviz"
/* The folder the page keeps in IndexedDB: progress, and dropped files. */
#define WEB_PERSIST_DIR "/persist"
#define WEB_DROPPED_DIR WEB_PERSIST_DIR "/dropped"

#include <stdbool.h>
#include <stddef.h>

/* A command line the page makes (web_link.c): argv NULL-terminated, its
 * strings in store; web_args_add drops what does not fit. */
#define WEB_MAX_ARGS 64
typedef struct {
    char *argv[WEB_MAX_ARGS + 1];
    int argc;
    char store[8192];
    size_t used;
} web_args;
void web_args_add(web_args *a, const char *s);
/* The page's query as "key\tvalue\n" lines (cut up in place) to a's argv,
 * from "collviz": the stage (gui), a lesson, a chart (show) or the drill;
 * false with why (one line) when the link names what the browser cannot
 * open. Every spec field's URL key is its row's in cli_fields. */
bool web_link_to_args(char *lines, web_args *a, char *why, size_t whylen);
/* `collviz export` of the stage g shows now into the GIF file gif, each
 * spec field the page can set as gui_field_text gives it. */
struct gui;
void web_export_args(const struct gui *g, const char *gif, web_args *a);

/* For the page's tests and benchmark (web_loop.c): the median time of the
 * last `last` drawn frames (all kept, if 0) in milliseconds, -1 when none
 * was drawn; the frames drawn so far; the characters drawn so far that no
 * shipped face has (boxes on the page: the cut-down Chinese face lacks
 * them). */
double web_frame_median_ms(int last);
double web_draw_median_ms(int last); /* the drawing alone, before the canvas */
int web_frames_drawn(void);
int web_missing_glyphs(void);
int web_missing_first(void); /* the first of them (a code point), 0 if none */
/* For the page's tests: where rank's send element i is drawn (CSS pixels,
 * x * 65536 + y; -1: not drawn), an input of the stage's run, its wrong
 * results, the time shown, whether a value's field is open (gui_edit.c). */
int web_send_cell_at(int rank, int i);
double web_input_value(int rank, int i);
int web_wrong(void);
double web_time(void);
int web_editing(void);

/* The window the browser's loop runs (NULL before it starts), and a
 * request to draw the next frame after changing it from outside. */
struct gui;
struct gui *web_gui(void);
void web_redraw(void);
/* The page's bar and gestures (web_export.c): the stage as a GIF download,
 * 0 when made, 3 when the page shows no stage; a swipe, dir > 0 onwards,
 * < 0 back. */
int web_export_gif(void);
void web_swipe(int dir);

/* The drill in the page (web_drill.c): each returns what the drill
 * printed since the last call. start: a new drill (zh: in Chinese;
 * seconds 0: no clock; count 0: every quiz); answer: the line typed; tick:
 * whether the clock ran out; left: seconds left, -1 with no clock, -2 when
 * no drill runs. */
const char *web_drill_start(int zh, int seconds, int count);
const char *web_drill_answer(const char *line);
const char *web_drill_tick(void);
int web_drill_left(void);

#endif /* WEB_H */

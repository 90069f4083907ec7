/*
 * gui_internal.h: the gui struct and names shared by the files of app/gui/ (prefix
 * gui__). Not for other modules: they use gui.h.
 */
#ifndef GUI_INTERNAL_H
#define GUI_INTERNAL_H

#include "cli.h"
#include "gui.h"

typedef struct {
    cv_plan *plan;
    cv_trace *trace;
    cv_state *state;
    cv_state *before; /* a second view: the state before a step that lands */
    cv_state *narr;   /* a third: the narration's values */
    char widest[48];  /* the widest value it ever holds (rd_trace_widest) */
    double *cum;      /* model time spent before each step, nsteps + 1 of them */
    bool recorded;    /* its times are a replayed trace's (gui_options.recorded_*) */
} gui_panel;

struct gui {
    /* window or headless surface */
    SDL_Window *win;
    SDL_Renderer *ren;
    SDL_Surface *surface;
    bool video, headless, fullscreen;
    float dpi;
    rd_ctx *rd;
    /* what runs */
    cv_spec spec;
    const cv_backend *backend;
    cv_init init;
    uint64_t seed;
    const void *const *inputs; /* gui_options.inputs, NULL once a lesson sets the run */
    cv_spec inputs_spec;
    const double *rec_seconds; /* gui_options.recorded_*: a replayed trace */
    const char *rec_label;
    cv_spec rec_spec;
    const cv_link *link;
    const cv_link *inter; /* between nodes (--inter-link), NULL = ib-ndr */
    bool compare;
    cv_algo second;
    gui_panel panels[2];
    int npanels;
    int ns; /* steps: max over panels */
    /* player */
    double t;
    bool playing;
    int speed_i;
    double target; /* where play_to stops, -1 = none */
    bool landed; /* stopped at the end of a step it played: show what the step did */
    double clock;
    /* view */
    rd_theme_id theme;
    cv_lang lang;
    bool help, narration, quit, dragging;
    /* the reference card (F3, gui_card.c): its cells in the card's language */
    struct gui_card *card;
    bool card_open;
    bool pointer; /* X: a large ring at the mouse */
    bool random_again; /* I: the random pattern has been drawn twice */
    int mouse_x, mouse_y; /* window units */
    int focus;            /* the rank the lens shows; -1: the root, or 0 */
    char message[CV_ERR_LEN + 128];
    char shown_message[CV_ERR_LEN + 160]; /* as drawn: see gui__shown_message */
    double message_until;
    bool has_message;
    bool message_shot;  /* the message is a screenshot's "saved ..." notice */
    bool shooting;      /* drawing a screenshot: such a notice is left out */
    /* narration */
    char def_title[256];
    char def_body[2048];
    char just_text[2048], next_text[2048]; /* gui__step_texts */
    bool text_flying;                      /* just_text is a step in flight */
    bool text_result;                      /* next_text is compare mode's verdict */
    uint64_t text_key;
    bool text_key_ok;
    char *narr_title, *narr_body, *footer;
    bool has_diagram;
    rd_diagram diagram;
    bool has_steptl;
    rd_steptl steptl;
    double steptl_since; /* the clock when this timeline was first shown: its cursor's start */
    int nchoices;
    char *choices[RD_MAX_CHOICES];
    int choice_state[RD_MAX_CHOICES];
    uint64_t hl_ranks;
    int nhl_regions, npicks, nhl_links;
    rd_region hl_regions[RD_MAX_REGIONS];
    rd_region picks[RD_MAX_REGIONS];
    int nwrong;
    rd_region wrong[RD_MAX_REGIONS];
    int hl_links[RD_MAX_HL_LINKS][2];
    /* lessons (gui_set_lesson_mode, gui_narrate_quiz, gui_set_nav) */
    bool lesson;
    char *narr_kicker, *narr_prompt, *narr_feedback, *narr_input, *narr_unit;
    int feedback_state;
    bool nav;
    bool hide_next; /* a quiz is open: "Next" would give its answer away */
    int narr_scroll;
    bool narr_at_start; /* the stage was at its start when last drawn (the intro leads) */
    bool narr_auto;     /* past the start and not scrolled by hand: the step text leads */
    int narr_auto_at;   /* the scroll it set last: another value means someone scrolled */
    gui_hooks hooks;
    /* loop bookkeeping */
    long frames;
    long exit_after;
    void (*first_frame_cb)(gui *g);
    char shot_dir[512];
    bool clean;         /* export: no buttons or timeline */
    bool hide_measured; /* golden images: no run-to-run timings */
    rd_layout *hit_layout; /* gui__hit's, kept off the stack */
    /* editing a send value on the stage (gui_edit.c) */
    bool edit_sel;          /* a send cell is selected (drawn framed) */
    bool editing;           /* its field is open: keys type into it */
    bool edit_echo;         /* say each edit on stdout (the window, for a class's log) */
    int edit_rank;          /* the selected cell: rank and element */
    int64_t edit_index;
    char edit_text[48];     /* what is typed so far */
    char edit_refused[CV_ERR_LEN + 16]; /* why the last Enter was refused, "" if not */
    char edit_line[CV_ERR_LEN + 320]; /* the banner while the field is open */
    void **edit_inputs;     /* the edited inputs (g->inputs points here), owned */
    int edit_nranks;
};

/* Editing a send value (gui_edit.c). gui__edit_key takes a key while the
 * field is open (true: it was the field's); gui__edit_click takes a click
 * on the stage (true: it opened the field on a send cell); gui__edit_frame
 * puts the field's line and the selected cell into the frame;
 * gui__edit_destroy frees the edited inputs. gui__edit_start is E: it opens
 * the field on the selected cell, else on the lens's rank's (or the first
 * used) send buffer's first element. */
void gui__edit_start(gui *g);
bool gui__edit_key(gui *g, const SDL_KeyboardEvent *k);
bool gui__edit_click(gui *g, const rd_hit *h);
void gui__edit_frame(gui *g, rd_frame *f);
void gui__edit_destroy(gui *g);

/* The step timeline's cursor now, 0..1 of its length (-1: no timeline),
 * and whether it is still moving (the window must keep drawing). */
double gui__steptl_t(const gui *g);
bool gui__steptl_moving(const gui *g);

/* The narration's "Just happened" and "Next" for the time shown. */
void gui__step_texts(gui *g);
/* The frame the window shows now (strings borrowed from g). */
void gui__frame(gui *g, rd_frame *f);
/* What lies under a point in window units, tested against the frame as it
 * is now (not the last one drawn). */
rd_hit gui__hit(gui *g, int x, int y);

/* The arrow keys: play the next round (its local sub-phases too) and
 * pause; go back to the state before the last one, exactly. */
void gui__step_forward(gui *g);
void gui__step_back(gui *g);

/* Another algorithm of op than `not`, or CV_ALGO_COUNT if there is none. */
cv_algo gui__other_algo(cv_op op, cv_algo not);
/* Saves the current frame as a PNG in the screenshot directory; writes
 * the path into out. */
int gui__screenshot(gui *g, char *out, size_t outlen);

/* The current message as the window draws it: a backend's advice names
 * command-line flags ("lower --count or --ranks"), which in the window
 * are keys. gui_current_message keeps the words for the command line. */
const char *gui__shown_message(gui *g);

/* gui and export, after parsing their flags: --compare applied, the
 * spec finished (cli_finish_spec: defaults, --nccl-log, checks), and a
 * count not given picked from the final rank count. False after printing
 * the error. */
bool gui_finish_stage(const cli_cmdline *cl, gui_options *o, const char *compare, bool algo_given);
/* What gui and export read from their flags to set up the stage. */
typedef struct {
    const char *trace, *compare, *backend, *input; /* --trace, --compare, --backend, --input */
    bool algo_given;
    bool quiet; /* cli_select_backend's: no note on the terminal (export) */
} gui_stage_args;
/* The stage gui and export share once their flags are read: the trace
 * (--trace) or the flags' spec finished, the backend chosen, --input's
 * values read into *given (the caller frees them with cli_free_inputs,
 * and rec with cli_trace_destroy). CLI_EXIT_OK, or the exit code after
 * saying why, with nothing left to free. */
int gui_setup_stage(const cli_cmdline *cl, gui_options *o, const gui_stage_args *a,
                    cli_trace *rec, char *label, size_t labellen, void ***given);
/* --trace FILE (gui, export): the recorded run becomes the stage, its spec
 * and inputs, with its times, backend and host (label, at least 200
 * bytes) shown beside the replay; a flag that would change the run is
 * refused. False after saying why (exit 2). rec is destroyed by the
 * caller after the window. */
bool gui_take_trace(const cli_cmdline *cl, const char *path, gui_options *o, cli_trace *rec,
                    char *label, size_t labellen);
/* After the window is made: where the replay's results differ from the
 * recorded ones, or the recording run counted wrong results, it says so. */
void gui_report_trace(gui *g, const cli_trace *rec);

/* The reference card (gui_card.c): the table F3 shows, built for the
 * window's language the first time it is needed and again when the
 * language changes; NULL where it cannot be built (out of memory). */
const rd_table *gui__card(gui *g);
void gui__card_destroy(gui *g);

#endif /* GUI_INTERNAL_H */

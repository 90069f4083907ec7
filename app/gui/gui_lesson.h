/*
 * gui_lesson.h: lessons in the window (prefix gui_lesson_), shared by
 * app/gui_lesson*.c, `collviz` alone (gui_cmd.c) and the tests.
 *
 * A gui_lesson is a caller-allocated player attached to a gui: it sets the
 * stage to each beat's setup, plays up to the beat's step, fills the
 * narration (title, beat k/n, text, quiz, verdict), the highlights and the
 * diagram, asks the beat's quiz, and keeps the learner's progress file up
 * to date on every beat change, every answer and on detach. Everything it
 * shows goes through gui.h; its keys come first through gui_hooks, and the
 * ones it does not use keep their meaning in the window.
 *
 * gui_lesson_quiz.c asks the quizzes, gui_lesson_menu.c draws the lesson
 * menu, gui_lesson_dir.c finds the course for `collviz` alone.
 */
#ifndef GUI_LESSON_H
#define GUI_LESSON_H

#include <stdbool.h>
#include <stddef.h>

#include "gui.h"
#include "gui_cmds.h"
#include "lesson.h"
#include "lesson_progress.h"

#define GUI_LESSON_MAX_PICKS RD_MAX_REGIONS

/* The quiz of the beat on screen, for this visit of the beat. */
typedef struct {
    const lesson_quiz *q; /* NULL: the beat asks nothing */
    int wrong;            /* wrong answers so far */
    bool recorded;        /* the first attempt is in the progress file */
    bool solved;          /* answered right */
    bool revealed;        /* the answer shown after two misses */
    int selected;         /* choice picked with a digit key, waiting for Enter; -1 */
    int state[RD_MAX_CHOICES]; /* by shown position, as are selected and the keys */
    int order[RD_MAX_CHOICES]; /* shown position -> index in the file (lesson_quiz_order) */
    char input[32];       /* number: what was typed */
    char typed[32];       /* number: what was last checked */
    int npicks;           /* predict-cells: cells clicked */
    lesson_cell picks[GUI_LESSON_MAX_PICKS];
    lesson_verdict verdict;
    bool has_verdict;
    char notice[160];     /* a hint that is not a verdict ("type a number first") */
} gui_lesson_quiz;

/* The lesson menu overlay. */
typedef struct {
    bool open;
    int sel;    /* selected lesson index */
    int top;    /* first row shown when the list scrolls */
    bool wheel; /* the wheel scrolled it: do not pull the selection into view */
    int nrows;  /* rows last drawn, for the mouse */
    SDL_Rect row_rect[96];
    int row_lesson[96];
    SDL_Rect box;
    int cut; /* titles last drawn that did not fit their row even in the small face */
} gui_lesson_menu;

typedef struct {
    gui *g;
    const lesson_course *course;
    lesson_progress prog;
    char path[4096];  /* progress file; "" = kept in memory only */
    int li;           /* lesson index */
    int beat;         /* 0..nbeats-1, or nbeats: the mistake cards */
    lesson_lang lang;
    rd_theme_id theme;
    /* what the stage was last set to (a learner may change it with O, A,
     * N...: then it is set again at the next beat) */
    bool staged;
    cv_spec stage_spec;
    cv_init stage_init;
    uint64_t stage_seed;
    bool explored;    /* the learner changed the stage away from the setup */
    bool theme_oneoff; /* the theme came from --theme and was not changed in the window:
                          it is not saved as the next launch's */
    bool finished;    /* the last page of the last lesson was passed */
    bool intro;       /* showing how to read the stage, before the first page */
    gui_lesson_quiz quiz;
    gui_lesson_menu menu;
    char save_error[256];
    /* Changes not yet in the file. A save folds them into the file as it
     * is then, so what another collviz wrote meanwhile (the drill in a
     * terminal) is kept. Keys and ids point into the course. */
    int npending_quiz, npending_done, npending_skip;
    struct {
        const char *key;
        bool correct;
    } pending_quiz[8];
    const char *pending_done[8];
    const char *pending_skip[8];
    /* The question a Page Down found unanswered and asked about: the next
     * Page Down past it skips it. */
    const lesson_quiz *skip_asked;
} gui_lesson;

/* How a beat is reached, which decides how the stage gets there. */
typedef enum {
    GUI_LESSON_NEXT, /* forward one beat: play on from where the stage is */
    GUI_LESSON_BACK, /* back one beat: show the state at once */
    GUI_LESSON_JUMP  /* menu, resume, deep link: play the beat's last step */
} gui_lesson_move;

typedef struct {
    const char *progress_path; /* "" or NULL: nothing is saved */
    int lesson, beat;          /* where to open */
    lesson_lang lang;
    bool saved_theme;          /* take the theme from the progress file when it has one */
    const char *notice;        /* a banner to show first (NULL: none) */
    bool intro;                /* first a page on how to read the stage */
} gui_lesson_opts;

/* Attaches to g: lesson mode, hooks, keys in the help. The progress file
 * is read now (a corrupt one is set aside with a banner saying so), then
 * the lesson opens at its beat. Returns false (msg says why) when the
 * course is empty. */
bool gui_lesson_attach(gui_lesson *s, gui *g, const lesson_course *course,
                       const gui_lesson_opts *o, char *msg, size_t msglen);
/* Saves the progress and gives the window back its plain behaviour. */
void gui_lesson_detach(gui_lesson *s);

void gui_lesson_go(gui_lesson *s, int li, int beat, gui_lesson_move how);
void gui_lesson_next(gui_lesson *s);
void gui_lesson_prev(gui_lesson *s);
/* Writes the progress file now (current lesson and beat, language, theme). */
void gui_lesson_save(gui_lesson *s);
/* Records a quiz attempt or a lesson done, in memory and for the next save. */
void gui_lesson_note_quiz(gui_lesson *s, const char *key, bool correct);
void gui_lesson_note_done(gui_lesson *s, const char *lesson_id);
void gui_lesson_note_skipped(gui_lesson *s, const char *key);
/* A lesson's quizzes passed without an answer (and not answered since),
 * and the beat of the first of them (-1: none). */
int gui_lesson_skipped(const gui_lesson *s, const lesson *l, int *first_beat);
/* Rebuilds everything the panel shows from the state. */
void gui_lesson_refresh(gui_lesson *s);
const lesson *gui_lesson_current(const gui_lesson *s);
/* The words the window uses around lessons, in the current language. */
typedef enum {
    GUI_LS_NEXT, GUI_LS_BACK, GUI_LS_MENU, GUI_LS_MISTAKES, GUI_LS_MYTH, GUI_LS_TRUTH,
    GUI_LS_RIGHT, GUI_LS_NOT_QUITE, GUI_LS_ANSWER_IS, GUI_LS_CARD, GUI_LS_HINT_CHOICE,
    GUI_LS_HINT_NUMBER, GUI_LS_HINT_CELLS, GUI_LS_HINT_NAV, GUI_LS_HINT_END, GUI_LS_CHECK,
    GUI_LS_CLEAR, GUI_LS_TYPE_FIRST, GUI_LS_NOT_A_NUMBER, GUI_LS_CELLS_MISSING,
    GUI_LS_CELLS_EXTRA, GUI_LS_CELLS_SHOWN, GUI_LS_EXPLORED, GUI_LS_COURSE_DONE,
    GUI_LS_MENU_TITLE, GUI_LS_MENU_HINT, GUI_LS_PICKS, GUI_LS_STAGE_ONLY, GUI_LS_GROUPED, GUI_LS_TRY_AGAIN,
    GUI_LS_VALUE_HINT, GUI_LS_CELLS_MARKED, GUI_LS_CELL_MISSING, GUI_LS_CELL_EXTRA,
    GUI_LS_SKIP_ASK, GUI_LS_SKIPPED,
    GUI_LS_COUNT_
} gui_lesson_string;
const char *gui_lesson_str(const gui_lesson *s, gui_lesson_string id);

/* ----------------------------------------------------- gui_lesson_quiz.c */

void gui_lesson_quiz_start(gui_lesson *s, const lesson_quiz *q);
/* Pushes the answer buttons, the field, the picks and the verdict. */
void gui_lesson_quiz_show(gui_lesson *s);
/* Typed text for a number quiz; true when used. */
bool gui_lesson_quiz_event(gui_lesson *s, const SDL_Event *e);
/* RD_ACT_ANSWER (arg: the shown answer) and RD_ACT_CHECK; true when used. */
bool gui_lesson_quiz_action(gui_lesson *s, rd_action a, int arg);
void gui_lesson_quiz_choice(gui_lesson *s, int choice); /* a click on the shown answer choice */
void gui_lesson_quiz_cell(gui_lesson *s, const rd_hit *hit);
/* Checks the typed number, the picked cells or the selected answer. */
void gui_lesson_quiz_submit(gui_lesson *s);
/* The verdict text for the panel (empty before any answer). */
void gui_lesson_quiz_feedback(const gui_lesson *s, char *out, size_t outlen, int *state);
/* The hint under the answers. */
const char *gui_lesson_quiz_hint(const gui_lesson *s);

/* ----------------------------------------------------- gui_lesson_menu.c */

void gui_lesson_menu_toggle(gui_lesson *s);
/* The mouse over the open menu; true when used. */
bool gui_lesson_menu_event(gui_lesson *s, const SDL_Event *e);
/* A key or a button while the menu is open: true when it used or swallowed
 * it (only language, theme, quit and full screen reach the window). */
bool gui_lesson_menu_action(gui_lesson *s, rd_action a);
void gui_lesson_menu_draw(gui_lesson *s);

/* ------------------------------------------------------ gui_lesson_dir.c */


/* The window for a lesson, for `collviz lesson` and `collviz` alone: base
 * gives the window's options (its spec is replaced by the lesson's); wo
 * (may be NULL): where S saves, quit after frames > 0 frames, a callback
 * after the first frame. saved_theme and notice as in gui_lesson_opts.
 * Returns an CLI_EXIT_* code; CLI_EXIT_UNAVAIL with err filled when no
 * window can be opened. */
typedef struct {
    const char *shots;
    long frames;
    void (*first_frame)(gui *g);
    bool intro; /* first launch: a page on how to read the stage comes first */
} gui_lesson_window_opts;
int gui_lesson_window(const gui_options *base, const gui_lesson_window_opts *wo,
                      const lesson_course *course, int li, int beat, lesson_lang lang,
                      bool saved_theme, const char *notice, char *err, size_t errlen);

/* Where `collviz` alone opens: the lesson in progress at its page
 * (lesson_course_resume), but the next lesson when the learner left on
 * the last page of one already done. */
int gui_lesson_resume(const lesson_course *course, const lesson_progress *prog, int *beat);

/* `collviz` alone: finds and loads the course, reads the progress and opens
 * the lesson in progress (or the first). theme_given / lang_given: the
 * flags chose them (else the saved choice is used). Returns an CLI_EXIT_*
 * code, or -1 after one line saying why when there is no course (the
 * caller then opens the plain stage). CLI_EXIT_UNAVAIL with err filled when
 * there is no window. */
int gui_lesson_start(const gui_options *base, const gui_lesson_window_opts *wo, bool theme_given,
                     bool lang_given, char *err, size_t errlen);

/* gui_open_lesson (gui_cmds.h): the window on a lesson at a beat for
 * `collviz lesson`. */

#endif /* GUI_LESSON_H */

/*
 * gui_lesson_quiz.c: asking a beat's quiz in the window.
 *
 * Every kind is checked by the lesson engine's own functions against what
 * the lesson and the trace say (lesson_check_choice, _number, _cells), so
 * the window and the terminal player can never disagree on an answer.
 * Choices and predicted values are answer buttons (a click answers at
 * once; a digit key selects and Enter answers); a number is typed into a
 * field next to its unit; predicted cells are clicked on the stage and
 * checked with Enter or the Check button.
 *
 * As in the terminal: a wrong answer shows why and allows another try;
 * after two misses the answer is shown; the standard-answer card comes
 * last. Only the first attempt of a visit counts in the progress file.
 */
#define _POSIX_C_SOURCE 200809L
#include "gui_lesson.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void gui_lesson_quiz_start(gui_lesson *s, const lesson_quiz *q)
{
    gui_lesson_quiz *z = &s->quiz;
    memset(z, 0, sizeof *z);
    z->q = q;
    z->selected = -1;
    if (q) {
        int order[LESSON_MAX_SHOWN];
        int n = lesson_quiz_order(q, order);
        for (int i = 0; i < n && i < RD_MAX_CHOICES; i++)
            z->order[i] = order[i];
    }
    /* Typed answers arrive as SDL_TEXTINPUT; make sure a window sends them. */
    if (q && q->kind == LESSON_QUIZ_NUMBER && SDL_WasInit(SDL_INIT_VIDEO))
        SDL_StartTextInput();
}

static bool open_quiz(const gui_lesson *s)
{
    return s->quiz.q && !s->quiz.solved && !s->quiz.revealed;
}

static int nanswers(const lesson_quiz *q)
{
    int n = q->kind == LESSON_QUIZ_CHOICE          ? q->nchoices
            : q->kind == LESSON_QUIZ_PREDICT_VALUE ? q->noptions
                                                   : 0;
    return n < RD_MAX_CHOICES ? n : RD_MAX_CHOICES;
}

static void format_value(double v, char *out, size_t n)
{
    snprintf(out, n, "%.10g", v);
}

void gui_lesson_quiz_show(gui_lesson *s)
{
    const gui_lesson_quiz *z = &s->quiz;
    const lesson_quiz *q = z->q;
    const char *labels[RD_MAX_CHOICES] = {0};
    char values[RD_MAX_CHOICES][48];
    int states[RD_MAX_CHOICES] = {0};
    int n = 0;
    if (q && (q->kind == LESSON_QUIZ_CHOICE || q->kind == LESSON_QUIZ_PREDICT_VALUE)) {
        n = nanswers(q);
        for (int i = 0; i < n; i++) {
            if (q->kind == LESSON_QUIZ_CHOICE) {
                labels[i] = lesson_text_get(&q->choices[z->order[i]].text, s->lang);
            } else {
                format_value(q->options[z->order[i]], values[i], sizeof values[i]);
                labels[i] = values[i];
            }
            states[i] = z->state[i];
            if (i == z->selected && states[i] == RD_CHOICE_PLAIN)
                states[i] = RD_CHOICE_PICKED;
        }
    } else if (q && q->kind == LESSON_QUIZ_PREDICT_CELLS && open_quiz(s)) {
        labels[0] = gui_lesson_str(s, GUI_LS_CHECK);
        labels[1] = gui_lesson_str(s, GUI_LS_CLEAR);
        states[0] = states[1] = RD_CHOICE_PLAIN;
        n = 2;
    }
    gui_set_choices(s->g, labels, n, states);
    rd_region picks[GUI_LESSON_MAX_PICKS], wrong[GUI_LESSON_MAX_PICKS];
    int np = 0, nw = 0;
    if (q && q->kind == LESSON_QUIZ_PREDICT_CELLS)
        for (int i = 0; i < z->npicks; i++) {
            rd_region r = {z->picks[i].rank, z->picks[i].buf, z->picks[i].index, 1};
            picks[np++] = r;
            /* After a wrong answer, the picks the step does not write are
             * marked on the stage (the missing ones are not: that would be
             * the answer). */
            if (z->has_verdict && !z->verdict.correct &&
                !lesson_cells_contain(q->cells, q->ncells, &z->picks[i]))
                wrong[nw++] = r;
        }
    gui_set_picks(s->g, picks, np);
    gui_set_wrong_picks(s->g, wrong, nw);
}

const char *gui_lesson_quiz_hint(const gui_lesson *s)
{
    static char buf[160];
    const lesson_quiz *q = s->quiz.q;
    if (!q)
        return gui_lesson_str(s, GUI_LS_HINT_NAV);
    switch (q->kind) {
    case LESSON_QUIZ_NUMBER:
        return gui_lesson_str(s, GUI_LS_HINT_NUMBER);
    case LESSON_QUIZ_PREDICT_CELLS:
        snprintf(buf, sizeof buf, "%s  (%d %s)", gui_lesson_str(s, GUI_LS_HINT_CELLS),
                 s->quiz.npicks, gui_lesson_str(s, GUI_LS_PICKS));
        return buf;
    default:
        return gui_lesson_str(s, GUI_LS_HINT_CHOICE);
    }
}

/* ------------------------------------------------------------ answers */

/* Counts the first attempt of this visit; saved at once. */
static void record(gui_lesson *s, bool correct)
{
    if (s->quiz.recorded)
        return;
    s->quiz.recorded = true;
    gui_lesson_note_quiz(s, s->quiz.q->key, correct);
    gui_lesson_save(s);
}

/* After a verdict: show it, scrolled so the verdict is in view. */
static void after_answer(gui_lesson *s, bool correct)
{
    gui_lesson_quiz *z = &s->quiz;
    z->has_verdict = true;
    z->notice[0] = '\0';
    z->selected = -1;
    if (correct)
        z->solved = true;
    else if (++z->wrong >= 2)
        z->revealed = true;
    int shown = lesson_quiz_shown(z->q, z->q->answer);
    if (z->revealed && nanswers(z->q) > 0 && shown >= 0 && shown < RD_MAX_CHOICES)
        z->state[shown] = RD_CHOICE_RIGHT;
    record(s, correct);
    gui_lesson_refresh(s);
    gui_scroll_narration(s->g, 1000000);
    /* A quiz about the next step: once answered (or shown), the step
     * plays, so the learner sees the answer happen. */
    bool about_step = z->q->kind == LESSON_QUIZ_PREDICT_CELLS || z->q->kind == LESSON_QUIZ_PREDICT_VALUE;
    if (about_step && (z->solved || z->revealed) && !s->explored)
        gui_do(s->g, RD_ACT_FORWARD, 0);
}

static void answer(gui_lesson *s, int i)
{
    gui_lesson_quiz *z = &s->quiz;
    if (!open_quiz(s) || i < 0 || i >= nanswers(z->q) || z->state[i] != RD_CHOICE_PLAIN)
        return;
    bool ok = lesson_check_choice(z->q, z->order[i], &z->verdict);
    z->state[i] = ok ? RD_CHOICE_RIGHT : RD_CHOICE_WRONG;
    after_answer(s, ok);
}

static void notice(gui_lesson *s, gui_lesson_string id)
{
    snprintf(s->quiz.notice, sizeof s->quiz.notice, "%s", gui_lesson_str(s, id));
    gui_lesson_refresh(s);
    gui_scroll_narration(s->g, 1000000);
}

static void submit_number(gui_lesson *s)
{
    gui_lesson_quiz *z = &s->quiz;
    if (!z->input[0]) {
        notice(s, GUI_LS_TYPE_FIRST);
        return;
    }
    char text[sizeof z->input];
    snprintf(text, sizeof text, "%s", z->input);
    for (char *p = text; *p; p++)
        if (*p == ',')
            *p = '.'; /* a decimal comma means the same */
    char *end = NULL;
    double v = strtod(text, &end);
    if (end == text || *end || !isfinite(v)) {
        notice(s, GUI_LS_NOT_A_NUMBER);
        return;
    }
    snprintf(z->typed, sizeof z->typed, "%s", z->input);
    after_answer(s, lesson_check_number(z->q, v, &z->verdict));
}

static void submit_cells(gui_lesson *s)
{
    gui_lesson_quiz *z = &s->quiz;
    if (z->npicks == 0) {
        notice(s, GUI_LS_HINT_CELLS);
        return;
    }
    after_answer(s, lesson_check_cells(z->q, z->picks, z->npicks, &z->verdict));
}

void gui_lesson_quiz_submit(gui_lesson *s)
{
    gui_lesson_quiz *z = &s->quiz;
    if (!open_quiz(s))
        return;
    switch (z->q->kind) {
    case LESSON_QUIZ_NUMBER:
        submit_number(s);
        break;
    case LESSON_QUIZ_PREDICT_CELLS:
        submit_cells(s);
        break;
    default:
        if (z->selected >= 0)
            answer(s, z->selected);
        break;
    }
}

void gui_lesson_quiz_choice(gui_lesson *s, int choice)
{
    const lesson_quiz *q = s->quiz.q;
    if (!q)
        return;
    if (q->kind == LESSON_QUIZ_PREDICT_CELLS) {
        if (choice == 0) {
            gui_lesson_quiz_submit(s);
        } else if (choice == 1 && open_quiz(s)) {
            s->quiz.npicks = 0;
            gui_lesson_refresh(s);
        }
        return;
    }
    answer(s, choice);
}

/* Where the pick of element e of rank's buf is, or -1. */
static int find_pick(const gui_lesson_quiz *z, int rank, cv_buf buf, int64_t e)
{
    for (int i = 0; i < z->npicks; i++)
        if (z->picks[i].rank == rank && z->picks[i].buf == buf && z->picks[i].index == e)
            return i;
    return -1;
}

void gui_lesson_quiz_cell(gui_lesson *s, const rd_hit *hit)
{
    gui_lesson_quiz *z = &s->quiz;
    if (!z->q || z->q->kind != LESSON_QUIZ_PREDICT_CELLS || !open_quiz(s) || hit->panel != 0)
        return;
    if (s->explored) {
        gui_message(s->g, gui_lesson_str(s, GUI_LS_STAGE_ONLY), 4);
        return;
    }
    /* A drawn cell may stand for several elements, and a Shift+click picks
     * a whole chunk, a click on a row's name the whole row: all of them
     * are picked (or none once all were), and for a drawn cell the
     * learner hears how to pick them one by one. */
    bool all = true;
    for (int64_t e = hit->first; e < hit->first + hit->count && all; e++)
        all = find_pick(z, hit->rank, hit->buf, e) >= 0;
    for (int64_t e = hit->first; e < hit->first + hit->count; e++) {
        int found = find_pick(z, hit->rank, hit->buf, e);
        if (all)
            z->picks[found] = z->picks[--z->npicks];
        else if (found < 0 && z->npicks < GUI_LESSON_MAX_PICKS)
            z->picks[z->npicks++] = (lesson_cell){hit->rank, hit->buf, e};
    }
    if (hit->count > 1 && hit->pick == RD_PICK_CELL)
        gui_message(s->g, gui_lesson_str(s, GUI_LS_GROUPED), 5);
    z->notice[0] = '\0';
    gui_lesson_refresh(s);
}

bool gui_lesson_quiz_event(gui_lesson *s, const SDL_Event *e)
{
    gui_lesson_quiz *z = &s->quiz;
    if (!open_quiz(s) || z->q->kind != LESSON_QUIZ_NUMBER)
        return false;
    if (e->type == SDL_TEXTINPUT) {
        bool used = false;
        for (const char *p = e->text.text; *p; p++) {
            size_t len = strlen(z->input);
            bool ok = (*p >= '0' && *p <= '9') || *p == '.' || *p == ',' || *p == 'e' ||
                      *p == 'E';
            if (ok && len + 1 < sizeof z->input) {
                z->input[len] = *p;
                z->input[len + 1] = '\0';
                used = true;
            }
        }
        if (used) {
            z->notice[0] = '\0';
            gui_lesson_refresh(s);
        }
        return used;
    }
    if (e->type != SDL_KEYDOWN || (e->key.keysym.mod & (KMOD_CTRL | KMOD_ALT | KMOD_GUI)))
        return false;
    SDL_Keycode k = e->key.keysym.sym;
    if (k == SDLK_BACKSPACE) {
        size_t len = strlen(z->input);
        if (len > 0)
            z->input[len - 1] = '\0';
        gui_lesson_refresh(s);
        return true;
    }
    /* The digits arrive as text; their key presses must not pick anything. */
    return (k >= SDLK_0 && k <= SDLK_9) || (k >= SDLK_KP_1 && k <= SDLK_KP_0) ||
           k == SDLK_PERIOD || k == SDLK_COMMA || k == SDLK_e;
}

bool gui_lesson_quiz_action(gui_lesson *s, rd_action a, int arg)
{
    gui_lesson_quiz *z = &s->quiz;
    if (!open_quiz(s))
        return false;
    const lesson_quiz *q = z->q;
    if (a == RD_ACT_CHECK) {
        gui_lesson_quiz_submit(s);
        return true;
    }
    if (a != RD_ACT_ANSWER || q->kind == LESSON_QUIZ_NUMBER)
        return false;
    if (q->kind == LESSON_QUIZ_PREDICT_CELLS) {
        gui_lesson_quiz_choice(s, arg);
        return true;
    }
    if (arg >= 0 && arg < nanswers(q) && z->state[arg] == RD_CHOICE_PLAIN) {
        z->selected = arg;
        gui_lesson_refresh(s);
    }
    return true;
}

/* ------------------------------------------------------------ verdict */

static size_t add(char *out, size_t n, size_t len, const char *s)
{
    if (len < n)
        len += (size_t)snprintf(out + len, n - len, "%s", s);
    return len < n ? len : n - 1;
}

/* The right answer in words. */
static void answer_words(const gui_lesson *s, char *out, size_t n)
{
    const lesson_quiz *q = s->quiz.q;
    switch (q->kind) {
    case LESSON_QUIZ_CHOICE:
        snprintf(out, n, "%s", lesson_text_get(&q->choices[q->answer].text, s->lang));
        break;
    case LESSON_QUIZ_PREDICT_VALUE:
        format_value(q->options[q->answer], out, n);
        break;
    case LESSON_QUIZ_NUMBER:
        snprintf(out, n, "%.4g %s", q->number, lesson_quiz_unit(q, s->lang));
        break;
    default:
        snprintf(out, n, "%s", gui_lesson_str(s, GUI_LS_CELLS_SHOWN));
        break;
    }
}

void gui_lesson_quiz_feedback(const gui_lesson *s, char *out, size_t n, int *state)
{
    const gui_lesson_quiz *z = &s->quiz;
    const lesson_quiz *q = z->q;
    size_t len = 0;
    out[0] = '\0';
    *state = RD_CHOICE_PLAIN;
    if (!q)
        return;
    if (z->notice[0]) {
        add(out, n, 0, z->notice);
        return;
    }
    if (!z->has_verdict)
        return;
    const char *why = z->verdict.why ? lesson_text_get(z->verdict.why, s->lang) : "";
    const char *sp = s->lang == LESSON_ZH ? "" : " "; /* Chinese sets no space between sentences */
    char line[256];
    if (z->solved) {
        *state = RD_CHOICE_RIGHT;
        /* The course's own "why" of a right choice already says so. */
        if (strncmp(why, "Right", 5) != 0 && strncmp(why, "正确", strlen("正确")) != 0)
            len = add(out, n, len, gui_lesson_str(s, GUI_LS_RIGHT));
        if (*why)
            len = add(out, n, add(out, n, len, len ? sp : ""), why);
    } else {
        *state = RD_CHOICE_WRONG;
        len = add(out, n, len, gui_lesson_str(s, GUI_LS_NOT_QUITE));
        /* Before the answer is shown, only what cannot give it away: the
         * picked choice's own why, never the quiz's explanation (it
         * explains the right answer). */
        if (!z->revealed && !(q->kind == LESSON_QUIZ_CHOICE && z->verdict.why &&
                              z->verdict.why != &q->explain))
            why = "";
        if (q->kind == LESSON_QUIZ_NUMBER) {
            /* Which way it is off, not by how much: enough to think again. */
            double v = strtod(z->typed, NULL);
            bool high = v > q->number;
            if (s->lang == LESSON_ZH)
                snprintf(line, sizeof line, "（你输入的是 %s %s：%s。）", z->typed, lesson_quiz_unit(q, s->lang),
                         z->revealed ? "" : high ? "太大了" : "太小了");
            else
                snprintf(line, sizeof line, " You typed %s %s%s.", z->typed, lesson_quiz_unit(q, s->lang),
                         z->revealed ? "" : high ? ": that is too high" : ": that is too low");
            len = add(out, n, len, line);
        } else if (q->kind == LESSON_QUIZ_PREDICT_VALUE && !z->revealed) {
            len = add(out, n, add(out, n, len, sp), gui_lesson_str(s, GUI_LS_VALUE_HINT));
        } else if (q->kind == LESSON_QUIZ_PREDICT_CELLS) {
            line[0] = '\0';
            size_t l2 = 0;
            if (z->verdict.missing > 0)
                l2 += (size_t)snprintf(line, sizeof line, " %d %s%s", z->verdict.missing,
                                       gui_lesson_str(s, z->verdict.missing == 1 ? GUI_LS_CELL_MISSING
                                                                              : GUI_LS_CELLS_MISSING),
                                       z->verdict.extra > 0 ? (s->lang == LESSON_ZH ? "，" : ",")
                                                            : (s->lang == LESSON_ZH ? "。" : "."));
            if (z->verdict.extra > 0 && l2 < sizeof line)
                snprintf(line + l2, sizeof line - l2, " %d %s%s", z->verdict.extra,
                         gui_lesson_str(s, z->verdict.extra == 1 ? GUI_LS_CELL_EXTRA : GUI_LS_CELLS_EXTRA), s->lang == LESSON_ZH ? "。" : ".");
            len = add(out, n, len, line);
            if (!z->revealed && z->verdict.extra > 0)
                len = add(out, n, add(out, n, len, sp), gui_lesson_str(s, GUI_LS_CELLS_MARKED));
        }
        if (*why)
            len = add(out, n, add(out, n, len, sp), why);
        if (!z->revealed)
            len = add(out, n, add(out, n, len, sp), gui_lesson_str(s, GUI_LS_TRY_AGAIN));
    }
    if (z->revealed) {
        char words[1024];
        answer_words(s, words, sizeof words);
        len = add(out, n, len, "\n\n");
        len = add(out, n, len, gui_lesson_str(s, GUI_LS_ANSWER_IS));
        len = add(out, n, add(out, n, len, sp), words);
    }
    if (z->solved || z->revealed) {
        len = add(out, n, len, "\n\n");
        len = add(out, n, len, gui_lesson_str(s, GUI_LS_CARD));
        len = add(out, n, add(out, n, len, sp), lesson_text_get(&q->card, s->lang));
    }
}

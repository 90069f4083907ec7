/*
 * test_gui_lesson.c: lessons in the window, driven by SDL events on a
 * headless gui (software renderer, SDL_VIDEODRIVER=dummy).
 *
 * Opens the shipped course, moves through beats with Page Down / ] and
 * back with Page Up / [ (the step shown must be the beat's step), answers
 * each quiz kind right and wrong through clicks, digits, typed text and
 * picked cells (the verdict must come from the lesson engine and the first
 * attempt must land in the progress file, in a temporary XDG_DATA_HOME),
 * passes an unanswered question only at a second Page Down, marks a lesson
 * done only once its quizzes are answered and leads back to the skipped
 * ones from the menu, opens a lesson from the menu, reopens the window and
 * resumes where it
 * was, checks that every piece of text stays inside the window and the
 * narration panel, and compares three lesson frames (English, Chinese, a
 * step timeline) with golden images: COLLVIZ_UPDATE_GOLDEN=1 rewrites
 * them.
 */
#define _POSIX_C_SOURCE 200809L
#include "gui_lesson.h"
#include "test_render_util.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static lesson_course course;
static char progress_path[4096];

/* ------------------------------------------------------------- helpers */

static void key(gui *g, SDL_Keycode k) { tr_key(g, k, 0); }

/* Page Down (or ]) on; where it asks about an unanswered question, once
 * more, passing it as skipped. */
static void page(gui *g, const gui_lesson *s, SDL_Keycode k)
{
    key(g, k);
    if (s->skip_asked)
        key(g, k);
}

static void text(gui *g, const char *s)
{
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = SDL_TEXTINPUT;
    SDL_strlcpy(e.text.text, s, sizeof e.text.text); /* an event holds 31 bytes */
    gui_handle_event(g, &e);
}

static void click_rect(gui *g, SDL_Rect r) { tr_click(g, r.x + r.w / 2, r.y + r.h / 2); }

/* Plays until the beat's step is reached, drawing now and then as the
 * window would. */
static void settle(gui *g)
{
    for (int i = 0; i < 20000 && (!gui_target_reached(g) || gui_playing(g)); i++) {
        gui_tick(g, 0.05);
        if (i % 50 == 0)
            gui_render(g);
    }
    gui_render(g);
}

static int step_of(const gui *g, const lesson *l, int beat)
{
    int step = l->beats[beat].step;
    return step < gui_nsteps(g) ? step : gui_nsteps(g);
}

static int lesson_index(const char *id)
{
    int i = lesson_course_find(&course, id);
    if (i < 0) {
        fprintf(stderr, "the course has no lesson %s\n", id);
        exit(1);
    }
    return i;
}

static gui *open_gui(int w, int h)
{
    const lesson_setup *su = &course.lessons[0]->setups[0];
    gui *g = tr_gui(&su->spec, w, h, RD_THEME_DARK, CV_LANG_EN);
    return g;
}

static void attach(gui_lesson *s, gui *g, int li, int beat, lesson_lang lang)
{
    gui_lesson_opts o = {progress_path, li, beat, lang, false, NULL, false};
    char msg[256];
    if (!gui_lesson_attach(s, g, &course, &o, msg, sizeof msg)) {
        fprintf(stderr, "attach failed: %s\n", msg);
        exit(1);
    }
    settle(g);
}

/* The progress file as it is on disk now. */
static const lesson_progress_quiz *disk_quiz(lesson_progress *p, const char *key_)
{
    char msg[512];
    lesson_progress_destroy(p);
    lesson_progress_status st = lesson_progress_load(p, progress_path, msg, sizeof msg);
    TR_CHECK(st == LESSON_PROGRESS_OK, "progress file unreadable: %s", msg);
    return lesson_progress_find_quiz(p, key_);
}

static int find_beat(const lesson *l, lesson_quiz_kind kind)
{
    for (int b = 0; b < l->nbeats; b++)
        if (l->beats[b].quiz && l->beats[b].quiz->kind == kind)
            return b;
    return -1;
}

/* ------------------------------------------------------------- checks */

static void test_beats(void)
{
    gui *g = open_gui(1280, 800);
    gui_lesson s;
    int li = lesson_index("prim-broadcast");
    const lesson *l = course.lessons[li];
    attach(&s, g, li, 0, LESSON_EN);
    TR_CHECK(s.li == li && s.beat == 0, "opened at %d/%d", s.li, s.beat);
    TR_CHECK(gui_time(g) == step_of(g, l, 0), "beat 0: t %.2f, step %d", gui_time(g),
             step_of(g, l, 0));
    TR_CHECK(g->narr_kicker && strstr(g->narr_kicker, "1 / "), "kicker '%s'",
             g->narr_kicker ? g->narr_kicker : "(none)");
    for (int b = 1; b < l->nbeats; b++) {
        page(g, &s, b % 2 ? SDLK_PAGEDOWN : SDLK_RIGHTBRACKET);
        settle(g);
        TR_CHECK(s.beat == b, "after next: beat %d, want %d", s.beat, b);
        TR_CHECK(gui_time(g) == step_of(g, l, b), "beat %d: t %.2f, want step %d", b, gui_time(g),
                 step_of(g, l, b));
        TR_CHECK(strcmp(g->narr_body, lesson_text_get(&l->beats[b].text, LESSON_EN)) == 0,
                 "beat %d: the panel shows another text", b);
        const lesson_setup *su = &l->setups[l->beats[b].setup];
        TR_CHECK(gui_spec(g)->op == su->spec.op && gui_spec(g)->algo == su->spec.algo,
                 "beat %d: the stage is not the beat's setup (%s %s)", b, cv_op_name(gui_spec(g)->op),
                 cv_algo_name(gui_spec(g)->algo));
    }
    /* Back one beat shows its state at once. */
    key(g, SDLK_PAGEUP);
    TR_CHECK(s.beat == l->nbeats - 2, "page up: beat %d", s.beat);
    TR_CHECK(gui_time(g) == step_of(g, l, l->nbeats - 2) && !gui_playing(g),
             "back: t %.2f playing %d", gui_time(g), gui_playing(g));
    key(g, SDLK_LEFTBRACKET);
    TR_CHECK(s.beat == l->nbeats - 3, "[: beat %d", s.beat);
    /* Forward past the last beat: the mistake cards, then the next lesson;
     * the lesson counts as done once its quizzes are answered. */
    for (int k = 0; k < l->nquizzes; k++)
        gui_lesson_note_quiz(&s, l->quizzes[k].key, true);
    for (int b = s.beat; b < l->nbeats; b++)
        page(g, &s, SDLK_PAGEDOWN);
    settle(g);
    if (l->nmistakes > 0) {
        TR_CHECK(s.li == li && s.beat == l->nbeats, "mistake cards: at %d/%d", s.li, s.beat);
        TR_CHECK(g->narr_body && strstr(g->narr_body,
                                        lesson_text_get(&l->mistakes[0].myth, LESSON_EN)),
                 "the mistake cards are not shown");
        page(g, &s, SDLK_PAGEDOWN);
        settle(g);
    }
    TR_CHECK(s.li == li + 1 && s.beat == 0, "past the end: at %d/%d", s.li, s.beat);
    TR_CHECK(lesson_progress_done(&s.prog, l->id), "%s not marked done", l->id);
    /* Keys the window owns keep their meaning: Right steps the stage, O
     * changes the op; then the first page key brings the page's stage back. */
    double t = gui_time(g);
    key(g, SDLK_RIGHT);
    settle(g);
    TR_CHECK(gui_time(g) > t || gui_nsteps(g) == 0, "Right did not step");
    cv_op op = gui_spec(g)->op;
    key(g, SDLK_o);
    gui_render(g);
    TR_CHECK(gui_spec(g)->op != op && s.explored, "O did not change the stage");
    TR_CHECK(g->footer && strstr(g->footer, "You changed the stage"), "footer '%s'",
             g->footer ? g->footer : "");
    key(g, SDLK_PAGEDOWN);
    settle(g);
    TR_CHECK(gui_spec(g)->op == op && s.li == li + 1 && s.beat == 0 && !s.explored,
             "Page Down did not bring the page's stage back (at %d/%d)", s.li, s.beat);
    gui_lesson_detach(&s);
    gui_destroy(g);
}

static void test_choice(void)
{
    gui *g = open_gui(1280, 800);
    gui_lesson s;
    int li = lesson_index("prim-sendrecv");
    const lesson *l = course.lessons[li];
    int b = find_beat(l, LESSON_QUIZ_CHOICE);
    TR_CHECK(b >= 0, "prim-sendrecv has no choice quiz");
    if (b < 0)
        return;
    attach(&s, g, li, b, LESSON_EN);
    const lesson_quiz *q = l->beats[b].quiz;
    /* Answers are shown in a shuffled order: positions, not file indices. */
    int right = lesson_quiz_shown(q, q->answer);
    int wrong = right == 0 ? 1 : 0;
    /* Meanwhile another collviz (a drill in a terminal) writes the file:
     * the window's next save must keep what it wrote. */
    lesson_progress other;
    char msg[512];
    lesson_progress_load(&other, progress_path, msg, sizeof msg);
    lesson_progress_record_drill(&other, 3, 5, 12345);
    lesson_progress_set_done(&other, "some-other-lesson", true);
    TR_CHECK(lesson_progress_save(&other, progress_path, msg, sizeof msg) == LESSON_PROGRESS_OK, "%s", msg);
    lesson_progress_destroy(&other);
    const rd_layout *L = rd_last_layout(gui_rd(g));
    rd_frame fr;
    gui__frame(g, &fr);
    TR_CHECK(!fr.narr.next, "\"Next\" tells the answer of an open quiz: '%s'", fr.narr.next);
    TR_CHECK(L->choice[wrong].w > 0, "no answer button %d", wrong);
    click_rect(g, L->choice[wrong]);
    gui_render(g);
    TR_CHECK(!s.quiz.solved && s.quiz.wrong == 1, "wrong answer: solved %d wrong %d",
             s.quiz.solved, s.quiz.wrong);
    TR_CHECK(g->feedback_state == RD_CHOICE_WRONG, "feedback state %d", g->feedback_state);
    lesson_verdict v;
    lesson_check_choice(q, s.quiz.order[wrong], &v);
    const char *why = v.why ? lesson_text_get(v.why, LESSON_EN) : "";
    TR_CHECK(*why && g->narr_feedback && strstr(g->narr_feedback, why),
             "the explanation is not shown: '%s'", g->narr_feedback ? g->narr_feedback : "(none)");
    TR_CHECK(g->choice_state[wrong] == RD_CHOICE_WRONG, "button %d not marked wrong", wrong);
    lesson_progress disk;
    lesson_progress_init(&disk);
    const lesson_progress_quiz *pq = disk_quiz(&disk, q->key);
    TR_CHECK(pq && pq->tries == 1 && pq->right == 0 && !pq->last, "after a wrong answer: %d/%d",
             pq ? pq->right : -1, pq ? pq->tries : -1);
    TR_CHECK(disk.drill.runs == 1 && disk.drill.best == 3 &&
                 lesson_progress_done(&disk, "some-other-lesson"),
             "the window's save dropped what another collviz wrote");
    /* The right answer now: the card shows, the score keeps the first try. */
    click_rect(g, L->choice[right]);
    gui_render(g);
    TR_CHECK(s.quiz.solved, "right answer not taken");
    gui__frame(g, &fr);
    TR_CHECK(fr.narr.next || gui_time(g) >= gui_nsteps(g), "no \"Next\" once the quiz is answered");
    TR_CHECK(g->narr_feedback && strstr(g->narr_feedback, lesson_text_get(&q->card, LESSON_EN)),
             "the card is not shown after the right answer");
    pq = disk_quiz(&disk, q->key);
    TR_CHECK(pq && pq->tries == 1 && pq->right == 0, "second try counted: %d/%d",
             pq ? pq->right : -1, pq ? pq->tries : -1);
    /* A new visit: right at once with the keyboard (digit, then Enter). */
    key(g, SDLK_PAGEUP);
    page(g, &s, SDLK_PAGEDOWN);
    settle(g);
    key(g, (SDL_Keycode)(SDLK_1 + right));
    TR_CHECK(!s.quiz.solved && s.quiz.selected == right, "digit did not select");
    key(g, SDLK_RETURN);
    TR_CHECK(s.quiz.solved, "Enter did not answer");
    pq = disk_quiz(&disk, q->key);
    TR_CHECK(pq && pq->tries == 2 && pq->right == 1 && pq->last, "after a right answer: %d/%d",
             pq ? pq->right : -1, pq ? pq->tries : -1);
    /* Two misses show the answer. */
    if (q->nchoices >= 3) {
        key(g, SDLK_PAGEUP);
        page(g, &s, SDLK_PAGEDOWN);
        int w2 = 0;
        for (int i = 0; i < 2; i++) {
            while (w2 == right)
                w2++;
            gui_lesson_quiz_choice(&s, w2++);
        }
        gui_render(g);
        TR_CHECK(s.quiz.revealed && g->choice_state[right] == RD_CHOICE_RIGHT,
                 "two misses did not reveal the answer");
        TR_CHECK(g->narr_feedback && strstr(g->narr_feedback, "The answer:"),
                 "no answer line after two misses");
    }
    lesson_progress_destroy(&disk);
    gui_lesson_detach(&s);
    gui_destroy(g);
}

static void test_number_and_value(void)
{
    gui *g = open_gui(1280, 800);
    gui_lesson s;
    int li = lesson_index("prim-sendrecv");
    const lesson *l = course.lessons[li];
    int b = find_beat(l, LESSON_QUIZ_NUMBER);
    TR_CHECK(b >= 0, "prim-sendrecv has no number quiz");
    if (b < 0)
        return;
    attach(&s, g, li, b, LESSON_EN);
    const lesson_quiz *q = l->beats[b].quiz;
    TR_CHECK(g->narr_input && g->narr_unit && strcmp(g->narr_unit, q->unit) == 0,
             "no typed-answer field with the unit");
    key(g, SDLK_RETURN);
    TR_CHECK(strstr(g->narr_feedback ? g->narr_feedback : "", "Type a number"),
             "Enter on an empty field: '%s'", g->narr_feedback ? g->narr_feedback : "");
    TR_CHECK(s.quiz.wrong == 0 && !s.quiz.recorded, "an empty field counted as an answer");
    char buf[64];
    snprintf(buf, sizeof buf, "%.6g", q->number * 3 + 1);
    text(g, buf);
    TR_CHECK(strcmp(s.quiz.input, buf) == 0, "typed '%s', field '%s'", buf, s.quiz.input);
    key(g, SDLK_RETURN);
    TR_CHECK(s.quiz.wrong == 1 && g->feedback_state == RD_CHOICE_WRONG, "a wrong number passed");
    for (size_t i = 0; i < strlen(buf); i++)
        key(g, SDLK_BACKSPACE);
    TR_CHECK(s.quiz.input[0] == '\0', "backspace left '%s'", s.quiz.input);
    snprintf(buf, sizeof buf, "%.6g", q->number);
    text(g, "x"); /* not a digit: ignored */
    text(g, buf);
    key(g, SDLK_KP_ENTER);
    TR_CHECK(s.quiz.solved, "the right number (%s) was not taken", buf);
    /* predict-value: the options as buttons, checked against the trace. */
    b = find_beat(l, LESSON_QUIZ_PREDICT_VALUE);
    if (b >= 0) {
        gui_lesson_go(&s, li, b, GUI_LESSON_JUMP);
        settle(g);
        q = l->beats[b].quiz;
        TR_CHECK(g->nchoices == q->noptions, "%d buttons for %d options", g->nchoices, q->noptions);
        click_rect(g, rd_last_layout(gui_rd(g))->choice[lesson_quiz_shown(q, q->answer)]);
        TR_CHECK(s.quiz.solved, "the traced value was not taken");
    }
    gui_lesson_detach(&s);
    gui_destroy(g);
}

/* The centre of cell (rank, buf, index) on the stage, or false. */
static bool cell_point(gui *g, int rank, cv_buf buf, int64_t index, int *x, int *y)
{
    const rd_layout *L = rd_last_layout(gui_rd(g));
    const rd_card_layout *cl = &L->panels[0].cards[rank];
    if (cl->cells[buf] <= 0 || cl->group[buf] != 1 || cl->part[buf] > 0)
        return false;
    SDL_Rect r = rd_cell_rect(cl, buf, rd_cell_of(cl, buf, index));
    *x = r.x + r.w / 2;
    *y = r.y + r.h / 2;
    return true;
}

/* A drawn cell that stands for several elements (a window too small for
 * the stage) is picked as a whole, and the learner is told why. */
static void test_cells_grouped(void)
{
    gui *g = open_gui(1280, 800);
    gui_lesson s;
    int li = lesson_index("prim-sendrecv");
    int b = find_beat(course.lessons[li], LESSON_QUIZ_PREDICT_CELLS);
    if (b < 0)
        return; /* test_cells says so */
    attach(&s, g, li, b, LESSON_EN);
    rd_hit one = {.kind = RD_HIT_CELL, .panel = 0, .rank = 2, .buf = CV_BUF_RECV, .first = 1, .count = 1};
    rd_hit four = one;
    four.first = 0;
    four.count = 4;
    gui_lesson_quiz_cell(&s, &one);
    TR_CHECK(s.quiz.npicks == 1 && !gui_current_message(g), "one element: %d picks", s.quiz.npicks);
    gui_lesson_quiz_cell(&s, &four); /* partly picked: all four now */
    TR_CHECK(s.quiz.npicks == 4, "a grouped cell over a picked element left %d picks", s.quiz.npicks);
    TR_CHECK(gui_current_message(g) && strstr(gui_current_message(g), "larger window"),
             "no word about grouped cells: '%s'", gui_current_message(g) ? gui_current_message(g) : "");
    gui_lesson_quiz_cell(&s, &four); /* all picked: none now */
    TR_CHECK(s.quiz.npicks == 0, "unpicking a grouped cell left %d picks", s.quiz.npicks);
    /* A click on a row's name picks the whole row, quietly. */
    gui_message(g, NULL, 0);
    gui_render(g);
    const rd_card_layout *cl = &rd_last_layout(gui_rd(g))->panels[0].cards[2];
    SDL_Rect lab = cl->label[CV_BUF_RECV];
    rd_hit row = gui__hit(g, lab.x + 2, lab.y + 2);
    TR_CHECK(row.kind == RD_HIT_ROW && row.rank == 2 && row.buf == CV_BUF_RECV &&
                 row.count == cl->count[CV_BUF_RECV],
             "a click on 'recv' hits %d (rank %d buf %d count %lld)", row.kind, row.rank, row.buf,
             (long long)row.count);
    tr_click(g, lab.x + 2, lab.y + 2);
    TR_CHECK(s.quiz.npicks == (int)cl->count[CV_BUF_RECV] && !gui_current_message(g),
             "the row picked %d cells", s.quiz.npicks);
    gui_lesson_detach(&s);
    gui_destroy(g);
}

static void test_cells(void)
{
    gui *g = open_gui(1280, 800);
    gui_lesson s;
    int li = lesson_index("prim-sendrecv");
    const lesson *l = course.lessons[li];
    int b = find_beat(l, LESSON_QUIZ_PREDICT_CELLS);
    TR_CHECK(b >= 0, "prim-sendrecv has no predict-cells quiz");
    if (b < 0)
        return;
    attach(&s, g, li, b, LESSON_EN);
    const lesson_quiz *q = l->beats[b].quiz;
    /* One cell of the answer, and one that is not written. */
    int x, y;
    const lesson_chunk *c0 = &q->cells[0];
    TR_CHECK(cell_point(g, c0->rank, c0->buf, c0->first, &x, &y), "cell not on the stage");
    tr_click(g, x, y);
    TR_CHECK(s.quiz.npicks == 1 && g->npicks == 1, "a click picked %d cells", s.quiz.npicks);
    TR_CHECK(cell_point(g, c0->rank, CV_BUF_SEND, 0, &x, &y), "send cell not on the stage");
    tr_click(g, x, y);
    key(g, SDLK_RETURN);
    TR_CHECK(!s.quiz.solved && s.quiz.verdict.extra == 1 && s.quiz.verdict.missing > 0,
             "verdict extra %d missing %d", s.quiz.verdict.extra, s.quiz.verdict.missing);
    TR_CHECK(g->narr_feedback && strstr(g->narr_feedback, " 1 picked cell the step does not write."),
             "the verdict does not count the cells: '%s'", g->narr_feedback ? g->narr_feedback : "");
    /* The wrong pick is marked on the stage; the quiz's explanation (the
     * answer) is not given yet. */
    TR_CHECK(g->nwrong == 1 && g->wrong[0].buf == CV_BUF_SEND, "wrong picks marked: %d", g->nwrong);
    if (lesson_text_present(&q->explain))
        TR_CHECK(!strstr(g->narr_feedback, lesson_text_get(&q->explain, LESSON_EN)),
                 "a first wrong answer gives the explanation away");
    tr_click(g, x, y); /* unpick the send cell */
    TR_CHECK(s.quiz.npicks == 1, "unpicking left %d", s.quiz.npicks);
    for (int i = 0; i < q->ncells; i++)
        for (int64_t e = q->cells[i].first; e < q->cells[i].first + q->cells[i].count; e++) {
            if (i == 0 && e == c0->first)
                continue;
            if (cell_point(g, q->cells[i].rank, q->cells[i].buf, e, &x, &y))
                tr_click(g, x, y);
        }
    /* The Check button does what Enter does; then the step plays. */
    double t0 = gui_time(g);
    click_rect(g, rd_last_layout(gui_rd(g))->choice[0]);
    TR_CHECK(s.quiz.solved, "the written cells were not taken (%d picked, missing %d, extra %d)",
             s.quiz.npicks, s.quiz.verdict.missing, s.quiz.verdict.extra);
    TR_CHECK(gui_playing(g), "the step does not play after the right answer");
    settle(g);
    TR_CHECK(gui_time(g) > t0, "the stage did not move on: t %g", gui_time(g));
    lesson_progress disk;
    lesson_progress_init(&disk);
    const lesson_progress_quiz *pq = disk_quiz(&disk, q->key);
    TR_CHECK(pq && pq->tries == 1 && pq->right == 0, "cells score %d/%d", pq ? pq->right : -1,
             pq ? pq->tries : -1);
    lesson_progress_destroy(&disk);
    gui_lesson_detach(&s);
    gui_destroy(g);
}

/* A lesson is done only when its quizzes were answered: Page Down past an
 * unanswered question asks once, then passes it as skipped; the menu
 * leads back to the first skipped one, and once all are answered the end
 * of the lesson marks it done. */
static void test_done_when_answered(void)
{
    gui *g = open_gui(1280, 800);
    gui_lesson s;
    int li = lesson_index("prim-broadcast");
    const lesson *l = course.lessons[li];
    /* a fresh progress, in memory */
    gui_lesson_opts o = {"", li, 0, LESSON_EN, false, NULL, false};
    char msg[256];
    TR_CHECK(gui_lesson_attach(&s, g, &course, &o, msg, sizeof msg), "attach: %s", msg);
    settle(g);
    TR_CHECK(l->nquizzes > 0, "%s asks nothing", l->id);
    int qb = l->nquizzes > 0 ? l->quizzes[0].beat : 0;
    for (int guard = 0; s.li == li && s.beat < qb && guard < 64; guard++)
        key(g, SDLK_PAGEDOWN);
    TR_CHECK(s.beat == qb && s.quiz.q == &l->quizzes[0], "at beat %d, want the first quiz's %d",
             s.beat, qb);
    key(g, SDLK_PAGEDOWN);
    TR_CHECK(s.li == li && s.beat == qb && s.skip_asked == s.quiz.q,
             "Page Down past an unanswered question did not ask (at %d/%d)", s.li, s.beat);
    key(g, SDLK_PAGEDOWN);
    TR_CHECK(s.li == li && s.beat == qb + 1 && !s.skip_asked,
             "the second Page Down did not pass it (at %d/%d)", s.li, s.beat);
    for (int guard = 0; s.li == li && guard < 64; guard++)
        page(g, &s, SDLK_PAGEDOWN);
    TR_CHECK(s.li == li + 1, "did not reach the next lesson: at %d/%d", s.li, s.beat);
    TR_CHECK(!lesson_progress_done(&s.prog, l->id), "%s done with its quizzes skipped", l->id);
    int first = -2, n = gui_lesson_skipped(&s, l, &first);
    TR_CHECK(n == l->nquizzes && first == qb, "skipped %d of %d, the first at beat %d", n,
             l->nquizzes, first);
    /* The menu's way back: Enter on the lesson opens its first skipped
     * question. */
    key(g, SDLK_TAB);
    s.menu.sel = li;
    gui_render(g);
    key(g, SDLK_RETURN);
    settle(g);
    TR_CHECK(s.li == li && s.beat == qb && !s.menu.open,
             "the menu led to %d/%d, not the skipped %d/%d", s.li, s.beat, li, qb);
    /* Answered (as a right answer records them), the lesson's end marks it done. */
    for (int k = 0; k < l->nquizzes; k++)
        gui_lesson_note_quiz(&s, l->quizzes[k].key, k % 2 == 0);
    TR_CHECK(gui_lesson_skipped(&s, l, &first) == 0, "still skipped after answering");
    for (int guard = 0; s.li == li && guard < 64; guard++)
        key(g, SDLK_PAGEDOWN);
    TR_CHECK(s.li == li + 1 && lesson_progress_done(&s.prog, l->id),
             "%s not done once answered (at %d/%d)", l->id, s.li, s.beat);
    gui_lesson_detach(&s);
    gui_destroy(g);
}

static void test_menu_and_resume(void)
{
    gui *g = open_gui(1280, 800);
    gui_lesson s;
    attach(&s, g, 0, 0, LESSON_EN);
    key(g, SDLK_TAB);
    TR_CHECK(s.menu.open, "Tab did not open the menu");
    gui_render(g);
    key(g, SDLK_DOWN);
    key(g, SDLK_DOWN);
    key(g, SDLK_o); /* swallowed: the stage behind the menu must not change */
    TR_CHECK(gui_spec(g)->op == course.lessons[0]->setups[0].spec.op, "O went through the menu");
    key(g, SDLK_RETURN);
    TR_CHECK(!s.menu.open && s.li == 2 && s.beat == 0, "menu opened %d/%d", s.li, s.beat);
    /* A click on a row opens that lesson. */
    key(g, SDLK_F2);
    gui_render(g);
    TR_CHECK(s.menu.nrows > 5, "the menu drew %d rows", s.menu.nrows);
    /* Every title whole ("... PAT, copy engines" was cut to "copy engi…"). */
    TR_CHECK(s.menu.cut == 0, "the menu cut %d titles at 1280x800", s.menu.cut);
    int target = s.menu.row_lesson[5];
    click_rect(g, s.menu.row_rect[5]);
    TR_CHECK(s.li == target && !s.menu.open, "clicked row 5 (%d), at %d", target, s.li);
    page(g, &s, SDLK_PAGEDOWN);
    page(g, &s, SDLK_PAGEDOWN);
    settle(g);
    int li = s.li, beat = s.beat;
    key(g, SDLK_l);
    gui_render(g);
    TR_CHECK(s.lang == LESSON_ZH && strcmp(g->narr_title, lesson_text_get(&course.lessons[li]->title,
                                                                          LESSON_ZH)) == 0,
             "L did not switch the lesson to Chinese");
    gui_lesson_detach(&s);
    gui_destroy(g);
    /* Reopen: the progress file says where to resume, and in which language. */
    lesson_progress p;
    char msg[512];
    lesson_progress_load(&p, progress_path, msg, sizeof msg);
    int rb = -1;
    int ri = lesson_course_resume(&course, &p, &rb);
    TR_CHECK(ri == li && rb == beat, "resume at %d/%d, was at %d/%d", ri, rb, li, beat);
    TR_CHECK(strcmp(p.lang, "zh") == 0, "language saved as '%s'", p.lang);
    g = open_gui(1280, 800);
    attach(&s, g, ri, rb, (lesson_lang)lesson_lang_parse(p.lang));
    TR_CHECK(s.li == li && s.beat == beat && s.lang == LESSON_ZH, "reopened at %d/%d", s.li,
             s.beat);
    TR_CHECK(gui_time(g) == step_of(g, course.lessons[li], beat), "reopened at t %.2f",
             gui_time(g));
    lesson_progress_destroy(&p);
    gui_lesson_detach(&s);
    gui_destroy(g);
}

/* Every text box inside the window, the panel's inside the panel, and
 * the panel's texts apart from each other. */
static void check_layout(gui *g, const char *what)
{
    rd_ctx *rd = gui_rd(g);
    rd_debug_boxes(rd, true);
    gui_render(g);
    const rd_box *bx;
    int n = rd_boxes(rd, &bx);
    const rd_layout *L = rd_last_layout(rd);
    SDL_Rect win = {0, 0, L->w, L->h};
    int before = tr_failures;
    for (int i = 0; i < n && tr_failures - before < 3; i++) {
        SDL_Rect r = bx[i].r;
        SDL_Rect u;
        TR_CHECK(SDL_IntersectRect(&r, &win, &u) && u.w == r.w && u.h == r.h,
                 "%s: '%s' leaves the window", what, bx[i].text);
        if (!SDL_HasIntersection(&r, &L->narration) || bx[i].layer != 0)
            continue;
        TR_CHECK(SDL_IntersectRect(&r, &L->narration, &u) && u.w == r.w && u.h == r.h,
                 "%s: '%s' (%d,%d %dx%d) sticks out of the narration", what, bx[i].text, r.x, r.y,
                 r.w, r.h);
        for (int j = i + 1; j < n; j++) {
            SDL_Rect o = bx[j].r;
            if (bx[j].layer != 0 || bx[j].kind != 0 || bx[i].kind != 0 ||
                !SDL_HasIntersection(&o, &L->narration))
                continue;
            bool over = r.x + 1 < o.x + o.w && o.x + 1 < r.x + r.w && r.y + 1 < o.y + o.h &&
                        o.y + 1 < r.y + r.h;
            TR_CHECK(!over, "%s: '%s' overlaps '%s'", what, bx[i].text, bx[j].text);
        }
    }
    rd_debug_boxes(rd, false);
}

static void test_layout(void)
{
    static const int sizes[][2] = {{800, 600}, {1280, 800}, {1920, 1080}};
    static const char *const ids[] = {"prim-sendrecv", "par-tp", "par-3d", "algo-nccl-choice"};
    for (size_t z = 0; z < sizeof sizes / sizeof *sizes; z++) {
        gui *g = open_gui(sizes[z][0], sizes[z][1]);
        gui_lesson s;
        attach(&s, g, 0, 0, LESSON_EN);
        for (size_t k = 0; k < sizeof ids / sizeof *ids; k++) {
            int li = lesson_course_find(&course, ids[k]);
            if (li < 0)
                continue;
            const lesson *l = course.lessons[li];
            for (int lang = 0; lang < LESSON_LANG_COUNT; lang++)
                for (int b = 0; b <= l->nbeats; b++) {
                    gui_set_lang(g, (cv_lang)lang);
                    gui_lesson_go(&s, li, b, GUI_LESSON_BACK);
                    /* With the verdict open too, where the text is longest. */
                    if (s.quiz.q && s.quiz.q->kind != LESSON_QUIZ_NUMBER &&
                        s.quiz.q->kind != LESSON_QUIZ_PREDICT_CELLS) {
                        int r = lesson_quiz_shown(s.quiz.q, s.quiz.q->answer);
                        gui_lesson_quiz_choice(&s, r == 0 ? 1 : 0);
                        gui_lesson_quiz_choice(&s, r == 1 ? 2 : 1);
                    }
                    char what[128];
                    snprintf(what, sizeof what, "%s beat %d %s %dx%d", ids[k], b,
                             lang ? "zh" : "en", sizes[z][0], sizes[z][1]);
                    check_layout(g, what);
                }
        }
        key(g, SDLK_TAB);
        check_layout(g, "menu");
        gui_lesson_detach(&s);
        gui_destroy(g);
    }
}

/* s without backticks (the narration draws `code` without them). */
static void unquote(const char *s, char *out, size_t n)
{
    size_t k = 0;
    for (; *s && k + 1 < n; s++)
        if (*s != '`')
            out[k++] = *s;
    out[k] = '\0';
}

/* The projector theme's large type makes many beats longer than the
 * narration panel on a 1024x768 projector: the question of every quiz must
 * still be on screen, not scrolled below the fold. */
static void test_question_in_view(void)
{
    gui *g = open_gui(1024, 768);
    gui_set_theme(g, RD_THEME_PROJECTOR);
    gui_lesson s;
    attach(&s, g, 0, 0, LESSON_EN);
    rd_ctx *rd = gui_rd(g);
    int checked = 0, before = tr_failures;
    for (int li = 0; li < course.nlessons && tr_failures - before < 5; li++) {
        const lesson *l = course.lessons[li];
        for (int b = 0; b < l->nbeats; b++) {
            if (!l->beats[b].quiz)
                continue;
            for (int lang = 0; lang < LESSON_LANG_COUNT; lang++) {
                gui_set_lang(g, (cv_lang)lang);
                gui_lesson_go(&s, li, b, GUI_LESSON_BACK);
                gui_set_theme(g, RD_THEME_PROJECTOR);
                char prompt[1024];
                unquote(lesson_text_get(&l->beats[b].quiz->prompt, (lesson_lang)lang), prompt,
                        sizeof prompt);
                rd_debug_boxes(rd, true);
                gui_render(g);
                const rd_box *bx;
                int n = rd_boxes(rd, &bx);
                const rd_layout *L = rd_last_layout(rd);
                bool seen = false;
                for (int i = 0; i < n && !seen; i++) {
                    char t[512];
                    unquote(bx[i].text, t, sizeof t);
                    seen = t[0] && strncmp(prompt, t, strlen(t)) == 0 && strlen(t) > 3 &&
                           SDL_HasIntersection(&bx[i].r, &L->narration);
                }
                rd_debug_boxes(rd, false);
                TR_CHECK(seen, "%s beat %d (%s): the question '%.40s...' is not on screen at "
                               "1024x768 in the projector theme",
                         l->id, b + 1, lang ? "zh" : "en", prompt);
                checked++;
            }
        }
    }
    TR_CHECK(checked > 100, "only %d questions checked", checked);
    gui_lesson_detach(&s);
    gui_destroy(g);
}

/* ------------------------------------------------------------ goldens */

static int golden(gui *g, const char *name)
{
    SDL_Surface *frame = tr_capture(g);
    int fail = tr_golden(frame, name);
    SDL_FreeSurface(frame);
    return fail;
}

static void test_goldens(void)
{
    gui *g = open_gui(1024, 640);
    gui_lesson s;
    int li = lesson_index("prim-sendrecv");
    int b = find_beat(course.lessons[li], LESSON_QUIZ_CHOICE);
    attach(&s, g, li, b, LESSON_EN);
    /* a wrong answer, explained */
    gui_lesson_quiz_choice(&s, lesson_quiz_shown(s.quiz.q, s.quiz.q->answer) == 0 ? 1 : 0);
    TR_CHECK(!golden(g, "lesson_choice_wrong_en"), "the frame differs from its golden image");
    gui_lesson_detach(&s);
    gui_destroy(g);
    g = open_gui(1024, 640);
    li = lesson_index("par-tp");
    attach(&s, g, li, 0, LESSON_ZH);
    TR_CHECK(!golden(g, "lesson_diagram_zh"), "the frame differs from its golden image");
    gui_lesson_detach(&s);
    gui_destroy(g);
    /* DDP's buckets on the step timeline under the stage, the cursor held
     * at the end of its sweep */
    g = open_gui(1024, 640);
    li = lesson_index("par-dp-ddp");
    attach(&s, g, li, 4, LESSON_EN);
    gui_tick(g, 10);
    gui_render(g);
    TR_CHECK(!golden(g, "lesson_timeline_en"), "the frame differs from its golden image");
    gui_lesson_detach(&s);
    gui_destroy(g);
}

/* The first launch starts with how to read the stage, then the lesson;
 * resuming after a finished lesson opens the next. */
static void test_intro_and_next(void)
{
    gui *g = open_gui(1280, 800);
    gui_lesson s;
    gui_lesson_opts o = {"", 0, 0, LESSON_EN, false, NULL, true};
    char msg[256];
    TR_CHECK(gui_lesson_attach(&s, g, &course, &o, msg, sizeof msg), "attach: %s", msg);
    TR_CHECK(s.intro && g->narr_title && strcmp(g->narr_title, "How to read the stage") == 0,
             "the first launch does not explain the stage: '%s'", g->narr_title ? g->narr_title : "");
    TR_CHECK(g->nchoices == 0, "a quiz on the welcome page");
    key(g, SDLK_PAGEUP); /* nothing before it */
    TR_CHECK(s.intro, "PgUp left the welcome page");
    key(g, SDLK_PAGEDOWN);
    TR_CHECK(!s.intro && s.li == 0 && s.beat == 0, "PgDn: intro %d at %d/%d", s.intro, s.li, s.beat);
    TR_CHECK(g->narr_title && strcmp(g->narr_title, lesson_text_get(&course.lessons[0]->title,
                                                                    LESSON_EN)) == 0,
             "after the welcome page: '%s'", g->narr_title ? g->narr_title : "");
    gui_lesson_detach(&s);
    gui_destroy(g);

    lesson_progress p;
    lesson_progress_init(&p);
    const lesson *l0 = course.lessons[0];
    lesson_progress_set_current(&p, l0->id, l0->nbeats - 1);
    int beat = -1;
    TR_CHECK(gui_lesson_resume(&course, &p, &beat) == 0 && beat == l0->nbeats - 1,
             "an unfinished lesson does not resume where it was left");
    lesson_progress_set_done(&p, l0->id, true);
    TR_CHECK(gui_lesson_resume(&course, &p, &beat) == 1 && beat == 0,
             "resuming after the last page of a finished lesson does not open the next");
    lesson_progress_destroy(&p);
}

static const test_case cases[] = {
    CASE("intro-and-next", test_intro_and_next),
    CASE("beats", test_beats),
    CASE("choice", test_choice),
    CASE("number-and-value", test_number_and_value),
    CASE("cells", test_cells),
    CASE("cells-grouped", test_cells_grouped),
    CASE("menu-and-resume", test_menu_and_resume),
    CASE("done-when-answered", test_done_when_answered),
    CASE("layout", test_layout),
    CASE("question-in-view", test_question_in_view),
    CASE("goldens", test_goldens),
};

int main(int argc, char **argv)
{
    cases_args(argc, argv, cases, CASES_COUNT(cases));
    tr_require_fonts();
    /* A progress file of its own for each process: the cases may run side
     * by side. */
    char dir[] = "/tmp/collviz-gui-lesson-XXXXXX";
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    setenv("XDG_DATA_HOME", dir, 1);
    if (!lesson_progress_default_path(progress_path, sizeof progress_path)) {
        fprintf(stderr, "no progress path\n");
        return 1;
    }
    lesson_course_init(&course);
    lesson_diags diags;
    lesson_diags_init(&diags);
    const char *paths[1] = {COLLVIZ_SOURCE_DIR "/lessons"};
    lesson_course_load(&course, paths, 1, 0, &diags);
    lesson_diags_print(&diags, stderr);
    if (course.nlessons < 4) {
        fprintf(stderr, "the course did not load (%d lessons)\n", course.nlessons);
        return 1;
    }
    cases_run();
    lesson_diags_destroy(&diags);
    lesson_course_destroy(&course);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    SDL_Quit();
    return cases_end();
}

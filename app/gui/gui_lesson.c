/*
 * gui_lesson.c: a lesson in the window: beats, the stage, the narration
 * panel and progress.
 *
 * Each beat names a setup and a step. Moving to a beat sets the stage to
 * that setup (re-planned and re-run on the CPU backend through gui_set_run,
 * the path every other stage change takes) only when the stage does not
 * already show it, then plays up to the beat's step and waits: forward one
 * beat plays on from where the stage is, back one beat shows the state at
 * once, and a jump (menu, resume, deep link) plays just the step that leads
 * to the beat. Past the last beat come the lesson's mistake cards, then the
 * next lesson.
 *
 * The progress file is written on every beat change, every first answer,
 * a change of language or theme, and on detach, so quitting or a crash
 * never costs more than the page the learner was reading.
 */
#define _POSIX_C_SOURCE 200809L
#include "gui_lesson.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gui_cmds.h"
#include "gui_internal.h" /* the window's loop settings: screenshots, frame limit */
#include "lesson_cmd.h"

static const char *const strings[GUI_LS_COUNT_][2] = {
    /* The CJK font draws the triangles tiny: arrows there. */
    [GUI_LS_NEXT] = {"Next \xE2\x96\xB6", "下一页 \xE2\x86\x92"},
    [GUI_LS_BACK] = {"\xE2\x97\x80 Back", "\xE2\x86\x90 上一页"},
    [GUI_LS_MENU] = {"Lessons", "课程"},
    [GUI_LS_MISTAKES] = {"Common mistakes", "常见误区"},
    [GUI_LS_MYTH] = {"Myth:", "误区："},
    [GUI_LS_TRUTH] = {"In fact:", "事实："},
    [GUI_LS_RIGHT] = {"Right.", "正确。"},
    [GUI_LS_NOT_QUITE] = {"Not quite.", "不对。"},
    [GUI_LS_ANSWER_IS] = {"The answer:", "答案："},
    [GUI_LS_CARD] = {"Standard answer:", "标准答案："},
    [GUI_LS_HINT_CHOICE] = {"Click an answer, or press its number, then Enter",
                            "点击答案，或按它的数字键再按 Enter"},
    [GUI_LS_HINT_NUMBER] = {"Type the number, then Enter", "输入数值，然后按 Enter"},
    [GUI_LS_HINT_CELLS] = {"Click the cells the next step writes (Shift+click: a whole chunk; "
                           "a row's name: the whole row), then Enter",
                           "点击下一步会写入的格子（Shift+点击：整个数据块；点行名：整行），然后按 Enter"},
    [GUI_LS_HINT_NAV] = {"PgDn or ] next  \xC2\xB7  PgUp or [ back  \xC2\xB7  Tab lessons  \xC2\xB7  H keys",
                         "PgDn 或 ] 下一页 \xC2\xB7 PgUp 或 [ 上一页 \xC2\xB7 Tab 课程 \xC2\xB7 H 按键"},
    [GUI_LS_HINT_END] = {"PgDn or ] goes on to the next lesson", "PgDn 或 ] 进入下一课"},
    [GUI_LS_CHECK] = {"Check (Enter)", "检查 (Enter)"},
    [GUI_LS_CLEAR] = {"Clear the picks", "清除所选"},
    [GUI_LS_TYPE_FIRST] = {"Type a number first.", "请先输入一个数。"},
    [GUI_LS_NOT_A_NUMBER] = {"That is not a number: digits, one point and an exponent (1.5e3) only.",
                             "这不是一个数：只能有数字、一个小数点和指数（如 1.5e3）。"},
    [GUI_LS_CELLS_MISSING] = {"written cells not picked", "个会被写入的格子没选"},
    [GUI_LS_CELLS_EXTRA] = {"picked cells the step does not write", "个所选格子这一步不会写入"},
    [GUI_LS_CELL_MISSING] = {"written cell not picked", "个会被写入的格子没选"},
    [GUI_LS_CELL_EXTRA] = {"picked cell the step does not write", "个所选格子这一步不会写入"},
    [GUI_LS_CELLS_SHOWN] = {"The cells the step writes are now outlined on the stage.",
                            "这一步写入的格子已在演示区上标出。"},
    [GUI_LS_EXPLORED] = {"You changed the stage: PgUp or PgDn brings this page's back",
                         "演示区已被改动：按 PgUp 或 PgDn 恢复本页的设置"},
    [GUI_LS_COURSE_DONE] = {"That was the last lesson of the course: Tab lists them all",
                            "这是课程的最后一课：按 Tab 查看全部课程"},
    [GUI_LS_MENU_TITLE] = {"Lessons", "课程"},
    [GUI_LS_MENU_HINT] = {"\xE2\x86\x91 \xE2\x86\x93 choose  \xC2\xB7  Enter open  \xC2\xB7  Esc close",
                          "\xE2\x86\x91 \xE2\x86\x93 选择 \xC2\xB7 Enter 打开 \xC2\xB7 Esc 关闭"},
    [GUI_LS_PICKS] = {"picked", "已选"},
    [GUI_LS_STAGE_ONLY] = {"Pick cells on the lesson's own stage: PgUp or PgDn brings it back",
                           "请在课程自己的演示区上选格子：按 PgUp 或 PgDn 恢复"},
    [GUI_LS_GROUPED] = {"Each drawn cell here stands for several elements; a larger window "
                        "shows them one by one",
                        "这里每个格子代表多个元素；把窗口放大即可逐个选择"},
    [GUI_LS_TRY_AGAIN] = {"Try again.", "再试一次。"},
    [GUI_LS_VALUE_HINT] = {"Look at which chunk arrives in that cell, and what the cell held before.",
                           "看看哪个数据块会到达这个格子，以及格子原来存的是什么。"},
    [GUI_LS_CELLS_MARKED] = {"The picks the step does not write are marked on the stage.",
                             "这一步不会写入的所选格子已在演示区上标出。"},
    [GUI_LS_SKIP_ASK] = {"This question is not answered yet: PgDn again skips it (the lesson menu keeps it "
                         "for later, and the lesson is done once it is answered)",
                         "这道题还没有作答：再按 PgDn 跳过（课程菜单会记着它，答完后这一课才算完成）"},
    [GUI_LS_SKIPPED] = {"skipped: Enter opens the first of them", "道题跳过了：按 Enter 打开第一道"},
};

const char *gui_lesson_str(const gui_lesson *s, gui_lesson_string id)
{
    return (unsigned)id < GUI_LS_COUNT_ ? strings[id][s->lang == LESSON_ZH] : "";
}

const lesson *gui_lesson_current(const gui_lesson *s) { return s->course->lessons[s->li]; }

/* The last page of a lesson: its last beat, or the mistake cards after it. */
static int last_page(const lesson *l) { return l->nbeats - (l->nmistakes > 0 ? 0 : 1); }

static bool spec_equal(const cv_spec *a, const cv_spec *b)
{
    return a->op == b->op && a->algo == b->algo && a->ranks == b->ranks && a->count == b->count &&
           a->dtype == b->dtype && a->redop == b->redop && a->root == b->root &&
           a->slices == b->slices;
}

static bool stage_is_lesson(const gui_lesson *s)
{
    return s->staged && spec_equal(gui_spec(s->g), &s->stage_spec) && !gui_compare(s->g) &&
           gui_backend(s->g) == cv_cpu_backend() && gui_trace(s->g, 0);
}

static void copy_label(char *out, size_t n, const char *s);

/* ------------------------------------------------------------- progress */

void gui_lesson_note_quiz(gui_lesson *s, const char *key, bool correct)
{
    lesson_progress_record_quiz(&s->prog, key, correct);
    /* When the list is full the attempt still counts in memory and is
     * written if the file cannot be merged; it is saved right after anyway. */
    if (s->npending_quiz < (int)(sizeof s->pending_quiz / sizeof *s->pending_quiz)) {
        s->pending_quiz[s->npending_quiz].key = key;
        s->pending_quiz[s->npending_quiz++].correct = correct;
    }
}

void gui_lesson_note_skipped(gui_lesson *s, const char *key)
{
    lesson_progress_note_skipped(&s->prog, key);
    if (s->npending_skip < (int)(sizeof s->pending_skip / sizeof *s->pending_skip))
        s->pending_skip[s->npending_skip++] = key;
}

static bool quiz_answered(const gui_lesson *s, const lesson_quiz *q)
{
    const lesson_progress_quiz *pq = lesson_progress_find_quiz(&s->prog, q->key);
    return pq && pq->tries > 0;
}

int gui_lesson_skipped(const gui_lesson *s, const lesson *l, int *first_beat)
{
    int n = 0;
    *first_beat = -1;
    for (int k = 0; k < l->nquizzes; k++) {
        const lesson_progress_quiz *pq = lesson_progress_find_quiz(&s->prog, l->quizzes[k].key);
        if (pq && pq->tries == 0) {
            if (n++ == 0)
                *first_beat = l->quizzes[k].beat;
        }
    }
    return n;
}

/* Every quiz of l answered at least once: only then is it done. */
static bool all_answered(const gui_lesson *s, const lesson *l)
{
    for (int k = 0; k < l->nquizzes; k++)
        if (!quiz_answered(s, &l->quizzes[k]))
            return false;
    return true;
}

void gui_lesson_note_done(gui_lesson *s, const char *lesson_id)
{
    lesson_progress_set_done(&s->prog, lesson_id, true);
    if (s->npending_done < (int)(sizeof s->pending_done / sizeof *s->pending_done))
        s->pending_done[s->npending_done++] = lesson_id;
}

/* Where the learner is, in p. */
static void set_place(const gui_lesson *s, lesson_progress *p)
{
    const lesson *l = gui_lesson_current(s);
    lesson_progress_set_current(p, l->id, s->beat < l->nbeats ? s->beat : l->nbeats - 1);
    snprintf(p->lang, sizeof p->lang, "%s", lesson_lang_name(s->lang));
    if (!s->theme_oneoff) /* a one-off --theme stays this window's */
        snprintf(p->theme, sizeof p->theme, "%s", rd_theme_get(s->theme)->name);
}

/* Folds this window's changes into the file as it is now (the caller holds
 * the lock); with no file to fold into (gone, set aside as corrupt), what
 * this window knows. */
static void fold_in(lesson_progress *disk, bool from_file, void *user)
{
    gui_lesson *s = user;
    if (!from_file) {
        lesson_progress_destroy(disk);
        lesson_progress_copy(disk, &s->prog);
    } else {
        for (int i = 0; i < s->npending_quiz; i++)
            lesson_progress_record_quiz(disk, s->pending_quiz[i].key, s->pending_quiz[i].correct);
        for (int i = 0; i < s->npending_done; i++)
            lesson_progress_set_done(disk, s->pending_done[i], true);
        for (int i = 0; i < s->npending_skip; i++)
            lesson_progress_note_skipped(disk, s->pending_skip[i]);
    }
    set_place(s, disk);
}

void gui_lesson_save(gui_lesson *s)
{
    set_place(s, &s->prog);
    if (!s->path[0]) {
        s->npending_quiz = s->npending_done = s->npending_skip = 0;
        return;
    }
    char msg[1024];
    lesson_progress_status st = lesson_progress_update(s->path, fold_in, s, &s->prog, msg, sizeof msg);
    if (st == LESSON_PROGRESS_OK || st == LESSON_PROGRESS_RECOVERED) {
        /* s->prog is what the file now holds */
        s->npending_quiz = s->npending_done = s->npending_skip = 0;
        s->save_error[0] = '\0';
        if (st == LESSON_PROGRESS_OK)
            return;
    }
    /* The changes stay pending for the next save. Say it once, not on
     * every page. */
    if (strncmp(msg, s->save_error, sizeof s->save_error - 1) != 0) {
        fprintf(stderr, "collviz: %s\n", msg);
        gui_message(s->g, msg, 8);
        copy_label(s->save_error, sizeof s->save_error, msg);
    }
}

/* ---------------------------------------------------------- the panel */

/* Copies a label into a fixed field, cut between UTF-8 characters. */
static void copy_label(char *out, size_t n, const char *s)
{
    size_t len = strlen(s);
    if (len >= n) {
        len = n - 1;
        while (len > 0 && ((unsigned char)s[len] & 0xC0) == 0x80)
            len--; /* s[len] would start the next character: cut before it */
    }
    memcpy(out, s, len);
    out[len] = '\0';
}

static void show_diagram(gui_lesson *s, const lesson_diagram *d)
{
    if (!d) {
        gui_set_diagram(s->g, NULL);
        return;
    }
    /* rd_diagram is several KiB: build it off the stack. */
    rd_diagram *rd = cv_xcalloc(1, sizeof *rd);
    rd->cols = d->cols;
    rd->rows = d->rows;
    rd->nboxes = d->nboxes < RD_DIAGRAM_MAX_BOXES ? d->nboxes : RD_DIAGRAM_MAX_BOXES;
    for (int i = 0; i < rd->nboxes; i++) {
        const lesson_box *b = &d->boxes[i];
        rd->boxes[i].x = b->x;
        rd->boxes[i].y = b->y;
        rd->boxes[i].w = b->w;
        rd->boxes[i].h = b->h;
        rd->boxes[i].kind = (int)b->kind; /* same order as rd_box_kind */
        copy_label(rd->boxes[i].label, sizeof rd->boxes[i].label,
                   lesson_text_get(&b->label, s->lang));
    }
    rd->narrows = d->narrows < RD_DIAGRAM_MAX_ARROWS ? d->narrows : RD_DIAGRAM_MAX_ARROWS;
    for (int i = 0; i < rd->narrows; i++) {
        rd->arrows[i].from = d->arrows[i].from;
        rd->arrows[i].to = d->arrows[i].to;
        copy_label(rd->arrows[i].label, sizeof rd->arrows[i].label,
                   lesson_text_get(&d->arrows[i].label, s->lang));
    }
    gui_set_diagram(s->g, rd);
    free(rd);
}

static void show_steptl(gui_lesson *s, const lesson_timeline *t)
{
    if (!t) {
        gui_set_step_timeline(s->g, NULL);
        return;
    }
    rd_steptl *rd = cv_xcalloc(1, sizeof *rd);
    snprintf(rd->unit, sizeof rd->unit, "%s", t->unit);
    rd->nlanes = t->nlanes < RD_STEPTL_MAX_LANES ? t->nlanes : RD_STEPTL_MAX_LANES;
    for (int i = 0; i < rd->nlanes; i++)
        copy_label(rd->lanes[i], sizeof rd->lanes[i], lesson_text_get(&t->lanes[i].label, s->lang));
    rd->nblocks = t->nblocks < RD_STEPTL_MAX_BLOCKS ? t->nblocks : RD_STEPTL_MAX_BLOCKS;
    for (int i = 0; i < rd->nblocks; i++) {
        const lesson_span *b = &t->blocks[i];
        rd->blocks[i].lane = b->lane;
        rd->blocks[i].kind = (int)b->kind; /* same order as rd_span_kind */
        rd->blocks[i].start = b->start;
        rd->blocks[i].dur = b->duration;
        if (lesson_text_present(&b->label))
            copy_label(rd->blocks[i].label, sizeof rd->blocks[i].label,
                       lesson_text_get(&b->label, s->lang));
    }
    rd->nmarkers = t->nmarkers < RD_STEPTL_MAX_MARKERS ? t->nmarkers : RD_STEPTL_MAX_MARKERS;
    for (int i = 0; i < rd->nmarkers; i++) {
        rd->markers[i].at = t->markers[i].at;
        copy_label(rd->markers[i].label, sizeof rd->markers[i].label,
                   lesson_text_get(&t->markers[i].label, s->lang));
    }
    gui_set_step_timeline(s->g, rd);
    free(rd);
}

static void show_highlights(gui_lesson *s, const lesson_beat *b, bool page)
{
    uint64_t ranks = 0;
    rd_region regions[RD_MAX_REGIONS];
    int links[RD_MAX_HL_LINKS][2];
    int nr = 0, nl = 0;
    if (page) {
        const lesson_highlight *h = &b->highlight;
        for (int i = 0; i < h->nranks; i++)
            if (h->ranks[i] >= 0 && h->ranks[i] < 64)
                ranks |= 1ull << h->ranks[i];
        for (int i = 0; i < h->nchunks && nr < RD_MAX_REGIONS; i++)
            regions[nr++] = (rd_region){h->chunks[i].rank, h->chunks[i].buf, h->chunks[i].first,
                                        h->chunks[i].count};
        for (int i = 0; i < h->nlinks && nl < RD_MAX_HL_LINKS; i++) {
            links[nl][0] = h->links[i].src;
            links[nl][1] = h->links[i].dst;
            nl++;
        }
        const lesson_quiz *q = s->quiz.q;
        /* A predict-value quiz names one cell: point at it. */
        if (q && q->kind == LESSON_QUIZ_PREDICT_VALUE && nr < RD_MAX_REGIONS)
            regions[nr++] = (rd_region){q->rank, q->buf, q->index, 1};
        /* After two misses the answer of a predict-cells quiz is shown. */
        if (q && q->kind == LESSON_QUIZ_PREDICT_CELLS && (s->quiz.revealed || s->quiz.solved))
            for (int i = 0; i < q->ncells && nr < RD_MAX_REGIONS; i++)
                regions[nr++] = (rd_region){q->cells[i].rank, q->cells[i].buf, q->cells[i].first,
                                            q->cells[i].count};
    }
    gui_set_highlights(s->g, ranks, regions, nr, (const int(*)[2])links, nl);
}

/* The mistake cards as one text: myth, then the truth, card after card. */
static char *mistakes_text(const gui_lesson *s, const lesson *l)
{
    size_t n = 1;
    for (int i = 0; i < l->nmistakes; i++)
        n += strlen(lesson_text_get(&l->mistakes[i].myth, s->lang)) +
             strlen(lesson_text_get(&l->mistakes[i].truth, s->lang)) + 64;
    char *out = cv_xmalloc(n);
    size_t len = 0;
    out[0] = '\0';
    for (int i = 0; i < l->nmistakes; i++)
        len += (size_t)snprintf(out + len, n - len, "%s%s %s\n%s %s", i ? "\n\n" : "",
                                gui_lesson_str(s, GUI_LS_MYTH),
                                lesson_text_get(&l->mistakes[i].myth, s->lang),
                                gui_lesson_str(s, GUI_LS_TRUTH),
                                lesson_text_get(&l->mistakes[i].truth, s->lang));
    return out;
}

/* The first launch's page: how to read the stage, before any quiz. */
static void show_intro(gui_lesson *s)
{
    static const char *const title[2] = {"How to read the stage", "怎样看演示区"};
    static const char *const body[2] = {
        "Each card is a GPU. Its rows are its buffers: send holds its input, recv is where the "
        "result lands. A cell shows a value and, under it, its chunk and the GPUs whose inputs it "
        "holds: b0+1 is chunk b of GPU 0 and GPU 1 combined, c0-3 of GPUs 0 to 3. A dot \xC2\xB7 is "
        "a cell nothing has written yet. The stripes under a cell show the same GPUs in their "
        "colours.\n"
        "\xE2\x86\x92 plays one step and pauses: the chunks travel along the links, land, and "
        "what a reduction computed shows over the cells (101 + 201 = 302). \xE2\x86\x90 goes back "
        "exactly. Space plays on; H lists every key; P hides this panel.\n"
        "PgDn (or Next) starts the first lesson.",
        "每张卡片是一个 GPU。每一行是它的一个缓冲区：发送（send）存放输入，接收（recv）是结果落下的地方。格子里"
        "是数值，下面是它所属的数据块和数据来自哪些 GPU：b0+1 表示 GPU 0 与 GPU 1 的 b 块合并，c0-3 表示 GPU 0 "
        "到 3 的。点 \xC2\xB7 表示还没有写入的格子。格子下的彩条用各 GPU 的颜色表示同样的信息。\n"
        "\xE2\x86\x92 播放一步后暂停：数据块沿链路移动、落下，规约的算式显示在格子上方（101 + 201 = 302）。"
        "\xE2\x86\x90 精确退回。空格连续播放；H 列出所有按键；P 隐藏本面板。\n"
        "按 PgDn（或“下一页”）开始第一课。"};
    int z = s->lang == LESSON_ZH;
    gui_narrate(s->g, title[z], body[z]);
    gui_quiz_text qt = {.kicker = z ? "欢迎" : "Welcome", .feedback_state = RD_CHOICE_PLAIN};
    gui_narrate_quiz(s->g, &qt);
    gui_set_choices(s->g, NULL, 0, NULL);
    gui_set_picks(s->g, NULL, 0);
    gui_set_wrong_picks(s->g, NULL, 0);
    gui_set_footer(s->g, gui_lesson_str(s, GUI_LS_HINT_NAV));
    gui_set_nav(s->g, true);
    gui_hide_next(s->g, false);
    gui_clear_highlights(s->g);
    gui_set_diagram(s->g, NULL);
    gui_set_step_timeline(s->g, NULL);
}

void gui_lesson_refresh(gui_lesson *s)
{
    if (s->intro) {
        show_intro(s);
        return;
    }
    const lesson *l = gui_lesson_current(s);
    bool page = s->beat < l->nbeats;
    const lesson_beat *b = &l->beats[page ? s->beat : l->nbeats - 1];
    char kicker[256];
    const char *track = lesson_track_title(l->track, s->lang);
    if (page)
        snprintf(kicker, sizeof kicker, "%s  \xC2\xB7  %d / %d", track, s->beat + 1, l->nbeats);
    else
        snprintf(kicker, sizeof kicker, "%s  \xC2\xB7  %s", track,
                 gui_lesson_str(s, GUI_LS_MISTAKES));
    char *cards = page ? NULL : mistakes_text(s, l);
    gui_narrate(s->g, lesson_text_get(&l->title, s->lang),
                page ? lesson_text_get(&b->text, s->lang) : cards);
    free(cards);

    static char feedback[12000];
    int state = RD_CHOICE_PLAIN;
    gui_quiz_text qt = {.kicker = kicker, .feedback_state = RD_CHOICE_PLAIN};
    const lesson_quiz *q = page ? s->quiz.q : NULL;
    if (q) {
        qt.prompt = lesson_text_get(&q->prompt, s->lang);
        gui_lesson_quiz_feedback(s, feedback, sizeof feedback, &state);
        qt.feedback = feedback[0] ? feedback : NULL;
        qt.feedback_state = state;
        if (q->kind == LESSON_QUIZ_NUMBER) {
            qt.input = s->quiz.input;
            qt.input_unit = lesson_quiz_unit(q, s->lang);
        }
    }
    gui_narrate_quiz(s->g, &qt);
    gui_lesson_quiz_show(s);

    const char *footer = gui_lesson_str(s, GUI_LS_HINT_NAV);
    if (s->explored)
        footer = gui_lesson_str(s, GUI_LS_EXPLORED);
    else if (s->finished && s->li == s->course->nlessons - 1 && s->beat == last_page(l))
        footer = gui_lesson_str(s, GUI_LS_COURSE_DONE);
    else if (q && !s->quiz.solved && !s->quiz.revealed)
        footer = gui_lesson_quiz_hint(s);
    else if (s->beat == last_page(l) && s->li + 1 < s->course->nlessons)
        footer = gui_lesson_str(s, GUI_LS_HINT_END);
    gui_set_footer(s->g, footer);
    gui_set_nav(s->g, true);
    /* What the next step does is what a quiz asks: not before it is answered. */
    gui_hide_next(s->g, q && !s->quiz.solved && !s->quiz.revealed);
    show_highlights(s, b, page);
    show_diagram(s, b->diagram);
    show_steptl(s, b->timeline);
}

/* ----------------------------------------------------------- moving */

/* Sets the stage to the beat's setup unless it already shows it; true
 * when it was rebuilt. */
static bool stage_setup(gui_lesson *s, const lesson *l, const lesson_beat *b)
{
    const lesson_setup *su = &l->setups[b->setup >= 0 && b->setup < l->nsetups ? b->setup : 0];
    if (stage_is_lesson(s) && spec_equal(&s->stage_spec, &su->spec) &&
        s->stage_init == su->init && s->stage_seed == su->seed)
        return false;
    if (gui_set_run(s->g, &su->spec, cv_cpu_backend(), su->init, su->seed) != CV_OK)
        return false; /* the banner says why; the validated course never gets here */
    s->staged = true;
    s->stage_spec = su->spec;
    s->stage_init = su->init;
    s->stage_seed = su->seed;
    return true;
}

void gui_lesson_go(gui_lesson *s, int li, int beat, gui_lesson_move how)
{
    if (li < 0)
        li = 0;
    if (li >= s->course->nlessons)
        li = s->course->nlessons - 1;
    const lesson *l = s->course->lessons[li];
    if (beat < 0)
        beat = 0;
    if (beat > last_page(l))
        beat = last_page(l);
    s->li = li;
    s->beat = beat;
    s->menu.sel = li;
    bool page = beat < l->nbeats;
    const lesson_beat *b = &l->beats[page ? beat : l->nbeats - 1];
    bool rebuilt = stage_setup(s, l, b);
    int step = b->step < gui_nsteps(s->g) ? b->step : gui_nsteps(s->g);
    if (!page || how == GUI_LESSON_BACK) {
        gui_seek(s->g, step);
    } else if (how == GUI_LESSON_NEXT) {
        if (rebuilt)
            gui_seek(s->g, 0); /* a new setup starts from the beginning */
        gui_play_to(s->g, step);
    } else {
        gui_seek(s->g, step > 0 ? step - 1 : 0);
        gui_play_to(s->g, step);
    }
    s->explored = false;
    gui_lesson_quiz_start(s, page ? b->quiz : NULL);
    gui_set_narration_scroll(s->g, 0);
    gui_lesson_refresh(s);
    gui_lesson_save(s);
}

/* After the learner changed the stage (O, A, N...), the first page key
 * brings this page's stage back instead of turning the page. */
static bool restore_stage(gui_lesson *s)
{
    if (stage_is_lesson(s))
        return false;
    gui_lesson_go(s, s->li, s->beat, GUI_LESSON_JUMP);
    return true;
}

void gui_lesson_next(gui_lesson *s)
{
    if (s->intro) {
        /* From the first launch's page on to the lesson's own. */
        s->intro = false;
        gui_lesson_go(s, s->li, s->beat, GUI_LESSON_JUMP);
        return;
    }
    if (restore_stage(s))
        return;
    const lesson *l = gui_lesson_current(s);
    /* Past a question not answered: asked once, then passed as skipped
     * (the menu lists it, and the lesson is not done until it is answered). */
    const lesson_quiz *q = s->quiz.q;
    if (q && !quiz_answered(s, q)) {
        if (s->skip_asked != q) {
            s->skip_asked = q;
            gui_message(s->g, gui_lesson_str(s, GUI_LS_SKIP_ASK), 8);
            return;
        }
        gui_lesson_note_skipped(s, q->key);
    }
    s->skip_asked = NULL;
    if (s->beat >= l->nbeats - 1 && !lesson_progress_done(&s->prog, l->id) && all_answered(s, l))
        gui_lesson_note_done(s, l->id); /* saved by the move below */
    if (s->beat < last_page(l)) {
        gui_lesson_go(s, s->li, s->beat + 1, GUI_LESSON_NEXT);
    } else if (s->li + 1 < s->course->nlessons) {
        gui_lesson_go(s, s->li + 1, 0, GUI_LESSON_JUMP);
    } else {
        s->finished = true;
        gui_message(s->g, gui_lesson_str(s, GUI_LS_COURSE_DONE), 6);
        gui_lesson_refresh(s);
        gui_lesson_save(s);
    }
}

void gui_lesson_prev(gui_lesson *s)
{
    if (s->intro)
        return;
    if (restore_stage(s))
        return;
    if (s->beat > 0)
        gui_lesson_go(s, s->li, s->beat - 1, GUI_LESSON_BACK);
    else if (s->li > 0)
        gui_lesson_go(s, s->li - 1, last_page(s->course->lessons[s->li - 1]), GUI_LESSON_BACK);
}

/* --------------------------------------------------------------- hooks */

static bool on_event(void *user, gui *g, const SDL_Event *e)
{
    gui_lesson *s = user;
    (void)g;
    if (s->menu.open)
        return gui_lesson_menu_event(s, e);
    return gui_lesson_quiz_event(s, e);
}

/* The lesson's keys and buttons (the keymap's RD_KEYS_LESSON rows); the
 * others keep their meaning in the window. */
static bool on_action(void *user, gui *g, rd_action a, int arg)
{
    gui_lesson *s = user;
    (void)g;
    if (s->menu.open)
        return gui_lesson_menu_action(s, a);
    if (s->intro && (a == RD_ACT_ANSWER || a == RD_ACT_CHECK))
        return true; /* no quiz on the welcome page */
    switch (a) {
    case RD_ACT_PAGE_NEXT:
        gui_lesson_next(s);
        return true;
    case RD_ACT_PAGE_PREV:
        gui_lesson_prev(s);
        return true;
    case RD_ACT_MENU:
        gui_lesson_menu_toggle(s);
        return true;
    case RD_ACT_ANSWER:
    case RD_ACT_CHECK:
        return gui_lesson_quiz_action(s, a, arg);
    default:
        return false;
    }
}

static void on_choice(void *user, gui *g, int choice)
{
    (void)g;
    gui_lesson_quiz_choice(user, choice);
}

static void on_cell(void *user, gui *g, const rd_hit *hit)
{
    (void)g;
    if (!((gui_lesson *)user)->intro)
        gui_lesson_quiz_cell(user, hit);
}

/* Keys the window handles itself (L, T, O, A, ...) and its buttons change
 * the language, the theme or the stage: catch up before each frame. */
static void before_draw(void *user, gui *g)
{
    gui_lesson *s = user;
    bool changed = false, save = false;
    if (gui_lang(g) != s->lang) {
        s->lang = gui_lang(g);
        changed = save = true;
    }
    if (gui_theme(g) != s->theme) {
        s->theme = gui_theme(g);
        s->theme_oneoff = false; /* chosen in the window: the next launch's too */
        save = true;
    }
    bool explored = !stage_is_lesson(s);
    if (explored != s->explored) {
        s->explored = explored;
        changed = true;
    }
    if (changed)
        gui_lesson_refresh(s);
    if (save)
        gui_lesson_save(s);
}

static void after_draw(void *user, gui *g)
{
    (void)g;
    gui_lesson *s = user;
    if (s->menu.open)
        gui_lesson_menu_draw(s);
}

bool gui_lesson_attach(gui_lesson *s, gui *g, const lesson_course *course,
                       const gui_lesson_opts *o, char *msg, size_t msglen)
{
    memset(s, 0, sizeof *s);
    lesson_progress_init(&s->prog);
    if (!course || course->nlessons == 0) {
        snprintf(msg, msglen, "no lessons loaded");
        return false;
    }
    s->g = g;
    s->course = course;
    s->lang = o->lang;
    s->theme = gui_theme(g);
    s->li = -1;
    char m[1024];
    if (o->progress_path && o->progress_path[0]) {
        lesson_progress_status st = lesson_progress_load(&s->prog, o->progress_path, m, sizeof m);
        if (st == LESSON_PROGRESS_EIO) {
            /* Unreadable, not corrupt: writing over it could lose it. */
            fprintf(stderr, "collviz: %s; progress is not saved this time\n", m);
            gui_message(g, m, 10);
        } else {
            snprintf(s->path, sizeof s->path, "%s", o->progress_path);
            if (st == LESSON_PROGRESS_RECOVERED) {
                fprintf(stderr, "collviz: %s\n", m);
                gui_message(g, m, 10);
            }
        }
    }
    if (o->notice && *o->notice)
        gui_message(g, o->notice, 10);
    s->theme_oneoff = !o->saved_theme;
    if (o->saved_theme && s->prog.theme[0]) {
        int t = rd_theme_parse(s->prog.theme);
        if (t >= 0) {
            s->theme = (rd_theme_id)t;
            gui_set_theme(g, s->theme);
        }
    }
    gui_set_lang(g, s->lang);
    gui_set_lesson_mode(g, true);
    gui_hooks h = {.on_event = on_event,
                   .on_choice = on_choice,
                   .on_cell = on_cell,
                   .on_action = on_action,
                   .before_draw = before_draw,
                   .after_draw = after_draw,
                   .user = s};
    gui_set_hooks(g, &h);
    int li = o->lesson >= 0 && o->lesson < course->nlessons ? o->lesson : 0;
    s->intro = o->intro;
    gui_lesson_go(s, li, o->beat, GUI_LESSON_JUMP);
    return true;
}

void gui_lesson_detach(gui_lesson *s)
{
    if (!s->g)
        return;
    gui_lesson_save(s);
    gui *g = s->g;
    gui_set_hooks(g, NULL);
    gui_set_lesson_mode(g, false);
    gui_narrate(g, NULL, NULL);
    gui_narrate_quiz(g, NULL);
    gui_set_nav(g, false);
    gui_hide_next(g, false);
    gui_set_choices(g, NULL, 0, NULL);
    gui_set_picks(g, NULL, 0);
    gui_set_footer(g, NULL);
    gui_set_diagram(g, NULL);
    gui_set_step_timeline(g, NULL);
    gui_clear_highlights(g);
    lesson_progress_destroy(&s->prog);
    s->g = NULL;
}

/* ---------------------------------------------------------- the window */

int gui_lesson_window(const gui_options *base, const gui_lesson_window_opts *wo,
                      const lesson_course *course, int li, int beat, lesson_lang lang,
                      bool saved_theme, const char *notice, char *err, size_t errlen)
{
    if (!course || li < 0 || li >= course->nlessons) {
        snprintf(err, errlen, "no such lesson");
        return CLI_EXIT_USAGE;
    }
    const lesson *l = course->lessons[li];
    const lesson_beat *b = &l->beats[beat >= 0 && beat < l->nbeats ? beat : 0];
    const lesson_setup *su = &l->setups[b->setup];
    gui_options o = *base;
    o.spec = su->spec; /* plan the lesson's stage first, not a default one */
    o.init = su->init;
    o.seed = su->seed;
    o.backend = NULL;
    o.compare = false;
    o.lang = lang;
    gui *g = NULL;
    int rc = gui_create(&o, &g, err, errlen);
    if (rc != CV_OK)
        return rc == CV_EUNAVAIL ? CLI_EXIT_UNAVAIL : CLI_EXIT_USAGE;
    if (wo && wo->shots)
        snprintf(g->shot_dir, sizeof g->shot_dir, "%s", wo->shots);
    if (wo) {
        g->exit_after = wo->frames;
        g->first_frame_cb = wo->first_frame;
    }
    char path[4096];
    if (!lesson_progress_default_path(path, sizeof path))
        path[0] = '\0';
    gui_lesson s;
    gui_lesson_opts lo = {path, li, beat, lang, saved_theme, notice, wo && wo->intro};
    if (!gui_lesson_attach(&s, g, course, &lo, err, errlen)) {
        gui_destroy(g);
        SDL_Quit();
        return CLI_EXIT_USAGE;
    }
    gui_run(g);
    gui_lesson_detach(&s);
    gui_destroy(g);
    SDL_Quit();
    return CLI_EXIT_OK;
}

/* The opener `collviz lesson` is given in a build with the window;
 * CLI_EXIT_UNAVAIL sends it to the text player. */
int gui_open_lesson(const lesson_course *course, int lesson_index, int beat, lesson_lang lang,
                    const lesson_window *win)
{
    gui_options o;
    gui_options_init(&o);
    gui_lesson_window_opts wo = {NULL, 0, NULL, false};
    bool saved_theme = true;
    if (win) {
        if (win->theme) {
            int t = gui_themes.parse(win->theme); /* the files' themes are words too */
            if (t < 0) {
                char list[512];
                cli_enum_list(&gui_themes, list, sizeof list);
                fprintf(stderr, "collviz: --theme: unknown theme '%s'; allowed: %s\n",
                        cli_esc(win->theme), list);
                return CLI_EXIT_USAGE;
            }
            o.theme = (rd_theme_id)t;
            saved_theme = false;
        }
        if (win->width > 0 && win->height > 0) {
            o.width = win->width;
            o.height = win->height;
            o.sized = true;
        }
        o.fullscreen = win->fullscreen;
        wo.shots = win->shots;
        wo.frames = win->frames;
    }
    char err[CV_ERR_LEN] = "";
    int rc = gui_lesson_window(&o, &wo, course, lesson_index, beat, lang, saved_theme, NULL, err,
                               sizeof err);
    /* No display is said by the caller; anything else (a missing font)
     * needs its own line to be fixed. */
    if (rc != CLI_EXIT_OK && err[0] && strncmp(err, "no display", 10) != 0)
        fprintf(stderr, "collviz: %s\n", err);
    return rc;
}

bool gui_has_window(void) { return true; }

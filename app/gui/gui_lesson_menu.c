/*
 * gui_lesson_menu.c: the lesson menu, an overlay listing the tracks and
 * their lessons with completion marks from the progress file: a check for
 * a lesson done, an arrow for the one in progress, and the quizzes last
 * answered right out of the lesson's quizzes.
 *
 * Tab or F2 opens it (M was taken by compare mode). The keyboard moves the
 * selection (Up/Down, Page Up/Down and Left/Right by track, Home/End) and
 * Enter opens the lesson; the mouse selects by hovering and opens with a
 * click; Esc, Tab or a click outside closes it. The list takes two columns,
 * split between tracks, when one would not fit, and scrolls when even two
 * would not. It is drawn after the frame (gui_hooks.after_draw) with the
 * renderer's own text cache, so it looks like the rest of the window.
 */
#define _POSIX_C_SOURCE 200809L
#include "gui_lesson.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MAX_ROWS (LESSON_MAX_LESSONS + LESSON_TRACK_COUNT)
#define MAX_SHOWN ((int)(sizeof((gui_lesson_menu *)0)->row_rect / sizeof(SDL_Rect)))

/* Rows of the list: a track's title (lesson -1), then its lessons. */
static int build_rows(const lesson_course *c, int *lesson_of, int *track_of)
{
    int n = 0, track = -1;
    for (int i = 0; i < c->nlessons && n + 2 <= MAX_ROWS; i++) {
        if ((int)c->lessons[i]->track != track) {
            track = (int)c->lessons[i]->track;
            lesson_of[n] = -1;
            track_of[n++] = track;
        }
        lesson_of[n] = i;
        track_of[n++] = track;
    }
    return n;
}

/* Opens lesson li: at its first skipped question where it has one (the
 * way back to it), else at its start. */
static void open_lesson(gui_lesson *s, int li)
{
    s->menu.open = false;
    int beat;
    if (gui_lesson_skipped(s, s->course->lessons[li], &beat) > 0 && beat >= 0)
        gui_lesson_go(s, li, beat, GUI_LESSON_JUMP);
    else if (li != s->li)
        gui_lesson_go(s, li, 0, GUI_LESSON_JUMP);
}

void gui_lesson_menu_toggle(gui_lesson *s)
{
    s->menu.open = !s->menu.open;
    if (s->menu.open) {
        s->menu.sel = s->li;
        s->menu.top = -1; /* scrolled to the selection when drawn */
        s->menu.wheel = false;
    }
}

static int first_of_track(const lesson_course *c, int track, int dir, int from)
{
    for (int i = from; i >= 0 && i < c->nlessons; i += dir)
        if ((int)c->lessons[i]->track == track)
            return i;
    return -1;
}

static void move_track(gui_lesson *s, int dir)
{
    const lesson_course *c = s->course;
    int t = (int)c->lessons[s->menu.sel]->track;
    for (int k = 1; k < LESSON_TRACK_COUNT; k++) {
        int nt = ((t + dir * k) % LESSON_TRACK_COUNT + LESSON_TRACK_COUNT) % LESSON_TRACK_COUNT;
        int i = first_of_track(c, nt, 1, 0);
        if (i >= 0) {
            s->menu.sel = i;
            return;
        }
    }
}

bool gui_lesson_menu_action(gui_lesson *s, rd_action a)
{
    gui_lesson_menu *m = &s->menu;
    int n = s->course->nlessons;
    m->wheel = false; /* the keyboard moves the selection: follow it */
    switch (a) {
    case RD_ACT_SCROLL_UP:
        m->sel = m->sel > 0 ? m->sel - 1 : 0;
        return true;
    case RD_ACT_SCROLL_DOWN:
        m->sel = m->sel + 1 < n ? m->sel + 1 : n - 1;
        return true;
    case RD_ACT_HOME:
        m->sel = 0;
        return true;
    case RD_ACT_END:
        m->sel = n - 1;
        return true;
    case RD_ACT_PAGE_PREV:
    case RD_ACT_BACK:
        move_track(s, -1);
        return true;
    case RD_ACT_PAGE_NEXT:
    case RD_ACT_FORWARD:
        move_track(s, 1);
        return true;
    case RD_ACT_CHECK:
    case RD_ACT_PLAY:
        open_lesson(s, m->sel);
        return true;
    case RD_ACT_CLOSE:
    case RD_ACT_MENU:
        m->open = false;
        return true;
    case RD_ACT_LANG:
    case RD_ACT_THEME:
    case RD_ACT_QUIT:
    case RD_ACT_FULLSCREEN:
    case RD_ACT_SHOT:
        return false; /* language, theme, quit, full screen and screenshots still work */
    default:
        return true; /* nothing behind the menu changes while it is open */
    }
}

bool gui_lesson_menu_event(gui_lesson *s, const SDL_Event *e)
{
    gui_lesson_menu *m = &s->menu;
    switch (e->type) {
    case SDL_MOUSEMOTION:
        for (int i = 0; i < m->nrows && i < MAX_SHOWN; i++) {
            SDL_Point p = {(int)(e->motion.x * gui_dpi(s->g)),
                           (int)(e->motion.y * gui_dpi(s->g))};
            if (SDL_PointInRect(&p, &m->row_rect[i]))
                m->sel = m->row_lesson[i];
        }
        return false; /* the window still follows the mouse */
    case SDL_MOUSEBUTTONDOWN: {
        if (e->button.button != SDL_BUTTON_LEFT)
            return true;
        SDL_Point p = {(int)(e->button.x * gui_dpi(s->g)),
                       (int)(e->button.y * gui_dpi(s->g))};
        for (int i = 0; i < m->nrows && i < MAX_SHOWN; i++)
            if (SDL_PointInRect(&p, &m->row_rect[i])) {
                open_lesson(s, m->row_lesson[i]);
                return true;
            }
        if (!SDL_PointInRect(&p, &m->box))
            m->open = false;
        return true;
    }
    case SDL_MOUSEBUTTONUP:
    case SDL_TEXTINPUT:
        return true;
    case SDL_MOUSEWHEEL:
        m->top = (m->top < 0 ? 0 : m->top) - e->wheel.y * 3;
        if (m->top < 0)
            m->top = 0;
        m->wheel = true; /* keep the scroll where the wheel put it */
        return true;
    default:
        return false;
    }
}

/* ------------------------------------------------------------ drawing */

static void fill(SDL_Renderer *r, SDL_Rect rc, SDL_Color c)
{
    SDL_SetRenderDrawBlendMode(r, c.a == 255 ? SDL_BLENDMODE_NONE : SDL_BLENDMODE_BLEND);
    SDL_SetRenderDrawColor(r, c.r, c.g, c.b, c.a);
    SDL_RenderFillRect(r, &rc);
}

static void frame(SDL_Renderer *r, SDL_Rect rc, SDL_Color c)
{
    SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_NONE);
    SDL_SetRenderDrawColor(r, c.r, c.g, c.b, 255);
    SDL_RenderDrawRect(r, &rc);
}

static SDL_Color mix(SDL_Color a, SDL_Color b, float t)
{
    return (SDL_Color){(Uint8)(a.r + (b.r - a.r) * t), (Uint8)(a.g + (b.g - a.g) * t),
                       (Uint8)(a.b + (b.b - a.b) * t), 255};
}

static int right_now(const gui_lesson *s, const lesson *l)
{
    int right = 0;
    for (int k = 0; k < l->nquizzes; k++) {
        const lesson_progress_quiz *q = lesson_progress_find_quiz(&s->prog, l->quizzes[k].key);
        right += q && q->last;
    }
    return right;
}

void gui_lesson_menu_draw(gui_lesson *s)
{
    gui_lesson_menu *m = &s->menu;
    gui *g = s->g;
    SDL_Renderer *r = gui_renderer(g);
    rd_text *tx = rd_ctx_text(gui_rd(g));
    const rd_layout *L = rd_last_layout(gui_rd(g));
    const rd_theme *th = rd_theme_get(gui_theme(g));
    const lesson_course *c = s->course;
    static int lesson_of[MAX_ROWS], track_of[MAX_ROWS];
    int nrows = build_rows(c, lesson_of, track_of);
    bool wheel = m->wheel;
    if (m->sel < 0 || m->sel >= c->nlessons)
        m->sel = s->li;

    SDL_Color shade = th->bg;
    shade.a = 210;
    fill(r, (SDL_Rect){0, 0, L->w, L->h}, shade);
    int pad = (int)fmaxf(4, 12 * L->ui);
    int px = L->px_text, lh = (int)(px * 1.7), small = L->px_small;
    /* A column as wide as the longest title needs (with its mark and
     * score), as far as two fit side by side; one column where two would
     * be narrower than 24 ems. */
    int need = px * 24, sw0 = 0;
    rd_text_measure(tx, "00/00", small, &sw0, NULL);
    for (int i = 0; i < c->nlessons; i++) {
        int tw = 0;
        rd_text_measure(tx, lesson_text_get(&c->lessons[i]->title, s->lang), px, &tw, NULL);
        int w = tw + px * 2 + sw0 + pad * 2 + 2;
        need = w > need ? w : need;
    }
    int col_w1 = (int)fminf(need, (L->w - 5 * pad) / 2);
    if (col_w1 < px * 24)
        col_w1 = (int)fminf(need, L->w - 4 * pad);
    int head_h = (int)(L->px_big * 1.6), foot_h = (int)(small * 1.5) * 3 + pad;
    int max_h = L->h - 2 * pad;
    int visible = (max_h - 2 * pad - head_h - foot_h) / lh;
    if (visible < 1)
        visible = 1;
    /* Two columns, split where a track starts, when one is too long. */
    int cols = 1, split = nrows;
    if (nrows > visible && 2 * col_w1 + 3 * pad <= L->w - 2 * pad) {
        int best = -1;
        for (int k = 1; k < nrows; k++)
            if (lesson_of[k] < 0) {
                int worst = k > nrows - k ? k : nrows - k;
                if (best < 0 || worst < (best > nrows - best ? best : nrows - best))
                    best = k;
            }
        if (best > 0 && (best > nrows - best ? best : nrows - best) <= visible) {
            cols = 2;
            split = best;
        }
    }
    int per = cols == 2 ? (split > nrows - split ? split : nrows - split)
                        : (nrows < visible ? nrows : visible);
    int bw = cols * col_w1 + (cols - 1) * pad + 2 * pad;
    int bh = head_h + per * lh + foot_h + 2 * pad;
    if (bh > max_h)
        bh = max_h;
    m->box = (SDL_Rect){(L->w - bw) / 2, (L->h - bh) / 2, bw, bh};
    fill(r, m->box, th->panel);
    frame(r, m->box, th->accent);

    int done = 0;
    for (int i = 0; i < c->nlessons; i++)
        done += lesson_progress_done(&s->prog, c->lessons[i]->id);
    int x0 = m->box.x + pad, y0 = m->box.y + pad;
    rd_text_draw_in(tx, gui_lesson_str(s, GUI_LS_MENU_TITLE), L->px_big, th->accent,
                    (SDL_Rect){x0, y0, bw / 2, head_h}, RD_ALIGN_LEFT);
    char count[64];
    snprintf(count, sizeof count, s->lang == LESSON_ZH ? "已完成 %d / %d" : "%d of %d done", done,
             c->nlessons);
    rd_text_draw_in(tx, count, small, th->dim, (SDL_Rect){x0 + bw / 2, y0, bw / 2 - 2 * pad, head_h},
                    RD_ALIGN_RIGHT);

    /* Scroll a single long column so the selection stays in view. */
    int top = 0;
    if (cols == 1 && nrows > per) {
        int selrow = 0;
        for (int k = 0; k < nrows; k++)
            if (lesson_of[k] == m->sel)
                selrow = k;
        top = m->top < 0 ? selrow - per / 2 : m->top;
        if (!wheel && (selrow < top || selrow >= top + per))
            top = selrow < top ? selrow - 1 : selrow - per + 1;
        if (top > nrows - per)
            top = nrows - per;
        if (top < 0)
            top = 0;
    }
    m->top = top;
    m->nrows = 0;
    m->cut = 0;
    int ylist = y0 + head_h;
    for (int k = top; k < nrows; k++) {
        int col = cols == 2 && k >= split ? 1 : 0;
        int row = col ? k - split : k - top;
        if (row >= per)
            continue;
        SDL_Rect rr = {x0 + col * (col_w1 + pad), ylist + row * lh, col_w1, lh};
        if (lesson_of[k] < 0) {
            rd_text_draw_in(tx, lesson_track_title((lesson_track)track_of[k], s->lang), small,
                            th->accent, (SDL_Rect){rr.x, rr.y + lh / 4, rr.w, lh - lh / 4},
                            RD_ALIGN_LEFT);
            continue;
        }
        const lesson *l = c->lessons[lesson_of[k]];
        bool sel = lesson_of[k] == m->sel;
        if (sel) {
            fill(r, rr, mix(th->card, th->accent, 0.35f));
            frame(r, rr, th->accent);
        }
        int mark_w = px * 2;
        bool is_done = lesson_progress_done(&s->prog, l->id);
        int first_skip;
        bool skipped = !is_done && gui_lesson_skipped(s, l, &first_skip) > 0;
        /* the one open, done, or passed with questions skipped */
        const char *mark = lesson_of[k] == s->li ? "\xE2\x96\xB6"
                           : is_done             ? "\xE2\x9C\x93"
                           : skipped             ? "\xC2\xBB"
                                                 : "";
        SDL_Color mark_c = lesson_of[k] == s->li ? th->accent
                           : skipped             ? th->warn
                                                 : rd_rank_color(2);
        rd_text_draw_in(tx, mark, px, mark_c, (SDL_Rect){rr.x + pad / 2, rr.y, mark_w, rr.h},
                        RD_ALIGN_LEFT);
        char score[32];
        snprintf(score, sizeof score, "%d/%d", right_now(s, l), l->nquizzes);
        int sw = 0;
        rd_text_measure(tx, "00/00", small, &sw, NULL);
        rd_text_draw_in(tx, score, small, th->dim, (SDL_Rect){rr.x + rr.w - sw - pad / 2, rr.y, sw, rr.h},
                        RD_ALIGN_RIGHT);
        /* A title too long for its row takes the small face rather than
         * lose its end ("copy engi…"). */
        const char *title = lesson_text_get(&l->title, s->lang);
        SDL_Rect tb = {rr.x + pad / 2 + mark_w, rr.y, rr.w - mark_w - sw - pad * 3 / 2, rr.h};
        int tpx = px, tw = 0;
        rd_text_measure(tx, title, tpx, &tw, NULL);
        for (; tw > tb.w && tpx > small; tpx--)
            rd_text_measure(tx, title, tpx - 1, &tw, NULL);
        m->cut += tw > tb.w;
        rd_text_draw_in(tx, title, tpx, th->text, tb, RD_ALIGN_LEFT);
        if (m->nrows < MAX_SHOWN) {
            m->row_rect[m->nrows] = rr;
            m->row_lesson[m->nrows++] = lesson_of[k];
        }
    }

    /* The selected lesson's summary, then the keys. */
    int fy = m->box.y + m->box.h - pad - foot_h + pad / 2;
    const lesson *cur = c->lessons[m->sel];
    const char *summary = lesson_text_get(&cur->summary, s->lang);
    if (summary && *summary) {
        char lines[2][256];
        int nl = rd_text_wrap(tx, summary, small, bw - 2 * pad, &lines[0][0], 2, 256);
        for (int i = 0; i < nl; i++)
            rd_text_draw_in(tx, lines[i], small, th->text,
                            (SDL_Rect){x0, fy + i * (int)(small * 1.5), bw - 2 * pad, (int)(small * 1.5)},
                            RD_ALIGN_LEFT);
    }
    /* The selected lesson's skipped questions, and the way back to them. */
    int first_skip, nskip = gui_lesson_skipped(s, cur, &first_skip);
    char skip_line[160];
    snprintf(skip_line, sizeof skip_line, "%d %s", nskip, gui_lesson_str(s, GUI_LS_SKIPPED));
    rd_text_draw_in(tx, nskip > 0 ? skip_line : gui_lesson_str(s, GUI_LS_MENU_HINT), small,
                    nskip > 0 ? th->warn : th->dim,
                    (SDL_Rect){x0, fy + 2 * (int)(small * 1.5), bw - 2 * pad, (int)(small * 1.5)},
                    RD_ALIGN_LEFT);
}

/*
 * rd_layout.c: where everything goes, as a pure function of the frame and
 * the output size.
 *
 * The window is cut into a header (two lines), the stage, an optional
 * narration panel on the right, and the timeline and button bar at the
 * bottom; the stage's cards are placed by rd_stage.c and the narration's
 * lines by rd_narration_layout.c, so one call places everything a frame
 * draws. Only rectangles and the narration's lines come out: nothing is
 * drawn here, and what the frame draws and what the hit test reads is this.
 */
#include "rd_internal.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* The bar's buttons, in the keymap's order, each with a share of the bar
 * in proportion to its label (so "backend" gets the room "<" does not
 * need, and a projector's large type fits at 1024 px), never too narrow to
 * click. Play also fits "pause". */
static void layout_buttons(rd_text *t, const rd_frame *f, rd_layout *L, SDL_Rect bar, int gap)
{
    const rd_key *keys;
    int nk = rd_keymap(&keys);
    rd_action acts[RD_ACT_COUNT_];
    double weight[RD_ACT_COUNT_], total = 0;
    int n = 0;
    for (int i = 0; i < nk && n < RD_ACT_COUNT_; i++) {
        if (keys[i].button != RD_BUTTON_BAR)
            continue;
        rd_action a = keys[i].action;
        int w = 0, w2 = 0;
        rd_text_measure(t, rd_button_label(a, f->lang, false), L->px_small, &w, NULL);
        if (a == RD_ACT_PLAY)
            rd_text_measure(t, rd_button_label(a, f->lang, true), L->px_small, &w2, NULL);
        acts[n] = a;
        weight[n] = fmax(fmax(w, w2) + L->px_small * 1.2, L->px_small * 2.6);
        total += weight[n++];
    }
    double at = 0;
    for (int i = 0; i < n; i++) {
        int x0 = bar.x + (int)lround(bar.w * at / total);
        at += weight[i];
        int x1 = bar.x + (int)lround(bar.w * at / total);
        L->button[acts[i]] = rd__rect(x0, bar.y, x1 - x0 - gap, bar.h);
    }
}

/* The output's size, the UI scale and the three text sizes. */
static void layout_scale(const rd_frame *f, int w, int h, rd_layout *L)
{
    L->w = w;
    L->h = h;
    const rd_theme *th = rd_theme_get(f->theme);
    float dpi = f->dpi_scale > 0.25f ? f->dpi_scale : 1.0f;
    float fit = fminf(w / dpi / 1280.0f, h / dpi / 800.0f);
    fit = fmaxf(0.75f, fminf(fit, 2.0f));
    L->ui = dpi * fit;
    float ts = th->text_scale;
    L->px_small = (int)lroundf(12 * L->ui * ts);
    L->px_text = (int)lroundf(15 * L->ui * ts);
    L->px_big = (int)lroundf(19 * L->ui * ts);
    /* Very small windows: shrink text too, so labels still fit somewhere. */
    if (w < 700 || h < 450) {
        float k = fminf(w / 700.0f, h / 450.0f);
        L->px_small = (int)fmaxf(7, L->px_small * k);
        L->px_text = (int)fmaxf(8, L->px_text * k);
        L->px_big = (int)fmaxf(9, L->px_big * k);
    }
}

/* Compare mode: each lane of the timeline is named by its algorithm, in a
 * column cut from the timeline's left end (where the name fits in a
 * quarter of it), so the axis both lanes share starts after the names. */
static void layout_lane_names(const rd_frame *f, rd_text *text, rd_layout *L)
{
    if (f->npanels < 2 || !text || !f->panels[0].trace || !f->panels[1].trace)
        return;
    int lpx = (int)fminf((float)L->px_small, L->timeline.h / 2 * 0.62f), widest = 0;
    for (int p = 0; p < 2; p++) {
        int tw = 0;
        rd_text_measure(text, cv_algo_name(cv_trace_plan(f->panels[p].trace)->spec.algo), lpx,
                        &tw, NULL);
        widest = tw > widest ? tw : widest;
    }
    int col = widest + lpx;
    if (lpx < 7 || col > L->timeline.w / 4)
        return;
    L->lane_names = rd__rect(L->timeline.x, L->timeline.y, col, L->timeline.h);
    L->timeline.x += col;
    L->timeline.w -= col;
}

/* The button bar and the timeline at the bottom, where there is room;
 * returns the y the stage ends above. */
static int layout_controls(const rd_frame *f, rd_text *text, int header_h, int pad, rd_layout *L)
{
    int w = L->w, h = L->h, bottom = h;
    if (!f->controls)
        return bottom;
    int bh = (int)(L->px_text * 1.9);
    int th_ = (int)fmaxf(L->px_small * 2.4f, 22 * L->ui);
    if (f->npanels >= 2)
        th_ = th_ * 3 / 2; /* two lanes, each with its labels */
    bool room = h - header_h - bh - th_ - 3 * pad > 80;
    if (room && (w - 2 * pad) >= L->px_small * 26 && text) {
        L->buttons = rd__rect(pad, h - pad - bh, w - 2 * pad, bh);
        layout_buttons(text, f, L, L->buttons, w > 600 ? 2 : 0);
        bottom = L->buttons.y - pad / 2;
    }
    if (h - header_h - th_ - 2 * pad > 60) {
        L->timeline = rd__rect(pad, bottom - th_, w - 2 * pad, th_);
        bottom = L->timeline.y - pad / 2;
        layout_lane_names(f, text, L);
    }
    return bottom;
}

/* The narration panel on the right, where it is wanted and fits; returns
 * the x the stage ends left of. */
static int layout_narration_panel(const rd_frame *f, int header_h, int bottom, int pad,
                                  rd_layout *L)
{
    int w = L->w, h = L->h, right = w - pad;
    float dpi = f->dpi_scale > 0.25f ? f->dpi_scale : 1.0f;
    float ts = rd_theme_get(f->theme)->text_scale;
    if (f->lesson && w / dpi >= 560 && h / dpi >= 360) {
        /* A lesson is read more than watched: the text gets a third of the
         * window (more in small windows, where it would not fit), and the
         * panel stays even where the plain window would drop it. */
        float share = w / dpi >= 1100 && ts < 1.2f ? 0.32f : 0.40f;
        int nw = (int)fminf(fmaxf(w * share, 300 * L->ui), 640 * L->ui * ts);
        if (nw > w * 0.5f)
            nw = (int)(w * 0.5f);
        L->narration = rd__rect(w - pad - nw, header_h + pad / 2, nw, bottom - header_h - pad);
        right = L->narration.x - pad;
    } else if (f->narration && w / dpi >= 900 && h / dpi >= 500) {
        int nw = (int)fminf(fmaxf(w * 0.25f, 280 * L->ui), 560 * L->ui);
        if (ts > 1.2f)
            nw = (int)fminf(w * 0.32f, nw * 1.3f);
        L->narration = rd__rect(w - pad - nw, header_h + pad / 2, nw, bottom - header_h - pad);
        right = L->narration.x - pad;
    }
    return right;
}

/* A lesson's step timeline: a band along the stage's bottom, the
 * stage's full width (time runs across), as tall as its lanes need. */
static void layout_side_steptl(const rd_frame *f, int pad, rd_layout *L)
{
    const rd_steptl *tl = f->narr.steptl;
    if (!f->lesson || !tl || tl->nblocks <= 0 || L->narration.w <= 0)
        return;
    int nl = tl->nlanes < 1 ? 1 : tl->nlanes;
    int inner = (int)fmaxf(3, 6 * L->ui);
    int dh = (int)(L->px_small * (4.4f + rd__steptl_lane_px(nl) * nl)) + 2 * inner;
    if (dh > L->stage.h * 0.45f)
        dh = (int)(L->stage.h * 0.45f);
    L->steptl = rd__rect(L->stage.x, L->stage.y + L->stage.h - dh, L->stage.w, dh);
    L->stage.h -= dh + pad;
}

/* A lesson's diagram beside the stage: a tall diagram (the usual "where in
 * the model") takes a column on the stage's right, a wide one a band along
 * its bottom; the cards share what is left. */
static void layout_side_diagram(const rd_frame *f, int pad, rd_layout *L)
{
    const rd_diagram *dg = f->narr.diagram;
    if (!f->lesson || !dg || dg->nboxes <= 0 || L->narration.w <= 0)
        return;
    int cols = dg->cols > 0 ? dg->cols : 1, rows = dg->rows > 0 ? dg->rows : 1;
    if (cols <= rows) {
        int dw = (int)fminf(fmaxf(L->stage.w * 0.36f, 200 * L->ui),
                            120 * L->ui * cols + 120 * L->ui);
        if (dw > L->stage.w / 2)
            dw = L->stage.w / 2;
        L->diagram = rd__rect(L->stage.x + L->stage.w - dw, L->stage.y, dw, L->stage.h);
        L->stage.w -= dw + pad;
    } else {
        int dh = (int)fminf(fmaxf(L->stage.h * 0.12f,
                                  rows * L->px_small * 3.2f + L->px_small * 1.6f + 12 * L->ui),
                            L->stage.h * 0.4f);
        L->diagram = rd__rect(L->stage.x, L->stage.y + L->stage.h - dh, L->stage.w, dh);
        L->stage.h -= dh + pad;
    }
}

/* The stage's panels: one, or two side by side in compare mode. */
static void layout_panels(rd__scratch *sc, const rd_frame *f, rd_text *text, int pad, rd_layout *L)
{
    L->npanels = f->npanels >= 2 ? 2 : 1;
    if (L->npanels == 1) {
        rd__layout_panel(sc, f, &f->panels[0], L->stage, L, text, false, &L->panels[0]);
        return;
    }
    int half = (L->stage.w - pad) / 2;
    SDL_Rect a = rd__rect(L->stage.x, L->stage.y, half, L->stage.h);
    SDL_Rect b = rd__rect(L->stage.x + half + pad, L->stage.y, L->stage.w - half - pad, L->stage.h);
    rd__layout_panel(sc, f, &f->panels[0], a, L, text, true, &L->panels[0]);
    rd__layout_panel(sc, f, &f->panels[1], b, L, text, true, &L->panels[1]);
}

void rd__layout_frame(rd__scratch *sc, const rd_frame *f, int w, int h, rd_text *text, rd_layout *L)
{
    /* Only the fixed part is cleared: the narration's lines are filled
     * as far as they are used. */
    memset(L, 0, offsetof(rd_layout, lines));
    memset(&L->panels, 0, sizeof L->panels);
    L->npanels = 0;
    for (int p = 0; p < f->npanels && p < 2; p++)
        if (f->panels[p].trace && cv_trace_plan(f->panels[p].trace)->nsteps > L->nsteps)
            L->nsteps = cv_trace_plan(f->panels[p].trace)->nsteps;
    layout_scale(f, w < 1 ? 1 : w, h < 1 ? 1 : h, L);
    int pad = (int)fmaxf(2, 8 * L->ui);
    int header_h = pad + (int)(L->px_big * 1.4) + (int)(L->px_text * 1.4) + pad / 2;
    L->header = rd__rect(0, 0, L->w, header_h);
    int bottom = layout_controls(f, text, header_h, pad, L);
    int right = layout_narration_panel(f, header_h, bottom, pad, L);
    L->stage = rd__rect(pad, header_h + pad / 2, right - pad, bottom - header_h - pad);
    layout_side_steptl(f, pad, L);
    layout_side_diagram(f, pad, L);
    L->message = rd__rect(L->stage.x + L->stage.w / 8, L->stage.y + pad, L->stage.w * 3 / 4,
                          (int)(L->px_text * 2.2));
    layout_panels(sc, f, text, pad, L);
    rd__layout_narration(sc, text, f, L);
}

void rd_layout_compute(const rd_frame *f, int w, int h, rd_text *text, rd_layout *out)
{
    /* A caller without a context (a click tested before it is drawn):
     * scratch of its own, for this call. */
    rd__scratch *sc = cv_xcalloc(1, sizeof *sc);
    rd__layout_frame(sc, f, w, h, text, out);
    free(sc);
}

void rd_frame_init(rd_frame *f)
{
    memset(f, 0, sizeof *f);
    f->theme = RD_THEME_DARK;
    f->lang = CV_LANG_EN;
    f->dpi_scale = 1.0f;
    f->npanels = 1;
    f->speed = 1.0;
    f->narration = true;
    f->controls = true;
    f->mouse_x = f->mouse_y = -1;
    f->focus = -1;
    f->narr.steptl_t = -1;
    f->panels[0].t = f->panels[1].t = -1;
}

/*
 * rd_table.c: a table over the window (render.h's rd_table), the
 * reference card F3 opens: columns as wide as their widest cell, the text
 * made smaller until every column and row fits the window (down to a
 * floor that stays readable on a projector at 1024x768), a rule above
 * each group of rows, the title, caption, legend and how to close it.
 */
#include <math.h>

#include "rd_internal.h"

#define TABLE_COLS 12

/* The widths of the columns at px, and their sum with the gaps. */
static int measure(rd_ctx *c, const rd_table *t, int px, int gap, int *w)
{
    int total = 0;
    for (int k = 0; k < t->ncols && k < TABLE_COLS; k++) {
        int tw = 0;
        rd_text_measure(c->text, t->header[k], px, &w[k], NULL);
        for (int i = 0; i < t->nrows; i++) {
            rd_text_measure(c->text, t->cells[i * t->ncols + k], px, &tw, NULL);
            w[k] = tw > w[k] ? tw : w[k];
        }
        total += w[k] + (w[k] > 0 ? gap : 0);
    }
    return total;
}

/* The largest text size at which the table fits w x h. */
static int fit_px(rd_ctx *c, const rd_table *t, int px, int w, int h, int *cw)
{
    int floor_px = (int)fmaxf(9.0f, px * 0.55f);
    for (; px > floor_px; px--) {
        int lh = (int)(px * 1.35f), gap = px;
        /* title, caption, header, rows, three lines of legend, close */
        if (measure(c, t, px, gap, cw) <= w && (t->nrows + 8) * lh + 2 * px <= h)
            return px;
    }
    measure(c, t, px, px, cw);
    return px;
}

static void draw_rows(rd_ctx *c, const rd_table *t, const rd_theme *th, SDL_Rect box, int pad,
                      int top, int px, const int *cw)
{
    int lh = (int)(px * 1.35f), gap = px, x = box.x + pad;
    for (int k = 0; k < t->ncols && k < TABLE_COLS; x += cw[k] + (cw[k] ? gap : 0), k++)
        rd__text(c, t->header[k], px, th->accent, rd__rect(x, top, cw[k] + 2, lh), RD_ALIGN_LEFT,
                 1);
    top += lh;
    rd__fill(c->r, rd__rect(box.x + pad, top - 1, box.w - 2 * pad, 1), th->edge);
    for (int i = 0; i < t->nrows; i++) {
        int y = top + i * lh;
        if (i && t->group_start && t->group_start[i])
            rd__fill(c->r, rd__rect(box.x + pad, y, box.w - 2 * pad, 1), th->edge);
        x = box.x + pad;
        for (int k = 0; k < t->ncols && k < TABLE_COLS; x += cw[k] + (cw[k] ? gap : 0), k++)
            rd__text(c, t->cells[i * t->ncols + k], px, k == 0 ? th->accent : th->text,
                     rd__rect(x, y, cw[k] + 2, lh), RD_ALIGN_LEFT, 1);
    }
}

void rd__draw_table(rd_ctx *c, const rd_frame *f, const rd_table *t)
{
    const rd_theme *th = rd_theme_get(f->theme);
    const rd_layout *L = &c->L;
    int pad = (int)(12 * L->ui), cw[TABLE_COLS] = {0};
    int px = fit_px(c, t, L->px_text, L->w - 4 * pad, L->h - 2 * pad, cw);
    int lh = (int)(px * 1.35f), gap = px, tw = 0;
    for (int k = 0; k < t->ncols && k < TABLE_COLS; k++)
        tw += cw[k] + (cw[k] ? gap : 0);
    int w = (int)fminf((float)L->w, (float)(tw + 2 * pad));
    /* the legend wrapped to the table's width, three lines at most */
    char legend[3][256];
    int nleg = t->legend ? rd_text_wrap(c->text, t->legend, px, w - 2 * pad, &legend[0][0], 3,
                                        (int)sizeof legend[0])
                         : 0;
    int need = (int)(px * 1.6f) + lh + lh / 3 + (t->nrows + 1) * lh + (nleg + 1) * lh + pad / 2;
    int h = (int)fminf((float)L->h, (float)(need + 2 * pad));
    SDL_Rect box = rd__rect((L->w - w) / 2, (L->h - h) / 2, w, h);
    SDL_Color shade = th->bg;
    shade.a = 210;
    rd__fill(c->r, rd__rect(0, 0, L->w, L->h), shade);
    rd__fill(c->r, box, th->panel);
    rd__frame(c->r, box, (int)fmaxf(1, th->line * L->ui), th->accent);
    int y = box.y + pad;
    rd__text(c, t->title, (int)(px * 1.25f), th->accent,
             rd__rect(box.x + pad, y, box.w - 2 * pad, (int)(px * 1.6f)), RD_ALIGN_LEFT, 1);
    y += (int)(px * 1.6f);
    rd__text(c, t->caption, px, th->dim, rd__rect(box.x + pad, y, box.w - 2 * pad, lh),
             RD_ALIGN_LEFT | RD_ALIGN_FIT, 1);
    y += lh + lh / 3;
    draw_rows(c, t, th, box, pad, y, px, cw);
    int foot = box.y + box.h - pad - (nleg + 1) * lh;
    for (int i = 0; i < nleg; i++)
        rd__text(c, legend[i], px, th->dim, rd__rect(box.x + pad, foot + i * lh, box.w - 2 * pad, lh),
                 RD_ALIGN_LEFT, 1);
    rd__text(c, t->close, px, th->dim, rd__rect(box.x + pad, foot + nleg * lh, box.w - 2 * pad, lh),
             RD_ALIGN_LEFT | RD_ALIGN_FIT, 1);
}

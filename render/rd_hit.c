/*
 * rd_hit.c: what lies under a point of a laid-out frame: a bar or
 * navigation button, an answer, the timeline (and the time under the
 * point), a cell with the elements it holds, a row's name, a card, or the
 * narration panel. It reads the layout only, never what was drawn, so a
 * click is tested against the frame it lands on (rd_layout_compute) and
 * the tooltip against the frame being drawn.
 */
#include "rd_internal.h"

#include <math.h>
#include <string.h>

/* The bar's and the narration's buttons, the answers and the timeline. */
static bool hit_controls(const rd_layout *L, SDL_Point pt, rd_hit *h)
{
    for (int i = 1; i < RD_ACT_COUNT_; i++)
        if (L->button[i].w > 0 && SDL_PointInRect(&pt, &L->button[i])) {
            h->kind = RD_HIT_BUTTON;
            h->action = (rd_action)i;
            return true;
        }
    for (int i = 0; i < RD_MAX_CHOICES; i++)
        if (L->choice[i].w > 0 && SDL_PointInRect(&pt, &L->choice[i])) {
            h->kind = RD_HIT_CHOICE;
            h->choice = i;
            return true;
        }
    for (int i = 0; i < L->nnav && i < RD_MAX_NAV; i++)
        if (L->nav[i].w > 0 && SDL_PointInRect(&pt, &L->nav[i])) {
            h->kind = RD_HIT_BUTTON;
            h->action = L->nav_action[i];
            return true;
        }
    if (L->timeline.w > 0) {
        SDL_Rect tl = L->timeline;
        tl.y -= tl.h / 3;
        tl.h += tl.h * 2 / 3; /* forgiving for the mouse */
        if (SDL_PointInRect(&pt, &tl)) {
            double u = (double)(pt.x - L->timeline.x) / (L->timeline.w > 0 ? L->timeline.w : 1);
            h->kind = RD_HIT_TIMELINE;
            h->t = fmin(fmax(u, 0), 1) * L->nsteps;
            return true;
        }
    }
    return false;
}

/* A point on card cl of rank r in panel p: a row's name, a cell, or the
 * card itself. */
static void hit_card(const rd_card_layout *cl, int p, int r, SDL_Point pt, rd_hit *h)
{
    h->kind = RD_HIT_CARD;
    h->panel = p;
    h->rank = r;
    for (int b = 0; b < CV_BUF_COUNT; b++)
        if (cl->label[b].w > 0 && cl->count[b] > 0 && SDL_PointInRect(&pt, &cl->label[b]) &&
            !SDL_PointInRect(&pt, &cl->row[b])) {
            h->kind = RD_HIT_ROW; /* a row's name: the whole row */
            h->buf = (cv_buf)b;
            h->first = 0;
            h->count = cl->count[b];
            h->pick = RD_PICK_ROW;
            return;
        }
    for (int b = 0; b < CV_BUF_COUNT; b++) {
        if (cl->cells[b] == 0 || !SDL_PointInRect(&pt, &cl->row[b]))
            continue;
        int per = cl->per_line[b] > 0 ? cl->per_line[b] : 1;
        int lines = (cl->cells[b] + per - 1) / per;
        int line = (int)((int64_t)(pt.y - cl->row[b].y) * lines / cl->row[b].h);
        int col = (int)((int64_t)(pt.x - cl->row[b].x) * per / cl->row[b].w);
        int j = line * per + col;
        if (col < 0 || col >= per || j < 0 || j >= cl->cells[b])
            continue;
        h->kind = RD_HIT_CELL;
        h->panel = p;
        h->rank = r;
        h->buf = (cv_buf)b;
        rd_cell_span(cl, b, j, &h->first, &h->count);
        return;
    }
}

rd_hit rd_hit_test(const rd_layout *L, int x, int y)
{
    rd_hit h;
    memset(&h, 0, sizeof h);
    SDL_Point pt = {x, y};
    if (hit_controls(L, pt, &h))
        return h;
    for (int p = 0; p < L->npanels; p++) {
        const rd_panel_layout *pl = &L->panels[p];
        for (int k = 0; k <= RD_LENS_CARD; k++) {
            if (k >= pl->nparts && (k < RD_LENS_CARD || pl->lens_rank < 0))
                continue;
            if (!SDL_PointInRect(&pt, &pl->cards[k].card))
                continue;
            hit_card(&pl->cards[k], p, k == RD_LENS_CARD ? pl->lens_rank : k, pt, &h);
            return h;
        }
    }
    if (L->narration.w > 0 && SDL_PointInRect(&pt, &L->narration))
        h.kind = RD_HIT_NARRATION;
    return h;
}

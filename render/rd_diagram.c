/*
 * rd_diagram.c: draws a beat's boxes-and-arrows diagram, in the narration
 * panel or beside the stage, where rd__diagram_place put its boxes,
 * arrows and labels: device frames behind what they hold, arrows, the
 * boxes in their kind's colours with their labels, and the arrows' labels
 * last, so no box hides them.
 */
#include "rd_internal.h"

#include <math.h>
#include <string.h>

/* A box's label, on two lines when one is too narrow and the box is tall
 * enough; what still does not fit ends in an ellipsis. */
static void box_label(rd_ctx *c, const char *label, int px, SDL_Color col, SDL_Rect r)
{
    int w = 0;
    rd_text_measure(c->text, label, px, &w, NULL);
    int lh = (int)(px * 1.25);
    if (w <= r.w || r.h < 2 * lh + 2) {
        rd__text(c, label, px, col, r, RD_ALIGN_CENTER, 0);
        return;
    }
    char lines[3][256];
    int n = rd_text_wrap(c->text, label, px, r.w, &lines[0][0], 3, 256);
    if (n > 2) {
        /* Wider than the box now: rd__text cuts it with an ellipsis. */
        size_t len = strlen(lines[1]), more = strlen(lines[2]);
        if (len + 1 + more < sizeof lines[1]) {
            lines[1][len] = ' ';
            memcpy(lines[1] + len + 1, lines[2], more + 1);
        }
        n = 2;
    }
    int y = r.y + (r.h - n * lh) / 2;
    for (int i = 0; i < n; i++)
        rd__text(c, lines[i], px, col, rd__rect(r.x, y + i * lh, r.w, lh), RD_ALIGN_CENTER, 0);
}

void rd__draw_diagram(rd_ctx *c, const rd_frame *f, const rd_diagram *d, SDL_Rect area)
{
    const rd_theme *th = rd_theme_get(f->theme);
    int px = c->L.px_small;
    rd__diagram_geom *g = &c->diagram;
    rd__diagram_place(c->text, d, area, c->L.ui, px, g);
    float lw = fmaxf(1, th->line * c->L.ui);
    /* Device frames first: they are drawn behind what they contain. */
    for (int i = 0; i < g->nboxes; i++)
        if (d->boxes[i].kind == RD_BOX_DEVICE) {
            rd__frame(c->r, g->box[i], (int)lw, th->dim);
            rd__text(c, d->boxes[i].label, px, th->dim,
                     rd__rect(g->box[i].x + 3, g->box[i].y + 1, g->box[i].w - 6, (int)(px * 1.3)),
                     RD_ALIGN_LEFT, 0);
        }
    for (int i = 0; i < g->narrows; i++)
        if (g->arrow[i]) {
            const float *e = g->ends[i];
            rd__line(c->r, e[0], e[1], e[2], e[3], lw, th->link);
            rd__arrowhead(c->r, e[0], e[1], e[2], e[3], 7 * c->L.ui, th->link);
        }
    for (int i = 0; i < g->nboxes; i++) {
        const rd_diagram_box *b = &d->boxes[i];
        if (b->kind == RD_BOX_DEVICE)
            continue;
        SDL_Color fill = b->kind == RD_BOX_COMM   ? rd__mix(th->card, th->accent, 0.45f)
                         : b->kind == RD_BOX_DATA ? th->empty
                                                  : th->card;
        rd__fill(c->r, g->box[i], fill);
        rd__frame(c->r, g->box[i], (int)lw, b->kind == RD_BOX_COMM ? th->accent : th->edge);
        box_label(c, b->label, px, th->text,
                  rd__rect(g->box[i].x + 2, g->box[i].y, g->box[i].w - 4, g->box[i].h));
    }
    /* Arrow labels last, so no box hides them. */
    for (int i = 0; i < g->narrows; i++)
        if (g->label[i].w > 0) {
            rd__fill(c->r, g->label[i], th->panel);
            rd__text(c, d->arrows[i].label, px, th->dim, g->label[i], RD_ALIGN_CENTER, 0);
        }
}

void rd__draw_side_diagram(rd_ctx *c, const rd_frame *f)
{
    const rd_theme *th = rd_theme_get(f->theme);
    SDL_Rect d = c->L.diagram;
    if (d.w <= 0 || !f->narr.diagram)
        return;
    rd__fill(c->r, d, th->panel);
    int pad = (int)fmaxf(3, 6 * c->L.ui);
    rd__draw_diagram(c, f, f->narr.diagram,
                     rd__rect(d.x + pad, d.y + pad, d.w - 2 * pad, d.h - 2 * pad));
}

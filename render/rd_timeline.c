/*
 * rd_timeline.c: draws a lesson's step timeline, under the stage or in
 * the narration panel, where rd_steptl_place (rd_timeline_layout.c) put
 * its parts: the lanes with their names, the time axis, the blocks in
 * their kind's colours (compute, communication, an idle pipeline bubble
 * hatched), the stretches of communication no compute hides in the
 * warning colour and hatched, the markers, and a legend of the kinds the
 * timeline holds. All of that is drawn with the static layer; the cursor
 * that sweeps the step while the beat is shown, and the frame round the
 * blocks under it, are drawn each frame on top.
 */
#include "rd_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MAX_SEGS 8

/* The geometry for d in area, into the context's scratch: the lane
 * names' column is as wide as the widest name needs. */
static const rd_steptl_geom *steptl_geom(rd_ctx *c, const rd_steptl *d, SDL_Rect area)
{
    int px = c->L.px_small, label_w = 0;
    for (int l = 0; l < d->nlanes && l < RD_STEPTL_MAX_LANES; l++) {
        int w = 0;
        rd_text_measure(c->text, d->lanes[l], px, &w, NULL);
        label_w = w > label_w ? w : label_w;
    }
    rd_steptl_place(d, area, label_w + px / 2, px, &c->steptl);
    return &c->steptl;
}

/* Diagonal lines across r, every step pixels, clipped to r. */
static void hatch(SDL_Renderer *r, SDL_Rect rc, int step, SDL_Color col)
{
    if (rc.w <= 0 || rc.h <= 0 || step < 2)
        return;
    for (int k = -rc.h; k < rc.w; k += step) {
        float x0 = (float)(rc.x + k);
        float u0 = fmaxf(0, rc.x - x0), u1 = fminf((float)rc.h, rc.x + rc.w - x0);
        if (u1 <= u0)
            continue;
        rd__line(r, x0 + u0, rc.y + rc.h - u0, x0 + u1, rc.y + rc.h - u1, 1, col);
    }
}

static SDL_Color kind_fill(const rd_theme *th, int kind, bool exposed)
{
    if (kind == RD_SPAN_COMM)
        return exposed ? rd__mix(th->card, th->warn, 0.55f) : rd__mix(th->card, th->accent, 0.45f);
    if (kind == RD_SPAN_BUBBLE)
        return th->bg;
    return rd__mix(th->card, th->link, 0.30f);
}

static void draw_lanes_axis(rd_ctx *c, const rd_frame *f, const rd_steptl *d,
                            const rd_steptl_geom *g)
{
    const rd_theme *th = rd_theme_get(f->theme);
    int px = c->L.px_small;
    for (int l = 0; l < d->nlanes && l < RD_STEPTL_MAX_LANES; l++) {
        SDL_Rect ln = g->lane[l];
        if (l % 2 == 0)
            rd__fill(c->r, ln, rd__mix(th->panel, th->bg, 0.5f));
        rd__text(c, d->lanes[l], px, th->dim, rd__rect(g->names.x, ln.y, g->names.w, ln.h),
                 RD_ALIGN_LEFT, 0);
    }
    for (int k = 0; k < g->nticks; k++) {
        int x = rd_steptl_x(g, g->tick[k]);
        rd__fill(c->r, rd__rect(x, g->plot.y, 1, g->plot.h + px / 3), th->edge);
        char s[32];
        const char *unit = strcmp(d->unit, "us") == 0     ? "\xC2\xB5s"
                           : strcmp(d->unit, "slot") == 0 ? rd_str(f->lang, RD_S_TL_SLOTS)
                                                          : d->unit;
        if (k == g->nticks - 1)
            snprintf(s, sizeof s, "%g %s", g->tick[k], unit);
        else
            snprintf(s, sizeof s, "%g", g->tick[k]);
        int w = 0;
        rd_text_measure(c->text, s, px, &w, NULL);
        int x0 = x - w / 2;
        if (x0 + w > g->axis.x + g->axis.w + px * 3 / 2)
            x0 = g->axis.x + g->axis.w + px * 3 / 2 - w;
        rd__text(c, s, px, th->dim, rd__rect(x0, g->axis.y, w + 2, g->axis.h), RD_ALIGN_LEFT, 0);
    }
}

/* A block's label, centred, each line on a plate of the block's colour
 * (legible on hatching): on one line; a size smaller when it does not
 * fit; on two lines of that size where the block is tall enough; left out
 * when it still does not fit, since a label cut short reads as another
 * word. */
static void block_label(rd_ctx *c, const rd_theme *th, const rd_steptl_block *b, SDL_Rect r,
                        bool exposed)
{
    if (!b->label[0])
        return;
    char lines[3][32];
    int px = c->L.px_small, n = 1, w = 0;
    snprintf(lines[0], sizeof lines[0], "%s", b->label);
    rd_text_measure(c->text, b->label, px, &w, NULL);
    if (w + 6 > r.w) {
        px = (int)(px * 0.82f);
        rd_text_measure(c->text, b->label, px, &w, NULL);
        if (w + 6 > r.w)
            n = rd_text_wrap(c->text, b->label, px, r.w - 6, &lines[0][0], 3, 32);
    }
    int lh = (int)(px * 1.25);
    if (px < 8 || n > 2 || n * lh > r.h)
        return;
    /* Latin text breaks between words only ("optimiz/er" is no label);
     * Chinese may break between any two characters. */
    size_t k = strlen(lines[0]);
    if (n == 2 && b->label[k] != ' ' && (unsigned char)lines[1][0] < 0x80 &&
        (unsigned char)lines[0][k - 1] < 0x80)
        return;
    SDL_Color plate = kind_fill(th, b->kind, exposed && b->kind == RD_SPAN_COMM);
    int y = r.y + (r.h - n * lh) / 2;
    for (int i = 0; i < n; i++, y += lh) {
        rd_text_measure(c->text, lines[i], px, &w, NULL);
        if (w + 6 > r.w)
            return; /* a single word wider than the block */
        rd__fill(c->r, rd__rect(r.x + (r.w - w) / 2 - 2, y, w + 4, lh), plate);
        rd__text(c, lines[i], px, th->text, rd__rect(r.x + 2, y, r.w - 4, lh), RD_ALIGN_CENTER, 0);
    }
}

static void draw_block(rd_ctx *c, const rd_theme *th, const rd_steptl *d, const rd_steptl_geom *g,
                       int i)
{
    const rd_steptl_block *b = &d->blocks[i];
    SDL_Rect r = g->block[i];
    if (r.w <= 0)
        return;
    int hs = (int)fmaxf(4, 7 * c->L.ui);
    rd__fill(c->r, r, kind_fill(th, b->kind, false));
    if (b->kind == RD_SPAN_BUBBLE)
        hatch(c->r, r, hs, th->edge);
    double seg[MAX_SEGS][2];
    int nseg = 0;
    rd_steptl_exposed(d, i, seg, MAX_SEGS, &nseg);
    for (int s = 0; s < nseg; s++) {
        int x0 = rd_steptl_x(g, seg[s][0]), x1 = rd_steptl_x(g, seg[s][1]);
        SDL_Rect e = rd__rect(x0, r.y, x1 - x0 > 1 ? x1 - x0 : 1, r.h);
        rd__fill(c->r, e, kind_fill(th, RD_SPAN_COMM, true));
        hatch(c->r, e, hs, rd__mix(th->card, th->warn, 0.85f));
    }
    SDL_Color edge = b->kind == RD_SPAN_COMM     ? (nseg ? th->warn : th->accent)
                     : b->kind == RD_SPAN_BUBBLE ? th->dim
                                                 : th->edge;
    rd__frame(c->r, r, 1, edge);
    block_label(c, th, b, r, nseg > 0);
}

static void draw_markers(rd_ctx *c, const rd_theme *th, const rd_steptl *d, const rd_steptl_geom *g,
                         SDL_Rect area)
{
    int px = c->L.px_small;
    for (int m = 0; m < d->nmarkers && m < RD_STEPTL_MAX_MARKERS; m++) {
        int x = rd_steptl_x(g, d->markers[m].at);
        for (int y = area.y + (int)(px * 1.2); y < g->plot.y + g->plot.h; y += 6)
            rd__fill(c->r, rd__rect(x, y, 2, 3), th->text);
        /* Beside the line, not across it (nor under the cursor's head
         * when the cursor reaches it): right of it, or left where the
         * label would run past the area. */
        int w = 0, gap = px / 3 + 2;
        rd_text_measure(c->text, d->markers[m].label, px, &w, NULL);
        int x0 = x + gap + w > area.x + area.w ? x - gap - w : x + gap;
        x0 = x0 < area.x ? area.x : x0;
        rd__text(c, d->markers[m].label, px, th->text,
                 rd__rect(x0, area.y, area.x + area.w - x0, (int)(px * 1.3)), RD_ALIGN_LEFT, 0);
    }
}

/* The legend's entries: compute, hidden comm, exposed comm, bubble. */
static const rd_string legend_words[4] = {RD_S_TL_COMPUTE, RD_S_TL_HIDDEN, RD_S_TL_EXPOSED,
                                          RD_S_TL_BUBBLE};
static const int legend_kinds[4] = {RD_SPAN_COMPUTE, RD_SPAN_COMM, RD_SPAN_COMM, RD_SPAN_BUBBLE};

/* One swatch and its words per kind the timeline holds. */
static void draw_legend(rd_ctx *c, const rd_frame *f, const rd_steptl *d, const rd_steptl_geom *g)
{
    const rd_theme *th = rd_theme_get(f->theme);
    bool has[4] = {false, false, false, false}; /* compute, hidden, exposed, bubble */
    for (int i = 0; i < d->nblocks && i < RD_STEPTL_MAX_BLOCKS; i++) {
        const rd_steptl_block *b = &d->blocks[i];
        if (b->kind == RD_SPAN_COMM) {
            double ex = rd_steptl_exposed(d, i, NULL, 0, NULL);
            has[1] = has[1] || ex < b->dur - 1e-9 * fmax(1, b->dur);
            has[2] = has[2] || ex > 0;
        } else {
            has[b->kind == RD_SPAN_BUBBLE ? 3 : 0] = true;
        }
    }
    int px = c->L.px_small, x = g->legend.x, sw = px, gap = px;
    int y = g->legend.y + (g->legend.h - sw) / 2;
    for (int k = 0; k < 4; k++) {
        if (!has[k])
            continue;
        const char *s = rd_str(f->lang, legend_words[k]);
        int w = 0;
        rd_text_measure(c->text, s, px, &w, NULL);
        if (x + sw + 4 + w > g->legend.x + g->legend.w)
            break;
        SDL_Rect sq = rd__rect(x, y, sw, sw);
        rd__fill(c->r, sq, kind_fill(th, legend_kinds[k], k == 2));
        if (k >= 2)
            hatch(c->r, sq, 4, k == 2 ? th->warn : th->edge);
        rd__frame(c->r, sq, 1, k == 2 ? th->warn : k == 1 ? th->accent : th->edge);
        rd__text(c, s, px, th->dim, rd__rect(x + sw + 4, g->legend.y, w + 2, g->legend.h),
                 RD_ALIGN_LEFT, 0);
        x += sw + 4 + w + gap;
    }
}

/* Where the timeline is drawn this frame, inside its panel; w == 0: none. */
static SDL_Rect steptl_area(const rd_ctx *c)
{
    const rd_layout *L = &c->L;
    if (L->steptl.w > 0) {
        int pad = (int)fmaxf(3, 6 * L->ui);
        return rd__rect(L->steptl.x + pad, L->steptl.y + pad, L->steptl.w - 2 * pad,
                        L->steptl.h - 2 * pad);
    }
    return L->narr_steptl;
}

void rd__draw_steptl(rd_ctx *c, const rd_frame *f)
{
    const rd_steptl *d = f->narr.steptl;
    SDL_Rect area = steptl_area(c);
    if (!d || area.w <= 0 || area.h <= 0)
        return;
    const rd_theme *th = rd_theme_get(f->theme);
    if (c->L.steptl.w > 0)
        rd__fill(c->r, c->L.steptl, th->panel);
    const rd_steptl_geom *g = steptl_geom(c, d, area);
    draw_lanes_axis(c, f, d, g);
    for (int i = 0; i < d->nblocks && i < RD_STEPTL_MAX_BLOCKS; i++)
        draw_block(c, th, d, g, i);
    draw_markers(c, th, d, g, area);
    draw_legend(c, f, d, g);
}

void rd__draw_steptl_cursor(rd_ctx *c, const rd_frame *f)
{
    const rd_steptl *d = f->narr.steptl;
    SDL_Rect area = steptl_area(c);
    if (!d || area.w <= 0 || area.h <= 0 || f->narr.steptl_t < 0)
        return;
    const rd_theme *th = rd_theme_get(f->theme);
    const rd_steptl_geom *g = steptl_geom(c, d, area);
    double t = g->t0 + fmin(1, f->narr.steptl_t) * (g->t1 - g->t0);
    for (int i = 0; i < d->nblocks && i < RD_STEPTL_MAX_BLOCKS; i++) {
        const rd_steptl_block *b = &d->blocks[i];
        if (g->block[i].w > 0 && b->kind != RD_SPAN_BUBBLE && b->start <= t &&
            t < b->start + b->dur)
            rd__frame(c->r, g->block[i], (int)fmaxf(2, 2 * c->L.ui), th->flash);
    }
    float x = (float)rd_steptl_x(g, t), lw = fmaxf(2, 2 * c->L.ui);
    float top = (float)g->plot.y - c->L.px_small * 0.5f;
    rd__line(c->r, x, top, x, (float)(g->plot.y + g->plot.h), lw, th->text);
    rd__arrowhead(c->r, x, top - 6 * c->L.ui, x, top + 2, 6 * c->L.ui, th->text);
}

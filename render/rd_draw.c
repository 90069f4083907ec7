/*
 * rd_draw.c: one frame of a trace: the stage (its links here, its cards
 * in rd_card.c) and the things in flight, the two layers, and the hit test.
 *
 * A frame is drawn in two layers.  The static layer (background, header,
 * cards with their cells, links, timeline bands, buttons, narration) only
 * changes when the displayed step, the window or the view changes, so it is
 * rendered into a texture and reused; the dynamic layer (chunks flying,
 * reduction flashes, the timeline cursor, hover tooltip, help) is drawn on
 * top each frame.  That keeps a 64-rank frame on the software renderer to a
 * texture copy plus a few hundred small shapes.
 *
 * Time t: step k = floor(t) is in progress and its transfers fly for the
 * first RD_ARRIVE of the step; at arrival the destination cells switch to
 * the state after step k (cv_state_seek(k + 1)) and reduced cells flash.
 */
#include "rd_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------- lifecycle */

rd_ctx *rd_create(SDL_Renderer *r, const rd_font_paths *fonts, char *err, size_t errlen)
{
    rd_ctx *c = calloc(1, sizeof *c);
    if (!c) {
        fprintf(stderr, "collviz: out of memory\n");
        abort();
    }
    c->r = r;
    c->text = rd_text_create(r, fonts, err, errlen);
    if (!c->text) {
        free(c);
        return NULL;
    }
    return c;
}

void rd_destroy(rd_ctx *c)
{
    if (!c)
        return;
    if (c->layer)
        SDL_DestroyTexture(c->layer);
    for (int p = 0; p < 2; p++)
        free(c->cache[p].cells);
    rd_text_destroy(c->text);
    free(c);
}

rd_text *rd_ctx_text(rd_ctx *c) { return c->text; }
const rd_layout *rd_last_layout(const rd_ctx *c) { return &c->L; }

void rd_invalidate(rd_ctx *c)
{
    c->layer_ok = false;
    for (int p = 0; p < 2; p++) {
        c->cache[p].valid = false;
        c->links_plan[p] = NULL;
    }
}

void rd_debug_boxes(rd_ctx *c, bool on)
{
    c->debug = on;
    c->nboxes = 0;
}

int rd_boxes(const rd_ctx *c, const rd_box **out)
{
    *out = c->boxes;
    return c->nboxes;
}

void rd__box(rd_ctx *c, SDL_Rect r, int kind, int layer, const char *label)
{
    if (!c->debug || c->nboxes >= RD_MAX_BOXES || r.w <= 0 || r.h <= 0)
        return;
    rd_box *b = &c->boxes[c->nboxes++];
    b->r = r;
    b->kind = kind;
    b->layer = layer;
    snprintf(b->text, sizeof b->text, "%s", label ? label : "");
}

SDL_Rect rd__text(rd_ctx *c, const char *s, int px, SDL_Color col, SDL_Rect box, int align,
                  int layer)
{
    SDL_Rect r = rd_text_draw_in(c->text, s, px, col, box, align);
    rd__box(c, r, 0, layer, s);
    return r;
}

const cv_link *rd__link(const rd_panel *p)
{
    if (p->link)
        return p->link;
    const cv_link *presets = NULL;
    int n = cv_link_presets(&presets);
    return n > 0 ? &presets[0] : NULL;
}

int rd__shown_step(const cv_plan *plan, double t, int *step, double *frac)
{
    int n = plan ? plan->nsteps : 0;
    if (!(t > 0))
        t = 0;
    if (t > n)
        t = n;
    int k = (int)floor(t);
    double fr = t - k;
    if (k >= n) {
        k = n;
        fr = 0;
    }
    if (step)
        *step = k;
    if (frac)
        *frac = fr;
    return fr >= RD_ARRIVE ? k + 1 : k;
}

/* Where a link leaves the rectangle a towards b. */
static void edge_point(SDL_Rect a, float tx, float ty, float *x, float *y)
{
    float cx = a.x + a.w / 2.0f, cy = a.y + a.h / 2.0f;
    float dx = tx - cx, dy = ty - cy;
    float sx = dx != 0 ? (a.w / 2.0f) / fabsf(dx) : 1e9f;
    float sy = dy != 0 ? (a.h / 2.0f) / fabsf(dy) : 1e9f;
    float s = fminf(fminf(sx, sy), 1.0f);
    *x = cx + dx * s;
    *y = cy + dy * s;
}

static void draw_links(rd_ctx *c, const rd_frame *f, int p, int step)
{
    const rd_theme *th = rd_theme_get(f->theme);
    const rd_panel_layout *pl = &c->L.panels[p];
    const cv_plan *plan = cv_trace_plan(f->panels[p].trace);
    rd__links *ln = &c->links[p];
    if (c->links_plan[p] != plan) {
        rd__plan_links(plan, ln);
        c->links_plan[p] = plan;
    }
    /* Links used by the step in progress are drawn on top, in the accent. */
    rd__links active;
    memset(&active, 0, sizeof active);
    if (step < plan->nsteps) {
        const cv_step *st = &plan->steps[step];
        for (int64_t i = st->first; i < st->first + st->count; i++) {
            const cv_transfer *x = &plan->transfers[i];
            if (x->src != x->dst && x->src < 64 && x->dst < 64)
                active.m[x->src] |= 1ull << x->dst;
        }
    }
    for (int h = 0; p == 0 && h < f->nhl_links && h < RD_MAX_HL_LINKS; h++) {
        int s = f->hl_links[h][0], d = f->hl_links[h][1];
        if (s >= 0 && s < pl->nranks && d >= 0 && d < pl->nranks)
            active.m[s] |= 1ull << d;
    }
    int n = pl->nranks;
    float lw = th->line * c->L.ui * (n > 16 ? 0.6f : 1.0f);
    float head = 7 * c->L.ui * (th->line > 2 ? 1.5f : 1.0f);
    bool dense = n > 16;
    for (int pass = 0; pass < 2; pass++)
        for (int s = 0; s < n; s++)
            for (int d = 0; d < n; d++) {
                bool on = ln->m[s] >> d & 1;
                bool act = active.m[s] >> d & 1;
                if (!on && !act)
                    continue;
                if (act != (pass == 1))
                    continue;
                bool both = ln->m[d] >> s & 1;
                if (both && !act && s > d)
                    continue; /* one line for a two-way link */
                SDL_Rect a = pl->cards[s].card, b = pl->cards[d].card;
                float x0, y0, x1, y1;
                edge_point(a, b.x + b.w / 2.0f, b.y + b.h / 2.0f, &x0, &y0);
                edge_point(b, a.x + a.w / 2.0f, a.y + a.h / 2.0f, &x1, &y1);
                if (both && !dense) {
                    /* Two-way links: offset each direction a little so both
                     * arrows stay visible. */
                    float dx = x1 - x0, dy = y1 - y0, len = sqrtf(dx * dx + dy * dy);
                    if (len > 1) {
                        float o = 3 * c->L.ui;
                        x0 += -dy / len * o, y0 += dx / len * o;
                        x1 += -dy / len * o, y1 += dx / len * o;
                    }
                }
                SDL_Color col = act ? th->accent : th->link;
                if (dense && !act)
                    col = rd__mix(th->bg, th->link, 0.5f);
                rd__line(c->r, x0, y0, x1, y1, act ? lw * 1.6f : lw, col);
                if (!dense || act)
                    rd__arrowhead(c->r, x0, y0, x1, y1, head, col);
            }
}

static void draw_flight(rd_ctx *c, const rd_frame *f, int p, int step, double frac)
{
    const rd_theme *th = rd_theme_get(f->theme);
    const rd_panel_layout *pl = &c->L.panels[p];
    const cv_plan *plan = cv_trace_plan(f->panels[p].trace);
    if (step >= plan->nsteps || frac <= 0)
        return;
    const cv_step *st = &plan->steps[step];
    float size = fmaxf(3, fminf(pl->cards[0].row[CV_BUF_RECV].h * 0.55f, 16 * c->L.ui));
    if (th->line > 2)
        size *= 1.3f;
    for (int64_t i = st->first; i < st->first + st->count; i++) {
        const cv_transfer *x = &plan->transfers[i];
        if (x->src < 0 || x->src >= pl->nranks || x->dst < 0 || x->dst >= pl->nranks)
            continue;
        const rd_card_layout *sc = &pl->cards[x->src], *dc = &pl->cards[x->dst];
        float x0, y0, x1, y1;
        rd__region_centre(sc, x->src_buf, x->src_off, x->count, &x0, &y0);
        rd__region_centre(dc, x->dst_buf, x->dst_off, x->count, &x1, &y1);
        SDL_Color col = rd_rank_color(x->src);
        if (frac < RD_ARRIVE) {
            double u = frac / RD_ARRIVE;
            u = u * u * (3 - 2 * u); /* smoothstep: leave and land gently */
            float px = (float)(x0 + (x1 - x0) * u), py = (float)(y0 + (y1 - y0) * u);
            SDL_Color trail = col;
            trail.a = 110;
            SDL_SetRenderDrawBlendMode(c->r, SDL_BLENDMODE_BLEND);
            rd__line(c->r, x0, y0, px, py, fmaxf(1.5f, size / 4), trail);
            SDL_Color edge = th->text;
            rd__disc(c->r, px, py, size / 2 + fmaxf(1, c->L.ui), edge);
            rd__disc(c->r, px, py, size / 2, col);
        } else if (x->kind != CV_XFER_COPY) {
            /* Reductions flash where they land, fading until the step ends. */
            float a = (float)(1 - (frac - RD_ARRIVE) / (1 - RD_ARRIVE));
            SDL_Color fl = th->flash;
            fl.a = (Uint8)(200 * a);
            const rd_card_layout *cl = dc;
            SDL_Rect row = cl->row[x->dst_buf];
            if (row.w > 0 && cl->count[x->dst_buf] > 0) {
                int xa = row.x + (int)(row.w * (double)x->dst_off / cl->count[x->dst_buf]);
                int xb = row.x + (int)(row.w * (double)(x->dst_off + x->count) / cl->count[x->dst_buf]);
                SDL_Rect r = {xa, row.y, xb - xa > 1 ? xb - xa : 2, row.h};
                rd__fill(c->r, r, fl);
            }
        }
    }
}

static void draw_panel_static(rd_ctx *c, const rd_frame *f, int p)
{
    const rd_theme *th = rd_theme_get(f->theme);
    const rd_panel *panel = &f->panels[p];
    if (!panel->trace || !panel->state) {
        rd__text(c, rd_str(f->lang, RD_S_NO_TRACE), c->L.px_text, th->dim, c->L.panels[p].area,
                 RD_ALIGN_CENTER, 0);
        return;
    }
    const cv_plan *plan = cv_trace_plan(panel->trace);
    int step;
    double frac;
    int shown = rd__shown_step(plan, f->t, &step, &frac);
    if (cv_state_step(panel->state) != shown)
        cv_state_seek(panel->state, shown);
    c->shown[p] = shown;
    rd__update_cells(c, p, panel, shown);
    draw_links(c, f, p, step);
    for (int r = 0; r < c->L.panels[p].nranks; r++)
        rd__draw_card(c, f, p, r);
    rd__draw_legend(c, f, p);
    if (f->npanels >= 2)
        rd__draw_caption(c, f, p);
}

static void draw_static(rd_ctx *c, const rd_frame *f)
{
    const rd_theme *th = rd_theme_get(f->theme);
    SDL_SetRenderDrawColor(c->r, th->bg.r, th->bg.g, th->bg.b, 255);
    SDL_RenderClear(c->r);
    rd__draw_header(c, f);
    for (int p = 0; p < c->L.npanels; p++)
        draw_panel_static(c, f, p);
    if (c->L.diagram.w > 0)
        rd__draw_side_diagram(c, f);
    if (c->L.narration.w > 0)
        rd__draw_narration(c, f);
    if (c->L.timeline.w > 0)
        rd__draw_timeline(c, f, false);
    if (c->L.buttons.w > 0)
        rd__draw_buttons(c, f);
    if (f->message)
        rd__draw_message(c, f);
}

/* ----------------------------------------------------------------- frame */

static uint64_t mix64(uint64_t h, uint64_t v) { return (h ^ v) * 1099511628211ull; }

static uint64_t hash_str(uint64_t h, const char *s)
{
    if (!s)
        return mix64(h, 0x9e37);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        h = mix64(h, *p);
    return mix64(h, 0xff);
}

/* Everything the static layer depends on. */
static uint64_t static_key(const rd_ctx *c, const rd_frame *f)
{
    uint64_t h = 1469598103934665603ull;
    h = mix64(h, (uint64_t)c->L.w << 32 | (uint64_t)c->L.h);
    h = mix64(h, (uint64_t)f->theme << 8 | (uint64_t)f->lang << 4 | (uint64_t)f->npanels);
    h = mix64(h, (uint64_t)(f->dpi_scale * 1000));
    h = mix64(h, (uint64_t)f->playing << 3 | (uint64_t)f->narration << 2 | (uint64_t)f->controls);
    h = mix64(h, (uint64_t)(f->speed * 1000));
    for (int p = 0; p < f->npanels && p < 2; p++) {
        h = mix64(h, (uint64_t)(uintptr_t)f->panels[p].trace);
        h = mix64(h, (uint64_t)(uintptr_t)f->panels[p].link);
        h = hash_str(h, f->panels[p].backend);
        const cv_plan *plan = f->panels[p].trace ? cv_trace_plan(f->panels[p].trace) : NULL;
        int step;
        int shown = rd__shown_step(plan, f->t, &step, NULL);
        h = mix64(h, (uint64_t)shown << 20 | (uint64_t)step);
    }
    h = hash_str(h, f->message);
    h = mix64(h, f->hide_measured);
    h = mix64(h, f->hl_ranks);
    for (int i = 0; i < f->nhl_regions; i++)
        h = mix64(mix64(h, (uint64_t)f->hl_regions[i].rank << 8 | f->hl_regions[i].buf),
                  (uint64_t)f->hl_regions[i].first << 24 ^ (uint64_t)f->hl_regions[i].count);
    for (int i = 0; i < f->npicks; i++)
        h = mix64(mix64(h, (uint64_t)f->picks[i].rank << 8 | f->picks[i].buf),
                  (uint64_t)f->picks[i].first << 24 ^ (uint64_t)f->picks[i].count);
    h = mix64(h, (uint64_t)f->nhl_regions << 16 | (uint64_t)f->npicks);
    for (int i = 0; i < f->narr.nchoices && i < RD_MAX_CHOICES; i++) {
        h = hash_str(h, f->narr.choices[i]);
        h = mix64(h, (uint64_t)f->narr.choice_state[i]);
    }
    h = hash_str(h, f->narr.footer);
    h = hash_str(h, f->narr.kicker);
    h = hash_str(h, f->narr.prompt);
    h = hash_str(h, f->narr.feedback);
    h = hash_str(h, f->narr.input);
    h = hash_str(h, f->narr.input_unit);
    h = mix64(h, (uint64_t)f->narr.feedback_state << 40 ^ (uint64_t)(uint32_t)f->narr.scroll << 8 ^
                     (uint64_t)f->lesson);
    h = mix64(h, (uint64_t)f->narr.nav);
    for (int i = 0; i < f->nhl_links; i++)
        h = mix64(h, (uint64_t)f->hl_links[i][0] << 8 | (uint64_t)f->hl_links[i][1]);
    h = hash_str(h, f->narr.title);
    h = hash_str(h, f->narr.body);
    h = hash_str(h, f->narr.step);
    if (f->narr.diagram) {
        const unsigned char *d = (const unsigned char *)f->narr.diagram;
        for (size_t i = 0; i < sizeof *f->narr.diagram; i++)
            h = mix64(h, d[i]);
    }
    return h;
}

static void draw_dynamic(rd_ctx *c, const rd_frame *f)
{
    for (int p = 0; p < c->L.npanels; p++) {
        const rd_panel *panel = &f->panels[p];
        if (!panel->trace || !panel->state)
            continue;
        int step;
        double frac;
        rd__shown_step(cv_trace_plan(panel->trace), f->t, &step, &frac);
        draw_flight(c, f, p, step, frac);
    }
    if (c->L.timeline.w > 0)
        rd__draw_timeline(c, f, true);
    rd__draw_tooltip(c, f);
    if (f->help)
        rd__draw_help(c, f);
}

void rd_draw(rd_ctx *c, const rd_frame *f)
{
    int w = 0, h = 0;
    SDL_GetRendererOutputSize(c->r, &w, &h);
    rd_layout_compute(f, w, h, c->text, &c->L);
    c->nboxes = 0;
    bool cache = !c->debug && !c->no_targets;
    if (cache && (!c->layer || c->layer_w != w || c->layer_h != h)) {
        if (c->layer)
            SDL_DestroyTexture(c->layer);
        c->layer = SDL_CreateTexture(c->r, SDL_PIXELFORMAT_ARGB8888, SDL_TEXTUREACCESS_TARGET, w, h);
        c->layer_w = w;
        c->layer_h = h;
        c->layer_ok = false;
        if (!c->layer)
            c->no_targets = true, cache = false;
    }
    if (!cache) {
        draw_static(c, f);
    } else {
        uint64_t key = static_key(c, f);
        if (!c->layer_ok || key != c->layer_key) {
            if (SDL_SetRenderTarget(c->r, c->layer) != 0) {
                c->no_targets = true;
                draw_static(c, f);
                draw_dynamic(c, f);
                return;
            }
            draw_static(c, f);
            SDL_SetRenderTarget(c->r, NULL);
            c->layer_key = key;
            c->layer_ok = true;
        } else {
            /* The cached layer shows this state; keep cv_state in step
             * for the tooltip's values. */
            for (int p = 0; p < f->npanels && p < 2; p++)
                if (f->panels[p].state && f->panels[p].trace) {
                    int shown = rd__shown_step(cv_trace_plan(f->panels[p].trace), f->t, NULL, NULL);
                    if (cv_state_step(f->panels[p].state) != shown)
                        cv_state_seek(f->panels[p].state, shown);
                    c->shown[p] = shown;
                }
        }
        SDL_SetTextureBlendMode(c->layer, SDL_BLENDMODE_NONE);
        SDL_RenderCopy(c->r, c->layer, NULL, NULL);
    }
    draw_dynamic(c, f);
}

/* ------------------------------------------------------------------ hits */

rd_hit rd_hit_test(const rd_layout *L, int x, int y)
{
    rd_hit h;
    memset(&h, 0, sizeof h);
    SDL_Point pt = {x, y};
    for (int i = 1; i < RD_ACT_COUNT_; i++)
        if (L->button[i].w > 0 && SDL_PointInRect(&pt, &L->button[i])) {
            h.kind = RD_HIT_BUTTON;
            h.action = (rd_action)i;
            return h;
        }
    for (int i = 0; i < RD_MAX_CHOICES; i++)
        if (L->choice[i].w > 0 && SDL_PointInRect(&pt, &L->choice[i])) {
            h.kind = RD_HIT_CHOICE;
            h.choice = i;
            return h;
        }
    for (int i = 0; i < L->nnav && i < RD_MAX_NAV; i++)
        if (L->nav[i].w > 0 && SDL_PointInRect(&pt, &L->nav[i])) {
            h.kind = RD_HIT_BUTTON;
            h.action = L->nav_action[i];
            return h;
        }
    if (L->timeline.w > 0) {
        SDL_Rect tl = L->timeline;
        tl.y -= tl.h / 3;
        tl.h += tl.h * 2 / 3; /* forgiving for the mouse */
        if (SDL_PointInRect(&pt, &tl)) {
            double u = (double)(x - L->timeline.x) / (L->timeline.w > 0 ? L->timeline.w : 1);
            h.kind = RD_HIT_TIMELINE;
            h.t = fmin(fmax(u, 0), 1) * L->nsteps;
            return h;
        }
    }
    for (int p = 0; p < L->npanels; p++) {
        const rd_panel_layout *pl = &L->panels[p];
        for (int r = 0; r < pl->nranks; r++) {
            const rd_card_layout *cl = &pl->cards[r];
            if (!SDL_PointInRect(&pt, &cl->card))
                continue;
            for (int b = 0; b < CV_BUF_COUNT; b++) {
                if (cl->cells[b] == 0 || !SDL_PointInRect(&pt, &cl->row[b]))
                    continue;
                int j = (int)((int64_t)(x - cl->row[b].x) * cl->cells[b] / cl->row[b].w);
                if (j < 0 || j >= cl->cells[b])
                    continue;
                h.kind = RD_HIT_CELL;
                h.panel = p;
                h.rank = r;
                h.buf = (cv_buf)b;
                h.first = (int64_t)j * cl->group[b];
                h.count = cl->group[b];
                if (h.first + h.count > cl->count[b])
                    h.count = cl->count[b] - h.first;
                return h;
            }
        }
    }
    if (L->narration.w > 0 && SDL_PointInRect(&pt, &L->narration))
        h.kind = RD_HIT_NARRATION;
    return h;
}

/*
 * rd_draw.c: one frame of a trace: the renderer's context, the two layers,
 * and the order things are drawn in. The top of the drawing layer: it lays
 * the frame out (rd__layout_frame) and hands each part to its file.
 *
 * A frame is drawn in two layers.  The static layer (background, header,
 * cards with their cells, links, timeline bands, buttons, narration) only
 * changes when the displayed step, the window or the view changes, so it is
 * rendered into a texture and reused; the dynamic layer (chunks flying,
 * reduction flashes, the timeline cursor, hover tooltip, help) is drawn on
 * top each frame (rd_flight.c, rd_chrome.c, rd_overlay.c).  That keeps a
 * 64-rank frame on the software renderer to a texture copy plus a few
 * hundred small shapes.
 *
 * Time t: step k = floor(t) is in progress; the cards show the state
 * before it until its chunks land at RD_ARRIVE, then the state after it
 * (cv_state_seek(k + 1)).
 */
#include "rd_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------- lifecycle */

rd_ctx *rd_create(SDL_Renderer *r, const rd_font_paths *fonts, char *err, size_t errlen)
{
    rd_ctx *c = cv_xcalloc(1, sizeof *c);
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
    int shown = rd_shown_step(plan, rd__panel_t(f, panel), &step, &frac);
    if (cv_state_step(panel->state) != shown)
        cv_state_seek(panel->state, shown);
    c->shown[p] = shown;
    rd__update_cells(c, p, panel, shown);
    rd__draw_nodes(c, f, p);
    rd__draw_links(c, f, p, step);
    rd__draw_trees(c, f, p);
    rd__draw_rounds(c, f, p);
    const rd_panel_layout *pl = &c->L.panels[p];
    for (int r = 0; r < pl->nparts; r++) /* the switch, if any, last */
        rd__draw_card(c, f, p, r);
    if (pl->lens_rank >= 0) {
        /* The lens: one rank's card large enough to read every value. */
        const rd_theme *lt = rd_theme_get(f->theme);
        char cap[160];
        rd_strf(f->lang, RD_S_LENS, cap, sizeof cap, pl->lens_rank, 0);
        int cw = 0;
        rd_text_measure(c->text, cap, c->L.px_small, &cw, NULL);
        if (cw > pl->lens.w) /* narrow: the GPU alone */
            rd_strf(f->lang, RD_S_GPU, cap, sizeof cap, pl->lens_rank, 0);
        int ch = pl->cards[RD_LENS_CARD].card.y - pl->lens.y;
        rd__text(c, cap, c->L.px_small, lt->accent, rd__rect(pl->lens.x, pl->lens.y, pl->lens.w, ch),
                 RD_ALIGN_LEFT, 0);
        rd__draw_card(c, f, p, RD_LENS_CARD);
    }
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
    rd__draw_steptl(c, f);
    if (c->L.timeline.w > 0)
        rd__draw_timeline(c, f, false);
    if (c->L.buttons.w > 0)
        rd__draw_buttons(c, f);
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
    h = mix64(h, (uint64_t)f->landed);
    h = mix64(h, (uint64_t)(f->focus + 1));
    h = mix64(h, (uint64_t)(f->speed * 1000));
    for (int p = 0; p < f->npanels && p < 2; p++) {
        h = mix64(h, (uint64_t)(uintptr_t)f->panels[p].trace);
        h = mix64(h, (uint64_t)(uintptr_t)f->panels[p].link);
        h = hash_str(h, f->panels[p].backend);
        const cv_plan *plan = f->panels[p].trace ? cv_trace_plan(f->panels[p].trace) : NULL;
        int step;
        int shown = rd_shown_step(plan, rd__panel_t(f, &f->panels[p]), &step, NULL);
        h = mix64(h, (uint64_t)shown << 20 | (uint64_t)step);
        /* the step a double tree's trees light (the header's) */
        h = mix64(h, (uint64_t)rd_ref_step(plan ? plan->nsteps : 0,
                                           rd__panel_t(f, &f->panels[p]), NULL));
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
    for (int i = 0; i < f->nwrong; i++)
        h = mix64(mix64(h, (uint64_t)f->wrong[i].rank << 8 | f->wrong[i].buf),
                  (uint64_t)f->wrong[i].first << 24 ^ (uint64_t)f->wrong[i].count ^ 0x5a5a);
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
    h = hash_str(h, f->narr.just);
    h = hash_str(h, f->narr.next);
    if (f->narr.diagram) {
        const unsigned char *d = (const unsigned char *)f->narr.diagram;
        for (size_t i = 0; i < sizeof *f->narr.diagram; i++)
            h = mix64(h, d[i]);
    }
    if (f->narr.steptl) {
        const unsigned char *d = (const unsigned char *)f->narr.steptl;
        for (size_t i = 0; i < sizeof *f->narr.steptl; i++)
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
        int shown = rd_shown_step(cv_trace_plan(panel->trace), rd__panel_t(f, panel), &step, &frac);
        if (frac > 0 && frac < RD_ARRIVE)
            rd__draw_flight(c, f, p, step, frac);
        else if (frac >= RD_ARRIVE)
            rd__draw_landing(c, f, p, step, (float)(1 - (frac - RD_ARRIVE) / (1 - RD_ARRIVE)));
        else if (f->landed && shown > 0)
            rd__draw_landing(c, f, p, shown - 1, 0);
    }
    /* Over the flights and a landing's sum labels, which would hide it
     * (an edited value's field, a refusal, a lesson's gate). */
    if (f->message)
        rd__draw_message(c, f);
    if (c->L.timeline.w > 0)
        rd__draw_timeline(c, f, true);
    rd__draw_steptl_cursor(c, f);
    rd__draw_tooltip(c, f);
    rd__draw_pointer(c, f);
    if (f->help)
        rd__draw_help(c, f);
    else if (f->card)
        rd__draw_table(c, f, f->card);
}

void rd_draw(rd_ctx *c, const rd_frame *f)
{
    int w = 0, h = 0;
    SDL_GetRendererOutputSize(c->r, &w, &h);
    rd__layout_frame(&c->scratch, f, w, h, c->text, &c->L);
    rd__routes_begin(c);
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
                    int shown = rd_shown_step(cv_trace_plan(f->panels[p].trace),
                                              rd__panel_t(f, &f->panels[p]), NULL, NULL);
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

void rd_draw_notice(rd_ctx *c, rd_theme_id theme, const char *text)
{
    const rd_theme *th = rd_theme_get(theme);
    int w = 0, h = 0;
    SDL_GetRendererOutputSize(c->r, &w, &h);
    SDL_SetRenderDrawColor(c->r, th->bg.r, th->bg.g, th->bg.b, 255);
    SDL_RenderClear(c->r);
    int px = h / 40 < 14 ? 14 : h / 40 > 32 ? 32 : h / 40;
    rd__text(c, text, px, th->text, rd__rect(w / 16, h / 2 - px, w - w / 8, 2 * px),
             RD_ALIGN_CENTER, 0);
}

/*
 * rd_draw.c: one frame of a trace: the stage (GPU cards, buffer cells,
 * links) and the things in flight.
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
    rd_frame_init(&c->f);
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

/* ------------------------------------------------------------ cell cache */

static uint64_t layout_sig(const rd_panel_layout *pl)
{
    uint64_t h = 1469598103934665603ull;
    for (int r = 0; r < pl->nranks; r++)
        for (int b = 0; b < CV_BUF_COUNT; b++) {
            h = (h ^ (uint64_t)pl->cards[r].cells[b]) * 1099511628211ull;
            h = (h ^ (uint64_t)pl->cards[r].group[b]) * 1099511628211ull;
        }
    return h;
}

/* Fills the panel's cell cache for the state `shown` (already sought). */
static void update_cells(rd_ctx *c, int p, const rd_panel *panel, int shown)
{
    rd__cellcache *cc = &c->cache[p];
    const rd_panel_layout *pl = &c->L.panels[p];
    uint64_t sig = layout_sig(pl);
    if (cc->valid && cc->trace == panel->trace && cc->step == shown && cc->sig == sig)
        return;
    size_t total = 0;
    for (int r = 0; r < pl->nranks; r++)
        for (int b = 0; b < CV_BUF_COUNT; b++) {
            cc->off[r][b] = total;
            total += (size_t)pl->cards[r].cells[b];
        }
    if (total > cc->cap) {
        free(cc->cells);
        cc->cells = malloc(sizeof *cc->cells * total);
        if (!cc->cells) {
            fprintf(stderr, "collviz: out of memory\n");
            abort();
        }
        cc->cap = total;
    }
    for (int r = 0; r < pl->nranks; r++)
        for (int b = 0; b < CV_BUF_COUNT; b++) {
            const rd_card_layout *cl = &pl->cards[r];
            if (cl->cells[b] == 0)
                continue;
            cv_bufview v = cv_state_buf(panel->state, r, (cv_buf)b);
            for (int j = 0; j < cl->cells[b]; j++) {
                rd__cell *cell = &cc->cells[cc->off[r][b] + (size_t)j];
                int64_t first = (int64_t)j * cl->group[b];
                int64_t end = first + cl->group[b];
                if (end > v.count)
                    end = v.count;
                cell->first = first;
                cell->n = (int32_t)(end > first ? end - first : 0);
                cell->mask = 0;
                cell->last = -1;
                for (int64_t i = first; i < end; i++) {
                    if (v.masks)
                        cell->mask |= v.masks[i];
                    if (v.last_changed && v.last_changed[i] > cell->last)
                        cell->last = v.last_changed[i];
                }
            }
        }
    cc->trace = panel->trace;
    cc->step = shown;
    cc->sig = sig;
    cc->valid = true;
}

/* ---------------------------------------------------------------- stage */

static SDL_Rect cell_rect(const rd_card_layout *cl, int b, int j)
{
    SDL_Rect row = cl->row[b];
    int n = cl->cells[b];
    int x0 = row.x + (int)((int64_t)row.w * j / n);
    int x1 = row.x + (int)((int64_t)row.w * (j + 1) / n);
    int gap = (x1 - x0) >= 6 ? 1 : 0;
    return (SDL_Rect){x0, row.y, x1 - x0 - gap, row.h};
}

/* Centre of the cells holding elements [off, off + count) of a row. */
static void region_centre(const rd_card_layout *cl, int b, int64_t off, int64_t count,
                          float *x, float *y)
{
    SDL_Rect row = cl->row[b];
    if (cl->count[b] <= 0 || row.w <= 0) {
        *x = cl->card.x + cl->card.w / 2.0f;
        *y = cl->card.y + cl->card.h / 2.0f;
        return;
    }
    double mid = off + count / 2.0;
    *x = (float)(row.x + row.w * mid / (double)cl->count[b]);
    *y = row.y + row.h / 2.0f;
}

static void mask_label(const cv_spec *spec, cv_buf b, int rank, int64_t i, uint64_t mask,
                       char *out, size_t outlen)
{
    int chunk = rd__chunk_of(spec, b, rank, i);
    char letter[8];
    rd_chunk_name(chunk, letter, sizeof letter);
    out[0] = '\0';
    if (!mask)
        return;
    size_t len = 0;
    if (chunk < 0) {
        /* Scratch layouts are the algorithm's own: no chunk letter, just
         * the set of ranks. */
        len += (size_t)snprintf(out, outlen, "{");
        int k = 0;
        for (int r = 0; r < 64 && len + 6 < outlen; r++)
            if (mask >> r & 1)
                len += (size_t)snprintf(out + len, outlen - len, k++ ? ",%d" : "%d", r);
        snprintf(out + len, outlen - len, "}");
        return;
    }
    int pop = __builtin_popcountll(mask);
    if (pop > 3 && pop == spec->ranks) {
        snprintf(out, outlen, "%s*", letter);
        return;
    }
    int shown = 0;
    for (int r = 0; r < 64 && len + 8 < outlen; r++) {
        if (!(mask >> r & 1))
            continue;
        if (shown == 3 && pop > 4) {
            len += (size_t)snprintf(out + len, outlen - len, "+..");
            break;
        }
        len += (size_t)snprintf(out + len, outlen - len, "%s%s%d", shown ? "+" : "", letter, r);
        shown++;
    }
}

static void draw_stripes(SDL_Renderer *r, SDL_Rect s, uint64_t mask)
{
    int pop = __builtin_popcountll(mask);
    if (pop == 0 || s.w <= 0 || s.h <= 0)
        return;
    int segs = pop < s.w ? pop : s.w;
    int ranks[64], n = 0;
    for (int i = 0; i < 64; i++)
        if (mask >> i & 1)
            ranks[n++] = i;
    for (int k = 0; k < segs; k++) {
        int x0 = s.x + s.w * k / segs, x1 = s.x + s.w * (k + 1) / segs;
        rd__fill(r, (SDL_Rect){x0, s.y, x1 - x0, s.h}, rd_rank_color(ranks[k * n / segs]));
    }
}

static bool in_regions(const rd_region *rg, int n, int rank, int b, const rd__cell *cell)
{
    for (int i = 0; i < n; i++)
        if (rg[i].rank == rank && (int)rg[i].buf == b && rg[i].first < cell->first + cell->n &&
            cell->first < rg[i].first + rg[i].count)
            return true;
    return false;
}

/* The one text size for the values of a row of cells: the largest, from
 * cell_px down, at which the row's longest value fits its narrowest cell
 * (cells differ by a pixel where the row does not divide evenly), or 0 to
 * show none. One size per row, so neighbouring cells never differ in size
 * or in whether they show their number. */
static int row_value_px(rd_ctx *c, const rd_card_layout *cl, int b, const rd__cell *cells,
                        cv_dtype dtype, const void *values, int cell_px)
{
    if (!values || cell_px < 6)
        return 0;
    char longest[32] = "", val[32];
    size_t len = 0;
    for (int j = 0; j < cl->cells[b]; j++)
        if (cells[j].n == 1) {
            cv_value_format(dtype, values, cells[j].first, val, sizeof val);
            if (strlen(val) > len) {
                len = strlen(val);
                memcpy(longest, val, len + 1);
            }
        }
    int narrow = cl->row[b].w / cl->cells[b];
    narrow -= narrow >= 6 ? 1 : 0; /* cell_rect's gap */
    for (int px = cell_px; len > 0 && px >= 7; px = px * 4 / 5) {
        int w = 0;
        rd_text_measure(c->text, longest, px, &w, NULL);
        if (w <= narrow)
            return px;
    }
    return 0;
}

static void draw_card(rd_ctx *c, const rd_frame *f, int p, int rank)
{
    const rd_theme *th = rd_theme_get(f->theme);
    const rd_panel *panel = &f->panels[p];
    const cv_plan *plan = cv_trace_plan(panel->trace);
    const cv_spec *spec = &plan->spec;
    const rd_panel_layout *pl = &c->L.panels[p];
    const rd_card_layout *cl = &pl->cards[rank];
    rd__cellcache *cc = &c->cache[p];
    SDL_Renderer *R = c->r;
    int lw = (int)fmaxf(1, th->line * c->L.ui);
    bool hl = f->hl_ranks >> rank & 1;
    rd__fill(R, cl->card, th->card);
    rd__frame(R, cl->card, hl ? lw * 2 : lw, hl ? th->accent : th->edge);
    rd__box(c, cl->card, 1, 0, NULL);
    int px = pl->cell_px;
    SDL_Color rc = rd_rank_color(rank);
    if (cl->title.w > 0) {
        SDL_Rect sw = {cl->title.x, cl->title.y + cl->title.h / 4, cl->title.h / 2, cl->title.h / 2};
        rd__fill(R, sw, rc);
        char title[64];
        rd_strf(f->lang, RD_S_GPU, title, sizeof title, rank, 0);
        if (cv_op_has_root(spec->op) && rank == spec->root) {
            size_t l = strlen(title);
            snprintf(title + l, sizeof title - l, " (%s)", rd_str(f->lang, RD_S_ROOT));
        }
        SDL_Rect tb = {sw.x + sw.w + px / 2, cl->title.y, cl->title.w - sw.w - px / 2, cl->title.h};
        rd__text(c, title, px, th->text, tb, RD_ALIGN_LEFT, 0);
    }
    static const rd_string labels[CV_BUF_COUNT] = {RD_S_IN, RD_S_OUT, RD_S_TMP};
    for (int b = 0; b < CV_BUF_COUNT; b++) {
        if (cl->row[b].w <= 0 && cl->label[b].w <= 0)
            continue;
        if (cl->label[b].w > 0)
            rd__text(c, rd_str(f->lang, labels[b]), px * 9 / 10, th->dim, cl->label[b],
                     RD_ALIGN_LEFT, 0);
        if (cl->cells[b] == 0) {
            if (cl->row[b].w > 0)
                rd__text(c, rd_str(f->lang, RD_S_UNUSED), px * 9 / 10, th->dim, cl->row[b],
                         RD_ALIGN_LEFT, 0);
            continue;
        }
        cv_bufview v = cv_state_buf(panel->state, rank, (cv_buf)b);
        int cell_px = (int)fminf(px, cl->row[b].h * 0.42f);
        int vpx = row_value_px(c, cl, b, cc->cells + cc->off[rank][b], spec->dtype, v.values,
                               cell_px);
        for (int j = 0; j < cl->cells[b]; j++) {
            const rd__cell *cell = &cc->cells[cc->off[rank][b] + (size_t)j];
            SDL_Rect cr = cell_rect(cl, b, j);
            if (cr.w <= 0)
                continue;
            int pop = __builtin_popcountll(cell->mask);
            SDL_Color bg = th->empty;
            if (pop == 1)
                bg = rd__mix(th->card, rd_rank_color(__builtin_ctzll(cell->mask)), 0.30f);
            else if (pop > 1)
                bg = rd__mix(th->card, th->text, 0.10f);
            bool chunk_hl = p == 0 && in_regions(f->hl_regions, f->nhl_regions, rank, b, cell);
            bool picked = p == 0 && in_regions(f->picks, f->npicks, rank, b, cell);
            if (chunk_hl)
                bg = rd__mix(bg, th->accent, 0.35f);
            bool stripes_only = cr.h < 10 || cr.w < 5;
            if (stripes_only) {
                rd__fill(R, cr, chunk_hl || picked ? th->accent : th->empty);
                draw_stripes(R, cr, cell->mask);
            } else {
                rd__fill(R, cr, bg);
                int sh = (int)fmaxf(2, cr.h * 0.22f);
                draw_stripes(R, (SDL_Rect){cr.x, cr.y + cr.h - sh, cr.w, sh}, cell->mask);
                /* Cells the step just wrote get an outline: the arrival. */
                if (cell->last >= 0 && cell->last == cc->step - 1)
                    rd__frame(R, cr, (int)fmaxf(1, lw * 0.7f), th->accent);
                if (picked)
                    rd__frame(R, cr, (int)fmaxf(2, lw * 1.5f), th->text);
                if (cell->n == 1 && vpx > 0) {
                    char val[32];
                    cv_value_format(spec->dtype, v.values, cell->first, val, sizeof val);
                    SDL_Rect tb = {cr.x, cr.y, cr.w, cr.h - sh};
                    bool two = tb.h >= cell_px * 2.6f;
                    if (two)
                        tb.h = tb.h / 2 + cell_px / 4;
                    /* Values nothing has written yet (mask 0) are the
                     * buffer's initial zeros: shown, but dim. */
                    rd__text(c, val, vpx, cell->mask ? th->text : th->dim, tb, RD_ALIGN_CENTER, 0);
                    if (two) {
                        char lab[48];
                        mask_label(spec, (cv_buf)b, rank, cell->first, cell->mask, lab, sizeof lab);
                        SDL_Rect lb = {cr.x, tb.y + tb.h, cr.w, cr.h - sh - tb.h};
                        SDL_Rect done = rd__text(c, lab, cell_px * 4 / 5, th->dim, lb,
                                                 RD_ALIGN_CENTER | RD_ALIGN_FIT, 0);
                        if (done.w == 0 && lab[0]) {
                            /* Too long: the letter alone still says which chunk. */
                            lab[1] = lab[0] == '#' ? lab[1] : '\0';
                            rd__text(c, lab, cell_px * 4 / 5, th->dim, lb,
                                     RD_ALIGN_CENTER | RD_ALIGN_FIT, 0);
                        }
                    }
                }
            }
        }
    }
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
        region_centre(sc, x->src_buf, x->src_off, x->count, &x0, &y0);
        region_centre(dc, x->dst_buf, x->dst_off, x->count, &x1, &y1);
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
    update_cells(c, p, panel, shown);
    draw_links(c, f, p, step);
    for (int r = 0; r < c->L.panels[p].nranks; r++)
        draw_card(c, f, p, r);
    rd__draw_legend(c, f, p);
    if (f->npanels >= 2)
        rd__draw_caption(c, f, p);
}

static void draw_static(rd_ctx *c, const rd_frame *f)
{
    const rd_theme *th = rd_theme_get(f->theme);
    SDL_SetRenderDrawColor(c->r, th->bg.r, th->bg.g, th->bg.b, 255);
    SDL_RenderClear(c->r);
    memset(c->L.choice, 0, sizeof c->L.choice);
    memset(c->L.nav, 0, sizeof c->L.nav);
    memset(&c->L.input, 0, sizeof c->L.input);
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
    for (int i = 0; i < f->narr.nnav && i < RD_MAX_NAV; i++)
        h = hash_str(h, f->narr.nav[i]);
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
    /* Answer buttons (and the rest of the narration's clickable parts)
     * are placed while drawing the narration; keep them across frames that
     * reuse the cached layer. */
    SDL_Rect choices[RD_MAX_CHOICES], nav[RD_MAX_NAV], input = c->L.input;
    int scroll = c->L.narr_scroll, scroll_max = c->L.narr_scroll_max;
    memcpy(choices, c->L.choice, sizeof choices);
    memcpy(nav, c->L.nav, sizeof nav);
    rd_layout_compute(f, w, h, &c->L);
    memcpy(c->L.choice, choices, sizeof choices);
    memcpy(c->L.nav, nav, sizeof nav);
    c->L.input = input;
    c->L.narr_scroll = scroll;
    c->L.narr_scroll_max = scroll_max;
    c->f = *f;
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

rd_hit rd_hit_test(const rd_ctx *c, int x, int y)
{
    rd_hit h;
    memset(&h, 0, sizeof h);
    SDL_Point pt = {x, y};
    const rd_layout *L = &c->L;
    for (int i = 1; i < RD_ACT_COUNT_; i++)
        if (L->button[i].w > 0 && SDL_PointInRect(&pt, &L->button[i])) {
            h.kind = RD_HIT_BUTTON;
            h.action = (rd_action)i;
            return h;
        }
    for (int i = 0; i < c->f.narr.nchoices && i < RD_MAX_CHOICES; i++)
        if (L->choice[i].w > 0 && SDL_PointInRect(&pt, &L->choice[i])) {
            h.kind = RD_HIT_CHOICE;
            h.choice = i;
            return h;
        }
    for (int i = 0; i < c->f.narr.nnav && i < RD_MAX_NAV; i++)
        if (L->nav[i].w > 0 && SDL_PointInRect(&pt, &L->nav[i])) {
            h.kind = RD_HIT_NAV;
            h.choice = i;
            return h;
        }
    if (L->timeline.w > 0) {
        SDL_Rect tl = L->timeline;
        tl.y -= tl.h / 3;
        tl.h += tl.h * 2 / 3; /* forgiving for the mouse */
        if (SDL_PointInRect(&pt, &tl)) {
            int n = 0;
            for (int p = 0; p < c->f.npanels && p < 2; p++)
                if (c->f.panels[p].trace && cv_trace_plan(c->f.panels[p].trace)->nsteps > n)
                    n = cv_trace_plan(c->f.panels[p].trace)->nsteps;
            double u = (double)(x - L->timeline.x) / (L->timeline.w > 0 ? L->timeline.w : 1);
            h.kind = RD_HIT_TIMELINE;
            h.t = fmin(fmax(u, 0), 1) * n;
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

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
 * first RD_ARRIVE of the step, along the links as drawn, each with its
 * chunk's name and value; at arrival the destination cells switch to the
 * state after step k (cv_state_seek(k + 1)), reduced cells flash and show
 * their arithmetic (101 + 201 = 302) for the rest of the step, and for as
 * long as the window waits after a step played with the arrow key.
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

/* Behind the cards of each node, a band in the node's shade: the cards of
 * one node side by side in a row share one band, so a learner sees which
 * GPUs share a machine (the legend names the shades). */
static void draw_nodes(rd_ctx *c, const rd_frame *f, int p)
{
    const cv_plan *plan = cv_trace_plan(f->panels[p].trace);
    const rd_panel_layout *pl = &c->L.panels[p];
    int n = pl->nranks;
    if (cv_spec_nodes(&plan->spec) <= 1 || n < 2)
        return;
    const rd_theme *th = rd_theme_get(f->theme);
    int pad = (int)fmaxf(3, 6 * c->L.ui);
    int by[RD_LAYOUT_MAX_RANKS]; /* ranks by row, then left to right */
    for (int i = 0; i < n; i++)
        by[i] = i;
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0; j--) {
            SDL_Rect a = pl->cards[by[j - 1]].card, b = pl->cards[by[j]].card;
            if (a.y < b.y || (a.y == b.y && a.x <= b.x))
                break;
            int t = by[j - 1];
            by[j - 1] = by[j], by[j] = t;
        }
    for (int i = 0; i < n;) {
        SDL_Rect a = pl->cards[by[i]].card;
        int node = cv_plan_node_of(plan, by[i]), j = i + 1, bottom = a.y + a.h;
        while (j < n && pl->cards[by[j]].card.y == a.y && cv_plan_node_of(plan, by[j]) == node) {
            SDL_Rect b = pl->cards[by[j]].card;
            bottom = b.y + b.h > bottom ? b.y + b.h : bottom;
            j++;
        }
        SDL_Rect z = pl->cards[by[j - 1]].card;
        rd__fill(c->r, rd__rect(a.x - pad, a.y - pad, z.x + z.w - a.x + 2 * pad, bottom - a.y + 2 * pad),
                 rd__node_shade(th, node));
        i = j;
    }
}

/* A line in dashes: a link between nodes, through the network. */
static void dashed_line(SDL_Renderer *r, float x0, float y0, float x1, float y1, float w, float dash,
                        SDL_Color col)
{
    float dx = x1 - x0, dy = y1 - y0, len = sqrtf(dx * dx + dy * dy);
    if (len < 1 || dash < 1) {
        rd__line(r, x0, y0, x1, y1, w, col);
        return;
    }
    for (float s = 0; s < len; s += 2 * dash) {
        float e = fminf(s + dash, len);
        rd__line(r, x0 + dx * s / len, y0 + dy * s / len, x0 + dx * e / len, y0 + dy * e / len, w, col);
    }
}

static const rd__links *panel_links(rd_ctx *c, const rd_frame *f, int p)
{
    const cv_plan *plan = cv_trace_plan(f->panels[p].trace);
    if (c->links_plan[p] != plan) {
        rd__plan_links(plan, &c->links[p]);
        c->links_plan[p] = plan;
    }
    return &c->links[p];
}

static void draw_links(rd_ctx *c, const rd_frame *f, int p, int step)
{
    const rd_theme *th = rd_theme_get(f->theme);
    const rd_panel_layout *pl = &c->L.panels[p];
    const cv_plan *plan = cv_trace_plan(f->panels[p].trace);
    const rd__links *ln = panel_links(c, f, p);
    /* Links used by the step in progress are drawn on top, in the accent. */
    rd__links active;
    rd__step_links(plan, step, &active);
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
                float x0, y0, x1, y1;
                rd__link_ends(&c->L, p, s, d, both, &x0, &y0, &x1, &y1);
                SDL_Color col = act ? th->accent : th->link;
                if (dense && !act)
                    col = rd__mix(th->bg, th->link, 0.5f);
                if (rd__crosses_nodes(plan, s, d))
                    dashed_line(c->r, x0, y0, x1, y1, act ? lw * 1.6f : lw, 6 * c->L.ui, col);
                else
                    rd__line(c->r, x0, y0, x1, y1, act ? lw * 1.6f : lw, col);
                if (!dense || act)
                    rd__arrowhead(c->r, x0, y0, x1, y1, head, col);
            }
}

/* A label in a pill: the text on the panel colour, framed in col. */
static SDL_Rect pill(rd_ctx *c, const rd_theme *th, const char *text, int px, SDL_Color col,
                     float cx, float cy, int border)
{
    int tw = 0, thh = 0;
    rd_text_measure(c->text, text, px, &tw, &thh);
    int padx = px / 3 + border, h = (int)(px * 1.35) + 2 * border;
    SDL_Rect r = rd__rect((int)lroundf(cx - tw / 2.0f) - padx, (int)lroundf(cy - h / 2.0f),
                          tw + 2 * padx, h);
    /* On the stage (not over the narration), whatever the card's place. */
    SDL_Rect st = c->L.stage;
    if (r.x + r.w > st.x + st.w)
        r.x = st.x + st.w - r.w;
    if (r.x < st.x)
        r.x = st.x;
    if (r.y + r.h > st.y + st.h)
        r.y = st.y + st.h - r.h;
    if (r.y < st.y)
        r.y = st.y;
    rd__fill(c->r, r, col);
    rd__fill(c->r, rd__rect(r.x + border, r.y + border, r.w - 2 * border, r.h - 2 * border),
             th->panel);
    rd__text(c, text, px, th->text, rd__rect(r.x + padx, r.y + border, tw + 1, r.h - 2 * border),
             RD_ALIGN_CENTER, 1);
    return r;
}

static int pill_width(rd_ctx *c, const char *text, int px, int border)
{
    int tw = 0;
    rd_text_measure(c->text, text, px, &tw, NULL);
    return tw + 2 * (px / 3 + border);
}

/* "101 102 103" for up to three elements of a buffer, "…" after. */
static void values_text(const cv_spec *spec, cv_bufview v, int64_t off, int64_t count, char *out,
                        size_t outlen)
{
    size_t len = 0;
    out[0] = '\0';
    for (int64_t i = 0; i < count && i < 3 && off + i < v.count && len + 40 < outlen; i++) {
        char val[32];
        cv_value_format(spec->dtype, v.values, off + i, val, sizeof val);
        len += (size_t)snprintf(out + len, outlen - len, "%s%s", i ? " " : "", val);
    }
    if (count > 3 && len + 4 < outlen)
        snprintf(out + len, outlen - len, " \xE2\x80\xA6");
}

/* Where a chunk in flight is at u (0..1): it leaves its cells, crosses
 * its own card to the link, runs along the link as drawn, and crosses the
 * receiver's card to the cells it lands in. */
static void flight_point(rd_ctx *c, int p, const cv_transfer *x, bool both, double u, float *px,
                         float *py)
{
    const rd_panel_layout *pl = &c->L.panels[p];
    const rd_card_layout *sc = &pl->cards[x->src], *dc = &pl->cards[x->dst];
    float pts[4][2];
    int n = 0;
    rd__region_centre(sc, x->src_buf, x->src_off, x->count, &pts[0][0], &pts[0][1]);
    n = 1;
    if (x->src != x->dst) {
        rd__link_ends(&c->L, p, x->src, x->dst, both, &pts[1][0], &pts[1][1], &pts[2][0],
                      &pts[2][1]);
        n = 3;
    }
    rd__region_centre(dc, x->dst_buf, x->dst_off, x->count, &pts[n][0], &pts[n][1]);
    n++;
    float seg[3], total = 0;
    for (int i = 0; i + 1 < n; i++) {
        float dx = pts[i + 1][0] - pts[i][0], dy = pts[i + 1][1] - pts[i][1];
        seg[i] = sqrtf(dx * dx + dy * dy);
        total += seg[i];
    }
    float at = (float)u * total;
    for (int i = 0; i + 1 < n; i++) {
        if (at <= seg[i] || i + 2 == n) {
            float k = seg[i] > 0 ? fminf(at / seg[i], 1.0f) : 1.0f;
            *px = pts[i][0] + (pts[i + 1][0] - pts[i][0]) * k;
            *py = pts[i][1] + (pts[i + 1][1] - pts[i][1]) * k;
            return;
        }
        at -= seg[i];
    }
    *px = pts[n - 1][0];
    *py = pts[n - 1][1];
}

static void draw_flight(rd_ctx *c, const rd_frame *f, int p, int step, double frac)
{
    const rd_theme *th = rd_theme_get(f->theme);
    const rd_panel_layout *pl = &c->L.panels[p];
    const rd_panel *panel = &f->panels[p];
    const cv_plan *plan = cv_trace_plan(panel->trace);
    if (step >= plan->nsteps || frac <= 0 || frac >= RD_ARRIVE)
        return;
    const rd__links *ln = panel_links(c, f, p);
    const cv_step *st = &plan->steps[step];
    float size = fmaxf(3, fminf(pl->cards[0].row[CV_BUF_RECV].h * 0.55f, 16 * c->L.ui));
    if (th->line > 2)
        size *= 1.3f;
    double u = frac / RD_ARRIVE;
    u = u * u * (3 - 2 * u); /* smoothstep: leave and land gently */
    /* Labels while they can be told apart: a few dozen chunks at most,
     * none much wider than a card. */
    int px = c->L.px_small;
    bool labels = st->count <= 32 && panel->state;
    int card_w = pl->nranks > 0 ? pl->cards[0].card.w : 0;
    SDL_SetRenderDrawBlendMode(c->r, SDL_BLENDMODE_BLEND);
    for (int pass = 0; pass < 2; pass++)
        for (int64_t i = st->first; i < st->first + st->count; i++) {
            const cv_transfer *x = &plan->transfers[i];
            if (x->src < 0 || x->src >= pl->nparts || x->dst < 0 || x->dst >= pl->nparts)
                continue;
            bool both = x->dst < ln->n && x->src < ln->n && (ln->m[x->dst] >> x->src & 1) != 0;
            float x0, y0, qx, qy;
            flight_point(c, p, x, both, 0, &x0, &y0);
            flight_point(c, p, x, both, u, &qx, &qy);
            SDL_Color col = rd_theme_rank_color(th, x->src);
            if (pass == 0) {
                /* The trail and the chunk itself. */
                SDL_Color trail = col;
                trail.a = 110;
                int steps = 12;
                float lx = x0, ly = y0;
                for (int k = 1; k <= steps; k++) {
                    float mx, my;
                    flight_point(c, p, x, both, u * k / steps, &mx, &my);
                    rd__line(c->r, lx, ly, mx, my, fmaxf(1.5f, size / 4), trail);
                    lx = mx, ly = my;
                }
                rd__disc(c->r, qx, qy, size / 2 + fmaxf(1, c->L.ui), th->text);
                rd__disc(c->r, qx, qy, size / 2, col);
                continue;
            }
            /* With a lens, the cards are too small for labels: only the
             * chunks the lens's rank sends or receives carry theirs. */
            if (!labels || (pl->lens_rank >= 0 && x->src != pl->lens_rank && x->dst != pl->lens_rank))
                continue;
            /* Its name and, where there is room, its value. */
            cv_bufview v = cv_state_buf(panel->state, x->src, (cv_buf)x->src_buf);
            if (x->src_off >= v.count)
                continue;
            uint64_t mask = 0;
            for (int64_t e = x->src_off; e < x->src_off + x->count && e < v.count; e++)
                mask |= v.masks ? v.masks[e] : 0;
            char name[96], vals[128], text[240];
            rd_chunk_label(&plan->spec, (cv_buf)x->src_buf, x->src, x->src_off, mask, name,
                            sizeof name);
            int64_t last = x->src_off + x->count - 1;
            if (x->count > 1 && rd__chunk_of(&plan->spec, (cv_buf)x->src_buf, x->src, last) !=
                                    rd__chunk_of(&plan->spec, (cv_buf)x->src_buf, x->src, x->src_off)) {
                /* Several chunks at once (a broadcast's whole buffer): a0…h0. */
                char tail[48];
                rd_chunk_label(&plan->spec, (cv_buf)x->src_buf, x->src, last,
                                v.masks && last < v.count ? v.masks[last] : mask, tail, sizeof tail);
                size_t len = strlen(name);
                snprintf(name + len, sizeof name - len, "\xE2\x80\xA6%s", tail);
            }
            values_text(&plan->spec, v, x->src_off, x->count, vals, sizeof vals);
            snprintf(text, sizeof text, "%s: %s", name, vals);
            int border = (int)fmaxf(2, th->line * c->L.ui);
            if (!name[0] || pill_width(c, text, px, border) > card_w * 1.3f)
                snprintf(text, sizeof text, "%s", name[0] ? name : vals);
            if (!text[0] || pill_width(c, text, px, border) > card_w * 1.3f)
                continue;
            pill(c, th, text, px, col, qx, qy - size / 2 - px * 0.9f, border);
        }
}

/* The operator of a reduction as a learner writes it. */
static const char *redop_symbol(cv_redop r)
{
    switch (r) {
    case CV_PROD: return "\xC3\x97";
    case CV_BAND: return "&";
    case CV_BOR: return "|";
    case CV_BXOR: return "^";
    default: return "+";
    }
}

/* "101 + 201 = 302" for element k of a reduction that landed: a is what
 * the receiver held (its dst, or its local operand for reduce-copy), b
 * what arrived, c the result; all from the states before and after. */
static void arithmetic(const cv_spec *spec, const cv_transfer *x, int64_t k, cv_bufview src,
                       cv_bufview old, int64_t old_off, cv_bufview now, char *out, size_t outlen)
{
    char a[32], b[32], r[32];
    cv_value_format(spec->dtype, old.values, old_off + k, a, sizeof a);
    cv_value_format(spec->dtype, src.values, x->src_off + k, b, sizeof b);
    cv_value_format(spec->dtype, now.values, x->dst_off + k, r, sizeof r);
    if (spec->redop == CV_MIN || spec->redop == CV_MAX)
        snprintf(out, outlen, "%s(%s, %s) = %s", spec->redop == CV_MIN ? "min" : "max", a, b, r);
    else if (spec->redop == CV_AVG && !cv_dtype_is_float(spec->dtype) && (x->flags & CV_XFER_FINISH))
        snprintf(out, outlen, "(%s + %s) / %d = %s", a, b, spec->ranks, r);
    else
        snprintf(out, outlen, "%s %s %s = %s", a, redop_symbol(spec->redop), b, r);
}

/* What a step's reductions computed, where they landed: shown while the
 * step ends, and kept while the window waits after a step played with the
 * arrow key (f->landed), long enough to read. */
static void draw_landing(rd_ctx *c, const rd_frame *f, int p, int step, float flash)
{
    const rd_theme *th = rd_theme_get(f->theme);
    const rd_panel_layout *pl = &c->L.panels[p];
    const rd_panel *panel = &f->panels[p];
    const cv_plan *plan = cv_trace_plan(panel->trace);
    if (step < 0 || step >= plan->nsteps)
        return;
    const cv_step *st = &plan->steps[step];
    int reduces = 0;
    for (int64_t i = st->first; i < st->first + st->count; i++)
        reduces += plan->transfers[i].kind != CV_XFER_COPY;
    /* The states before and after the step: the panel's view shows the
     * one after; its second view is sought to the one before. */
    bool sums = reduces > 0 && reduces <= 32 && panel->before && panel->state &&
                cv_state_step(panel->state) == step + 1;
    if (sums && cv_state_step(panel->before) != step)
        cv_state_seek(panel->before, step);
    int px = c->L.px_small;
    int border = (int)fmaxf(2, th->line * c->L.ui);
    int used[RD_LENS_CARD + 1] = {0};
    SDL_SetRenderDrawBlendMode(c->r, SDL_BLENDMODE_BLEND);
    for (int64_t i = st->first; i < st->first + st->count; i++) {
        const cv_transfer *x = &plan->transfers[i];
        if (x->kind == CV_XFER_COPY || x->dst < 0 || x->dst >= pl->nparts)
            continue;
        const rd_card_layout *cl = &pl->cards[x->dst];
        SDL_Rect row = cl->row[x->dst_buf];
        if (row.w <= 0 || cl->count[x->dst_buf] <= 0 || cl->cells[x->dst_buf] <= 0)
            continue;
        /* The cells it wrote (a row may wrap onto several lines). */
        int j0 = rd_cell_of(cl, x->dst_buf, x->dst_off);
        int j1 = rd_cell_of(cl, x->dst_buf, x->dst_off + x->count - 1);
        for (int j = j0; j <= j1; j++) {
            SDL_Rect cr = rd_cell_rect(cl, x->dst_buf, j);
            if (flash > 0) {
                SDL_Color fl = th->flash;
                fl.a = (Uint8)(170 * flash);
                rd__fill(c->r, cr, fl);
            }
        }
        if (!sums || x->src < 0 || x->src >= pl->nparts)
            continue;
        cv_bufview src = cv_state_buf(panel->before, x->src, (cv_buf)x->src_buf);
        bool rc = x->kind == CV_XFER_REDUCE_COPY;
        cv_bufview old = cv_state_buf(panel->before, x->dst, (cv_buf)(rc ? x->local_buf : x->dst_buf));
        cv_bufview now = cv_state_buf(panel->state, x->dst, (cv_buf)x->dst_buf);
        int64_t old_off = rc ? x->local_off : x->dst_off;
        if (!src.values || !old.values || !now.values)
            continue;
        /* On the destination's card and, where the lens shows that
         * rank, on the lens's large card too. */
        for (int pass = 0; pass < 2; pass++) {
            int kc = pass ? RD_LENS_CARD : x->dst;
            if (pass && pl->lens_rank != x->dst)
                break;
            const rd_card_layout *tc = &pl->cards[kc];
            /* In the card's title line, right of "GPU 3": never over a value
             * (its own or another row's) nor over a neighbour's card. As many
             * of the chunk's sums as fit, else the result alone, "= 302". */
            if (tc->title.w <= 0 || tc->title.h <= 0)
                continue;
            char title[64];
            int ttpx;
            bool square;
            SDL_Rect tb = rd__card_title(c->text, &c->L, f, p, kc, title, sizeof title, &ttpx,
                                         &square);
            (void)square;
            int tw = 0;
            rd_text_measure(c->text, title, ttpx, &tw, NULL);
            int gap = (int)fmaxf(3, c->L.ui * 4);
            /* A second sum on the same card (a root that several send to)
             * goes after the first. */
            int from = tb.x + tw + gap;
            if (used[kc] > from)
                from = used[kc] + gap / 2;
            SDL_Rect area = {from, tc->title.y, 0, tc->title.h};
            area.w = tc->card.x + tc->card.w - gap / 2 - area.x;
            int tpx = px;
            while (tpx > 8 && (int)(tpx * 1.15f) + 2 * border > area.h)
                tpx--;
            if (area.w <= 0 || (int)(tpx * 1.15f) + 2 * border > area.h + 2)
                continue;
            char text[200], one[160];
            size_t len = 0;
            text[0] = '\0';
            for (int64_t k = 0; k < x->count && k < 4; k++) {
                arithmetic(&plan->spec, x, k, src, old, old_off, now, one, sizeof one);
                char next[400];
                snprintf(next, sizeof next, "%s%s%s", text, len ? ", " : "", one);
                if (pill_width(c, next, tpx, border) > area.w) {
                    if (k > 0)
                        snprintf(text + len, sizeof text - len, ", \xE2\x80\xA6");
                    break;
                }
                len = (size_t)snprintf(text, sizeof text, "%s", next);
            }
            if (!len || pill_width(c, text, tpx, border) > area.w) {
                char r[32];
                cv_value_format(plan->spec.dtype, now.values, x->dst_off, r, sizeof r);
                snprintf(text, sizeof text, "= %s", r);
                if (pill_width(c, text, tpx, border) > area.w)
                    continue;
            }
            int tw2 = 0;
            rd_text_measure(c->text, text, tpx, &tw2, NULL);
            int padx = tpx / 3 + border;
            SDL_Rect r = {area.x, area.y, tw2 + 2 * padx, area.h};
            rd__fill(c->r, r, th->accent);
            rd__fill(c->r, rd__rect(r.x + border, r.y + border, r.w - 2 * border, r.h - 2 * border),
                     th->panel);
            rd__text(c, text, tpx, th->text, rd__rect(r.x + padx, r.y + border, tw2 + 1, r.h - 2 * border),
                     RD_ALIGN_CENTER, 0);
            used[kc] = r.x + r.w;
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
    int shown = rd_shown_step(plan, rd__panel_t(f, panel), &step, &frac);
    if (cv_state_step(panel->state) != shown)
        cv_state_seek(panel->state, shown);
    c->shown[p] = shown;
    rd__update_cells(c, p, panel, shown);
    draw_nodes(c, f, p);
    draw_links(c, f, p, step);
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
            draw_flight(c, f, p, step, frac);
        else if (frac >= RD_ARRIVE)
            draw_landing(c, f, p, step, (float)(1 - (frac - RD_ARRIVE) / (1 - RD_ARRIVE)));
        else if (f->landed && shown > 0)
            draw_landing(c, f, p, shown - 1, 0);
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
    rd__layout_frame(&c->scratch, f, w, h, c->text, &c->L);
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


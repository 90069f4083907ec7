/*
 * rd_flight.c: what moves on the stage while a step plays. For the first
 * RD_ARRIVE of step k its transfers fly: each chunk leaves its cells,
 * crosses its card to the link, runs along the link as drawn and lands in
 * its cells, with a trail and, while they can be told apart, a label with
 * its name and values. At arrival the destination cells switch to the
 * state after the step (the cards show it), reduced cells flash, and their
 * arithmetic (101 + 201 = 302) shows in the title line of the card that
 * received it for the rest of the step, and for as long as the window
 * waits after a step played with the arrow key.
 */
#include "rd_internal.h"

#include <math.h>
#include <string.h>

/* ------------------------------------------------------------------ pills */

/* Where a pill for text at px centred on (cx, cy) goes: on the stage (not
 * over the narration), whatever the card's place. */
static SDL_Rect pill_rect(rd_ctx *c, const char *text, int px, float cx, float cy, int border)
{
    int tw = 0, thh = 0;
    rd_text_measure(c->text, text, px, &tw, &thh);
    int padx = px / 3 + border, h = (int)(px * 1.35) + 2 * border;
    SDL_Rect r = rd__rect((int)lroundf(cx - tw / 2.0f) - padx, (int)lroundf(cy - h / 2.0f),
                          tw + 2 * padx, h);
    SDL_Rect st = c->L.stage;
    if (r.x + r.w > st.x + st.w)
        r.x = st.x + st.w - r.w;
    if (r.x < st.x)
        r.x = st.x;
    if (r.y + r.h > st.y + st.h)
        r.y = st.y + st.h - r.h;
    if (r.y < st.y)
        r.y = st.y;
    return r;
}

/* A label in a pill at r (pill_rect): the text on the panel colour,
 * framed in col. */
static void pill(rd_ctx *c, const rd_theme *th, const char *text, int px, SDL_Color col, SDL_Rect r,
                 int border)
{
    int padx = px / 3 + border;
    rd__fill(c->r, r, col);
    rd__fill(c->r, rd__rect(r.x + border, r.y + border, r.w - 2 * border, r.h - 2 * border),
             th->panel);
    rd__text(c, text, px, th->text,
             rd__rect(r.x + padx, r.y + border, r.w - 2 * padx + 1, r.h - 2 * border),
             RD_ALIGN_CENTER, 1);
}

static int pill_width(rd_ctx *c, const char *text, int px, int border)
{
    int tw = 0;
    rd_text_measure(c->text, text, px, &tw, NULL);
    return tw + 2 * (px / 3 + border);
}

/* ---------------------------------------------------------------- flight */

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

/* Where a chunk in flight is at u (0..1) along its path (rd_flight_path:
 * it leaves its cells, crosses its own card to the link, runs along the
 * link as drawn, and crosses the receiver's card to the cells it lands
 * in); returns the segment it is on. */
static int flight_point(const float (*pts)[2], int n, double u, float *px, float *py)
{
    float seg[RD_ROUTE_MAX + 2], total = 0;
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
            return i;
        }
        at -= seg[i];
    }
    *px = pts[n - 1][0];
    *py = pts[n - 1][1];
    return n - 1;
}

/* A chunk's path (rd_flight_path) along its link's route as kept. */
static int flight_path(rd_ctx *c, int p, const cv_transfer *x, bool both, float (*pts)[2])
{
    float route[RD_ROUTE_MAX][2];
    int m = x->src != x->dst ? rd__route(c, p, x->src, x->dst, both, route) : 0;
    return rd__flight_path_on(&c->L, p, x, (const float(*)[2])route, m, pts);
}

/* A chunk in flight at u with its trail from where it left. Under LL or
 * LL128 it carries its flags ahead of it, in the text colour: a disc as
 * large as the data's under LL (4 B of flag for 4 B of data), a small tip
 * under LL128 (8 B of flags for 120 B). */
static void draw_chunk(rd_ctx *c, const rd_theme *th, int p, const cv_transfer *x, bool both,
                       double u, float size, SDL_Color col, cv_proto proto)
{
    float pts[RD_ROUTE_MAX + 2][2];
    int n = flight_path(c, p, x, both, pts);
    float qx, qy;
    int at = flight_point((const float(*)[2])pts, n, u, &qx, &qy);
    SDL_Color trail = col;
    trail.a = 110;
    /* The trail: the path's segments behind the chunk, the last to it. */
    for (int i = 0; i <= at && i + 1 < n; i++)
        rd__line(c->r, pts[i][0], pts[i][1], i == at ? qx : pts[i + 1][0],
                 i == at ? qy : pts[i + 1][1], fmaxf(1.5f, size / 4), trail);
    if (proto != CV_PROTO_SIMPLE && n > 1) {
        int k = at + 1 < n ? at : n - 2;
        float dx = pts[k + 1][0] - pts[k][0], dy = pts[k + 1][1] - pts[k][1];
        float len = sqrtf(dx * dx + dy * dy);
        if (len > 0) {
            float fr = proto == CV_PROTO_LL ? size / 2 : fmaxf(1.5f, size / 5);
            float fx = qx + dx / len * (size / 2 + fr), fy = qy + dy / len * (size / 2 + fr);
            rd__disc(c->r, fx, fy, fr + fmaxf(1, c->L.ui), col);
            rd__disc(c->r, fx, fy, fr, th->text);
        }
    }
    rd__disc(c->r, qx, qy, size / 2 + fmaxf(1, c->L.ui), th->text);
    rd__disc(c->r, qx, qy, size / 2, col);
}

/* What a chunk in flight is labelled with: its name and, where there is
 * room, its values ("b0+1: 101 102"); "" where not even one of them fits
 * max_w pixels in a pill of border at px. */
static void flight_label(rd_ctx *c, const rd_panel *panel, const cv_transfer *x, int px, int border,
                         float max_w, char *text, size_t textlen)
{
    const cv_plan *plan = cv_trace_plan(panel->trace);
    text[0] = '\0';
    cv_bufview v = cv_state_buf(panel->state, x->src, (cv_buf)x->src_buf);
    if (x->src_off >= v.count)
        return;
    /* The first chunk's ranks only: a run of gathered blocks a0, b1 is
     * "a0…b1", never "a0+1…b1" (nothing was summed). */
    uint64_t mask = 0;
    int first = rd__chunk_of(&plan->spec, (cv_buf)x->src_buf, x->src, x->src_off);
    for (int64_t e = x->src_off; e < x->src_off + x->count && e < v.count; e++) {
        if (rd__chunk_of(&plan->spec, (cv_buf)x->src_buf, x->src, e) != first)
            break;
        mask |= v.masks ? v.masks[e] : 0;
    }
    char name[96], vals[128];
    rd_chunk_label(&plan->spec, (cv_buf)x->src_buf, x->src, x->src_off, mask, name, sizeof name);
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
    snprintf(text, textlen, "%s: %s", name, vals);
    if (!name[0] || pill_width(c, text, px, border) > max_w)
        snprintf(text, textlen, "%s", name[0] ? name : vals);
    if (!text[0] || pill_width(c, text, px, border) > max_w)
        text[0] = '\0';
}

void rd__draw_flight(rd_ctx *c, const rd_frame *f, int p, int step, double frac)
{
    const rd_theme *th = rd_theme_get(f->theme);
    const rd_panel_layout *pl = &c->L.panels[p];
    const rd_panel *panel = &f->panels[p];
    const cv_plan *plan = cv_trace_plan(panel->trace);
    if (step >= plan->nsteps || frac <= 0 || frac >= RD_ARRIVE)
        return;
    const rd__links *ln = rd__panel_links(c, f, p);
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
    int border = (int)fmaxf(2, th->line * c->L.ui);
    SDL_SetRenderDrawBlendMode(c->r, SDL_BLENDMODE_BLEND);
    SDL_Rect placed[32]; /* the labels drawn so far */
    int nplaced = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int64_t i = st->first; i < st->first + st->count; i++) {
            const cv_transfer *x = &plan->transfers[i];
            if (x->src < 0 || x->src >= pl->nparts || x->dst < 0 || x->dst >= pl->nparts)
                continue;
            bool both = x->dst < ln->n && x->src < ln->n && (ln->m[x->dst] >> x->src & 1) != 0;
            /* What the switch sends is everyone's: no rank's colour. */
            SDL_Color col = x->src < pl->nranks ? rd_theme_rank_color(th, x->src) : th->text;
            if (pass == 0) {
                draw_chunk(c, th, p, x, both, u, size, col, plan->spec.proto);
                continue;
            }
            /* With a lens, the cards are too small for labels: only the
             * chunks the lens's rank sends or receives carry theirs. */
            if (!labels ||
                (pl->lens_rank >= 0 && x->src != pl->lens_rank && x->dst != pl->lens_rank))
                continue;
            char text[240];
            flight_label(c, panel, x, px, border, card_w * 1.3f, text, sizeof text);
            if (!text[0])
                continue;
            float pts[RD_ROUTE_MAX + 2][2], qx, qy;
            flight_point((const float(*)[2])pts, flight_path(c, p, x, both, pts), u, &qx, &qy);
            /* A label over one already drawn is left out: where chunks
             * converge (on a switch, a root) the first ones keep theirs. */
            SDL_Rect r = pill_rect(c, text, px, qx, qy - size / 2 - px * 0.9f, border);
            bool clear = true;
            for (int k = 0; k < nplaced && clear; k++)
                clear = !SDL_HasIntersection(&r, &placed[k]);
            if (!clear || nplaced >= 32)
                continue;
            placed[nplaced++] = r;
            pill(c, th, text, px, col, r, border);
        }
}

/* --------------------------------------------------------------- landing */

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
    else if (spec->redop == CV_AVG && !cv_dtype_is_float(spec->dtype) &&
             (x->flags & CV_XFER_FINISH))
        snprintf(out, outlen, "(%s + %s) / %d = %s", a, b, spec->ranks, r);
    else
        snprintf(out, outlen, "%s %s %s = %s", a, redop_symbol(spec->redop), b, r);
}

/* The sums of transfer x in the title line of card kc right of its title
 * (after used[kc], where a sum is already drawn): as many of the chunk's
 * sums as fit, else the result alone, "= 302"; never over a value (its
 * own or another row's) nor over a neighbour's card. */
static void draw_sums(rd_ctx *c, const rd_frame *f, int p, int kc, const cv_transfer *x,
                      const cv_bufview bv[3], int64_t old_off, int *used)
{
    const rd_theme *th = rd_theme_get(f->theme);
    const cv_plan *plan = cv_trace_plan(f->panels[p].trace);
    const rd_card_layout *tc = &c->L.panels[p].cards[kc];
    int px = c->L.px_small, border = (int)fmaxf(2, th->line * c->L.ui);
    if (tc->title.w <= 0 || tc->title.h <= 0)
        return;
    char title[64];
    int ttpx;
    bool square;
    SDL_Rect tb = rd__card_title(c->text, &c->L, f, p, kc, title, sizeof title, &ttpx, &square);
    int tw = 0;
    rd_text_measure(c->text, title, ttpx, &tw, NULL);
    int gap = (int)fmaxf(3, c->L.ui * 4);
    /* A second sum on the same card (a root that several send to) goes
     * after the first. */
    int from = tb.x + tw + gap;
    if (used[kc] > from)
        from = used[kc] + gap / 2;
    SDL_Rect area = {from, tc->title.y, 0, tc->title.h};
    area.w = tc->card.x + tc->card.w - gap / 2 - area.x;
    int tpx = px;
    while (tpx > 8 && (int)(tpx * 1.15f) + 2 * border > area.h)
        tpx--;
    if (area.w <= 0 || (int)(tpx * 1.15f) + 2 * border > area.h + 2)
        return;
    char text[200], one[160];
    size_t len = 0;
    text[0] = '\0';
    for (int64_t k = 0; k < x->count && k < 4; k++) {
        arithmetic(&plan->spec, x, k, bv[0], bv[1], old_off, bv[2], one, sizeof one);
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
        cv_value_format(plan->spec.dtype, bv[2].values, x->dst_off, r, sizeof r);
        snprintf(text, sizeof text, "= %s", r);
        if (pill_width(c, text, tpx, border) > area.w)
            return;
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

/* The cells transfer x wrote (a row may wrap onto several lines), flashed
 * at flash (0: not at all); false where its row is not drawn. */
static bool flash_cells(rd_ctx *c, const rd_theme *th, const rd_card_layout *cl,
                        const cv_transfer *x, float flash)
{
    SDL_Rect row = cl->row[x->dst_buf];
    if (row.w <= 0 || cl->count[x->dst_buf] <= 0 || cl->cells[x->dst_buf] <= 0)
        return false;
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
    return true;
}

/* Whether step's reductions get their sums: a few of them, and the
 * panel's views at the states before (sought here) and after the step. */
static bool sums_shown(const rd_panel *panel, const cv_plan *plan, int step)
{
    const cv_step *st = &plan->steps[step];
    int reduces = 0;
    for (int64_t i = st->first; i < st->first + st->count; i++)
        reduces += plan->transfers[i].kind != CV_XFER_COPY;
    bool sums = reduces > 0 && reduces <= 32 && panel->before && panel->state &&
                cv_state_step(panel->state) == step + 1;
    if (sums && cv_state_step(panel->before) != step)
        cv_state_seek(panel->before, step);
    return sums;
}

void rd__draw_landing(rd_ctx *c, const rd_frame *f, int p, int step, float flash)
{
    const rd_theme *th = rd_theme_get(f->theme);
    const rd_panel_layout *pl = &c->L.panels[p];
    const rd_panel *panel = &f->panels[p];
    const cv_plan *plan = cv_trace_plan(panel->trace);
    if (step < 0 || step >= plan->nsteps)
        return;
    const cv_step *st = &plan->steps[step];
    bool sums = sums_shown(panel, plan, step);
    int used[RD_LENS_CARD + 1] = {0};
    SDL_SetRenderDrawBlendMode(c->r, SDL_BLENDMODE_BLEND);
    for (int64_t i = st->first; i < st->first + st->count; i++) {
        const cv_transfer *x = &plan->transfers[i];
        if (x->kind == CV_XFER_COPY || x->dst < 0 || x->dst >= pl->nparts)
            continue;
        if (!flash_cells(c, th, &pl->cards[x->dst], x, flash))
            continue;
        if (!sums || x->src < 0 || x->src >= pl->nparts)
            continue;
        /* What arrived, what the receiver held (its dst, or its local
         * operand for reduce-copy) and the result. */
        bool rc = x->kind == CV_XFER_REDUCE_COPY;
        cv_bufview bv[3] = {cv_state_buf(panel->before, x->src, (cv_buf)x->src_buf),
                            cv_state_buf(panel->before, x->dst,
                                         (cv_buf)(rc ? x->local_buf : x->dst_buf)),
                            cv_state_buf(panel->state, x->dst, (cv_buf)x->dst_buf)};
        if (!bv[0].values || !bv[1].values || !bv[2].values)
            continue;
        /* On the destination's card and, where the lens shows that rank,
         * on the lens's large card too. */
        draw_sums(c, f, p, x->dst, x, bv, rc ? x->local_off : x->dst_off, used);
        if (pl->lens_rank == x->dst)
            draw_sums(c, f, p, RD_LENS_CARD, x, bv, rc ? x->local_off : x->dst_off, used);
    }
}

/*
 * rd_cells.c: geometry read off a laid-out card: where cell j of a row is
 * and which elements it holds, the cell an element is drawn in, the centre
 * of a run of cells (where a chunk in flight leaves and lands), the route
 * a link takes from one card to another (straight where that crosses no
 * other card, else through the lane or gap beside the cards, in an arc, or
 * with two turns through the gaps beside its ends) and a chunk's whole
 * path along it, and a card's title with the box it fits in. Pure
 * functions of the layout (and, for the title, measured text): the
 * drawing, the chunks in flight, the hit test and test_render_routes all
 * read the cards through these.
 */
#include "rd_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ----------------------------------------------------------------- cells */

SDL_Rect rd_cell_rect(const rd_card_layout *cl, int b, int j)
{
    SDL_Rect row = cl->row[b];
    int n = cl->cells[b], per = cl->per_line[b] > 0 ? cl->per_line[b] : 1;
    if (n <= 0 || row.w <= 0)
        return rd__rect(row.x, row.y, 0, 0);
    int lines = (n + per - 1) / per, line = j / per, k = j % per;
    int x0 = row.x + (int)((int64_t)row.w * k / per);
    int x1 = row.x + (int)((int64_t)row.w * (k + 1) / per);
    int y0 = row.y + row.h * line / lines, y1 = row.y + row.h * (line + 1) / lines;
    int gx = (x1 - x0) >= 6 ? 1 : 0, gy = lines > 1 && y1 - y0 >= 8 ? 1 : 0;
    return rd__rect(x0, y0, x1 - x0 - gx, y1 - y0 - gy);
}

void rd_cell_span(const rd_card_layout *cl, int b, int j, int64_t *first, int64_t *count)
{
    int64_t f, e;
    if (cl->part[b] > 0) {
        /* chunk j of the op's split of part elements over cells chunks:
         * element i belongs to chunk i * cells / part */
        int64_t n = cl->cells[b], c = cl->part[b];
        f = (j * c + n - 1) / n;
        e = ((j + 1) * c + n - 1) / n;
    } else {
        f = (int64_t)j * cl->group[b];
        e = f + cl->group[b];
    }
    if (e > cl->count[b])
        e = cl->count[b];
    *first = f;
    *count = e > f ? e - f : 0;
}

int rd_cell_of(const rd_card_layout *cl, int b, int64_t e)
{
    if (cl->cells[b] <= 0)
        return -1;
    int64_t j = cl->part[b] > 0 ? e * cl->cells[b] / cl->part[b]
                                : e / (cl->group[b] > 0 ? cl->group[b] : 1);
    return j < 0 ? 0 : j >= cl->cells[b] ? cl->cells[b] - 1 : (int)j;
}

/* Centre of the cells holding elements [off, off + count) of a row: where
 * a chunk leaves from and lands. On one line, the middle of its cells; on
 * several, the first cell's. */
void rd__region_centre(const rd_card_layout *cl, int b, int64_t off, int64_t count, float *x,
                       float *y)
{
    if (cl->count[b] <= 0 || cl->row[b].w <= 0 || cl->cells[b] <= 0) {
        *x = cl->card.x + cl->card.w / 2.0f;
        *y = cl->card.y + cl->card.h / 2.0f;
        return;
    }
    int j0 = rd_cell_of(cl, b, off), j1 = rd_cell_of(cl, b, off + (count > 0 ? count - 1 : 0));
    SDL_Rect a = rd_cell_rect(cl, b, j0), z = rd_cell_rect(cl, b, j1);
    if (a.y != z.y)
        z = a;
    *x = (a.x + z.x + z.w) / 2.0f;
    *y = a.y + a.h / 2.0f;
}

/* ----------------------------------------------------------------- links */

/* Where a link leaves the rectangle a towards (tx, ty). */
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

/* Whether the segment from (x0, y0) to (x1, y1) enters the inside of r
 * (a pixel in from its edge: a route may graze a card's border). Clips the
 * segment to r's slabs (Liang-Barsky). */
static bool segment_hits(float x0, float y0, float x1, float y1, SDL_Rect r)
{
    if (r.w <= 2 || r.h <= 2)
        return false;
    float lo[2] = {r.x + 1.0f, r.y + 1.0f}, hi[2] = {r.x + r.w - 1.0f, r.y + r.h - 1.0f};
    float p0[2] = {x0, y0}, dp[2] = {x1 - x0, y1 - y0};
    float t0 = 0, t1 = 1;
    for (int k = 0; k < 2; k++) {
        if (fabsf(dp[k]) < 1e-6f) {
            if (p0[k] <= lo[k] || p0[k] >= hi[k])
                return false;
            continue;
        }
        float a = (lo[k] - p0[k]) / dp[k], b = (hi[k] - p0[k]) / dp[k];
        if (a > b) {
            float t = a;
            a = b, b = t;
        }
        t0 = fmaxf(t0, a), t1 = fminf(t1, b);
        if (t0 >= t1)
            return false;
    }
    return true;
}

/* Where a panel's links may run: under its caption, a double tree's
 * trees and a hypercube's round, over its legend. */
static SDL_Rect link_area(const rd_panel_layout *pl)
{
    SDL_Rect area = pl->area;
    int top = area.y + pl->caption.h;
    for (int t = 0; t < pl->ntrees && t < 2; t++)
        top = pl->tree[t].y + pl->tree[t].h > top ? pl->tree[t].y + pl->tree[t].h : top;
    if (pl->rounds.w > 0 && pl->rounds.y + pl->rounds.h > top)
        top = pl->rounds.y + pl->rounds.h;
    area.h = area.y + area.h - pl->legend.h - top;
    area.y = top;
    return area;
}

bool rd_route_clear(const rd_layout *L, int p, int s, int d, const float (*pts)[2], int n)
{
    const rd_panel_layout *pl = &L->panels[p];
    SDL_Rect area = link_area(pl);
    for (int i = 0; i < n; i++)
        if (pts[i][0] < area.x || pts[i][0] > area.x + area.w || pts[i][1] < area.y ||
            pts[i][1] > area.y + area.h)
            return false;
    int ncards = pl->nparts;
    for (int k = 0; k <= ncards; k++) {
        int card = k < ncards ? k : RD_LENS_CARD;
        if (card == s || card == d || (card == RD_LENS_CARD && pl->lens.w <= 0))
            continue;
        SDL_Rect r = pl->cards[card].card;
        for (int i = 0; i + 1 < n; i++)
            if (segment_hits(pts[i][0], pts[i][1], pts[i + 1][0], pts[i + 1][1], r))
                return false;
    }
    return true;
}

/* The straight line from card s to card d, edge to edge: the two
 * directions of a two-way link a little apart, so both arrows show and
 * chunks going each way stay on their own line. */
static int straight_route(const rd_layout *L, int p, int s, int d, bool both, float (*pts)[2])
{
    const rd_panel_layout *pl = &L->panels[p];
    SDL_Rect a = pl->cards[s].card, b = pl->cards[d].card;
    edge_point(a, b.x + b.w / 2.0f, b.y + b.h / 2.0f, &pts[0][0], &pts[0][1]);
    edge_point(b, a.x + a.w / 2.0f, a.y + a.h / 2.0f, &pts[1][0], &pts[1][1]);
    if (both && pl->nranks <= 16) {
        float dx = pts[1][0] - pts[0][0], dy = pts[1][1] - pts[0][1];
        float len = sqrtf(dx * dx + dy * dy);
        if (len > 1) {
            float o = 3 * L->ui;
            for (int i = 0; i < 2; i++)
                pts[i][0] += -dy / len * o, pts[i][1] += dx / len * o;
        }
    }
    return 2;
}

/* An arc from card s to card d bulging by bulge times their distance to
 * the left of the way from s to d (negative: to the right): a quadratic
 * Bezier curve from s's edge to d's edge, aimed at its control point. The
 * two directions of a two-way link bulge to opposite sides. */
static int arc_route(const rd_panel_layout *pl, int s, int d, float bulge, float (*pts)[2])
{
    SDL_Rect a = pl->cards[s].card, b = pl->cards[d].card;
    float ax = a.x + a.w / 2.0f, ay = a.y + a.h / 2.0f, bx = b.x + b.w / 2.0f,
          by = b.y + b.h / 2.0f;
    float dx = bx - ax, dy = by - ay;
    float cx = (ax + bx) / 2 + dy * bulge, cy = (ay + by) / 2 - dx * bulge;
    float x0, y0, x1, y1;
    edge_point(a, cx, cy, &x0, &y0);
    edge_point(b, cx, cy, &x1, &y1);
    for (int i = 0; i < RD_ROUTE_MAX; i++) {
        float t = (float)i / (RD_ROUTE_MAX - 1), u = 1 - t;
        pts[i][0] = u * u * x0 + 2 * u * t * cx + t * t * x1;
        pts[i][1] = u * u * y0 + 2 * u * t * cy + t * t * y1;
    }
    return RD_ROUTE_MAX;
}

/* The free band beside card s on side k (0 above, 1 below, 2 left, 3
 * right): from s's edge to the nearest card facing it, or the panel's
 * edge. */
static void free_band(const rd_panel_layout *pl, int s, int k, float *edge, float *room)
{
    SDL_Rect a = pl->cards[s].card, A = link_area(pl);
    bool vert = k < 2;
    float e = k == 0 ? a.y : k == 1 ? a.y + a.h : k == 2 ? a.x : a.x + a.w;
    float far = k == 0 ? A.y : k == 1 ? A.y + A.h : k == 2 ? A.x : A.x + A.w;
    for (int i = 0; i < pl->nparts; i++) {
        SDL_Rect b = pl->cards[i].card;
        if (i == s ||
            (vert ? b.x >= a.x + a.w || a.x >= b.x + b.w : b.y >= a.y + a.h || a.y >= b.y + b.h))
            continue;
        float f = k == 0 ? b.y + b.h : k == 1 ? b.y : k == 2 ? b.x + b.w : b.x;
        if (k % 2 == 0 ? f <= e && f > far : f >= e && f < far)
            far = f;
    }
    *edge = e;
    *room = fabsf(far - e);
}

/* A route through the band on side k of card s (0 above, 1 below, 2 left,
 * 3 right) at depth frac of it: out of s across the band, along it, and
 * into d from the same side or, where d is across the band, the facing
 * one; the corners cut. Farther pairs go deeper (by log2 of their rank
 * distance), so nested routes stay apart. */
static int channel_route(const rd_panel_layout *pl, int s, int d, int k, float frac,
                         float (*pts)[2])
{
    SDL_Rect a = pl->cards[s].card, b = pl->cards[d].card;
    float edge, room;
    free_band(pl, s, k, &edge, &room);
    if (room < 3)
        return 0;
    bool vert = k < 2;
    float sign = k % 2 == 0 ? -1 : 1, depth = room * frac, ch = edge + sign * depth;
    /* Leave and arrive a little off the centres, on the side of the other
     * end, so the two directions of a pair use different verticals. */
    float ac = vert ? a.x + a.w / 2.0f : a.y + a.h / 2.0f,
          bc = vert ? b.x + b.w / 2.0f : b.y + b.h / 2.0f;
    float off = (s < d ? 1 : -1) * (vert ? fminf(a.w, b.w) : fminf(a.h, b.h)) / 8.0f;
    float u0 = ac + off, u1 = bc + off;
    float bn = vert ? b.y : b.x, bf = vert ? b.y + b.h : b.x + b.w;
    float v1 = fabsf(bn - ch) < fabsf(bf - ch) ? bn : bf; /* d's edge facing the channel */
    float r = fminf(fminf(depth, fabsf(v1 - ch)), fabsf(u1 - u0) / 2) * 0.6f;
    float dir = u1 > u0 ? 1 : -1, back = v1 > ch ? 1 : -1;
    float q[6][2] = {{u0, edge},         {u0, ch - sign * r}, {u0 + dir * r, ch},
                     {u1 - dir * r, ch}, {u1, ch + back * r}, {u1, v1}};
    for (int i = 0; i < 6; i++) {
        pts[i][0] = vert ? q[i][0] : q[i][1];
        pts[i][1] = vert ? q[i][1] : q[i][0];
    }
    return 6;
}

/* Through the gaps between cards: the side the layout asks for first
 * (pl->under: below), then the others. Farther pairs go deeper; pairs at
 * one distance (0-4, 1-5, ...) a little apart, not on one line. */
static int gap_route(const rd_layout *L, int p, int s, int d, float (*pts)[2])
{
    const rd_panel_layout *pl = &L->panels[p];
    int dist = abs(s - d), lvl = 0, top = 0;
    while (dist >> (lvl + 1))
        lvl++;
    while (pl->nranks >> (top + 1))
        top++;
    float frac = 0.3f + 0.5f * (top > 0 ? (float)lvl / top : 1) +
                 0.12f * (float)(s % (dist > 0 ? dist : 1)) / (dist > 0 ? dist : 1);
    bool under = d < 64 && (pl->under[s] >> d & 1);
    static const int sides[2][4] = {{0, 1, 2, 3}, {1, 0, 3, 2}};
    for (int i = 0; i < 4; i++) {
        int m = channel_route(pl, s, d, sides[under][i], frac, pts);
        if (m && rd_route_clear(L, p, s, d, (const float(*)[2])pts, m))
            return m;
    }
    return 0;
}

/* Two bends, where neither end faces the other across one gap: out of s
 * into the band on its side ks (0 above, 1 below, 2 left, 3 right), along
 * it to the band on d's side kd (across: left or right where ks is above
 * or below), along that one level with d, and into d. */
static int elbow_route(const rd_panel_layout *pl, int s, int d, int ks, int kd, float frac,
                       float (*pts)[2])
{
    SDL_Rect a = pl->cards[s].card, b = pl->cards[d].card;
    float es, rs, ed, rd;
    free_band(pl, s, ks, &es, &rs);
    free_band(pl, d, kd, &ed, &rd);
    if (rs < 3 || rd < 3)
        return 0;
    float cs = es + (ks % 2 == 0 ? -1 : 1) * rs * frac,
          cd = ed + (kd % 2 == 0 ? -1 : 1) * rd * frac;
    bool vert = ks < 2;
    float us = vert ? a.x + a.w / 2.0f : a.y + a.h / 2.0f;
    float ud = vert ? b.y + b.h / 2.0f : b.x + b.w / 2.0f;
    float q[5][2] = {{us, es}, {us, cs}, {cd, cs}, {cd, ud}, {ed, ud}};
    for (int i = 0; i < 5; i++) { /* q as (x, y) where s leaves upwards or downwards */
        pts[i][0] = vert ? q[i][0] : q[i][1];
        pts[i][1] = vert ? q[i][1] : q[i][0];
    }
    return 5;
}

static int elbow_routes(const rd_layout *L, int p, int s, int d, float (*pts)[2])
{
    const rd_panel_layout *pl = &L->panels[p];
    bool under = d < 64 && (pl->under[s] >> d & 1);
    static const int turns[8][2] = {{0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 0}, {3, 0}, {2, 1}, {3, 1}};
    for (int i = 0; i < 8; i++) {
        int ks = turns[i][0], kd = turns[i][1];
        if (under && ks < 2)
            ks ^= 1;
        int m = elbow_route(pl, s, d, ks, kd, 0.5f, pts);
        if (m && rd_route_clear(L, p, s, d, (const float(*)[2])pts, m))
            return m;
    }
    return 0;
}

/* Round the cards between them: the flattest arc that clears them, to
 * the left first (so a two-way link's directions part). */
static int curved_route(const rd_layout *L, int p, int s, int d, float (*pts)[2])
{
    static const float bulges[] = {0.22f, 0.34f, 0.5f, 0.7f, 0.95f};
    for (size_t i = 0; i < sizeof bulges / sizeof *bulges; i++)
        for (int side = 1; side >= -1; side -= 2) {
            int m = arc_route(&L->panels[p], s, d, side * bulges[i], pts);
            if (rd_route_clear(L, p, s, d, (const float(*)[2])pts, m))
                return m;
        }
    return 0;
}

int rd_link_route(const rd_layout *L, int p, int s, int d, bool both, float (*pts)[2])
{
    int n = straight_route(L, p, s, d, both, pts);
    if (s == d || rd_route_clear(L, p, s, d, (const float(*)[2])pts, n))
        return n;
    /* On an ellipse an arc reads better than a bend; in rows, a lane. */
    float alt[RD_ROUTE_MAX][2];
    bool arcs_first = L->panels[p].shape == RD_SHAPE_CIRCLE;
    int m = arcs_first ? curved_route(L, p, s, d, alt) : gap_route(L, p, s, d, alt);
    if (!m)
        m = arcs_first ? gap_route(L, p, s, d, alt) : curved_route(L, p, s, d, alt);
    if (!m)
        m = elbow_routes(L, p, s, d, alt);
    if (m)
        memcpy(pts, alt, sizeof alt[0] * (size_t)m);
    return m ? m : n;
}

int rd__flight_path_on(const rd_layout *L, int p, const cv_transfer *x, const float (*route)[2],
                       int m, float (*pts)[2])
{
    const rd_panel_layout *pl = &L->panels[p];
    rd__region_centre(&pl->cards[x->src], x->src_buf, x->src_off, x->count, &pts[0][0], &pts[0][1]);
    int n = 1;
    if (x->src != x->dst)
        for (int i = 0; i < m; i++, n++)
            pts[n][0] = route[i][0], pts[n][1] = route[i][1];
    rd__region_centre(&pl->cards[x->dst], x->dst_buf, x->dst_off, x->count, &pts[n][0], &pts[n][1]);
    return n + 1;
}

int rd_flight_path(const rd_layout *L, int p, const cv_transfer *x, bool both, float (*pts)[2])
{
    float route[RD_ROUTE_MAX][2];
    int m = x->src != x->dst ? rd_link_route(L, p, x->src, x->dst, both, route) : 0;
    return rd__flight_path_on(L, p, x, (const float(*)[2])route, m, pts);
}

/* ----------------------------------------------------------------- title */

/* A card's title ("GPU 3 (root)", or its number alone where the card is
 * small) and the box it is drawn in, left of which is the colour square
 * (*square false: no room for it, the number takes its place); *tpx is
 * the title's size, smaller where even the number did not fit. The
 * landing's sum goes right of the title's text (rd_flight.c). */
SDL_Rect rd__card_title(rd_text *t, const rd_layout *L, const rd_frame *f, int p, int k,
                        char *title, size_t len, int *tpx, bool *square)
{
    const rd_panel_layout *pl = &L->panels[p];
    const rd_card_layout *cl = &pl->cards[k];
    const cv_spec *spec = &cv_trace_plan(f->panels[p].trace)->spec;
    bool lens = k == RD_LENS_CARD;
    int rank = lens ? pl->lens_rank : k;
    int px = lens ? pl->lens_px : pl->cell_px;
    int sq = cl->title.h / 2;
    if (rank >= pl->nranks && pl->nparts > pl->nranks + 1) /* a switch a node */
        rd_strf(f->lang, RD_S_NODE_SWITCH, title, len, rank - pl->nranks, 0);
    else if (rank >= pl->nranks) /* an in-network plan's switch */
        snprintf(title, len, "%s", rd_str(f->lang, RD_S_SWITCH));
    else
        rd_strf(f->lang, RD_S_GPU, title, len, rank, 0);
    if (cv_op_has_root(spec->op) && rank == spec->root) {
        size_t l = strlen(title);
        snprintf(title + l, len - l, " (%s)", rd_str(f->lang, RD_S_ROOT));
    }
    SDL_Rect tb = {cl->title.x + sq + px / 2, cl->title.y, cl->title.w - sq - px / 2, cl->title.h};
    int tw = 0;
    rd_text_measure(t, title, px, &tw, NULL);
    *tpx = px;
    *square = true;
    if (tw > tb.w && rank >= pl->nranks && pl->nparts > pl->nranks + 1) {
        /* a node's switch on a small card: its row's band says whose it is */
        snprintf(title, len, "%s %d", rd_str(f->lang, RD_S_SWITCH), rank - pl->nranks);
        rd_text_measure(t, title, px, &tw, NULL);
    }
    if (tw > tb.w && rank < pl->nranks) { /* a small card: its number says which GPU */
        snprintf(title, len, "%d", rank);
        rd_text_measure(t, title, px, &tw, NULL);
        if (tw > tb.w) { /* every card shows its rank: over the square, then smaller */
            *square = false;
            tb = cl->title;
            while (tw > tb.w && *tpx > 7) {
                (*tpx)--;
                rd_text_measure(t, title, *tpx, &tw, NULL);
            }
        }
    }
    return tb;
}

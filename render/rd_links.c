/*
 * rd_links.c: what the stage draws behind its cards: a shaded band behind
 * the cards of each node (a learner sees which GPUs share a machine), and
 * the links the plan uses between cards, with arrowheads, dashed between
 * nodes, the step in progress's links (and a lesson's highlighted ones) on
 * top in the accent. The plan's links are kept in rd_ctx per panel.
 */
#include "rd_internal.h"

#include <math.h>
#include <string.h>

/* Behind the cards of each node, a band in the node's shade: the cards of
 * one node side by side in a row share one band, so a learner sees which
 * GPUs share a machine (the legend names the shades). */
void rd__draw_nodes(rd_ctx *c, const rd_frame *f, int p)
{
    const cv_plan *plan = cv_trace_plan(f->panels[p].trace);
    const rd_panel_layout *pl = &c->L.panels[p];
    /* the ranks, and a node's own switch with them (NVLS-Tree) */
    int n = pl->nparts > pl->nranks + 1 ? pl->nparts : pl->nranks;
    if (cv_spec_nodes(&plan->spec) <= 1 || pl->nranks < 2)
        return;
    const rd_theme *th = rd_theme_get(f->theme);
    int pad = (int)fmaxf(3, 6 * c->L.ui);
    int by[RD_LAYOUT_MAX_PARTS]; /* cards by row, then left to right */
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
        rd__fill(c->r,
                 rd__rect(a.x - pad, a.y - pad, z.x + z.w - a.x + 2 * pad, bottom - a.y + 2 * pad),
                 rd__node_shade(th, node));
        i = j;
    }
}

/* A line in dashes: a link between nodes, through the network. */
static void dashed_line(SDL_Renderer *r, float x0, float y0, float x1, float y1, float w,
                        float dash, SDL_Color col)
{
    float dx = x1 - x0, dy = y1 - y0, len = sqrtf(dx * dx + dy * dy);
    if (len < 1 || dash < 1) {
        rd__line(r, x0, y0, x1, y1, w, col);
        return;
    }
    for (float s = 0; s < len; s += 2 * dash) {
        float e = fminf(s + dash, len);
        rd__line(r, x0 + dx * s / len, y0 + dy * s / len, x0 + dx * e / len, y0 + dy * e / len, w,
                 col);
    }
}

static uint64_t mix(uint64_t h, uint64_t v) { return (h ^ v) * 1099511628211ull; }

void rd__routes_begin(rd_ctx *c)
{
    for (int p = 0; p < 2; p++) {
        const rd_panel_layout *pl = &c->L.panels[p];
        uint64_t h = mix(14695981039346656037ull, (uint64_t)p);
        h = mix(mix(h, (uint64_t)pl->nparts), (uint64_t)pl->shape);
        SDL_Rect fixed[4] = {pl->area, pl->caption, pl->legend, pl->lens};
        for (int k = 0; k < 4 + pl->nparts + 1; k++) {
            SDL_Rect r = k < 4 ? fixed[k]
                               : pl->cards[k - 4 < pl->nparts ? k - 4 : RD_LENS_CARD].card;
            h = mix(mix(mix(mix(h, (uint64_t)r.x), (uint64_t)r.y), (uint64_t)r.w), (uint64_t)r.h);
        }
        for (int r = 0; r < pl->nparts; r++)
            h = mix(h, pl->under[r]);
        c->route_sig[p] = h;
    }
}

int rd__route(rd_ctx *c, int p, int s, int d, bool both, float (*pts)[2])
{
    uint64_t key = mix(mix(mix(c->route_sig[p & 1], (uint64_t)s), (uint64_t)d), both) | 1;
    rd__route_memo *m = &c->routes[(key >> 7) % RD__ROUTE_MEMO];
    if (m->key != key) {
        m->n = rd_link_route(&c->L, p, s, d, both, m->pts);
        m->key = key;
    }
    memcpy(pts, m->pts, sizeof m->pts[0] * (size_t)m->n);
    return m->n;
}

/* The link from card s to card d along its route (rd_link_route), dashed
 * between nodes, with an arrowhead of head (0: none) where it enters d. */
static void draw_route(rd_ctx *c, int p, int s, int d, bool both, bool dashed, float w, float head,
                       SDL_Color col)
{
    float pts[RD_ROUTE_MAX][2];
    int n = rd__route(c, p, s, d, both, pts);
    for (int i = 0; i + 1 < n; i++) {
        if (dashed)
            dashed_line(c->r, pts[i][0], pts[i][1], pts[i + 1][0], pts[i + 1][1], w, 6 * c->L.ui,
                        col);
        else
            rd__line(c->r, pts[i][0], pts[i][1], pts[i + 1][0], pts[i + 1][1], w, col);
    }
    if (head > 0) {
        /* Along the route's last few pixels: an arc's end, not its chord. */
        int k = n - 2;
        while (k > 0 && fabsf(pts[n - 1][0] - pts[k][0]) + fabsf(pts[n - 1][1] - pts[k][1]) < head)
            k--;
        rd__arrowhead(c->r, pts[k][0], pts[k][1], pts[n - 1][0], pts[n - 1][1], head, col);
    }
}

const rd__links *rd__panel_links(rd_ctx *c, const rd_frame *f, int p)
{
    const cv_plan *plan = cv_trace_plan(f->panels[p].trace);
    if (c->links_plan[p] != plan) {
        rd__plan_links(plan, &c->links[p]);
        c->links_plan[p] = plan;
    }
    return &c->links[p];
}

/* An in-network plan's star: a link from every rank to the switch in the
 * middle (both ways), those the step in progress uses in the accent. */
static void draw_star(rd_ctx *c, const rd_frame *f, int p, int step, float lw, float head)
{
    const rd_theme *th = rd_theme_get(f->theme);
    const rd_panel_layout *pl = &c->L.panels[p];
    const cv_plan *plan = cv_trace_plan(f->panels[p].trace);
    int n = pl->nranks;
    bool per_node = pl->nparts > n + 1; /* a switch a node, else the one */
    uint64_t act = 0; /* bit r: rank r and its switch exchange in this step */
    if (step >= 0 && step < plan->nsteps)
        for (int64_t i = plan->steps[step].first;
             i < plan->steps[step].first + plan->steps[step].count; i++) {
            const cv_transfer *x = &plan->transfers[i];
            int r = x->src >= n ? x->dst : x->dst >= n ? x->src : -1;
            if (r >= 0 && r < n && r < 64)
                act |= 1ull << r;
        }
    for (int pass = 0; pass < 2; pass++)
        for (int r = 0; r < n && r < 64; r++) {
            bool on = act >> r & 1;
            if (on != (pass == 1))
                continue;
            SDL_Color col = on ? th->accent : n > 16 ? rd__mix(th->bg, th->link, 0.5f) : th->link;
            int sw = per_node ? n + cv_plan_node_of(plan, r) : n;
            if (sw >= pl->nparts)
                continue;
            draw_route(c, p, r, sw, true, rd__crosses_nodes(plan, r, sw), on ? lw * 1.6f : lw,
                       n <= 16 || on ? head : 0, col);
        }
}

/* A double tree's links are drawn in the colour of their tree, a
 * multi-ring's in the colour of their channel (the theme's series, then
 * the series lightened), the step's brighter and thicker. */
#define RD__PARTS 6
static SDL_Color link_colour(const rd_theme *th, const rd__links *parts, int k, int s, int d,
                             bool act, bool dense)
{
    for (int t = 0; t < k; t++)
        if ((parts[t].m[s] >> d & 1) || (parts[t].m[d] >> s & 1)) {
            SDL_Color col = th->series[t % RD_THEME_SERIES];
            if (t >= RD_THEME_SERIES)
                col = rd__mix(col, th->text, 0.45f);
            return act ? col : rd__mix(th->bg, col, 0.6f);
        }
    if (act)
        return th->accent;
    return dense ? rd__mix(th->bg, th->link, 0.5f) : th->link;
}

/* The parts whose links join s and d either way (bit t: part t). */
static unsigned link_parts(const rd__links *parts, int k, int s, int d)
{
    unsigned m = 0;
    for (int t = 0; t < k && t < 32; t++)
        if ((parts[t].m[s] >> d & 1) || (parts[t].m[d] >> s & 1))
            m |= 1u << t;
    return m;
}

/* A link several parts share (a multi-ring's channels over one pair of
 * GPUs): a bundle of lines along its route side by side, one in each
 * part's colour, so that every channel that uses it shows, not the first
 * one alone, however short the link. */
static void draw_route_bundle(rd_ctx *c, int p, int s, int d, bool both, float w, float head,
                              const rd_theme *th, unsigned mask, bool act)
{
    SDL_Color cols[32];
    int nc = 0;
    for (int t = 0; t < 32; t++)
        if (mask >> t & 1) {
            SDL_Color col = th->series[t % RD_THEME_SERIES];
            if (t >= RD_THEME_SERIES)
                col = rd__mix(col, th->text, 0.45f);
            cols[nc++] = act ? col : rd__mix(th->bg, col, 0.6f);
        }
    float pts[RD_ROUTE_MAX][2], lw = fmaxf(1.5f, w);
    int n = rd__route(c, p, s, d, both, pts);
    for (int i = 0; i + 1 < n; i++) {
        float dx = pts[i + 1][0] - pts[i][0], dy = pts[i + 1][1] - pts[i][1];
        float len = sqrtf(dx * dx + dy * dy);
        if (len < 0.5f)
            continue;
        float nx = -dy / len, ny = dx / len;
        for (int j = 0; j < nc; j++) {
            float o = (j - (nc - 1) / 2.0f) * lw;
            rd__line(c->r, pts[i][0] + nx * o, pts[i][1] + ny * o, pts[i + 1][0] + nx * o,
                     pts[i + 1][1] + ny * o, lw, cols[j]);
        }
    }
    if (head > 0 && n >= 2)
        rd__arrowhead(c->r, pts[n - 2][0], pts[n - 2][1], pts[n - 1][0], pts[n - 1][1], head,
                      act ? th->accent : th->link);
}

/* The rule the links of act follow, as an arc's label: "XOR 4" where
 * partners exchange with r XOR 4, "distance 2" where every rank sends that
 * many places on (the arrows say which way); empty for none. */
static void arc_rule(const rd__links *act, int n, cv_lang lang, char *out, size_t len)
{
    int x = -1, shift = -1;
    bool exchange = true;
    out[0] = '\0';
    for (int s = 0; s < n && s < 64; s++)
        for (int d = 0; d < n && d < 64; d++)
            if (act->m[s] >> d & 1) {
                x = x == -1 || x == (s ^ d) ? s ^ d : -2;
                int k = ((d - s) % n + n) % n;
                shift = shift == -1 || shift == k ? k : -2;
                exchange &= (act->m[d] >> s & 1) != 0;
            }
    if (x > 0 && exchange)
        snprintf(out, len, "XOR %d", x);
    else if (shift > 0) /* no '+': a gathering stage never shows one */
        rd_strf(lang, RD_S_DISTANCE, out, len, shift > n / 2 ? n - shift : shift, 0);
}

/* A hypercube's arcs in use, each labelled with its round's rule at the
 * middle of its longest level stretch (the run along its lane), where the
 * label covers no card and no other label and stays inside the panel. */
static void label_arcs(rd_ctx *c, const rd_frame *f, int p, const rd__links *act)
{
    const rd_panel_layout *pl = &c->L.panels[p];
    const rd_theme *th = rd_theme_get(f->theme);
    const rd__links *ln = rd__panel_links(c, f, p);
    int n = pl->nranks, px = c->L.px_small, tw = 0, th_ = 0, placed = 0;
    char rule[32];
    SDL_Rect done[64];
    arc_rule(act, n, f->lang, rule, sizeof rule);
    if (!rule[0])
        return;
    rd_text_measure(c->text, rule, px, &tw, &th_);
    for (int s = 0; s < n && s < 64; s++)
        for (int d = 0; d < n && d < 64 && placed < 64; d++) {
            if (!(act->m[s] >> d & 1))
                continue;
            float pts[RD_ROUTE_MAX][2], best = -1, mx = 0, my = 0;
            int m = rd__route(c, p, s, d, ln->m[d] >> s & 1, pts);
            for (int i = 0; i + 1 < m; i++) {
                float dx = pts[i + 1][0] - pts[i][0], dy = pts[i + 1][1] - pts[i][1];
                if (fabsf(dx) > fabsf(dy) && dx * dx + dy * dy > best) /* along a lane */
                    best = dx * dx + dy * dy, mx = pts[i][0] + dx / 2, my = pts[i][1] + dy / 2;
            }
            SDL_Rect box = rd__rect((int)mx - tw / 2 - 2, (int)my - th_ / 2, tw + 4, th_);
            bool clear = SDL_HasIntersection(&box, &pl->lens) == SDL_FALSE || pl->lens.w <= 0;
            for (int k = 0; k < pl->nparts && clear; k++)
                clear = !SDL_HasIntersection(&box, &pl->cards[k].card);
            for (int k = 0; k < placed && clear; k++)
                clear = !SDL_HasIntersection(&box, &done[k]);
            SDL_Rect area = pl->area;
            clear &= best > 0 && SDL_HasIntersection(&box, &pl->rounds) == SDL_FALSE &&
                     box.y > area.y && box.y + box.h < area.y + area.h - pl->legend.h &&
                     box.x >= area.x && box.x + box.w <= area.x + area.w;
            if (!clear)
                continue;
            done[placed++] = box;
            rd__fill(c->r, box, th->bg);
            rd__text(c, rule, px, th->accent, box, RD_ALIGN_CENTER | RD_ALIGN_FIT, 0);
        }
}

void rd__draw_links(rd_ctx *c, const rd_frame *f, int p, int step)
{
    const rd_theme *th = rd_theme_get(f->theme);
    const rd_panel_layout *pl = &c->L.panels[p];
    const cv_plan *plan = cv_trace_plan(f->panels[p].trace);
    const rd__links *ln = rd__panel_links(c, f, p);
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
    if (pl->nparts > n)
        draw_star(c, f, p, step, lw, head);
    rd__links parts[RD__PARTS];
    int k = rd__part_links(plan, parts, RD__PARTS);
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
                unsigned shared = link_parts(parts, k, s, d);
                if (shared & (shared - 1)) { /* two or more channels */
                    draw_route_bundle(c, p, s, d, both, act ? lw * 1.6f : lw,
                                       !dense || act ? head : 0, th, shared, act);
                    continue;
                }
                SDL_Color col = link_colour(th, parts, k, s, d, act, dense);
                draw_route(c, p, s, d, both, rd__crosses_nodes(plan, s, d), act ? lw * 1.6f : lw,
                           !dense || act ? head : 0, col);
            }
    if (pl->rounds.w > 0)
        label_arcs(c, f, p, &active);
}

/* A double tree's two trees as laid out (rd_stage.c's place_trees): each
 * tree's title, an edge from every node to its parent's in the tree's
 * colour, the shown step's edges thick and bright with the arrow the way
 * its chunks go (up to the parent, or down to the child), and the nodes
 * with their rank numbers, those the step joins filled. */
void rd__draw_trees(rd_ctx *c, const rd_frame *f, int p)
{
    const rd_panel_layout *pl = &c->L.panels[p];
    if (pl->ntrees < 2)
        return;
    const rd_theme *th = rd_theme_get(f->theme);
    const cv_plan *plan = cv_trace_plan(f->panels[p].trace);
    int n = pl->nranks, ref = rd_ref_step(plan->nsteps, rd__panel_t(f, &f->panels[p]), NULL);
    rd__links act;
    rd__step_links(plan, ref, &act);
    float lw = th->line * c->L.ui, head = 8 * c->L.ui * (th->line > 2 ? 1.4f : 1.0f);
    head = fminf(head, pl->tree_node[0][0].w * 0.45f); /* small nodes: small arrows */
    for (int t = 0; t < 2; t++) {
        SDL_Color col = th->series[t % RD_THEME_SERIES], dim = rd__mix(th->bg, col, 0.55f);
        int root = 0;
        for (int r = 0; r < n; r++)
            root = pl->tree_up[t][r] < 0 ? r : root;
        char title[96];
        rd_strf(f->lang, RD_S_TREE_ROOT, title, sizeof title, t, root);
        rd__text(c, title, c->L.px_small, col, pl->tree_title[t], RD_ALIGN_CENTER, 0);
        uint64_t ends = 0;
        for (int pass = 0; pass < 2; pass++)
            for (int r = 0; r < n; r++) {
                int u = pl->tree_up[t][r];
                bool lit = pl->tree_lit[t] >> r & 1;
                if (u < 0 || lit != (pass == 1))
                    continue;
                SDL_Rect a = pl->tree_node[t][u], b = pl->tree_node[t][r];
                float x0 = a.x + a.w / 2.0f, y0 = a.y + a.h, x1 = b.x + b.w / 2.0f, y1 = (float)b.y;
                rd__line(c->r, x0, y0, x1, y1, lit ? lw * 2.4f : lw, lit ? col : dim);
                if (!lit)
                    continue;
                ends |= 1ull << r | 1ull << u;
                if (act.m[r] >> u & 1) /* up: child to parent */
                    rd__arrowhead(c->r, x1, y1, x0, y0, head, col);
                if (act.m[u] >> r & 1) /* down: parent to child */
                    rd__arrowhead(c->r, x0, y0, x1, y1, head, col);
            }
        for (int r = 0; r < n; r++) {
            SDL_Rect b = pl->tree_node[t][r];
            float cx = b.x + b.w / 2.0f, cy = b.y + b.h / 2.0f, rad = b.w / 2.0f;
            bool on = ends >> r & 1;
            rd__disc(c->r, cx, cy, rad, on ? col : dim);
            rd__disc(c->r, cx, cy, rad - fmaxf(1.5f, lw), on ? rd__mix(th->bg, col, 0.35f) : th->bg);
            char num[16];
            snprintf(num, sizeof num, "%d", r);
            rd__text(c, num, pl->tree_px, th->text, b, RD_ALIGN_CENTER | RD_ALIGN_FIT, 0);
        }
    }
}

/* A hypercube's round as laid out (rd_stage.c's place_rounds): its rule
 * in the accent, then a chip for each pair, "0 <-> 4" where the two
 * exchange, "1 -> 0" where one sends. */
void rd__draw_rounds(rd_ctx *c, const rd_frame *f, int p)
{
    const rd_panel_layout *pl = &c->L.panels[p];
    if (pl->rounds.w <= 0)
        return;
    const rd_theme *th = rd_theme_get(f->theme);
    if (pl->round_text[0])
        rd__text(c, pl->round_text, c->L.px_text, th->accent, pl->round_line, RD_ALIGN_CENTER, 0);
    for (int j = 0; j < pl->npairs; j++) {
        char w[32];
        snprintf(w, sizeof w, "%d %s %d", pl->pair[j][0], pl->pair_both[j] ? "\xE2\x86\x94" : "\xE2\x86\x92",
                 pl->pair[j][1]);
        rd__fill(c->r, pl->pair_box[j], rd__mix(th->bg, th->accent, 0.18f));
        rd__frame(c->r, pl->pair_box[j], 1, rd__mix(th->bg, th->accent, 0.7f));
        rd__text(c, w, pl->round_px, th->text, pl->pair_box[j], RD_ALIGN_CENTER | RD_ALIGN_FIT, 0);
    }
}

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

const rd__links *rd__panel_links(rd_ctx *c, const rd_frame *f, int p)
{
    const cv_plan *plan = cv_trace_plan(f->panels[p].trace);
    if (c->links_plan[p] != plan) {
        rd__plan_links(plan, &c->links[p]);
        c->links_plan[p] = plan;
    }
    return &c->links[p];
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

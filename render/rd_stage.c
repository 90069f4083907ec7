/*
 * rd_stage.c: where the GPU cards of a panel go, and the lens.
 *
 * A few arrangements are tried for a panel and the one that lets values be
 * drawn largest wins (rd_fit.c says what fits inside a card of a size): an
 * ellipse (up to 8 ranks, kept when nearly as good: it reads as a ring at
 * once), a ring folded into rows so that every link joins neighbouring
 * cards (two rows are a racetrack; the cards grow into what would be the
 * ellipse's empty middle), a tree's levels, and a grid in rank order.
 * Where the algorithm has a shape of its own (cv_algo_stage_shape) only
 * arrangements of that shape are tried, whatever the size of the values:
 * rows in rank order with lanes for a double tree and the hypercube
 * algorithms, a node a row for the node algorithms, a star with the hub
 * (a switch, a root) in the middle, every pair on the ellipse. The links
 * find their way round the cards in rd_cells.c.
 * Where not every value is legible on the cards (64 ranks, a big tree),
 * one card is shown again, large, beside them: the lens.
 * tests/test_render_layout.c checks that nothing overlaps and nothing
 * leaves the window from 800x600 to 4K.
 */
#include "rd_internal.h"

#include <math.h>
#include <string.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* ------------------------------------------------------------ arrangements */

static bool overlap(SDL_Rect a, SDL_Rect b, int gap)
{
    return a.x < b.x + b.w + gap && b.x < a.x + a.w + gap && a.y < b.y + b.h + gap &&
           b.y < a.y + a.h + gap;
}

static bool any_overlap(const SDL_Rect *cards, int n, int gap)
{
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (overlap(cards[i], cards[j], gap))
                return true;
    return false;
}

/* Card centres around `area` for cards of w x h on an ellipse, starting at
 * the top (two cards: side by side); centre: one more card (a switch) in
 * the middle, cards[n]. */
static void place_circle(SDL_Rect area, int n, int w, int h, const int *order, bool centre,
                         SDL_Rect *cards)
{
    if (centre)
        cards[n] = rd__rect(area.x + (area.w - w) / 2, area.y + (area.h - h) / 2, w, h);
    double rx = (area.w - w) / 2.0, ry = (area.h - h) / 2.0;
    double cx = area.x + area.w / 2.0, cy = area.y + area.h / 2.0;
    double start = n == 2 ? M_PI : -M_PI / 2;
    for (int k = 0; k < n; k++) {
        double a = start + 2 * M_PI * k / n;
        cards[order[k]] = rd__rect((int)lround(cx + rx * cos(a) - w / 2.0),
                                   (int)lround(cy + ry * sin(a) - h / 2.0), w, h);
    }
}

/* The widest cards of the aspect whose places on the ellipse stay apart;
 * the answer depends only on the area's size, n, aspect and gap, so the
 * last few are kept in the scratch (the layout runs every frame). */
static double circle_width(rd__scratch *sc, SDL_Rect area, int n, double aspect, int gap,
                           bool centre)
{
    rd__circle_memo *memo = sc->circles;
    for (int m = 0; m < RD__CIRCLE_MEMO; m++)
        if (memo[m].n == n && memo[m].w == area.w && memo[m].h == area.h && memo[m].gap == gap &&
            memo[m].aspect == aspect && memo[m].centre == centre)
            return memo[m].width;
    int order[RD_LAYOUT_MAX_RANKS];
    SDL_Rect cards[RD_LAYOUT_MAX_PARTS];
    for (int i = 0; i < n; i++)
        order[i] = i;
    double lo = 4, hi = fmin(area.w, area.h * aspect);
    for (int it = 0; it < 22; it++) {
        double mid = (lo + hi) / 2;
        place_circle(area, n, (int)mid, (int)(mid / aspect), order, centre, cards);
        if (any_overlap(cards, n + (centre ? 1 : 0), gap))
            hi = mid;
        else
            lo = mid;
    }
    memo[sc->next_circle] = (rd__circle_memo){area.w, area.h, n, gap, aspect, lo, centre};
    sc->next_circle = (sc->next_circle + 1) % RD__CIRCLE_MEMO;
    return lo;
}

/* The places of a ring folded into R rows (R even) of C columns: along the
 * top row, snaking back and forth through the other rows (column 0 left
 * out), then up column 0 home. Every step is to a neighbouring place, and
 * the R*C - n places left empty are the last ones, up column 0, so the
 * closing link runs past empty places only. Transposed for tall areas. */
static void loop_places(int R, int C, bool transpose, int *row, int *col)
{
    int k = 0;
    for (int c = 0; c < C; c++)
        row[k] = 0, col[k++] = c;
    for (int r = 1; r < R; r++)
        for (int i = 0; i < C - 1; i++)
            row[k] = r, col[k++] = r % 2 ? C - 1 - i : 1 + i;
    for (int r = R - 1; r >= 1; r--)
        row[k] = r, col[k++] = 0;
    if (transpose)
        for (int i = 0; i < k; i++) {
            int t = row[i];
            row[i] = col[i];
            col[i] = t;
        }
}

static void cell_grid(SDL_Rect area, int rows, int cols, int gx, int gy, int r, int c, SDL_Rect *out)
{
    int cw = (area.w - gx * (cols - 1)) / cols, ch = (area.h - gy * (rows - 1)) / rows;
    *out = rd__rect(area.x + c * (cw + gx), area.y + r * (ch + gy), cw, ch);
}

/* ------------------------------------------------------------ candidates */

/* The arrangements tried for one panel's cards in area A, and the best so
 * far: cards[] is the candidate being tried, best[] the winner's. */
typedef struct {
    const rd__stage *s;
    rd__scratch *sc;
    SDL_Rect A;
    int n;
    bool sw;    /* an in-network plan's one switch: card n, which every rank links to */
    int nodesw; /* or a switch a node (NVLS-Tree): cards n .. n + nodesw - 1 */
    bool sw_row; /* the one switch has a row of its own below the nodes' (CollNet) */
    int gap, link_gap, loop_gap;
    rd__links links;
    int order[RD_LAYOUT_MAX_RANKS]; /* ranks in ring order, else 0..n-1 */
    bool ring;                      /* the links form one cycle */
    double score;
    rd_shape shape;
    rd__panel_fit fit;
    SDL_Rect cards[RD_LAYOUT_MAX_PARTS], best[RD_LAYOUT_MAX_PARTS];
} arrangement;

/* Scores the candidate in a->cards (a switch goes in the middle of shapes
 * other than the ellipse and the grid) and keeps it if it is the best. */
static void try_cards(arrangement *a, rd_shape shape, double bonus)
{
    SDL_Rect *cards = a->cards, A = a->A;
    if (a->sw && !a->sw_row && shape != RD_SHAPE_GRID && shape != RD_SHAPE_CIRCLE)
        cards[a->n] = rd__rect(A.x + (A.w - cards[0].w) / 2, A.y + (A.h - cards[0].h) / 2,
                               cards[0].w, cards[0].h);
    rd__panel_fit pf = rd__fit_panel(a->s, cards[0].w, cards[0].h);
    double sc = rd__fit_score(pf, cards[0].w, cards[0].h) + bonus;
    if (sc > a->score) {
        a->score = sc, a->shape = shape, a->fit = pf;
        memcpy(a->best, cards, sizeof cards[0] * (size_t)a->s->nparts);
    }
}

/* The tree special case: a tree's plan is drawn as its levels, root on
 * top, while the levels stay wide enough to read (32 ranks). */
static bool drawn_as_levels(const cv_plan *plan, int n)
{
    return cv_algo_stage_shape(plan->spec.op, plan->spec.algo) == CV_STAGE_TREE && n <= 32;
}

/* A tree's levels, root on top, each level's cards side by side. */
static void try_levels(arrangement *a)
{
    const cv_plan *plan = a->s->plan;
    SDL_Rect A = a->A;
    int n = a->n, gap = a->gap;
    int depth[RD_LAYOUT_MAX_RANKS];
    int levels = rd__levels(&a->links, plan->spec.root, depth);
    int per[RD_LAYOUT_MAX_RANKS] = {0}, widest = 1;
    for (int r = 0; r < n; r++)
        if (++per[depth[r]] > widest)
            widest = per[depth[r]];
    int cw = (A.w - gap * (widest - 1)) / widest;
    int ch = (A.h - a->link_gap * (levels - 1)) / levels;
    int placed[RD_LAYOUT_MAX_RANKS] = {0};
    int vgap = levels > 1 ? (A.h - levels * ch) / (levels - 1) : 0;
    for (int r = 0; r < n; r++) {
        int d = depth[r], k = placed[d]++;
        int row_w = per[d] * cw + (per[d] - 1) * gap;
        a->cards[r] = rd__rect(A.x + (A.w - row_w) / 2 + k * (cw + gap), A.y + d * (ch + vgap), cw,
                               ch);
    }
    try_cards(a, RD_SHAPE_LEVELS, 0);
}

/* The ellipse, at a few card shapes: kept unless another arrangement
 * draws values clearly larger. */
static void try_circles(arrangement *a)
{
    static const double aspects[] = {1.3, 1.8, 2.4, 3.2};
    for (size_t i = 0; i < sizeof aspects / sizeof *aspects; i++) {
        double w = circle_width(a->sc, a->A, a->n, aspects[i], a->link_gap, a->sw);
        place_circle(a->A, a->n, (int)w, (int)(w / aspects[i]), a->order, a->sw, a->cards);
        try_cards(a, RD_SHAPE_CIRCLE, 25);
    }
}

/* A star: the root in the middle, the other ranks round it on the
 * ellipse, so every link from the root runs through the empty middle. */
static void try_star(arrangement *a)
{
    static const double aspects[] = {1.3, 1.8, 2.4, 3.2};
    int n = a->n, root = a->s->plan->spec.root, order[RD_LAYOUT_MAX_RANKS];
    SDL_Rect placed[RD_LAYOUT_MAX_PARTS];
    for (int k = 0; k < n - 1; k++)
        order[k] = k;
    for (size_t i = 0; i < sizeof aspects / sizeof *aspects; i++) {
        double w = circle_width(a->sc, a->A, n - 1, aspects[i], a->link_gap, true);
        place_circle(a->A, n - 1, (int)w, (int)(w / aspects[i]), order, true, placed);
        for (int r = 0, k = 0; r < n; r++)
            a->cards[r] = r == root ? placed[n - 1] : placed[k++];
        try_cards(a, RD_SHAPE_CIRCLE, 0);
    }
}

/* Past 16 ranks, where an ellipse's cards would be too small to read: the
 * same star with the cards round the edge of the area (T along the top,
 * S down each side, the rest along the bottom) and the hub (the switch,
 * card n, or the root) in the middle, every link to it across the empty
 * middle. */
static void try_frame(arrangement *a, int hub)
{
    SDL_Rect A = a->A;
    int n = a->n, m = hub == n ? n : n - 1, gap = a->gap, ring[RD_LAYOUT_MAX_RANKS];
    for (int r = 0, k = 0; r < n; r++)
        if (r != hub)
            ring[k++] = r;
    for (int T = 2; 2 * T <= m; T++) {
        int S = (m - 2 * T + 1) / 2, B = m - T - 2 * S;
        int w = (A.w - gap * (T - 1)) / T, h = (A.h - gap * (S + 1)) / (S + 2);
        if (w < 8 || h < 8 || B < 0 || 3 * w + 2 * a->link_gap > A.w ||
            3 * h + 2 * a->link_gap > A.h)
            continue; /* the hub and its links need the middle */
        int k = 0;
        for (int i = 0; i < T; i++)
            a->cards[ring[k++]] = rd__rect(A.x + i * (w + gap), A.y, w, h);
        for (int j = 0; j < S; j++)
            a->cards[ring[k++]] = rd__rect(A.x + A.w - w, A.y + (j + 1) * (h + gap), w, h);
        for (int i = 0; i < B; i++)
            a->cards[ring[k++]] = rd__rect(A.x + A.w - w - i * (A.w - w) / (B > 1 ? B - 1 : 1),
                                           A.y + A.h - h, w, h);
        for (int j = 0; j < S; j++)
            a->cards[ring[k++]] = rd__rect(A.x, A.y + (S - j) * (h + gap), w, h);
        a->cards[hub] = rd__rect(A.x + (A.w - w) / 2, A.y + (A.h - h) / 2, w, h);
        try_cards(a, RD_SHAPE_CIRCLE, 0);
    }
}

/* The ring folded into rows: neighbours side by side. */
static void try_loops(arrangement *a)
{
    int n = a->n;
    for (int R = 2; R <= 8 && R <= n / 2; R += 2)
        for (int tr = 0; tr < 2; tr++) {
            int C = (n + R - 1) / R;
            if (C < 2)
                continue;
            int rowi[RD_LAYOUT_MAX_RANKS * 2], coli[RD_LAYOUT_MAX_RANKS * 2];
            loop_places(R, C, tr, rowi, coli);
            int rows = tr ? C : R, cols = tr ? R : C;
            for (int k = 0; k < n; k++)
                cell_grid(a->A, rows, cols, a->loop_gap, a->loop_gap, rowi[k], coli[k],
                          &a->cards[a->order[k]]);
            try_cards(a, RD_SHAPE_LOOP, 0);
        }
}

/* Grids in rank order, every number of columns that leaves no row
 * empty. */
static void try_grids(arrangement *a)
{
    int np = a->s->nparts;
    for (int cols = 1; cols <= np; cols++) {
        int rows = (np + cols - 1) / cols;
        if (rows > 1 && (rows - 1) * cols >= np)
            continue; /* a row left empty */
        for (int r = 0; r < np; r++)
            cell_grid(a->A, rows, cols, a->gap, a->gap, r / cols, r % cols, &a->cards[r]);
        try_cards(a, RD_SHAPE_GRID, 0);
    }
}

/* A node a row with its switch in the middle of the row (a switch a
 * node: NVLS-Tree), the lanes between the rows for the links between
 * nodes, which join the same column of every row. */
static void try_switch_rows(arrangement *a)
{
    SDL_Rect A = a->A;
    int K = a->nodesw, L = a->n / K, C = L + 1;
    if (K > 8)
        return; /* too many rows to read: the grid */
    int lane = (int)fmaxf(fmaxf(a->link_gap, 34 * a->s->L->ui), A.h * 0.08f);
    int cw = (A.w - a->gap * (C - 1)) / C, ch = (A.h - (K + 1) * lane) / K;
    if (cw < 8 || ch < 8)
        return;
    for (int j = 0; j < K; j++)
        for (int k = 0; k < C; k++) {
            /* columns 0 .. L/2-1 and L/2+1 .. L: the GPUs; column L/2: the switch */
            int part = k == L / 2 ? a->n + j : j * L + (k < L / 2 ? k : k - 1);
            a->cards[part] = rd__rect(A.x + k * (cw + a->gap), A.y + lane + j * (ch + lane), cw, ch);
        }
    try_cards(a, RD_SHAPE_ROWS, 0);
}

/* Rows of cards in rank order with a lane above and below each row: a
 * link that skips cards runs through a lane, round the cards between its
 * ends (a double tree's edges over and under one row, a hypercube's pairs
 * at distance 2, 4, ... each at its own depth; a node a row, its ring's
 * way home over it and the network's links across the lanes). From
 * `first` rows: one where it lets values be read, else as few as keep
 * them largest. */
static void try_rows(arrangement *a, int first)
{
    SDL_Rect A = a->A;
    int n = a->n;
    if (a->nodesw > 1) { /* a node a row, its switch in the middle of it */
        try_switch_rows(a);
        return;
    }
    for (int R = first; R <= 8 && R <= n; R *= 2) {
        int C = (n + R - 1) / R, rows = R + (a->sw ? 1 : 0); /* the network's switch: a row */
        int lane = (int)fmaxf(fmaxf(a->link_gap, 34 * a->s->L->ui), A.h * (R == 1 ? 0.13f : 0.08f));
        int cw = (A.w - a->gap * (C - 1)) / C, ch = (A.h - (rows + 1) * lane) / rows;
        if (cw < 8 || ch < 8)
            continue; /* too narrow in one row: more rows */
        for (int r = 0; r < n; r++) {
            int row = r / C, k = r % C, in_row = row == R - 1 ? n - row * C : C;
            int x0 = A.x + (A.w - (in_row * cw + (in_row - 1) * a->gap)) / 2;
            a->cards[r] = rd__rect(x0 + k * (cw + a->gap), A.y + lane + row * (ch + lane), cw, ch);
        }
        if (a->sw) { /* twice a GPU's width: its slots hold every node's sum */
            int sw_w = 2 * cw + a->gap < A.w ? 2 * cw + a->gap : A.w;
            a->cards[n] = rd__rect(A.x + (A.w - sw_w) / 2, A.y + lane + R * (ch + lane), sw_w, ch);
        }
        a->sw_row = a->sw;
        /* A double tree in one row is a tree: up to 16 ranks it stays
         * there, whatever the size of its values. */
        bool tree = cv_algo_stage_shape(a->s->plan->spec.op, a->s->plan->spec.algo) ==
                    CV_STAGE_DOUBLE_TREE;
        try_cards(a, RD_SHAPE_ROWS, R == 1 ? (tree && n <= 16 ? 1e6 : 10) : 0);
        a->sw_row = false;
        if (a->sw)
            break; /* a node a row above the switch's: more rows would split a node */
    }
}

/* Which links go round below the cards where they cannot run straight: a
 * double tree's second tree (its first goes above), the way back of a
 * hypercube's pairs (rank s to a lower d). */
static void route_sides(const rd__stage *s, rd_panel_layout *pl)
{
    cv_stage_shape shape = cv_algo_stage_shape(s->plan->spec.op, s->plan->spec.algo);
    memset(pl->under, 0, sizeof pl->under);
    if (shape == CV_STAGE_DOUBLE_TREE) {
        rd__links trees[2];
        if (rd__part_links(s->plan, trees, 2) < 2)
            return;
        for (int r = 0; r < trees[1].n; r++)
            pl->under[r] = trees[1].m[r] & ~trees[0].m[r];
    } else if (shape == CV_STAGE_HYPERCUBE) {
        for (int r = 1; r < s->n && r < 64; r++)
            pl->under[r] = (1ull << r) - 1;
    }
}

/* Tries the arrangements for the panel's cards in A; the best one's card
 * rectangles go into pl (insides are placed afterwards). */
static rd__panel_fit arrange(rd__scratch *sc, const rd__stage *s, SDL_Rect A, rd_panel_layout *pl)
{
    const rd_layout *L = s->L;
    arrangement arr, *a = &arr;
    a->s = s;
    a->sc = sc;
    a->A = A;
    a->n = s->n;
    a->sw = s->nparts == s->n + 1;
    a->nodesw = s->nparts > s->n + 1 ? s->nparts - s->n : 0;
    a->sw_row = false;
    a->gap = (int)fmaxf(4, 10 * L->ui);
    a->link_gap = (int)fmaxf(a->gap, 30 * L->ui); /* room for a link and its arrow */
    a->loop_gap = (int)fmaxf(a->gap, 22 * L->ui); /* between neighbours side by side */
    a->score = -2e9;
    a->shape = RD_SHAPE_GRID;
    a->fit = (rd__panel_fit){-1, 0, false};
    rd__plan_links(s->plan, &a->links);
    int n = a->n;
    cv_stage_shape shape = cv_algo_stage_shape(s->plan->spec.op, s->plan->spec.algo);
    int nodes = cv_algo_uses_nodes(s->plan->spec.op, s->plan->spec.algo) && !s->plan->spec.topo &&
                        shape != CV_STAGE_SWITCH
                    ? cv_spec_nodes(&s->plan->spec)
                    : 1; /* rows of nodes; an NCCL log's own ring keeps the loop */
    for (int i = 0; i < n; i++)
        a->order[i] = i;
    a->ring = false;
    if (n >= 3) {
        rd__ring_order(&a->links, a->order);
        a->ring = true;
        for (int i = 0; i < n && a->ring; i++)
            a->ring = a->links.m[a->order[i]] >> a->order[(i + 1) % n] & 1;
    }
    if (n == 1) {
        int w = (int)fminf(A.w, fmaxf(A.w * 0.7f, 320 * L->ui)), h = (int)fminf(A.h, A.h * 0.8f);
        a->cards[0] = rd__rect(A.x + (A.w - w) / 2, A.y + (A.h - h) / 2, w, h);
        try_cards(a, RD_SHAPE_SINGLE, 0);
    } else if (drawn_as_levels(s->plan, n)) {
        try_levels(a);
    } else if (shape == CV_STAGE_DOUBLE_TREE || shape == CV_STAGE_HYPERCUBE || nodes > 1 ||
               (shape == CV_STAGE_NODES && a->sw)) { /* CollNet: a node a row, the network's switch below */
        try_rows(a, nodes > 1 ? nodes : 1); /* the shape wins over the size of the values */
        if (a->score < -1e9)
            try_grids(a); /* no room for rows at all */
    } else if ((shape == CV_STAGE_SWITCH || shape == CV_STAGE_STAR) && n > 16 &&
               (a->sw || s->plan->spec.root < n)) {
        try_frame(a, a->sw ? n : s->plan->spec.root); /* a star, its cards round the edge */
        if (a->score < -1e9)
            try_grids(a); /* no room for the frame */
    } else if (shape == CV_STAGE_SWITCH || (shape == CV_STAGE_ALL_PAIRS && n <= 16)) {
        /* A star round the switch; every pair across the middle (past 16
         * ranks the ellipse's cards are too small to tell apart: a grid,
         * its links round the cards). */
        try_circles(a);
    } else if (shape == CV_STAGE_STAR && n >= 3 && s->plan->spec.root < n) {
        try_star(a);
    } else {
        if (n <= 8 || (a->sw && n <= 16))
            try_circles(a);
        if (a->ring && n >= 4 && !a->sw)
            try_loops(a);
        if (!a->ring || n < 4 || a->sw)
            try_grids(a);
    }
    pl->shape = a->shape;
    for (int r = 0; r < s->nparts; r++)
        pl->cards[r].card = a->best[r];
    route_sides(s, pl);
    return a->fit;
}

/* ------------------------------------------------------------------ lens */

/* The lens's card for rank r in the rectangle lens: its caption above it,
 * the card under it, at the largest size at which every value is a
 * legible cell (else blocks, as the cards). */
static void place_lens(const rd__stage *s, int r, SDL_Rect lens, rd_panel_layout *pl)
{
    int cap = (int)(s->L->px_text * 1.6f);
    SDL_Rect card = rd__rect(lens.x, lens.y + cap, lens.w, lens.h - cap);
    rd__card_fit cf;
    bool found = false;
    for (int px = s->px_max; px >= s->px_min && !found; px--)
        for (int lab = 1; lab >= 0 && !found; lab--)
            found = rd__fit_card(s, r, card.w, card.h, px, lab, &cf) >= 2;
    if (!found && rd__fit_card(s, r, card.w, card.h, s->px_min, false, &cf) < 0)
        for (int px = s->px_min - 1; px >= 7; px--)
            if (rd__fit_card(s, r, card.w, card.h, px, false, &cf) >= 0)
                break;
    pl->lens = lens;
    pl->lens_rank = r;
    pl->lens_px = cf.px;
    pl->lens_label_px = cf.labels ? rd__label_px(cf.px) : 0;
    if (cf.need_h > 0 && cf.need_h < card.h)
        card.h = cf.need_h + (card.h - cf.need_h) / 3; /* no taller than it needs */
    rd__place_insides(s, r, card, &cf, &pl->cards[RD_LENS_CARD]);
}

/* Not every value legible on the cards in A (64 ranks, a big tree): the
 * cards again in what the lens leaves, and one card large beside them: the
 * clicked one, else the root. A compare panel (caption) goes without where
 * the lens would leave its cards too small for their titles. */
static rd__panel_fit with_lens(rd__scratch *sc, const rd__stage *s, const rd_frame *f, SDL_Rect A,
                               bool caption, rd__panel_fit fit, rd_panel_layout *pl)
{
    const rd_layout *L = s->L;
    const cv_plan *plan = s->plan;
    int pad = (int)(8 * L->ui);
    bool side = A.w > A.h * 1.25f;
    /* Cards showing stripes only are read in the lens: it gets more. */
    float share = fit.quality <= 0 ? 0.46f : 0.36f;
    SDL_Rect rest, lens;
    if (side) {
        int lw = (int)fmaxf(A.w * share, 260 * L->ui);
        rest = rd__rect(A.x, A.y, A.w - lw - pad, A.h);
        lens = rd__rect(A.x + A.w - lw, A.y, lw, A.h);
    } else {
        int lh = (int)fmaxf(A.h * (share + 0.04f), 150 * L->ui);
        rest = rd__rect(A.x, A.y, A.w, A.h - lh - pad);
        lens = rd__rect(A.x, A.y + A.h - lh, A.w, lh);
    }
    fit = arrange(sc, s, rest, pl);
    bool cramped = fit.quality < 0 || fit.px < 9;
    for (int r = 0; r < s->nparts && caption && !cramped; r++)
        cramped = pl->cards[r].card.h < (int)((2 * s->nrows + 1) * fit.px * 0.8f);
    if (caption && cramped)
        return arrange(sc, s, A, pl);
    int r = f->focus >= 0 && f->focus < s->n                          ? f->focus
            : cv_op_has_root(plan->spec.op) && plan->spec.root < s->n ? plan->spec.root
                                                                      : 0;
    place_lens(s, r, lens, pl);
    return fit;
}

/* ----------------------------------------------------------------- trees */

/* Slots in the in-order walk of tree `up` from r (children below r's rank
 * to its left, above to its right): a leaf takes the next slot, a parent
 * sits over the middle of its children. */
static double tree_slots(const int *up, int n, int r, int depth, int *next, double *x, int *d)
{
    int nk = 0;
    double lo = 0, hi = 0;
    d[r] = depth;
    for (int c = 0; c < n && depth < n; c++) /* the children in rank order */
        if (up[c] == r) {
            double xc = tree_slots(up, n, c, depth + 1, next, x, d);
            lo = nk++ == 0 ? xc : lo;
            hi = xc;
        }
    if (nk == 0)
        return x[r] = (*next)++;
    return x[r] = (lo + hi) / 2;
}

/* The edges step `ref` uses, each in the tree whose half it carries:
 * bit r of pl->tree_lit[t] for the edge from r to its parent. */
static void light_trees(const cv_plan *plan, int ref, rd_panel_layout *pl)
{
    int n = pl->nranks;
    if (ref < 0 || ref >= plan->nsteps)
        return;
    const cv_step *st = &plan->steps[ref];
    int64_t c = plan->spec.count;
    for (int64_t i = st->first; i < st->first + st->count; i++) {
        const cv_transfer *tx = &plan->transfers[i];
        if (tx->src == tx->dst || tx->src < 0 || tx->src >= n || tx->dst < 0 || tx->dst >= n)
            continue;
        int t = tx->src_off % c >= c / 2 ? 1 : 0;
        if (pl->tree_up[t][tx->src] == tx->dst)
            pl->tree_lit[t] |= 1ull << tx->src;
        else if (pl->tree_up[t][tx->dst] == tx->src)
            pl->tree_lit[t] |= 1ull << tx->dst;
    }
}

/* A double binary tree: its two trees drawn as trees on top of the area,
 * root on top, each rank a node with its number in both, side by side
 * where that leaves the nodes larger, else one above the other; the
 * edges the shown step (rd_ref_step's) uses are marked lit. A learner
 * reads each rank's parent in both trees off one picture. Takes the
 * strip from the top of *A. */
static void place_trees(const rd__stage *s, const rd_frame *f, const rd_panel *p, SDL_Rect *A,
                        rd_panel_layout *pl)
{
    const cv_plan *plan = s->plan;
    const rd_layout *L = s->L;
    int n = s->n, up[2][RD_LAYOUT_MAX_RANKS], depth[2][RD_LAYOUT_MAX_RANKS], root[2];
    int slots[2], levels[2] = {1, 1};
    double x[2][RD_LAYOUT_MAX_RANKS];
    for (int t = 0; t < 2; t++) {
        root[t] = rd__tree_parents(plan, t, up[t]);
        if (root[t] < 0)
            return;
        slots[t] = 0;
        for (int r = 0; r < n; r++)
            depth[t][r] = -1;
        tree_slots(up[t], n, root[t], 0, &slots[t], x[t], depth[t]);
        for (int r = 0; r < n; r++) {
            if (depth[t][r] < 0)
                return; /* not one tree: leave the cards alone */
            levels[t] = depth[t][r] + 1 > levels[t] ? depth[t][r] + 1 : levels[t];
        }
    }
    int gap = (int)fmaxf(6, 14 * L->ui), title_h = (int)(L->px_small * 1.5f);
    float budget = A->h * (n <= 8 ? 0.36f : n <= 16 ? 0.42f : 0.55f);
    float dmax = L->px_text * 2.0f;
    /* The node's size in each arrangement: as wide as a slot allows, as
     * tall as a level's pitch (1.45 node heights) allows. */
    float best = 0;
    bool stacked = false;
    for (int k = 0; k < 2; k++) {
        float d = dmax;
        for (int t = 0; t < 2; t++) {
            float w = k ? A->w : (A->w - gap) / 2.0f;
            float h = k ? (budget - gap) / 2 - title_h : budget - title_h;
            d = fminf(d, fminf(w / slots[t] * 0.9f, h / levels[t] / 1.45f));
        }
        if (d > best + 0.5f)
            best = d, stacked = k == 1;
    }
    int dn = (int)best;
    /* The numbers as large as the node holds ("63" inside the disc). */
    int px = (int)fminf(L->px_text, dn * 0.66f), wide = 0;
    char num[16];
    snprintf(num, sizeof num, "%d", n - 1);
    for (; px >= 8; px--) {
        rd_text_measure(s->t, num, px, &wide, NULL);
        if (wide <= dn - 3)
            break;
    }
    if (px < 8 || dn < 12)
        return; /* too small to read: the cards' own links alone */
    int pitch = (int)(dn * 1.45f);
    int tw = stacked ? A->w : (A->w - gap) / 2;
    int used = 0;
    pl->ntrees = 2;
    pl->tree_px = px;
    for (int t = 0; t < 2; t++) {
        int th = title_h + levels[t] * pitch;
        SDL_Rect box = stacked ? rd__rect(A->x, A->y + used, tw, th)
                               : rd__rect(A->x + t * (tw + gap), A->y, tw, th);
        used = stacked ? used + th + gap : (th > used ? th : used);
        pl->tree[t] = box;
        pl->tree_title[t] = rd__rect(box.x, box.y, box.w, title_h);
        float sw = (float)box.w / slots[t];
        for (int r = 0; r < n; r++) {
            int cx = box.x + (int)lroundf((float)(x[t][r] + 0.5) * sw);
            int cy = box.y + title_h + depth[t][r] * pitch + pitch / 2;
            pl->tree_node[t][r] = rd__rect(cx - dn / 2, cy - dn / 2, dn, dn);
            pl->tree_up[t][r] = (signed char)up[t][r];
        }
    }
    if (!stacked)
        used += gap;
    light_trees(plan, rd_ref_step(plan->nsteps, rd__panel_t(f, p), NULL), pl);
    A->y += used;
    A->h -= used;
}

/* ---------------------------------------------------------------- rounds */

/* The pairs of ranks a step joins, each once (both: the two exchange),
 * its rule (partner = r XOR x, or every rank to r + shift) and the most
 * elements one rank sends its partner. */
typedef struct {
    int n, x, shift;
    int64_t elems;
    unsigned char p[RD_LAYOUT_MAX_RANKS][2];
    bool both[RD_LAYOUT_MAX_RANKS];
} round_pairs;

static void step_pairs(const cv_plan *plan, int k, int ranks, round_pairs *rp)
{
    memset(rp, 0, sizeof *rp);
    const cv_step *st = &plan->steps[k];
    int x = -1, shift = -1;
    int64_t sent[RD_LAYOUT_MAX_RANKS][2] = {{0}};
    for (int64_t i = st->first; i < st->first + st->count; i++) {
        const cv_transfer *tx = &plan->transfers[i];
        int a = tx->src, b = tx->dst;
        if (a == b || a < 0 || a >= ranks || b < 0 || b >= ranks)
            continue;
        x = x == -1 || x == (a ^ b) ? a ^ b : -2;
        int d = ((b - a) % ranks + ranks) % ranks;
        shift = shift == -1 || shift == d ? d : -2;
        int j = 0;
        while (j < rp->n && !((rp->p[j][0] == a && rp->p[j][1] == b) ||
                              (rp->p[j][0] == b && rp->p[j][1] == a)))
            j++;
        if (j < rp->n) {
            rp->both[j] |= rp->p[j][0] == b;
        } else if (rp->n < RD_LAYOUT_MAX_RANKS) {
            rp->p[rp->n][0] = (unsigned char)a;
            rp->p[rp->n][1] = (unsigned char)b;
            rp->n++;
        }
        if (j < RD_LAYOUT_MAX_RANKS) /* what a rank sends its partner, in all */
            sent[j][rp->p[j][0] != a] += tx->count;
    }
    for (int j = 0; j < rp->n; j++)
        for (int w = 0; w < 2; w++)
            rp->elems = sent[j][w] > rp->elems ? sent[j][w] : rp->elems;
    bool exchange = rp->n > 0;
    for (int j = 0; j < rp->n; j++)
        exchange &= rp->both[j];
    /* Partners that exchange follow the XOR rule; ranks that each send on
     * round the ring, a shift (a shift of half the ring is both). */
    rp->x = x > 0 && exchange ? x : 0;
    rp->shift = shift > 0 && !rp->x ? (shift > ranks / 2 ? shift - ranks : shift) : 0;
}

/* Step k's rule as the strip writes it: "round 2 of 3: partner = r XOR 2
 * · distance 2 · 4 elements"; empty where the step has no pairs. */
static void round_words(const cv_plan *plan, int k, int ranks, cv_lang lang, const round_pairs *rp,
                        char *out, size_t len)
{
    out[0] = '\0';
    if (rp->n == 0)
        return;
    int round = 0, rounds = 0;
    for (int j = 0; j < plan->nsteps; j++) {
        round_pairs q;
        step_pairs(plan, j, ranks, &q);
        rounds += q.n > 0;
        round += q.n > 0 && j <= k;
    }
    char a[64], b[64] = "", c[64] = "", e[64];
    rd_strf(lang, RD_S_ROUND_OF, a, sizeof a, round, rounds);
    if (rp->x)
        rd_strf(lang, RD_S_XOR, b, sizeof b, rp->x, 0);
    else if (rp->shift)
        rd_strf(lang, RD_S_SHIFT, b, sizeof b, rp->shift, 0);
    int dist = rp->x ? rp->x : rp->shift < 0 ? -rp->shift : rp->shift;
    if (dist)
        rd_strf(lang, RD_S_DISTANCE, c, sizeof c, dist, 0);
    rd_strf(lang, RD_S_ELEMS, e, sizeof e, rp->elems, 0);
    const char *colon = lang == CV_LANG_ZH ? "\xEF\xBC\x9A" : ": ";
    snprintf(out, len, "%s%s%s%s%s \xC2\xB7 %s", a, b[0] ? colon : "", b, c[0] ? " \xC2\xB7 " : "",
             c, e);
}

/* A hypercube's round in a strip on top of *A: the shown step's rule on
 * one line, its pairs as chips ("0 <-> 4", "1 -> 0") on the lines under
 * it, the strip as tall as the step with most pairs needs, so that no
 * card moves from step to step. */
static void place_rounds(const rd__stage *s, const rd_frame *f, const rd_panel *p, SDL_Rect *A,
                         rd_panel_layout *pl)
{
    const cv_plan *plan = s->plan;
    const rd_layout *L = s->L;
    int n = s->n, most = 0;
    if (n < 2 || plan->nsteps < 1)
        return;
    round_pairs rp;
    for (int k = 0; k < plan->nsteps; k++) {
        step_pairs(plan, k, n, &rp);
        most = rp.n > most ? rp.n : most;
    }
    if (most == 0)
        return;
    int px = 0, gap = (int)fmaxf(4, 8 * L->ui), cw = 0, lh = (int)(L->px_text * 1.5f);
    int ch = 0, per = 0, h = 0;
    char wide[32];
    snprintf(wide, sizeof wide, "%d \xE2\x86\x94 %d", n - 1, n - 1);
    /* The chips at the text's size, else the small size, in at most a
     * third of the area (nearly half past 16 ranks, where the lens reads
     * the values). */
    for (int i = 0; i < 2 && !px; i++) {
        int tpx = i ? L->px_small : L->px_text;
        rd_text_measure(s->t, wide, tpx, &cw, NULL);
        cw += (int)(12 * L->ui);
        ch = (int)(tpx * 1.5f), per = (A->w + gap) / (cw + gap);
        h = per < 1 ? A->h : lh + (most + per - 1) / per * (ch + gap);
        px = h <= A->h * (n > 16 ? 0.45f : 0.34f) ? tpx : 0;
    }
    if (!px)
        return; /* no room: the cards' own arcs alone */
    pl->rounds = rd__rect(A->x, A->y, A->w, h);
    pl->round_line = rd__rect(A->x, A->y, A->w, lh);
    pl->round_px = px;
    int ref = rd_ref_step(plan->nsteps, rd__panel_t(f, p), NULL);
    if (ref >= 0 && ref < plan->nsteps) {
        step_pairs(plan, ref, n, &rp);
        round_words(plan, ref, n, s->lang, &rp, pl->round_text, sizeof pl->round_text);
        pl->round_xor = rp.x;
        pl->round_shift = rp.shift;
        pl->npairs = rp.n;
        int row_w = (rp.n < per ? rp.n : per) * (cw + gap) - gap;
        for (int j = 0; j < rp.n; j++) {
            pl->pair[j][0] = rp.p[j][0];
            pl->pair[j][1] = rp.p[j][1];
            pl->pair_both[j] = rp.both[j];
            pl->pair_box[j] = rd__rect(A->x + (A->w - row_w) / 2 + (j % per) * (cw + gap),
                                       A->y + lh + (j / per) * (ch + gap), cw, ch);
        }
    }
    A->y += h + gap;
    A->h -= h + gap;
}

/* ----------------------------------------------------------------- panel */

void rd__layout_panel(rd__scratch *sc, const rd_frame *f, const rd_panel *p, SDL_Rect area,
                      rd_layout *L, rd_text *text, bool caption, rd_panel_layout *pl)
{
    memset(pl, 0, sizeof *pl);
    pl->area = area;
    int pad = (int)(8 * L->ui);
    int cap_h = 0;
    if (caption) {
        /* As many lines as the caption's words take in this width. */
        char lines[3][320];
        int nl = text ? rd__caption_lines(text, f, p, L->px_text, area.w - 8, lines, 3) : 1;
        cap_h = (int)(L->px_text * 1.35f) * (nl > 0 ? nl : 1) + (int)(L->px_small * 1.4f) + 2;
    }
    pl->caption = rd__rect(area.x, area.y, area.w, cap_h);
    int leg_h = (int)(L->px_small * 1.6);
    pl->legend = rd__rect(area.x, area.y + area.h - leg_h, area.w, leg_h);
    if (!p->trace || !text)
        return;
    rd__stage *s = &sc->stage;
    rd__stage_init(s, f, p, L, text);
    pl->nranks = s->n;
    pl->nparts = s->nparts;
    pl->nrows = s->nrows;
    pl->lens_rank = -1;
    SDL_Rect A = rd__rect(area.x, area.y + cap_h + pad / 2, area.w, area.h - cap_h - leg_h - pad);
    if (cv_algo_stage_shape(s->plan->spec.op, s->plan->spec.algo) == CV_STAGE_DOUBLE_TREE)
        place_trees(s, f, p, &A, pl);
    else if (cv_algo_stage_shape(s->plan->spec.op, s->plan->spec.algo) == CV_STAGE_HYPERCUBE)
        place_rounds(s, f, p, &A, pl);
    rd__panel_fit fit = arrange(sc, s, A, pl);
    if (fit.quality < 2 && A.w > 200 * L->ui && A.h > 160 * L->ui)
        fit = with_lens(sc, s, f, A, caption, fit, pl);
    pl->cell_px = fit.px > 0 ? fit.px : 7;
    pl->label_px = fit.labels ? rd__label_px(pl->cell_px) : 0;
    for (int r = 0; r < s->nparts; r++) {
        rd__card_fit cf;
        SDL_Rect c = pl->cards[r].card;
        if (rd__fit_card(s, r, c.w, c.h, pl->cell_px, fit.labels, &cf) < 0)
            rd__fit_card(s, r, c.w, c.h, pl->cell_px, false, &cf);
        rd__place_insides(s, r, c, &cf, &pl->cards[r]);
    }
}

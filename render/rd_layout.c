/*
 * rd_layout.c: where everything goes, as a pure function of the frame and
 * the output size.
 *
 * The window is cut into a header (two lines), the stage, an optional
 * narration panel on the right, and the timeline and button bar at the
 * bottom.  On the stage, GPU cards are placed by the algorithm's shape:
 * around a ring for ring, recursive doubling/halving and the meshes (so
 * ring neighbours sit next to each other and partner lines become chords),
 * in levels for trees, and in a grid once there are too many ranks for a
 * circle.  Card sizes come from a binary search for the largest card that
 * keeps every pair of cards apart, so nothing overlaps at any window size;
 * tests/test_render_layout.c checks exactly that from 800x600 to 4K.
 *
 * Buffers too long to draw one cell per element are aggregated: a drawn
 * cell then stands for `group` elements, and the legend says so.
 */
#include "rd_internal.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* ------------------------------------------------------------ plan shape */

void rd__plan_links(const cv_plan *plan, rd__links *out)
{
    memset(out, 0, sizeof *out);
    if (!plan)
        return;
    out->n = plan->spec.ranks < RD_LAYOUT_MAX_RANKS ? plan->spec.ranks : RD_LAYOUT_MAX_RANKS;
    for (int64_t i = 0; i < plan->ntransfers; i++) {
        const cv_transfer *x = &plan->transfers[i];
        if (x->src != x->dst && x->src >= 0 && x->src < out->n && x->dst >= 0 && x->dst < out->n)
            out->m[x->src] |= 1ull << x->dst;
    }
}

void rd__ring_order(const rd__links *l, int *order)
{
    int n = l->n;
    for (int i = 0; i < n; i++)
        order[i] = i;
    if (n < 3)
        return;
    /* Follow the single outgoing link of each rank from 0; accept only a
     * Hamiltonian cycle (every rank has exactly one successor). */
    uint64_t seen = 1;
    int cur = 0;
    int tmp[RD_LAYOUT_MAX_RANKS];
    tmp[0] = 0;
    for (int k = 1; k < n; k++) {
        uint64_t m = l->m[cur];
        if (__builtin_popcountll(m) != 1)
            return;
        int next = __builtin_ctzll(m);
        if (seen & (1ull << next))
            return;
        seen |= 1ull << next;
        tmp[k] = next;
        cur = next;
    }
    memcpy(order, tmp, sizeof(int) * (size_t)n);
}

int rd__levels(const rd__links *l, int root, int *depth)
{
    int n = l->n;
    for (int i = 0; i < n; i++)
        depth[i] = -1;
    if (n == 0)
        return 0;
    if (root < 0 || root >= n)
        root = 0;
    int queue[RD_LAYOUT_MAX_RANKS], head = 0, tail = 0, levels = 1;
    depth[root] = 0;
    queue[tail++] = root;
    while (head < tail) {
        int u = queue[head++];
        for (int v = 0; v < n; v++) {
            bool linked = (l->m[u] >> v & 1) || (l->m[v] >> u & 1);
            if (linked && depth[v] < 0) {
                depth[v] = depth[u] + 1;
                if (depth[v] + 1 > levels)
                    levels = depth[v] + 1;
                queue[tail++] = v;
            }
        }
    }
    /* Unreachable ranks go on the last level rather than vanish. */
    for (int i = 0; i < n; i++)
        if (depth[i] < 0)
            depth[i] = levels - 1;
    return levels;
}

int rd__chunk_of(const cv_spec *spec, cv_buf buf, int rank, int64_t i)
{
    int64_t n = spec->ranks, c = spec->count > 0 ? spec->count : 1;
    if (buf == CV_BUF_SCRATCH)
        return -1;
    switch (spec->op) {
    case CV_OP_ALLGATHER:
    case CV_OP_GATHER:
        return buf == CV_BUF_SEND ? rank : (int)(i / c);
    case CV_OP_REDUCESCATTER:
    case CV_OP_ALLTOALL:
    case CV_OP_SCATTER:
        return buf == CV_BUF_SEND ? (int)(i / c) : rank;
    default:
        return (int)(i * n / c);
    }
}

/* ---------------------------------------------------------------- layout */


static bool overlap(SDL_Rect a, SDL_Rect b, int gap)
{
    return a.x < b.x + b.w + gap && b.x < a.x + a.w + gap && a.y < b.y + b.h + gap &&
           b.y < a.y + a.h + gap;
}

/* Card centres around `area` for cards of w x h: on an ellipse (p = 2) or
 * a superellipse |x/rx|^p + |y/ry|^p = 1 that reaches further into the
 * corners (p > 2), starting at the top, or half a place clockwise of it
 * (turn), so that two cards share the top edge. */
static void place_circle(SDL_Rect area, int n, int w, int h, double p, bool turn,
                         const int *order, SDL_Rect *cards)
{
    double rx = (area.w - w) / 2.0, ry = (area.h - h) / 2.0;
    double cx = area.x + area.w / 2.0, cy = area.y + area.h / 2.0;
    double start = (n == 2 ? M_PI : -M_PI / 2) + (turn ? M_PI / n : 0);
    for (int k = 0; k < n; k++) {
        double a = start + 2 * M_PI * k / n;
        double c = cos(a), s = sin(a);
        double x = copysign(pow(fabs(c), 2 / p), c), y = copysign(pow(fabs(s), 2 / p), s);
        int r = order[k];
        cards[r] = rd__rect((int)lround(cx + rx * x - w / 2.0), (int)lround(cy + ry * y - h / 2.0),
                            w, h);
    }
}

static bool any_overlap(const SDL_Rect *cards, int n, int gap)
{
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (overlap(cards[i], cards[j], gap))
                return true;
    return false;
}

/* The widest cards whose places around the area stay apart. */
static double circle_width(SDL_Rect area, int n, double aspect, int gap, double p, bool turn,
                           const int *order, SDL_Rect *cards)
{
    double lo = 4, hi = fmin(area.w, area.h * aspect);
    for (int it = 0; it < 24; it++) {
        double mid = (lo + hi) / 2;
        place_circle(area, n, (int)mid, (int)(mid / aspect), p, turn, order, cards);
        if (any_overlap(cards, n, gap))
            hi = mid;
        else
            lo = mid;
    }
    return lo;
}

/* Cards around a ring. An ellipse wastes the area's corners, and which
 * shape leaves the widest cards depends on the rank count and the area (a
 * compare panel is tall and narrow), so a few are tried; the plain ellipse
 * with GPU 0 on top is kept unless another gives clearly wider cards.
 *
 * The layout is computed every frame, and the search takes six binary
 * searches over every pair of cards; its answer depends only on the area's
 * size, n, aspect and gap (which card sits where does not change which
 * widths overlap), so the last two answers (one per compare panel) are
 * kept. The renderer runs on one thread. */
static void layout_circle(SDL_Rect area, int n, double aspect, int gap, const int *order,
                          SDL_Rect *cards)
{
    static const struct { double p; bool turn; } shapes[] = {
        {2, false}, {2, true}, {3, false}, {3, true}, {4, false}, {4, true}};
    typedef struct {
        int w, h, n, gap;
        double aspect;
        int best;     /* index into shapes */
        double width; /* of a card */
    } ring_memo;
    static ring_memo memo[2];
    static int memo_next;
    for (int m = 0; m < 2; m++)
        if (memo[m].n == n && memo[m].w == area.w && memo[m].h == area.h && memo[m].gap == gap &&
            memo[m].aspect == aspect) {
            place_circle(area, n, (int)memo[m].width, (int)(memo[m].width / aspect),
                         shapes[memo[m].best].p, shapes[memo[m].best].turn, order, cards);
            return;
        }
    int best = 0;
    double best_w = 0;
    for (int i = 0; i < (int)(sizeof shapes / sizeof shapes[0]); i++) {
        if (n == 2 && shapes[i].turn)
            continue; /* two cards side by side already fill the width */
        double w = circle_width(area, n, aspect, gap, shapes[i].p, shapes[i].turn, order, cards);
        if (i == 0 || w > best_w * 1.08) {
            best = i;
            best_w = w;
        }
    }
    memo[memo_next] = (ring_memo){area.w, area.h, n, gap, aspect, best, best_w};
    memo_next ^= 1;
    place_circle(area, n, (int)best_w, (int)(best_w / aspect), shapes[best].p, shapes[best].turn,
                 order, cards);
}

static void layout_grid(SDL_Rect area, int n, double aspect, int gap, SDL_Rect *cards)
{
    int best_cols = 1;
    double best = -1;
    for (int cols = 1; cols <= n; cols++) {
        int rows = (n + cols - 1) / cols;
        double cw = (double)(area.w - gap * (cols - 1)) / cols;
        double ch = (double)(area.h - gap * (rows - 1)) / rows;
        double w = fmin(cw, ch * aspect);
        if (w > best) {
            best = w;
            best_cols = cols;
        }
    }
    int cols = best_cols, rows = (n + cols - 1) / cols;
    int cw = (area.w - gap * (cols - 1)) / cols;
    int ch = (area.h - gap * (rows - 1)) / rows;
    /* Use the width the grid gives, but no taller than a comfortable card. */
    int h = (int)fmin(ch, cw / aspect * 1.6);
    int top = area.y + (area.h - (rows * h + (rows - 1) * gap)) / 2;
    for (int r = 0; r < n; r++) {
        int row = r / cols, col = r % cols;
        cards[r] = rd__rect(area.x + col * (cw + gap), top + row * (h + gap), cw, h);
    }
}

static void layout_levels(SDL_Rect area, int n, double aspect, int gap, const int *depth,
                          int levels, SDL_Rect *cards)
{
    int per[RD_LAYOUT_MAX_RANKS] = {0};
    int widest = 1;
    for (int r = 0; r < n; r++)
        if (++per[depth[r]] > widest)
            widest = per[depth[r]];
    int cw = (area.w - gap * (widest - 1)) / widest;
    int ch = (area.h - gap * 2 * (levels - 1)) / levels; /* room for links between levels */
    int w = (int)fmin(cw, ch * aspect);
    int h = (int)fmin(ch, w / aspect * 1.3);
    int vgap = levels > 1 ? (area.h - levels * h) / (levels - 1) : 0;
    int top = levels > 1 ? area.y : area.y + (area.h - h) / 2;
    int placed[RD_LAYOUT_MAX_RANKS] = {0};
    for (int r = 0; r < n; r++) {
        int d = depth[r];
        int k = placed[d]++;
        int row_w = per[d] * w + (per[d] - 1) * gap;
        int left = area.x + (area.w - row_w) / 2;
        cards[r] = rd__rect(left + k * (w + gap), top + d * (h + vgap), w, h);
    }
}

static void card_insides(rd_panel_layout *pl, const cv_plan *plan, int ui_px, int pad)
{
    for (int r = 0; r < pl->nparts; r++) {
        bool sw = r >= pl->nranks; /* a switch: its scratch is its only row */
        rd_card_layout *cl = &pl->cards[r];
        SDL_Rect c = cl->card;
        int ipad = c.h > 60 ? pad / 2 + 1 : 1;
        int px = (int)fmin(ui_px, (c.h - 2 * ipad) / (pl->nrows * 2.2 + 1.4));
        bool title = px >= 7;
        int title_h = title ? (int)(px * 1.35) : 0;
        if (title)
            cl->title = rd__rect(c.x + ipad, c.y + ipad, c.w - 2 * ipad, title_h);
        else
            cl->title = rd__rect(c.x, c.y, 0, 0);
        /* Room for "send"/"recv", and for "scratch" where there is one. */
        int label_w = px >= 7 ? (int)(px * (pl->nrows == 3 ? 3.9 : 2.9)) : 0;
        int rows_top = c.y + ipad + title_h;
        int rows_h = c.y + c.h - ipad - rows_top;
        int gapr = rows_h > pl->nrows * 8 ? 2 : 0;
        int rh = (rows_h - gapr * (pl->nrows - 1)) / pl->nrows;
        int k = 0;
        for (int b = 0; b < CV_BUF_COUNT; b++) {
            int64_t cnt = cv_plan_buf_count(plan, (cv_buf)b, r);
            cl->count[b] = cnt;
            cl->group[b] = 1;
            cl->cells[b] = 0;
            if ((b == CV_BUF_SCRATCH && plan->scratch_count <= 0 && !sw) ||
                (sw && b != CV_BUF_SCRATCH)) {
                cl->row[b] = cl->label[b] = rd__rect(c.x, c.y, 0, 0);
                continue;
            }
            int y = sw ? rows_top : rows_top + k * (rh + gapr), h = sw ? rows_h : rh;
            k++;
            cl->label[b] = rd__rect(c.x + ipad, y, label_w, h);
            cl->row[b] = rd__rect(c.x + ipad + label_w, y, c.w - 2 * ipad - label_w, h);
            if (cnt <= 0 || cl->row[b].w <= 0 || h <= 0)
                continue;
            int max_cells = cl->row[b].w / 3; /* at least 3 pixels a cell */
            if (max_cells < 1)
                max_cells = 1;
            int64_t group = (cnt + max_cells - 1) / max_cells;
            cl->group[b] = group;
            cl->cells[b] = (int)((cnt + group - 1) / group);
        }
        if (r == 0)
            pl->cell_px = px;
    }
}

static void layout_panel(const rd_frame *f, const rd_panel *p, SDL_Rect area, const rd_layout *L,
                         bool caption, rd_panel_layout *pl)
{
    memset(pl, 0, sizeof *pl);
    pl->area = area;
    int pad = (int)(8 * L->ui);
    int cap_h = caption ? (int)(L->px_text * 2.8) : 0;
    pl->caption = rd__rect(area.x, area.y, area.w, cap_h);
    int leg_h = (int)(L->px_small * 1.6);
    pl->legend = rd__rect(area.x, area.y + area.h - leg_h, area.w, leg_h);
    const cv_plan *plan = p->trace ? cv_trace_plan(p->trace) : NULL;
    if (!plan)
        return;
    int n = plan->spec.ranks;
    if (n > RD_LAYOUT_MAX_RANKS)
        n = RD_LAYOUT_MAX_RANKS;
    pl->nranks = n;
    pl->nparts = n + (plan->nswitch > 0 && n < RD_LAYOUT_MAX_RANKS + 1 ? 1 : 0);
    pl->nrows = plan->scratch_count > 0 ? 3 : 2;
    SDL_Rect cards_area = rd__rect(area.x, area.y + cap_h + pad / 2, area.w,
                               area.h - cap_h - leg_h - pad);
    double aspect = pl->nrows == 3 ? 1.7 : 2.2;
    int gap = (int)fmax(4, 10 * L->ui);
    SDL_Rect cards[RD_LAYOUT_MAX_RANKS + 1];
    rd__links links;
    rd__plan_links(plan, &links);
    cv_algo algo = plan->spec.algo;
    if (n == 1) {
        pl->shape = RD_SHAPE_SINGLE;
        int w = (int)fmin(cards_area.w, cards_area.h * aspect * 0.8);
        int h = (int)(w / aspect);
        cards[0] = rd__rect(cards_area.x + (cards_area.w - w) / 2,
                        cards_area.y + (cards_area.h - h) / 2, w, h);
    } else if (algo == CV_ALGO_TREE && n <= 32) {
        int depth[RD_LAYOUT_MAX_RANKS];
        int levels = rd__levels(&links, plan->spec.root, depth);
        pl->shape = RD_SHAPE_LEVELS;
        layout_levels(cards_area, n, aspect, gap, depth, levels, cards);
    } else if (n <= 16) {
        int order[RD_LAYOUT_MAX_RANKS];
        if (algo == CV_ALGO_RING)
            rd__ring_order(&links, order);
        else
            for (int i = 0; i < n; i++)
                order[i] = i;
        pl->shape = RD_SHAPE_CIRCLE;
        /* Wider gaps on a circle: the links between neighbours must show. */
        layout_circle(cards_area, n, aspect, (int)fmax(gap, 34 * L->ui), order, cards);
    } else {
        pl->shape = RD_SHAPE_GRID;
        layout_grid(cards_area, pl->nparts, aspect, gap, cards); /* a switch: one cell more */
    }
    (void)f;
    if (pl->nparts > n && pl->shape != RD_SHAPE_GRID) /* the switch in the middle */
        cards[n] = rd__rect(cards_area.x + (cards_area.w - cards[0].w) / 2,
                            cards_area.y + (cards_area.h - cards[0].h) / 2, cards[0].w,
                            cards[0].h);
    for (int r = 0; r < pl->nparts; r++)
        pl->cards[r].card = cards[r];
    card_insides(pl, plan, L->px_text, pad);
}

/* The bar's buttons, in the keymap's order, each with a share of the bar
 * in proportion to its label (so "backend" gets the room "<" does not
 * need, and a projector's large type fits at 1024 px), never too narrow to
 * click. Play also fits "pause". */
static void layout_buttons(rd_text *t, const rd_frame *f, rd_layout *L, SDL_Rect bar, int gap)
{
    const rd_key *keys;
    int nk = rd_keymap(&keys);
    rd_action acts[RD_ACT_COUNT_];
    double weight[RD_ACT_COUNT_], total = 0;
    int n = 0;
    for (int i = 0; i < nk && n < RD_ACT_COUNT_; i++) {
        if (keys[i].button != RD_BUTTON_BAR)
            continue;
        rd_action a = keys[i].action;
        int w = 0, w2 = 0;
        rd_text_measure(t, rd_button_label(a, f->lang, false), L->px_small, &w, NULL);
        if (a == RD_ACT_PLAY)
            rd_text_measure(t, rd_button_label(a, f->lang, true), L->px_small, &w2, NULL);
        acts[n] = a;
        weight[n] = fmax(fmax(w, w2) + L->px_small * 1.2, L->px_small * 2.6);
        total += weight[n++];
    }
    double at = 0;
    for (int i = 0; i < n; i++) {
        int x0 = bar.x + (int)lround(bar.w * at / total);
        at += weight[i];
        int x1 = bar.x + (int)lround(bar.w * at / total);
        L->button[acts[i]] = rd__rect(x0, bar.y, x1 - x0 - gap, bar.h);
    }
}

void rd_layout_compute(const rd_frame *f, int w, int h, rd_text *text, rd_layout *L)
{
    /* Only the fixed part is cleared: the narration's lines are filled
     * as far as they are used. */
    memset(L, 0, offsetof(rd_layout, lines));
    memset(&L->panels, 0, sizeof L->panels);
    L->npanels = 0;
    for (int p = 0; p < f->npanels && p < 2; p++)
        if (f->panels[p].trace && cv_trace_plan(f->panels[p].trace)->nsteps > L->nsteps)
            L->nsteps = cv_trace_plan(f->panels[p].trace)->nsteps;
    if (w < 1)
        w = 1;
    if (h < 1)
        h = 1;
    L->w = w;
    L->h = h;
    const rd_theme *th = rd_theme_get(f->theme);
    float dpi = f->dpi_scale > 0.25f ? f->dpi_scale : 1.0f;
    float fit = fminf(w / dpi / 1280.0f, h / dpi / 800.0f);
    fit = fmaxf(0.75f, fminf(fit, 2.0f));
    L->ui = dpi * fit;
    float ts = th->text_scale;
    L->px_small = (int)lroundf(12 * L->ui * ts);
    L->px_text = (int)lroundf(15 * L->ui * ts);
    L->px_big = (int)lroundf(19 * L->ui * ts);
    /* Very small windows: shrink text too, so labels still fit somewhere. */
    if (w < 700 || h < 450) {
        float k = fminf(w / 700.0f, h / 450.0f);
        L->px_small = (int)fmaxf(7, L->px_small * k);
        L->px_text = (int)fmaxf(8, L->px_text * k);
        L->px_big = (int)fmaxf(9, L->px_big * k);
    }
    int pad = (int)fmaxf(2, 8 * L->ui);
    int header_h = pad + (int)(L->px_big * 1.4) + (int)(L->px_text * 1.4) + pad / 2;
    L->header = rd__rect(0, 0, w, header_h);
    int bottom = h;
    if (f->controls) {
        int bh = (int)(L->px_text * 1.9);
        int th_ = (int)fmaxf(L->px_small * 2.4f, 22 * L->ui);
        bool room = h - header_h - bh - th_ - 3 * pad > 80;
        if (room && (w - 2 * pad) >= L->px_small * 26 && text) {
            L->buttons = rd__rect(pad, h - pad - bh, w - 2 * pad, bh);
            layout_buttons(text, f, L, L->buttons, w > 600 ? 2 : 0);
            bottom = L->buttons.y - pad / 2;
        }
        if (h - header_h - th_ - 2 * pad > 60) {
            L->timeline = rd__rect(pad, bottom - th_, w - 2 * pad, th_);
            bottom = L->timeline.y - pad / 2;
        }
    }
    int right = w - pad;
    if (f->lesson && w / dpi >= 560 && h / dpi >= 360) {
        /* A lesson is read more than watched: the text gets a third of the
         * window (more in small windows, where it would not fit), and the
         * panel stays even where the plain window would drop it. */
        float share = w / dpi >= 1100 && ts < 1.2f ? 0.32f : 0.40f;
        int nw = (int)fminf(fmaxf(w * share, 300 * L->ui), 640 * L->ui * ts);
        if (nw > w * 0.5f)
            nw = (int)(w * 0.5f);
        L->narration = rd__rect(w - pad - nw, header_h + pad / 2, nw, bottom - header_h - pad);
        right = L->narration.x - pad;
    } else if (f->narration && w / dpi >= 900 && h / dpi >= 500) {
        int nw = (int)fminf(fmaxf(w * 0.25f, 280 * L->ui), 560 * L->ui);
        if (ts > 1.2f)
            nw = (int)fminf(w * 0.32f, nw * 1.3f);
        L->narration = rd__rect(w - pad - nw, header_h + pad / 2, nw, bottom - header_h - pad);
        right = L->narration.x - pad;
    }
    L->stage = rd__rect(pad, header_h + pad / 2, right - pad, bottom - header_h - pad);
    const rd_diagram *dg = f->narr.diagram;
    if (f->lesson && dg && dg->nboxes > 0 && L->narration.w > 0) {
        /* Beside the stage: a tall diagram (the usual "where in the model")
         * takes a column on the stage's right, a wide one a band along its
         * bottom; the cards share what is left. */
        int cols = dg->cols > 0 ? dg->cols : 1, rows = dg->rows > 0 ? dg->rows : 1;
        if (cols <= rows) {
            int dw = (int)fminf(fmaxf(L->stage.w * 0.36f, 200 * L->ui), 120 * L->ui * cols + 120 * L->ui);
            if (dw > L->stage.w / 2)
                dw = L->stage.w / 2;
            L->diagram = rd__rect(L->stage.x + L->stage.w - dw, L->stage.y, dw, L->stage.h);
            L->stage.w -= dw + pad;
        } else {
            int dh = (int)fminf(fmaxf(L->stage.h * 0.12f, rows * L->px_small * 3.2f +
                                                              L->px_small * 1.6f + 12 * L->ui),
                                L->stage.h * 0.4f);
            L->diagram = rd__rect(L->stage.x, L->stage.y + L->stage.h - dh, L->stage.w, dh);
            L->stage.h -= dh + pad;
        }
    }
    L->message = rd__rect(L->stage.x + L->stage.w / 8, L->stage.y + pad, L->stage.w * 3 / 4,
                      (int)(L->px_text * 2.2));
    L->npanels = f->npanels >= 2 ? 2 : 1;
    if (L->npanels == 1) {
        layout_panel(f, &f->panels[0], L->stage, L, false, &L->panels[0]);
    } else {
        int half = (L->stage.w - pad) / 2;
        SDL_Rect a = rd__rect(L->stage.x, L->stage.y, half, L->stage.h);
        SDL_Rect b = rd__rect(L->stage.x + half + pad, L->stage.y, L->stage.w - half - pad,
                          L->stage.h);
        layout_panel(f, &f->panels[0], a, L, true, &L->panels[0]);
        layout_panel(f, &f->panels[1], b, L, true, &L->panels[1]);
    }
    rd__layout_narration(text, f, L);
}

void rd_frame_init(rd_frame *f)
{
    memset(f, 0, sizeof *f);
    f->theme = RD_THEME_DARK;
    f->lang = CV_LANG_EN;
    f->dpi_scale = 1.0f;
    f->npanels = 1;
    f->speed = 1.0;
    f->narration = true;
    f->controls = true;
    f->mouse_x = f->mouse_y = -1;
}

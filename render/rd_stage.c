/*
 * rd_stage.c: where the GPU cards go, and what fits inside them, so that
 * every number on the stage can be read.
 *
 * A few arrangements are tried for a panel and the one that lets values be
 * drawn largest wins: an ellipse (up to 8 ranks, kept when nearly as good:
 * it reads as a ring at once), a ring folded into rows so that every link
 * joins neighbouring cards (two rows are a racetrack; the cards grow into
 * what would be the ellipse's empty middle), a tree's levels, and a grid in
 * rank order. Inside a card each buffer's row wraps onto as many lines as
 * its cells need; a value is never drawn below a legible size (larger in
 * the projector theme). Where single cells cannot each get that size, the
 * row shows one block per chunk (its label and the values that fit), and
 * only where even that fails, colour stripes that the legend and the hover
 * explain. tests/test_render_layout.c checks that nothing overlaps and
 * nothing leaves the window from 800x600 to 4K.
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
 * last few are kept (the layout runs every frame). */
static double circle_width(SDL_Rect area, int n, double aspect, int gap, bool centre)
{
    typedef struct {
        int w, h, n, gap;
        double aspect, width;
        bool centre;
    } memo_t;
    static memo_t memo[8];
    static int next;
    for (int m = 0; m < 8; m++)
        if (memo[m].n == n && memo[m].w == area.w && memo[m].h == area.h && memo[m].gap == gap &&
            memo[m].aspect == aspect && memo[m].centre == centre)
            return memo[m].width;
    int order[RD_LAYOUT_MAX_RANKS];
    SDL_Rect cards[RD_LAYOUT_MAX_RANKS + 1];
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
    memo[next] = (memo_t){area.w, area.h, n, gap, aspect, lo, centre};
    next = (next + 1) % 8;
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

/* ------------------------------------------------------------ card insides */

/* What one panel's cards must hold, and the measures that decide it. */
typedef struct {
    const cv_plan *plan;
    const rd_layout *L;
    rd_text *t;
    cv_lang lang;
    int n, nrows;
    int nparts; /* the ranks' cards, and an in-network plan's switch (card n) */
    bool projector;
    int px_min, px_max;
    int64_t count[RD_LAYOUT_MAX_RANKS + 1][CV_BUF_COUNT]; /* -1: no such row */
    int chunks[RD_LAYOUT_MAX_RANKS + 1][CV_BUF_COUNT]; /* chunk blocks a row would have */
    int64_t part[RD_LAYOUT_MAX_RANKS + 1][CV_BUF_COUNT];
    int64_t cgroup[RD_LAYOUT_MAX_RANKS + 1][CV_BUF_COUNT];
    /* measured at each text size */
    int value_w[64], label_w[64], rowlab_w[64], dots_w[64];
} stage;

/* One card's insides at a text size: each row's mode and lines. */
typedef struct {
    int px;
    bool labels;
    bool label_top; /* the row's name on a line above it, not in a column beside it */
    int title_h, rowlab_w, rowlab_h, ipad, gap;
    int mode[CV_BUF_COUNT], per_line[CV_BUF_COUNT], lines[CV_BUF_COUNT], cells[CV_BUF_COUNT];
    int line_h[CV_BUF_COUNT];
    int need_h;
} card_fit;

static int value_line(int px) { return (int)(px * 1.3f); }
static int label_px(int px) { return px * 4 / 5 > 7 ? px * 4 / 5 : 7; }
static int label_line(int px) { return (int)(label_px(px) * 1.25f); }

/* Tries a card of w x h at px: CELLS in every row if they fit, else the
 * biggest rows become CHUNKS, then STRIPES. Returns the fit's quality:
 * 3 every row legible cells with labels, 2 cells without labels, 1 some
 * chunk blocks, 0 stripes somewhere, -1 nothing fits at all. */
static int fit_card_at(const stage *s, int rank, int w, int h, int px, bool labels, bool top,
                       card_fit *f)
{
    memset(f, 0, sizeof *f);
    f->px = px;
    f->labels = labels;
    f->label_top = top;
    f->ipad = px * 3 / 10 > 2 ? px * 3 / 10 : 2;
    f->title_h = (int)(px * 1.35f);
    f->rowlab_w = top ? 0 : s->rowlab_w[px];
    f->rowlab_h = top ? (int)(px * 9 / 10 * 1.2f) : 0;
    f->gap = px / 5 > 1 ? px / 5 : 1;
    int W = w - 2 * f->ipad - f->rowlab_w;
    int H = h - 2 * f->ipad - f->title_h - f->gap * (s->nrows - 1) - f->rowlab_h * s->nrows;
    if (W < px * 2 || H < px)
        return -1;
    int cell_w = s->value_w[px] + (px * 2 / 3 > 5 ? px * 2 / 3 : 5); /* a gap between numbers */
    int cell_h = value_line(px) + rd__stripe_h(px) + (labels ? label_line(px) : 0) + 2;
    int chunk_w = (s->label_w[px] > s->value_w[px] + s->dots_w[px] ? s->label_w[px]
                                                                     : s->value_w[px] + s->dots_w[px]) +
                  px / 2;
    int chunk_h = value_line(px) + label_line(px) + rd__stripe_h(px) + 2;
    int strip_h = px * 3 / 4 > 6 ? px * 3 / 4 : 6;
    /* Start with cells everywhere; demote the row that needs most height
     * until the card holds them all. */
    int used = 0;
    for (int b = 0; b < CV_BUF_COUNT; b++) {
        int64_t cnt = s->count[rank][b];
        f->mode[b] = RD_ROW_CELLS;
        if (cnt < 0)
            continue; /* no such row */
        if (cnt == 0) {
            f->lines[b] = 1, f->line_h[b] = value_line(px), f->cells[b] = 0;
            continue;
        }
        int per = W / cell_w;
        if (per < 1)
            per = 0;
        /* Lines break between chunks where they can: a whole number of
         * chunks a line, or a whole number of lines a chunk. */
        int64_t cs = s->part[rank][b] > 0 ? (s->part[rank][b] % s->chunks[rank][b] == 0
                                                 ? s->part[rank][b] / s->chunks[rank][b]
                                                 : 0)
                                          : s->chunks[rank][b] > 1 ? s->cgroup[rank][b] : 0;
        if (cs > 1 && per < cnt) {
            if (per >= cs) {
                per -= (int)(per % cs);
            } else {
                int d = per;
                while (d > 1 && cs % d != 0)
                    d--;
                if (2 * d >= per)
                    per = d;
            }
        }
        f->per_line[b] = per < cnt ? per : (int)cnt;
        f->cells[b] = (int)cnt;
        f->lines[b] = per > 0 ? (int)((cnt + per - 1) / per) : 1 << 20;
        f->line_h[b] = cell_h;
    }
    for (int round = 0; round < 8; round++) {
        used = 0;
        for (int b = 0; b < CV_BUF_COUNT; b++)
            if (s->count[rank][b] >= 0)
                used += f->lines[b] * f->line_h[b];
        if (used <= H)
            break;
        /* The row that takes most height goes down one mode. */
        int worst = -1, most = -1;
        for (int b = 0; b < CV_BUF_COUNT; b++) {
            if (s->count[rank][b] <= 0 || f->mode[b] == RD_ROW_STRIPES)
                continue;
            int hb = f->lines[b] * f->line_h[b];
            if (hb > most)
                most = hb, worst = b;
        }
        if (worst < 0)
            break;
        int b = worst;
        int64_t cnt = s->count[rank][b];
        int nch = s->chunks[rank][b];
        if (f->mode[b] == RD_ROW_CELLS && nch > 0 && nch < cnt) {
            int per = W / chunk_w;
            f->mode[b] = RD_ROW_CHUNKS;
            f->cells[b] = nch;
            f->per_line[b] = per < nch ? per : nch;
            f->lines[b] = per > 0 ? (nch + per - 1) / per : 1 << 20;
            f->line_h[b] = chunk_h;
        } else {
            /* Stripes: one line of cells at least 3 pixels wide. */
            int per = W / 3 > 0 ? W / 3 : 1;
            f->mode[b] = RD_ROW_STRIPES;
            f->cells[b] = per < cnt ? per : (int)cnt;
            f->per_line[b] = f->cells[b];
            f->lines[b] = 1;
            f->line_h[b] = strip_h;
        }
    }
    f->need_h = used + 2 * f->ipad + f->title_h + f->gap * (s->nrows - 1) + f->rowlab_h * s->nrows;
    if (used > H)
        return -1;
    int q = labels ? 3 : 2;
    for (int b = 0; b < CV_BUF_COUNT; b++) {
        if (s->count[rank][b] <= 0)
            continue;
        if (f->mode[b] == RD_ROW_CHUNKS && q > 1)
            q = 1;
        if (f->mode[b] == RD_ROW_STRIPES)
            q = 0;
    }
    return q;
}

/* The narrowest cell of a fit: what its numbers have between them. */
static int narrowest(const card_fit *f, int w)
{
    int cw = 1 << 20;
    for (int b = 0; b < CV_BUF_COUNT; b++)
        if (f->cells[b] > 0 && f->per_line[b] > 0) {
            int c = (w - 2 * f->ipad - f->rowlab_w) / f->per_line[b];
            cw = c < cw ? c : cw;
        }
    return cw;
}

/* The better of the row names beside the rows or above them (narrow
 * cards): the higher quality, then the wider cells (numbers side by side
 * must not run together), then beside. */
static int fit_card(const stage *s, int rank, int w, int h, int px, bool labels, card_fit *f)
{
    card_fit top;
    int q = fit_card_at(s, rank, w, h, px, labels, false, f);
    int qt = fit_card_at(s, rank, w, h, px, labels, true, &top);
    if (qt > q || (qt == q && qt >= 0 && narrowest(&top, w) > narrowest(f, w) * 6 / 5)) {
        *f = top;
        return qt;
    }
    return q;
}

/* The best text size and quality every card of w x h can share. */
typedef struct {
    int quality; /* as fit_card, the worst card's */
    int px;
    bool labels;
} panel_fit;

static panel_fit fit_panel(const stage *s, int w, int h)
{
    panel_fit best = {-1, 0, false};
    card_fit f;
    /* Legible cells first: the largest size at which every card holds its
     * rows as cells, with labels if possible. */
    for (int px = s->px_max; px >= s->px_min; px--)
        for (int lab = 1; lab >= 0; lab--) {
            int worst = 3;
            for (int r = 0; r < s->n && worst >= 2; r++) { /* a switch: best effort */
                int q = fit_card(s, r, w, h, px, lab, &f);
                if (q < worst)
                    worst = q;
            }
            if (worst >= 2)
                return (panel_fit){worst, px, lab != 0};
        }
    /* Else at the legible minimum, chunk blocks or stripes where needed. */
    int worst = 3;
    for (int r = 0; r < s->n; r++) {
        int q = fit_card(s, r, w, h, s->px_min, false, &f);
        if (q < worst)
            worst = q;
    }
    if (worst >= 0)
        return (panel_fit){worst, s->px_min, false};
    /* Not even stripes at the legible size: smaller type, stripes. */
    for (int px = s->px_min - 1; px >= 7; px--) {
        worst = 3;
        for (int r = 0; r < s->n; r++) {
            int q = fit_card(s, r, w, h, px, false, &f);
            if (q < worst)
                worst = q;
        }
        if (worst >= 0)
            return (panel_fit){0, px, false};
    }
    return best;
}

/* Better: legible before illegible, then larger type, then more room. */
static double fit_score(panel_fit f, int w, int h)
{
    if (f.quality < 0)
        return -1e9 + (double)w * h * 1e-6;
    return f.quality * 1000.0 + f.px * 10.0 + (double)w * h * 1e-6;
}

/* Fills one card's rectangles for a fit. */
static void place_insides(const stage *s, int rank, SDL_Rect c, const card_fit *f,
                          rd_card_layout *cl)
{
    cl->card = c;
    int ip = f->ipad;
    cl->title = rd__rect(c.x + ip, c.y + ip, c.w - 2 * ip, f->title_h);
    int top = c.y + ip + f->title_h;
    int avail = c.h - 2 * ip - f->title_h - f->gap * (s->nrows - 1) - f->rowlab_h * s->nrows;
    int need = 0, lines = 0;
    for (int b = 0; b < CV_BUF_COUNT; b++)
        if (s->count[rank][b] >= 0) {
            need += f->lines[b] * f->line_h[b];
            lines += f->lines[b];
        }
    int extra = avail - need > 0 ? avail - need : 0;
    int y = top;
    for (int b = 0; b < CV_BUF_COUNT; b++) {
        cl->count[b] = s->count[rank][b] > 0 ? s->count[rank][b] : 0;
        cl->group[b] = 1;
        cl->part[b] = 0;
        cl->cells[b] = 0;
        cl->per_line[b] = 1;
        cl->mode[b] = (unsigned char)f->mode[b];
        if (s->count[rank][b] < 0) {
            cl->row[b] = cl->label[b] = rd__rect(c.x, c.y, 0, 0);
            continue;
        }
        /* The extra height goes to the lines, evenly. */
        int hb = f->lines[b] * f->line_h[b] + (lines > 0 ? extra * f->lines[b] / lines : 0);
        if (f->label_top) {
            cl->label[b] = rd__rect(c.x + ip, y, c.w - 2 * ip, f->rowlab_h);
            y += f->rowlab_h;
        } else {
            cl->label[b] = rd__rect(c.x + ip, y, f->rowlab_w, hb);
        }
        cl->row[b] = rd__rect(c.x + ip + f->rowlab_w, y, c.w - 2 * ip - f->rowlab_w, hb);
        y += hb + f->gap;
        int64_t cnt = s->count[rank][b];
        if (cnt <= 0 || f->cells[b] <= 0)
            continue; /* no room for the row at all (a tiny card) */
        cl->cells[b] = f->cells[b];
        cl->per_line[b] = f->per_line[b] > 0 ? f->per_line[b] : 1;
        if (f->mode[b] == RD_ROW_CHUNKS) {
            cl->part[b] = s->part[rank][b];
            cl->group[b] = s->cgroup[rank][b];
        } else {
            cl->group[b] = (cnt + f->cells[b] - 1) / f->cells[b];
            cl->cells[b] = (int)((cnt + cl->group[b] - 1) / cl->group[b]);
            if (cl->per_line[b] > cl->cells[b])
                cl->per_line[b] = cl->cells[b];
        }
    }
}

/* ------------------------------------------------------------ a panel */

static void measure_stage(stage *s, const rd_panel *p)
{
    static const rd_string names[CV_BUF_COUNT] = {RD_S_IN, RD_S_OUT, RD_S_TMP};
    const char *widest = p->widest && *p->widest ? p->widest : "00000";
    /* A label as long as a ring's partial sums get: "c0-15". */
    char lab[32];
    snprintf(lab, sizeof lab, "m0-%d", s->n - 1);
    for (int px = 7; px <= s->px_max && px < 64; px++) {
        rd_text_measure(s->t, widest, px, &s->value_w[px], NULL);
        int lw = 0;
        rd_text_measure(s->t, lab, label_px(px), &lw, NULL);
        s->label_w[px] = lw;
        rd_text_measure(s->t, " \xE2\x80\xA6", px, &s->dots_w[px], NULL);
        int rw = 0;
        for (int b = 0; b < CV_BUF_COUNT; b++) {
            if (b == CV_BUF_SCRATCH && s->plan->scratch_count <= 0)
                continue;
            int w = 0;
            rd_text_measure(s->t, rd_str(s->lang, names[b]), px * 9 / 10, &w, NULL);
            if (w > rw)
                rw = w;
        }
        s->rowlab_w[px] = rw + px / 2;
    }
}

/* Tries the arrangements for the panel's cards in A; the best one's card
 * rectangles go into pl (insides are placed afterwards). */
static panel_fit arrange(const stage *sp, SDL_Rect A, rd_panel_layout *pl)
{
    const stage *s = sp;
    const rd_layout *L = s->L;
    const cv_plan *plan = s->plan;
    int gap = (int)fmaxf(4, 10 * L->ui);
    int link_gap = (int)fmaxf(gap, 30 * L->ui); /* room for a link and its arrow */
    int loop_gap = (int)fmaxf(gap, 22 * L->ui);  /* between neighbours side by side */
    rd__links links;
    rd__plan_links(plan, &links);
    cv_algo algo = plan->spec.algo;
    int n = s->n;
    int order[RD_LAYOUT_MAX_RANKS];
    for (int i = 0; i < n; i++)
        order[i] = i;
    bool ring = false;
    if (n >= 3) {
        rd__ring_order(&links, order);
        ring = true;
        for (int i = 0; i < n && ring; i++)
            ring = links.m[order[i]] >> order[(i + 1) % n] & 1;
    }

    /* Candidates: each gives card rectangles; the best fit wins. */
    SDL_Rect best_cards[RD_LAYOUT_MAX_RANKS + 1], cards[RD_LAYOUT_MAX_RANKS + 1];
    /* An in-network plan's switch: in the middle of an ellipse or a tree,
     * or one more card of a grid; every rank links to it. */
    bool sw = s->nparts > n;
    double best_score = -2e9;
    rd_shape best_shape = RD_SHAPE_GRID;
    panel_fit best_fit = {-1, 0, false};
#define TRY(shape_, score_bonus)                                                                    \
    do {                                                                                           \
        if (sw && (shape_) != RD_SHAPE_GRID && (shape_) != RD_SHAPE_CIRCLE)                        \
            cards[n] = rd__rect(A.x + (A.w - cards[0].w) / 2, A.y + (A.h - cards[0].h) / 2,        \
                                cards[0].w, cards[0].h);                                           \
        panel_fit pf_ = fit_panel(s, cards[0].w, cards[0].h);                                      \
        double sc_ = fit_score(pf_, cards[0].w, cards[0].h) + (score_bonus);                        \
        if (sc_ > best_score) {                                                                    \
            best_score = sc_, best_shape = (shape_), best_fit = pf_;                               \
            memcpy(best_cards, cards, sizeof cards[0] * (size_t)s->nparts);                        \
        }                                                                                          \
    } while (0)

    if (n == 1) {
        int w = (int)fminf(A.w, fmaxf(A.w * 0.7f, 320 * L->ui)), h = (int)fminf(A.h, A.h * 0.8f);
        cards[0] = rd__rect(A.x + (A.w - w) / 2, A.y + (A.h - h) / 2, w, h);
        TRY(RD_SHAPE_SINGLE, 0);
    } else if (algo == CV_ALGO_TREE && n <= 32) {
        int depth[RD_LAYOUT_MAX_RANKS];
        int levels = rd__levels(&links, plan->spec.root, depth);
        int per[RD_LAYOUT_MAX_RANKS] = {0}, widest = 1;
        for (int r = 0; r < n; r++)
            if (++per[depth[r]] > widest)
                widest = per[depth[r]];
        int cw = (A.w - gap * (widest - 1)) / widest;
        int ch = (A.h - link_gap * (levels - 1)) / levels;
        int placed[RD_LAYOUT_MAX_RANKS] = {0};
        int vgap = levels > 1 ? (A.h - levels * ch) / (levels - 1) : 0;
        for (int r = 0; r < n; r++) {
            int d = depth[r], k = placed[d]++;
            int row_w = per[d] * cw + (per[d] - 1) * gap;
            cards[r] = rd__rect(A.x + (A.w - row_w) / 2 + k * (cw + gap), A.y + d * (ch + vgap), cw, ch);
        }
        TRY(RD_SHAPE_LEVELS, 0);
    } else {
        if (n <= 8 || (sw && n <= 16)) {
            /* The ellipse, at a few card shapes: kept unless another
             * arrangement draws values clearly larger. */
            static const double aspects[] = {1.3, 1.8, 2.4, 3.2};
            for (size_t i = 0; i < sizeof aspects / sizeof *aspects; i++) {
                double w = circle_width(A, n, aspects[i], link_gap, sw);
                place_circle(A, n, (int)w, (int)(w / aspects[i]), order, sw, cards);
                TRY(RD_SHAPE_CIRCLE, 25);
            }
        }
        if (ring && n >= 4 && !sw) {
            /* The ring folded into rows: neighbours side by side. */
            for (int R = 2; R <= 8 && R <= n / 2; R += 2)
                for (int tr = 0; tr < 2; tr++) {
                    int C = (n + R - 1) / R;
                    if (C < 2)
                        continue;
                    int rowi[RD_LAYOUT_MAX_RANKS * 2], coli[RD_LAYOUT_MAX_RANKS * 2];
                    loop_places(R, C, tr, rowi, coli);
                    int rows = tr ? C : R, cols = tr ? R : C;
                    for (int k = 0; k < n; k++)
                        cell_grid(A, rows, cols, loop_gap, loop_gap, rowi[k], coli[k], &cards[order[k]]);
                    TRY(RD_SHAPE_LOOP, 0);
                }
        }
        if (!ring || n < 4 || sw) {
            int np = s->nparts;
            for (int cols = 1; cols <= np; cols++) {
                int rows = (np + cols - 1) / cols;
                if (rows > 1 && (rows - 1) * cols >= np)
                    continue; /* a row left empty */
                for (int r = 0; r < np; r++)
                    cell_grid(A, rows, cols, gap, gap, r / cols, r % cols, &cards[r]);
                TRY(RD_SHAPE_GRID, 0);
            }
        }
    }
#undef TRY
    pl->shape = best_shape;
    for (int r = 0; r < s->nparts; r++)
        pl->cards[r].card = best_cards[r];
    return best_fit;
}

void rd__layout_panel(const rd_frame *f, const rd_panel *p, SDL_Rect area, rd_layout *L,
                      rd_text *text, bool caption, rd_panel_layout *pl)
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
    const cv_plan *plan = p->trace ? cv_trace_plan(p->trace) : NULL;
    if (!plan || !text)
        return;
    static stage s; /* large: the renderer runs on one thread */
    memset(&s, 0, sizeof s);
    s.plan = plan;
    s.L = L;
    s.t = text;
    s.lang = f->lang;
    s.n = plan->spec.ranks < RD_LAYOUT_MAX_RANKS ? plan->spec.ranks : RD_LAYOUT_MAX_RANKS;
    s.nrows = plan->scratch_count > 0 ? 3 : 2;
    s.nparts = s.n + (plan->nswitch > 0 ? 1 : 0);
    s.projector = rd_theme_get(f->theme)->text_scale > 1.2f;
    /* The smallest value a learner can read: 11 px on a desk at 1280x800,
     * larger on a larger window, and half again on a projector. */
    s.px_min = (int)lroundf(fmaxf(11.0f, 9.0f * L->ui) * (s.projector ? 1.45f : 1.0f));
    s.px_max = (int)lroundf(L->px_text * 1.15f);
    if (s.px_max > 62)
        s.px_max = 62;
    if (s.px_min > s.px_max)
        s.px_min = s.px_max;
    for (int r = 0; r < s.nparts; r++)
        for (int b = 0; b < CV_BUF_COUNT; b++) {
            /* The plan's own count (the switch's scratch, a plan's scratch);
             * -1: a row the part does not have (a switch's send and recv,
             * no scratch), not drawn, unlike an empty one ("unused"). */
            bool sw = r >= s.n;
            int64_t cnt = cv_plan_buf_count(plan, (cv_buf)b, sw ? plan->spec.ranks + (r - s.n) : r);
            if (sw ? b != CV_BUF_SCRATCH : b == CV_BUF_SCRATCH && cnt <= 0)
                cnt = -1;
            s.count[r][b] = cnt;
            rd__chunk_blocks(&plan->spec, (cv_buf)b, cnt, &s.chunks[r][b], &s.part[r][b], &s.cgroup[r][b]);
        }
    measure_stage(&s, p);
    pl->nranks = s.n;
    pl->nparts = s.nparts;
    pl->nrows = s.nrows;
    pl->lens_rank = -1;
    SDL_Rect A = rd__rect(area.x, area.y + cap_h + pad / 2, area.w, area.h - cap_h - leg_h - pad);
    panel_fit fit = arrange(&s, A, pl);
    /* Not every value legible on the cards (64 ranks, a big tree): one
     * card again, large, beside them: the clicked one, else the root. */
    if (fit.quality < 2 && A.w > 200 * L->ui && A.h > 160 * L->ui) {
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
        fit = arrange(&s, rest, pl);
        /* A compare panel is half the stage: where the lens would leave
         * its cards too small for their titles, it goes without. */
        bool cramped = fit.quality < 0 || fit.px < 9;
        for (int r = 0; r < s.nparts && caption && !cramped; r++)
            cramped = pl->cards[r].card.h < (int)((2 * s.nrows + 1) * fit.px * 0.8f);
        if (caption && cramped) {
            fit = arrange(&s, A, pl);
        } else {
            int r = f->focus >= 0 && f->focus < s.n ? f->focus
                    : cv_op_has_root(plan->spec.op) && plan->spec.root < s.n ? plan->spec.root
                                                                             : 0;
            /* Its caption above it, the card under it, at the largest size at
             * which every value is a legible cell (else blocks, as the cards). */
            int cap = (int)(L->px_text * 1.6f);
            SDL_Rect card = rd__rect(lens.x, lens.y + cap, lens.w, lens.h - cap);
            card_fit cf;
            bool found = false;
            for (int px = s.px_max; px >= s.px_min && !found; px--)
                for (int lab = 1; lab >= 0 && !found; lab--)
                    found = fit_card(&s, r, card.w, card.h, px, lab, &cf) >= 2;
            if (!found && fit_card(&s, r, card.w, card.h, s.px_min, false, &cf) < 0)
                for (int px = s.px_min - 1; px >= 7; px--)
                    if (fit_card(&s, r, card.w, card.h, px, false, &cf) >= 0)
                        break;
            pl->lens = lens;
            pl->lens_rank = r;
            pl->lens_px = cf.px;
            pl->lens_label_px = cf.labels ? label_px(cf.px) : 0;
            if (cf.need_h > 0 && cf.need_h < card.h)
                card.h = cf.need_h + (card.h - cf.need_h) / 3; /* no taller than it needs */
            place_insides(&s, r, card, &cf, &pl->cards[RD_LENS_CARD]);
        }
    }
    pl->cell_px = fit.px > 0 ? fit.px : 7;
    pl->label_px = fit.labels ? label_px(pl->cell_px) : 0;
    for (int r = 0; r < s.nparts; r++) {
        card_fit cf;
        SDL_Rect c = pl->cards[r].card;
        if (fit_card(&s, r, c.w, c.h, pl->cell_px, fit.labels, &cf) < 0)
            fit_card(&s, r, c.w, c.h, pl->cell_px, false, &cf);
        place_insides(&s, r, c, &cf, &pl->cards[r]);
    }
}

/*
 * test_render_routes.c: the stage draws every algorithm so that what flies
 * can be followed: no chunk in flight passes over a card that is not its
 * source or its destination, and no card moves while the steps play.
 *
 * Computed from the layout, not from pixels: for every algorithm of every
 * op at 2 to 64 ranks (an element per rank, as the window starts; one,
 * two and four nodes for the algorithms that have nodes), at 1920x1080
 * and 1280x800, every step is laid out as the window would lay it out
 * mid-flight (rd_layout_compute), and every transfer's path (rd_flight_path:
 * its cells, the link's route, the cells it lands in) is
 * tested segment by segment against every other card's rectangle (the
 * switch's and the lens's included), with its own segment test rather
 * than the renderer's. The cards of each step must be the first step's.
 */
#include "test_render_util.h"

#include <math.h>
#include <string.h>

/* Whether the segment enters r more than a pixel in from its edge. */
static bool crosses(float x0, float y0, float x1, float y1, SDL_Rect r)
{
    if (r.w <= 2 || r.h <= 2)
        return false;
    /* A segment whose box lies off the rectangle's inside has no sample in
     * it (every sample is in the box, give or take rounding far below the
     * 0.01 px kept): most pairs of a path and a card end here, with the
     * answer the samples would give. */
    if (fmaxf(x0, x1) < r.x + 1.5f - 0.01f || fminf(x0, x1) > r.x + r.w - 1.5f + 0.01f ||
        fmaxf(y0, y1) < r.y + 1.5f - 0.01f || fminf(y0, y1) > r.y + r.h - 1.5f + 0.01f)
        return false;
    /* Sampled every half pixel: slow, but independent of the renderer's
     * clipping. */
    float len = fmaxf(fabsf(x1 - x0), fabsf(y1 - y0));
    int steps = (int)(len * 2) + 1;
    for (int i = 0; i <= steps; i++) {
        float x = x0 + (x1 - x0) * i / steps, y = y0 + (y1 - y0) * i / steps;
        if (x > r.x + 1.5f && x < r.x + r.w - 1.5f && y > r.y + 1.5f && y < r.y + r.h - 1.5f)
            return true;
    }
    return false;
}

static bool same_rect(SDL_Rect a, SDL_Rect b)
{
    return a.x == b.x && a.y == b.y && a.w == b.w && a.h == b.h;
}

/* The card a path crosses that is not s or d, else -1 (the lens is
 * RD_LENS_CARD). */
static int crossed_card(const rd_panel_layout *pl, int s, int d, const float (*pts)[2], int n)
{
    for (int k = 0; k <= pl->nparts; k++) {
        int card = k < pl->nparts ? k : RD_LENS_CARD;
        if (card == s || card == d || (card == RD_LENS_CARD && pl->lens.w <= 0))
            continue;
        for (int i = 0; i + 1 < n; i++)
            if (crosses(pts[i][0], pts[i][1], pts[i + 1][0], pts[i + 1][1], pl->cards[card].card))
                return card;
    }
    return -1;
}

/* Every step of one spec: the flights that cross a card, and cards that
 * move. Returns the number of crossing flights. */
static int check_spec(const cv_spec *spec, int W, int H, const char *what)
{
    gui *g = tr_gui(spec, W, H, RD_THEME_DARK, CV_LANG_EN);
    const cv_plan *plan = g->panels[0].plan;
    rd_text *text = rd_ctx_text(gui_rd(g));
    static rd_layout L, first;
    uint64_t links[RD_LAYOUT_MAX_RANKS + 1] = {0};
    for (int64_t i = 0; i < plan->ntransfers; i++)
        if (plan->transfers[i].src < 64 && plan->transfers[i].dst < 64) /* as rd_plan.c */
            links[plan->transfers[i].src] |= 1ull << plan->transfers[i].dst;
    int bad = 0, moved = 0;
    for (int k = 0; k < plan->nsteps; k++) {
        g->t = k + 0.4;
        rd_frame f;
        gui__frame(g, &f);
        rd_layout_compute(&f, W, H, text, &L);
        const rd_panel_layout *pl = &L.panels[0];
        if (k == 0)
            first = L;
        for (int r = 0; r < pl->nparts && !moved; r++)
            if (!same_rect(pl->cards[r].card, first.panels[0].cards[r].card)) {
                TR_CHECK(false, "%s: step %d: card %d moved from (%d,%d) to (%d,%d)", what, k + 1,
                         r, first.panels[0].cards[r].card.x, first.panels[0].cards[r].card.y,
                         pl->cards[r].card.x, pl->cards[r].card.y);
                moved = 1;
            }
        const cv_step *st = &plan->steps[k];
        for (int64_t i = st->first; i < st->first + st->count; i++) {
            const cv_transfer *x = &plan->transfers[i];
            if (x->src == x->dst || x->src >= pl->nparts || x->dst >= pl->nparts)
                continue;
            bool both = x->dst < 64 && x->src < 64 && (links[x->dst] >> x->src & 1);
            float pts[RD_ROUTE_MAX + 2][2];
            int n = rd_flight_path(&L, 0, x, both, pts);
            int card = crossed_card(pl, x->src, x->dst, pts, n);
            if (card < 0)
                continue;
            if (bad++ < 2)
                fprintf(stderr, "%s: step %d: %d -> %d crosses %s %d\n", what, k + 1, x->src,
                        x->dst, card == RD_LENS_CARD ? "the lens" : "card", card);
            if (bad == 1) {
                SDL_Rect r = pl->cards[card].card;
                fprintf(stderr, "  card %d,%d %dx%d; path", r.x, r.y, r.w, r.h);
                for (int j = 0; j < n; j++)
                    fprintf(stderr, " (%.0f,%.0f)", pts[j][0], pts[j][1]);
                fprintf(stderr, "\n");
            }
        }
    }
    TR_CHECK(bad == 0, "%s: %d flights cross a card other than their ends", what, bad);
    gui_destroy(g);
    return bad;
}

int main(void)
{
    tr_require_fonts();
    static const int ranks[] = {2, 3, 4, 5, 7, 8, 12, 16, 32, 64};
    static const int sizes[2][2] = {{1920, 1080}, {1280, 800}}; /* the window's, export's */
    int specs = 0, failing = 0;
    for (int op = 0; op < CV_OP_COUNT; op++) {
        cv_algo algos[CV_ALGO_COUNT];
        int na = cv_op_algos((cv_op)op, algos);
        for (int a = 0; a < na; a++)
            for (size_t i = 0; i < sizeof ranks / sizeof *ranks; i++) {
                /* As the window starts: an element per rank; one node,
                 * two and four where the algorithm has nodes. */
                bool nodes = cv_algo_uses_nodes((cv_op)op, algos[a]);
                for (int k = 1; k <= (nodes ? 4 : 1); k *= 2) {
                    cv_spec spec = tr_spec((cv_op)op, algos[a], ranks[i], ranks[i]);
                    if (k > 1 && (ranks[i] % k != 0 || ranks[i] < 2 * k))
                        continue;
                    spec.nodes = k;
                    char err[256];
                    if (cv_spec_check(&spec, RD_LAYOUT_MAX_RANKS, err, sizeof err) != CV_OK)
                        continue;
                    for (int z = 0; z < 2; z++) {
                        char what[112];
                        snprintf(what, sizeof what, "%s %s %d ranks (%d nodes) at %dx%d",
                                 cv_op_name((cv_op)op), cv_algo_name(algos[a]), ranks[i], k,
                                 sizes[z][0], sizes[z][1]);
                        failing += check_spec(&spec, sizes[z][0], sizes[z][1], what) > 0;
                        specs++;
                    }
                }
            }
    }
    printf("%d specs and sizes laid out step by step, %d with a flight over another card\n", specs,
           failing);
    return tr_failures ? 1 : 0;
}

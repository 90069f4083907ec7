/*
 * test_render_structure.c: the stage draws each log-step algorithm's
 * structure where a learner can point at it, checked from the layout
 * (rd_layout_compute), not from pixels.
 *
 * Double binary tree, 2 to 64 ranks, at 1920x1080 and the projector's
 * 1024x768: both trees are drawn (ntrees 2), every rank has a node in
 * both, every edge joins a rank to its parent in that tree as NCCL's
 * builder (cv__dtree_build, ncclGetDtree) says, a parent's node above its
 * child's, the nodes of a tree apart and inside its box, the trees clear
 * of every card; and the edges lit at each step are exactly those the
 * step's transfers use, each in the tree whose half it carries.
 *
 * The hypercube algorithms (recursive doubling and halving, Rabenseifner,
 * Bruck, PAT), 4 to 64 ranks: every step between ranks has its round
 * written above the cards, with the rule its transfers follow when they
 * follow one ("partner = r XOR 4" for partners that exchange, "to the
 * rank 2 behind" and its distance where every rank sends on), a chip for every pair it
 * joins, the chips apart and clear of the cards, the strip the same at
 * every step; at a power of two every round has its rule.
 *
 * Multi-ring, from the pixels: a link that several channels share is
 * drawn in every one of those channels' colours along its route.
 */
#include "test_render_util.h"

#include "cv_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A failed check, counted: a case stops after a few. */
#define CHECK_BAD(cond, ...)                                                                      \
    do {                                                                                           \
        bad += !(cond);                                                                            \
        TR_CHECK(cond, __VA_ARGS__);                                                               \
    } while (0)

static bool apart(SDL_Rect a, SDL_Rect b)
{
    return a.x + a.w <= b.x || b.x + b.w <= a.x || a.y + a.h <= b.y || b.y + b.h <= a.y;
}

static bool inside(SDL_Rect in, SDL_Rect out)
{
    return in.x >= out.x && in.y >= out.y && in.x + in.w <= out.x + out.w &&
           in.y + in.h <= out.y + out.h;
}

/* One rank count at one size: the trees' shape, then every step's lit
 * edges. */
static void check_dtree(int n, int W, int H, rd_theme_id theme)
{
    cv_spec spec = tr_spec(CV_OP_ALLREDUCE, CV_ALGO_DOUBLE_TREE, n, n);
    gui *g = tr_gui(&spec, W, H, theme, CV_LANG_EN);
    const cv_plan *plan = g->panels[0].plan;
    rd_text *text = rd_ctx_text(gui_rd(g));
    static rd_layout L;
    int up[2][64], kid[2][128], height[2][64], depth[2][64];
    for (int t = 0; t < 2; t++)
        cv__dtree_build(n, t, up[t], kid[t], height[t], depth[t]);
    int bad = 0;
    for (int k = 0; k < plan->nsteps && bad < 4; k++) {
        g->t = k + 0.4; /* mid-flight: the header's step is k */
        rd_frame f;
        gui__frame(g, &f);
        rd_layout_compute(&f, W, H, text, &L);
        const rd_panel_layout *pl = &L.panels[0];
        CHECK_BAD(pl->ntrees == 2, "%d ranks %dx%d: %d trees drawn, not 2", n, W, H, pl->ntrees);
        if (pl->ntrees != 2)
            break;
        for (int t = 0; t < 2 && k == 0; t++) {
            for (int r = 0; r < n; r++) {
                SDL_Rect a = pl->tree_node[t][r];
                CHECK_BAD(a.w > 0 && inside(a, pl->tree[t]),
                                 "%d ranks %dx%d: rank %d has no node inside tree %d", n, W, H, r,
                                 t);
                CHECK_BAD(pl->tree_up[t][r] == up[t][r],
                                 "%d ranks %dx%d: tree %d joins %d to %d, its parent is %d", n, W,
                                 H, t, r, pl->tree_up[t][r], up[t][r]);
                if (up[t][r] >= 0)
                    CHECK_BAD(pl->tree_node[t][up[t][r]].y + pl->tree_node[t][up[t][r]].h <=
                                         a.y,
                                     "%d ranks: tree %d: parent %d not above %d", n, t, up[t][r],
                                     r);
                for (int q = r + 1; q < n; q++)
                    CHECK_BAD(apart(a, pl->tree_node[t][q]),
                                     "%d ranks %dx%d: tree %d: nodes %d and %d overlap", n, W, H,
                                     t, r, q);
                for (int c = 0; c < pl->nparts; c++)
                    CHECK_BAD(apart(a, pl->cards[c].card),
                                     "%d ranks %dx%d: tree %d's node %d covers card %d", n, W, H,
                                     t, r, c);
                if (pl->lens.w > 0)
                    CHECK_BAD(apart(a, pl->lens), "%d ranks: node %d covers the lens", n,
                                     r);
            }
            CHECK_BAD(inside(pl->tree[t], pl->area), "%d ranks %dx%d: tree %d leaves the panel",
                             n, W, H, t);
            CHECK_BAD(pl->tree_px >= 8, "%d ranks %dx%d: rank numbers of %d px", n, W, H,
                             pl->tree_px);
        }
        /* The edges the step uses, each in the tree whose half it moves. */
        uint64_t want[2] = {0, 0};
        const cv_step *st = &plan->steps[k];
        int64_t c = plan->spec.count;
        for (int64_t i = st->first; i < st->first + st->count; i++) {
            const cv_transfer *x = &plan->transfers[i];
            if (x->src == x->dst)
                continue;
            int t = x->src_off % c >= c / 2;
            int child = up[t][x->src] == x->dst ? x->src : x->dst;
            CHECK_BAD(up[t][child] == (child == x->src ? x->dst : x->src),
                     "%d ranks: step %d: %d -> %d is no edge of tree %d", n, k, x->src, x->dst, t);
            want[t] |= 1ull << child;
        }
        for (int t = 0; t < 2; t++)
            CHECK_BAD(pl->tree_lit[t] == want[t],
                             "%d ranks %dx%d: step %d: tree %d lights edges %#llx, the step uses "
                             "%#llx",
                             n, W, H, k, t, (unsigned long long)pl->tree_lit[t],
                             (unsigned long long)want[t]);
    }
    gui_destroy(g);
}

static const int dtree_ranks[] = {2, 3, 4, 5, 7, 8, 16, 17, 32, 64};

static int dtree_name(int i, char *name, size_t len)
{
    if (i >= 2 * (int)(sizeof dtree_ranks / sizeof *dtree_ranks))
        return 0;
    snprintf(name, len, "%d-ranks-%s", dtree_ranks[i / 2], i % 2 ? "1024x768" : "1920x1080");
    return 1;
}

static void dtree_case(int i)
{
    int n = dtree_ranks[i / 2];
    if (i % 2)
        check_dtree(n, 1024, 768, RD_THEME_PROJECTOR);
    else
        check_dtree(n, 1920, 1080, RD_THEME_DARK);
}

/* The rule step k's transfers follow, worked out here: partners that
 * all exchange with r XOR x, or every rank sending to r + shift. */
static void step_rule(const cv_plan *plan, int k, int n, int *x, int *shift, int *pairs)
{
    const cv_step *st = &plan->steps[k];
    uint64_t to[64] = {0};
    int xs = -1, sh = -1;
    *pairs = 0;
    for (int64_t i = st->first; i < st->first + st->count; i++) {
        const cv_transfer *t = &plan->transfers[i];
        if (t->src == t->dst)
            continue;
        to[t->src] |= 1ull << t->dst;
        xs = xs == -1 || xs == (t->src ^ t->dst) ? t->src ^ t->dst : -2;
        int d = ((t->dst - t->src) % n + n) % n;
        sh = sh == -1 || sh == d ? d : -2;
    }
    bool exchange = true;
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++)
            if (to[a] >> b & 1) {
                exchange &= (to[b] >> a & 1) != 0;
                *pairs += a < b || !(to[b] >> a & 1);
            }
    *x = xs > 0 && exchange ? xs : 0;
    *shift = sh > 0 && !*x ? sh : 0;
}

static void check_rounds(cv_op op, cv_algo algo, int n, int W, int H, rd_theme_id theme)
{
    cv_spec spec = tr_spec(op, algo, n, n);
    char err[256];
    if (cv_spec_check(&spec, CV_MAX_VISUAL_RANKS, err, sizeof err) != CV_OK)
        return;
    gui *g = tr_gui(&spec, W, H, theme, CV_LANG_EN);
    const cv_plan *plan = g->panels[0].plan;
    rd_text *text = rd_ctx_text(gui_rd(g));
    static rd_layout L;
    SDL_Rect strip = {0, 0, 0, 0};
    int bad = 0;
    const char *name = cv_algo_name(algo);
    for (int k = 0; k < plan->nsteps && bad < 4; k++) {
        g->t = k + 0.4;
        rd_frame f;
        gui__frame(g, &f);
        rd_layout_compute(&f, W, H, text, &L);
        const rd_panel_layout *pl = &L.panels[0];
        if (k == 0)
            strip = pl->rounds;
        CHECK_BAD(pl->rounds.w > 0 && pl->rounds.x == strip.x && pl->rounds.y == strip.y &&
                      pl->rounds.h == strip.h,
                  "%s %d ranks %dx%d: step %d: no round strip, or not where step 1's is", name, n,
                  W, H, k);
        int x, shift, pairs;
        step_rule(plan, k, n, &x, &shift, &pairs);
        if (pairs == 0)
            continue; /* a local step */
        CHECK_BAD(strstr(pl->round_text, "round ") != NULL, "%s %d ranks: step %d has no round: '%s'",
                  name, n, k, pl->round_text);
        CHECK_BAD(pl->npairs == pairs, "%s %d ranks: step %d: %d pairs drawn, it joins %d", name, n,
                  k, pl->npairs, pairs);
        char want[64];
        if (x) {
            snprintf(want, sizeof want, "partner = r XOR %d", x);
            CHECK_BAD(pl->round_xor == x && strstr(pl->round_text, want),
                      "%s %d ranks: step %d: '%s' does not say '%s'", name, n, k, pl->round_text,
                      want);
        } else if (shift) {
            snprintf(want, sizeof want, "distance %d", shift < n - shift ? shift : n - shift);
            CHECK_BAD(((pl->round_shift % n) + n) % n == shift && strstr(pl->round_text, want),
                      "%s %d ranks: step %d: '%s' does not say '%s' (shift %d)", name, n, k,
                      pl->round_text, want, shift);
        } else {
            CHECK_BAD((n & (n - 1)) != 0, "%s %d ranks: step %d follows no one rule", name, n, k);
        }
        for (int j = 0; j < pl->npairs; j++) {
            SDL_Rect a = pl->pair_box[j];
            CHECK_BAD(a.w > 0 && inside(a, pl->rounds), "%s %d ranks: pair %d outside the strip",
                      name, n, j);
            for (int q = j + 1; q < pl->npairs; q++)
                CHECK_BAD(apart(a, pl->pair_box[q]), "%s %d ranks: pairs %d and %d overlap", name,
                          n, j, q);
        }
        for (int c = 0; c < pl->nparts; c++)
            CHECK_BAD(apart(pl->rounds, pl->cards[c].card),
                      "%s %d ranks %dx%d: the round strip covers card %d", name, n, W, H, c);
    }
    gui_destroy(g);
}

static const struct {
    cv_op op;
    cv_algo algo;
} hypercube[] = {
    {CV_OP_ALLGATHER, CV_ALGO_RECURSIVE_DOUBLING}, {CV_OP_ALLGATHER, CV_ALGO_PAT},
    {CV_OP_ALLGATHER, CV_ALGO_BRUCK},              {CV_OP_REDUCESCATTER, CV_ALGO_PAT},
    {CV_OP_REDUCESCATTER, CV_ALGO_RECURSIVE_HALVING}, {CV_OP_ALLREDUCE, CV_ALGO_RECURSIVE_DOUBLING},
    {CV_OP_ALLREDUCE, CV_ALGO_RABENSEIFNER},       {CV_OP_ALLTOALL, CV_ALGO_BRUCK},
};
#define NHYPER ((int)(sizeof hypercube / sizeof *hypercube))

static int rounds_name(int i, char *name, size_t len)
{
    if (i >= NHYPER)
        return 0;
    snprintf(name, len, "%s/%s", cv_op_name(hypercube[i].op), cv_algo_name(hypercube[i].algo));
    return 1;
}

static void rounds_case(int i)
{
    static const int ranks[] = {4, 6, 8, 16, 64};
    TR_CHECK(cv_algo_stage_shape(hypercube[i].op, hypercube[i].algo) == CV_STAGE_HYPERCUBE,
             "not drawn as a hypercube");
    for (size_t r = 0; r < sizeof ranks / sizeof *ranks; r++) {
        check_rounds(hypercube[i].op, hypercube[i].algo, ranks[r], 1920, 1080, RD_THEME_DARK);
        check_rounds(hypercube[i].op, hypercube[i].algo, ranks[r], 1024, 768, RD_THEME_PROJECTOR);
    }
}

/* The colour of the frame's pixel at (x, y). */
static SDL_Color pixel(SDL_Surface *sf, int x, int y)
{
    SDL_Color c = {0, 0, 0, 255};
    if (x < 0 || y < 0 || x >= sf->w || y >= sf->h)
        return c;
    Uint32 v = ((Uint32 *)((Uint8 *)sf->pixels + y * sf->pitch))[x];
    SDL_GetRGB(v, sf->format, &c.r, &c.g, &c.b);
    return c;
}

static bool near_colour(SDL_Color a, SDL_Color b)
{
    return abs(a.r - b.r) <= 24 && abs(a.g - b.g) <= 24 && abs(a.b - b.b) <= 24;
}

/* Multi-ring on 8 ranks in 2 nodes, before the first step: every link
 * two or more channels use shows each one's colour (channel j carries the
 * j-th share of the buffer, a channel a local rank; a link at rest is its
 * colour, the theme's series and then the series lightened, mixed 60%
 * into the background, as rd_links.c draws it). */
static void check_shared_links(int i)
{
    (void)i;
    cv_spec spec = tr_spec(CV_OP_ALLREDUCE, CV_ALGO_MULTIRING, 8, 8);
    spec.nodes = 2;
    gui *g = tr_gui(&spec, 1280, 800, RD_THEME_DARK, CV_LANG_EN);
    const cv_plan *plan = g->panels[0].plan;
    const rd_theme *th = rd_theme_get(RD_THEME_DARK);
    int parts = cv_spec_ranks_per_node(&plan->spec), n = plan->spec.ranks;
    unsigned used[8][8] = {{0}};
    uint64_t to[8] = {0};
    for (int64_t k = 0; k < plan->ntransfers; k++) {
        const cv_transfer *x = &plan->transfers[k];
        if (x->src == x->dst)
            continue;
        int64_t off = x->src_off % plan->spec.count;
        int j = (int)(off * parts / plan->spec.count);
        used[x->src][x->dst] |= 1u << j;
        used[x->dst][x->src] |= 1u << j;
        to[x->src] |= 1ull << x->dst;
    }
    gui_seek(g, 0);
    SDL_Surface *frame = tr_capture(g);
    const rd_layout *L = rd_last_layout(gui_rd(g));
    int shared = 0;
    for (int s = 0; s < n; s++)
        for (int d = 0; d < n; d++) {
            unsigned m = used[s][d];
            bool both = to[d] >> s & 1;
            if (!(to[s] >> d & 1) || !(m & (m - 1)) || (both && s > d))
                continue; /* one channel's link, or a two-way link's other way */
            shared++;
            float pts[RD_ROUTE_MAX][2];
            int np = rd_link_route(L, 0, s, d, both, pts);
            for (int t = 0; t < parts; t++) {
                if (!(m >> t & 1))
                    continue;
                SDL_Color c = th->series[t % RD_THEME_SERIES], want = th->bg;
                if (t >= RD_THEME_SERIES) { /* the series again, lightened */
                    c.r = (Uint8)(c.r + (th->text.r - c.r) * 0.45f);
                    c.g = (Uint8)(c.g + (th->text.g - c.g) * 0.45f);
                    c.b = (Uint8)(c.b + (th->text.b - c.b) * 0.45f);
                }
                want.r = (Uint8)(th->bg.r + (c.r - th->bg.r) * 0.6f);
                want.g = (Uint8)(th->bg.g + (c.g - th->bg.g) * 0.6f);
                want.b = (Uint8)(th->bg.b + (c.b - th->bg.b) * 0.6f);
                bool seen = false;
                for (int q = 0; q + 1 < np && !seen; q++) {
                    float dx = pts[q + 1][0] - pts[q][0], dy = pts[q + 1][1] - pts[q][1];
                    int len = (int)sqrtf(dx * dx + dy * dy);
                    /* along the route, and up to 5 px either side of it */
                    for (int a = 0; a <= len && !seen; a++)
                        for (int o = -5; o <= 5 && !seen; o++) {
                            float f = (float)a / (len ? len : 1), nx = len ? -dy / len : 0,
                                  ny = len ? dx / len : 0;
                            seen = near_colour(pixel(frame, (int)lroundf(pts[q][0] + dx * f + nx * o),
                                                     (int)lroundf(pts[q][1] + dy * f + ny * o)),
                                               want);
                        }
                }
                TR_CHECK(seen, "link %d -> %d, shared by channels %#x: channel %d's colour "
                         "(%d,%d,%d) nowhere on it", s, d, m, t, want.r, want.g, want.b);
            }
        }
    TR_CHECK(shared > 0, "no link shared by two channels: nothing checked");
    SDL_FreeSurface(frame);
    gui_destroy(g);
}

static int shared_name(int i, char *name, size_t len)
{
    if (i > 0)
        return 0;
    snprintf(name, len, "8-ranks-2-nodes");
    return 1;
}

static const test_case cases[] = {
    CASE_EACH("double-tree", dtree_name, dtree_case),
    CASE_EACH("rounds", rounds_name, rounds_case),
    CASE_EACH("multi-ring-shared-links", shared_name, check_shared_links),
};

int main(int argc, char **argv)
{
    cases_args(argc, argv, cases, CASES_COUNT(cases));
    tr_require_fonts();
    cases_run();
    return cases_end();
}

/*
 * test_render_golden.c: fixed frames compared with the PNGs in
 * tests/golden/, on the software renderer (SDL_VIDEODRIVER=dummy).
 *
 * A frame passes when at most 0.3% of its pixels differ by more than 40 in
 * some channel: room for anti-aliasing differences between FreeType
 * builds, none for a moved card, a lost label or a wrong colour.  On
 * failure the frame is written as build/golden/NAME.actual.png (tr_golden).
 *
 * Regenerate after an intended change of the picture:
 *   COLLVIZ_UPDATE_GOLDEN=1 ctest -R test_render_golden
 * then look at every changed PNG before committing it.
 */
#include "test_render_util.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *name;
    cv_op op;
    cv_algo algo;
    int ranks;
    int64_t count;
    double t;
    rd_theme_id theme;
    cv_lang lang;
    cv_algo compare; /* CV_ALGO_COUNT = none */
    int hover_x, hover_y; /* -1 = none */
    bool help;
    int w, h;             /* 0: 1024 x 640 */
    int nodes;            /* 0: one node */
    cv_proto proto;       /* 0: Simple */
} golden_case;

static const golden_case cases[] = {
    {"allreduce_ring_start", CV_OP_ALLREDUCE, CV_ALGO_RING, 4, 8, 0, RD_THEME_DARK, CV_LANG_EN,
     CV_ALGO_COUNT, -1, -1, false, 0, 0, 0, CV_PROTO_SIMPLE},
    {"allreduce_ring_flight", CV_OP_ALLREDUCE, CV_ALGO_RING, 4, 8, 1.4, RD_THEME_DARK, CV_LANG_EN,
     CV_ALGO_COUNT, -1, -1, false, 0, 0, 0, CV_PROTO_SIMPLE},
    {"allreduce_ring_flash_light", CV_OP_ALLREDUCE, CV_ALGO_RING, 4, 8, 2.9, RD_THEME_LIGHT,
     CV_LANG_EN, CV_ALGO_COUNT, -1, -1, false, 0, 0, 0, CV_PROTO_SIMPLE},
    {"allgather_ring_end_projector", CV_OP_ALLGATHER, CV_ALGO_RING, 4, 2, 3, RD_THEME_PROJECTOR,
     CV_LANG_EN, CV_ALGO_COUNT, -1, -1, false, 0, 0, 0, CV_PROTO_SIMPLE},
    {"broadcast_tree_zh", CV_OP_BROADCAST, CV_ALGO_TREE, 8, 8, 1.5, RD_THEME_DARK, CV_LANG_ZH,
     CV_ALGO_COUNT, -1, -1, false, 0, 0, 0, CV_PROTO_SIMPLE},
    {"compare_ring_tree", CV_OP_ALLREDUCE, CV_ALGO_RING, 8, 16, 3, RD_THEME_DARK, CV_LANG_EN,
     CV_ALGO_TREE, -1, -1, false, 0, 0, 0, CV_PROTO_SIMPLE},
    {"alltoall_64_grid", CV_OP_ALLTOALL, CV_ALGO_PAIRWISE, 64, 2, 10.5, RD_THEME_DARK,
     CV_LANG_EN, CV_ALGO_COUNT, -1, -1, false, 0, 0, 0, CV_PROTO_SIMPLE},
    {"hover_and_help", CV_OP_REDUCESCATTER, CV_ALGO_RING, 4, 2, 2, RD_THEME_DARK, CV_LANG_ZH,
     CV_ALGO_COUNT, 400, 300, true, 0, 0, 0, CV_PROTO_SIMPLE},
    /* in-network reduction: the switch is a card of its own, in the middle */
    {"allreduce_in_network", CV_OP_ALLREDUCE, CV_ALGO_IN_NETWORK, 8, 8, 0.5, RD_THEME_DARK,
     CV_LANG_EN, CV_ALGO_COUNT, -1, -1, false, 0, 0, 0, CV_PROTO_SIMPLE},
    /* the tooltip of a cell step 2 wrote: its round and NCCL's primitives */
    {"allreduce_ring_tooltip", CV_OP_ALLREDUCE, CV_ALGO_RING, 4, 8, 2, RD_THEME_DARK, CV_LANG_EN,
     CV_ALGO_COUNT, 695, 338, false, 0, 0, 0, CV_PROTO_SIMPLE},
    /* A classroom: the projector at 1024x768, 8 ranks, a step landing
     * (its arithmetic shown); every value legible, nothing cut off. */
    {"projector_1024x768_landing", CV_OP_ALLREDUCE, CV_ALGO_RING, 8, 8, 4.8, RD_THEME_PROJECTOR,
     CV_LANG_EN, CV_ALGO_COUNT, -1, -1, false, 1024, 768, 0, CV_PROTO_SIMPLE},
    /* 16 ranks folded into a racetrack at 1920x1080: every sum legible. */
    {"ring16_1920x1080_end", CV_OP_ALLREDUCE, CV_ALGO_RING, 16, 16, 30, RD_THEME_DARK, CV_LANG_EN,
     CV_ALGO_COUNT, -1, -1, false, 1920, 1080, 0, CV_PROTO_SIMPLE},
    /* Compare mode on one model-time axis: rabenseifner ends first. */
    {"compare_model_axis", CV_OP_ALLREDUCE, CV_ALGO_RING, 8, 8, 5.5, RD_THEME_DARK, CV_LANG_EN,
     CV_ALGO_RABENSEIFNER, -1, -1, false, 1280, 800, 0, CV_PROTO_SIMPLE},
    /* 64 ranks: the lens shows one card large enough to read. */
    {"lens_64_ranks", CV_OP_ALLREDUCE, CV_ALGO_RING, 64, 64, 126, RD_THEME_DARK, CV_LANG_EN,
     CV_ALGO_COUNT, -1, -1, false, 1280, 800, 0, CV_PROTO_SIMPLE},
    /* Two nodes: a shaded band per node, the hops between them dashed,
     * "2 nodes x 8" and the two-level model (nvlink4 + ib-ndr) in the
     * header, mid-flight across the network. */
    {"ring16_two_nodes", CV_OP_ALLREDUCE, CV_ALGO_RING, 16, 16, 7.5, RD_THEME_DARK, CV_LANG_EN,
     CV_ALGO_COUNT, -1, -1, false, 1280, 800, 2, CV_PROTO_SIMPLE},
    /* NVLS-Tree: a switch a node, in the middle of its row, the heads'
     * partial sums crossing between the nodes up the two trees */
    {"allreduce_nvls_tree_up", CV_OP_ALLREDUCE, CV_ALGO_NVLS_TREE, 8, 8, 4.5, RD_THEME_DARK,
     CV_LANG_EN, CV_ALGO_COUNT, -1, -1, false, 1280, 800, 2, CV_PROTO_SIMPLE},
    /* CollNet Direct: the network's switch in a row of its own below the
     * nodes, the heads' sums flying down to it */
    {"allreduce_collnet_direct", CV_OP_ALLREDUCE, CV_ALGO_COLLNET_DIRECT, 8, 8, 2.5,
     RD_THEME_LIGHT, CV_LANG_ZH, CV_ALGO_COUNT, -1, -1, false, 1280, 800, 2, CV_PROTO_SIMPLE},
    /* The double binary tree drawn as two trees above the cards, the
     * step's edges lit in their tree's colour, mid-flight up the trees */
    {"allreduce_double_tree_8", CV_OP_ALLREDUCE, CV_ALGO_DOUBLE_TREE, 8, 8, 2.5, RD_THEME_DARK,
     CV_LANG_EN, CV_ALGO_COUNT, -1, -1, false, 1920, 1080, 0, CV_PROTO_SIMPLE},
    {"allreduce_double_tree_16_projector", CV_OP_ALLREDUCE, CV_ALGO_DOUBLE_TREE, 16, 16, 2.5,
     RD_THEME_PROJECTOR, CV_LANG_EN, CV_ALGO_COUNT, -1, -1, false, 1024, 768, 0, CV_PROTO_SIMPLE},
    /* The hypercube's round above the cards: "round 2 of 3: partner =
     * r XOR 2" and its pairs; Bruck's and PAT's distance, the shift */
    {"allreduce_recursive_doubling_8", CV_OP_ALLREDUCE, CV_ALGO_RECURSIVE_DOUBLING, 8, 8, 2.4,
     RD_THEME_DARK, CV_LANG_EN, CV_ALGO_COUNT, -1, -1, false, 1920, 1080, 0, CV_PROTO_SIMPLE},
    {"allreduce_recursive_doubling_16_projector", CV_OP_ALLREDUCE, CV_ALGO_RECURSIVE_DOUBLING, 16,
     16, 4.4, RD_THEME_PROJECTOR, CV_LANG_EN, CV_ALGO_COUNT, -1, -1, false, 1024, 768, 0,
     CV_PROTO_SIMPLE},
    {"allgather_bruck_8", CV_OP_ALLGATHER, CV_ALGO_BRUCK, 8, 1, 1.4, RD_THEME_DARK, CV_LANG_EN,
     CV_ALGO_COUNT, -1, -1, false, 1920, 1080, 0, CV_PROTO_SIMPLE},
    {"reducescatter_pat_8_zh", CV_OP_REDUCESCATTER, CV_ALGO_PAT, 8, 1, 1.4, RD_THEME_LIGHT,
     CV_LANG_ZH, CV_ALGO_COUNT, -1, -1, false, 1920, 1080, 0, CV_PROTO_SIMPLE},
    /* LL: each chunk carries its flag ahead of it; the legend says so */
    {"allreduce_ring_ll_flight", CV_OP_ALLREDUCE, CV_ALGO_RING, 4, 8, 1.4, RD_THEME_DARK,
     CV_LANG_EN, CV_ALGO_COUNT, -1, -1, false, 1024, 640, 0, CV_PROTO_LL},
};

static int run_case(const golden_case *c)
{
    cv_spec spec = tr_spec(c->op, c->algo, c->ranks, c->count);
    spec.nodes = c->nodes;
    spec.proto = c->proto;
    gui *g = tr_gui(&spec, c->w > 0 ? c->w : 1024, c->h > 0 ? c->h : 640, c->theme, c->lang);
    if (c->compare != CV_ALGO_COUNT)
        gui_set_compare(g, true, c->compare);
    if (!gui_trace(g, 0)) {
        fprintf(stderr, "%s: no trace: %s\n", c->name, gui_current_message(g));
        gui_destroy(g);
        return 1;
    }
    gui_seek(g, c->t);
    g->mouse_x = c->hover_x;
    g->mouse_y = c->hover_y;
    if (c->help) {
        /* The hover tooltip first, then the help on top, in two frames. */
        g->help = false;
    }
    SDL_Surface *frame = tr_capture(g);
    if (c->help) {
        SDL_FreeSurface(frame);
        g->help = true;
        g->mouse_x = g->mouse_y = -1;
        frame = tr_capture(g);
    }
    int fail = tr_golden(frame, c->name);
    SDL_FreeSurface(frame);
    gui_destroy(g);
    return fail;
}

/* One case a golden frame, named by its image (allreduce_ring_flight). */
static int golden_name(int i, char *name, size_t len)
{
    if (i >= (int)(sizeof cases / sizeof *cases))
        return 0;
    snprintf(name, len, "%s", cases[i].name);
    return 1;
}

static void golden(int i)
{
    checks++;
    if (run_case(&cases[i]))
        failures++;
}

static const test_case suite[] = {
    CASE_EACH("", golden_name, golden),
};

int main(int argc, char **argv)
{
    cases_args(argc, argv, suite, CASES_COUNT(suite));
    tr_require_fonts();
    cases_run();
    SDL_Quit();
    return cases_end();
}

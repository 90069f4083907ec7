/*
 * test_render_hover.c: the numbers a learner reads off the stage when the
 * cells are too small to hold them, and the labels of what flies. Hovering
 * a cell at 64 ranks (where a cell stands for several elements) gives its
 * values, whole numbers written in full as the cells write them (12000,
 * never 1.2e+04), and "from ranks" lists rank numbers, not chunk labels; at
 * 32 ranks, where cells are bare bars of one element, the legend says to
 * hover as it does at 64. An AllGather sums nothing, so no label on its
 * stage carries the + that means summed (Bruck's flying blocks read
 * "a0…b1", the legend explains that notation), and the Chinese legend is a
 * whole sentence. Frames are drawn headless and read back through the text
 * boxes the renderer records (rd_debug_boxes).
 */
#include "test_render_util.h"

#include <string.h>

#include "check.h"

/* The texts drawn in layer (-1: any) of the last frame, joined by '|'. */
static void drawn(gui *g, int layer, char *out, size_t outlen)
{
    const rd_box *bx;
    int nb = rd_boxes(gui_rd(g), &bx);
    size_t len = 0;
    out[0] = '\0';
    for (int i = 0; i < nb && len + 2 < outlen; i++)
        if (bx[i].kind == 0 && (layer < 0 || bx[i].layer == layer))
            len += (size_t)snprintf(out + len, outlen - len, "%s|", bx[i].text);
}

/* The line of the tooltip that starts with head ("values"), or NULL. */
static const char *line_of(const char *all, const char *head, char *out, size_t outlen)
{
    for (const char *p = all; p && *p;) {
        const char *e = strchr(p, '|');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (strncmp(p, head, strlen(head)) == 0) {
            snprintf(out, outlen, "%.*s", (int)n, p);
            return out;
        }
        p = e ? e + 1 : NULL;
    }
    return NULL;
}

/* Hover the first cell of rank r's buffer b at time t: the tooltip's
 * texts. Returns the cell's element count (0: no cell there). */
static int64_t hover(gui *g, double t, int r, cv_buf b, char *tip, size_t tiplen)
{
    g->t = t;
    gui_render(g);
    const rd_layout *L = rd_last_layout(gui_rd(g));
    const rd_card_layout *cl = &L->panels[0].cards[r];
    tip[0] = '\0';
    if (cl->cells[b] <= 0)
        return 0;
    SDL_Rect c0 = rd_cell_rect(cl, b, 0);
    tr_motion(g, c0.x + c0.w / 2, c0.y + c0.h / 2);
    rd_debug_boxes(gui_rd(g), true);
    gui_render(g);
    drawn(g, 1, tip, tiplen);
    rd_debug_boxes(gui_rd(g), false);
    rd_hit h = rd_hit_test(rd_last_layout(gui_rd(g)), c0.x + c0.w / 2, c0.y + c0.h / 2);
    return h.kind == RD_HIT_CELL ? h.count : 0;
}

static void check_hover(int ranks, int w, int h)
{
    cv_spec s = tr_spec(CV_OP_ALLREDUCE, CV_ALGO_RING, ranks, ranks);
    gui *g = tr_gui(&s, w, h, RD_THEME_DARK, CV_LANG_EN);
    char tip[4096], line[256];
    const cv_plan *plan = g->panels[0].plan;
    int64_t count = 0;
    /* A small card's send row at the start, and its recv row at the end
     * (sums past 10000). */
    for (int k = 0; k < 2; k++) {
        double t = k ? plan->nsteps : 0;
        cv_buf b = k ? CV_BUF_RECV : CV_BUF_SEND;
        int64_t n = hover(g, t, 5, b, tip, sizeof tip);
        count = n > count ? n : count;
        EXPECT(n > 0, "%d ranks %dx%d: no cell under the pointer", ranks, w, h);
        const char *v = line_of(tip, n == 1 ? "value " : "values ", line, sizeof line);
        EXPECT(v != NULL, "%d ranks %dx%d, a cell of %lld elements: no values in the tooltip '%s'",
               ranks, w, h, (long long)n, tip);
        if (v) {
            EXPECT(strstr(v, "e+") == NULL && strchr(v, '.') == NULL,
                   "%d ranks: whole numbers written in full: '%s'", ranks, v);
            int numbers = 0;
            for (const char *p = v; *p; p++)
                numbers += *p >= '0' && *p <= '9' && (p == v || p[-1] == ' ');
            EXPECT(numbers >= (n < 4 ? n : 4), "%d ranks: %d values for a cell of %lld: '%s'",
                   ranks, numbers, (long long)n, v);
            int run = 0, longest = 0; /* the sums at the end pass 10000: written in full */
            for (const char *p = v; *p; p++) {
                run = *p >= '0' && *p <= '9' ? run + 1 : 0;
                longest = run > longest ? run : longest;
            }
            if (k == 1)
                EXPECT(longest >= 5, "%d ranks, the sums in full: '%s'", ranks, v);
        }
        const char *from = line_of(tip, "from ranks:", line, sizeof line);
        EXPECT(from != NULL, "%d ranks: no 'from ranks' line in '%s'", ranks, tip);
        if (from) {
            bool letters = false;
            for (const char *p = from + strlen("from ranks:"); *p; p++)
                letters |= (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || *p == '#';
            EXPECT(!letters, "%d ranks: 'from ranks' lists chunk labels: '%s'", ranks, from);
            EXPECT(k == 0 ? strcmp(from, "from ranks: 5") == 0 : strstr(from, "0-") != NULL,
                   "%d ranks: '%s'", ranks, from);
        }
    }
    /* Bare bars: the legend says what a cell is and that hover reads it. */
    g->t = 0;
    rd_debug_boxes(gui_rd(g), true);
    gui_render(g);
    drawn(g, -1, tip, sizeof tip);
    rd_debug_boxes(gui_rd(g), false);
    const rd_layout *L = rd_last_layout(gui_rd(g));
    bool stripes = false;
    for (int r = 0; r < L->panels[0].nranks; r++)
        stripes |= L->panels[0].cards[r].mode[CV_BUF_SEND] == RD_ROW_STRIPES;
    if (stripes)
        EXPECT(strstr(tip, "(hover for values)") != NULL,
               "%d ranks %dx%d: bars without a legend: '%s'", ranks, w, h, tip);
    /* Past 52 ranks chunks are numbered (#63:0+63): where the legend has
     * room, it says how to read that. */
    if (ranks > 52 && w >= 1920)
        EXPECT(strstr(tip, "#52:0 = chunk 52") != NULL,
               "%d ranks %dx%d: numbered chunks unexplained", ranks, w, h);
    gui_destroy(g);
}

/* No text on an AllGather's stage says + (summed), in flight or landed. */
static void check_gather_labels(cv_algo algo, int ranks, const char *want)
{
    cv_spec s = tr_spec(CV_OP_ALLGATHER, algo, ranks, 1);
    gui *g = tr_gui(&s, 1280, 800, RD_THEME_DARK, CV_LANG_EN);
    const cv_plan *plan = g->panels[0].plan;
    char all[8192];
    bool found = want == NULL;
    rd_debug_boxes(gui_rd(g), true);
    for (int k = 0; k < plan->nsteps; k++)
        for (int half = 0; half < 2; half++) {
            g->t = k + (half ? 0.9 : 0.3);
            gui_render(g);
            drawn(g, -1, all, sizeof all);
            const char *plus = strchr(all, '+');
            EXPECT(plus == NULL, "allgather %s %d ranks at t %.1f: a + in '%.80s'",
                   cv_algo_name(algo), ranks, g->t,
                   plus ? (plus - 20 > all ? plus - 20 : all) : "");
            found |= want && strstr(all, want) != NULL;
        }
    rd_debug_boxes(gui_rd(g), false);
    EXPECT(found, "allgather %s %d ranks: no label '%s'", cv_algo_name(algo), ranks,
           want ? want : "");
    gui_destroy(g);
}

int main(void)
{
    tr_require_fonts();
    check_hover(64, 1280, 800);
    check_hover(64, 1920, 1080);
    check_hover(32, 1920, 1080);
    check_hover(32, 1280, 800);

    check_gather_labels(CV_ALGO_BRUCK, 5,
                        "|a0\xE2\x80\xA6"
                        "b1");
    check_gather_labels(CV_ALGO_BRUCK, 8, NULL);
    check_gather_labels(CV_ALGO_RING, 5, NULL);
    check_gather_labels(CV_ALGO_RECURSIVE_DOUBLING, 8, NULL);
    check_gather_labels(CV_ALGO_DIRECT, 4, NULL);

    /* The legend's sentences are whole in both languages; an op that sums
     * nothing explains its own labels. */
    for (int lang = 0; lang < CV_LANG_COUNT; lang++) {
        const char *chunk = rd_str((cv_lang)lang, RD_S_LEGEND_CHUNK);
        size_t n = strlen(chunk);
        EXPECT(n > 3 && strcmp(chunk + n - 3, "\xE7\x9A\x84") != 0, "legend ends dangling: '%s'",
               chunk);
        EXPECT(strstr(rd_str((cv_lang)lang, RD_S_LEGEND_GATHERED), "\xE2\x80\xA6") != NULL,
               "gathered legend without its range: '%s'",
               rd_str((cv_lang)lang, RD_S_LEGEND_GATHERED));
    }
    /* Bruck's words say what its plan does: blocks kept at their places,
     * no local rotation at the end (its last step sends). */
    cv_spec b = tr_spec(CV_OP_ALLGATHER, CV_ALGO_BRUCK, 5, 1);
    cv_plan *plan = NULL;
    char err[CV_ERR_LEN];
    EXPECT(cv_plan_create(&b, &plan, err, sizeof err) == CV_OK, "%s", err);
    if (plan) {
        EXPECT(!plan->steps[plan->nsteps - 1].local, "bruck's plan ends locally");
        const char *words = cv_algo_narration(CV_OP_ALLGATHER, CV_ALGO_BRUCK, CV_LANG_EN);
        EXPECT(strstr(words, "then a local rotation") == NULL, "bruck allgather: '%s'", words);
        EXPECT(strstr(words, "no final rotation") != NULL, "bruck allgather: '%s'", words);
        cv_plan_destroy(plan);
    }
    printf("test_render_hover: %d checks, %d failures\n", checks, failures);
    return failures != 0;
}

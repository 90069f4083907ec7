/*
 * test_gui_compare.c: compare mode's end, as a learner reads it. Each lane
 * of the timeline is named by its algorithm, and once both sides are done
 * the narration's "Result" says which finished first, by how much and why.
 * The expected times are worked out here from the textbook's alpha-beta
 * formulas (ring AllReduce: 2(N-1) alpha + 2(N-1)/N D/B; binomial tree
 * reduce then broadcast: 2 log2 N alpha + 2 log2 N D/B), not from the
 * model the window calls, and checked against the words drawn. A stage
 * large enough to take a while is made behind a notice saying so.
 */
#include "test_render_util.h"

#include <math.h>
#include <string.h>

#include "check.h"

/* The texts drawn in the last frame, joined by '|'. */
static void drawn(gui *g, char *out, size_t outlen)
{
    const rd_box *bx;
    int nb = rd_boxes(gui_rd(g), &bx);
    size_t len = 0;
    out[0] = '\0';
    for (int i = 0; i < nb && len + 2 < outlen; i++)
        if (bx[i].kind == 0)
            len += (size_t)snprintf(out + len, outlen - len, "%s|", bx[i].text);
}

/* Whether a text box saying s lies inside r. */
static bool drawn_in(gui *g, const char *s, SDL_Rect r)
{
    const rd_box *bx;
    int nb = rd_boxes(gui_rd(g), &bx);
    for (int i = 0; i < nb; i++)
        if (bx[i].kind == 0 && strcmp(bx[i].text, s) == 0 && bx[i].r.x >= r.x &&
            bx[i].r.x + bx[i].r.w <= r.x + r.w + 1 && bx[i].r.y >= r.y - 1 &&
            bx[i].r.y + bx[i].r.h <= r.y + r.h + 1)
            return true;
    return false;
}

typedef struct {
    const char *link;
    int ranks;
    int64_t count;
    cv_lang lang;
    const char *regime; /* the words that name the regime */
} verdict_case;

/* Ring against tree at the end: lanes named, the result's winner and
 * ratio as the formulas give them, the regime named. */
static void check_verdict(const verdict_case *vc, int w, int h)
{
    cv_spec spec = tr_spec(CV_OP_ALLREDUCE, CV_ALGO_RING, vc->ranks, vc->count);
    gui *g = tr_gui(&spec, w, h, RD_THEME_DARK, vc->lang);
    g->link = cv_link_find(vc->link);
    TR_CHECK(g->link != NULL, "link %s", vc->link);
    gui_set_compare(g, true, CV_ALGO_TREE);
    rd_debug_boxes(gui_rd(g), true);
    TR_CHECK(gui_compare(g), "compare mode is on: %s", gui_current_message(g));
    gui_seek(g, 1e9); /* the end */
    SDL_FreeSurface(tr_capture(g));
    char all[16384];
    drawn(g, all, sizeof all);

    SDL_Rect names = gui_rd(g) ? rd_last_layout(gui_rd(g))->lane_names : (SDL_Rect){0, 0, 0, 0};
    TR_CHECK(names.w > 0, "%dx%d: the timeline has a column of lane names", w, h);
    TR_CHECK(drawn_in(g, "ring", names) && drawn_in(g, "tree", names),
             "%dx%d: the lanes are named ring and tree", w, h);

    double n = vc->ranks, a = g->link->alpha, b = g->link->bw;
    double d = (double)vc->count * 4, lg = ceil(log2(n));
    double ring = 2 * (n - 1) * a + 2 * (n - 1) / n * d / b;
    double tree = 2 * lg * a + 2 * lg * d / b;
    const char *win = ring < tree ? "ring" : "tree";
    char head[64], ratio[32];
    snprintf(head, sizeof head, vc->lang == CV_LANG_ZH ? "%s 先完成" : "%s finished first", win);
    snprintf(ratio, sizeof ratio, vc->lang == CV_LANG_ZH ? "快 %.1f 倍" : "%.1f\xC3\x97 as fast",
             fmax(ring, tree) / fmin(ring, tree));
    const char *result = vc->lang == CV_LANG_ZH ? "|结果|" : "|Result|";
    TR_CHECK(strstr(all, result) != NULL, "%s %lld: the narration has a Result head", vc->link,
             (long long)vc->count);
    /* The sentence as the panel wraps it is split across lines: read the
     * text the panel was given, and that its first words were drawn. */
    const char *said = g->next_text;
    const char *line = strstr(all, result);
    size_t len = 0;
    if (line) {
        line += strlen(result);
        len = strcspn(line, "|");
    }
    TR_CHECK(line && len > 0 && strncmp(said, line, len) == 0,
             "%s: the line under Result is the result's first line", vc->link);
    TR_CHECK(strstr(said, head) != NULL, "%s %lld: says '%s' (ring %.3g s, tree %.3g s)", vc->link,
             (long long)vc->count, head, ring, tree);
    TR_CHECK(strstr(said, ratio) != NULL, "%s %lld: says '%s'", vc->link, (long long)vc->count,
             ratio);
    TR_CHECK(strstr(said, vc->regime) != NULL, "%s %lld: says '%s'", vc->link, (long long)vc->count,
             vc->regime);

    /* Halfway: no result yet, "Next" again. */
    gui_seek(g, g->ns / 2);
    SDL_FreeSurface(tr_capture(g));
    drawn(g, all, sizeof all);
    TR_CHECK(strstr(all, result) == NULL, "%s: no result before both sides are done", vc->link);
    gui_destroy(g);
}

static void latency_bound(void)
{
    verdict_case vc = {"nvlink4", 8, 64, CV_LANG_EN, "Latency-bound at this size"};
    check_verdict(&vc, 1920, 1080);
    check_verdict(&vc, 1024, 768);
}

static void bandwidth_bound(void)
{
    verdict_case vc = {"eth100", 8, 131072, CV_LANG_EN, "Bandwidth-bound at this size"};
    check_verdict(&vc, 1920, 1080);
}

/* ring's fewer bytes decide, but its 14 alphas are the larger share. */
static void between(void)
{
    verdict_case vc = {"eth100", 8, 65536, CV_LANG_EN, "Neither term dominates at this size"};
    check_verdict(&vc, 1920, 1080);
}

static void chinese(void)
{
    verdict_case vc = {"nvlink4", 4, 64, CV_LANG_ZH, "延迟主导"};
    check_verdict(&vc, 1920, 1080);
}

/* The notice a large stage is made behind: its words, in the middle, on
 * the theme's background. */
static void busy_notice(void)
{
    cv_spec spec = tr_spec(CV_OP_ALLREDUCE, CV_ALGO_RING, 4, 16);
    gui *g = tr_gui(&spec, 1024, 768, RD_THEME_PROJECTOR, CV_LANG_EN);
    rd_debug_boxes(gui_rd(g), true);
    const char *text = "Preparing the stage: allreduce ring, 8 ranks";
    rd_draw_notice(gui_rd(g), RD_THEME_PROJECTOR, text);
    const rd_box *bx;
    int nb = rd_boxes(gui_rd(g), &bx), at = -1;
    for (int i = 0; i < nb; i++)
        if (bx[i].kind == 0 && strcmp(bx[i].text, text) == 0)
            at = i;
    TR_CHECK(at >= 0, "the notice's words are drawn");
    if (at >= 0)
        TR_CHECK(bx[at].r.y < 384 && bx[at].r.y + bx[at].r.h > 384 && bx[at].r.x > 0 &&
                     bx[at].r.x + bx[at].r.w < 1024,
                 "the notice sits in the middle (%d,%d %dx%d)", bx[at].r.x, bx[at].r.y, bx[at].r.w,
                 bx[at].r.h);
    SDL_Surface *s = SDL_CreateRGBSurfaceWithFormat(0, 1024, 768, 32, SDL_PIXELFORMAT_ARGB8888);
    SDL_RenderReadPixels(g->ren, NULL, SDL_PIXELFORMAT_ARGB8888, s->pixels, s->pitch);
    Uint8 r, gg, b;
    SDL_GetRGB(((Uint32 *)s->pixels)[5 * 1024 + 5], s->format, &r, &gg, &b);
    SDL_Color bg = rd_theme_get(RD_THEME_PROJECTOR)->bg;
    TR_CHECK(r == bg.r && gg == bg.g && b == bg.b, "the corner is the theme's background");
    SDL_FreeSurface(s);
    gui_destroy(g);
}

static const test_case cases[] = {
    CASE("latency-bound", latency_bound),
    CASE("bandwidth-bound", bandwidth_bound),
    CASE("between", between),
    CASE("chinese", chinese),
    CASE("busy-notice", busy_notice),
};

int main(int argc, char **argv)
{
    tr_require_fonts();
    return CASES_MAIN(argc, argv, cases);
}

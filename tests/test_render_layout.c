/*
 * test_render_layout.c: nothing overlaps and nothing leaves the window,
 * from 800x600 to 3840x2160, 1 to 64 ranks, in both languages and in the
 * projector theme (1.5x text), and in compare mode (ring beside tree).
 *
 * The renderer records every text box and card it draws (rd_debug_boxes);
 * the checks are: every box lies inside the window; cards do not overlap;
 * stage texts (layer 0) do not overlap each other; a text inside a card
 * does not stick out of it.  Each frame is checked mid-flight and once
 * a step has landed, where the sums of a reduction are shown.  Overlays (help, tooltip) may cover the stage
 * but must stay inside the window.
 */
#include "test_render_util.h"

#include <string.h>

static bool inside(SDL_Rect in, SDL_Rect out)
{
    return in.x >= out.x && in.y >= out.y && in.x + in.w <= out.x + out.w &&
           in.y + in.h <= out.y + out.h;
}

static bool overlaps(SDL_Rect a, SDL_Rect b)
{
    /* One pixel of slack: anti-aliased glyph boxes touch at their edges. */
    return a.x + 1 < b.x + b.w && b.x + 1 < a.x + a.w && a.y + 1 < b.y + b.h && b.y + 1 < a.y + a.h;
}

static long total_boxes;

/* A card's title: "GPU 12", "12", or the switch's name. */
static bool names_rank(const char *s)
{
    if (!strncmp(s, "GPU ", 4))
        s += 4;
    else if (!strcmp(s, "switch") || !strcmp(s, "\xE4\xBA\xA4\xE6\x8D\xA2\xE6\x9C\xBA"))
        return true;
    if (!*s)
        return false;
    for (; *s && *s != ' '; s++)
        if (*s < '0' || *s > '9')
            return false;
    return true;
}

static int check_frame(gui *g, const char *what)
{
    int before = tr_failures;
    rd_ctx *rd = gui_rd(g);
    rd_debug_boxes(rd, true);
    gui_render(g);
    const rd_box *b;
    int n = rd_boxes(rd, &b);
    total_boxes += n;
    const rd_layout *L = rd_last_layout(rd);
    SDL_Rect win = {0, 0, L->w, L->h};
    for (int i = 0; i < n && tr_failures - before < 5; i++) {
        TR_CHECK(inside(b[i].r, win), "%s: box '%s' (%d,%d %dx%d) leaves the %dx%d window", what,
                 b[i].text, b[i].r.x, b[i].r.y, b[i].r.w, b[i].r.h, L->w, L->h);
        for (int j = i + 1; j < n; j++) {
            if (b[i].layer != 0 || b[j].layer != 0 || b[i].kind != b[j].kind)
                continue;
            if (overlaps(b[i].r, b[j].r)) {
                TR_CHECK(false, "%s: '%s' (%d,%d %dx%d) overlaps '%s' (%d,%d %dx%d)", what, b[i].text,
                         b[i].r.x, b[i].r.y, b[i].r.w, b[i].r.h, b[j].text, b[j].r.x, b[j].r.y,
                         b[j].r.w, b[j].r.h);
                break;
            }
        }
        if (b[i].kind == 0 && b[i].layer == 0)
            for (int j = 0; j < n; j++)
                if (b[j].kind == 1 && overlaps(b[i].r, b[j].r) && !inside(b[i].r, b[j].r)) {
                    TR_CHECK(false, "%s: text '%s' (%d,%d %dx%d) sticks out of a card (%d,%d %dx%d)",
                             what, b[i].text, b[i].r.x, b[i].r.y, b[i].r.w, b[i].r.h, b[j].r.x,
                             b[j].r.y, b[j].r.w, b[j].r.h);
                    break;
                }
    }
    /* Every card says which GPU it is: "GPU 3", or its number alone. */
    for (int i = 0; i < n && tr_failures - before < 5; i++) {
        if (b[i].kind != 1 || b[i].layer != 0)
            continue;
        bool named = false;
        for (int j = 0; j < n && !named; j++)
            if (b[j].kind == 0 && inside(b[j].r, b[i].r))
                named = names_rank(b[j].text);
        TR_CHECK(named, "%s: the card at (%d,%d %dx%d) shows no rank", what, b[i].r.x, b[i].r.y,
                 b[i].r.w, b[i].r.h);
    }
    /* Nothing a learner reads is cut short with an ellipsis from 1024x768
     * up: the header, captions, hints and the stage drop words instead. */
    if (L->w >= 1024 && L->h >= 768)
        for (int i = 0; i < n && tr_failures - before < 5; i++)
            TR_CHECK(!b[i].cut || b[i].layer != 0, "%s: '%s' is cut short", what, b[i].text);
    /* The layout itself, before any drawing: the narration's lines inside
     * the panel, the buttons inside the window and apart. */
    for (int i = 0; i < L->nlines && tr_failures - before < 5; i++)
        TR_CHECK(inside(L->lines[i].box, L->narration), "%s: narration line '%s' (%d,%d %dx%d) "
                 "leaves the panel", what, L->lines[i].text, L->lines[i].box.x, L->lines[i].box.y,
                 L->lines[i].box.w, L->lines[i].box.h);
    for (int i = 1; i < RD_ACT_COUNT_; i++) {
        if (L->button[i].w <= 0)
            continue;
        TR_CHECK(inside(L->button[i], win), "%s: button %d leaves the window", what, i);
        for (int j = i + 1; j < RD_ACT_COUNT_; j++)
            TR_CHECK(L->button[j].w <= 0 || !overlaps(L->button[i], L->button[j]),
                     "%s: buttons %d and %d overlap", what, i, j);
    }
    rd_debug_boxes(rd, false);
    /* "Just happened" and "Next" are shown whole, or the text scrolls to
     * them: the last line of Next is drawn at the scroll's end. */
    if (g->next_text[0] && !g->hide_next && L->narration.w > 0 && L->w >= 1024 && L->h >= 768) {
        int saved = g->narr_scroll;
        g->narr_scroll = 1 << 20;
        gui_render(g);
        L = rd_last_layout(rd);
        int heads = 0;
        const char *last = NULL;
        for (int i = 0; i < L->nlines; i++) {
            heads += L->lines[i].role == RD_LINE_HEAD;
            if (L->lines[i].role == RD_LINE_STEP && L->lines[i].text[0])
                last = L->lines[i].text;
        }
        size_t nt = strlen(g->next_text), nl = last ? strlen(last) : 0;
        while (nt > 0 && g->next_text[nt - 1] == ' ')
            nt--;
        TR_CHECK(heads >= 1 && last && nl <= nt &&
                     !strncmp(g->next_text + nt - nl, last, nl),
                 "%s: the narration's Next block is cut off (%d headings, last line '%s')", what,
                 heads, last ? last : "");
        g->narr_scroll = saved;
    }
    return tr_failures - before;
}

typedef struct {
    cv_op op;
    cv_algo algo;
    int64_t count;
    bool compare;
} setup;

static const int sizes[][2] = {{800, 600},   {1024, 768},  {1280, 800},
                               {1920, 1080}, {3840, 2160}, {1024, 1400}};
static const int ranks[] = {1, 2, 3, 4, 5, 8, 16, 17, 32, 64};
static const setup setups[] = {
    {CV_OP_ALLREDUCE, CV_ALGO_RING, 8, false},
    {CV_OP_BROADCAST, CV_ALGO_TREE, 8, false},
    {CV_OP_ALLTOALL, CV_ALGO_PAIRWISE, 2, false},
    {CV_OP_ALLREDUCE, CV_ALGO_RING, 8, true}, /* compare: ring beside tree */
    /* the structure drawn above the cards: a double tree's two trees, a
     * hypercube's round and its pairs */
    {CV_OP_ALLREDUCE, CV_ALGO_DOUBLE_TREE, 8, false},
    {CV_OP_ALLGATHER, CV_ALGO_BRUCK, 2, false},
};
#define NSETUPS ((int)(sizeof setups / sizeof *setups))
#define NRANKS ((int)(sizeof ranks / sizeof *ranks))

/* The i-th (setup, rank count) the stage accepts. */
static bool setup_at(int i, int *si, int *ri)
{
    for (*si = 0; *si < NSETUPS; (*si)++)
        for (*ri = 0; *ri < NRANKS; (*ri)++) {
            cv_spec spec = tr_spec(setups[*si].op, setups[*si].algo, ranks[*ri], setups[*si].count);
            char err[256];
            if (cv_spec_check(&spec, CV_MAX_VISUAL_RANKS, err, sizeof err) == CV_OK && i-- == 0)
                return true;
        }
    return false;
}

/* "allreduce/ring/8-ranks", "allreduce/ring-vs-tree/1-rank". */
static int setup_name(int i, char *name, size_t len)
{
    int si, ri;
    if (!setup_at(i, &si, &ri))
        return 0;
    snprintf(name, len, "%s/%s%s/%d-rank%s", cv_op_name(setups[si].op),
             cv_algo_name(setups[si].algo), setups[si].compare ? "-vs-tree" : "", ranks[ri],
             ranks[ri] == 1 ? "" : "s");
    return 1;
}

/* One setup at one rank count: every size, language and theme. */
static void check_setup(int i)
{
    int si, ri;
    if (!setup_at(i, &si, &ri))
        return;
    const setup *su = &setups[si];
    long boxes_before = total_boxes;
    int frames = 0;
    cv_spec spec = tr_spec(su->op, su->algo, ranks[ri], su->count);
    char err[256];
    gui *g = tr_gui(&spec, sizes[0][0], sizes[0][1], RD_THEME_DARK, CV_LANG_EN);
    if (su->compare && spec.ranks > 1)
        gui_set_compare(g, true, CV_ALGO_TREE);
    if (!gui_trace(g, 0)) {
        /* Too big to record is allowed; the message must still fit. */
        check_frame(g, "no trace");
        gui_destroy(g);
        return;
    }
    for (size_t zi = 0; zi < sizeof sizes / sizeof *sizes; zi++) {
        /* A new surface for each size: resize the headless target. */
        SDL_Surface *surf = SDL_CreateRGBSurfaceWithFormat(0, sizes[zi][0], sizes[zi][1], 32,
                                                           SDL_PIXELFORMAT_ARGB8888);
        SDL_Surface *old = g->surface;
        rd_destroy(g->rd);
        SDL_DestroyRenderer(g->ren);
        g->surface = surf;
        g->ren = SDL_CreateSoftwareRenderer(surf);
        rd_font_paths fp;
        rd_fonts_find(COLLVIZ_SOURCE_DIR "/assets", &fp, err, sizeof err);
        g->rd = rd_create(g->ren, &fp, err, sizeof err);
        SDL_FreeSurface(old);
        for (int lang = 0; lang < CV_LANG_COUNT; lang++)
            for (int theme = 0; theme < RD_THEME_COUNT; theme++) {
                gui_set_lang(g, (cv_lang)lang);
                gui_set_theme(g, (rd_theme_id)theme);
                char what[160];
                snprintf(what, sizeof what, "%s/%s%s %d ranks %dx%d %s %s",
                         cv_op_name(spec.op), cv_algo_name(spec.algo),
                         gui_compare(g) ? " vs tree" : "", spec.ranks,
                         sizes[zi][0], sizes[zi][1], lang ? "zh" : "en",
                         rd_theme_get((rd_theme_id)theme)->name);
                /* The light theme and the landed frames in
                 * English only: the sums are digits in any
                 * language, and the test's time stays bounded. */
                if (theme == RD_THEME_LIGHT && lang != CV_LANG_EN)
                    continue;
                gui_seek(g, gui_nsteps(g) > 1 ? 1.5 : 0.5);
                check_frame(g, what);
                frames++;
                if (theme != RD_THEME_LIGHT) {
                    g->help = true;
                    check_frame(g, what);
                    g->help = false;
                    frames++;
                }
                if (lang != CV_LANG_EN)
                    continue;
                /* A step that has landed: the sums it shows
                 * ("101 + 201 = 302") cover no value and no other
                 * label, on the light theme too. */
                size_t wl = strlen(what);
                snprintf(what + wl, sizeof what - wl, " landed");
                gui_seek(g, gui_nsteps(g) > 1 ? 1.8 : 0.8);
                check_frame(g, what);
                frames++;
            }
    }
    gui_destroy(g);
    TR_CHECK(total_boxes - boxes_before > frames * 20L,
             "too few boxes recorded: the check saw nothing (%d frames)", frames);
}

static const test_case cases[] = {
    CASE_EACH("", setup_name, check_setup),
};

int main(int argc, char **argv)
{
    cases_args(argc, argv, cases, CASES_COUNT(cases));
    tr_require_fonts();
    cases_run();
    printf("%ld boxes\n", total_boxes);
    SDL_Quit();
    return cases_end();
}

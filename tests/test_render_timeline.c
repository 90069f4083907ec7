/*
 * test_render_timeline.c: a lesson's step timeline. Which communication is
 * exposed (no compute, on any lane, runs beside it) and which is hidden,
 * piece by piece; blocks placed on the time axis at the x their start and
 * duration give; and a drawn lesson frame: the timeline takes a band under
 * the stage, its labels stay inside it, whole and apart, an exposed block
 * is drawn in the warning colour and a hidden one is not, and the cursor
 * the window sweeps over the step moves.
 */
#include "test_render_util.h"

#include <math.h>
#include <string.h>

static rd_steptl_block span(int lane, int kind, double start, double dur, const char *label)
{
    rd_steptl_block b = {.lane = lane, .kind = kind, .start = start, .dur = dur};
    snprintf(b.label, sizeof b.label, "%s", label);
    return b;
}

/* Two compute lanes (back to back), a bubble, and four comm blocks:
 * hidden, half exposed, exposed, and hidden only by the two compute
 * blocks together. */
static void example(rd_steptl *d)
{
    memset(d, 0, sizeof *d);
    snprintf(d->unit, sizeof d->unit, "ms");
    d->nlanes = 3;
    snprintf(d->lanes[0], sizeof d->lanes[0], "compute");
    snprintf(d->lanes[1], sizeof d->lanes[1], "comm");
    snprintf(d->lanes[2], sizeof d->lanes[2], "other");
    d->blocks[d->nblocks++] = span(0, RD_SPAN_COMPUTE, 0, 10, "fwd");
    d->blocks[d->nblocks++] = span(1, RD_SPAN_COMM, 4, 2, "hidden");
    d->blocks[d->nblocks++] = span(1, RD_SPAN_COMM, 8, 6, "tail");
    d->blocks[d->nblocks++] = span(0, RD_SPAN_BUBBLE, 14, 6, "");
    d->blocks[d->nblocks++] = span(1, RD_SPAN_COMM, 20, 4, "late");
    d->blocks[d->nblocks++] = span(2, RD_SPAN_COMPUTE, 10, 2, "more");
    d->blocks[d->nblocks++] = span(2, RD_SPAN_COMM, 0, 0.5, "");
}

static void exposure(void)
{
    rd_steptl d;
    example(&d);
    double seg[4][2];
    int n = -1;
    EXPECT(rd_steptl_exposed(&d, 0, seg, 4, &n) == 0 && n == 0, "compute is never exposed");
    EXPECT(rd_steptl_exposed(&d, 1, seg, 4, &n) == 0 && n == 0, "under compute: hidden");
    /* 8..14 beside compute 0..10 and 10..12 on another lane: 12..14 */
    double e = rd_steptl_exposed(&d, 2, seg, 4, &n);
    EXPECT(fabs(e - 2) < 1e-12 && n == 1 && seg[0][0] == 12 && seg[0][1] == 14,
           "the tail: %g exposed in %d pieces, from %g", e, n, n ? seg[0][0] : -1);
    /* a bubble hides nothing */
    e = rd_steptl_exposed(&d, 4, seg, 4, &n);
    EXPECT(e == 4 && n == 1 && seg[0][0] == 20 && seg[0][1] == 24, "late: %g", e);
    EXPECT(rd_steptl_exposed(&d, 3, NULL, 0, NULL) == 0, "a bubble is not communication");
    EXPECT(rd_steptl_exposed(&d, 6, NULL, 0, NULL) == 0, "comm on any lane hides under compute");
    /* two pieces: a comm block round a short compute block */
    rd_steptl two;
    memset(&two, 0, sizeof two);
    two.nlanes = 2;
    two.blocks[two.nblocks++] = span(0, RD_SPAN_COMPUTE, 2, 1, "");
    two.blocks[two.nblocks++] = span(1, RD_SPAN_COMM, 0, 5, "");
    e = rd_steptl_exposed(&two, 1, seg, 4, &n);
    EXPECT(e == 4 && n == 2 && seg[0][1] == 2 && seg[1][0] == 3, "%g in %d pieces", e, n);
}

static void placement(void)
{
    rd_steptl d;
    example(&d);
    rd_steptl_geom g;
    SDL_Rect area = {100, 50, 1000, 300};
    rd_steptl_place(&d, area, 120, 14, &g);
    EXPECT(g.t0 == 0 && g.t1 == 24, "the axis runs to the last block's end: %g", g.t1);
    EXPECT(g.plot.x > area.x + 120 && g.plot.x + g.plot.w <= area.x + area.w, "plot %d+%d",
           g.plot.x, g.plot.w);
    EXPECT(g.names.x == area.x && g.names.w == 120, "the names' column");
    for (int i = 0; i < d.nblocks; i++) {
        const rd_steptl_block *b = &d.blocks[i];
        double x0 = g.plot.x + b->start * g.plot.w / 24;
        double x1 = g.plot.x + (b->start + b->dur) * g.plot.w / 24;
        SDL_Rect r = g.block[i], ln = g.lane[b->lane];
        EXPECT(fabs(r.x - x0) <= 1 && fabs(r.x + r.w - x1) <= 1,
               "block %d at %d+%d, expected %g to %g", i, r.x, r.w, x0, x1);
        EXPECT(r.y >= ln.y && r.y + r.h <= ln.y + ln.h && r.h > 0, "block %d inside its lane", i);
        EXPECT(rd_steptl_x(&g, b->start) == r.x, "rd_steptl_x agrees for block %d", i);
    }
    EXPECT(g.lane[1].y >= g.lane[0].y + g.lane[0].h, "lanes one under another");
    EXPECT(g.axis.y >= g.plot.y + g.plot.h && g.legend.y >= g.axis.y + g.axis.h &&
               g.legend.y + g.legend.h <= area.y + area.h,
           "axis, then legend, inside the area");
    EXPECT(g.nticks >= 3 && g.tick[0] == 0 && g.tick[g.nticks - 1] <= 24, "%d ticks", g.nticks);
    for (int k = 1; k < g.nticks; k++)
        EXPECT(g.tick[k] > g.tick[k - 1], "ticks ascend");
}

static const rd_box *find_box(const rd_box *boxes, int n, const char *text)
{
    for (int i = 0; i < n; i++)
        if (boxes[i].kind == 0 && strcmp(boxes[i].text, text) == 0)
            return &boxes[i];
    return NULL;
}

static int red_lead(SDL_Surface *s, int x, int y)
{
    Uint32 px = ((Uint32 *)s->pixels)[y * (s->pitch / 4) + x];
    Uint8 r, g, b;
    SDL_GetRGB(px, s->format, &r, &g, &b);
    return (int)r - (int)g;
}

static void frame(void)
{
    tr_require_fonts();
    cv_spec spec = tr_spec(CV_OP_ALLREDUCE, CV_ALGO_RING, 4, 8);
    gui *g = tr_gui(&spec, 1280, 800, RD_THEME_DARK, CV_LANG_EN);
    gui_set_lesson_mode(g, true);
    rd_steptl d;
    example(&d);
    gui_set_step_timeline(g, &d);
    rd_debug_boxes(g->rd, true);
    gui_render(g);
    const rd_layout *L = rd_last_layout(g->rd);
    SDL_Rect band = L->steptl;
    EXPECT(band.w > 0 && band.h > 0, "a lesson frame gives the timeline a band");
    EXPECT(band.y >= L->stage.y + L->stage.h && band.w >= L->stage.w, "under the stage, as wide");
    const rd_box *boxes;
    int n = rd_boxes(g->rd, &boxes);
    const char *want[] = {"compute", "comm",         "other",         "fwd",
                          "hidden",  "tail",         "late",          "20 ms",
                          "compute", "comm, hidden", "comm, exposed", "idle (bubble)"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const rd_box *b = find_box(boxes, n, want[i]);
        EXPECT(b != NULL, "\"%s\" is drawn", want[i]);
        if (!b)
            continue;
        EXPECT(!b->cut, "\"%s\" is whole", want[i]);
        EXPECT(SDL_HasIntersection(&b->r, &band) && b->r.y >= band.y &&
                   b->r.y + b->r.h <= band.y + band.h,
               "\"%s\" inside the band", want[i]);
    }
    /* the fully exposed block against the hidden one, just left of their
     * labels (and the plates under them), where only the block's fill and
     * hatching are */
    SDL_Surface *s = tr_capture(g);
    const rd_box *late = find_box(boxes, n, "late"), *hid = find_box(boxes, n, "hidden");
    if (s && late && hid) {
        SDL_Surface *c = SDL_ConvertSurfaceFormat(s, SDL_PIXELFORMAT_ARGB8888, 0);
        int lr = red_lead(c, late->r.x - 4, late->r.y + late->r.h / 2);
        int hr = red_lead(c, hid->r.x - 4, hid->r.y + hid->r.h / 2);
        EXPECT(lr > hr + 30, "exposed is drawn in the warning colour: red lead %d against %d", lr,
               hr);
        SDL_FreeSurface(c);
    }
    SDL_FreeSurface(s);
    /* the cursor: from the start, moving with the clock, then held at the end */
    EXPECT(gui__steptl_t(g) == 0 && gui__steptl_moving(g), "the sweep starts at 0");
    gui_tick(g, 3);
    double mid = gui__steptl_t(g);
    EXPECT(mid > 0.2 && mid < 0.8, "and moves: %g", mid);
    gui_tick(g, 30);
    EXPECT(gui__steptl_t(g) == 1 && !gui__steptl_moving(g), "and stops at the end");
    gui_set_step_timeline(g, &d);
    EXPECT(gui__steptl_t(g) == 1, "the same timeline again keeps its cursor");
    d.blocks[0].dur = 11;
    gui_set_step_timeline(g, &d);
    EXPECT(gui__steptl_t(g) == 0, "another one starts a new sweep");
    /* outside lesson mode it goes into the narration panel */
    gui_set_lesson_mode(g, false);
    gui_render(g);
    L = rd_last_layout(g->rd);
    EXPECT(L->steptl.w == 0 && L->narr_steptl.w > 0 &&
               SDL_HasIntersection(&L->narr_steptl, &L->narration),
           "in the narration panel");
    gui_set_step_timeline(g, NULL);
    gui_render(g);
    EXPECT(rd_last_layout(g->rd)->steptl.w == 0 && gui__steptl_t(g) < 0, "cleared");
    gui_destroy(g);
}

static const test_case cases[] = {
    CASE("exposure", exposure),
    CASE("placement", placement),
    CASE("frame", frame),
};

int main(int argc, char **argv) { return CASES_MAIN(argc, argv, cases); }

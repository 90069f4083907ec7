/*
 * test_gui_rebuild.c: events that arrive between a rebuild and the next
 * draw. A key that re-plans (N, A, O, C, D, R, M, B, Shift+A) frees the
 * trace the last frame was drawn from; a click, a drag, a wheel turn or a
 * hover handled before the next frame must be tested against the window
 * as it is now, never against the freed trace. Built with AddressSanitizer
 * (scripts/build.sh --sanitize) any such read stops the test; in a plain
 * build it checks that the hits land on the new setup.
 *
 * The first part replays the sequence of the report (Space, N, then a click
 * on the timeline before a frame is drawn); the second runs a fixed-seed
 * burst of random keys, clicks, drags, wheel turns and hovers, drawing
 * only now and then, as a fast user on a slow machine does (resizes need a
 * real window: scripts/soak.sh).
 */
#include "test_render_util.h"

#include <string.h>

/* The keys that rebuild the setup, and a few that only move the player. */
static const struct {
    SDL_Keycode k;
    Uint16 mod;
} keys[] = {
    {SDLK_n, 0}, {SDLK_n, KMOD_SHIFT}, {SDLK_a, 0}, {SDLK_a, KMOD_SHIFT}, {SDLK_o, 0},
    {SDLK_o, KMOD_SHIFT}, {SDLK_c, 0}, {SDLK_c, KMOD_SHIFT}, {SDLK_d, 0}, {SDLK_r, 0},
    {SDLK_m, 0}, {SDLK_b, 0}, {SDLK_SPACE, 0}, {SDLK_RIGHT, 0}, {SDLK_LEFT, 0},
    {SDLK_END, 0}, {SDLK_HOME, 0}, {SDLK_p, 0}, {SDLK_t, 0}, {SDLK_l, 0},
    {SDLK_h, 0}, {SDLK_ESCAPE, 0}, {SDLK_UP, 0}, {SDLK_DOWN, 0}, {SDLK_PLUS, 0},
};
#define NKEYS ((int)(sizeof keys / sizeof *keys))

/* Points worth hitting in a layout: the timeline, every card's rows, the
 * narration; taken from a frame that is no longer the window's. */
static int points(const rd_layout *L, SDL_Point *out, int max)
{
    int n = 0;
    if (L->timeline.w > 0 && n < max)
        out[n++] = (SDL_Point){L->timeline.x + L->timeline.w / 2, L->timeline.y + L->timeline.h / 2};
    for (int p = 0; p < L->npanels; p++)
        for (int r = 0; r < L->panels[p].nparts && r < 64; r++)
            for (int b = 0; b < CV_BUF_COUNT && n < max; b++) {
                SDL_Rect row = L->panels[p].cards[r].row[b];
                if (row.w > 0)
                    out[n++] = (SDL_Point){row.x + row.w - 2, row.y + 2};
            }
    if (L->narration.w > 0 && n < max)
        out[n++] = (SDL_Point){L->narration.x + 10, L->narration.y + 10};
    return n;
}

/* Cells clicked in the lesson hook read the trace the window has now. */
static int cells_seen;
static void on_cell(void *user, gui *g, const rd_hit *hit)
{
    const cv_trace *t = gui_trace(g, hit->panel);
    TR_CHECK(t != NULL, "a cell hit on panel %d, which has no trace", hit->panel);
    if (t) {
        const cv_plan *plan = cv_trace_plan(t);
        TR_CHECK(hit->rank >= 0 && hit->rank < plan->spec.ranks,
                 "a cell hit on rank %d of a %d-rank setup", hit->rank, plan->spec.ranks);
    }
    cells_seen++;
}

/* The report's sequence, then every rebuilding key followed by clicks,
 * wheel turns and hovers at the places of the frame drawn before it. */
static void check_sequence(void)
{
    cv_spec spec = tr_spec(CV_OP_ALLREDUCE, CV_ALGO_RING, 4, 8);
    gui *g = tr_gui(&spec, 1024, 768, RD_THEME_DARK, CV_LANG_EN);
    gui_render(g);
    tr_key(g, SDLK_SPACE, 0);
    gui_tick(g, 0.3);
    gui_render(g);
    static rd_layout old;
    old = *rd_last_layout(gui_rd(g));
    tr_key(g, SDLK_n, 0); /* rebuilds: the drawn frame's trace is freed */
    TR_CHECK(gui_spec(g)->ranks == 5, "N: ranks %d", gui_spec(g)->ranks);
    tr_button(g, SDL_MOUSEBUTTONDOWN, old.timeline.x + old.timeline.w / 2, old.timeline.y + 2);
    tr_motion(g, old.timeline.x + old.timeline.w / 3, old.timeline.y + 2); /* a drag */
    tr_button(g, SDL_MOUSEBUTTONUP, old.timeline.x + old.timeline.w / 3, old.timeline.y + 2);
    TR_CHECK(gui_time(g) > 0 && gui_time(g) <= gui_nsteps(g), "the click on the timeline: t = %g",
             gui_time(g));
    tr_wheel(g, -1);
    gui_render(g);

    gui_hooks hooks;
    memset(&hooks, 0, sizeof hooks);
    hooks.on_cell = on_cell;
    gui_set_hooks(g, &hooks);
    static SDL_Point pts[512];
    for (int i = 0; i < NKEYS; i++) {
        gui_render(g);
        old = *rd_last_layout(gui_rd(g));
        int n = points(&old, pts, 512);
        tr_key(g, keys[i].k, keys[i].mod);
        for (int j = 0; j < n; j++) {
            tr_motion(g, pts[j].x, pts[j].y);
            tr_button(g, SDL_MOUSEBUTTONDOWN, pts[j].x, pts[j].y);
            tr_button(g, SDL_MOUSEBUTTONUP, pts[j].x, pts[j].y);
            tr_wheel(g, j % 2 ? 1 : -1);
            if (gui_quit_requested(g))
                break;
        }
        TR_CHECK(gui_trace(g, 0) != NULL, "key %d lost the trace", i);
    }
    TR_CHECK(cells_seen > 0, "no click reached a cell");
    gui_render(g);
    gui_destroy(g);
}

/* A reproducible burst: xorshift, so a failure names its seed and step. */
static uint64_t rnd_state;
static uint32_t rnd(uint32_t n)
{
    rnd_state ^= rnd_state << 13;
    rnd_state ^= rnd_state >> 7;
    rnd_state ^= rnd_state << 17;
    return (uint32_t)(rnd_state % n);
}

static void check_burst(uint64_t seed, int actions)
{
    rnd_state = seed;
    cv_spec spec = tr_spec(CV_OP_ALLREDUCE, CV_ALGO_RING, 4, 8);
    gui *g = tr_gui(&spec, 1024, 768, RD_THEME_DARK, CV_LANG_EN);
    gui_hooks hooks;
    memset(&hooks, 0, sizeof hooks);
    hooks.on_cell = on_cell;
    gui_set_hooks(g, &hooks);
    const int w = 1024, h = 768;
    for (int i = 0; i < actions; i++) {
        switch (rnd(10)) {
        case 0:
        case 1:
        case 2: {
            int k = (int)rnd(NKEYS);
            if (keys[k].k == SDLK_m && gui_spec(g)->ranks > 16)
                k = 0; /* compare at many ranks is slow under ASan; not the point */
            tr_key(g, keys[k].k, keys[k].mod);
            break;
        }
        case 3:
        case 4:
            tr_button(g, SDL_MOUSEBUTTONDOWN, (int)rnd((uint32_t)w), (int)rnd((uint32_t)h));
            break;
        case 5:
            tr_button(g, SDL_MOUSEBUTTONUP, (int)rnd((uint32_t)w), (int)rnd((uint32_t)h));
            break;
        case 6:
            tr_motion(g, (int)rnd((uint32_t)w), (int)rnd((uint32_t)h));
            break;
        case 7:
            tr_wheel(g, rnd(2) ? 1 : -1);
            break;
        case 8:
            gui_tick(g, 0.05 * rnd(20));
            break;
        case 9:
            gui_render(g);
            break;
        }
        if (gui_quit_requested(g)) {
            gui_destroy(g);
            g = tr_gui(&spec, 1024, 768, RD_THEME_DARK, CV_LANG_EN);
            gui_set_hooks(g, &hooks);
        }
        if (gui_spec(g)->ranks > 24) /* keep each rebuild quick */
            tr_key(g, SDLK_n, KMOD_SHIFT);
    }
    gui_render(g);
    gui_destroy(g);
}

static void burst(void) { check_burst(0x9E3779B97F4A7C15ull, 3000); }

static const test_case cases[] = {
    CASE("sequence", check_sequence),
    CASE("burst", burst),
};

int main(int argc, char **argv)
{
    cases_args(argc, argv, cases, CASES_COUNT(cases));
    tr_require_fonts();
    cases_run();
    SDL_Quit();
    return cases_end();
}

/*
 * test_gui_teacher.c: the teacher's keys on a headless gui. F5 (and
 * Shift+->) plays the last step again: it goes back to that step's start
 * and plays it to where it was; at the start it does nothing. X draws a
 * large ring at the mouse in the accent colour, and X again takes it away.
 * I cycles the input values: by index, random, random drawn again, by
 * rank, by index with one NaN (float stages only), and back, each a new
 * run verified as any other. F3 opens the
 * reference card over the stage, and F3, Esc or a click closes it. In the
 * projector theme at 1024x768, once the first step has played the step
 * text leads the panel: "Just happened" and "Next" are both in view.
 */
#include "test_render_util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void settle(gui *g)
{
    for (int i = 0; i < 20000 && (!gui_target_reached(g) || gui_playing(g)); i++)
        gui_tick(g, 0.05);
    gui_render(g);
}

static void replay(void)
{
    cv_spec s;
    cv_spec_init(&s);
    s.op = CV_OP_ALLREDUCE;
    s.ranks = 4;
    s.count = 8;
    gui *g = tr_gui(&s, 1280, 800, RD_THEME_DARK, CV_LANG_EN);
    tr_key(g, SDLK_F5, 0);
    TR_CHECK(gui_time(g) == 0, "F5 at the start moved to %g", gui_time(g));
    tr_key(g, SDLK_RIGHT, 0);
    settle(g);
    tr_key(g, SDLK_RIGHT, 0);
    settle(g);
    TR_CHECK(gui_time(g) == 2, "two steps: t = %g", gui_time(g));
    tr_key(g, SDLK_F5, 0);
    TR_CHECK(gui_time(g) < 2 && gui_time(g) >= 1, "F5 did not go back into the last step: t = %g",
             gui_time(g));
    settle(g);
    TR_CHECK(gui_time(g) == 2, "F5 did not play the last step to its end: t = %g", gui_time(g));
    tr_key(g, SDLK_RIGHT, KMOD_SHIFT);
    TR_CHECK(gui_time(g) < 2, "Shift+-> did not replay: t = %g", gui_time(g));
    settle(g);
    TR_CHECK(gui_time(g) == 2, "Shift+-> ended at %g", gui_time(g));
    gui_destroy(g);
}

static void pointer(void)
{
    cv_spec s;
    cv_spec_init(&s);
    s.op = CV_OP_ALLREDUCE;
    s.ranks = 4;
    s.count = 8;
    gui *g = tr_gui(&s, 1280, 800, RD_THEME_DARK, CV_LANG_EN);
    SDL_Event mv;
    memset(&mv, 0, sizeof mv);
    mv.type = SDL_MOUSEMOTION;
    mv.motion.x = 400;
    mv.motion.y = 300;
    gui_handle_event(g, &mv);
    gui_render(g);
    SDL_Surface *before = tr_capture(g);
    tr_key(g, SDLK_x, 0);
    gui_render(g);
    SDL_Surface *with = tr_capture(g);
    /* the ring: pixels round (400, 300) at the ring's radius change */
    long changed = before && with ? tr_diff(before, with, 8, NULL) : 0;
    TR_CHECK(changed > 300, "X drew no ring: %ld pixels changed", changed);
    tr_key(g, SDLK_x, 0);
    gui_render(g);
    SDL_Surface *after = tr_capture(g);
    TR_CHECK(before && after && tr_same(before, after), "X again did not take the ring away");
    SDL_FreeSurface(before);
    SDL_FreeSurface(with);
    SDL_FreeSurface(after);
    gui_destroy(g);
}

static void inputs(void)
{
    cv_spec s;
    cv_spec_init(&s);
    s.op = CV_OP_ALLREDUCE;
    s.ranks = 4;
    s.count = 8;
    gui *g = tr_gui(&s, 1280, 800, RD_THEME_DARK, CV_LANG_EN);
    TR_CHECK(gui_init(g) == CV_INIT_INDEX, "the stage starts with inputs by index");
    gui_render(g);
    SDL_Surface *a = tr_capture(g);
    static const cv_init want[] = {CV_INIT_RANDOM, CV_INIT_RANDOM, CV_INIT_RANK, CV_INIT_NAN,
                                   CV_INIT_INDEX};
    uint64_t seed = gui_seed(g);
    for (int k = 0; k < 5; k++) {
        tr_key(g, SDLK_i, 0);
        TR_CHECK(gui_init(g) == want[k], "I pressed %d times: init %d, expected %d", k + 1,
                 (int)gui_init(g), (int)want[k]);
        if (k == 1)
            TR_CHECK(gui_seed(g) != seed, "the second random draw kept the seed %llu",
                     (unsigned long long)seed);
        seed = gui_seed(g);
    }
    gui_render(g);
    SDL_Surface *b = tr_capture(g);
    /* back to inputs by index, at step 0: the same picture but for the message */
    TR_CHECK(a && b && tr_diff(a, b, 8, NULL) < 40000, "back to index: the stage differs");
    SDL_FreeSurface(a);
    SDL_FreeSurface(b);
    /* The NaN pattern shows "nan" in a cell of the result once played. */
    for (int k = 0; k < 4; k++)
        tr_key(g, SDLK_i, 0);
    TR_CHECK(gui_init(g) == CV_INIT_NAN, "four more presses: the NaN pattern");
    gui_seek(g, g->ns);
    const cv_trace *t = gui_trace(g, 0);
    const void *out = t ? cv_trace_output(t, 0) : NULL;
    TR_CHECK(out && isnan(cv_value_get(CV_FLOAT32, out, 0)) &&
                 !isnan(cv_value_get(CV_FLOAT32, out, 1)),
             "GPU 0's result: NaN at element 0 only");
    gui_destroy(g);
    /* An integer stage has no NaN: the cycle skips it. */
    s.dtype = CV_INT32;
    g = tr_gui(&s, 1280, 800, RD_THEME_DARK, CV_LANG_EN);
    for (int k = 0; k < 4; k++)
        tr_key(g, SDLK_i, 0);
    TR_CHECK(gui_init(g) == CV_INIT_INDEX, "int32: rank is followed by index, not nan");
    gui_destroy(g);
}

static void card(void)
{
    cv_spec s;
    cv_spec_init(&s);
    s.op = CV_OP_ALLREDUCE;
    s.ranks = 4;
    s.count = 8;
    gui *g = tr_gui(&s, 1024, 768, RD_THEME_PROJECTOR, CV_LANG_EN);
    gui_render(g);
    SDL_Surface *before = tr_capture(g);
    tr_key(g, SDLK_F3, 0);
    gui_render(g);
    SDL_Surface *open = tr_capture(g);
    long changed = before && open ? tr_diff(before, open, 8, NULL) : 0;
    TR_CHECK(g->card_open && changed > 100000, "F3 did not draw the card: %ld pixels changed",
             changed);
    tr_key(g, SDLK_ESCAPE, 0);
    TR_CHECK(!g->card_open, "Esc did not close the card");
    tr_key(g, SDLK_F3, 0);
    tr_click(g, 10, 10);
    TR_CHECK(!g->card_open, "a click did not close the card");
    tr_key(g, SDLK_l, 0); /* Chinese: the card is built again in its language */
    tr_key(g, SDLK_F3, 0);
    gui_render(g);
    const rd_table *t = gui__card(g);
    TR_CHECK(t && t->nrows > 20 && strstr(t->title, "\xE9\x80\x9F\xE6\x9F\xA5") != NULL,
             "the card in Chinese: '%s'", t ? t->title : "");
    SDL_FreeSurface(before);
    SDL_FreeSurface(open);
    gui_destroy(g);
}

/* Whether the panel shows a heading line with this text. */
static bool heading_shown(gui *g, const char *text)
{
    const rd_layout *L = rd_last_layout(gui_rd(g));
    for (int i = 0; i < L->nlines; i++)
        if (L->lines[i].role == RD_LINE_HEAD && strcmp(L->lines[i].text, text) == 0 &&
            L->lines[i].box.y + L->lines[i].box.h <= L->narration.y + L->narration.h)
            return true;
    return false;
}

static void step_text_leads(int ranks)
{
    cv_spec s;
    cv_spec_init(&s);
    s.op = CV_OP_ALLREDUCE;
    s.ranks = ranks;
    s.count = ranks;
    gui *g = tr_gui(&s, 1024, 768, RD_THEME_PROJECTOR, CV_LANG_EN);
    gui_render(g);
    tr_key(g, SDLK_RIGHT, 0);
    settle(g);
    gui_render(g);
    TR_CHECK(heading_shown(g, "Just happened") && heading_shown(g, "Next"),
             "%d ranks, projector, 1024x768, after step 1: Just happened %d, Next %d", ranks,
             heading_shown(g, "Just happened"), heading_shown(g, "Next"));
    tr_key(g, SDLK_HOME, 0);
    gui_render(g);
    gui_render(g);
    TR_CHECK(rd_last_layout(gui_rd(g))->narr_scroll == 0, "Home: the introduction leads again");
    gui_destroy(g);
}

static void step_text_leads_8(void) { step_text_leads(8); }
static void step_text_leads_16(void) { step_text_leads(16); }

static const test_case cases[] = {
    CASE("replay", replay),
    CASE("pointer", pointer),
    CASE("inputs", inputs),
    CASE("card", card),
    CASE("step-text-leads/8", step_text_leads_8),
    CASE("step-text-leads/16", step_text_leads_16),
};

int main(int argc, char **argv)
{
    cases_args(argc, argv, cases, CASES_COUNT(cases));
    tr_require_fonts();
    cases_run();
    SDL_Quit();
    return cases_end();
}

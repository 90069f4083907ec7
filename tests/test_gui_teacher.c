/*
 * test_gui_teacher.c: the teacher's keys on a headless gui. F5 (and
 * Shift+->) plays the last step again: it goes back to that step's start
 * and plays it to where it was; at the start it does nothing. X draws a
 * large ring at the mouse in the accent colour, and X again takes it away.
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

int main(void)
{
    tr_require_fonts();
    replay();
    pointer();
    SDL_Quit();
    printf("%d problems\n", tr_failures);
    return tr_failures ? 1 : 0;
}

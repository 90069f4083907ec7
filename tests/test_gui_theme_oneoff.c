/*
 * test_gui_theme_oneoff.c: a theme given on the command line for one
 * lesson (`collviz lesson ID --theme projector`) is that window's only;
 * the progress file keeps the theme chosen before, so the next plain
 * launch opens as it used to. A theme changed in the window (T) is the
 * learner's choice and is saved. On a headless gui and a temporary
 * XDG_DATA_HOME.
 */
#include "gui_lesson.h"
#include "test_render_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char progress_path[4096];

static void saved_theme_is(const char *want, const char *why)
{
    lesson_progress p;
    lesson_progress_init(&p);
    char msg[512];
    lesson_progress_status st = lesson_progress_load(&p, progress_path, msg, sizeof msg);
    TR_CHECK(st == LESSON_PROGRESS_OK && strcmp(p.theme, want) == 0, "%s: saved theme '%s', expected '%s'",
             why, st == LESSON_PROGRESS_OK ? p.theme : msg, want);
    lesson_progress_destroy(&p);
}

static void one_window(lesson_course *course, bool saved_theme, bool press_t)
{
    const lesson_setup *su = &course->lessons[0]->setups[0];
    gui *g = tr_gui(&su->spec, 1024, 768, RD_THEME_PROJECTOR, CV_LANG_EN);
    gui_lesson s;
    gui_lesson_opts o = {progress_path, 0, 0, LESSON_EN, saved_theme, NULL, false};
    char msg[256];
    TR_CHECK(gui_lesson_attach(&s, g, course, &o, msg, sizeof msg), "attach: %s", msg);
    if (press_t)
        tr_key(g, SDLK_t, 0);
    gui_render(g);
    tr_key(g, SDLK_PAGEDOWN, 0); /* a new place: saved */
    gui_render(g);
    gui_lesson_save(&s);
    gui_lesson_detach(&s);
    gui_destroy(g);
}

int main(void)
{
    tr_require_fonts();
    char dir[] = "/tmp/collviz-theme-oneoff-XXXXXX";
    if (!mkdtemp(dir))
        return 1;
    setenv("XDG_DATA_HOME", dir, 1);
    if (!lesson_progress_default_path(progress_path, sizeof progress_path))
        return 1;
    lesson_course course;
    lesson_course_init(&course);
    lesson_diags diags;
    lesson_diags_init(&diags);
    const char *paths[1] = {COLLVIZ_SOURCE_DIR "/lessons"};
    lesson_course_load(&course, paths, 1, LESSON_LOAD_NO_TRACE, &diags);
    lesson_diags_destroy(&diags);
    /* --theme projector, nothing changed in the window: not saved */
    one_window(&course, false, false);
    saved_theme_is("", "a one-off --theme projector");
    /* T in the window: the learner's choice, saved */
    one_window(&course, false, true);
    saved_theme_is("dark", "T pressed in a --theme projector window (projector, then dark)");
    lesson_course_destroy(&course);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    SDL_Quit();
    printf("%d problems\n", tr_failures);
    return tr_failures ? 1 : 0;
}

/*
 * gui_lesson_dir.c: what `collviz` alone does before the window opens:
 * find the course, load it, read the progress file and pick up where the
 * learner left off (lesson_course_resume).
 *
 * The course is found by lesson_find_dir, the same search `collviz lesson`
 * and `collviz lessons` use. When none holds a lesson the caller opens the
 * plain stage, after one line saying why.
 */
#define _POSIX_C_SOURCE 200809L
#include "gui_lesson.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int gui_lesson_resume(const lesson_course *course, const lesson_progress *prog, int *beat)
{
    int li = lesson_course_resume(course, prog, beat);
    /* Left on the last page of a lesson already done: the next one. */
    const lesson *cur = li >= 0 ? course->lessons[li] : NULL;
    if (cur && lesson_progress_done(prog, cur->id) && *beat >= cur->nbeats - 1 &&
        li + 1 < course->nlessons) {
        li++;
        *beat = 0;
    }
    return li;
}

int gui_lesson_start(const gui_options *base, const gui_lesson_window_opts *wo, bool theme_given,
                     bool lang_given, char *err, size_t errlen)
{
    char dir[4096], why[1024];
    if (!lesson_find_dir(dir, sizeof dir, why, sizeof why)) {
        fprintf(stderr, "collviz: %s; opening the plain stage\n", why);
        return -1;
    }
    lesson_course course;
    lesson_diags diags;
    lesson_course_init(&course);
    lesson_diags_init(&diags);
    const char *paths[1] = {dir};
    int bad = lesson_course_load(&course, paths, 1, 0, &diags);
    int rc = -1;
    lesson_progress prog;
    lesson_progress_init(&prog);
    if (course.nlessons == 0) {
        if (bad > 0)
            fprintf(stderr,
                    "collviz: no lesson in %s loaded (`collviz lessons --check %s` says why); "
                    "opening the plain stage\n",
                    dir, dir);
        else
            fprintf(stderr, "collviz: %s holds no lessons; opening the plain stage\n", dir);
        goto done;
    }
    if (bad > 0)
        fprintf(stderr,
                "collviz: %d lesson file%s in %s left out (`collviz lessons --check` lists the "
                "problems)\n",
                bad, bad == 1 ? "" : "s", dir);
    char path[4096], msg[1024] = "";
    bool have_path = lesson_progress_default_path(path, sizeof path);
    bool first = true; /* no progress yet: the window starts by explaining the stage */
    if (have_path) {
        lesson_progress_status st = lesson_progress_load(&prog, path, msg, sizeof msg);
        first = st == LESSON_PROGRESS_EMPTY;
        /* The window says it again in a banner (attach reads the file
         * again and would find it already set aside). */
        if (st == LESSON_PROGRESS_RECOVERED || st == LESSON_PROGRESS_EIO)
            fprintf(stderr, "collviz: %s\n", msg);
        if (st != LESSON_PROGRESS_RECOVERED)
            msg[0] = '\0';
    }
    int beat = 0;
    int li = gui_lesson_resume(&course, &prog, &beat);
    lesson_lang lang = lang_given ? base->lang : lesson_default_lang(&prog);
    gui_lesson_window_opts w = wo ? *wo : (gui_lesson_window_opts){NULL, 0, NULL, false};
    w.intro = first;
    rc = gui_lesson_window(base, &w, &course, li, beat, lang, !theme_given, msg[0] ? msg : NULL,
                           err, errlen);
done:
    lesson_progress_destroy(&prog);
    lesson_diags_destroy(&diags);
    lesson_course_destroy(&course);
    return rc;
}

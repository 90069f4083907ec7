/*
 * gui_stub.c: the window's subcommands in a build without the window
 * (configured with -DCOLLVIZ_GUI=OFF, as on a GPU server with no display).
 * Each says so in one line and exits 2; gui_has_window says there is no
 * window, so `lesson` plays in the terminal and `nccl-log` prints only.
 * The window's own files define the same functions in a build with it.
 */
#include <stdio.h>

#include "cli.h"
#include "gui_cmds.h"
#include "lesson_cmd.h"

static int no_window(const char *name)
{
    fprintf(stderr, "collviz: '%s' needs the window, which this build leaves out "
                    "(configured with -DCOLLVIZ_GUI=OFF); run, bench, cost, list, lesson, "
                    "lessons, drill and nccl-log work without it\n",
            name);
    return CLI_EXIT_USAGE;
}

int gui_cmd_gui(int argc, char **argv) { return (void)argc, (void)argv, no_window("gui"); }
int gui_cmd_export(int argc, char **argv) { return (void)argc, (void)argv, no_window("export"); }
int gui_cmd_render(int argc, char **argv) { return (void)argc, (void)argv, no_window("render"); }
int gui_cmd_show(int argc, char **argv) { return (void)argc, (void)argv, no_window("show"); }
bool gui_has_window(void) { return false; }
int gui_open_lesson(const lesson_course *course, int lesson_index, int beat, lesson_lang lang,
                    const lesson_window *win)
{
    return (void)course, (void)lesson_index, (void)beat, (void)lang, (void)win, CLI_EXIT_UNAVAIL;
}
int gui_open_nccl_log(const char *path, const char *comm_id)
{
    return (void)path, (void)comm_id, CLI_EXIT_UNAVAIL;
}

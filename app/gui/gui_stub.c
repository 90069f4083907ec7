/*
 * gui_stub.c: the window's subcommands in a build without the window
 * (configured with -DCOLLVIZ_GUI=OFF, as on a GPU server with no display).
 * Each says so in one line and exits 2; `lesson` plays in the terminal.
 * The window's own files define the same functions in a build with it.
 */
#include <stdio.h>

#include "app.h"
#include "gui_cmds.h"
#include "lesson_cmd.h"

static int no_window(const char *name)
{
    fprintf(stderr, "collviz: '%s' needs the window, which this build leaves out "
                    "(configured with -DCOLLVIZ_GUI=OFF); run, bench, cost, list, lesson, "
                    "lessons, drill and nccl-log work without it\n",
            name);
    return APP_EXIT_USAGE;
}

int app_cmd_gui(int argc, char **argv) { return (void)argc, (void)argv, no_window("gui"); }
int app_cmd_export(int argc, char **argv) { return (void)argc, (void)argv, no_window("export"); }
int app_cmd_render(int argc, char **argv) { return (void)argc, (void)argv, no_window("render"); }
int app_cmd_show(int argc, char **argv) { return (void)argc, (void)argv, no_window("show"); }
int app_cmd_lesson(int argc, char **argv) { return lesson_cmd_lesson(argc, argv, NULL); }
int app_cmd_nccl_log(int argc, char **argv) { return app_nccl_log_cmd(argc, argv, NULL); }

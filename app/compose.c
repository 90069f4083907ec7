/*
 * compose.c: the subcommands that need two rooms of app/, composed here
 * above both so that neither calls up into the other. `lesson`: the course
 * reads the flags, the course and the lesson (lesson_cmd_parse), the
 * window opens on it where there is one (gui_open_lesson), and otherwise,
 * or with --text, the course plays it in the terminal. `nccl-log`: cli
 * reads the log and prints its summary (cli_nccl_log_cmd), then the
 * window opens the free stage on it where it can be drawn.
 */
#include <stdio.h>

#include "cli.h"
#include "compose.h"
#include "gui_cmds.h"
#include "lesson_cmd.h"

int compose_cmd_lesson(int argc, char **argv)
{
    lesson_cmd_req req;
    int rc = lesson_cmd_parse(argc, argv, gui_has_window(), &req);
    if (rc == LESSON_CMD_GO && !req.text && gui_has_window()) {
        rc = gui_open_lesson(&req.course, req.index, req.beat, req.lang, &req.win);
        if (rc == CLI_EXIT_UNAVAIL) {
            fprintf(stderr, "collviz: no window here; playing the lesson in the terminal\n");
            rc = LESSON_CMD_GO;
        }
    }
    if (rc == LESSON_CMD_GO)
        rc = lesson_cmd_play_text(&req);
    lesson_cmd_req_destroy(&req);
    return rc;
}

int compose_cmd_nccl_log(int argc, char **argv)
{
    cli_nccl_window w;
    int rc = cli_nccl_log_cmd(argc, argv, gui_has_window(), &w);
    if (rc == CLI_EXIT_OK && w.open)
        rc = gui_open_nccl_log(w.path, w.comm);
    return rc;
}

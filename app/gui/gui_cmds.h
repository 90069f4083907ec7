/*
 * gui_cmds.h: the window library's subcommands, as main.c sees them.
 *
 * This header names no SDL type, so main.c includes it whether or not the
 * window is built: with COLLVIZ_GUI=ON the window's files define these,
 * with OFF gui_stub.c does, answering each with one line that says this
 * build has no window (and `lesson` still plays in the terminal).
 * argv[0] is the subcommand's name; each returns an APP_EXIT_* code.
 */
#ifndef GUI_CMDS_H
#define GUI_CMDS_H

#include "app.h"

int app_cmd_gui(int argc, char **argv);    /* the window; `collviz` alone */
int app_cmd_export(int argc, char **argv); /* PNG frames and GIF */
int app_cmd_render(int argc, char **argv); /* headless render benchmark */
int app_cmd_show(int argc, char **argv);   /* replay a bench --json result */
int app_cmd_lesson(int argc, char **argv); /* open a lesson at a beat */
int app_cmd_nccl_log(int argc, char **argv); /* an NCCL log's rings and trees, then the window */

/* --theme's words (dark, light, projector and the themes assets/themes
 * adds, counted once the files are read: the first word looked up reads
 * them) for the window's commands' flag tables; defined only in a build
 * with the window. */
extern app_enum gui_themes;

#endif /* GUI_CMDS_H */

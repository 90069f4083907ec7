/*
 * gui_cmds.h: the window library's subcommands, as main.c sees them.
 *
 * This header names no SDL type, so main.c includes it whether or not the
 * window is built: with COLLVIZ_GUI=ON the window's files define these,
 * with OFF gui_stub.c does, answering each with one line that says this
 * build has no window. `lesson` and `nccl-log` are composed above the
 * window and the course (app/compose.c) from the functions at the end.
 * argv[0] is the subcommand's name; each returns an CLI_EXIT_* code.
 */
#ifndef GUI_CMDS_H
#define GUI_CMDS_H

#include "cli.h"
#include "lesson.h"

int gui_cmd_gui(int argc, char **argv);    /* the window; `collviz` alone */
int gui_cmd_export(int argc, char **argv); /* PNG frames and GIF */
int gui_cmd_render(int argc, char **argv); /* headless render benchmark */
int gui_cmd_show(int argc, char **argv);   /* replay a bench --json result */

/* What app/compose.c asks of the window for `lesson` and `nccl-log`:
 * whether this build has one; a lesson at a beat (CLI_EXIT_UNAVAIL where
 * no window can open: the course then plays it in the terminal); the free
 * stage on an NCCL log's communicator (comm_id "" or NULL: the only one). */
bool gui_has_window(void);
int gui_open_lesson(const lesson_course *course, int lesson_index, int beat, lesson_lang lang,
                    const lesson_window *win);
int gui_open_nccl_log(const char *path, const char *comm_id);

/* --theme's words (dark, light, projector and the themes assets/themes
 * adds, counted once the files are read: the first word looked up reads
 * them) for the window's commands' flag tables; defined only in a build
 * with the window. */
extern cli_enum gui_themes;

/* The stage g shows now as spec field id's value for `collviz export`
 * (gui_fields.c): false where export is not to be given the flag (a root
 * the algorithm does not use, the default protocol, a file the stage has
 * not). Defined only in a build with the window. */
struct gui;
bool gui_field_text(const struct gui *g, cli_field_id id, char *out, size_t len);

#endif /* GUI_CMDS_H */

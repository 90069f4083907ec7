/*
 * lesson_cmd.h: what the terminal commands around lessons share
 * (`collviz lesson`, `collviz lessons`, `collviz drill`): loading the course
 * and the progress file with the messages a user should see.
 */
#ifndef LESSON_CMD_H
#define LESSON_CMD_H

#include <stdbool.h>
#include <stddef.h>

#include "lesson.h"
#include "progress.h"

/* Loads dir (NULL: the shipped lessons), telling stderr how many files
 * were left out unless quiet. Returns that number, or -1 (said on stderr,
 * the course left empty) when dir is NULL and no course is found. */
int lesson_cmd_load_course(lesson_course *course, const char *dir, bool quiet);
/* Loads the progress file (path filled; "" when there is no home) and
 * prints any message about a corrupt file. */
void lesson_cmd_load_progress(progress *p, char *path, size_t pathlen);
void lesson_cmd_save_progress(const progress *p, const char *path);

/* `collviz lesson ID [--step K] ...`: a deep link into the course. With
 * open_window (the window's gui_open_lesson) the lesson opens in the
 * window; with NULL (a build without the window), or when the window
 * cannot open, it plays in the terminal. Returns an APP_EXIT_* code. */
int lesson_cmd_lesson(int argc, char **argv, lesson_window_fn open_window);
/* `collviz lessons [--check] [--dir DIR] [--lang L]`: the list, or the
 * validator. */
int app_cmd_lessons(int argc, char **argv);

#endif /* LESSON_CMD_H */

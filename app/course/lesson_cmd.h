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
 * were left out unless quiet. Returns that number, or -1 (said on stderr
 * in one line, the course left empty) when no lesson loads at all: no
 * course found, a directory that cannot be read or holds no lesson, or
 * every file bad. */
int lesson_cmd_load_course(lesson_course *course, const char *dir, bool quiet);
/* Loads the progress file (path filled; "" when there is no home, or when
 * the file cannot be read: then nothing is saved this run, and stderr says
 * so) and prints any message about a corrupt file. */
void lesson_cmd_load_progress(progress *p, char *path, size_t pathlen);

/* One thing a terminal command records: applied to p in memory and, when
 * path is not "", to the file as it is now (progress_update: locked, so a
 * drill and a window saving at once both keep their answers). */
typedef struct {
    enum { LESSON_REC_PLACE, LESSON_REC_QUIZ, LESSON_REC_DONE, LESSON_REC_DRILL } kind;
    const char *id; /* lesson id (place, done) or quiz key */
    int beat;       /* place */
    bool correct;   /* quiz */
    int right, asked; /* drill */
    int64_t when;     /* drill */
} lesson_record;
void lesson_cmd_record(progress *p, const char *path, const lesson_record *r);

/* `collviz lesson ID [--step K] ...`: a deep link into the course. With
 * open_window (the window's gui_open_lesson) the lesson opens in the
 * window; with NULL (a build without the window), or when the window
 * cannot open, it plays in the terminal. Returns an APP_EXIT_* code. */
int lesson_cmd_lesson(int argc, char **argv, lesson_window_fn open_window);
/* `collviz lessons [--check] [--dir DIR] [--lang L]`: the list, or the
 * validator. */
int app_cmd_lessons(int argc, char **argv);

#endif /* LESSON_CMD_H */

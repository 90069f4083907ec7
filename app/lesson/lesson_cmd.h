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
#include "lesson_progress.h"

/* Loads dir (NULL: the shipped lessons), telling stderr how many files
 * were left out unless quiet. Returns that number, or -1 (said on stderr
 * in one line, the course left empty) when no lesson loads at all: no
 * course found, a directory that cannot be read or holds no lesson, or
 * every file bad. */
int lesson_cmd_load_course(lesson_course *course, const char *dir, bool quiet);
/* Loads the progress file (path filled; "" when there is no home, or when
 * the file cannot be read: then nothing is saved this run, and stderr says
 * so) and prints any message about a corrupt file. */
void lesson_cmd_load_progress(lesson_progress *p, char *path, size_t pathlen);

/* One thing a terminal command records: applied to p in memory and, when
 * path is not "", to the file as it is now (lesson_progress_update: locked, so a
 * drill and a window saving at once both keep their answers). */
typedef struct {
    enum { LESSON_REC_PLACE, LESSON_REC_QUIZ, LESSON_REC_DONE, LESSON_REC_DRILL } kind;
    const char *id; /* lesson id (place, done) or quiz key */
    int beat;       /* place */
    bool correct;   /* quiz */
    int right, asked; /* drill */
    int64_t when;     /* drill */
} lesson_record;
void lesson_cmd_record(lesson_progress *p, const char *path, const lesson_record *r);

/* `collviz lesson ID [--step K] ...`, a deep link into the course, read
 * here and played by the caller (app/compose.c): in the window where there
 * is one, else by lesson_cmd_play_text. */
typedef struct {
    bool loaded; /* course and prog hold what lesson_cmd_req_destroy frees */
    lesson_course course;
    lesson_progress prog;
    char path[4096]; /* the progress file, "" where nothing is saved */
    int index, beat; /* the lesson and its beat (0-based) */
    lesson_lang lang;
    lesson_window win; /* the window's flags */
    bool text;         /* --text: the terminal even where a window could open */
} lesson_cmd_req;
#define LESSON_CMD_GO (-1)
/* Reads the flags (the window's only where have_window), the course, the
 * progress and the lesson: LESSON_CMD_GO with req filled, or an CLI_EXIT_*
 * code after one line saying why. Free req either way. */
int lesson_cmd_parse(int argc, char **argv, bool have_window, lesson_cmd_req *req);
/* The text player on req's lesson from its beat; an CLI_EXIT_* code. */
int lesson_cmd_play_text(lesson_cmd_req *req);
void lesson_cmd_req_destroy(lesson_cmd_req *req);
/* `collviz lessons [--check] [--dir DIR] [--lang L]`: the list, or the
 * validator. */
int lesson_cmd_lessons(int argc, char **argv);

#endif /* LESSON_CMD_H */

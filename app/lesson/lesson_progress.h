/*
 * lesson_progress.h: a learner's progress (prefix lesson_progress_): lessons done, quiz
 * scores, where they were (lesson and beat), language, theme and drill
 * scores, kept in $XDG_DATA_HOME/collviz/progress.json (default
 * ~/.local/share/collviz/progress.json).
 *
 * Saving is atomic: a temporary file in the same directory is written,
 * fsynced and renamed over the old one, so a crash or a kill leaves either
 * the old or the new file, never a torn one. A file that cannot be read as
 * progress is never silently dropped: it is renamed aside to
 * progress.json.corrupt-<timestamp> and the caller gets a message to show.
 */
#ifndef LESSON_PROGRESS_H
#define LESSON_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LESSON_PROGRESS_FORMAT 1
#define LESSON_PROGRESS_MAX_BYTES (4 << 20) /* a progress file is a few KiB; refuse nonsense */

typedef struct {
    char *key;    /* "<lesson id>/<quiz id>" */
    int tries;    /* times asked */
    int right;    /* times right at the first attempt */
    bool last;    /* the latest attempt's result */
} lesson_progress_quiz;

typedef struct {
    int runs;
    int best;        /* most right answers in one drill */
    int last_right;  /* the latest drill: right answers ... */
    int last_asked;  /* ... of questions asked */
    int64_t last_time; /* when it ended, seconds since the epoch */
} lesson_progress_drill;

typedef struct lesson_progress {
    char **done; /* ids of lessons completed */
    int ndone, done_cap;
    lesson_progress_quiz *quizzes;
    int nquizzes, quizzes_cap;
    char *current_lesson; /* NULL: none yet */
    int current_beat;
    char lang[8];   /* "en", "zh" or "" (not chosen) */
    char theme[16]; /* the GUI's theme name, or "" */
    lesson_progress_drill drill;
} lesson_progress;

typedef enum {
    LESSON_PROGRESS_OK = 0,
    LESSON_PROGRESS_EMPTY = 1,     /* no file yet: defaults */
    LESSON_PROGRESS_RECOVERED = 2, /* the file was corrupt: set aside, defaults, message */
    LESSON_PROGRESS_EIO = -1       /* cannot read or write: message */
} lesson_progress_status;

void lesson_progress_init(lesson_progress *p);
void lesson_progress_destroy(lesson_progress *p);

/* The default path: $XDG_DATA_HOME/collviz/progress.json, else
 * $HOME/.local/share/collviz/progress.json. false if neither is set. */
bool lesson_progress_default_path(char *out, size_t n);

/* Loads path into p (initialised by the call). A missing file gives the
 * defaults and LESSON_PROGRESS_EMPTY. A corrupt one is renamed aside, p gets the
 * defaults, msg says where it went, and LESSON_PROGRESS_RECOVERED is returned. */
lesson_progress_status lesson_progress_load(lesson_progress *p, const char *path, char *msg, size_t msglen);
/* Writes atomically and compactly, creating the directory if needed.
 * LESSON_PROGRESS_OK or LESSON_PROGRESS_EIO with the reason in msg. Text over
 * LESSON_PROGRESS_MAX_BYTES (which the next load would refuse) is not written:
 * the old file stays as it was, LESSON_PROGRESS_EIO. */
lesson_progress_status lesson_progress_save(const lesson_progress *p, const char *path, char *msg, size_t msglen);

/* p (initialised by the call) from a file's text: false, p empty, when it
 * is not progress. lesson_progress_load reads a file this way. */
bool lesson_progress_parse(lesson_progress *p, const char *data, size_t len);
/* The file's text for p (free it with free), or NULL when out of memory. */
char *lesson_progress_format(const lesson_progress *p);

/* A change to apply to the progress file as it is now. from_file is false
 * when there was none (or it was corrupt and set aside): p is then empty,
 * and the change may put in everything its caller knows. */
typedef void (*lesson_progress_change)(lesson_progress *p, bool from_file, void *user);

/* Read, change, write, under an exclusive lock (path.lock) so that two
 * processes saving at once never lose each other's updates: each applies
 * its own change to what the other wrote. A file that cannot be read
 * (permission denied, a directory) is never written over: LESSON_PROGRESS_EIO,
 * and msg says progress is not saved. On success result (if not NULL, a
 * progress to replace) gets what the file now holds; LESSON_PROGRESS_RECOVERED
 * means a corrupt file was set aside first (msg says where). */
lesson_progress_status lesson_progress_update(const char *path, lesson_progress_change change, void *user,
                                lesson_progress *result, char *msg, size_t msglen);
/* dst (not initialised) becomes a deep copy of src. */
void lesson_progress_copy(lesson_progress *dst, const lesson_progress *src);

bool lesson_progress_done(const lesson_progress *p, const char *lesson_id);
void lesson_progress_set_done(lesson_progress *p, const char *lesson_id, bool done);
/* Records an attempt at a quiz: tries++, right++ when correct. */
void lesson_progress_record_quiz(lesson_progress *p, const char *key, bool correct);
/* Records that a quiz was passed without an answer: an entry with no
 * tries (kept as it is if there is one): the lesson menu lists it as
 * skipped until it is answered. */
void lesson_progress_note_skipped(lesson_progress *p, const char *key);
const lesson_progress_quiz *lesson_progress_find_quiz(const lesson_progress *p, const char *key);
void lesson_progress_set_current(lesson_progress *p, const char *lesson_id, int beat);
void lesson_progress_record_drill(lesson_progress *p, int right, int asked, int64_t when);

#endif /* LESSON_PROGRESS_H */

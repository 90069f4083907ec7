/*
 * lesson_progress.c: reading and writing progress.json (see lesson_progress.h).
 *
 * The file is small and rewritten whole on every save. Crash safety comes
 * from never writing the real file in place: a temporary file named with
 * our pid is written in the same directory (rename is only atomic within
 * one file system), fsynced so its data is on disk before the name points
 * at it, renamed over the old file, and the directory fsynced so the rename
 * itself survives a power cut. Temporary files left by killed processes are
 * removed on the next save once their process is gone.
 */
#define _POSIX_C_SOURCE 200809L
#include "lesson_progress.h"

#include "cli.h"
#include "cv.h"
#include "jr.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

void lesson_progress_init(lesson_progress *p)
{
    memset(p, 0, sizeof *p);
}

void lesson_progress_destroy(lesson_progress *p)
{
    for (int i = 0; i < p->ndone; i++)
        free(p->done[i]);
    free(p->done);
    for (int i = 0; i < p->nquizzes; i++)
        free(p->quizzes[i].key);
    free(p->quizzes);
    free(p->current_lesson);
    memset(p, 0, sizeof *p);
}

bool lesson_progress_default_path(char *out, size_t n)
{
    const char *xdg = getenv("XDG_DATA_HOME");
    const char *home = getenv("HOME");
    int len;
    /* The XDG spec says a relative XDG_DATA_HOME is invalid: ignore it. */
    if (xdg && xdg[0] == '/')
        len = snprintf(out, n, "%s/collviz/progress.json", xdg);
    else if (home && *home)
        len = snprintf(out, n, "%s/.local/share/collviz/progress.json", home);
    else
        return false;
    return len > 0 && (size_t)len < n;
}

/* ------------------------------------------------------------- changes */

bool lesson_progress_done(const lesson_progress *p, const char *lesson_id)
{
    for (int i = 0; i < p->ndone; i++)
        if (strcmp(p->done[i], lesson_id) == 0)
            return true;
    return false;
}

/* Room for one more of n items in *arr, growing by half: appending n
 * items costs O(n), not a realloc each. */
static void *grow(void *arr, int n, int *cap, size_t size)
{
    if (n < *cap)
        return arr;
    *cap = *cap < 8 ? 8 : *cap + *cap / 2;
    return cv_xrealloc(arr, (size_t)*cap * size);
}

static void append_done(lesson_progress *p, const char *lesson_id)
{
    p->done = grow(p->done, p->ndone, &p->done_cap, sizeof *p->done);
    p->done[p->ndone++] = cv_xstrdup(lesson_id);
}

void lesson_progress_set_done(lesson_progress *p, const char *lesson_id, bool done)
{
    for (int i = 0; i < p->ndone; i++) {
        if (strcmp(p->done[i], lesson_id) == 0) {
            if (!done) {
                free(p->done[i]);
                p->done[i] = p->done[--p->ndone];
            }
            return;
        }
    }
    if (done)
        append_done(p, lesson_id);
}

const lesson_progress_quiz *lesson_progress_find_quiz(const lesson_progress *p, const char *key)
{
    for (int i = 0; i < p->nquizzes; i++)
        if (strcmp(p->quizzes[i].key, key) == 0)
            return &p->quizzes[i];
    return NULL;
}

static lesson_progress_quiz *append_quiz(lesson_progress *p, const char *key)
{
    p->quizzes = grow(p->quizzes, p->nquizzes, &p->quizzes_cap, sizeof *p->quizzes);
    lesson_progress_quiz *q = &p->quizzes[p->nquizzes++];
    memset(q, 0, sizeof *q);
    q->key = cv_xstrdup(key);
    return q;
}

static lesson_progress_quiz *quiz_slot(lesson_progress *p, const char *key)
{
    for (int i = 0; i < p->nquizzes; i++)
        if (strcmp(p->quizzes[i].key, key) == 0)
            return &p->quizzes[i];
    return append_quiz(p, key);
}

void lesson_progress_record_quiz(lesson_progress *p, const char *key, bool correct)
{
    lesson_progress_quiz *q = quiz_slot(p, key);
    q->tries++;
    q->right += correct;
    q->last = correct;
}

void lesson_progress_note_skipped(lesson_progress *p, const char *key) { quiz_slot(p, key); }

void lesson_progress_set_current(lesson_progress *p, const char *lesson_id, int beat)
{
    char *id = lesson_id ? cv_xstrdup(lesson_id) : NULL;
    free(p->current_lesson);
    p->current_lesson = id;
    p->current_beat = beat < 0 ? 0 : beat;
}

void lesson_progress_record_drill(lesson_progress *p, int right, int asked, int64_t when)
{
    p->drill.runs++;
    if (right > p->drill.best)
        p->drill.best = right;
    p->drill.last_right = right;
    p->drill.last_asked = asked;
    p->drill.last_time = when;
}

/* ------------------------------------------------------------- reading */

/* Where a file that is not progress goes wrong: the value, and what was
 * expected there. */
typedef struct {
    const jr_doc *doc;
    jr_val at;
    const char *what;
} reading;

static bool wrong(reading *r, jr_val v, const char *what)
{
    r->at = v;
    r->what = what;
    return false;
}

static bool get_int(reading *r, jr_val obj, const char *key, long long min, long long max,
                    const char *what, long long *out)
{
    jr_val v = jr_member(r->doc, obj, key);
    if (!v.j)
        return true; /* absent: keep the default */
    if (!cJSON_IsNumber(v.j) || v.j->valuedouble < (double)min || v.j->valuedouble > (double)max)
        return wrong(r, v, what);
    *out = (long long)v.j->valuedouble;
    return true;
}

static bool get_str(reading *r, jr_val obj, const char *key, char *out, size_t n,
                    const char *what)
{
    jr_val v = jr_member(r->doc, obj, key);
    if (!v.j)
        return true;
    if (!cJSON_IsString(v.j) || strlen(v.j->valuestring) >= n)
        return wrong(r, v, what);
    snprintf(out, n, "%s", v.j->valuestring);
    return true;
}

/* Keys seen while loading, by hash (open addressing): a file of half a
 * million "done" ids loads in linear time, where a search per id took
 * minutes. Values are indices into the array being filled. */
typedef struct {
    uint64_t *hash;
    int *index; /* -1: empty */
    size_t mask;
} seen_set;

static uint64_t hash_str(const char *s)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static void seen_init(seen_set *t, int n)
{
    size_t cap = 16;
    while (cap < (size_t)n * 2)
        cap *= 2;
    t->hash = cv_xrealloc(NULL, cap * sizeof *t->hash);
    t->index = cv_xrealloc(NULL, cap * sizeof *t->index);
    for (size_t i = 0; i < cap; i++)
        t->index[i] = -1;
    t->mask = cap - 1;
}

static void seen_free(seen_set *t)
{
    free(t->hash);
    free(t->index);
}

/* The index stored for key, or -1 after storing `next` for it. Item i of
 * the array at base (stride bytes each) has its key at byte offset. */
static int seen_add(seen_set *t, const char *key, const void *base, size_t stride, size_t offset,
                    int next)
{
    uint64_t h = hash_str(key);
    for (size_t i = h & t->mask;; i = (i + 1) & t->mask) {
        if (t->index[i] < 0) {
            t->hash[i] = h;
            t->index[i] = next;
            return -1;
        }
        const char *name =
            *(char *const *)((const char *)base + (size_t)t->index[i] * stride + offset);
        if (t->hash[i] == h && strcmp(name, key) == 0)
            return t->index[i];
    }
}

/* Fills p from the document; false, r saying where, when it is not
 * progress. */
static bool from_json(lesson_progress *p, reading *r)
{
    const jr_doc *d = r->doc;
    jr_val root = jr_root(d);
    long long v = 0;
    if (!cJSON_IsObject(root.j))
        return wrong(r, root, "an object");
    if (!get_int(r, root, "format", 1, LESSON_PROGRESS_FORMAT, "\"format\": 1", &v) ||
        !get_str(r, root, "lang", p->lang, sizeof p->lang, "\"lang\": \"en\" or \"zh\"") ||
        !get_str(r, root, "theme", p->theme, sizeof p->theme, "\"theme\": a theme's name"))
        return false;
    jr_val cur = jr_member(d, root, "current");
    if (cur.j) {
        char id[128] = "";
        long long beat = 0;
        if (!cJSON_IsObject(cur.j))
            return wrong(r, cur, "\"current\": {\"lesson\": ID, \"beat\": N}");
        if (!get_str(r, cur, "lesson", id, sizeof id, "a lesson id") ||
            !get_int(r, cur, "beat", 0, 1 << 20, "a beat from 0", &beat))
            return false;
        if (id[0])
            lesson_progress_set_current(p, id, (int)beat);
    }
    jr_val done = jr_member(d, root, "done");
    if (done.j) {
        if (!cJSON_IsArray(done.j))
            return wrong(r, done, "\"done\": an array of lesson ids");
        seen_set seen;
        seen_init(&seen, jr_count(done));
        bool ok = true;
        for (jr_val e = jr_child(d, done); e.j; e = jr_next(d, e)) {
            if (!(ok = cJSON_IsString(e.j) || wrong(r, e, "a lesson id (a string)")))
                break;
            if (seen_add(&seen, e.j->valuestring, p->done, sizeof *p->done, 0, p->ndone) < 0)
                append_done(p, e.j->valuestring);
        }
        seen_free(&seen);
        if (!ok)
            return false;
    }
    jr_val quizzes = jr_member(d, root, "quizzes");
    if (quizzes.j) {
        if (!cJSON_IsObject(quizzes.j))
            return wrong(r, quizzes, "\"quizzes\": an object of quiz scores");
        seen_set seen;
        seen_init(&seen, jr_count(quizzes));
        bool ok = true;
        for (jr_val e = jr_child(d, quizzes); e.j; e = jr_next(d, e)) {
            long long tries = 0, right = 0;
            jr_val last = jr_member(d, e, "last");
            if (!(ok = cJSON_IsObject(e.j) ||
                       wrong(r, e, "a quiz's score {\"tries\", \"right\", \"last\"}")))
                break;
            if (!(ok = get_int(r, e, "tries", 0, 1 << 30, "\"tries\": a count", &tries) &&
                       get_int(r, e, "right", 0, tries, "\"right\": a count up to \"tries\"",
                               &right)))
                break;
            if (!(ok = !last.j || cJSON_IsBool(last.j) || wrong(r, last, "true or false")))
                break;
            /* A key given twice: the later one counts, as a search would. */
            int at = seen_add(&seen, e.j->string, p->quizzes, sizeof *p->quizzes,
                              offsetof(lesson_progress_quiz, key), p->nquizzes);
            lesson_progress_quiz *q = at >= 0 ? &p->quizzes[at] : append_quiz(p, e.j->string);
            q->tries = (int)tries;
            q->right = (int)right;
            q->last = cJSON_IsTrue(last.j);
        }
        seen_free(&seen);
        if (!ok)
            return false;
    }
    jr_val drill = jr_member(d, root, "drill");
    if (drill.j) {
        long long runs = 0, best = 0, lr = 0, la = 0, lt = 0;
        if (!cJSON_IsObject(drill.j))
            return wrong(r, drill, "\"drill\": an object of drill scores");
        if (!get_int(r, drill, "runs", 0, 1 << 30, "a count", &runs) ||
            !get_int(r, drill, "best", 0, 1 << 30, "a count", &best) ||
            !get_int(r, drill, "last_right", 0, 1 << 30, "a count", &lr) ||
            !get_int(r, drill, "last_asked", 0, 1 << 30, "a count", &la) ||
            !get_int(r, drill, "last_time", 0, (long long)1 << 50, "seconds since 1970", &lt))
            return false;
        p->drill = (lesson_progress_drill){(int)runs, (int)best, (int)lr, (int)la, lt};
    }
    return true;
}

/* How the progress file is read. collviz writes each key once; a key given
 * twice (by hand) has always been read as the later one counting, and a
 * file is not set aside for it. */
static const jr_opts lesson_progress_read = {.max_bytes = LESSON_PROGRESS_MAX_BYTES, .max_depth = 8,
                                      .allow_duplicates = true};

/* p (initialised) from a document the reader accepted; false, p left
 * empty and why saying where, when it is not progress. */
static bool from_doc(lesson_progress *p, const jr_doc *d, char *why, size_t whylen)
{
    reading r = {.doc = d};
    bool ok = from_json(p, &r);
    if (!ok) {
        char found[64];
        jr_say(d, jr_off(d, r.at), why, whylen, "expected %s, not %s", r.what,
               jr_found(d, r.at, found, sizeof found));
        lesson_progress_destroy(p);
        lesson_progress_init(p);
    }
    return ok;
}

bool lesson_progress_parse(lesson_progress *p, const char *data, size_t len)
{
    lesson_progress_init(p);
    jr_doc d;
    jr_error e;
    if (jr_read_text("progress.json", data, len, &lesson_progress_read, &d, &e) != JR_OK)
        return false;
    char why[512];
    bool ok = from_doc(p, &d, why, sizeof why);
    jr_destroy(&d);
    return ok;
}

/* Renames a bad file aside so nothing is lost, and says so. */
static lesson_progress_status set_aside(const char *path, const char *why, const char *detail,
                                 char *msg, size_t msglen)
{
    char aside[4096 + 64], stamp[48], err[CV_ERR_LEN];
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    strftime(stamp, sizeof stamp, "corrupt-%Y%m%d-%H%M%S", &tm);
    /* Never over an earlier copy, however many are set aside in a second. */
    if (cv_file_set_aside(path, stamp, aside, sizeof aside, err, sizeof err) != CV_OK) {
        snprintf(msg, msglen, "progress file %s is %s and could not be set aside (%s)", path, why,
                 err);
        return LESSON_PROGRESS_EIO;
    }
    /* Where it went wrong last: the file's name and place, for whoever
     * wants to mend the copy. */
    snprintf(msg, msglen,
             "progress file %s was %s; it was moved to %s and progress starts afresh%s%s%s", path,
             why, aside, detail ? " (" : "", detail ? detail : "", detail ? ")" : "");
    return LESSON_PROGRESS_RECOVERED;
}

lesson_progress_status lesson_progress_load(lesson_progress *p, const char *path, char *msg, size_t msglen)
{
    lesson_progress_init(p);
    if (msglen)
        msg[0] = '\0';
    /* The shared reader opens without blocking and reads only a regular
     * file: a FIFO in its place must not hang the program. */
    jr_doc d;
    jr_error e;
    char detail[1400];
    switch (jr_read_file(path, &lesson_progress_read, &d, &e)) {
    case JR_OK:
        break;
    case JR_EOPEN:
        if (e.sys_errno == ENOENT)
            return LESSON_PROGRESS_EMPTY;
        snprintf(msg, msglen, "cannot read progress file %s: %s", path, strerror(e.sys_errno));
        return LESSON_PROGRESS_EIO;
    case JR_ENOTFILE:
    case JR_EREAD:
    case JR_EMEMORY: /* not the file's fault: it is kept, and not written over */
        snprintf(msg, msglen, "cannot read progress file %s: %s", path,
                 strncmp(e.msg, "cannot read: ", 13) ? e.msg : e.msg + 13);
        return LESSON_PROGRESS_EIO;
    case JR_EBIG:
        return set_aside(path, "too large to be progress", NULL, msg, msglen);
    default:
        return set_aside(path, "not valid JSON", jr_error_text(&e, path, detail, sizeof detail),
                         msg, msglen);
    }
    /* A later collviz's file is not corrupt: it is kept, and this one
     * writes nothing over it. */
    jr_val format = jr_member(&d, jr_root(&d), "format");
    if (format.j && cJSON_IsNumber(format.j) && format.j->valuedouble > LESSON_PROGRESS_FORMAT &&
        format.j->valuedouble < 1e9) {
        snprintf(msg, msglen,
                 "progress file %s was written by a newer collviz (format %.0f; this one reads "
                 "format %d): it is kept as it is, and progress is not saved",
                 path, format.j->valuedouble, LESSON_PROGRESS_FORMAT);
        jr_destroy(&d);
        return LESSON_PROGRESS_EIO;
    }
    bool ok = from_doc(p, &d, detail, sizeof detail);
    jr_destroy(&d);
    if (!ok)
        return set_aside(path, "not a valid progress file", detail, msg, msglen);
    return LESSON_PROGRESS_OK;
}

/* ------------------------------------------------------------- writing */

static cJSON *to_json(const lesson_progress *p)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddNumberToObject(root, "format", LESSON_PROGRESS_FORMAT);
    cJSON_AddStringToObject(root, "lang", p->lang);
    cJSON_AddStringToObject(root, "theme", p->theme);
    if (p->current_lesson) {
        cJSON *cur = cJSON_AddObjectToObject(root, "current");
        cJSON_AddStringToObject(cur, "lesson", p->current_lesson);
        cJSON_AddNumberToObject(cur, "beat", p->current_beat);
    }
    cJSON *done = cJSON_AddArrayToObject(root, "done");
    for (int i = 0; i < p->ndone; i++)
        cJSON_AddItemToArray(done, cJSON_CreateString(p->done[i]));
    cJSON *quizzes = cJSON_AddObjectToObject(root, "quizzes");
    for (int i = 0; i < p->nquizzes; i++) {
        cJSON *q = cJSON_AddObjectToObject(quizzes, p->quizzes[i].key);
        cJSON_AddNumberToObject(q, "tries", p->quizzes[i].tries);
        cJSON_AddNumberToObject(q, "right", p->quizzes[i].right);
        cJSON_AddBoolToObject(q, "last", p->quizzes[i].last);
    }
    cJSON *drill = cJSON_AddObjectToObject(root, "drill");
    cJSON_AddNumberToObject(drill, "runs", p->drill.runs);
    cJSON_AddNumberToObject(drill, "best", p->drill.best);
    cJSON_AddNumberToObject(drill, "last_right", p->drill.last_right);
    cJSON_AddNumberToObject(drill, "last_asked", p->drill.last_asked);
    cJSON_AddNumberToObject(drill, "last_time", (double)p->drill.last_time);
    return root;
}

char *lesson_progress_format(const lesson_progress *p)
{
    cJSON *root = to_json(p);
    /* Compact: a file that loads (LESSON_PROGRESS_MAX_BYTES) must still fit once
     * written again; indentation grew a near-limit file by 14 %. */
    char *text = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    return text;
}

static int mkdir_p(const char *dir)
{
    char buf[4096];
    if (snprintf(buf, sizeof buf, "%s", dir) >= (int)sizeof buf)
        return -1;
    for (char *s = buf + 1; *s; s++) {
        if (*s == '/') {
            *s = '\0';
            if (mkdir(buf, 0755) != 0 && errno != EEXIST)
                return -1;
            *s = '/';
        }
    }
    return mkdir(buf, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

/* Removes "<base>.tmp-<pid>-XXXXXX" files (cv_wfile's temporaries, and
 * "<base>.tmp-<pid>" of earlier versions) whose process no longer exists. */
static void remove_stale_temps(const char *dir, const char *base)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    char prefix[512];
    snprintf(prefix, sizeof prefix, "%s.tmp-", base);
    size_t plen = strlen(prefix);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strncmp(e->d_name, prefix, plen) != 0)
            continue;
        char *end;
        long pid = strtol(e->d_name + plen, &end, 10);
        if ((*end && !(*end == '-' && strlen(end) == 7)) || pid <= 0 || pid == (long)getpid())
            continue;
        if (kill((pid_t)pid, 0) != 0 && errno == ESRCH) {
            char stale[4096];
            if (snprintf(stale, sizeof stale, "%s/%s", dir, e->d_name) < (int)sizeof stale)
                unlink(stale);
        }
    }
    closedir(d);
}

lesson_progress_status lesson_progress_save(const lesson_progress *p, const char *path, char *msg, size_t msglen)
{
    char dir[4096];
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    if (slash)
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    else
        snprintf(dir, sizeof dir, ".");
    if (!dir[0])
        snprintf(dir, sizeof dir, "/");
    if (mkdir_p(dir) != 0) {
        snprintf(msg, msglen, "cannot create %s: %s", dir, strerror(errno));
        return LESSON_PROGRESS_EIO;
    }
    remove_stale_temps(dir, base);

    char *text = lesson_progress_format(p);
    if (!text) {
        snprintf(msg, msglen, "out of memory writing progress");
        return LESSON_PROGRESS_EIO;
    }
    size_t len = strlen(text);
    if (len + 1 > LESSON_PROGRESS_MAX_BYTES) {
        /* The next load would set it aside as too large: keep the old file,
         * which holds everything but this change. */
        /* No size in it: each save would give another, and callers say a
         * message once, not on every save. */
        snprintf(msg, msglen,
                 "progress file %s would grow over the limit of %d bytes; the file is left as "
                 "it was and progress is not saved",
                 path, LESSON_PROGRESS_MAX_BYTES);
        free(text);
        return LESSON_PROGRESS_EIO;
    }
    /* Whole or not at all, beside the file; a link the user made to keep
     * the file elsewhere is written through, never replaced. */
    char why[CV_ERR_LEN] = "";
    cv_wfile *w = cv_wfile_create(path, CV_WFILE_THROUGH_LINK, why, sizeof why);
    FILE *f = cv_wfile_stream(w);
    errno = 0;
    bool ok = f && fwrite(text, 1, len, f) == len && fputc('\n', f) != EOF;
    if (f && !ok)
        snprintf(why, sizeof why, "%s", strerror(errno ? errno : EIO));
    free(text);
    if (w && cv_wfile_destroy(w, ok, why, sizeof why) != CV_OK)
        ok = false;
    if (!ok) {
        snprintf(msg, msglen, "cannot save progress to %s: %s", path, why);
        return LESSON_PROGRESS_EIO;
    }
    cli_wrote_file(path, CLI_FILE_STATE);
    return LESSON_PROGRESS_OK;
}

/* --------------------------------------------------------------- update */

/* The lock beside the file (path.lock): rename replaces progress.json's
 * inode on every save, so the file itself cannot carry the lock. */
static int lock_open(const char *path, char *msg, size_t msglen)
{
    char lock[4096 + 8];
    snprintf(lock, sizeof lock, "%s.lock", path);
    int fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
        snprintf(msg, msglen, "cannot lock %s: %s", lock, strerror(errno));
        return -1;
    }
    while (flock(fd, LOCK_EX) != 0) {
        if (errno != EINTR) {
            snprintf(msg, msglen, "cannot lock %s: %s", lock, strerror(errno));
            close(fd);
            return -1;
        }
    }
    return fd;
}

lesson_progress_status lesson_progress_update(const char *path, lesson_progress_change change, void *user,
                                lesson_progress *result, char *msg, size_t msglen)
{
    if (msglen)
        msg[0] = '\0';
    char dir[4096];
    const char *slash = strrchr(path, '/');
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
    if (dir[0] && mkdir_p(dir) != 0) {
        snprintf(msg, msglen, "cannot create %s: %s", dir, strerror(errno));
        return LESSON_PROGRESS_EIO;
    }
    int lock = lock_open(path, msg, msglen);
    if (lock < 0)
        return LESSON_PROGRESS_EIO;
    lesson_progress disk;
    char note[1024] = "";
    lesson_progress_status st = lesson_progress_load(&disk, path, note, sizeof note);
    if (st == LESSON_PROGRESS_EIO) {
        /* Never write over what could not be read: it may be all there is. */
        close(lock);
        lesson_progress_destroy(&disk);
        snprintf(msg, msglen, "%s; progress is not saved", note);
        return LESSON_PROGRESS_EIO;
    }
    change(&disk, st == LESSON_PROGRESS_OK, user);
    lesson_progress_status saved = lesson_progress_save(&disk, path, msg, msglen);
    close(lock); /* releases the lock */
    if (saved == LESSON_PROGRESS_OK && st == LESSON_PROGRESS_RECOVERED)
        snprintf(msg, msglen, "%s", note);
    if (saved == LESSON_PROGRESS_OK && result) {
        lesson_progress_destroy(result);
        *result = disk;
    } else {
        lesson_progress_destroy(&disk);
    }
    return saved == LESSON_PROGRESS_OK ? st == LESSON_PROGRESS_RECOVERED ? LESSON_PROGRESS_RECOVERED : LESSON_PROGRESS_OK
                                : saved;
}

void lesson_progress_copy(lesson_progress *dst, const lesson_progress *src)
{
    lesson_progress_init(dst);
    for (int i = 0; i < src->ndone; i++)
        append_done(dst, src->done[i]);
    for (int i = 0; i < src->nquizzes; i++) {
        lesson_progress_quiz *q = append_quiz(dst, src->quizzes[i].key);
        q->tries = src->quizzes[i].tries;
        q->right = src->quizzes[i].right;
        q->last = src->quizzes[i].last;
    }
    if (src->current_lesson)
        lesson_progress_set_current(dst, src->current_lesson, src->current_beat);
    memcpy(dst->lang, src->lang, sizeof dst->lang);
    memcpy(dst->theme, src->theme, sizeof dst->theme);
    dst->drill = src->drill;
}

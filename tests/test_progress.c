/*
 * test_progress.c: progress.json round trips; a missing file gives the
 * defaults; a corrupt one is set aside with a message and never silently
 * lost; the XDG path rules; and the crash-safety promise itself: a child
 * saving in a loop is killed with SIGKILL at random moments, and every time
 * the file on disk is a complete old or new version, never a torn one.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lesson_progress.h"
#include "check.h"

static char dir[512];

static void make_dir(void)
{
    snprintf(dir, sizeof dir, "%s/progress-test-%ld", COLLVIZ_BINARY_DIR, (long)getpid());
    mkdir(dir, 0755);
}

static void clean_dir(const char *d)
{
    DIR *dd = opendir(d);
    if (!dd)
        return;
    struct dirent *e;
    while ((e = readdir(dd)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char p[1024];
        snprintf(p, sizeof p, "%s/%s", d, e->d_name);
        struct stat st;
        if (stat(p, &st) == 0 && S_ISDIR(st.st_mode))
            clean_dir(p);
        else
            unlink(p);
    }
    closedir(dd);
    rmdir(d);
}

static int count_files(const char *d, const char *prefix)
{
    int n = 0;
    DIR *dd = opendir(d);
    if (!dd)
        return 0;
    struct dirent *e;
    while ((e = readdir(dd)) != NULL)
        n += strncmp(e->d_name, prefix, strlen(prefix)) == 0;
    closedir(dd);
    return n;
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    fputs(text, f);
    fclose(f);
}

static void test_round_trip(void)
{
    char path[1024], msg[1024];
    snprintf(path, sizeof path, "%s/deep/er/progress.json", dir);
    lesson_progress p;
    EXPECT(lesson_progress_load(&p, path, msg, sizeof msg) == LESSON_PROGRESS_EMPTY, "missing file");
    EXPECT(p.ndone == 0 && !p.current_lesson && !p.lang[0], "defaults");
    lesson_progress_set_done(&p, "prim-sendrecv", true);
    lesson_progress_set_done(&p, "algo-ring-allreduce", true);
    lesson_progress_set_done(&p, "prim-sendrecv", true); /* twice is once */
    lesson_progress_set_done(&p, "algo-ring-allreduce", false);
    lesson_progress_set_done(&p, "cost-busbw", true);
    lesson_progress_record_quiz(&p, "prim-sendrecv/who-uses-p2p", true);
    lesson_progress_record_quiz(&p, "prim-sendrecv/who-uses-p2p", false);
    lesson_progress_record_quiz(&p, "algo-ring-allreduce/gpt3-allreduce-time", true);
    lesson_progress_set_current(&p, "algo-ring-allreduce", 4);
    snprintf(p.lang, sizeof p.lang, "zh");
    snprintf(p.theme, sizeof p.theme, "dark");
    lesson_progress_record_drill(&p, 7, 10, 1700000000);
    lesson_progress_record_drill(&p, 5, 9, 1700000100);
    EXPECT(lesson_progress_save(&p, path, msg, sizeof msg) == LESSON_PROGRESS_OK, "save into a new dir: %s", msg);
    lesson_progress_destroy(&p);

    lesson_progress q;
    EXPECT(lesson_progress_load(&q, path, msg, sizeof msg) == LESSON_PROGRESS_OK, "load: %s", msg);
    EXPECT(q.ndone == 2 && lesson_progress_done(&q, "prim-sendrecv") &&
              lesson_progress_done(&q, "cost-busbw") &&
              !lesson_progress_done(&q, "algo-ring-allreduce"),
          "done list");
    const lesson_progress_quiz *pq = lesson_progress_find_quiz(&q, "prim-sendrecv/who-uses-p2p");
    EXPECT(pq && pq->tries == 2 && pq->right == 1 && !pq->last, "quiz score");
    pq = lesson_progress_find_quiz(&q, "algo-ring-allreduce/gpt3-allreduce-time");
    EXPECT(pq && pq->tries == 1 && pq->right == 1 && pq->last, "quiz score 2");
    EXPECT(q.current_lesson && strcmp(q.current_lesson, "algo-ring-allreduce") == 0 &&
              q.current_beat == 4,
          "current");
    EXPECT(strcmp(q.lang, "zh") == 0 && strcmp(q.theme, "dark") == 0, "lang, theme");
    EXPECT(q.drill.runs == 2 && q.drill.best == 7 && q.drill.last_right == 5 &&
              q.drill.last_asked == 9 && q.drill.last_time == 1700000100,
          "drill");
    lesson_progress_destroy(&q);
    EXPECT(count_files(dir, "") >= 1, "dir");
}

static void test_corrupt(const char *text, const char *why)
{
    char path[1024], msg[1024];
    snprintf(path, sizeof path, "%s/corrupt/progress.json", dir);
    char sub[1024];
    snprintf(sub, sizeof sub, "%s/corrupt", dir);
    clean_dir(sub);
    mkdir(sub, 0755);
    write_file(path, text);
    lesson_progress p;
    EXPECT(lesson_progress_load(&p, path, msg, sizeof msg) == LESSON_PROGRESS_RECOVERED, "%s", why);
    EXPECT(strstr(msg, path) && strstr(msg, ".corrupt-") && strstr(msg, why), "message: %s", msg);
    EXPECT(access(path, F_OK) != 0, "the bad file is moved, not left in the way");
    EXPECT(count_files(sub, "progress.json.corrupt-") == 1, "set aside once");
    /* the copy set aside is the original, byte for byte */
    DIR *dd = opendir(sub);
    struct dirent *e;
    while (dd && (e = readdir(dd)) != NULL) {
        if (strncmp(e->d_name, "progress.json.corrupt-", 22) != 0)
            continue;
        char p2[1400], got[256] = "";
        snprintf(p2, sizeof p2, "%s/%s", sub, e->d_name);
        FILE *f = fopen(p2, "rb");
        size_t n = fread(got, 1, sizeof got - 1, f);
        fclose(f);
        got[n] = '\0';
        EXPECT(strcmp(got, text) == 0, "kept verbatim");
    }
    if (dd)
        closedir(dd);
    EXPECT(p.ndone == 0 && !p.current_lesson, "defaults after recovery");
    /* a second corrupt file in the same second does not overwrite the first */
    write_file(path, text);
    lesson_progress_destroy(&p);
    EXPECT(lesson_progress_load(&p, path, msg, sizeof msg) == LESSON_PROGRESS_RECOVERED, "again");
    EXPECT(count_files(sub, "progress.json.corrupt-") == 2, "two copies");
    lesson_progress_destroy(&p);
}

static void test_paths(void)
{
    char out[1024];
    setenv("XDG_DATA_HOME", "/data/home", 1);
    EXPECT(lesson_progress_default_path(out, sizeof out) &&
              strcmp(out, "/data/home/collviz/progress.json") == 0,
          "%s", out);
    setenv("XDG_DATA_HOME", "relative/path", 1); /* invalid per the spec: ignored */
    setenv("HOME", "/home/learner", 1);
    EXPECT(lesson_progress_default_path(out, sizeof out) &&
              strcmp(out, "/home/learner/.local/share/collviz/progress.json") == 0,
          "%s", out);
    unsetenv("XDG_DATA_HOME");
    EXPECT(lesson_progress_default_path(out, sizeof out) &&
              strcmp(out, "/home/learner/.local/share/collviz/progress.json") == 0,
          "%s", out);
    unsetenv("HOME");
    EXPECT(!lesson_progress_default_path(out, sizeof out), "no home at all");
}

/* Two distinguishable versions, large enough that a save takes a while. */
static void fill(lesson_progress *p, int version)
{
    lesson_progress_init(p);
    int n = version == 0 ? 600 : 900;
    for (int i = 0; i < n; i++) {
        char key[64];
        snprintf(key, sizeof key, "lesson-%d/quiz-%d", i / 10, i % 10);
        lesson_progress_record_quiz(p, key, (i + version) % 3 == 0);
    }
    lesson_progress_set_current(p, version == 0 ? "version-a" : "version-b", version);
}

static void test_kill_during_save(void)
{
    char path[1024], msg[1024];
    snprintf(path, sizeof path, "%s/kill/progress.json", dir);
    lesson_progress a;
    fill(&a, 0);
    EXPECT(lesson_progress_save(&a, path, msg, sizeof msg) == LESSON_PROGRESS_OK, "%s", msg);
    lesson_progress_destroy(&a);
    srand((unsigned)time(NULL));
    int rounds = 40, saw_b = 0, torn = 0;
    char sub[1024];
    snprintf(sub, sizeof sub, "%s/kill", dir);
    for (int round = 0; round < rounds; round++) {
        int ready[2];
        EXPECT(pipe(ready) == 0, "pipe");
        pid_t pid = fork();
        if (pid == 0) {
            lesson_progress v[2];
            fill(&v[0], 0);
            fill(&v[1], 1);
            /* start the clock only once the child is saving */
            if (write(ready[1], "r", 1) != 1)
                _exit(4);
            for (int i = 0;; i++) {
                char m[256];
                if (lesson_progress_save(&v[i % 2], path, m, sizeof m) != LESSON_PROGRESS_OK)
                    _exit(3);
            }
        }
        EXPECT(pid > 0, "fork");
        char byte;
        EXPECT(read(ready[0], &byte, 1) == 1, "the child is ready");
        close(ready[0]);
        close(ready[1]);
        struct timespec ts = {0, (long)(rand() % 60000 + 1) * 1000L};
        nanosleep(&ts, NULL);
        kill(pid, SIGKILL);
        int status = 0;
        waitpid(pid, &status, 0);
        EXPECT(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "the child was killed mid-loop");
        torn += count_files(sub, "progress.json.tmp-") > 0;

        lesson_progress p;
        lesson_progress_status st = lesson_progress_load(&p, path, msg, sizeof msg);
        EXPECT(st == LESSON_PROGRESS_OK, "round %d: %d %s", round, (int)st, msg);
        bool is_a = p.current_lesson && strcmp(p.current_lesson, "version-a") == 0 &&
                    p.nquizzes == 600;
        bool is_b = p.current_lesson && strcmp(p.current_lesson, "version-b") == 0 &&
                    p.nquizzes == 900;
        EXPECT(is_a || is_b, "round %d: a whole version (%d quizzes)", round, p.nquizzes);
        saw_b += is_b;
        lesson_progress_destroy(&p);
    }

    /* Which moment a kill hits is up to timing; say what this run covered. */
    printf("test_progress: %d kills: %d in the middle of writing a temporary file, %d left "
           "the second version on disk\n",
           rounds, torn, saw_b);
    EXPECT(torn + saw_b > 0, "no kill landed after the child's first save began");

    /* killed children leave temporary files; the next save clears them */
    lesson_progress p;
    lesson_progress_init(&p);
    EXPECT(lesson_progress_save(&p, path, msg, sizeof msg) == LESSON_PROGRESS_OK, "%s", msg);
    EXPECT(count_files(sub, "progress.json.tmp-") == 0, "stale temporary files removed");
    EXPECT(count_files(sub, "progress.json.corrupt-") == 0, "nothing was ever corrupt");
    lesson_progress_destroy(&p);
}

static void test_unwritable(void)
{
    char msg[1024];
    lesson_progress p;
    lesson_progress_init(&p);
    /* a path under a regular file cannot be created */
    char file[1024], path[1100];
    snprintf(file, sizeof file, "%s/plain-file", dir);
    write_file(file, "x");
    snprintf(path, sizeof path, "%s/progress.json", file);
    EXPECT(lesson_progress_save(&p, path, msg, sizeof msg) == LESSON_PROGRESS_EIO && msg[0], "EIO: %s", msg);
    lesson_progress_destroy(&p);
}

/* A file just under the size limit, of half a million "done" ids with
 * duplicates among them, and as many quizzes: each id once, the later copy
 * of a quiz key counts. Loading took minutes (a search and a realloc per
 * id); it is linear now, so this finishes within the test's time. */
static void test_large_file(void)
{
    char path[1024], msg[1024];
    snprintf(path, sizeof path, "%s/large.json", dir);
    FILE *f = fopen(path, "wb");
    fputs("{\"format\":1,\"done\":[", f);
    int n = 400000;
    for (int i = 0; i < n; i++)
        fprintf(f, "%s\"%x\"", i ? "," : "", i % (n - 1000)); /* the last 1000 repeat */
    fputs("],\"quizzes\":{", f);
    for (int i = 0; i < 10000; i++)
        fprintf(f, "%s\"q%d\":{\"tries\":%d,\"right\":0}", i ? "," : "", i % 8000, i);
    fputs("}}", f);
    long size = ftell(f);
    fclose(f);
    EXPECT(size < LESSON_PROGRESS_MAX_BYTES, "the file is %ld bytes, under the limit", size);
    lesson_progress p;
    EXPECT(lesson_progress_load(&p, path, msg, sizeof msg) == LESSON_PROGRESS_OK, "large: %s", msg);
    EXPECT(p.ndone == n - 1000, "%d done ids, want %d", p.ndone, n - 1000);
    EXPECT(p.nquizzes == 8000, "%d quizzes, want 8000", p.nquizzes);
    const lesson_progress_quiz *q = lesson_progress_find_quiz(&p, "q7");
    EXPECT(q && q->tries == 8007, "the later q7 counts: %d", q ? q->tries : -1);
    EXPECT(lesson_progress_done(&p, "61697") && !lesson_progress_done(&p, "61698"), "ids");
    lesson_progress_destroy(&p);
}

/* Reads a whole file into a malloc'd buffer; its size in *len. */
static char *slurp(const char *path, long *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    *len = ftell(f);
    rewind(f);
    char *buf = malloc((size_t)*len + 1);
    if (buf && fread(buf, 1, (size_t)*len, f) != (size_t)*len) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    return buf;
}

/* A compact file just under the limit that loads must load again after
 * collviz saves it (indented, 531k ids grew from 3.72 MB to 4.25 MB and
 * the next load set the file aside as too large). A save that would go
 * over the limit leaves the file as it was and says so. */
static void test_near_limit(void)
{
    char path[1024], msg[1024];
    snprintf(path, sizeof path, "%s/near.json", dir);
    FILE *f = fopen(path, "wb");
    fputs("{\"format\":1,\"lang\":\"en\",\"theme\":\"dark\",\"done\":[", f);
    int n = 0;
    for (; ftell(f) < LESSON_PROGRESS_MAX_BYTES - 400; n++)
        fprintf(f, "%s\"%x\"", n ? "," : "", n);
    fputs("]}", f);
    fclose(f);
    lesson_progress p;
    EXPECT(lesson_progress_load(&p, path, msg, sizeof msg) == LESSON_PROGRESS_OK && p.ndone == n,
           "near the limit, %d ids: %s", n, msg);
    EXPECT(lesson_progress_save(&p, path, msg, sizeof msg) == LESSON_PROGRESS_OK, "save near the limit: %s", msg);
    lesson_progress_destroy(&p);
    long size = 0;
    free(slurp(path, &size));
    EXPECT(size <= LESSON_PROGRESS_MAX_BYTES, "saved %ld bytes, over the limit %d", size, LESSON_PROGRESS_MAX_BYTES);
    EXPECT(lesson_progress_load(&p, path, msg, sizeof msg) == LESSON_PROGRESS_OK && p.ndone == n,
           "reloaded after a save: %d of %d ids: %s", p.ndone, n, msg);
    EXPECT(count_files(dir, "near.json.corrupt") == 0, "the saved file was set aside");

    /* One more id of 500 bytes does not fit: nothing is written. */
    long before_len = 0;
    char *before = slurp(path, &before_len);
    char big[501];
    memset(big, 'z', 500);
    big[500] = '\0';
    lesson_progress_set_done(&p, big, true);
    EXPECT(lesson_progress_save(&p, path, msg, sizeof msg) == LESSON_PROGRESS_EIO && strstr(msg, "not saved") &&
               strstr(msg, "over the limit"),
           "a save over the limit: %s", msg);
    lesson_progress_destroy(&p);
    long after_len = 0;
    char *after = slurp(path, &after_len);
    EXPECT(before && after && before_len == after_len && memcmp(before, after, (size_t)after_len) == 0,
           "the file changed on a save over the limit (%ld -> %ld bytes)", before_len, after_len);
    free(before);
    free(after);
    EXPECT(count_files(dir, "near.json.tmp") == 0, "a temporary file was left");
    EXPECT(lesson_progress_load(&p, path, msg, sizeof msg) == LESSON_PROGRESS_OK && p.ndone == n,
           "after a refused save: %d of %d ids: %s", p.ndone, n, msg);
    lesson_progress_destroy(&p);
}

static void add_run(lesson_progress *p, bool from_file, void *user)
{
    (void)from_file;
    lesson_progress_record_drill(p, 1, 1, 0);
    lesson_progress_record_quiz(p, (const char *)user, true);
}

/* Two processes updating at once: every update of both is in the file
 * (saving a snapshot read earlier lost about one in ten). */
static void test_concurrent_updates(void)
{
    char path[1024], msg[1024];
    snprintf(path, sizeof path, "%s/race/progress.json", dir);
    pid_t kids[2];
    for (int k = 0; k < 2; k++) {
        kids[k] = fork();
        if (kids[k] == 0) {
            for (int i = 0; i < 100; i++) {
                char m[256];
                if (lesson_progress_update(path, add_run, k ? "lesson/b" : "lesson/a", NULL, m,
                                    sizeof m) != LESSON_PROGRESS_OK && !(i == 0 && m[0] == 0))
                    _exit(3);
            }
            _exit(0);
        }
    }
    for (int k = 0; k < 2; k++) {
        int status = 0;
        waitpid(kids[k], &status, 0);
        EXPECT(WIFEXITED(status) && WEXITSTATUS(status) == 0, "updater %d: status %d", k, status);
    }
    lesson_progress p;
    EXPECT(lesson_progress_load(&p, path, msg, sizeof msg) == LESSON_PROGRESS_OK, "%s", msg);
    const lesson_progress_quiz *a = lesson_progress_find_quiz(&p, "lesson/a"), *b = lesson_progress_find_quiz(&p, "lesson/b");
    EXPECT(p.drill.runs == 200 && a && a->tries == 100 && b && b->tries == 100,
           "after 2 x 100 updates at once: runs=%d, a=%d, b=%d", p.drill.runs, a ? a->tries : -1,
           b ? b->tries : -1);
    lesson_progress_destroy(&p);
}

/* A progress file that cannot be read is never written over: a directory
 * in its place (a reason given), and, when not root, one without read
 * permission. */
static void test_unreadable(void)
{
    char path[1024], msg[1024];
    snprintf(path, sizeof path, "%s/isdir/progress.json", dir);
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "mkdir -p %s/inside", path);
    EXPECT(system(cmd) == 0, "mkdir");
    lesson_progress p;
    EXPECT(lesson_progress_load(&p, path, msg, sizeof msg) == LESSON_PROGRESS_EIO && strstr(msg, "directory"),
           "a directory: %s", msg);
    lesson_progress_destroy(&p);
    EXPECT(lesson_progress_update(path, add_run, "x/y", NULL, msg, sizeof msg) == LESSON_PROGRESS_EIO &&
               strstr(msg, "not saved"),
           "update over a directory: %s", msg);
    struct stat st;
    snprintf(cmd, sizeof cmd, "%s/inside", path);
    EXPECT(stat(cmd, &st) == 0 && S_ISDIR(st.st_mode), "the directory is left alone");
    if (geteuid() != 0) {
        snprintf(path, sizeof path, "%s/noread.json", dir);
        write_file(path, "{\"format\":1,\"done\":[\"kept\"]}");
        chmod(path, 0);
        EXPECT(lesson_progress_update(path, add_run, "x/y", NULL, msg, sizeof msg) == LESSON_PROGRESS_EIO,
               "unreadable: %s", msg);
        chmod(path, 0644);
        EXPECT(lesson_progress_load(&p, path, msg, sizeof msg) == LESSON_PROGRESS_OK &&
                   lesson_progress_done(&p, "kept") && p.drill.runs == 0,
               "the unreadable file is as it was");
        lesson_progress_destroy(&p);
    }
}

/* A progress.json that is a link the user made (to keep it with their
 * dotfiles) is written through: the link stays, its file gets the save. */
static void test_symlink(void)
{
    char sub[1024], path[1100], target[1100], link_to[1100], msg[1024];
    snprintf(sub, sizeof sub, "%s/link", dir);
    clean_dir(sub);
    mkdir(sub, 0755);
    snprintf(path, sizeof path, "%s/progress.json", sub);
    snprintf(target, sizeof target, "%s/kept-elsewhere.json", sub);
    lesson_progress p;
    fill(&p, 0);
    EXPECT(lesson_progress_save(&p, target, msg, sizeof msg) == LESSON_PROGRESS_OK, "%s", msg);
    lesson_progress_destroy(&p);
    EXPECT(symlink("kept-elsewhere.json", path) == 0, "symlink");
    fill(&p, 1);
    EXPECT(lesson_progress_save(&p, path, msg, sizeof msg) == LESSON_PROGRESS_OK, "%s", msg);
    lesson_progress_destroy(&p);
    struct stat st;
    EXPECT(lstat(path, &st) == 0 && S_ISLNK(st.st_mode), "the link is still a link");
    ssize_t n = readlink(path, link_to, sizeof link_to - 1);
    link_to[n > 0 ? n : 0] = '\0';
    EXPECT(strcmp(link_to, "kept-elsewhere.json") == 0, "pointing where it did: %s", link_to);
    EXPECT(lesson_progress_load(&p, target, msg, sizeof msg) == LESSON_PROGRESS_OK &&
               p.current_lesson && strcmp(p.current_lesson, "version-b") == 0,
           "the link's file holds the save");
    lesson_progress_destroy(&p);
    EXPECT(count_files(sub, "") == 4, "no temporary left (., .., the link, its file)");
}

/* A temporary name taken in advance (a file, or a link to someone's file)
 * is never opened: the writer makes a fresh name with O_EXCL. */
static void test_temp_taken(void)
{
    char sub[1024], path[1100], tmp[1200], victim[1100], other[1200], msg[1024];
    snprintf(sub, sizeof sub, "%s/taken", dir);
    clean_dir(sub);
    mkdir(sub, 0755);
    snprintf(path, sizeof path, "%s/progress.json", sub);
    snprintf(victim, sizeof victim, "%s/victim.txt", sub);
    write_file(victim, "precious\n");
    snprintf(tmp, sizeof tmp, "%s.tmp-%ld", path, (long)getpid());
    EXPECT(symlink(victim, tmp) == 0, "a link at the old temporary's name");
    snprintf(other, sizeof other, "%s.tmp", path);
    write_file(other, "a user's own file\n");
    lesson_progress p;
    fill(&p, 0);
    EXPECT(lesson_progress_save(&p, path, msg, sizeof msg) == LESSON_PROGRESS_OK, "%s", msg);
    lesson_progress_destroy(&p);
    char got[64] = "";
    FILE *f = fopen(victim, "rb");
    size_t n = f ? fread(got, 1, sizeof got - 1, f) : 0;
    if (f)
        fclose(f);
    got[n] = '\0';
    EXPECT(strcmp(got, "precious\n") == 0, "the link's target is untouched: %s", got);
    f = fopen(other, "rb");
    n = f ? fread(got, 1, sizeof got - 1, f) : 0;
    if (f)
        fclose(f);
    got[n] = '\0';
    EXPECT(strcmp(got, "a user's own file\n") == 0, "PATH.tmp is untouched: %s", got);
}

/* A file from a later collviz is not corrupt: kept as it is, never set
 * aside or written over, and the message says why. */
static void test_newer_format(void)
{
    char sub[1024], path[1100], msg[1024];
    snprintf(sub, sizeof sub, "%s/newer", dir);
    clean_dir(sub);
    mkdir(sub, 0755);
    snprintf(path, sizeof path, "%s/progress.json", sub);
    const char *text = "{\"format\": 99, \"lang\": \"en\", \"theme\": \"dark\", \"new\": [1]}\n";
    write_file(path, text);
    lesson_progress p;
    EXPECT(lesson_progress_load(&p, path, msg, sizeof msg) == LESSON_PROGRESS_EIO, "refused");
    EXPECT(strstr(msg, "newer collviz") && strstr(msg, "99") && strstr(msg, "kept"), "%s", msg);
    lesson_progress_destroy(&p);
    EXPECT(lesson_progress_update(path, add_run, "x/y", NULL, msg, sizeof msg) ==
               LESSON_PROGRESS_EIO,
           "an update does not write over it");
    char got[256] = "";
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(got, 1, sizeof got - 1, f) : 0;
    if (f)
        fclose(f);
    got[n] = '\0';
    EXPECT(strcmp(got, text) == 0, "kept byte for byte");
    EXPECT(count_files(sub, "progress.json.corrupt-") == 0, "not set aside");
}

/* However many bad files are set aside in one second, none overwrites an
 * earlier copy (the 101st once wrote over "-99"). */
static void test_set_aside_many(void)
{
    char sub[1024], path[1100], msg[1024], text[64];
    snprintf(sub, sizeof sub, "%s/many", dir);
    clean_dir(sub);
    mkdir(sub, 0755);
    snprintf(path, sizeof path, "%s/progress.json", sub);
    int n = 130;
    for (int i = 0; i < n; i++) {
        snprintf(text, sizeof text, "not json %d", i);
        write_file(path, text);
        lesson_progress p;
        EXPECT(lesson_progress_load(&p, path, msg, sizeof msg) == LESSON_PROGRESS_RECOVERED,
               "%d: %s", i, msg);
        lesson_progress_destroy(&p);
    }
    EXPECT(count_files(sub, "progress.json.corrupt-") == n, "%d copies, one for each",
           count_files(sub, "progress.json.corrupt-"));
}

static void corrupt_syntax(void)
{
    test_corrupt("{\"format\": 1, \"done\": [\"a\", ", "not valid JSON");
}
static void corrupt_done(void)
{
    test_corrupt("{\"format\": 1, \"done\": 42}", "not a valid progress file");
}
static void corrupt_array(void) { test_corrupt("[]", "not a valid progress file"); }

static const test_case cases[] = {
    CASE("round-trip", test_round_trip),
    CASE("corrupt/syntax", corrupt_syntax),
    CASE("corrupt/done", corrupt_done),
    CASE("corrupt/array", corrupt_array),
    CASE("kill-during-save", test_kill_during_save),
    CASE("unwritable", test_unwritable),
    CASE("large-file", test_large_file),
    CASE("near-limit", test_near_limit),
    CASE("concurrent-updates", test_concurrent_updates),
    CASE("unreadable", test_unreadable),
    CASE("paths", test_paths),
    CASE("symlink", test_symlink),
    CASE("temp-taken", test_temp_taken),
    CASE("newer-format", test_newer_format),
    CASE("set-aside-many", test_set_aside_many),
};

int main(int argc, char **argv)
{
    cases_args(argc, argv, cases, CASES_COUNT(cases));
    make_dir(); /* one folder a process: the cases may run side by side */
    cases_run();
    clean_dir(dir);
    return cases_end();
}

/*
 * web_main.c: collviz's entry point in the browser (the Emscripten build
 * that scripts/web.sh makes), in place of main.c.
 *
 * The page's address says what to open, as the command line does on the
 * desktop: `?lesson=algo-ring-allreduce&step=3` is `collviz lesson
 * algo-ring-allreduce --step 3`, `?op=allreduce&algo=tree&ranks=8` is
 * `collviz gui --op allreduce --algo tree --ranks 8`, `&theme=projector`
 * and `&lang=zh` go with either, and no parameter opens the course where
 * the learner left it. A file dropped on the page arrives as
 * `?nccl-log=NAME` (an NCCL log, set up on the stage) or `?show=NAME` (a
 * `collviz bench --json` result, as show's chart) or `?trace=NAME` (a run
 * recorded by `collviz run --trace-out`, replayed on the stage), NAME a
 * file the page stored under /persist/dropped.
 * `?drill&time=600&count=10` is the interview drill, in a text panel.
 * A link the program refuses is one line on the page, and the course opens
 * instead: never a blank canvas.
 *
 * The program's data (lessons/, assets/, and the cost model's answers the
 * lessons state, so the course opens without computing them) is packed
 * into the page's data file at /collviz; progress lives under /persist, a folder the page keeps
 * in the browser's IndexedDB (web.js), written atomically as on the
 * desktop and copied there after each save through cli_file_written. A
 * screenshot (S) is offered as a download the same way. The window's loop
 * is gui_frame, called by the browser once per display frame (web_loop.c).
 */
#include <emscripten.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../compose.h"
#include "cli.h"
#include "gui_cmds.h"
#include "web.h"

/* The query string's parameters as "key\tvalue\n" lines, decoded (the
 * caller frees). No backslash escapes inside EM_JS: Emscripten 3.1.6
 * passes them on raw and then cannot read its own metadata. */
EM_JS(char *, web_query_lines, (void), {
    var tab = String.fromCharCode(9), nl = String.fromCharCode(10);
    var out = "";
    new URLSearchParams(location.search).forEach(function(v, k) {
        out += k.split(tab).join(" ").split(nl).join(" ") + tab +
               v.split(tab).join(" ").split(nl).join(" ") + nl;
    });
    var n = lengthBytesUTF8(out) + 1;
    var p = _malloc(n);
    stringToUTF8(out, p, n);
    return p;
});

EM_JS(void, web_say, (const char *line), {
    if (Module.collvizSay)
        Module.collvizSay(UTF8ToString(line));
});

EM_JS(void, web_js_drill, (int zh, int seconds, int count), {
    if (Module.collvizDrill)
        Module.collvizDrill(zh, seconds, count);
});

EM_JS(void, web_js_file_written, (const char *path, int user), {
    if (Module.collvizFileWritten)
        Module.collvizFileWritten(UTF8ToString(path), user);
});

static void file_written(const char *path, cli_file_kind kind)
{
    web_js_file_written(path, kind == CLI_FILE_USER);
}

/* The link's parameters, in the order the command line takes them. */
static const char *const stage_keys[] = {
    "op", "algo", "ranks", "count", "dtype", "redop", "root", "slices", "nodes", "compare",
    "link", "init", "seed", "theme", "lang", NULL};
static const char *const lesson_keys[] = {"theme", "lang", NULL};

static bool listed(const char *const *keys, const char *k)
{
    for (; *keys; keys++)
        if (strcmp(*keys, k) == 0)
            return true;
    return false;
}

#define WEB_MAX_ARGS 64

typedef struct {
    char *argv[WEB_MAX_ARGS + 1];
    int argc;
    char store[8192];
    size_t used;
} web_args;

static void add(web_args *a, const char *s)
{
    size_t n = strlen(s) + 1;
    if (a->argc >= WEB_MAX_ARGS || a->used + n > sizeof a->store)
        return;
    memcpy(a->store + a->used, s, n);
    a->argv[a->argc++] = a->store + a->used;
    a->used += n;
    a->argv[a->argc] = NULL;
}

/* A dropped file's name as the page stored it: a plain name, nothing that
 * climbs out of the folder. */
static bool plain_name(const char *s)
{
    if (!*s || strlen(s) > 200 || strcmp(s, ".") == 0 || strcmp(s, "..") == 0)
        return false;
    for (; *s; s++)
        if (*s == '/' || *s == '\\')
            return false;
    return true;
}

static bool drill_key(const char *k)
{
    return strcmp(k, "time") == 0 || strcmp(k, "count") == 0;
}

/* `?drill[&time=S][&count=N][&lang=zh]`: `collviz drill`'s flags, checked
 * as it checks them, for the page's drill panel (web_drill.c). */
static bool drill_args(char **keys, char **vals, int n, web_args *a, char *why, size_t whylen)
{
    add(a, "drill");
    for (int i = 0; i < n; i++) {
        if (strcmp(keys[i], "drill") == 0)
            continue;
        if (!drill_key(keys[i]) && strcmp(keys[i], "lang") != 0) {
            snprintf(why, whylen, "the drill's link takes time, count and lang, not '%s'",
                     keys[i]);
            return false;
        }
        char *end = NULL;
        long v = strtol(vals[i], &end, 10);
        bool number = end && end != vals[i] && *end == '\0';
        if (strcmp(keys[i], "time") == 0 && (!number || v < 0 || v > 86400)) {
            snprintf(why, whylen, "the link's time=%s is not seconds from 0 (no clock) to 86400",
                     vals[i]);
            return false;
        }
        if (strcmp(keys[i], "count") == 0 && (!number || v < 1 || v > 100000)) {
            snprintf(why, whylen, "the link's count=%s is not a number of questions from 1",
                     vals[i]);
            return false;
        }
        if (strcmp(keys[i], "lang") == 0 && strcmp(vals[i], "en") && strcmp(vals[i], "zh")) {
            snprintf(why, whylen, "the link's lang=%s is not one of en, zh", vals[i]);
            return false;
        }
        char flag[32];
        snprintf(flag, sizeof flag, "--%s", keys[i]);
        add(a, flag);
        add(a, vals[i]);
    }
    return true;
}

/* argv for the link, or false with why (one line) when it names what the
 * browser cannot open. */
static bool link_to_args(char *lines, web_args *a, char *why, size_t whylen)
{
    char *lesson = NULL, *step = NULL, *ncclog = NULL, *show = NULL, *trace = NULL;
    bool drill = false;
    char *keys[32], *vals[32];
    int n = 0;
    for (char *line = strtok(lines, "\n"); line && n < 32; line = strtok(NULL, "\n")) {
        char *tab = strchr(line, '\t');
        if (!tab)
            continue;
        *tab = '\0';
        keys[n] = line;
        vals[n++] = tab + 1;
    }
    for (int i = 0; i < n; i++)
        drill = drill || strcmp(keys[i], "drill") == 0;
    for (int i = 0; i < n; i++) {
        if (strcmp(keys[i], "lesson") == 0)
            lesson = vals[i];
        else if (strcmp(keys[i], "step") == 0)
            step = vals[i];
        else if (strcmp(keys[i], "nccl-log") == 0)
            ncclog = vals[i];
        else if (strcmp(keys[i], "show") == 0)
            show = vals[i];
        else if (strcmp(keys[i], "trace") == 0)
            trace = vals[i];
        else if (drill)
            continue; /* drill_args checks its own */
        else if (!listed(stage_keys, keys[i]) && strcmp(keys[i], "comm") != 0 &&
                 strcmp(keys[i], "channel") != 0) {
            snprintf(why, whylen,
                     "the link's parameter '%s' is not one collviz knows; allowed: lesson, step, "
                     "op, algo, ranks, count, dtype, redop, root, slices, nodes, compare, link, "
                     "init, seed, theme, lang; or drill, with time, count and lang",
                     keys[i]);
            return false;
        }
    }
    add(a, "collviz");
    if (drill)
        return drill_args(keys, vals, n, a, why, whylen);
    if (show) {
        if (!plain_name(show)) {
            snprintf(why, whylen, "the link's show=%s is not a file name", show);
            return false;
        }
        char path[300];
        snprintf(path, sizeof path, "%s/%s", WEB_DROPPED_DIR, show);
        add(a, "show");
        add(a, path);
        for (int i = 0; i < n; i++)
            if (strcmp(keys[i], "theme") == 0 || strcmp(keys[i], "link") == 0) {
                char flag[64];
                snprintf(flag, sizeof flag, "--%s", keys[i]);
                add(a, flag);
                add(a, vals[i]);
            }
        return true;
    }
    if (trace) { /* a run recorded elsewhere, replayed with its times */
        if (!plain_name(trace)) {
            snprintf(why, whylen, "the link's trace=%s is not a file name", trace);
            return false;
        }
        char path[300];
        snprintf(path, sizeof path, "%s/%s", WEB_DROPPED_DIR, trace);
        add(a, "gui");
        add(a, "--trace");
        add(a, path);
        /* The trace is the run; the link may add the view and a second
         * algorithm (a setup flag beside it is refused, as on the desktop). */
        for (int i = 0; i < n; i++)
            if (listed(stage_keys, keys[i])) {
                char flag[64];
                snprintf(flag, sizeof flag, "--%s", keys[i]);
                add(a, flag);
                add(a, vals[i]);
            }
        return true;
    }
    if (lesson) {
        add(a, "lesson");
        add(a, lesson);
        if (step) {
            add(a, "--step");
            add(a, step);
        }
        for (int i = 0; i < n; i++)
            if (listed(lesson_keys, keys[i])) {
                char flag[64];
                snprintf(flag, sizeof flag, "--%s", keys[i]);
                add(a, flag);
                add(a, vals[i]);
            }
        return true;
    }
    if (step) {
        snprintf(why, whylen, "the link's step=%s needs a lesson=ID beside it", step);
        return false;
    }
    add(a, "gui");
    if (ncclog) {
        if (!plain_name(ncclog)) {
            snprintf(why, whylen, "the link's nccl-log=%s is not a file name", ncclog);
            return false;
        }
        char path[300];
        snprintf(path, sizeof path, "%s/%s", WEB_DROPPED_DIR, ncclog);
        add(a, "--nccl-log");
        add(a, path);
    }
    for (int i = 0; i < n; i++)
        if (listed(stage_keys, keys[i]) || strcmp(keys[i], "comm") == 0 ||
            strcmp(keys[i], "channel") == 0) {
            char flag[64];
            snprintf(flag, sizeof flag, "--%s", keys[i]);
            add(a, flag);
            add(a, vals[i]);
        }
    return true;
}

/* The drill is the page's text panel, not the window: it starts there
 * (web.js), with the link's clock, count and language. */
static int open_drill(int argc, char **argv)
{
    long seconds = 600, count = 0;
    int zh = 0;
    for (int i = 2; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--time") == 0)
            seconds = strtol(argv[i + 1], NULL, 10);
        else if (strcmp(argv[i], "--count") == 0)
            count = strtol(argv[i + 1], NULL, 10);
        else if (strcmp(argv[i], "--lang") == 0)
            zh = strcmp(argv[i + 1], "zh") == 0;
    }
    web_js_drill(zh, (int)seconds, (int)count);
    return 0;
}

static int run(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "drill") == 0)
        return open_drill(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "lesson") == 0)
        return compose_cmd_lesson(argc - 1, argv + 1);
    if (argc >= 2 && strcmp(argv[1], "show") == 0)
        return gui_cmd_show(argc - 1, argv + 1);
    return gui_cmd_gui(argc - 1, argv + 1);
}

int main(void)
{
    setenv("COLLVIZ_LESSONS_DIR", WEB_DATA_DIR "/lessons", 1);
    setenv("COLLVIZ_ASSETS_DIR", WEB_DATA_DIR "/assets", 1);
    setenv("XDG_DATA_HOME", WEB_PERSIST_DIR, 1);
    setenv("COLLVIZ_MODEL_CACHE", WEB_DATA_DIR "/model-cache.json", 1);
    setenv("SDL_VIDEODRIVER", "emscripten", 1);
    cli_file_written = file_written;

    char *lines = web_query_lines();
    web_args a = {.argc = 0, .used = 0};
    char why[512] = "";
    bool ok = link_to_args(lines, &a, why, sizeof why);
    free(lines);
    if (!ok) {
        web_say(why);
        a.argc = 0;
        a.used = 0;
        add(&a, "collviz");
        add(&a, "gui");
    }
    /* A command that opens the window never returns here (the browser
     * runs its loop), and the drill returns 0 with its panel open; one
     * that returns an error refused the link, and said why on stderr,
     * which the page shows: open the course instead. */
    int rc = run(a.argc, a.argv);
    if (rc != 0 && a.argc > 2) {
        web_args plain = {.argc = 0, .used = 0};
        add(&plain, "collviz");
        add(&plain, "gui");
        rc = run(plain.argc, plain.argv);
    }
    if (rc != 0)
        web_say("collviz could not open its window in this browser (see the console)");
    return rc;
}

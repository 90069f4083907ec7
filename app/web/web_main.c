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
 * instead: never a blank canvas. The link's keys are the spec-field
 * table's (cli_fields), turned into argv by web_link.c.
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
    bool ok = web_link_to_args(lines, &a, why, sizeof why);
    free(lines);
    if (!ok) {
        web_say(why);
        a.argc = 0;
        a.used = 0;
        web_args_add(&a, "collviz");
        web_args_add(&a, "gui");
    }
    /* A command that opens the window never returns here (the browser
     * runs its loop), and the drill returns 0 with its panel open; one
     * that returns an error refused the link, and said why on stderr,
     * which the page shows: open the course instead. */
    int rc = run(a.argc, a.argv);
    if (rc != 0 && a.argc > 2) {
        web_args plain = {.argc = 0, .used = 0};
        web_args_add(&plain, "collviz");
        web_args_add(&plain, "gui");
        rc = run(plain.argc, plain.argv);
    }
    if (rc != 0)
        web_say("collviz could not open its window in this browser (see the console)");
    return rc;
}

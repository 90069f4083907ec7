/*
 * web_export.c: what the page's bar and a finger do to the stage.
 *
 * "export GIF" runs `collviz export` on the stage as it is set up now (the
 * op, algorithms, ranks, count, dtype, inputs, theme and language, an NCCL
 * log's cluster too) into the page's memory, and offers the GIF for
 * download as a screenshot is (cli_file_written). The page says "making
 * the GIF" before calling, since the export holds the page for a few
 * seconds. A swipe across the canvas turns the page of a lesson, or steps
 * the free stage, for a tablet without keys.
 */
#include <emscripten.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "gui.h"
#include "gui_cmds.h"
#include "web.h"

#define MAX_ARGS 48

typedef struct {
    char *argv[MAX_ARGS + 1];
    int argc;
    char buf[4096];
    size_t used;
} args;

static void add(args *a, const char *s)
{
    size_t n = strlen(s) + 1;
    if (a->argc >= MAX_ARGS || a->used + n > sizeof a->buf)
        return;
    memcpy(a->buf + a->used, s, n);
    a->argv[a->argc++] = a->buf + a->used;
    a->argv[a->argc] = NULL;
    a->used += n;
}

static void add2(args *a, const char *flag, const char *value)
{
    add(a, flag);
    add(a, value);
}

static void add_int(args *a, const char *flag, long long v)
{
    char s[32];
    snprintf(s, sizeof s, "%lld", v);
    add2(a, flag, s);
}

EMSCRIPTEN_KEEPALIVE int web_export_gif(void)
{
    gui *g = web_gui();
    if (!g)
        return 3; /* the drill or a chart: no stage to export */
    const cv_spec *s = gui_spec(g);
    char path[160], both[96];
    snprintf(path, sizeof path, "/tmp/collviz-%s-%s-%d.gif", cv_op_name(s->op),
             cv_algo_name(s->algo), s->ranks);
    args a = {.argc = 0, .used = 0};
    add(&a, "export");
    add2(&a, "--op", cv_op_name(s->op));
    add2(&a, "--algo", cv_algo_name(s->algo));
    add_int(&a, "--ranks", s->ranks);
    add_int(&a, "--count", s->count);
    add2(&a, "--dtype", cv_dtype_name(s->dtype));
    if (cv_op_reduces(s->op))
        add2(&a, "--redop", cv_redop_name(s->redop));
    if (cv_algo_uses_root(s->op, s->algo))
        add_int(&a, "--root", s->root);
    if (cv_algo_uses_slices(s->op, s->algo))
        add_int(&a, "--slices", s->slices);
    if (s->nodes > 1 && !s->topo)
        add_int(&a, "--nodes", s->nodes);
    int channel = 0;
    const char *log = NULL, *comm = NULL;
    if (s->topo && cli_nccl_log(&channel, &log, &comm) && log) {
        add2(&a, "--nccl-log", log);
        if (comm && *comm)
            add2(&a, "--comm", comm);
        add_int(&a, "--channel", channel);
    }
    if ((unsigned)gui_init(g) < CV_INIT_COUNT)
        add2(&a, "--init", cv_init_name(gui_init(g)));
    add_int(&a, "--seed", (long long)gui_seed(g));
    if (gui_compare(g)) {
        snprintf(both, sizeof both, "%s,%s", cv_algo_name(s->algo),
                 cv_algo_name(gui_compared_algo(g)));
        add2(&a, "--compare", both);
    }
    add2(&a, "--theme", rd_theme_get(gui_theme(g))->name);
    add2(&a, "--lang", gui_lang(g) == CV_LANG_ZH ? "zh" : "en");
    add2(&a, "--size", "960x600");
    add2(&a, "--gif", path);
    int rc = gui_cmd_export(a.argc, a.argv);
    if (rc == CLI_EXIT_OK)
        cli_wrote_file(path, CLI_FILE_USER);
    return rc;
}

/* dir > 0: a swipe to the left (onwards), < 0: to the right (back). */
EMSCRIPTEN_KEEPALIVE void web_swipe(int dir)
{
    gui *g = web_gui();
    if (!g)
        return;
    if (gui_lesson_mode(g))
        gui_do(g, dir > 0 ? RD_ACT_PAGE_NEXT : RD_ACT_PAGE_PREV, 0);
    else
        gui_do(g, dir > 0 ? RD_ACT_FORWARD : RD_ACT_BACK, 0);
    web_redraw();
}

/*
 * web_export.c: what the page's bar and a finger do to the stage.
 *
 * "export GIF" runs `collviz export` on the stage as it is set up now
 * (every spec field the page's link can set, web_link.c) into the page's
 * memory, and offers the GIF for download as a screenshot is
 * (cli_file_written). The page says "making
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

EMSCRIPTEN_KEEPALIVE int web_export_gif(void)
{
    gui *g = web_gui();
    if (!g)
        return 3; /* the drill or a chart: no stage to export */
    const cv_spec *s = gui_spec(g);
    char path[160];
    snprintf(path, sizeof path, "/tmp/collviz-%s-%s-%d.gif", cv_op_name(s->op),
             cv_algo_name(s->algo), s->ranks);
    web_args a = {.argc = 0, .used = 0};
    web_export_args(g, path, &a);
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

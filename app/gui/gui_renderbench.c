/*
 * gui_renderbench.c: `collviz render --bench`: how long a frame takes on the
 * software renderer, headless.
 *
 * Frames follow playback at 1x (or --speed) and 60 frames a second, so
 * chunks are in flight in most frames and the cached static layer is
 * rebuilt whenever a step lands, as in the window; the median shows the
 * steady state, p99 the frames where a step lands, and those frames are
 * also summarised on their own.  The first frame (fonts opened, every
 * string rendered once) is reported separately, with the peak resident
 * memory.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "gui_cmds.h"
#include "gui_internal.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static const char render_help[] =
    "usage: collviz render --bench [--ranks N] [--size WxH] [--frames F]\n"
                 "                      [--op OP] [--algo ALGO] [--count N] [--dtype T]\n"
                 "                      [--redop R] [--root R] [--slices S] [--nodes K]\n"
                 "                      [--theme dark|light|projector] [--lang en|zh]\n"
                 "                      [--speed X] [--proto simple|ll128|ll]\n"
                 "Renders F frames headless with the software renderer and prints the\n"
                 "frame-time median and p99, as during playback at X times normal speed\n"
                 "and 60 fps (defaults: 1920x1080, 300 frames, 16 ranks, 1x).\n";

int gui_cmd_render(int argc, char **argv)
{
    double t0 = cv_now_seconds();
    gui_options o;
    gui_options_init(&o);
    o.headless = true;
    o.width = 1920;
    o.height = 1080;
    o.spec.ranks = 16;
    bool bench = false;
    long frames = 300;
    double speed = 1.0;
    int size[2] = {o.width, o.height};
    o.spec.count = -1; /* not given: the stage picks it from the rank count */
    cli_flag flags[] = {
        CLI_SWITCH("--bench", &bench),
        CLI_SPEC_FLAGS(&o.spec),
        CLI_WXH("--size", size, 8192),
        CLI_LONG("--frames", &frames, 1, 100000),
        CLI_NUMBER("--speed", &speed, 0.01, 1000, "times normal speed"),
        CLI_ENUM("--theme", &o.theme, &gui_themes),
        CLI_ENUM("--lang", &o.lang, &cli_langs),
    };
    cli_cmdline cl = CLI_CMDLINE("render", render_help, flags);
    int code;
    if (!cli_flags_parse(&cl, argc, argv, &code))
        return code;
    o.width = size[0];
    o.height = size[1];
    bool algo_given = cli_flag_given(&cl, "--algo");
    if (!bench)
        return cli_usage_error("render needs --bench (see collviz render --help)");
    if (o.spec.count < 0)
        o.spec.count = gui_default_count(o.spec.op, o.spec.ranks);
    if (!cli_finish_spec(&cl, &o.spec, algo_given, CV_MAX_VISUAL_RANKS))
        return CLI_EXIT_USAGE;
    o.backend = cv_cpu_backend();
    gui *g = NULL;
    char err[CV_ERR_LEN] = "";
    if (gui_create(&o, &g, err, sizeof err) != CV_OK) {
        fprintf(stderr, "collviz: %s\n", err);
        return CLI_EXIT_USAGE;
    }
    if (!gui_trace(g, 0)) {
        fprintf(stderr, "collviz: %s\n", gui_current_message(g) ? gui_current_message(g) : "no trace");
        gui_destroy(g);
        return CLI_EXIT_USAGE;
    }
    double a = cv_now_seconds();
    gui_render(g);
    double first = cv_now_seconds() - a, launch = cv_now_seconds() - t0;
    double *ms = cv_xmalloc(sizeof *ms * (size_t)frames);
    double *landing = cv_xmalloc(sizeof *landing * (size_t)frames);
    int n = gui_nsteps(g);
    g->mouse_x = o.width / 3; /* a hover tooltip, as a user would have */
    g->mouse_y = o.height / 2;
    /* 1.25 s a step at 1x (the window's pace), 60 frames a second,
     * wrapping around at the end. */
    double dt = speed / (1.25 * 60.0), t = 0;
    long nland = 0;
    int shown = -1;
    for (long k = 0; k < frames; k++) {
        gui_seek(g, t);
        int now_shown = (int)(t - RD_ARRIVE + 1); /* the state the frame shows */
        double s = cv_now_seconds();
        gui_render(g);
        ms[k] = (cv_now_seconds() - s) * 1e3;
        if (now_shown != shown && k > 0)
            landing[nland++] = ms[k];
        shown = now_shown;
        t += dt;
        if (t > n)
            t = 0;
    }
    double sum = 0;
    for (long k = 0; k < frames; k++)
        sum += ms[k];
    qsort(ms, (size_t)frames, sizeof *ms, cmp_double);
    long p99 = (long)((frames - 1) * 0.99 + 0.5);
    const cv_spec *s = gui_spec(g);
    printf("render bench: %s %s, %d ranks x %lld %s, %dx%d, %s theme, software renderer\n",
           cv_op_name(s->op), cv_algo_name(s->algo), s->ranks, (long long)s->count,
           cv_dtype_name(s->dtype), o.width, o.height, rd_theme_get(o.theme)->name);
    printf("frames %ld at %gx, 60 fps (%d steps): median %.2f ms  p99 %.2f ms  mean %.2f ms  max %.2f ms\n",
           frames, speed, n, ms[frames / 2], ms[p99], sum / frames, ms[frames - 1]);
    if (nland > 0) {
        qsort(landing, (size_t)nland, sizeof *landing, cmp_double);
        printf("frames where a step lands: %ld, median %.2f ms  max %.2f ms\n", nland,
               landing[nland / 2], landing[nland - 1]);
    }
    printf("first frame %.1f ms (%.1f ms after start, incl. plan and run)  peak RSS %.1f MB\n",
           first * 1e3, launch * 1e3, cli_peak_rss_kb() / 1024.0);
    free(ms);
    free(landing);
    gui_destroy(g);
    return CLI_EXIT_OK;
}

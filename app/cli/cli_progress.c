/*
 * cli_progress.c: a sign of life on the terminal while a long run works.
 *
 * A run of a thousand ranks can take seconds to execute and verify; with
 * nothing on the screen it looks hung. Once a second has passed, the step
 * (or "verifying") is written on one line of stderr, rewritten in place at
 * most five times a second and erased when the run ends, so the results
 * print as they would without it. Only on a terminal: a log or a pipe gets
 * no carriage returns.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <unistd.h>

#include "cli.h"

static double g_start, g_last;
static bool g_shown, g_tty;

void cli_progress_begin(cv_run_opts *o)
{
    g_start = cv_now_seconds();
    g_last = 0;
    g_shown = false;
    g_tty = isatty(STDERR_FILENO);
    if (g_tty)
        o->on_step = cli_progress_step;
}

void cli_progress_step(void *user, int done, int total)
{
    (void)user;
    double now = cv_now_seconds(), t = now - g_start;
    if (t < 1.0 || (now - g_last < 0.2 && done >= 0))
        return;
    g_last = now;
    g_shown = true;
    if (done < 0)
        fprintf(stderr, "\rcollviz: verifying the results (%.0f s)\033[K", t);
    else
        fprintf(stderr, "\rcollviz: step %d of %d (%.0f s)\033[K", done, total, t);
    fflush(stderr);
}

void cli_progress_end(void)
{
    if (g_shown)
        fputs("\r\033[K", stderr);
    g_shown = false;
}

/*
 * gui_narrate.c: what the window shows beside the stage, set by whoever
 * drives it (the free stage's explanation, a lesson's beat): the
 * narration's title and body, a quiz's question and answers, picked
 * cells, the side diagram, the navigation buttons and the hooks through
 * which clicks come back. The window owns copies of every string.
 */
#define _POSIX_C_SOURCE 200809L
#include "gui.h"

#include <stdlib.h>
#include <string.h>

#include "gui_internal.h"

/* ------------------------------------------------------------ narration */

static char *dup_or_null(const char *s)
{
    return s ? cv_xstrdup(s) : NULL;
}

void gui_narrate(gui *g, const char *title, const char *body)
{
    free(g->narr_title);
    free(g->narr_body);
    g->narr_title = dup_or_null(title);
    g->narr_body = dup_or_null(body);
}

void gui_set_highlights(gui *g, uint64_t ranks, const rd_region *regions, int nregions,
                        const int (*links)[2], int nlinks)
{
    g->hl_ranks = ranks;
    g->nhl_regions = nregions < 0 ? 0 : nregions > RD_MAX_REGIONS ? RD_MAX_REGIONS : nregions;
    if (g->nhl_regions)
        memcpy(g->hl_regions, regions, sizeof *regions * (size_t)g->nhl_regions);
    g->nhl_links = nlinks < 0 ? 0 : nlinks > RD_MAX_HL_LINKS ? RD_MAX_HL_LINKS : nlinks;
    if (g->nhl_links)
        memcpy(g->hl_links, links, sizeof *links * (size_t)g->nhl_links);
}

void gui_clear_highlights(gui *g) { gui_set_highlights(g, 0, NULL, 0, NULL, 0); }

void gui_set_diagram(gui *g, const rd_diagram *d)
{
    g->has_diagram = d != NULL;
    if (d)
        g->diagram = *d;
}

void gui_set_step_timeline(gui *g, const rd_steptl *d)
{
    if (d && (!g->has_steptl || memcmp(&g->steptl, d, sizeof *d) != 0)) {
        g->steptl = *d;
        g->steptl_since = g->clock;
    }
    g->has_steptl = d != NULL;
}

/* The cursor crosses the whole step in this many seconds, once. */
#define STEPTL_SWEEP_S 6.0

double gui__steptl_t(const gui *g)
{
    if (!g->has_steptl)
        return -1;
    double t = (g->clock - g->steptl_since) / STEPTL_SWEEP_S;
    return t < 0 ? 0 : t > 1 ? 1 : t;
}

bool gui__steptl_moving(const gui *g)
{
    return g->has_steptl && g->clock - g->steptl_since < STEPTL_SWEEP_S;
}

void gui_set_choices(gui *g, const char *const *choices, int n, const int *states)
{
    for (int i = 0; i < RD_MAX_CHOICES; i++) {
        free(g->choices[i]);
        g->choices[i] = NULL;
    }
    g->nchoices = n < 0 ? 0 : n > RD_MAX_CHOICES ? RD_MAX_CHOICES : n;
    for (int i = 0; i < g->nchoices; i++) {
        g->choices[i] = dup_or_null(choices[i]);
        g->choice_state[i] = states ? states[i] : RD_CHOICE_PLAIN;
    }
}

void gui_set_picks(gui *g, const rd_region *picks, int n)
{
    g->npicks = n < 0 ? 0 : n > RD_MAX_REGIONS ? RD_MAX_REGIONS : n;
    if (g->npicks)
        memcpy(g->picks, picks, sizeof *picks * (size_t)g->npicks);
}

void gui_set_wrong_picks(gui *g, const rd_region *wrong, int n)
{
    g->nwrong = n < 0 ? 0 : n > RD_MAX_REGIONS ? RD_MAX_REGIONS : n;
    if (g->nwrong)
        memcpy(g->wrong, wrong, sizeof *wrong * (size_t)g->nwrong);
}

void gui_set_footer(gui *g, const char *text)
{
    free(g->footer);
    g->footer = dup_or_null(text);
}

/* -------------------------------------------------------------- lessons */

void gui_set_lesson_mode(gui *g, bool on) { g->lesson = on; }

static void replace(char **slot, const char *s)
{
    free(*slot);
    *slot = dup_or_null(s);
}

void gui_narrate_quiz(gui *g, const gui_quiz_text *q)
{
    replace(&g->narr_kicker, q ? q->kicker : NULL);
    replace(&g->narr_prompt, q ? q->prompt : NULL);
    replace(&g->narr_feedback, q ? q->feedback : NULL);
    replace(&g->narr_input, q ? q->input : NULL);
    replace(&g->narr_unit, q ? q->input_unit : NULL);
    g->feedback_state = q ? q->feedback_state : RD_CHOICE_PLAIN;
}

void gui_set_nav(gui *g, bool on) { g->nav = on; }
void gui_hide_next(gui *g, bool hide) { g->hide_next = hide; }

void gui_scroll_narration(gui *g, int lines)
{
    g->narr_auto = false; /* scrolled by hand: the learner's place is kept */
    long v = (long)g->narr_scroll + lines;
    g->narr_scroll = v < 0 ? 0 : v > 1000000 ? 1000000 : (int)v;
}

void gui_set_narration_scroll(gui *g, int line) { g->narr_scroll = line < 0 ? 0 : line; }

void gui_set_hooks(gui *g, const gui_hooks *h)
{
    if (h)
        g->hooks = *h;
    else
        memset(&g->hooks, 0, sizeof g->hooks);
}


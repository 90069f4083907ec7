/*
 * gui.c: the window, the player and re-planning.
 *
 * The player is a single number, t in [0, nsteps], plus playing and speed;
 * every control reduces to setting t, so stepping back shows exactly what
 * the trace recorded for that step.  Re-planning builds a new plan and a
 * new visual trace before dropping the old ones, so a failure (a bad
 * combination, CV_ETOOBIG, a backend that fails mid-run) leaves the stage
 * as it was and shows the reason in a banner; a new setup the device
 * backend cannot run (its memory, a fault) runs on the CPU backend instead.
 *
 * The event loop (gui_frame, one pass of it, which the browser calls too)
 * sleeps in SDL_WaitEventTimeout while paused, so an idle window costs
 * nothing (except under --frames N, which must count frames); while
 * playing it draws at the display's pace.
 */
#define _POSIX_C_SOURCE 200809L
#include "gui.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "cv_cuda.h"
#include "gui_internal.h"

/* Down to 0.1x: slow enough for a class to follow one chunk at a time. */
static const double speeds[] = {0.1, 0.25, 0.5, 1, 2, 4, 8};
#define NSPEEDS ((int)(sizeof speeds / sizeof *speeds))
#define SPEED_1X 3
/* At 1x: time to follow one step by eye: the chunks fly for RD_ARRIVE of
 * it (1.1 s), and what they did (101 + 201 = 302) shows for the rest. */
#define SECONDS_PER_STEP 2.0

void gui_options_init(gui_options *o)
{
    memset(o, 0, sizeof *o);
    cv_spec_init(&o->spec);
    o->init = CV_INIT_INDEX;
    o->seed = 1;
    o->theme = RD_THEME_DARK;
    o->lang = CV_LANG_EN;
    o->width = 1280;
    o->height = 800;
    o->narration = true;
    o->compare_algo = CV_ALGO_COUNT;
}

/* ---------------------------------------------------------------- runs */

static void panel_free(gui_panel *p)
{
    free(p->cum);
    cv_state_destroy(p->narr);
    cv_state_destroy(p->before);
    cv_state_destroy(p->state);
    cv_trace_destroy(p->trace);
    cv_plan_destroy(p->plan);
    memset(p, 0, sizeof *p);
}

/* The link between nodes the model prices a step with: --inter-link's, or
 * ib-ndr, as `collviz cost`. */
static const cv_link *inter_link(const gui *g)
{
    return g->inter ? g->inter : cv_link_find("ib-ndr");
}

/* Whether two specs describe the same run (the same plan on the same
 * layout of values). */
static bool same_run(const cv_spec *a, const cv_spec *b)
{
    return a->op == b->op && a->algo == b->algo && a->ranks == b->ranks && a->count == b->count &&
           a->dtype == b->dtype && a->redop == b->redop && a->root == b->root &&
           a->slices == b->slices && a->nodes == b->nodes && !a->topo && !b->topo;
}

bool gui_inputs_fit(const cv_spec *given, const cv_spec *spec)
{
    return given->op == spec->op && given->ranks == spec->ranks &&
           given->count == spec->count && given->dtype == spec->dtype &&
           given->root == spec->root;
}

/* Plans and runs spec into *out; on failure *out is untouched and err says
 * why. */
static int panel_build(gui *g, const cv_spec *spec, gui_panel *out, char *err, size_t errlen)
{
    gui_panel p;
    memset(&p, 0, sizeof p);
    int rc = cv_spec_check(spec, CV_MAX_VISUAL_RANKS, err, errlen);
    if (rc != CV_OK)
        return rc;
    rc = cv_plan_create(spec, &p.plan, err, errlen);
    if (rc != CV_OK)
        goto fail;
    cv_run_opts opts;
    cv_run_opts_init(&opts);
    opts.visual = true;
    opts.init = g->init;
    opts.seed = g->seed;
    if (g->inputs && gui_inputs_fit(&g->inputs_spec, spec))
        opts.inputs = g->inputs;
    opts.iterations = 1;
    opts.warmup = 0;
    rc = cv_run(p.plan, g->backend, &opts, &p.trace, err, errlen);
    if (rc != CV_OK)
        goto fail;
    /* A replayed trace's side shows the recorded run's times. */
    if (g->rec_seconds && same_run(spec, &g->rec_spec) && opts.inputs)
        p.recorded = cv_trace_set_step_seconds(p.trace, g->rec_seconds, p.plan->nsteps) == CV_OK;
    rc = cv_state_create(p.trace, &p.state);
    if (rc == CV_OK)
        rc = cv_state_create(p.trace, &p.before);
    if (rc == CV_OK)
        rc = cv_state_create(p.trace, &p.narr);
    if (rc == CV_OK)
        rd_trace_widest(p.trace, p.before, p.widest, sizeof p.widest);
    if (rc == CV_OK) {
        /* Model time before each step: compare mode's shared axis. */
        /* The renderer's model: g->link (default nvlink4, as `collviz
         * cost`), and g->inter (default ib-ndr) between nodes. */
        const cv_link *link = g->link ? g->link : cv_link_find("nvlink4");
        const cv_link *inter = cv_spec_nodes(&p.plan->spec) > 1 ? inter_link(g) : NULL;
        p.cum = cv_xcalloc((size_t)p.plan->nsteps + 1, sizeof *p.cum);
        for (int k = 0; k < p.plan->nsteps && link; k++) {
            int64_t bytes = 0;
            p.cum[k + 1] = p.cum[k] + cv_cost_step_nodes(p.plan, k, link, inter, &bytes);
        }
    }
    if (rc != CV_OK) {
        snprintf(err, errlen, "cannot view the trace: %s", cv_strerror(rc));
        goto fail;
    }
    *out = p;
    return CV_OK;
fail:
    panel_free(&p);
    return rc;
}

/* The algorithm of the right-hand panel, or CV_ALGO_COUNT alone. */
static cv_algo compared_algo(const gui *g)
{
    return g->npanels == 2 && g->panels[1].plan ? g->panels[1].plan->spec.algo : CV_ALGO_COUNT;
}

static void sync_frame_panels(gui *g)
{
    rd_invalidate(g->rd);
    g->npanels = g->compare && g->panels[1].trace ? 2 : 1;
    g->ns = 0;
    for (int i = 0; i < g->npanels; i++)
        if (g->panels[i].plan && g->panels[i].plan->nsteps > g->ns)
            g->ns = g->panels[i].plan->nsteps;
    if (g->t > g->ns)
        g->t = 0; /* the position no longer exists: start over */
    gui__explain(&g->spec, compared_algo(g), g->lang, g->def_title, sizeof g->def_title,
                 g->def_body, sizeof g->def_body);
}

/* Whether the stage for spec (and the second algorithm in compare mode)
 * stays within CV_VISUAL_STAGE_BYTES: each side keeps its trace and three
 * states over it, so its memory grows with the count; past the bound the
 * stage says so instead (a compare of 524,288 elements took a gigabyte). */
static int stage_fits(const cv_spec *spec, bool compare, cv_algo second, bool recorded,
                      int64_t *needp, char *err, size_t n)
{
    int64_t need = 0;
    *needp = 0;
    for (int side = 0; side < (compare ? 2 : 1); side++) {
        cv_spec s = *spec;
        if (side)
            s.algo = second;
        cv_plan *plan = NULL;
        if (cv_spec_check(&s, CV_MAX_VISUAL_RANKS, err, n) != CV_OK ||
            cv_plan_create(&s, &plan, err, n) != CV_OK)
            return CV_OK; /* the build itself will say what is wrong */
        need += cv_visual_footprint(plan, 3);
        cv_plan_destroy(plan);
    }
    *needp = need;
    if (need <= CV_VISUAL_STAGE_BYTES)
        return CV_OK;
    /* A recorded run (a trace) cannot be made smaller: what helps there is
     * showing it alone, or recording a smaller one. */
    snprintf(err, n, "showing %s%s %s%s%s with %d ranks x %lld elements step by step would hold "
                     "%lld MiB (the stage's limit is %lld MiB); %s",
             recorded ? "the recorded run, " : "", cv_op_name(spec->op), cv_algo_name(spec->algo),
             compare ? " against " : "", compare ? cv_algo_name(second) : "", spec->ranks,
             (long long)spec->count, (long long)(need >> 20),
             (long long)(CV_VISUAL_STAGE_BYTES >> 20),
             !recorded ? "lower the count or the ranks"
             : compare ? "a trace cannot be made smaller: show it alone"
                       : "a trace cannot be made smaller: record a smaller run");
    return CV_ETOOBIG;
}

int gui_stage_check(const gui_options *o, char *err, size_t n)
{
    int64_t need;
    return stage_fits(&o->spec, o->compare, o->compare_algo, o->recorded_seconds != NULL, &need,
                      err, n);
}

/* A stage this large takes long enough to make (a second or more on the
 * CPU backend) that the window says what it is doing meanwhile. */
#define BUSY_STAGE_BYTES ((int64_t)32 << 20)

/* The stage the window holds now, in the bytes stage_fits counts. */
static int64_t stage_held(const gui *g)
{
    int64_t held = 0;
    for (int i = 0; i < 2; i++)
        if (g->panels[i].plan)
            held += cv_visual_footprint(g->panels[i].plan, 3);
    return held;
}

/* "Preparing the stage: allreduce ring against tree, 8 ranks x 131072
 * elements (254 MiB)...", drawn and shown before a large stage is made. */
static void busy_notice(gui *g, const cv_spec *spec, bool compare, cv_algo second, int64_t need)
{
    if (!g->win || g->headless)
        return;
    char text[256];
    bool zh = g->lang == CV_LANG_ZH;
    snprintf(text, sizeof text,
             zh ? "正在准备舞台：%s %s%s%s，%d 个 rank × %lld 个元素（%lld MiB）……"
                : "Preparing the stage: %s %s%s%s, %d ranks \xC3\x97 %lld elements (%lld MiB)...",
             cv_op_name(spec->op), cv_algo_name(spec->algo),
             compare ? (zh ? " 对比 " : " against ") : "", compare ? cv_algo_name(second) : "",
             spec->ranks, (long long)spec->count, (long long)(need >> 20));
    rd_draw_notice(g->rd, g->theme, text);
    SDL_RenderPresent(g->ren);
}

static int rebuild(gui *g, const cv_spec *spec, bool compare, cv_algo second)
{
    char err[CV_ERR_LEN] = "";
    gui_panel a, b;
    memset(&b, 0, sizeof b);
    int64_t need = 0;
    bool recorded = g->rec_seconds && same_run(spec, &g->rec_spec);
    int rc = stage_fits(spec, compare, second, recorded, &need, err, sizeof err);
    if (rc == CV_OK && need >= BUSY_STAGE_BYTES)
        busy_notice(g, spec, compare, second, need);
    /* The old stage is kept until the new one is made (a failure leaves
     * the window as it was), unless both together would pass the stage's
     * bound: then the old goes first, so the peak is the new stage's. */
    if (rc == CV_OK && need + stage_held(g) > CV_VISUAL_STAGE_BYTES) {
        panel_free(&g->panels[0]);
        panel_free(&g->panels[1]);
        sync_frame_panels(g);
    }
    if (rc == CV_OK)
        rc = panel_build(g, spec, &a, err, sizeof err);
    if (rc == CV_OK && compare) {
        cv_spec s2 = *spec;
        s2.algo = second;
        rc = panel_build(g, &s2, &b, err, sizeof err);
        if (rc != CV_OK)
            panel_free(&a);
    }
    if (rc != CV_OK) {
        char msg[CV_ERR_LEN + 64];
        /* A backend's own message already says what failed. */
        snprintf(msg, sizeof msg, "%s", err[0] ? err : cv_strerror(rc));
        gui_message(g, msg, 6);
        return rc;
    }
    panel_free(&g->panels[0]);
    panel_free(&g->panels[1]);
    g->panels[0] = a;
    g->panels[1] = b;
    g->spec = *spec;
    g->compare = compare;
    g->second = second;
    sync_frame_panels(g);
    return CV_OK;
}

/* rebuild, and where the device cannot run the new setup (out of its
 * memory, a fault, gone), the same setup on the CPU backend, saying so: the
 * window keeps working instead of staying stuck on the device. A backend
 * the user picks (gui_set_backend, gui_set_run) is not second-guessed. */
static int rebuild_or_cpu(gui *g, const cv_spec *spec, bool compare, cv_algo second)
{
    int rc = rebuild(g, spec, compare, second);
    const cv_backend *dev = g->backend;
    if (rc == CV_OK || dev == cv_cpu_backend() ||
        (rc != CV_EBACKEND && rc != CV_ENOMEM && rc != CV_EUNAVAIL))
        return rc;
    char why[sizeof g->message];
    snprintf(why, sizeof why, "%s", gui_current_message(g) ? gui_current_message(g) : "failed");
    g->backend = cv_cpu_backend();
    if (rebuild(g, spec, compare, second) != CV_OK) {
        g->backend = dev; /* the CPU cannot either: its reason is on screen */
        return rc;
    }
    char msg[sizeof g->message]; /* the news first, then the reason */
    snprintf(msg, sizeof msg,
             g->lang == CV_LANG_ZH ? "已改用 CPU 后端：%.24s 后端无法运行这个设置（%.250s）"
                                   : "Running on the CPU backend: the %.24s backend cannot run "
                                     "this setup (%.250s)",
             dev->name, why);
    gui_message(g, msg, 8);
    return CV_OK;
}

int gui_set_spec(gui *g, const cv_spec *spec)
{
    cv_algo second = g->second;
    if (g->compare && (!cv_op_has_algo(spec->op, second) || second == spec->algo))
        second = gui__other_algo(spec->op, spec->algo);
    return rebuild_or_cpu(g, spec, g->compare && second != CV_ALGO_COUNT, second);
}

int gui_set_compare(gui *g, bool on, cv_algo second)
{
    if (on && (second == CV_ALGO_COUNT || !cv_op_has_algo(g->spec.op, second) ||
               second == g->spec.algo))
        second = gui__other_algo(g->spec.op, g->spec.algo);
    if (on && second == CV_ALGO_COUNT) {
        gui_message(g, g->lang == CV_LANG_ZH ? "该操作只有一种算法，无法对比"
                                             : "this op has only one algorithm: nothing to compare",
                    4);
        return CV_EINVAL;
    }
    if (!on) {
        panel_free(&g->panels[1]);
        g->compare = false;
        sync_frame_panels(g);
        return CV_OK;
    }
    return rebuild_or_cpu(g, &g->spec, true, second);
}

int gui_set_run(gui *g, const cv_spec *spec, const cv_backend *backend, cv_init init,
                uint64_t seed)
{
    const cv_backend *old_b = g->backend;
    cv_init old_init = g->init;
    uint64_t old_seed = g->seed;
    const void *const *old_inputs = g->inputs;
    g->backend = backend ? backend : cv_cpu_backend();
    g->init = init;
    g->seed = seed;
    g->inputs = NULL; /* the run set here has values of its own */
    int rc = rebuild(g, spec, false, g->second);
    if (rc != CV_OK) {
        g->backend = old_b;
        g->init = old_init;
        g->seed = old_seed;
        g->inputs = old_inputs;
    }
    return rc;
}

int gui_set_backend(gui *g, const cv_backend *b)
{
    const cv_backend *old = g->backend;
    g->backend = b;
    int rc = rebuild(g, &g->spec, g->compare, g->second);
    if (rc != CV_OK)
        g->backend = old;
    return rc;
}

/* ------------------------------------------------------------ lifecycle */

int gui_create(const gui_options *o, gui **out, char *err, size_t errlen)
{
    *out = NULL;
    gui *g = cv_xcalloc(1, sizeof *g);
    g->backend = o->backend ? o->backend : cv_cpu_backend();
    g->init = o->init;
    g->seed = o->seed;
    g->inputs = o->inputs;
    g->inputs_spec = o->inputs_spec;
    g->rec_seconds = o->recorded_seconds;
    g->rec_label = o->recorded_label;
    g->rec_spec = o->recorded_spec;
    g->theme = o->theme;
    g->lang = o->lang;
    g->narration = o->narration;
    g->headless = o->headless;
    g->speed_i = SPEED_1X;
    g->mouse_x = g->mouse_y = -1;
    g->narr_at_start = true;
    g->focus = -1;
    g->link = o->link ? cv_link_find(o->link) : NULL;
    g->inter = o->inter_link ? cv_link_find(o->inter_link) : NULL;
    rd_font_paths fonts;
    int rc = gui_fonts(&fonts, err, errlen);
    if (rc != CV_OK)
        goto fail;
    int w = o->width > 0 ? o->width : 1280, h = o->height > 0 ? o->height : 800;
    if (o->headless) {
        g->surface = SDL_CreateRGBSurfaceWithFormat(0, w, h, 32, SDL_PIXELFORMAT_ARGB8888);
        if (!g->surface || !(g->ren = SDL_CreateSoftwareRenderer(g->surface))) {
            snprintf(err, errlen, "cannot create a %dx%d software renderer: %s", w, h, SDL_GetError());
            rc = CV_EUNAVAIL;
            goto fail;
        }
    } else {
        rc = gui_video_init(err, errlen); /* SDL's software renderer, or no display */
        if (rc != CV_OK)
            goto fail;
        g->video = true;
        if (!o->sized)
            gui_fit_display(&w, &h);
        Uint32 flags = SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI;
        if (o->fullscreen)
            flags |= SDL_WINDOW_FULLSCREEN_DESKTOP;
        g->win = SDL_CreateWindow("collviz", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, w, h, flags);
        if (!g->win) {
            snprintf(err, errlen, "no display: cannot open a window (%s)", SDL_GetError());
            rc = CV_EUNAVAIL;
            goto fail;
        }
        SDL_SetWindowMinimumSize(g->win, 320, 240);
        gui_set_icon(g->win);
        g->ren = SDL_CreateRenderer(g->win, -1, SDL_RENDERER_PRESENTVSYNC);
        if (!g->ren)
            g->ren = SDL_CreateRenderer(g->win, -1, SDL_RENDERER_SOFTWARE);
        if (!g->ren) {
            snprintf(err, errlen, "no display: cannot create a renderer (%s)", SDL_GetError());
            rc = CV_EUNAVAIL;
            goto fail;
        }
        g->fullscreen = o->fullscreen;
    }
    g->rd = rd_create(g->ren, &fonts, err, errlen);
    if (!g->rd) {
        rc = CV_EUNAVAIL;
        goto fail;
    }
    g->spec = o->spec;
    g->second = o->compare_algo;
    rebuild_or_cpu(g, &o->spec, o->compare, o->compare && o->compare_algo == CV_ALGO_COUNT
                                         ? gui__other_algo(o->spec.op, o->spec.algo)
                                         : o->compare_algo);
    if (!g->panels[0].trace)
        gui__explain(&g->spec, compared_algo(g), g->lang, g->def_title, sizeof g->def_title,
                     g->def_body, sizeof g->def_body);
    *out = g;
    return CV_OK;
fail:
    gui_destroy(g);
    return rc;
}

void gui_destroy(gui *g)
{
    if (!g)
        return;
    panel_free(&g->panels[0]);
    panel_free(&g->panels[1]);
    rd_destroy(g->rd);
    if (g->ren)
        SDL_DestroyRenderer(g->ren);
    if (g->surface)
        SDL_FreeSurface(g->surface);
    if (g->win)
        SDL_DestroyWindow(g->win);
    if (g->video)
        SDL_QuitSubSystem(SDL_INIT_VIDEO);
    free(g->narr_title);
    free(g->narr_body);
    free(g->footer);
    for (int i = 0; i < RD_MAX_CHOICES; i++)
        free(g->choices[i]);
    gui_narrate_quiz(g, NULL);
    free(g->hit_layout);
    gui__card_destroy(g);
    gui__edit_destroy(g);
    free(g);
}

int gui_draw_offscreen(gui *g, int w, int h, char *err, size_t errlen)
{
    rd_font_paths fonts;
    int rc = gui_fonts(&fonts, err, errlen);
    if (rc != CV_OK)
        return rc;
    /* The format the window and the renderer's textures use: SDL blends
     * into it on its fast paths (into ABGR8888 it took four times as long). */
    SDL_Surface *s = SDL_CreateRGBSurfaceWithFormat(0, w, h, 32, SDL_PIXELFORMAT_ARGB8888);
    SDL_Renderer *r = s ? SDL_CreateSoftwareRenderer(s) : NULL;
    if (!r) {
        snprintf(err, errlen, "cannot create a %dx%d software renderer: %s", w, h, SDL_GetError());
        SDL_FreeSurface(s);
        return CV_EUNAVAIL;
    }
    rd_ctx *rd = rd_create(r, &fonts, err, errlen);
    if (!rd) {
        SDL_DestroyRenderer(r);
        SDL_FreeSurface(s);
        return CV_EUNAVAIL;
    }
    rd_destroy(g->rd);
    SDL_DestroyRenderer(g->ren);
    if (g->surface)
        SDL_FreeSurface(g->surface);
    g->rd = rd;
    g->ren = r;
    g->surface = s;
    return CV_OK;
}

SDL_Surface *gui_offscreen(gui *g) { return g->win ? g->surface : NULL; }

SDL_Renderer *gui_renderer(gui *g) { return g->ren; }
rd_ctx *gui_rd(gui *g) { return g->rd; }
bool gui_quit_requested(const gui *g) { return g->quit; }
int gui_frames(const gui *g) { return (int)g->frames; }
const cv_spec *gui_spec(const gui *g) { return &g->spec; }
bool gui_compare(const gui *g) { return g->compare; }
cv_algo gui_compared_algo(const gui *g) { return compared_algo(g); }
cv_init gui_init(const gui *g) { return g->init; }
uint64_t gui_seed(const gui *g) { return g->seed; }
bool gui_lesson_mode(const gui *g) { return g->lesson; }
rd_theme_id gui_theme(const gui *g) { return g->theme; }
float gui_dpi(const gui *g) { return g->dpi > 0 ? g->dpi : 1.0f; }
const cv_backend *gui_backend(const gui *g) { return g->backend; }
cv_lang gui_lang(const gui *g) { return g->lang; }

const cv_trace *gui_trace(const gui *g, int panel)
{
    return panel >= 0 && panel < 2 ? g->panels[panel].trace : NULL;
}

void gui_set_theme(gui *g, rd_theme_id t) { g->theme = t; }

void gui_set_lang(gui *g, cv_lang l)
{
    g->lang = l;
    gui__explain(&g->spec, compared_algo(g), g->lang, g->def_title, sizeof g->def_title,
                 g->def_body, sizeof g->def_body);
}

void gui_message(gui *g, const char *text, double seconds)
{
    snprintf(g->message, sizeof g->message, "%s", text ? text : "");
    g->message_until = seconds > 0 ? g->clock + seconds : 0;
    g->has_message = text && *text;
    g->message_shot = false;
}

const char *gui_current_message(const gui *g) { return g->has_message ? g->message : NULL; }

const char *gui__shown_message(gui *g)
{
    static const char flags[] = "lower --count or --ranks";
    const char *m = gui_current_message(g);
    const char *at = m ? strstr(m, flags) : NULL;
    if (!at)
        return m;
    snprintf(g->shown_message, sizeof g->shown_message, "%.*s%s%s", (int)(at - m), m,
             "Shift+C or Shift+N picks a smaller setup", at + sizeof flags - 1);
    return g->shown_message;
}

/* --------------------------------------------------------------- player */

double gui_time(const gui *g) { return g->t; }
int gui_nsteps(const gui *g) { return g->ns; }
bool gui_playing(const gui *g) { return g->playing; }
double gui_speed(const gui *g) { return speeds[g->speed_i]; }
int gui_speed_count(void) { return NSPEEDS; }

void gui_seek(gui *g, double t)
{
    g->t = t < 0 ? 0 : t > g->ns ? g->ns : t;
    g->playing = false;
    g->target = -1;
    g->landed = false;
}

void gui_play(gui *g, bool on)
{
    if (on && g->t >= g->ns)
        g->t = 0; /* play at the end restarts */
    g->playing = on;
    g->target = -1;
    g->landed = false;
}

/* Compare mode runs both sides on one model-time axis: the timeline's
 * position t (0..ns) is model time t/ns of the slower side's total. Two
 * boundaries closer than AXIS_SAME (of a step) are one stop: a ring step
 * of 4 B and a tree step of 32 B both cost about alpha, and the arrow keys
 * would otherwise stop twice, 0.00003 of a step apart. */
#define AXIS_SAME 1e-3
static double axis_total(const gui *g)
{
    double tmax = 0;
    for (int p = 0; p < 2 && g->npanels == 2; p++)
        if (g->panels[p].cum && g->panels[p].cum[g->panels[p].plan->nsteps] > tmax)
            tmax = g->panels[p].cum[g->panels[p].plan->nsteps];
    return tmax;
}

/* Panel p's own time (in its steps) at the axis position t. */
static double axis_panel_t(const gui *g, int p, double t)
{
    const gui_panel *gp = &g->panels[p];
    double tmax = axis_total(g);
    int n = gp->plan->nsteps;
    if (tmax <= 0 || g->ns <= 0)
        return t < n ? t : n;
    /* A position within AXIS_SAME of one of this panel's step boundaries
     * is that boundary exactly: t / ns * tmax rounds, and 0.9999999 of a
     * step would draw its chunks still arriving instead of what landed,
     * 1.0000001 the next step's chunks parked on the cells just written. */
    double tau = t / g->ns * tmax;
    for (int k = 0; k < n; k++) {
        double d = gp->cum[k + 1] - gp->cum[k];
        if (tau < gp->cum[k + 1] || (d <= 0 && tau <= gp->cum[k])) {
            double pt = d > 0 ? k + (tau - gp->cum[k]) / d : k;
            return fabs(pt - round(pt)) < AXIS_SAME ? round(pt) : pt;
        }
    }
    return n;
}

/* The next (dir > 0) or previous step boundary of either side after or
 * before the axis position t. */
static double axis_boundary(const gui *g, double t, int dir)
{
    double tmax = axis_total(g), best = dir > 0 ? g->ns : 0;
    if (tmax <= 0)
        return dir > 0 ? floor(t) + 1 : (t == floor(t) ? t - 1 : floor(t));
    for (int p = 0; p < 2; p++)
        for (int k = 0; k <= g->panels[p].plan->nsteps; k++) {
            double a = g->panels[p].cum[k] / tmax * g->ns;
            if (dir > 0 && a > t + AXIS_SAME && a < best)
                best = a;
            if (dir < 0 && a < t - AXIS_SAME && a > best)
                best = a;
        }
    return best;
}

/* The plan the arrow keys step through: rounds are the plan's; two plans
 * side by side step one step at a time. */
static const cv_plan *step_plan(const gui *g)
{
    return g->npanels == 1 ? g->panels[0].plan : NULL;
}

/* The first step after the round step i belongs to (its local sub-phases
 * are part of it), and the first step of that round. */
static int round_end(const cv_plan *plan, int i, int ns)
{
    if (!plan || i >= plan->nsteps)
        return i + 1 < ns ? i + 1 : ns;
    int j = i + 1;
    while (j < plan->nsteps && plan->steps[j].round == plan->steps[i].round)
        j++;
    return j;
}

static int round_start(const cv_plan *plan, int i)
{
    if (!plan || i <= 0 || i >= plan->nsteps)
        return i < 0 ? 0 : i;
    while (i > 0 && plan->steps[i - 1].round == plan->steps[i].round)
        i--;
    return i;
}

static void play_until(gui *g, double stop)
{
    g->target = stop;
    g->playing = g->t < stop;
    g->landed = false;
}

void gui__step_forward(gui *g)
{
    double t = g->t;
    if (g->target >= 0 && g->t < g->target)
        t = g->target; /* the step in flight lands at once: then the next */
    if (t >= g->ns) {
        gui_seek(g, g->ns);
        return;
    }
    g->t = t;
    if (g->npanels == 2)
        play_until(g, axis_boundary(g, t, 1)); /* the next thing either side does */
    else
        play_until(g, round_end(step_plan(g), (int)floor(t), g->ns));
}

void gui__step_back(gui *g)
{
    int i = (int)floor(g->t);
    bool playing_to = g->target >= 0 && g->t < g->target;
    if (g->npanels == 2) {
        gui_seek(g, axis_boundary(g, g->t, -1)); /* back to the last thing either side did */
        return;
    }
    bool whole = g->t == i && !playing_to;
    gui_seek(g, round_start(step_plan(g), whole ? i - 1 : i));
}

void gui_play_to(gui *g, int k)
{
    if (k < 0)
        k = 0;
    if (k > g->ns)
        k = g->ns;
    if (g->t > k)
        g->t = k; /* going back is instant: the trace already has it */
    play_until(g, k);
}

bool gui_target_reached(const gui *g) { return g->target < 0 || g->t >= g->target; }

void gui_tick(gui *g, double seconds)
{
    g->clock += seconds;
    if (g->has_message && g->message_until > 0 && g->clock >= g->message_until)
        g->has_message = false;
    if (!g->playing)
        return;
    g->t += seconds * speeds[g->speed_i] / SECONDS_PER_STEP;
    double stop = g->target >= 0 ? g->target : g->ns;
    if (g->t >= stop) {
        g->t = stop;
        g->playing = false;
        g->landed = true; /* what the last step did stays in view */
    }
}

/* ------------------------------------------------------------- drawing */

/* The narration's "Just happened" (the step that made the state shown)
 * and "Next" (the one the arrow key plays), from the plan and the values
 * before and after; while a step is in flight it is the first, headed "In
 * flight" and without its arithmetic (it has not landed), and "Next" is
 * the step after it, never the one already flying. Kept while the shown
 * step, the traces and the language stay the same. */
void gui__step_texts(gui *g)
{
    int shown[2] = {-1, -1};
    double frac[2] = {0, 0};
    for (int p = 0; p < g->npanels && p < 2; p++)
        if (g->panels[p].plan) {
            int step;
            double tp = g->npanels == 2 ? axis_panel_t(g, p, g->t) : g->t;
            shown[p] = rd_shown_step(g->panels[p].plan, tp, &step, &frac[p]);
            shown[p] = shown[p] * 2 + (frac[p] > 0 && frac[p] < RD_ARRIVE);
        }
    uint64_t key = ((uint64_t)(uintptr_t)g->panels[0].trace * 31u) ^
                   ((uint64_t)(uintptr_t)g->panels[1].trace * 131u) ^
                   ((uint64_t)(uint32_t)shown[0] << 32) ^ (uint64_t)(uint32_t)shown[1] * 7u ^
                   ((uint64_t)g->lang << 60) ^ ((uint64_t)g->npanels << 56);
    if (key == g->text_key && g->text_key_ok)
        return;
    g->text_key = key;
    g->text_key_ok = true;
    size_t uj = 0, un = 0;
    g->just_text[0] = g->next_text[0] = '\0';
    g->text_flying = false;
    g->text_result = false;
    bool zh = g->lang == CV_LANG_ZH;
    for (int p = 0; p < g->npanels && p < 2 && g->panels[p].plan; p++) {
        gui_panel *gp = &g->panels[p];
        const cv_plan *plan = gp->plan;
        int st = shown[p] / 2; /* the state shown: after st steps */
        bool flying = shown[p] % 2 && st < plan->nsteps; /* step st is in flight */
        char just[900] = "", next[900] = "";
        bool brief = g->npanels == 2;
        g->text_flying |= flying;
        if (flying) {
            cv_state_seek(gp->narr, st);
            gui__describe_step(plan, st, gp->narr, NULL, g->lang, brief, just, sizeof just);
            st++; /* what comes next is the step after it */
        } else if (st > 0) {
            cv_state_seek(gp->before, st - 1);
            cv_state_seek(gp->narr, st);
            gui__describe_step(plan, st - 1, gp->before, gp->narr, g->lang, brief, just, sizeof just);
        } else if (!brief) {
            snprintf(just, sizeof just, "%s", zh ? "还没有：这是输入。按 \xE2\x86\x92 播放第 1 步。"
                                                 : "Nothing yet: these are the inputs. \xE2\x86\x92 plays step 1.");
        }
        if (st < plan->nsteps) {
            cv_state_seek(gp->narr, st);
            gui__describe_step(plan, st, gp->narr, NULL, g->lang, brief, next, sizeof next);
        } else if (!brief) {
            snprintf(next, sizeof next, "%s",
                     zh ? "没有了：全部步骤完成，接收缓冲区里就是结果。按 Home 回到开头，再按 \xE2\x86\x92 逐步重看。"
                        : "Nothing: all steps are done and the recv buffers hold the result. Home goes back to the "
                          "start; \xE2\x86\x92 then plays it again step by step.");
        } else {
            snprintf(next, sizeof next, "%s", zh ? "完成。" : "done.");
        }
        /* Compared: one line per side, each named. */
        const char *sep = p ? "\n" : "";
        const char *name = brief ? cv_algo_name(plan->spec.algo) : "";
        const char *colon = brief ? (zh ? "：" : ": ") : "";
        if (just[0] && uj < sizeof g->just_text)
            uj += (size_t)snprintf(g->just_text + uj, sizeof g->just_text - uj, "%s%s%s%s",
                                   uj ? sep : "", name, colon, just);
        if (next[0] && un < sizeof g->next_text)
            un += (size_t)snprintf(g->next_text + un, sizeof g->next_text - un, "%s%s%s%s",
                                   un ? sep : "", name, colon, next);
    }
    /* Compared and both sides done: which finished first, and why. */
    if (g->npanels == 2 && g->panels[0].plan && g->panels[1].plan &&
        shown[0] / 2 >= g->panels[0].plan->nsteps && shown[1] / 2 >= g->panels[1].plan->nsteps) {
        rd_compare_verdict(g->panels[0].plan, g->panels[1].plan,
                           g->link ? g->link : cv_link_find("nvlink4"), inter_link(g), g->lang,
                           g->next_text, sizeof g->next_text);
        g->text_result = g->next_text[0] != '\0';
    }
}

void gui__frame(gui *g, rd_frame *out)
{
    rd_frame_init(out);
    rd_frame f = *out;
    f.theme = g->theme;
    f.lang = g->lang;
    f.npanels = g->npanels;
    for (int i = 0; i < 2; i++) {
        f.panels[i].trace = g->panels[i].trace;
        f.panels[i].state = g->panels[i].state;
        f.panels[i].before = g->panels[i].before;
        f.panels[i].widest = g->panels[i].widest;
        f.panels[i].link = g->link;
        f.panels[i].inter = inter_link(g); /* used only where the spec has nodes */
        f.panels[i].backend = g->panels[i].recorded && g->rec_label ? g->rec_label : g->backend->name;
    }
    /* The hosts of an NCCL log's nodes, while the stage is that log's
     * cluster (its ring on the stage and as many nodes). */
    const ncclog_comm *nl = g->spec.topo ? cli_nccl_log(NULL, NULL, NULL) : NULL;
    if (nl && nl->hosts && nl->nnodes == cv_spec_nodes(&g->spec))
        for (int k = 0; k < nl->nnodes && k < RD_MAX_NODE_HOSTS; k++)
            f.node_host[k] = nl->hosts[k];
    int ow = 0, oh = 0, ww = 0, wh = 0;
    SDL_GetRendererOutputSize(g->ren, &ow, &oh);
    if (g->win) {
        SDL_GetWindowSize(g->win, &ww, &wh);
        g->dpi = ww > 0 ? (float)ow / (float)ww : 1.0f;
    } else {
        g->dpi = 1.0f;
    }
    f.dpi_scale = g->dpi;
    f.t = g->t;
    if (g->npanels == 2 && g->panels[1].plan)
        for (int p = 0; p < 2; p++)
            f.panels[p].t = axis_panel_t(g, p, g->t);
    f.speed = speeds[g->speed_i];
    f.playing = g->playing;
    /* On a whole step; in compare mode the stop is one side's boundary,
     * and the renderer shows the arithmetic of each side that is on one. */
    f.landed = g->landed && !g->playing && (g->npanels == 2 || g->t == floor(g->t));
    f.help = g->help;
    f.card = g->card_open ? gui__card(g) : NULL;
    f.pointer = g->pointer;
    f.narration = g->narration;
    f.controls = !g->clean;
    f.hide_measured = g->hide_measured;
    f.focus = g->focus;
    f.mouse_x = g->mouse_x >= 0 ? (int)(g->mouse_x * g->dpi) : -1;
    f.mouse_y = g->mouse_y >= 0 ? (int)(g->mouse_y * g->dpi) : -1;
    f.message = g->shooting && g->message_shot ? NULL : gui__shown_message(g);
    f.hl_ranks = g->hl_ranks;
    f.nhl_regions = g->nhl_regions;
    memcpy(f.hl_regions, g->hl_regions, sizeof f.hl_regions);
    f.npicks = g->npicks;
    memcpy(f.picks, g->picks, sizeof f.picks);
    f.nwrong = g->nwrong;
    memcpy(f.wrong, g->wrong, sizeof f.wrong);
    f.nhl_links = g->nhl_links;
    memcpy(f.hl_links, g->hl_links, sizeof f.hl_links);
    f.narr.title = g->narr_title ? g->narr_title : g->def_title;
    f.narr.body = g->narr_body ? g->narr_body : (g->narr_title ? NULL : g->def_body);
    if (g->panels[0].plan) {
        gui__step_texts(g);
        f.narr.just = g->just_text[0] ? g->just_text : NULL;
        f.narr.next = g->next_text[0] && !g->hide_next ? g->next_text : NULL;
        f.narr.flying = g->text_flying && f.narr.just;
        f.narr.result = g->text_result && f.narr.next;
    }
    f.narr.diagram = g->has_diagram ? &g->diagram : NULL;
    f.narr.steptl = g->has_steptl ? &g->steptl : NULL;
    f.narr.steptl_t = gui__steptl_t(g);
    f.narr.nchoices = g->nchoices;
    for (int i = 0; i < g->nchoices; i++) {
        f.narr.choices[i] = g->choices[i];
        f.narr.choice_state[i] = g->choice_state[i];
    }
    f.narr.footer = g->footer;
    f.lesson = g->lesson;
    f.narration = g->narration || g->lesson;
    f.narr.kicker = g->narr_kicker;
    f.narr.prompt = g->narr_prompt;
    f.narr.feedback = g->narr_feedback;
    f.narr.feedback_state = g->feedback_state;
    f.narr.input = g->narr_input;
    f.narr.input_unit = g->narr_unit;
    f.narr.nav = g->nav;
    f.narr.scroll = g->narr_scroll;
    gui__edit_frame(g, &f); /* the selected send cell, and its field's line */
    if (g->lang == CV_LANG_ZH && !rd_text_has_cjk(rd_ctx_text(g->rd)) && !f.message)
        f.message = rd_str(CV_LANG_EN, RD_S_NO_CJK);
    *out = f;
}

/* Outside a lesson, once the first step has started the introduction
 * folds away above the panel's top and the step text leads ("Just
 * happened", "Next"), where the panel cannot show all of it; back at the
 * start the introduction leads again. The learner's own scrolling is kept
 * in between. */
static void narration_leads(gui *g)
{
    bool at_start = g->t <= 0;
    if (!g->lesson && at_start != g->narr_at_start) {
        g->narr_auto = !at_start;
        if (at_start)
            g->narr_scroll = 0;
        g->narr_auto_at = g->narr_scroll;
    }
    g->narr_at_start = at_start;
    /* A scroll set since the last frame by anything else (the wheel, a
     * caller) is kept: the text no longer follows the step. */
    if (g->narr_auto && g->narr_scroll != g->narr_auto_at)
        g->narr_auto = false;
    /* the last frame's text: one frame behind a change of step at most */
    if (g->narr_auto && !g->lesson && g->rd)
        g->narr_scroll = g->narr_auto_at = rd_last_layout(g->rd)->narr_head_line;
}

void gui_render(gui *g)
{
    if (g->hooks.before_draw)
        g->hooks.before_draw(g->hooks.user, g);
    narration_leads(g);
    rd_frame f;
    gui__frame(g, &f);
    rd_draw(g->rd, &f);
    /* The drawer clamps the scroll to the text; keep what it showed so the
     * next scroll starts from there. */
    g->narr_scroll = rd_last_layout(g->rd)->narr_scroll;
    if (g->hooks.after_draw)
        g->hooks.after_draw(g->hooks.user, g);
}

/* A variable set to "" counts as unset, as SDL reads it. */
static bool env_set(const char *name)
{
    const char *v = getenv(name);
    return v && *v;
}

int gui_video_init(char *err, size_t errlen)
{
    /* Without a display SDL would try each driver, and libwayland prints
     * its own line ("XDG_RUNTIME_DIR is invalid ...") before ours. An
     * explicit SDL_VIDEODRIVER (kmsdrm on a console, dummy in tests) is
     * still tried. */
    if (!env_set("SDL_VIDEODRIVER") && !env_set("DISPLAY") && !env_set("WAYLAND_DISPLAY")) {
        snprintf(err, errlen, "no display (neither DISPLAY nor WAYLAND_DISPLAY is set)");
        return CV_EUNAVAIL;
    }
    /* The renderer is built for SDL's software path (see docs/GUI.md):
     * by default skip the GL renderer, whose driver load alone costs
     * ~100 MB and ~300 ms where GL is a software rasterizer. The
     * environment (SDL_RENDER_DRIVER, SDL_FRAMEBUFFER_ACCELERATION)
     * still overrides these hints. */
    SDL_SetHint(SDL_HINT_RENDER_DRIVER, "software");
    SDL_SetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0");
    /* Only an X display named: ask for X11 alone. Otherwise an X server
     * that refuses the connection for a moment (busy, or resetting after
     * its last client left) sends SDL on to Wayland, which prints its own
     * line, and then to the window-less "offscreen" driver. Such a refusal
     * passes, so the connection is tried four times over about 1.75 s. */
    bool x11_only = !env_set("SDL_VIDEODRIVER") && !env_set("WAYLAND_DISPLAY");
    if (x11_only)
        SDL_SetHint(SDL_HINT_VIDEODRIVER, "x11");
    for (int attempt = 0;; attempt++) {
        if (SDL_InitSubSystem(SDL_INIT_VIDEO) == 0)
            break;
        if (!x11_only || attempt == 3) {
            if (x11_only)
                snprintf(err, errlen, "no display (no X server takes a connection on DISPLAY=%s)",
                         getenv("DISPLAY"));
            else
                snprintf(err, errlen, "no display (%s)", SDL_GetError());
            return CV_EUNAVAIL;
        }
        SDL_Delay(250u << attempt);
    }
    const char *drv = SDL_GetCurrentVideoDriver();
    if (drv && (strcmp(drv, "dummy") == 0 || strcmp(drv, "offscreen") == 0)) {
        snprintf(err, errlen, "no display (SDL video driver \"%s\")", drv);
        SDL_QuitSubSystem(SDL_INIT_VIDEO);
        return CV_EUNAVAIL;
    }
    return CV_OK;
}

void gui_fit_display(int *w, int *h)
{
    SDL_Rect r;
    if (SDL_GetDisplayUsableBounds(0, &r) != 0 || r.w < 320 || r.h < 240)
        return; /* nothing sensible to fit to: keep the size */
    int maxw = r.w - 16, maxh = r.h - 48; /* the window manager's frame and title bar */
    if (*w > maxw)
        *w = maxw < 320 ? 320 : maxw;
    if (*h > maxh)
        *h = maxh < 240 ? 240 : maxh;
}

/* ------------------------------------------------------------ main loop */

void gui_loop_init(gui_loop *l)
{
    l->last = cv_now_seconds();
    l->dirty = true;
    l->redraw = false;
}

bool gui_loop_busy(const gui *g)
{
    return g->playing || g->exit_after > 0 || gui__steptl_moving(g);
}

bool gui_frame(gui *g, gui_loop *l, bool may_wait)
{
    SDL_Event e;
    /* Paused and nothing changing: sleep until something happens. */
    bool idle = !g->playing && !g->dragging && !(g->has_message && g->message_until > 0) &&
                g->exit_after == 0 && !gui__steptl_moving(g);
    if (may_wait && idle && !l->dirty && SDL_WaitEventTimeout(&e, 250)) {
        gui_handle_event(g, &e);
        l->dirty = true;
    }
    while (SDL_PollEvent(&e)) {
        gui_handle_event(g, &e);
        l->dirty = true;
    }
    double now = cv_now_seconds(), dt = now - l->last;
    l->last = now;
    if (dt > 0.25)
        dt = 0.25; /* after a stall, don't jump a whole step */
    bool was_playing = g->playing, sweeping = gui__steptl_moving(g);
    gui_tick(g, dt);
    if (g->hooks.on_frame)
        g->hooks.on_frame(g->hooks.user, g);
    /* --frames N counts frames, so a window that must quit after N
     * never idles: it draws at ~60 fps instead of waiting for events
     * that may never come (a bare X server sends none). */
    if (g->playing || was_playing || sweeping || g->message_until > 0 || g->exit_after > 0 ||
        l->redraw)
        l->dirty = true;
    l->redraw = false;
    if (g->quit)
        return false;
    if (l->dirty) {
        gui_render(g);
        SDL_RenderPresent(g->ren);
        g->frames++;
        if (g->first_frame_cb)
            g->first_frame_cb(g), g->first_frame_cb = NULL;
        l->dirty = false;
        if (g->exit_after > 0 && g->frames >= g->exit_after)
            g->quit = true;
    }
    return !g->quit;
}

/* The browser's gui_run and gui_run_loop are app/web/web_loop.c's: they
 * hand each frame back to the browser instead of looping here. */
#ifndef __EMSCRIPTEN__
void gui_run_loop(bool (*frame)(void *state, bool may_wait), void *state)
{
    while (frame(state, true))
        ;
}

int gui_run(gui *g)
{
    gui_loop l;
    gui_loop_init(&l);
    for (;;) {
        double start = cv_now_seconds();
        if (!gui_frame(g, &l, true))
            break;
        if (gui_loop_busy(g)) {
            /* Vsync paces us where it exists; elsewhere cap at ~60 fps. */
            double spent = cv_now_seconds() - start;
            if (spent < 0.016)
                SDL_Delay((Uint32)((0.016 - spent) * 1000) + 1);
        }
    }
    return 0;
}
#endif

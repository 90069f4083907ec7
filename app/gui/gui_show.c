/*
 * gui_show.c: `collviz show FILE`: a `collviz bench --json` result, or the
 * table nccl-tests printed, replayed as a bandwidth-versus-size chart
 * (render/rd_chart.h), measured busbw and algbw with the cost model's
 * busbw beside them.
 *
 * Three ways out: a resizable window (hover a point for its row, S saves a
 * PNG, T theme, Y linear/log, Esc or Q quits); --out FILE.png, drawn on a
 * software renderer over a surface with no display at all; and, where
 * there is no display and no --out, the rows as a text table with one line
 * saying why. The file is checked before any of them (show_data.c), so a
 * bad file is one clear line and exit 2 whichever way was asked for.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "gui_cmds.h"
#include "gui.h"
#include "rd_chart.h"
#include "show.h"

static const char show_help[] =
    "usage: collviz show FILE [--out FILE.png] [--size WxH] [--link PRESET | --bw GBps]\n"
    "                    [--alpha us] [--theme dark|light|projector]\n"
    "                    [--scale auto|linear|log] [--table]\n"
    "                    [--op OP] [--ranks N] [--algo A] [--inter-link PRESET]\n"
    "                    [--nccl PRESET [--nodes K] [--gpus-per-node N] [--nccl-algo LIST]]\n\n"
    "Replays a measured result as a bandwidth-versus-size chart: message size on a\n"
    "log axis, measured busbw and algbw as lines with points, and the cost model's\n"
    "predicted busbw dashed beside them (each size's plan rebuilt from the op, algo,\n"
    "ranks and dtype and priced as `collviz cost` prices it). FILE is either\n"
    "  - the JSON of `collviz bench ... --json > FILE`, or\n"
    "  - the text nccl-tests prints (all_reduce_perf and the others), whole or as\n"
    "    pasted: launcher prefixes, a missing header, old and new versions. The op\n"
    "    comes from the program's name, the ranks, hosts and GPU from the \"#  Rank\"\n"
    "    lines; what the paste leaves out is inferred where busbw/algbw decides it\n"
    "    (and said in a note), or asked for:\n"
    "  --op OP        the collective, where the paste does not name its program (or\n"
    "                 to pick one test of several in the file)\n"
    "  --ranks N      the rank count, where the paste has no \"#  Rank\" lines\n"
    "  --algo A       the algorithm the model prices (NCCL picks its own; default\n"
    "                 ring where the op has one)\n"
    "  --inter-link P the network between hosts when the Rank lines name several\n"
    "                 (default from the GPU: ib-ndr for H100/H200, ib-hdr for A100)\n"
    "  - or an NCCL_DEBUG=INFO log with NCCL_DEBUG_SUBSYS=TUNING: NCCL's choice of\n"
    "    algorithm and protocol by size from its tuning table (8 B .. 16 GiB), the\n"
    "    best Ring and Tree as lines, marks where the pick changes, collviz's model\n"
    "    beside it; --op picks the collective (default: the one its per-call lines\n"
    "    name, else allreduce)\n"
    "  --choice       NCCL's tuning table even where the file holds nccl-tests rows\n"
    "  --nccl P       price the rows with NCCL's own choice as its tuner would make it\n"
    "                 on preset P (see collviz cost --nccl h100-8 --help) instead of\n"
    "                 collviz's plan; --nodes K (default: the ranks over P's GPUs a\n"
    "                 node), --gpus-per-node N, --nccl-algo LIST as NCCL_ALGO; on a\n"
    "                 tuning table, the model's pick beside NCCL's, and how often they agree\n"
    "%s" /* --link, with the presets from their table: link_help */
    "  --out F.png    write the chart as PNG (1280x800, or --size) without a window\n"
    "  --scale S      the GB/s axis: linear, log, or auto (log when one line peaks\n"
    "                 more than 20x above another; the default)\n"
    "  --theme, --size  dark, light or projector; WxH (both for the window and PNG)\n"
    "  --table        print the rows (and the model's) as text, with no window\n"
    "In the window: hover a point for its row, S saves a PNG in the current\n"
    "directory, T changes the theme, Y toggles linear/log, Esc or Q quits.\n"
    "Without a display and without --out, the table is printed instead.\n";

/* The help's --link entry, the presets listed from their table
 * (cv_link_names) and the words wrapped at 80 columns under the options'
 * indent. */
static void link_help(char *out, size_t len)
{
    char names[512], words[1024];
    cv_link_names(", ", names, sizeof names);
    snprintf(words, sizeof words,
             "the link the model prices on: a preset (%s) or G GB/s one way with no latency "
             "unless --alpha (microseconds per step) is given. Default: nvlink4 for cuda and "
             "nccl results (for nccl-tests, the GPU's link where its name is known); none for "
             "cpu results, whose limit is memory, which no link models.",
             names);
    size_t used = (size_t)snprintf(out, len, "  --link P, --bw G "), col = used;
    for (char *w = strtok(words, " "); w && used < len; w = strtok(NULL, " ")) {
        size_t wl = strlen(w);
        int n = col + 1 + wl > 80 ? snprintf(out + used, len - used, "\n%17s%s", "", w)
                                  : snprintf(out + used, len - used, " %s", w);
        col = col + 1 + wl > 80 ? 17 + wl : col + 1 + wl;
        used += n > 0 ? (size_t)n : 0;
    }
    if (used < len)
        snprintf(out + used, len - used, "\n");
}

typedef struct {
    const show_result *res;
    rd_chart_point *points;
    char title[256], subtitle[512], model_label[256], tooltip[512], message[1100];
    bool have_model;
    /* NCCL's choice (a "nccl-log" result): the lines renamed, the crossovers */
    bool choice;
    int nmarks;
    rd_chart_mark marks[NCCLOG_CHOICE_SIZES];
    rd_theme_id theme;
    rd_chart_scale scale;
    bool auto_scale;
} show_view;

static void view_data(show_view *v, rd_chart_data *d, bool window)
{
    *d = (rd_chart_data){.title = v->title, .subtitle = v->subtitle,
                         .model_label = v->model_label, .have_model = v->have_model,
                         .npoints = v->res->nrows, .points = v->points, .theme = v->theme,
                         .hover = -1, .dpi_scale = 1};
    if (v->choice) {
        d->labels[RD_SERIES_BUSBW] = "Ring (NCCL's model, best protocol)";
        d->labels[RD_SERIES_ALGBW] = "Tree (NCCL's model, best protocol)";
        d->y_title = "algbw = size / time, GB/s";
        d->nmarks = v->nmarks;
        d->marks = v->marks;
    }
    d->yscale = v->auto_scale ? rd_chart_auto_scale(d) : v->scale;
    if (window) {
        d->footer = "hover a point for its row \xC2\xB7 S save PNG \xC2\xB7 T theme \xC2\xB7 "
                    "Y linear/log \xC2\xB7 Esc/Q quit";
        d->message = v->message[0] ? v->message : NULL;
    }
}

/* The row under the mouse, in the chart's tooltip. */
static void row_tooltip(show_view *v, int i)
{
    if (v->choice) {
        show_choice_tooltip(v->res, i, v->tooltip, sizeof v->tooltip);
        return;
    }
    const show_row *w = &v->res->rows[i];
    char size[32], count[48] = "", wrong[64];
    rd_chart_fmt_size(w->size, size, sizeof size);
    if (w->count >= 0)
        snprintf(count, sizeof count, ", %.0f elements", w->count);
    snprintf(wrong, sizeof wrong, w->wrong < 0 ? "not verified (-c 0)"
                                  : w->wrong == 0 ? "verified: every element right"
                                                  : "WRONG: %.0f elements", w->wrong);
    int n = snprintf(v->tooltip, sizeof v->tooltip,
                     "%s (%.0f B)%s\ntime %.1f \xC2\xB5s\nbusbw %.2f GB/s \xC2\xB7 algbw %.2f GB/s"
                     "\n%s", size, w->size, count, w->time_us, w->busbw, w->algbw, wrong);
    if (v->have_model && n > 0 && (size_t)n < sizeof v->tooltip && w->model_us >= 0)
        snprintf(v->tooltip + n, sizeof v->tooltip - (size_t)n,
                 "\nmodel: %.1f \xC2\xB5s, busbw %.2f GB/s", w->model_us, w->model_busbw);
    else if (v->have_model && n > 0 && (size_t)n < sizeof v->tooltip)
        snprintf(v->tooltip + n, sizeof v->tooltip - (size_t)n,
                 "\nmodel: not priced at this size");
}

static int draw_png(show_view *v, int w, int h, const char *path, char *err, size_t errlen)
{
    int rc = CV_EINVAL;
    SDL_Surface *surf = NULL, *shot = NULL;
    SDL_Renderer *ren = NULL;
    rd_chart *chart = NULL;
    rd_font_paths fonts;
    if (gui_fonts(&fonts, err, errlen) != CV_OK)
        goto fail;
    surf = SDL_CreateRGBSurfaceWithFormat(0, w, h, 32, SDL_PIXELFORMAT_ARGB8888);
    if (!surf || !(ren = SDL_CreateSoftwareRenderer(surf))) {
        snprintf(err, errlen, "cannot create a %dx%d software renderer: %s", w, h, SDL_GetError());
        goto fail;
    }
    if (!(chart = rd_chart_create(ren, &fonts, err, errlen)))
        goto fail;
    rd_chart_data d;
    view_data(v, &d, false);
    rd_chart_draw(chart, &d);
    if (!(shot = rd_read_pixels(ren))) {
        snprintf(err, errlen, "cannot read the chart back: %s", SDL_GetError());
        goto fail;
    }
    rc = rd_save_png(shot, path, err, errlen);
fail:
    SDL_FreeSurface(shot);
    rd_chart_destroy(chart);
    if (ren)
        SDL_DestroyRenderer(ren);
    SDL_FreeSurface(surf);
    return rc;
}

/* S in the window: FILE's stem + "-chart.png" in the current directory,
 * numbered rather than overwriting an earlier one. */
static void save_shot(show_view *v, int w, int h)
{
    const char *base = strrchr(v->res->path, '/');
    base = base ? base + 1 : v->res->path;
    size_t stem = strlen(base);
    if (stem > 5 && !strcmp(base + stem - 5, ".json"))
        stem -= 5;
    char path[600], err[CV_ERR_LEN];
    for (int k = 1; k < 1000; k++) {
        snprintf(path, sizeof path, k == 1 ? "%.*s-chart.png" : "%.*s-chart-%d.png",
                 (int)(stem < 500 ? stem : 500), base, k);
        if (access(path, F_OK) != 0)
            break;
    }
    if (draw_png(v, w, h, path, err, sizeof err) == CV_OK) {
        snprintf(v->message, sizeof v->message, "saved %s", path);
        cli_wrote_file(path, CLI_FILE_USER);
    }
    else
        snprintf(v->message, sizeof v->message, "%s", err);
}

/* The window's state between frames. */
typedef struct {
    show_view *v;
    SDL_Window *win;
    SDL_Renderer *ren;
    rd_chart *chart;
    bool dirty;
    int mx, my;
    double message_until; /* cv_now_seconds() when the message goes */
} show_window;

/* One pass of the window's loop (gui_run_loop): the events waiting (after
 * up to a quarter of a second's wait for one, where may_wait), and the
 * chart drawn again when anything changed. False once it is to close. */
static bool show_frame(void *state, bool may_wait)
{
    show_window *sw = state;
    show_view *v = sw->v;
    SDL_Event e;
    bool got = may_wait ? SDL_WaitEventTimeout(&e, 250) : SDL_PollEvent(&e);
    while (got) {
        if (e.type == SDL_QUIT) {
            return false;
        } else if (e.type == SDL_KEYDOWN) {
            SDL_Keycode k = e.key.keysym.sym;
            if (k == SDLK_ESCAPE || k == SDLK_q) {
                return false;
            } else if (k == SDLK_s) {
                int ow, oh;
                SDL_GetRendererOutputSize(sw->ren, &ow, &oh);
                save_shot(v, ow, oh);
                sw->message_until = cv_now_seconds() + 4.0;
            } else if (k == SDLK_t) {
                v->theme = (rd_theme_id)((v->theme + 1) % rd_theme_count());
            } else if (k == SDLK_y) {
                rd_chart_data d;
                view_data(v, &d, true);
                v->scale = d.yscale == RD_SCALE_LOG ? RD_SCALE_LINEAR : RD_SCALE_LOG;
                v->auto_scale = false;
            }
            sw->dirty = true;
        } else if (e.type == SDL_MOUSEMOTION) {
            sw->mx = e.motion.x;
            sw->my = e.motion.y;
            sw->dirty = true;
        } else if (e.type == SDL_WINDOWEVENT) {
            if (e.window.event == SDL_WINDOWEVENT_LEAVE)
                sw->mx = sw->my = -1;
            sw->dirty = true;
        }
        got = SDL_PollEvent(&e);
    }
    if (sw->message_until && cv_now_seconds() >= sw->message_until) {
        v->message[0] = '\0';
        sw->message_until = 0;
        sw->dirty = true;
    }
    if (!sw->dirty)
        return true;
    int ow = 1, oh = 1, ww = 1, wh = 1;
    SDL_GetRendererOutputSize(sw->ren, &ow, &oh);
    SDL_GetWindowSize(sw->win, &ww, &wh);
    float dpi = ww > 0 ? (float)ow / (float)ww : 1.0f;
    rd_chart_data d;
    view_data(v, &d, true);
    d.dpi_scale = dpi;
    /* Hit-test against the frame on screen, then draw with its tooltip. */
    rd_series hover_s = RD_SERIES_BUSBW;
    int hover = sw->mx < 0 ? -1
                           : rd_chart_hit(sw->chart, (int)(sw->mx * dpi), (int)(sw->my * dpi),
                                          &hover_s);
    if (hover >= 0) {
        row_tooltip(v, hover);
        d.hover = hover;
        d.hover_series = hover_s;
        d.tooltip = v->tooltip;
    }
    rd_chart_draw(sw->chart, &d);
    SDL_RenderPresent(sw->ren);
    sw->dirty = false;
    return true;
}

/* The window; CV_EUNAVAIL (err says why) when there is no display. */
static int run_window(show_view *v, int w, int h, bool fit, char *err, size_t errlen)
{
    int rc = CV_EUNAVAIL;
    show_window sw = {.v = v, .dirty = true, .mx = -1, .my = -1};
    rd_font_paths fonts;
    /* The window's renderer is SDL's software one, as the main window's
     * is (docs/GUI.md: the GL driver costs far more than a chart needs). */
    if (gui_video_init(err, errlen) != CV_OK)
        return CV_EUNAVAIL;
    if (gui_fonts(&fonts, err, errlen) != CV_OK) {
        rc = CV_EINVAL;
        goto done;
    }
    if (fit)
        gui_fit_display(&w, &h);
    char name[1100];
    snprintf(name, sizeof name, "collviz show: %s", v->res->path);
    sw.win = SDL_CreateWindow(name, SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, w, h,
                              SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI);
    if (!sw.win) {
        snprintf(err, errlen, "no display: cannot open a window (%s)", SDL_GetError());
        goto done;
    }
    SDL_SetWindowMinimumSize(sw.win, 320, 240);
    gui_set_icon(sw.win);
    if (!(sw.ren = SDL_CreateRenderer(sw.win, -1, SDL_RENDERER_PRESENTVSYNC)))
        sw.ren = SDL_CreateRenderer(sw.win, -1, SDL_RENDERER_SOFTWARE);
    if (!sw.ren) {
        snprintf(err, errlen, "no display: cannot create a renderer (%s)", SDL_GetError());
        goto done;
    }
    if (!(sw.chart = rd_chart_create(sw.ren, &fonts, err, errlen))) {
        rc = CV_EINVAL;
        goto done;
    }
    rc = CV_OK;
    gui_run_loop(show_frame, &sw);
done:
    rd_chart_destroy(sw.chart);
    if (sw.ren)
        SDL_DestroyRenderer(sw.ren);
    if (sw.win)
        SDL_DestroyWindow(sw.win);
    SDL_QuitSubSystem(SDL_INIT_VIDEO);
    return rc;
}

/* The legend's words for the model, and the table's. */
static void describe_link(const cv_link *l, bool by_default, const char *backend, char *chart,
                          size_t clen, char *text, size_t tlen)
{
    char lat[48] = "no latency";
    if (l->alpha > 0)
        snprintf(lat, sizeof lat, "\xCE\xB1 %.3g \xC2\xB5s per step", l->alpha * 1e6);
    char dflt[48] = "";
    if (by_default)
        snprintf(dflt, sizeof dflt, " (default for %s)", backend);
    snprintf(chart, clen, "model busbw: %s %.4g GB/s, %s%s", l->name ? l->name : "link",
             l->bw / 1e9, lat, dflt);
    snprintf(text, tlen, "%s, %.4g GB/s one way, alpha %.3g us per step%s",
             l->name ? l->name : "--bw", l->bw / 1e9, l->alpha * 1e6, dflt);
}

/* The links the model prices on: --link or --bw; else the GPU's links
 * where a text table names it; else the backend's default. The legend's
 * and the table's words say which and why. */
typedef struct {
    const cv_link *preset, *inter_preset;
    double bw, alpha;
} show_links;

static int choose_links(show_result *res, const show_links *f, show_view *v, cv_link *link,
                        char *about, size_t alen)
{
    bool by_default = !f->preset && !(f->bw > 0);
    char gpu_why[128] = "";
    const cv_link *gpu_inter = NULL;
    const cv_link *gpu = by_default ? show_gpu_link(res->gpu, &gpu_inter, gpu_why, sizeof gpu_why)
                                    : NULL;
    const cv_link *dl = !by_default ? f->preset : gpu ? gpu : show_default_link(res->backend);
    snprintf(about, alen, "none (pass --link or --bw)");
    snprintf(v->model_label, sizeof v->model_label, "model: pass --link or --bw");
    if (f->alpha >= 0 && !dl && !(f->bw > 0))
        return cli_usage_error("--alpha: a %s result has no default link; give --link or --bw "
                               "with it", res->backend);
    if (!dl && !(f->bw > 0))
        return CLI_EXIT_OK;
    *link = dl ? *dl : (cv_link){NULL, f->bw * 1e9, 0, 0, NULL, CV_HW_NVLINK};
    if (f->alpha >= 0)
        link->alpha = f->alpha * 1e-6;
    describe_link(link, by_default && !gpu, res->backend, v->model_label,
                  sizeof v->model_label, about, alen);
    if (gpu) {
        size_t n = strlen(v->model_label);
        snprintf(v->model_label + n, sizeof v->model_label - n, " (%s)", gpu_why);
        n = strlen(about);
        snprintf(about + n, alen - n, " (%s)", gpu_why);
    }
    const cv_link *inter = f->inter_preset ? f->inter_preset : gpu_inter ? gpu_inter
                                                                         : cv_link_find("ib-ndr");
    if (cv_spec_nodes(&res->spec) > 1 && inter) {
        res->inter = *inter;
        res->has_inter = true;
        char more[160];
        snprintf(more, sizeof more, "; %d hosts: %s between them", cv_spec_nodes(&res->spec),
                 inter->name);
        strncat(v->model_label, more, sizeof v->model_label - strlen(v->model_label) - 1);
        strncat(about, more, alen - strlen(about) - 1);
    }
    if (!strcmp(res->backend, "nccl") && strcmp(res->source, "nccl-log")) {
        char algo[96];
        snprintf(algo, sizeof algo, "; the model prices %s", cv_algo_name(res->spec.algo));
        strncat(v->model_label, algo, sizeof v->model_label - strlen(v->model_label) - 1);
        strncat(about, algo, alen - strlen(about) - 1);
    }
    return -1; /* priced */
}

/* The file's notes (what was inferred, assumed or left out), one line each. */
static void print_notes(const show_result *res)
{
    const char *p = res->notes;
    while (*p) {
        const char *e = strchr(p, '\n');
        int n = e ? (int)(e - p) : (int)strlen(p);
        fprintf(stderr, "collviz: note: %.*s\n", n, p);
        p += n + (e ? 1 : 0);
    }
}

int gui_cmd_show(int argc, char **argv)
{
    static const char *const scales[] = {"auto", "linear", "log", NULL};
    const char *file = NULL, *out = NULL, *link_name = NULL, *inter_name = NULL, *scale = "auto";
    show_links f = {.alpha = -1};
    show_hints hints = {.op = -1, .ranks = 0, .algo = -1};
    bool table = false;
    const char *nccl = NULL, *nccl_algo = NULL;
    int nodes = 0, ppn = 0;
    int size[2] = {1280, 800};
    show_view v = {.theme = RD_THEME_DARK, .auto_scale = true};
    cli_flag flags[] = {
        CLI_TEXT("--out", &out),
        CLI_WXH("--size", size, 16384),
        CLI_PICK("--link", &link_name, cli_link_names()),
        CLI_PICK("--inter-link", &inter_name, cli_link_names()),
        CLI_NUMBER("--bw", &f.bw, 1e-3, 1e6, "GB/s"),
        CLI_NUMBER("--alpha", &f.alpha, 0, 1e6, "microseconds"),
        CLI_ENUM("--theme", &v.theme, &gui_themes),
        CLI_PICK("--scale", &scale, scales),
        CLI_SWITCH("--table", &table),
        CLI_ENUM("--op", &hints.op, &cli_ops),
        CLI_ENUM("--algo", &hints.algo, &cli_algos),
        CLI_INT("--ranks", &hints.ranks, 1, CV_MAX_RANKS),
        CLI_SWITCH("--choice", &hints.choice),
        CLI_PICK("--nccl", &nccl, ncclog_system_names()),
        CLI_INT("--nodes", &nodes, 1, 1024),
        CLI_INT("--gpus-per-node", &ppn, 1, 8),
        CLI_TEXT("--nccl-algo", &nccl_algo),
    };
    char links[1200], help[sizeof show_help + sizeof links];
    link_help(links, sizeof links);
    snprintf(help, sizeof help, show_help, links);
    cli_cmdline cl = CLI_CMDLINE_ARGS("show", help, flags, &file, 1, "FILE");
    int code;
    if (!cli_flags_parse(&cl, argc, argv, &code))
        return code;
    int w = size[0], h = size[1];
    bool sized = cli_flag_given(&cl, "--size");
    f.preset = link_name ? cv_link_find(link_name) : NULL;
    f.inter_preset = inter_name ? cv_link_find(inter_name) : NULL;
    v.auto_scale = !strcmp(scale, "auto");
    v.scale = !strcmp(scale, "log") ? RD_SCALE_LOG : RD_SCALE_LINEAR;
    if (!file)
        return cli_usage_error("show: give the file that `collviz bench ... --json > FILE` "
                               "or nccl-tests wrote (see collviz show --help)");
    if (f.preset && f.bw > 0)
        return cli_usage_error("--bw: give either --link or --bw, not both");

    show_result res;
    char err[1200];
    int status = CLI_EXIT_OK;
    if (show_load(file, &hints, &res, err, sizeof err) != CV_OK) {
        fprintf(stderr, "collviz: %s\n", err);
        return CLI_EXIT_USAGE;
    }
    if (!strcmp(res.source, "collviz") &&
        (hints.op >= 0 || hints.ranks > 0 || hints.algo >= 0 || inter_name || hints.choice)) {
        show_result_destroy(&res);
        return cli_usage_error("--op, --ranks, --algo, --inter-link and --choice are for "
                               "nccl-tests' text and NCCL's logs; %s is collviz bench's JSON, "
                               "which states them", file);
    }
    print_notes(&res);
    v.res = &res;
    cv_link link;
    char about[512];
    v.choice = !strcmp(res.source, "nccl-log");
    if (!nccl && (nodes || ppn || nccl_algo)) {
        show_result_destroy(&res);
        return cli_usage_error("--nodes, --gpus-per-node and --nccl-algo go with --nccl PRESET");
    }
    if (nccl) {
        if (f.preset || f.bw > 0 || inter_name) {
            show_result_destroy(&res);
            return cli_usage_error("--nccl prices the rows with NCCL's tuner, modelled; it does "
                                   "not go with --link, --bw or --inter-link");
        }
        ncclog_system sys = *ncclog_system_find(nccl);
        ncclog_system_gpus(&sys, ppn);
        sys.nodes = nodes ? nodes
                    : res.spec.ranks > sys.gpus_per_node && res.spec.ranks % sys.gpus_per_node == 0
                        ? res.spec.ranks / sys.gpus_per_node
                        : 1;
        if (show_model_nccl(&res, &sys, nccl_algo, about, sizeof about, err, sizeof err)) {
            fprintf(stderr, "collviz: %s\n", err);
            show_result_destroy(&res);
            return CLI_EXIT_USAGE;
        }
        snprintf(v.model_label, sizeof v.model_label, "NCCL's tuner, modelled: %s, %d node%s%s%s",
                 sys.name, sys.nodes, sys.nodes == 1 ? "" : "s", nccl_algo ? ", NCCL_ALGO=" : "",
                 nccl_algo ? nccl_algo : "");
        v.have_model = true;
    }
    int chosen = nccl ? CLI_EXIT_OK : choose_links(&res, &f, &v, &link, about, sizeof about);
    if (v.choice && res.spec.ranks < 1 && chosen < 0) {
        /* no ranks in the log: nothing to price collviz's plan on */
        snprintf(v.model_label, sizeof v.model_label, "collviz model: needs the rank count "
                 "(--ranks N; the log names no communicator)");
        snprintf(about, sizeof about, "none: the log names no communicator (--ranks N)");
        chosen = CLI_EXIT_OK;
    } else if (v.choice && chosen < 0) {
        char words[sizeof v.model_label];
        snprintf(words, sizeof words, "collviz %s, %d ranks: %.200s", cv_algo_name(res.spec.algo),
                 res.spec.ranks, v.model_label + (strncmp(v.model_label, "model busbw: ", 13)
                                                      ? 0 : 13));
        snprintf(v.model_label, sizeof v.model_label, "%s", words);
    }
    if (chosen >= 0) {
        status = chosen;
        if (status != CLI_EXIT_OK)
            goto done;
    } else {
        int priced = 0;
        if (show_model(&res, &link, &priced, err, sizeof err) != CV_OK) {
            fprintf(stderr, "collviz: %s\n", err);
            status = CLI_EXIT_USAGE;
            goto done;
        }
        if (priced < res.nrows)
            fprintf(stderr, "collviz: note: the model is priced at %d of the %d sizes, spread "
                            "over the axis from the first to the last (pricing all %d plans of "
                            "%d ranks would take more than a few seconds); the dashed line runs "
                            "through those\n",
                    priced, res.nrows, res.nrows, res.spec.ranks);
        v.have_model = true;
    }
    if (!(v.points = calloc((size_t)res.nrows, sizeof *v.points))) {
        fprintf(stderr, "collviz: out of memory\n");
        status = CLI_EXIT_USAGE;
        goto done;
    }
    for (int i = 0; i < res.nrows; i++) {
        const show_row *row = &res.rows[i];
        v.points[i] = (rd_chart_point){row->size, {row->busbw, row->algbw, row->model_busbw},
                                       row->wrong > 0};
        if (v.choice) /* every line as algbw = size / time, NCCL's and collviz's alike */
            v.points[i].gbps[RD_SERIES_MODEL] =
                row->model_us > 0 ? row->size / (row->model_us * 1e3) : -1;
    }
    if (v.choice) {
        double sizes[NCCLOG_CHOICE_SIZES];
        const char *labels[NCCLOG_CHOICE_SIZES];
        v.nmarks = show_choice_marks(&res, sizes, labels, NCCLOG_CHOICE_SIZES);
        for (int k = 0; k < v.nmarks; k++)
            v.marks[k] = (rd_chart_mark){sizes[k], labels[k]};
    }
    show_title(&res, v.title, sizeof v.title);
    char origin[256];
    show_origin(&res, origin, sizeof origin);
    int n = snprintf(v.subtitle, sizeof v.subtitle, "%s%s%s", file, origin[0] ? " \xC2\xB7 " : "",
                     origin);
    if (res.iters >= 0 && n > 0 && (size_t)n < sizeof v.subtitle)
        n += snprintf(v.subtitle + n, sizeof v.subtitle - (size_t)n,
                      " \xC2\xB7 %ld iterations after %ld warmup", res.iters,
                      res.warmup > 0 ? res.warmup : 0);
    if (n > 0 && (size_t)n < sizeof v.subtitle && v.choice)
        snprintf(v.subtitle + n, sizeof v.subtitle - (size_t)n,
                 " \xC2\xB7 line %ld \xC2\xB7 NCCL picks the least latency + size / bandwidth "
                 "(marks: where its pick changes)%s", res.table_line,
                 res.checked ? "" : "");
    else if (n > 0 && (size_t)n < sizeof v.subtitle)
        snprintf(v.subtitle + n, sizeof v.subtitle - (size_t)n,
                 " \xC2\xB7 busbw = algbw \xC3\x97 %.4g", cv_spec_busbw_factor(&res.spec));
    n = (int)strlen(v.subtitle);
    if (v.choice && res.checked && (size_t)n < sizeof v.subtitle)
        snprintf(v.subtitle + n, sizeof v.subtitle - (size_t)n,
                 " \xC2\xB7 its per-call lines agree at %d of %d sizes", res.agree, res.checked);

    if (table)
        show_print_table(stdout, &res, about);
    if (out) {
        if (draw_png(&v, w, h, out, err, sizeof err) != CV_OK) {
            fprintf(stderr, "collviz: %s\n", err);
            status = CLI_EXIT_USAGE;
        } else {
            printf("collviz: wrote %s (%dx%d)\n", cli_esc(out), w, h);
        }
    }
    if (table || out)
        goto done;
    int rc = run_window(&v, w, h, !sized, err, sizeof err);
    if (rc == CV_EUNAVAIL) {
        fprintf(stderr, "collviz: %s: printing the table instead (--out FILE.png draws the "
                        "chart without a display)\n", err);
        show_print_table(stdout, &res, about);
    } else if (rc != CV_OK) {
        fprintf(stderr, "collviz: %s\n", err);
        status = CLI_EXIT_USAGE;
    }
    SDL_Quit();
done:
    free(v.points);
    show_result_destroy(&res);
    return status;
}

/*
 * test_show.c: `collviz show`, a bench --json result drawn as a chart.
 *
 * Bad files (missing, not JSON, no results, a size that is not a number)
 * must give exit 2 and one line naming the file and what is wrong. A real
 * result, made by running the built collviz bench, must load, render to a
 * PNG of the asked size that is not blank, and carry a model line equal to
 * cv_cost_plan for the same plan, both in the loaded rows, in the printed
 * table and where the chart puts the model's marker. The chart's layout
 * must stay inside the output from 320x240 to 4K in every theme.
 */
#define _POSIX_C_SOURCE 200809L
#include <SDL_image.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "rd_chart.h"
#include "show.h"
#include "check.h"
#include "test_cli_util.h"

#define DIR COLLVIZ_BINARY_DIR "/show-test"

/* The output of the last run, stdout and stderr together. */
#define out tc_out

static int run(const char *args) { return tc_run(NULL, args); }

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f || fputs(text, f) < 0) {
        printf("FAIL: cannot write %s\n", path);
        exit(1);
    }
    fclose(f);
}

static const char header[] = "{\"op\": \"allreduce\", \"algo\": \"ring\", \"ranks\": 4, "
                             "\"backend\": \"cpu\", \"dtype\": \"float32\"";

/* A bad file: exit 2, one line, naming the file and `what`. */
static void bad_file(const char *name, const char *text, const char *what)
{
    char path[512], args[1024];
    snprintf(path, sizeof path, DIR "/%s", name);
    if (text)
        write_file(path, text);
    snprintf(args, sizeof args, "show '%s' --out " DIR "/never.png", path);
    int rc = run(args);
    EXPECT(rc == 2, "%s: exit %d, want 2: %s", name, rc, out);
    EXPECT(strstr(out, name) != NULL, "%s: message does not name the file: %s", name, out);
    EXPECT(strstr(out, what) != NULL, "%s: message lacks '%s': %s", name, what, out);
    EXPECT(strchr(out, '\n') == out + strlen(out) - 1, "%s: want one line: %s", name, out);
}

static void bad_inputs(void)
{
    char text[1024];
    bad_file("nope.json", NULL, "cannot open");
    bad_file("notjson.json", "{\"op\": \"allreduce\", oops", "not JSON");
    bad_file("empty.json", "  \n", "empty file");
    bad_file("array.json", "[1, 2]", "expected an object");
    snprintf(text, sizeof text, "%s}", header);
    bad_file("noresults.json", text, "\"results\"");
    snprintf(text, sizeof text, "%s, \"results\": []}", header);
    bad_file("emptyresults.json", text, "\"results\" is empty");
    snprintf(text, sizeof text, "%s, \"results\": [{\"size\": \"big\", \"time_us\": 1, "
             "\"algbw_GBps\": 1, \"busbw_GBps\": 1}]}", header);
    bad_file("sizestring.json", text, "results[0].size is a string");
    snprintf(text, sizeof text, "%s, \"results\": [{\"size\": 1024, \"time_us\": 1, "
             "\"algbw_GBps\": 1}]}", header);
    bad_file("nobusbw.json", text, "results[0].busbw_GBps");
    bad_file("badalgo.json", "{\"op\": \"allreduce\", \"algo\": \"bruck\", \"ranks\": 4, "
             "\"backend\": \"cpu\", \"dtype\": \"float32\", \"results\": []}", "\"algo\"");
    bad_file("noranks.json", "{\"op\": \"allreduce\", \"algo\": \"ring\", \"backend\": \"cpu\", "
             "\"dtype\": \"float32\", \"results\": []}", "\"ranks\"");
    int rc = run("show");
    EXPECT(rc == 2, "show without a file: exit %d: %s", rc, out);
    rc = run("show --help");
    EXPECT(rc == 0 && strstr(out, "usage: collviz show"), "--help: exit %d: %s", rc, out);
}

/* Predicted busbw (GB/s) of ring allreduce on 4 ranks of float32 at size
 * bytes on nvlink4, computed here without show_model. */
static double expected_model(double size)
{
    cv_spec s;
    cv_spec_init(&s);
    s.op = CV_OP_ALLREDUCE;
    s.algo = CV_ALGO_RING;
    s.ranks = 4;
    s.dtype = CV_FLOAT32;
    s.count = (int64_t)(size / 4);
    cv_plan *plan = NULL;
    char err[CV_ERR_LEN];
    if (cv_plan_create(&s, &plan, err, sizeof err) != CV_OK) {
        printf("FAIL: plan: %s\n", err);
        return -1;
    }
    cv_cost c;
    cv_cost_plan(plan, cv_link_find("nvlink4"), &c);
    cv_plan_destroy(plan);
    return c.busbw / 1e9;
}

/* Pixels of exactly colour c, and pixels unlike the top-left (background). */
static void count_pixels(SDL_Surface *s, SDL_Color c, long *exact, long *unlike_bg)
{
    Uint32 want = SDL_MapRGB(s->format, c.r, c.g, c.b), *px = s->pixels;
    Uint32 bg = px[0] & 0xFFFFFF;
    *exact = *unlike_bg = 0;
    for (int y = 0; y < s->h; y++)
        for (int x = 0; x < s->w; x++) {
            Uint32 v = ((Uint32 *)((Uint8 *)s->pixels + y * s->pitch))[x] & 0xFFFFFF;
            *exact += v == (want & 0xFFFFFF);
            *unlike_bg += v != bg;
        }
}

static SDL_Surface *load_argb(const char *path)
{
    SDL_Surface *raw = IMG_Load(path);
    SDL_Surface *s = raw ? SDL_ConvertSurfaceFormat(raw, SDL_PIXELFORMAT_ARGB8888, 0) : NULL;
    SDL_FreeSurface(raw);
    return s;
}

/* The bench result: loaded rows, the model against cv_cost_plan, the table. */
static void real_result(const char *json)
{
    show_result r;
    char err[1200];
    int rc = show_load(json, NULL, &r, err, sizeof err);
    EXPECT(rc == CV_OK, "show_load: %s", err);
    if (rc != CV_OK)
        return;
    EXPECT(r.nrows == 6 && r.spec.op == CV_OP_ALLREDUCE && r.spec.ranks == 4 &&
               r.spec.algo == CV_ALGO_RING && !strcmp(r.backend, "cpu"),
           "bench result read back as %d rows, op %d, %d ranks", r.nrows, r.spec.op, r.spec.ranks);
    EXPECT(show_default_link("cpu") == NULL && show_default_link("cuda") != NULL,
           "default links: none for cpu, one for cuda");
    int priced = 0;
    rc = show_model(&r, cv_link_find("nvlink4"), &priced, err, sizeof err);
    EXPECT(rc == CV_OK && priced == r.nrows, "show_model: %s (%d of %d rows priced)", err, priced,
           r.nrows);
    for (int i = 0; rc == CV_OK && i < r.nrows; i++) {
        double want = expected_model(r.rows[i].size);
        EXPECT(fabs(r.rows[i].model_busbw - want) <= 1e-9 * want, "row %d (%.0f B): model %g, "
               "cv_cost_plan %g", i, r.rows[i].size, r.rows[i].model_busbw, want);
    }
    show_result_destroy(&r);

    char args[1024];
    snprintf(args, sizeof args, "show '%s' --table --link nvlink4", json);
    rc = run(args);
    double col[8] = {0};
    int got = 0;
    for (const char *line = out; line && got != 8; line = strchr(line + 1, '\n')) {
        got = sscanf(line, "%lf %lf %lf %lf %lf %lf %lf %lf", &col[0], &col[1], &col[2],
                     &col[3], &col[4], &col[5], &col[6], &col[7]);
        got = got == 8 && col[0] == 1048576 ? 8 : 0;
    }
    double want = expected_model(1048576);
    EXPECT(rc == 0 && got == 8 && fabs(col[7] - want) < 0.006,
           "table at 1 MiB: model busbw %g, cv_cost_plan %g (exit %d): %s", col[7], want, rc, out);
    /* No display and no --out: one line why, then the table; exit 0. */
    snprintf(args, sizeof args, "show '%s'", json);
    setenv("SDL_VIDEODRIVER", "dummy", 1);
    rc = run(args);
    EXPECT(rc == 0 && strstr(out, "no display") && strstr(out, "1048576") &&
               strstr(out, "pass --link or --bw"), "no display: exit %d: %s", rc, out);
}

/* The PNGs: size, not blank, the model drawn only when there is one. */
static void pngs(const char *json)
{
    static const struct {
        const char *flags, *png;
        bool model;
    } cases[] = {{"", "cpu.png", false}, {"--link nvlink4", "nvlink4.png", true},
                 {"--bw 20 --theme light --scale log", "light.png", true}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char args[1024], path[512];
        snprintf(path, sizeof path, DIR "/%s", cases[k].png);
        snprintf(args, sizeof args, "show '%s' %s --out '%s' --size 900x560", json,
                 cases[k].flags, path);
        int rc = run(args);
        EXPECT(rc == 0, "%s: exit %d: %s", args, rc, out);
        SDL_Surface *s = load_argb(path);
        EXPECT(s && s->w == 900 && s->h == 560, "%s: not a 900x560 PNG", path);
        if (!s)
            continue;
        rd_theme_id th = strstr(cases[k].flags, "light") ? RD_THEME_LIGHT : RD_THEME_DARK;
        long bus, model, ink;
        count_pixels(s, rd_chart_series_color(th, RD_SERIES_BUSBW), &bus, &ink);
        count_pixels(s, rd_chart_series_color(th, RD_SERIES_MODEL), &model, &ink);
        EXPECT(ink > 900 * 560 / 20, "%s: only %ld pixels differ from the background", path, ink);
        EXPECT(bus > 200, "%s: the busbw line has only %ld pixels", path, bus);
        EXPECT(cases[k].model ? model > 200 : model < 10, "%s: %ld pixels of the model colour",
               path, model);
        SDL_FreeSurface(s);
    }
}

/* rd_chart directly: the model marker sits where the chart says, in the
 * model's colour, and layouts stay inside the output. */
static void chart_direct(const rd_font_paths *fonts)
{
    rd_chart_point pts[6];
    for (int i = 0; i < 6; i++) {
        double size = 1024.0 * pow(4, i);
        pts[i] = (rd_chart_point){size, {0.5 + 0.5 * i, 0.3 + 0.3 * i, expected_model(size)},
                                  i == 2};
    }
    static const int sizes[][2] = {{320, 240}, {900, 560}, {1280, 800}, {3840, 2160}};
    for (int t = 0; t < RD_THEME_COUNT; t++)
        for (int k = 0; k < 4; k++) {
            int w = sizes[k][0], h = sizes[k][1];
            SDL_Surface *s = SDL_CreateRGBSurfaceWithFormat(0, w, h, 32, SDL_PIXELFORMAT_ARGB8888);
            SDL_Renderer *r = s ? SDL_CreateSoftwareRenderer(s) : NULL;
            char err[256];
            rd_chart *c = r ? rd_chart_create(r, fonts, err, sizeof err) : NULL;
            EXPECT(c != NULL, "chart at %dx%d", w, h);
            if (c) {
                rd_chart_data d = {.title = "AllReduce ring, 4 ranks", .subtitle = "test",
                                   .model_label = "model busbw: nvlink4", .have_model = true,
                                   .npoints = 6, .points = pts, .theme = (rd_theme_id)t,
                                   .hover = -1, .footer = "keys"};
                d.yscale = rd_chart_auto_scale(&d);
                EXPECT(d.yscale == RD_SCALE_LOG, "a model 30x over the measurement is log");
                /* First with a tooltip (layout), then without (colours: the
                 * tooltip may cover a marker). */
                d.hover = 3;
                d.hover_series = RD_SERIES_ALGBW;
                d.tooltip = "1 MiB (1048576 B)\nline two";
                rd_chart_draw(c, &d);
                rd_series hs;
                int x, y;
                EXPECT(rd_chart_point_xy(c, 3, RD_SERIES_ALGBW, &x, &y) &&
                           rd_chart_hit(c, x, y, &hs) == 3 && hs == RD_SERIES_ALGBW,
                       "hit test on the hovered algbw point at %d,%d (%dx%d): %d/%d", x, y, w,
                       h, rd_chart_hit(c, x, y, &hs), hs);
                d.hover = -1;
                rd_chart_draw(c, &d);
                SDL_Rect p = rd_chart_plot_rect(c);
                EXPECT(p.x > 0 && p.y > 0 && p.w > 40 && p.h > 40 && p.x + p.w <= w &&
                           p.y + p.h <= h, "plot %d,%d %dx%d inside %dx%d", p.x, p.y, p.w, p.h,
                       w, h);
                for (int i = 0; i < 6; i++)
                    for (int sr = 0; sr < RD_SERIES_COUNT; sr++) {
                        int px = 0, py = 0;
                        bool drawn = rd_chart_point_xy(c, i, (rd_series)sr, &px, &py);
                        EXPECT(drawn && px >= p.x && px <= p.x + p.w && py >= p.y &&
                                   py <= p.y + p.h, "point %d/%d at %d,%d outside the plot "
                               "(%dx%d)", i, sr, px, py, w, h);
                    }
                rd_chart_point_xy(c, 5, RD_SERIES_MODEL, &x, &y);
                SDL_Color want = rd_chart_series_color((rd_theme_id)t, RD_SERIES_MODEL);
                Uint32 v = ((Uint32 *)((Uint8 *)s->pixels + y * s->pitch))[x];
                EXPECT(((v >> 16) & 255) == want.r && ((v >> 8) & 255) == want.g &&
                           (v & 255) == want.b, "model marker at %d,%d is %06x (%dx%d)", x, y,
                       v & 0xFFFFFF, w, h);
                EXPECT(rd_chart_hit(c, x + 2, y + 1, &hs) == 5 && hs == RD_SERIES_MODEL,
                       "hit test at the model marker");
                EXPECT(rd_chart_hit(c, p.x + p.w / 2, 2, &hs) == -1, "hit test far away");
                d.have_model = false;
                rd_chart_draw(c, &d);
                EXPECT(!rd_chart_point_xy(c, 5, RD_SERIES_MODEL, &x, &y), "model hidden");
            }
            rd_chart_destroy(c);
            if (r)
                SDL_DestroyRenderer(r);
            SDL_FreeSurface(s);
        }
}

static void size_labels(void)
{
    char b[32];
    static const struct {
        double v;
        const char *s;
    } fmt[] = {{8, "8 B"}, {1024, "1 KiB"}, {1 << 20, "1 MiB"}, {1 << 30, "1 GiB"},
               {1536, "1.5 KiB"}};
    for (size_t i = 0; i < sizeof fmt / sizeof fmt[0]; i++) {
        rd_chart_fmt_size(fmt[i].v, b, sizeof b);
        EXPECT(!strcmp(b, fmt[i].s), "size %g labelled '%s', want '%s'", fmt[i].v, b, fmt[i].s);
    }
}

#define JSON DIR "/r.json"

/* The real result the cases below it read. */
static void bench_json(void)
{
    /* stdout only: bench's progress lines on stderr must not land in the file. */
    int rc = system("'" COLLVIZ_BINARY_DIR "/collviz' bench --op allreduce --ranks 4 -b 1k -e 1M "
                    "-f 4 -n 2 --json > '" JSON "'");
    EXPECT(rc == 0, "bench --json: status %d", rc);
}

static void real_result_case(void) { real_result(JSON); }

static rd_font_paths fonts;
static bool have_fonts;
static char fonts_err[256];

static void pngs_case(void)
{
    if (have_fonts)
        pngs(JSON);
    else
        cases_skip("no Latin font: PNG checks skipped");
}

static void chart_direct_case(void)
{
    if (have_fonts)
        chart_direct(&fonts);
    else
        cases_skip("no Latin font: chart checks skipped");
}

static const test_case cases[] = {
    CASE("size-labels", size_labels),
    CASE("bad-inputs", bad_inputs),
    CASE("bench-json", bench_json),
    CASE_THEN("real-result", real_result_case),
    CASE_THEN("pngs", pngs_case),
    CASE("chart-direct", chart_direct_case),
};

int main(int argc, char **argv)
{
    cases_args(argc, argv, cases, CASES_COUNT(cases));
    /* One folder for every case: ctest runs them one at a time (SERIAL). */
    if (system("rm -rf '" DIR "' && mkdir -p '" DIR "'") != 0) {
        printf("FAIL: cannot create " DIR "\n");
        return 1;
    }
    have_fonts = rd_fonts_find(COLLVIZ_SOURCE_DIR "/assets", &fonts, fonts_err,
                               sizeof fonts_err) == CV_OK;
    if (!have_fonts)
        printf("no Latin font (%s)\n", fonts_err);
    cases_run();
    return cases_end();
}

/*
 * test_theme_files.c: a theme is a file. In a scratch copy of assets/
 * ($COLLVIZ_ASSETS_DIR points there) a new themes/sepia.json, on its own,
 * is a working theme: --theme takes its name, T reaches it after the
 * compiled three, and a frame drawn with it is in its colours, in this
 * process and through `collviz export`. A theme file that leaves a colour
 * out is named at FILE:LINE:COLUMN and not offered; one whose name cannot
 * be a theme's is named too.
 */
#define _POSIX_C_SOURCE 200809L
#include <SDL_image.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "gui_cmds.h"
#include "test_render_util.h"

#define SCRATCH COLLVIZ_BINARY_DIR "/theme-files-test"

static const char sepia[] =
    "{\n"
    "  \"about\": \"Warm paper, for a reading room.\",\n"
    "  \"colors\": {\n"
    "    \"bg\": \"#f1e4c8\", \"panel\": \"#e6d4ae\", \"card\": \"#fbf3e2\",\n"
    "    \"edge\": \"#8a6d45\", \"text\": \"#3b2a17\", \"dim\": \"#6f5a3e\",\n"
    "    \"accent\": \"#a0461e\", \"link\": \"#b39a74\", \"empty\": \"#efe2c4\",\n"
    "    \"flash\": \"#fff6dc\", \"warn\": \"#b0281e\", \"band_a\": \"#dcc79e\",\n"
    "    \"band_b\": \"#d2b98c\"\n"
    "  },\n"
    "  \"text_scale\": 1.0,\n"
    "  \"line\": 1.5,\n"
    "  \"ranks\": [\"#3d6fb4\", \"#c0652a\", \"#4e8a3c\", \"#a8324a\"],\n"
    "  \"series\": [\"#3d6fb4\", \"#4e8a3c\", \"#a0461e\"]\n"
    "}\n";

/* a theme lacking "warn": where "colors" opens (2:13) is named */
static const char broken[] =
    "{\n"
    "  \"colors\": {\n"
    "    \"bg\": \"#000000\", \"panel\": \"#000000\", \"card\": \"#000000\",\n"
    "    \"edge\": \"#000000\", \"text\": \"#ffffff\", \"dim\": \"#ffffff\",\n"
    "    \"accent\": \"#ffffff\", \"link\": \"#ffffff\", \"empty\": \"#000000\",\n"
    "    \"flash\": \"#ffffff\",\n"
    "    \"band_a\": \"#000000\", \"band_b\": \"#000000\"\n"
    "  },\n"
    "  \"text_scale\": 1, \"line\": 1, \"ranks\": [\"#ff0000\"],\n"
    "  \"series\": [\"#ff0000\", \"#00ff00\", \"#0000ff\"]\n"
    "}\n";

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        printf("cannot write %s\n", path);
        exit(1);
    }
    fputs(text, f);
    fclose(f);
}

/* Pixels of s within 2 of colour c in every channel. */
static long pixels_of(SDL_Surface *s, SDL_Color c)
{
    SDL_Surface *a = SDL_ConvertSurfaceFormat(s, SDL_PIXELFORMAT_ARGB8888, 0);
    long n = 0;
    for (int y = 0; a && y < a->h; y++) {
        const Uint32 *row = (const Uint32 *)((const Uint8 *)a->pixels + (size_t)y * a->pitch);
        for (int x = 0; x < a->w; x++) {
            int r = (row[x] >> 16) & 255, g = (row[x] >> 8) & 255, b = row[x] & 255;
            n += abs(r - c.r) <= 2 && abs(g - c.g) <= 2 && abs(b - c.b) <= 2;
        }
    }
    SDL_FreeSurface(a);
    return n;
}

static char out[8192];

/* collviz with args, in the scratch assets; output (both streams) in out. */
static int run(const char *args)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "COLLVIZ_ASSETS_DIR='%s' '%s/collviz' %s 2>&1", SCRATCH,
             COLLVIZ_BINARY_DIR, args);
    FILE *p = popen(cmd, "r");
    size_t n = p ? fread(out, 1, sizeof out - 1, p) : 0;
    out[n] = '\0';
    int rc = p ? pclose(p) : -1;
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

/* The scratch copy: the shipped fonts and icon, the shipped themes and
 * two of its own; the cases below read it. */
static void make_scratch(void)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "rm -rf '%s' && mkdir -p '%s/themes' && ln -s '%s/assets/fonts' '%s/fonts' && "
             "ln -s '%s/assets/icon' '%s/icon' && cp '%s/assets/themes/'*.json '%s/themes/'",
             SCRATCH, SCRATCH, COLLVIZ_SOURCE_DIR, SCRATCH, COLLVIZ_SOURCE_DIR, SCRATCH,
             COLLVIZ_SOURCE_DIR, SCRATCH);
    if (system(cmd) != 0) {
        printf("cannot make %s\n", SCRATCH);
        exit(1);
    }
    write_file(SCRATCH "/themes/sepia.json", sepia);
    write_file(SCRATCH "/themes/broken.json", broken);
    setenv("COLLVIZ_ASSETS_DIR", SCRATCH, 1);
}

/* --theme's words: the file's theme after the compiled three; the broken
 * one is not offered. */
static void words(void)
{
    int id = gui_themes.parse("sepia");
    TR_CHECK(id == RD_THEME_COUNT, "sepia is theme %d", id);
    TR_CHECK(rd_theme_count() == RD_THEME_COUNT + 1, "%d themes", rd_theme_count());
    TR_CHECK(gui_themes.parse("broken") < 0, "a theme file lacking a colour is not offered");
    char list[256];
    cli_enum_list(&gui_themes, list, sizeof list);
    TR_CHECK(!strcmp(list, "dark, light, projector, sepia"), "--theme allows: %s", list);
    const rd_theme *th = rd_theme_get((rd_theme_id)id);
    TR_CHECK(!strcmp(th->name, "sepia") && th->bg.r == 0xf1 && th->bg.g == 0xe4 &&
                 th->bg.b == 0xc8 && th->nranks == 4 && th->ranks[1].r == 0xc0,
             "sepia read whole: %s", th->name);
    /* the compiled themes are as their files say */
    TR_CHECK(rd_theme_get(RD_THEME_DARK)->bg.r == 0x16, "dark from its file");
}

/* A frame drawn with it: its background is sepia's. */
static void drawn(void)
{
    int id = gui_themes.parse("sepia");
    const rd_theme *th = rd_theme_get((rd_theme_id)id);
    cv_spec spec = tr_spec(CV_OP_ALLREDUCE, CV_ALGO_RING, 4, 8);
    gui *g = tr_gui(&spec, 800, 500, (rd_theme_id)id, CV_LANG_EN);
    SDL_Surface *frame = tr_capture(g);
    long bg = pixels_of(frame, th->bg), all = (long)frame->w * frame->h;
    TR_CHECK(bg > all / 5, "%ld of %ld pixels in sepia's background", bg, all);
    TR_CHECK(pixels_of(frame, rd_theme_get(RD_THEME_DARK)->bg) == 0, "no dark background left");
    SDL_FreeSurface(frame);
    /* T goes through it: projector, sepia, then dark again */
    gui_set_theme(g, RD_THEME_PROJECTOR);
    tr_key(g, SDLK_t, 0);
    TR_CHECK(gui_theme(g) == (rd_theme_id)id, "T after projector: %d", gui_theme(g));
    tr_key(g, SDLK_t, 0);
    TR_CHECK(gui_theme(g) == RD_THEME_DARK, "T after sepia: %d", gui_theme(g));
    gui_destroy(g);
}

/* Through the program: export draws with it, and the broken file is one
 * line naming its place. */
static void exported(void)
{
    const rd_theme *th = rd_theme_get((rd_theme_id)gui_themes.parse("sepia"));
    int rc = run("export --op allreduce --ranks 4 --count 8 --theme sepia --stills "
                 "--size 480x300 --out " SCRATCH "/shots");
    TR_CHECK(rc == 0, "export --theme sepia: exit %d: %s", rc, out);
    TR_CHECK(strstr(out, SCRATCH "/themes/broken.json:2:13: \"colors\" lacks \"warn\"; a theme "
                         "file names every colour: bg panel card edge text dim accent link empty "
                         "flash warn band_a band_b; that file is not used\n"),
             "the broken file said: %s", out);
    SDL_Surface *png = IMG_Load(SCRATCH "/shots/step-00.png");
    long sepia_bg = png ? pixels_of(png, th->bg) : 0;
    TR_CHECK(png && sepia_bg > (long)png->w * png->h / 10 &&
                 pixels_of(png, rd_theme_get(RD_THEME_DARK)->bg) == 0,
             "the exported still is sepia's: %ld pixels of its background %s", sepia_bg,
             png ? "" : IMG_GetError());
    SDL_FreeSurface(png);
    rc = run("export --op allreduce --ranks 4 --count 8 --theme broken --stills --out " SCRATCH
             "/never");
    TR_CHECK(rc == 2 && strstr(out, "--theme: unknown value 'broken'; allowed: dark, light, "
                                    "projector, sepia"),
             "--theme broken: exit %d: %s", rc, out);
}

/* A file whose name cannot be a theme's is said, and the rest load. */
static void bad_name(void)
{
    write_file(SCRATCH "/themes/Sepia Two.json", sepia);
    char err[1024];
    int rc = rd_themes_load(SCRATCH, err, sizeof err);
    TR_CHECK(rc == CV_EINVAL && strstr(err, "/themes/Sepia Two.json: a theme's file is named "
                                            "NAME.json"),
             "a bad name: %s", err);
    TR_CHECK(rd_theme_parse("sepia") == RD_THEME_COUNT, "sepia still loads");
    TR_CHECK(rd_themes_load(NULL, err, sizeof err) == CV_OK && rd_theme_count() == RD_THEME_COUNT &&
                 rd_theme_parse("sepia") < 0,
             "back to the compiled three");
}

static const test_case cases[] = {
    CASE("words", words),
    CASE("frame", drawn),
    CASE("export", exported),
    CASE("bad-name", bad_name),
};

int main(int argc, char **argv)
{
    cases_args(argc, argv, cases, CASES_COUNT(cases));
    tr_require_fonts();
    make_scratch();
    cases_run();
    return cases_end();
}

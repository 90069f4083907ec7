/*
 * test_assets.c: what assets/ promises.
 *
 * - The program finds assets/ and lessons/ from its own place
 *   (cli_data_dir), and an environment override that is not a directory
 *   is an error, not a quiet fallback.
 * - The shipped fonts are found with fontconfig knowing no font at all
 *   (FONTCONFIG_FILE pointing at an empty configuration), and each kind of
 *   string is drawn with the face meant for it.
 * - Every character the lessons and the app's strings use is in a shipped
 *   face, so no frame of the course depends on what is installed.
 * - A character no shipped face has is drawn with a font fontconfig finds
 *   for it (where one is installed).
 * - The shipped palettes load; a bad palette file is named as
 *   FILE:LINE:COLUMN and leaves its theme as it was.
 * - The icon is a 256x256 and a 48x48 PNG.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <fontconfig/fontconfig.h>
#include <SDL_image.h>
#include <SDL_ttf.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "check.h"
#include "render.h"

#define ASSETS COLLVIZ_SOURCE_DIR "/assets"
#define WORK COLLVIZ_BINARY_DIR "/assets-test"

static bool same_file(const char *a, const char *b)
{
    char *ra = realpath(a, NULL), *rb = realpath(b, NULL);
    bool same = ra && rb && !strcmp(ra, rb);
    free(ra);
    free(rb);
    return same;
}

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

/* ------------------------------------------------------------- finding */

static void data_dirs(void)
{
    char dir[4096], why[1024];
    static const char *const env[] = {"COLLVIZ_TEST_DATA_DIR", NULL};
    unsetenv("COLLVIZ_TEST_DATA_DIR");
    /* The build links the source tree's directories beside the programs. */
    EXPECT(cli_data_dir("assets", env, dir, sizeof dir, why, sizeof why) && same_file(dir, ASSETS),
           "assets found at %s (%s)", dir, why);
    EXPECT(cli_data_dir("lessons", env, dir, sizeof dir, why, sizeof why) &&
               same_file(dir, COLLVIZ_SOURCE_DIR "/lessons"),
           "lessons found at %s (%s)", dir, why);
    EXPECT(!cli_data_dir("no-such-data", env, dir, sizeof dir, why, sizeof why) &&
               strstr(why, "no no-such-data directory found") &&
               strstr(why, "share/collviz/no-such-data") && strstr(why, "COLLVIZ_TEST_DATA_DIR"),
           "a missing directory says where it looked: %s", why);
    setenv("COLLVIZ_TEST_DATA_DIR", COLLVIZ_SOURCE_DIR "/docs", 1);
    EXPECT(cli_data_dir("assets", env, dir, sizeof dir, why, sizeof why) &&
               !strcmp(dir, COLLVIZ_SOURCE_DIR "/docs"),
           "the environment comes first: %s", dir);
    setenv("COLLVIZ_TEST_DATA_DIR", COLLVIZ_SOURCE_DIR "/README.md", 1);
    EXPECT(!cli_data_dir("assets", env, dir, sizeof dir, why, sizeof why) &&
               !strcmp(why, "COLLVIZ_TEST_DATA_DIR=" COLLVIZ_SOURCE_DIR "/README.md is not a "
                            "directory"),
           "an override that is not a directory is an error: %s", why);
    unsetenv("COLLVIZ_TEST_DATA_DIR");
}

/* The shipped faces, found while fontconfig knows no font at all. */
static bool shipped_fonts(rd_font_paths *p)
{
    write_file(WORK "/empty-fonts.conf",
               "<?xml version=\"1.0\"?>\n<!DOCTYPE fontconfig SYSTEM \"fonts.dtd\">\n"
               "<fontconfig><cachedir>" WORK "/fc-cache</cachedir></fontconfig>\n");
    setenv("FONTCONFIG_FILE", WORK "/empty-fonts.conf", 1);
    char err[512] = "";
    int rc = rd_fonts_find(NULL, p, err, sizeof err);
    EXPECT(rc == CV_EUNAVAIL && strstr(err, "fonts-dejavu-core"),
           "without assets and without fontconfig's fonts: %d %s", rc, err);
    rc = rd_fonts_find(ASSETS, p, err, sizeof err);
    EXPECT(rc == CV_OK, "the shipped fonts: %s", err);
    EXPECT(!strcmp(p->latin.path, ASSETS "/fonts/DejaVuSans.ttf"), "latin %s", p->latin.path);
    EXPECT(!strcmp(p->mono.path, ASSETS "/fonts/DejaVuSansMono.ttf"), "mono %s", p->mono.path);
    EXPECT(!strcmp(p->cjk.path, ASSETS "/fonts/WenQuanYiMicroHei-GB2312.ttf"), "cjk %s",
           p->cjk.path);
    unsetenv("FONTCONFIG_FILE");
    return rc == CV_OK;
}

/* ---------------------------------------------------------- coverage */

static uint32_t next_cp(const unsigned char **s)
{
    const unsigned char *p = *s;
    uint32_t c = *p++;
    int more = c < 0x80 ? 0 : c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : 0;
    c &= 0x7F >> more;
    for (int i = 0; i < more && (*p & 0xC0) == 0x80; i++)
        c = c << 6 | (*p++ & 0x3F);
    *s = p;
    return c;
}

/* Every non-ASCII character of the file, in the Latin or the CJK face. */
static void file_covered(const char *path, TTF_Font *latin, TTF_Font *cjk, int *chars)
{
    FILE *f = fopen(path, "rb");
    char *text = NULL;
    size_t cap = 0;
    for (int line = 1; f && getline(&text, &cap, f) > 0; line++) {
        for (const unsigned char *p = (const unsigned char *)text; *p;) {
            if (*p < 0x80) {
                p++;
                continue;
            }
            uint32_t cp = next_cp(&p);
            ++*chars;
            EXPECT(TTF_GlyphIsProvided32(latin, cp) || TTF_GlyphIsProvided32(cjk, cp),
                   "%s:%d: U+%04X is in no shipped font: run scripts/make_assets.sh", path, line,
                   (unsigned)cp);
        }
    }
    free(text);
    if (f)
        fclose(f);
}

static void dir_covered(const char *dir, const char *suffix, TTF_Font *latin, TTF_Font *cjk,
                        int *chars)
{
    DIR *d = opendir(dir);
    EXPECT(d != NULL, "cannot list %s", dir);
    for (struct dirent *e; d && (e = readdir(d));) {
        size_t n = strlen(e->d_name), k = strlen(suffix);
        if (n <= k || strcmp(e->d_name + n - k, suffix))
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        file_covered(path, latin, cjk, chars);
    }
    if (d)
        closedir(d);
}

static void coverage(const rd_font_paths *p)
{
    TTF_Font *latin = TTF_OpenFont(p->latin.path, 14), *cjk = TTF_OpenFont(p->cjk.path, 14);
    EXPECT(latin && cjk, "open the shipped faces: %s", TTF_GetError());
    if (!latin || !cjk)
        return;
    int chars = 0;
    dir_covered(COLLVIZ_SOURCE_DIR "/lessons", ".json", latin, cjk, &chars);
    static const char *const code[] = {"/render", "/app/gui", "/app/lesson", "/app/cli"};
    for (size_t i = 0; i < sizeof code / sizeof *code; i++) {
        char dir[4096];
        snprintf(dir, sizeof dir, "%s%s", COLLVIZ_SOURCE_DIR, code[i]);
        dir_covered(dir, ".c", latin, cjk, &chars);
    }
    EXPECT(chars > 10000, "only %d non-ASCII characters read: are the lessons there?", chars);
    /* GB2312's first and last Han characters, and the CJK full stop. */
    EXPECT(TTF_GlyphIsProvided32(cjk, 0x554A) && TTF_GlyphIsProvided32(cjk, 0x9F44) &&
               TTF_GlyphIsProvided32(cjk, 0x3002),
           "GB2312 is whole in the CJK face");
    printf("%d non-ASCII characters of the course and the app, all in the shipped faces\n", chars);
    TTF_CloseFont(latin);
    TTF_CloseFont(cjk);
}

/* ------------------------------------------------------------- faces */

/* The file of an installed font that has cp, or "" (fontconfig's list). */
static void installed_font_with(uint32_t cp, char *out, size_t outlen)
{
    out[0] = '\0';
    if (!FcInit())
        return;
    FcPattern *pat = FcPatternCreate();
    FcCharSet *cs = FcCharSetCreate();
    FcCharSetAddChar(cs, cp);
    FcPatternAddCharSet(pat, FC_CHARSET, cs);
    FcObjectSet *os = FcObjectSetBuild(FC_FILE, (char *)NULL);
    FcFontSet *fs = FcFontList(NULL, pat, os);
    FcChar8 *file = NULL;
    if (fs && fs->nfont > 0 && FcPatternGetString(fs->fonts[0], FC_FILE, 0, &file) == FcResultMatch)
        snprintf(out, outlen, "%s", (const char *)file);
    if (fs)
        FcFontSetDestroy(fs);
    FcObjectSetDestroy(os);
    FcCharSetDestroy(cs);
    FcPatternDestroy(pat);
    FcFini();
}

static void faces(const rd_font_paths *p)
{
    SDL_Surface *surf = SDL_CreateRGBSurfaceWithFormat(0, 64, 64, 32, SDL_PIXELFORMAT_ARGB8888);
    SDL_Renderer *r = surf ? SDL_CreateSoftwareRenderer(surf) : NULL;
    char err[512] = "";
    rd_text *t = r ? rd_text_create(r, p, err, sizeof err) : NULL;
    EXPECT(t != NULL, "rd_text_create: %s", err);
    if (!t)
        goto done;
    EXPECT(!strcmp(rd_text_font(t, "AllReduce 4 ranks", 14), p->latin.path), "Latin text: %s",
           rd_text_font(t, "AllReduce 4 ranks", 14));
    EXPECT(!strcmp(rd_text_font(t, "环形 AllReduce：每一步", 14), p->cjk.path), "Chinese: %s",
           rd_text_font(t, "环形 AllReduce：每一步", 14));
    EXPECT(!strcmp(rd_text_font(t, "cv_plan_create()", 14 | RD_TEXT_MONO), p->mono.path), "code: %s",
           rd_text_font(t, "cv_plan_create()", 14 | RD_TEXT_MONO));
    EXPECT(!strcmp(rd_text_font(t, "α-β model: 2(N−1)/N · D/B → ≤", 14), p->latin.path),
           "Greek and maths in the Latin face: %s",
           rd_text_font(t, "α-β model: 2(N−1)/N · D/B → ≤", 14));

    /* Hangul is in neither shipped face; an installed font that has it
     * draws the string, where there is one. */
    const char *hangul = "GPU 한국어";
    char want[4096];
    installed_font_with(0xD55C, want, sizeof want);
    const char *got = rd_text_font(t, hangul, 14);
    if (want[0]) {
        EXPECT(strcmp(got, p->latin.path) && strcmp(got, p->cjk.path),
               "a missing glyph falls back to an installed font (%s has it), got %s", want, got);
        TTF_Font *f = TTF_OpenFont(got, 14);
        EXPECT(f && TTF_GlyphIsProvided32(f, 0xD55C), "the fallback %s has U+D55C", got);
        if (f)
            TTF_CloseFont(f);
        int w = 0, h = 0;
        rd_text_measure(t, hangul, 14, &w, &h);
        EXPECT(w > 0 && h > 0, "the fallback measures %dx%d", w, h);
        printf("U+D55C falls back to %s\n", got);
    } else {
        printf("no installed font has U+D55C: the fallback is not checked here\n");
    }
    /* A character no font has: drawn as a box in the face meant for it. */
    const char *nowhere = "x \xF3\xBF\xBF\xBD y"; /* U+FFFFD, private use */
    EXPECT(!strcmp(rd_text_font(t, nowhere, 14), p->latin.path), "nothing has U+FFFFD: %s",
           rd_text_font(t, nowhere, 14));
    SDL_Rect drawn = rd_text_draw(t, nowhere, 14, (SDL_Color){255, 255, 255, 255}, 0, 0, 0);
    EXPECT(drawn.w > 0, "a string with a missing glyph still draws");
done:
    rd_text_destroy(t);
    if (r)
        SDL_DestroyRenderer(r);
    SDL_FreeSurface(surf);
}

/* ------------------------------------------------------------ palettes */

static bool same_theme(const rd_theme *a, const rd_theme *b) { return !memcmp(a, b, sizeof *a); }

static void palette_error(const char *name, const char *text, const char *want)
{
    char path[1024], err[2048] = "", expect[2048];
    snprintf(path, sizeof path, "%s/%s.json", WORK, name);
    write_file(path, text);
    rd_theme before = *rd_theme_get(RD_THEME_LIGHT);
    int rc = rd_theme_load_file(RD_THEME_LIGHT, path, err, sizeof err);
    snprintf(expect, sizeof expect, "%s:%s", path, want);
    EXPECT(rc == CV_EINVAL && !strcmp(err, expect), "%s: got %d \"%s\"\n  want \"%s\"", name, rc,
           err, expect);
    EXPECT(same_theme(rd_theme_get(RD_THEME_LIGHT), &before), "%s: the theme was changed", name);
}

/* Palette files with a mistake: name, text, where and what the error says. */
static const char *const bad_palettes[][3] = {
    {"syntax", "{\n  \"colors\": {\n    \"bg\": \"#000000\",\n  }\n}\n",
     "4:3: not JSON: expected a key in double quotes after ',' (JSON allows no trailing comma)"},
    {"empty", "", "1:1: not JSON: unexpected end of file; expected a value (object, array, "
                  "string, number, true, false or null)"},
    {"array", "\n [1, 2]", "2:2: a palette file is one JSON object"},
    {"colour", "{\n  \"colors\": {\n    \"bg\": \"#12345\"\n  }\n}\n",
     "3:11: \"bg\": a colour is written \"#rrggbb\" or \"#rrggbbaa\""},
    {"hexdigit", "{\"colors\": {\"text\": \"#12345g\"}}",
     "1:21: \"text\": a colour is written \"#rrggbb\" or \"#rrggbbaa\""},
    {"colourname", "{\n  \"colors\": {\"bg\": \"#000000\",\n  \"backgound\": \"#000000\"}}",
     "3:3: \"colors\" has no colour \"backgound\"; its colours are bg panel card "
     "edge text dim accent link empty flash warn band_a band_b"},
    {"member", "{\n\n    \"colours\": {}\n}",
     "3:5: unknown member \"colours\"; a palette has about, colors, text_scale, "
     "line, ranks and series"},
    {"rank", "{\"ranks\": [\"#000000\",\n           \"red\"]}",
     "2:12: \"ranks\"[1]: a colour is written \"#rrggbb\" or \"#rrggbbaa\""},
    {"ranks", "{\"ranks\": []}", "1:11: \"ranks\": a list of 1 to 20 colours"},
    {"series", "{\"series\": [\"#000000\"]}", "1:12: \"series\": a list of 3 colours"},
    {"scale", "{\"text_scale\": 40}", "1:16: \"text_scale\": a number from 0.5 to 3"},
    {"line", "{\"line\": \"thick\"}", "1:10: \"line\": a number from 0.5 to 8"},
    {"twice", "{\"line\": 1,\n \"line\": 2}", "2:2: \"line\" is given twice; once is enough"},
    {"twice-colour", "{\"colors\": {\"bg\": \"#000000\", \"bg\": \"#000000\"}}",
     "1:30: \"bg\" is given twice; once is enough"},
    {"about", "{\"about\": 1}", "1:11: \"about\": a string saying what the theme is for"},
};

static void palettes(void)
{
    char err[2048] = "";
    rd_theme builtin[RD_THEME_COUNT];
    EXPECT(rd_themes_load(NULL, err, sizeof err) == CV_OK, "back to the built-in palettes");
    for (int i = 0; i < RD_THEME_COUNT; i++)
        builtin[i] = *rd_theme_get((rd_theme_id)i);
    EXPECT(rd_themes_load(ASSETS, err, sizeof err) == CV_OK, "the shipped palettes: %s", err);
    /* The files hold the built-in values, so a program run without its
     * assets draws as one with them: change a palette in both places. */
    for (int i = 0; i < RD_THEME_COUNT; i++)
        EXPECT(same_theme(rd_theme_get((rd_theme_id)i), &builtin[i]),
               "assets/themes/%s.json differs from the built-in palette",
               rd_theme_get((rd_theme_id)i)->name);

    /* A file may give only some values. */
    int rc;
    char path[1024];
    snprintf(path, sizeof path, "%s/partial.json", WORK);
    write_file(path,
               "{\"colors\": {\"bg\": \"#102030\"}, \"ranks\": [\"#ff000080\"], \"line\": 2}");
    EXPECT(rd_theme_load_file(RD_THEME_LIGHT, path, err, sizeof err) == CV_OK, "partial: %s", err);
    const rd_theme *th = rd_theme_get(RD_THEME_LIGHT);
    EXPECT(th->bg.r == 0x10 && th->bg.g == 0x20 && th->bg.b == 0x30 && th->bg.a == 255 &&
               th->line == 2.0f && th->nranks == 1 && th->ranks[0].a == 0x80 &&
               th->text.r == builtin[RD_THEME_LIGHT].text.r,
           "partial palette applied over the built-in one");
    SDL_Color past = rd_theme_rank_color(th, 1);
    EXPECT(!(past.r == th->ranks[0].r && past.g == th->ranks[0].g && past.b == th->ranks[0].b),
           "ranks past the list get hues of their own");

    for (size_t i = 0; i < sizeof bad_palettes / sizeof *bad_palettes; i++)
        palette_error(bad_palettes[i][0], bad_palettes[i][1], bad_palettes[i][2]);
    snprintf(path, sizeof path, "%s/nul.json", WORK);
    FILE *f = fopen(path, "wb");
    if (f) {
        fwrite("{\n \"line\": 1\0}", 1, 15, f);
        fclose(f);
    }
    rc = rd_theme_load_file(RD_THEME_LIGHT, path, err, sizeof err);
    EXPECT(rc == CV_EINVAL && strstr(err, "nul.json:2:11: a NUL byte"), "NUL: %s", err);

    /* rd_themes_load: a bad file is reported and its theme stays built in,
     * the others load. */
    char dir[512];
    snprintf(dir, sizeof dir, "%s/bad-assets/themes", WORK);
    char cmd[4096];
    snprintf(cmd, sizeof cmd,
             "mkdir -p '%s' && cp '%s/themes/dark.json' '%s/themes/light.json' '%s/'", dir, ASSETS,
             ASSETS, dir);
    EXPECT(system(cmd) == 0, "%s", cmd);
    snprintf(path, sizeof path, "%s/projector.json", dir);
    write_file(path, "{\"colors\": {\"bg\": \"black\"}}\n");
    snprintf(dir, sizeof dir, "%s/bad-assets", WORK);
    rc = rd_themes_load(dir, err, sizeof err);
    char want[4096];
    snprintf(want, sizeof want, "%s:1:19: \"bg\": a colour is written \"#rrggbb\" or \"#rrggbbaa\"",
             path);
    EXPECT(rc == CV_EINVAL && !strcmp(err, want), "rd_themes_load: %d %s", rc, err);
    EXPECT(same_theme(rd_theme_get(RD_THEME_PROJECTOR), &builtin[RD_THEME_PROJECTOR]),
           "the bad file's theme is the built-in one");
    EXPECT(rd_themes_load(NULL, err, sizeof err) == CV_OK, "back to the built-in palettes");
}

/* ---------------------------------------------------------------- icon */

static void icon(void)
{
    static const int sizes[] = {256, 48};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/icon/collviz-%d.png", ASSETS, sizes[i]);
        SDL_Surface *s = IMG_Load(path);
        EXPECT(s && s->w == sizes[i] && s->h == sizes[i], "%s: %dx%d", path, s ? s->w : 0,
               s ? s->h : 0);
        SDL_FreeSurface(s);
    }
}

/* The shipped faces, found once for the cases that use them. */
static rd_font_paths fonts;
static bool have_fonts;

static void fonts_shipped(void) { have_fonts = shipped_fonts(&fonts); }

static void fonts_coverage(void)
{
    if (have_fonts)
        coverage(&fonts);
}

static void fonts_faces(void)
{
    if (have_fonts)
        faces(&fonts);
}

static const test_case cases[] = {
    CASE("data-dirs", data_dirs),
    CASE("fonts/shipped", fonts_shipped),
    CASE_THEN("fonts/coverage", fonts_coverage),
    CASE_THEN("fonts/faces", fonts_faces),
    CASE("palettes", palettes),
    CASE("icon", icon),
};

int main(int argc, char **argv)
{
    cases_args(argc, argv, cases, CASES_COUNT(cases));
    if (system("mkdir -p '" WORK "'") != 0)
        return 1;
    if (TTF_Init() != 0) {
        printf("SDL_ttf: %s\n", TTF_GetError());
        return 1;
    }
    cases_run();
    TTF_Quit();
    return cases_end();
}

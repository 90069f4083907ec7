/*
 * test_render_util.c: helpers shared by the renderer and GUI tests.
 */
#include "test_render_util.h"

#include <SDL_image.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int tr_failures;

void tr_require_fonts(void)
{
    rd_font_paths p;
    char err[256];
    if (rd_fonts_find(COLLVIZ_SOURCE_DIR "/assets", &p, err, sizeof err) != CV_OK) {
        printf("skipped: %s\n", err);
        exit(TR_SKIP);
    }
}

cv_spec tr_spec(cv_op op, cv_algo algo, int ranks, int64_t count)
{
    cv_spec s;
    cv_spec_init(&s);
    s.op = op;
    s.algo = algo;
    s.ranks = ranks;
    s.count = count;
    return s;
}

gui *tr_gui(const cv_spec *spec, int w, int h, rd_theme_id theme, cv_lang lang)
{
    gui_options o;
    gui_options_init(&o);
    o.spec = *spec;
    o.headless = true;
    o.width = w;
    o.height = h;
    o.theme = theme;
    o.lang = lang;
    gui *g = NULL;
    char err[256] = "";
    if (gui_create(&o, &g, err, sizeof err) != CV_OK) {
        fprintf(stderr, "gui_create failed: %s\n", err);
        exit(1);
    }
    g->hide_measured = true;
    return g;
}

void tr_key(gui *g, SDL_Keycode k, Uint16 mod)
{
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = SDL_KEYDOWN;
    e.key.keysym.sym = k;
    e.key.keysym.mod = mod;
    gui_handle_event(g, &e);
}

void tr_button(gui *g, Uint32 type, int x, int y)
{
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = type;
    e.button.button = SDL_BUTTON_LEFT;
    e.button.x = x;
    e.button.y = y;
    gui_handle_event(g, &e);
}

void tr_click(gui *g, int x, int y)
{
    tr_button(g, SDL_MOUSEBUTTONDOWN, x, y);
    tr_button(g, SDL_MOUSEBUTTONUP, x, y);
}

void tr_motion(gui *g, int x, int y)
{
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = SDL_MOUSEMOTION;
    e.motion.x = x;
    e.motion.y = y;
    gui_handle_event(g, &e);
}

void tr_wheel(gui *g, int dy)
{
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = SDL_MOUSEWHEEL;
    e.wheel.y = dy;
    gui_handle_event(g, &e);
}

SDL_Surface *tr_capture(gui *g)
{
    gui_render(g);
    SDL_Surface *s = rd_read_pixels(gui_renderer(g));
    if (!s) {
        fprintf(stderr, "cannot read pixels: %s\n", SDL_GetError());
        exit(1);
    }
    return s;
}

long tr_diff(SDL_Surface *a, SDL_Surface *b, int tol, int *max_delta)
{
    if (max_delta)
        *max_delta = 0;
    if (a->w != b->w || a->h != b->h)
        return (long)a->w * a->h + 1;
    SDL_Surface *ca = SDL_ConvertSurfaceFormat(a, SDL_PIXELFORMAT_ARGB8888, 0);
    SDL_Surface *cb = SDL_ConvertSurfaceFormat(b, SDL_PIXELFORMAT_ARGB8888, 0);
    long bad = 0;
    for (int y = 0; y < a->h; y++) {
        const uint32_t *pa = (const uint32_t *)((const uint8_t *)ca->pixels + (size_t)y * ca->pitch);
        const uint32_t *pb = (const uint32_t *)((const uint8_t *)cb->pixels + (size_t)y * cb->pitch);
        for (int x = 0; x < a->w; x++) {
            int d = 0;
            for (int sh = 0; sh <= 16; sh += 8) {
                int da = abs((int)((pa[x] >> sh) & 255) - (int)((pb[x] >> sh) & 255));
                if (da > d)
                    d = da;
            }
            if (max_delta && d > *max_delta)
                *max_delta = d;
            if (d > tol)
                bad++;
        }
    }
    SDL_FreeSurface(ca);
    SDL_FreeSurface(cb);
    return bad;
}

bool tr_same(SDL_Surface *a, SDL_Surface *b) { return tr_diff(a, b, 0, NULL) == 0; }

int tr_golden(SDL_Surface *frame, const char *name)
{
    const char *up = getenv("COLLVIZ_UPDATE_GOLDEN");
    char golden[1024], actual[1024];
    snprintf(golden, sizeof golden, "%s/tests/golden/%s.png", COLLVIZ_SOURCE_DIR, name);
    snprintf(actual, sizeof actual, "%s/golden/%s.actual.png", COLLVIZ_BINARY_DIR, name);
    if (up && strcmp(up, "1") == 0) {
        bool fail = IMG_SavePNG(frame, golden) != 0;
        printf("%s %s\n", fail ? "cannot write" : "updated", golden);
        remove(actual);
        return fail;
    }
    SDL_Surface *want = IMG_Load(golden);
    if (!want) {
        fprintf(stderr, "%s: no golden image %s (COLLVIZ_UPDATE_GOLDEN=1 creates it)\n", name,
                golden);
        return 1;
    }
    int maxd = 0;
    long bad = tr_diff(frame, want, 40, &maxd);
    long limit = (long)frame->w * frame->h * 3 / 1000;
    SDL_FreeSurface(want);
    if (bad <= limit) {
        printf("%s: ok (%ld pixels differ, max delta %d)\n", name, bad, maxd);
        remove(actual);
        return 0;
    }
    mkdir(COLLVIZ_BINARY_DIR "/golden", 0777);
    bool saved = IMG_SavePNG(frame, actual) == 0;
    fprintf(stderr, "%s: %ld pixels differ (limit %ld, max delta %d); actual frame %s %s\n", name,
            bad, limit, maxd, saved ? "in" : "could not be written to", actual);
    return 1;
}

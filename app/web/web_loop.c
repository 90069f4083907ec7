/*
 * web_loop.c: the window's loop in the browser. The desktop's gui_run
 * (gui.c) loops on gui_frame itself; a page must hand control back to the
 * browser after each frame, so here gui_run asks the browser to call
 * gui_frame once per display frame (emscripten_set_main_loop, which never
 * returns to the caller and keeps its stack, so the lesson or stage that
 * called gui_run stays alive) and never waits for events in between.
 *
 * The stage is drawn into a surface of gui's own (ARGB8888, on SDL's fast
 * paths), and only the rectangle that changed since the last frame is
 * turned into the canvas's byte order (R, G, B, A) and handed to the canvas
 * by putImageData straight from the wasm memory: SDL's way through the
 * window copies the whole frame twice in JavaScript and sets every alpha
 * byte, more than drawing it costs. When the canvas's size changes (the
 * browser window, the pixel ratio) the surface follows.
 *
 * It also keeps the time each drawn frame took, for the page's benchmark
 * (web_frame_median_ms), and tells the page when the first stage is drawn
 * and when the program stops (Q), so it never leaves a blank canvas
 * without a word.
 */
#include <emscripten.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "gui.h"
#include "web.h"

#define WEB_FRAME_TIMES 1024

static struct {
    gui *g;
    gui_loop loop;
    double ms[WEB_FRAME_TIMES];   /* drawn frames' times, a ring */
    double draw[WEB_FRAME_TIMES]; /* of which drawing (the rest: the canvas) */
    int n, next;
} web;

EM_JS(void, web_js_first_frame, (void), {
    if (Module.collvizFirstFrame)
        Module.collvizFirstFrame();
});

/* The canvas's size in its own pixels (CSS size times the pixel ratio, as
 * SDL keeps it). */
EM_JS(void, web_js_canvas_size, (int *w, int *h), {
    var c = Module.canvas;
    HEAP32[w >> 2] = c.width;
    HEAP32[h >> 2] = c.height;
});

EM_JS(void, web_js_present, (const void *rgba, int w, int h, int x, int y, int dw, int dh), {
    var c = Module.canvas;
    if (!Module.collvizCtx || Module.collvizCtx.canvas !== c)
        Module.collvizCtx = c.getContext("2d");
    if (c.width !== w || c.height !== h)
        return; /* resized since: the next frame has the new size */
    var bytes = new Uint8ClampedArray(HEAPU8.buffer, rgba, w * h * 4);
    Module.collvizCtx.putImageData(new ImageData(bytes, w, h), 0, 0, x, y, dw, dh);
});

/* The last frame handed to the canvas (as drawn, to find what changed, and
 * in the canvas's byte order). */
static struct {
    uint32_t *argb, *rgba;
    int w, h;
} shown;

/* Two pixels 0xAARRGGBB to bytes R, G, B, A: 0xAABBGGRR as little-endian
 * words. */
static inline uint64_t to_rgba2(uint64_t p)
{
    const uint64_t ag = 0xff00ff00ff00ff00ull, b = 0x000000ff000000ffull;
    return (p & ag) | ((p >> 16) & b) | ((p & b) << 16);
}

/* Hands the rectangle of s that differs from the last frame to the canvas
 * (all of it after a resize), and keeps the frame. Two pixels a word: the
 * surface's rows are whole words when its width is even, and the canvas's
 * width follows the window's, so an odd one is drawn whole each frame. */
static void present(const SDL_Surface *s)
{
    int w = s->w, h = s->h;
    bool all = shown.w != w || shown.h != h;
    if (all) {
        free(shown.argb);
        free(shown.rgba);
        shown.argb = malloc((size_t)w * (size_t)h * 4);
        shown.rgba = malloc((size_t)w * (size_t)h * 4);
        shown.w = shown.argb && shown.rgba ? w : 0;
        shown.h = shown.argb && shown.rgba ? h : 0;
        if (!shown.w) {
            free(shown.argb);
            free(shown.rgba);
            shown.argb = shown.rgba = NULL;
            return;
        }
    }
    if (w % 2 || s->pitch != w * 4) { /* the plain way: everything, a pixel at a time */
        for (int y = 0; y < h; y++) {
            const uint32_t *now = (const uint32_t *)((const char *)s->pixels + (size_t)y * s->pitch);
            for (int x = 0; x < w; x++) {
                uint32_t p = now[x];
                shown.rgba[(size_t)y * w + x] =
                    (p & 0xff00ff00u) | ((p >> 16) & 0xffu) | ((p & 0xffu) << 16);
            }
        }
        web_js_present(shown.rgba, w, h, 0, 0, w, h);
        return;
    }
    /* Bands of rows, each handed over with its own changed columns: chunks
     * flying across the stage change a few columns in many rows. */
    enum { BAND = 48 };
    int words = w / 2;
    for (int band = 0; band < h; band += BAND) {
        int x0 = words, x1 = -1, y0 = -1, y1 = -1;
        for (int y = band; y < h && y < band + BAND; y++) {
            const uint64_t *now = (const uint64_t *)s->pixels + (size_t)y * words;
            uint64_t *old = (uint64_t *)shown.argb + (size_t)y * words;
            uint64_t *out = (uint64_t *)shown.rgba + (size_t)y * words;
            int first = 0, last = words - 1;
            if (!all) {
                while (first < words && now[first] == old[first])
                    first++;
                if (first == words)
                    continue;
                while (last > first && now[last] == old[last])
                    last--;
            }
            for (int x = first; x <= last; x++) {
                old[x] = now[x];
                out[x] = to_rgba2(now[x]);
            }
            x0 = first < x0 ? first : x0;
            x1 = last > x1 ? last : x1;
            if (y0 < 0)
                y0 = y;
            y1 = y;
        }
        if (y0 >= 0)
            web_js_present(shown.rgba, w, h, 2 * x0, y0, 2 * (x1 - x0 + 1), y1 - y0 + 1);
    }
}

EM_JS(void, web_js_stopped, (void), {
    if (Module.collvizStopped)
        Module.collvizStopped();
});

/* Keeps the offscreen surface the canvas's size; false when it cannot. */
static bool fit_canvas(void)
{
    int w = 0, h = 0;
    web_js_canvas_size(&w, &h);
    if (w < 1 || h < 1)
        return gui_offscreen(web.g) != NULL;
    SDL_Surface *s = gui_offscreen(web.g);
    if (s && s->w == w && s->h == h)
        return true;
    char err[512];
    if (gui_draw_offscreen(web.g, w, h, err, sizeof err) != 0) {
        fprintf(stderr, "collviz: %s\n", err);
        return s != NULL;
    }
    web.loop.dirty = true;
    return true;
}

static void frame(void *arg)
{
    (void)arg;
    double t0 = cv_now_seconds() * 1e3;
    int before = gui_frames(web.g);
    if (!fit_canvas()) {
        emscripten_cancel_main_loop();
        web_js_stopped();
        return;
    }
    bool go = gui_frame(web.g, &web.loop, false);
    int after = gui_frames(web.g);
    if (after > before) {
        SDL_Surface *s = gui_offscreen(web.g);
        web.draw[web.next] = cv_now_seconds() * 1e3 - t0;
        if (s)
            present(s);
        web.ms[web.next] = cv_now_seconds() * 1e3 - t0;
        web.next = (web.next + 1) % WEB_FRAME_TIMES;
        if (web.n < WEB_FRAME_TIMES)
            web.n++;
        if (before == 0)
            web_js_first_frame();
    }
    if (!go) {
        emscripten_cancel_main_loop();
        web_js_stopped();
    }
}

int gui_run(gui *g)
{
    web.g = g;
    web.n = web.next = 0;
    gui_loop_init(&web.loop);
    emscripten_set_main_loop_arg(frame, NULL, 0, 1);
    return 0; /* not reached: the browser runs the loop from here on */
}

/* Another window's loop (show's chart), drawn through SDL's window. */
static struct {
    bool (*frame)(void *state, bool may_wait);
    void *state;
    bool drawn;
} other;

static void other_frame(void *arg)
{
    (void)arg;
    bool go = other.frame(other.state, false);
    if (!other.drawn) {
        other.drawn = true;
        web_js_first_frame();
    }
    if (!go) {
        emscripten_cancel_main_loop();
        web_js_stopped();
    }
}

void gui_run_loop(bool (*frame)(void *state, bool may_wait), void *state)
{
    other.frame = frame;
    other.state = state;
    other.drawn = false;
    emscripten_set_main_loop_arg(other_frame, NULL, 0, 1);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median_of(const double *ring, int last)
{
    int n = last > 0 && last < web.n ? last : web.n;
    if (n == 0)
        return -1;
    double v[WEB_FRAME_TIMES];
    for (int i = 0; i < n; i++)
        v[i] = ring[(web.next - 1 - i + 2 * WEB_FRAME_TIMES) % WEB_FRAME_TIMES];
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

EMSCRIPTEN_KEEPALIVE double web_frame_median_ms(int last) { return median_of(web.ms, last); }
EMSCRIPTEN_KEEPALIVE double web_draw_median_ms(int last) { return median_of(web.draw, last); }

gui *web_gui(void) { return web.g; }
void web_redraw(void) { web.loop.redraw = true; }

EMSCRIPTEN_KEEPALIVE int web_frames_drawn(void) { return web.g ? gui_frames(web.g) : 0; }

EMSCRIPTEN_KEEPALIVE int web_missing_glyphs(void)
{
    return web.g ? rd_text_missing(rd_ctx_text(gui_rd(web.g)), NULL) : 0;
}

EMSCRIPTEN_KEEPALIVE int web_missing_first(void)
{
    uint32_t cp = 0;
    if (web.g)
        rd_text_missing(rd_ctx_text(gui_rd(web.g)), &cp);
    return (int)cp;
}

/* For the page's tests (tests/web/test_web.py): where rank's send element
 * i is drawn, in CSS pixels, as x * 65536 + y (-1: not drawn); what the
 * stage's run holds (an input, the wrong results over both sides); the
 * time shown; whether a value's field is open. */
EMSCRIPTEN_KEEPALIVE int web_send_cell_at(int rank, int i)
{
    int x, y;
    if (!web.g || !gui_send_cell_point(web.g, rank, i, &x, &y))
        return -1;
    return x * 65536 + y;
}

EMSCRIPTEN_KEEPALIVE double web_input_value(int rank, int i)
{
    const cv_trace *t = web.g ? gui_trace(web.g, 0) : NULL;
    const void *in = t ? cv_trace_input(t, rank) : NULL;
    if (!in || i < 0 || i >= cv_spec_buf_count(gui_spec(web.g), CV_BUF_SEND, rank))
        return -1e300;
    return cv_value_get(gui_spec(web.g)->dtype, in, i);
}

EMSCRIPTEN_KEEPALIVE int web_wrong(void)
{
    int64_t n = 0;
    for (int p = 0; web.g && p < 2; p++)
        if (gui_trace(web.g, p))
            n += cv_trace_wrong(gui_trace(web.g, p));
    return (int)n;
}

EMSCRIPTEN_KEEPALIVE double web_time(void) { return web.g ? gui_time(web.g) : -1; }
EMSCRIPTEN_KEEPALIVE int web_editing(void) { return web.g && gui_editing(web.g, NULL, NULL); }

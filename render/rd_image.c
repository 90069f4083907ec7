/*
 * rd_image.c: frames out of the renderer: PNG through SDL2_image and
 * animated GIF through giflib.
 *
 * GIF allows 256 colours.  The UI is mostly flat theme and rank colours
 * plus anti-aliased text, so a global palette of the most frequent colours
 * of the first frame (at 5 bits a channel) loses almost nothing, and a
 * 32K-entry lookup table maps every later pixel to its nearest palette
 * entry quickly and deterministically (no dithering, which would make
 * frames flicker and files bigger). Each frame after the first holds only
 * the rectangle that changed, drawn over the last (DISPOSE_DO_NOT), and
 * the file says GIF89a, whose extensions (delays, looping) it uses.
 *
 * A PNG or GIF is written under a temporary name beside it and renamed
 * into place when whole (cv_wfile), so a full disk or a failed frame
 * leaves no torn file and the file it replaces stays until then; a place
 * that is not a regular file (a device, a FIFO, a link) is refused. Paths
 * in messages are escaped, as everything from outside.
 */
#include "render.h"

#include "jr.h"

#include <errno.h>
#include <fcntl.h>
#include <gif_lib.h>
#include <SDL_image.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* path made safe to print (jr_escape), in buf. */
static const char *shown(const char *path, char *buf, size_t n)
{
    jr_escape(path, buf, n);
    return buf;
}

SDL_Surface *rd_read_pixels(SDL_Renderer *r)
{
    int w = 0, h = 0;
    if (SDL_GetRendererOutputSize(r, &w, &h) != 0 || w <= 0 || h <= 0)
        return NULL;
    SDL_Surface *s = SDL_CreateRGBSurfaceWithFormat(0, w, h, 32, SDL_PIXELFORMAT_ARGB8888);
    if (!s)
        return NULL;
    if (SDL_RenderReadPixels(r, NULL, SDL_PIXELFORMAT_ARGB8888, s->pixels, s->pitch) != 0) {
        SDL_FreeSurface(s);
        return NULL;
    }
    return s;
}

/* Through our own FILE so that every write and the close are checked: a
 * full disk (or /dev/full) shows only when the buffered bytes are flushed,
 * which IMG_SavePNG's own file never reports. */
int rd_save_png(SDL_Surface *s, const char *path, char *err, size_t errlen)
{
    char esc[512], why[CV_ERR_LEN] = "";
    cv_wfile *w = cv_wfile_create(path, 0, why, sizeof why);
    if (!w) {
        snprintf(err, errlen, "cannot write %s: %s", shown(path, esc, sizeof esc), why);
        return CV_EINVAL;
    }
    FILE *f = cv_wfile_stream(w);
    SDL_RWops *rw = SDL_RWFromFP(f, SDL_FALSE);
    bool ok = rw && IMG_SavePNG_RW(s, rw, 0) == 0;
    if (!ok)
        snprintf(why, sizeof why, "%s", *IMG_GetError() ? IMG_GetError() : "write failed");
    if (rw)
        SDL_RWclose(rw); /* frees rw only: f stays the writer's */
    /* Flushed, synced and renamed into place only when whole: a torn PNG
     * is worse than none, and the file it would replace stays. */
    if (cv_wfile_destroy(w, ok, why, sizeof why) != CV_OK)
        ok = false;
    if (!ok) {
        snprintf(err, errlen, "cannot write %s: %s", shown(path, esc, sizeof esc), why);
        return CV_EINVAL;
    }
    return CV_OK;
}

struct rd_gif {
    GifFileType *gif;
    int w, h;
    bool have_palette;
    GifColorType colors[256];
    int ncolors;
    uint8_t *lut;   /* 32768 entries: 5-5-5 colour -> palette index */
    uint8_t *index; /* one frame of palette indices */
    uint8_t *prev;  /* the last frame written, to send only what changed */
    bool have_prev;
    bool failed;      /* a frame could not be written: the file is not kept */
    cv_wfile *out;    /* written beside its place, renamed there when whole */
    char shown[512];  /* path as messages print it */
};

/* giflib's output function: bytes into the writer's stream. */
static int gif_write(GifFileType *gif, const GifByteType *bytes, int n)
{
    FILE *f = gif->UserData;
    return n > 0 ? (int)fwrite(bytes, 1, (size_t)n, f) : 0;
}

rd_gif *rd_gif_create(const char *path, int w, int h, char *err, size_t errlen)
{
    if (w <= 0 || h <= 0 || w > 65535 || h > 65535) {
        snprintf(err, errlen, "GIF size %dx%d out of range", w, h);
        return NULL;
    }
    rd_gif *g = cv_xcalloc(1, sizeof *g);
    g->lut = cv_xmalloc(32768);
    g->index = cv_xmalloc((size_t)w * (size_t)h);
    g->prev = cv_xmalloc((size_t)w * (size_t)h);
    shown(path, g->shown, sizeof g->shown);
    char why[CV_ERR_LEN];
    int e = 0;
    g->out = cv_wfile_create(path, 0, why, sizeof why);
    /* giflib writes through gif_write into the writer's stream, so closing
     * the GIF leaves the file for cv_wfile_destroy to finish. */
    g->gif = g->out ? EGifOpen(cv_wfile_stream(g->out), gif_write, &e) : NULL;
    if (!g->gif) {
        if (g->out)
            snprintf(why, sizeof why, "%s", GifErrorString(e));
        cv_wfile_destroy(g->out, false, NULL, 0);
        snprintf(err, errlen, "cannot write %s: %s", g->shown, why);
        free(g->lut);
        free(g->index);
        free(g->prev);
        free(g);
        return NULL;
    }
    /* The file uses 89a's extensions (delays, looping): say GIF89a. */
    EGifSetGifVersion(g->gif, true);
    g->w = w;
    g->h = h;
    return g;
}

static uint32_t pixel_at(const SDL_Surface *s, int x, int y)
{
    return ((const uint32_t *)((const uint8_t *)s->pixels + (size_t)y * (size_t)s->pitch))[x];
}

static int key555(uint32_t argb)
{
    return (int)(((argb >> 19) & 31) << 10 | ((argb >> 11) & 31) << 5 | ((argb >> 3) & 31));
}

static int cmp_count(const void *a, const void *b)
{
    const uint32_t *x = a, *y = b;
    return x[1] < y[1] ? 1 : x[1] > y[1] ? -1 : (x[0] > y[0]) - (x[0] < y[0]);
}

/* Palette: the 256 most frequent 5-5-5 colours of the frame. */
static int build_palette(rd_gif *g, const SDL_Surface *s, char *err, size_t errlen)
{
    uint32_t(*hist)[2] = cv_xcalloc(32768, sizeof *hist);
    for (int i = 0; i < 32768; i++)
        hist[i][0] = (uint32_t)i;
    for (int y = 0; y < s->h; y++)
        for (int x = 0; x < s->w; x++)
            hist[key555(pixel_at(s, x, y))][1]++;
    qsort(hist, 32768, sizeof *hist, cmp_count);
    int n = 0;
    while (n < 256 && hist[n][1] > 0) {
        int k = (int)hist[n][0];
        g->colors[n].Red = (GifByteType)(((k >> 10) & 31) << 3 | ((k >> 12) & 7));
        g->colors[n].Green = (GifByteType)(((k >> 5) & 31) << 3 | ((k >> 7) & 7));
        g->colors[n].Blue = (GifByteType)((k & 31) << 3 | ((k >> 2) & 7));
        n++;
    }
    free(hist);
    /* GIF palettes come in powers of two; pad with black. */
    int size = 2;
    while (size < n)
        size *= 2;
    for (int i = n; i < size; i++)
        g->colors[i] = (GifColorType){0, 0, 0};
    g->ncolors = size;
    for (int k = 0; k < 32768; k++) {
        int r = ((k >> 10) & 31) << 3, gg = ((k >> 5) & 31) << 3, b = (k & 31) << 3;
        int best = 0, bestd = 1 << 30;
        for (int i = 0; i < n; i++) {
            int dr = r - g->colors[i].Red, dg = gg - g->colors[i].Green, db = b - g->colors[i].Blue;
            int d = 3 * dr * dr + 4 * dg * dg + 2 * db * db;
            if (d < bestd) {
                bestd = d;
                best = i;
            }
        }
        g->lut[k] = (uint8_t)best;
    }
    ColorMapObject *map = GifMakeMapObject(size, g->colors);
    if (!map) {
        snprintf(err, errlen, "GIF palette allocation failed");
        return CV_ENOMEM;
    }
    int rc = EGifPutScreenDesc(g->gif, g->w, g->h, 8, 0, map);
    GifFreeMapObject(map);
    if (rc != GIF_OK) {
        snprintf(err, errlen, "cannot write %s: %s", g->shown, GifErrorString(g->gif->Error));
        return CV_EINVAL;
    }
    /* Loop forever (NETSCAPE2.0 application extension). */
    static const unsigned char app[] = "NETSCAPE2.0";
    static const unsigned char loop[] = {1, 0, 0};
    if (EGifPutExtensionLeader(g->gif, APPLICATION_EXT_FUNC_CODE) != GIF_OK ||
        EGifPutExtensionBlock(g->gif, 11, app) != GIF_OK ||
        EGifPutExtensionBlock(g->gif, 3, loop) != GIF_OK ||
        EGifPutExtensionTrailer(g->gif) != GIF_OK) {
        snprintf(err, errlen, "cannot write %s: %s", g->shown, GifErrorString(g->gif->Error));
        return CV_EINVAL;
    }
    g->have_palette = true;
    return CV_OK;
}

int rd_gif_add(rd_gif *g, SDL_Surface *frame, int delay_cs, char *err, size_t errlen)
{
    SDL_Surface *s = frame;
    if (frame->format->format != SDL_PIXELFORMAT_ARGB8888) {
        s = SDL_ConvertSurfaceFormat(frame, SDL_PIXELFORMAT_ARGB8888, 0);
        if (!s) {
            snprintf(err, errlen, "cannot convert frame: %s", SDL_GetError());
            return CV_EINVAL;
        }
    }
    int rc = CV_OK;
    if (s->w != g->w || s->h != g->h) {
        snprintf(err, errlen, "GIF frame is %dx%d, expected %dx%d", s->w, s->h, g->w, g->h);
        rc = CV_EINVAL;
        goto done;
    }
    if (!g->have_palette && (rc = build_palette(g, s, err, errlen)) != CV_OK)
        goto done;
    for (int y = 0; y < g->h; y++)
        for (int x = 0; x < g->w; x++)
            g->index[(size_t)y * (size_t)g->w + (size_t)x] = g->lut[key555(pixel_at(s, x, y))];
    /* Only the rectangle that changed since the last frame (which stays
     * on screen under it): a step's flights touch a small part of a slide. */
    int x0 = 0, y0 = 0, x1 = g->w - 1, y1 = g->h - 1;
    if (g->have_prev) {
        x0 = g->w, y0 = g->h, x1 = -1, y1 = -1;
        for (int y = 0; y < g->h; y++) {
            const uint8_t *a = g->index + (size_t)y * (size_t)g->w, *b = g->prev + (size_t)y * (size_t)g->w;
            if (memcmp(a, b, (size_t)g->w) == 0)
                continue;
            int l = 0, r = g->w - 1;
            while (a[l] == b[l])
                l++;
            while (a[r] == b[r])
                r--;
            x0 = l < x0 ? l : x0;
            x1 = r > x1 ? r : x1;
            y0 = y < y0 ? y : y0;
            y1 = y;
        }
        if (x1 < 0) /* nothing changed: one pixel, so the delay still counts */
            x0 = y0 = x1 = y1 = 0;
    }
    GraphicsControlBlock gcb = {.DisposalMode = DISPOSE_DO_NOT, .UserInputFlag = false,
                                .DelayTime = delay_cs, .TransparentColor = NO_TRANSPARENT_COLOR};
    GifByteType ext[4];
    size_t n = EGifGCBToExtension(&gcb, ext);
    int rw = x1 - x0 + 1, rh = y1 - y0 + 1;
    if (EGifPutExtension(g->gif, GRAPHICS_EXT_FUNC_CODE, (int)n, ext) != GIF_OK ||
        EGifPutImageDesc(g->gif, x0, y0, rw, rh, false, NULL) != GIF_OK) {
        snprintf(err, errlen, "cannot write %s: %s", g->shown, GifErrorString(g->gif->Error));
        rc = CV_EINVAL;
        goto done;
    }
    for (int y = y0; y <= y1; y++)
        if (EGifPutLine(g->gif, g->index + (size_t)y * (size_t)g->w + (size_t)x0, rw) != GIF_OK) {
            snprintf(err, errlen, "cannot write %s: %s", g->shown, GifErrorString(g->gif->Error));
            rc = CV_EINVAL;
            goto done;
        }
    memcpy(g->prev, g->index, (size_t)g->w * (size_t)g->h);
    g->have_prev = true;
done:
    if (rc != CV_OK)
        g->failed = true;
    if (s != frame)
        SDL_FreeSurface(s);
    return rc;
}

int rd_gif_destroy(rd_gif *g, char *err, size_t errlen)
{
    if (!g)
        return CV_OK;
    int rc = g->failed ? CV_EINVAL : CV_OK, e = 0;
    if (EGifCloseFile(g->gif, &e) != GIF_OK && rc == CV_OK) {
        snprintf(err, errlen, "cannot finish %s: %s", g->shown, GifErrorString(e));
        rc = CV_EINVAL;
    }
    char why[CV_ERR_LEN] = "";
    if (cv_wfile_destroy(g->out, rc == CV_OK, why, sizeof why) != CV_OK && rc == CV_OK) {
        snprintf(err, errlen, "cannot write %s: %s", g->shown, why);
        rc = CV_EINVAL;
    }
    free(g->lut);
    free(g->index);
    free(g->prev);
    free(g);
    return rc;
}

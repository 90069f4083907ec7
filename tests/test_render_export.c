/*
 * test_render_export.c: `collviz export` writes one PNG per frame and an
 * animated GIF that giflib decodes back with the same frame count.
 */
#define _POSIX_C_SOURCE 200809L
#include <gif_lib.h>
#include <SDL_image.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"

int main(void)
{
    rd_font_paths p;
    char err[256];
    if (rd_fonts_find(COLLVIZ_SOURCE_DIR "/assets", &p, err, sizeof err) != CV_OK) {
        printf("skipped: %s\n", err);
        return 77;
    }
    const char *dir = COLLVIZ_BINARY_DIR "/export-test";
    const char *gif = COLLVIZ_BINARY_DIR "/export-test.gif";
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' '%s' && '%s/collviz' export --op allreduce --algo ring "
             "--ranks 4 --count 8 --size 480x300 --fps 2 --out '%s' --gif '%s'",
             dir, gif, COLLVIZ_BINARY_DIR, dir, gif);
    int rc = system(cmd);
    if (rc != 0) {
        fprintf(stderr, "export failed (%d): %s\n", rc, cmd);
        return 1;
    }
    /* Ring allreduce over 4 ranks: 6 steps, 2 frames a step, plus the end
     * held for one step: 14 frames. */
    int frames = 0;
    for (;; frames++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/frame-%05d.png", dir, frames);
        SDL_Surface *s = IMG_Load(path);
        if (!s)
            break;
        if (s->w != 480 || s->h != 300) {
            fprintf(stderr, "%s is %dx%d, expected 480x300\n", path, s->w, s->h);
            SDL_FreeSurface(s);
            return 1;
        }
        SDL_FreeSurface(s);
    }
    int e = 0;
    GifFileType *g = DGifOpenFileName(gif, &e);
    if (!g) {
        fprintf(stderr, "cannot open %s: %s\n", gif, GifErrorString(e));
        return 1;
    }
    int ok = DGifSlurp(g) == GIF_OK;
    int images = g->ImageCount, w = g->SWidth, h = g->SHeight;
    DGifCloseFile(g, &e);
    printf("%d PNG frames, GIF %dx%d with %d images\n", frames, w, h, images);
    if (!ok || frames < 2 || images != frames || w != 480 || h != 300) {
        fprintf(stderr, "export mismatch: %d PNG frames, GIF %s with %d images %dx%d\n", frames,
                ok ? "decoded" : "did not decode", images, w, h);
        return 1;
    }
    return 0;
}

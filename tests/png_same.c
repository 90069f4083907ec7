/*
 * png_same.c: png_same A.png B.png TOP: exits 0 when the two images have
 * the same size and the same pixels below row TOP (the header, where
 * measured times differ from run to run), 1 otherwise, saying how many
 * pixels differ. For tests/test_install.sh.
 */
#include <SDL_image.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: png_same A.png B.png TOP\n");
        return 2;
    }
    SDL_Surface *a = IMG_Load(argv[1]), *b = IMG_Load(argv[2]);
    SDL_Surface *ca = a ? SDL_ConvertSurfaceFormat(a, SDL_PIXELFORMAT_ARGB8888, 0) : NULL;
    SDL_Surface *cb = b ? SDL_ConvertSurfaceFormat(b, SDL_PIXELFORMAT_ARGB8888, 0) : NULL;
    if (!ca || !cb || ca->w != cb->w || ca->h != cb->h) {
        fprintf(stderr, "%s and %s: not two images of one size\n", argv[1], argv[2]);
        return 1;
    }
    long differ = 0;
    for (int y = atoi(argv[3]); y < ca->h; y++)
        for (int x = 0; x < ca->w; x++)
            differ += ((Uint32 *)((Uint8 *)ca->pixels + y * ca->pitch))[x] !=
                      ((Uint32 *)((Uint8 *)cb->pixels + y * cb->pitch))[x];
    if (differ)
        fprintf(stderr, "%s and %s: %ld pixels differ\n", argv[1], argv[2], differ);
    SDL_FreeSurface(ca);
    SDL_FreeSurface(cb);
    SDL_FreeSurface(a);
    SDL_FreeSurface(b);
    return differ != 0;
}

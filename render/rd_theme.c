/*
 * rd_theme.c: the three themes and the rank colours.
 *
 * Dark is for the desk, light for printed slides, projector for a washed-out
 * classroom beamer: pure black and white (the timeline's bands in greys:
 * nothing saturated but the ranks' own colours and the yellow accent), text
 * 1.5x larger and lines twice as thick.  Rank colours come from a palette
 * chosen to stay apart to 20 ranks; past it, hues advance by the golden
 * angle.
 *
 * The palettes below are the built-in copies of assets/themes/NAME.json, which
 * replace them when the program finds its assets (rd_theme_load.c, which
 * also holds the themes as the program has them, these and the files'
 * own): they keep a program without its assets, or with a broken palette
 * file, readable.
 */
#include "rd_internal.h"

#include <math.h>
#include <string.h>

/* clang-format off */
/* Twenty colours picked to stay apart (after Trubetskoy's list of
 * distinct colours, the darkest lightened for a dark stage), in an order
 * where ring neighbours differ in hue and lightness: 16 ranks never repeat
 * a hue family, and past the list hues advance by the golden angle. Card
 * titles and the legend give every colour its number. */
#define RANKS                                                                                      \
    .nranks = RD_RANK_COLORS,                                                                      \
    .ranks = {                                                                                     \
        {66, 135, 245, 255},  /* blue */                                                           \
        {245, 130, 48, 255},  /* orange */                                                         \
        {60, 180, 75, 255},   /* green */                                                          \
        {230, 40, 80, 255},   /* red */                                                            \
        {170, 80, 220, 255},  /* purple */                                                         \
        {66, 212, 244, 255},  /* cyan */                                                           \
        {255, 225, 25, 255},  /* yellow */                                                         \
        {240, 50, 230, 255},  /* magenta */                                                        \
        {70, 153, 144, 255},  /* teal */                                                           \
        {191, 239, 69, 255},  /* lime */                                                           \
        {170, 110, 40, 255},  /* brown */                                                          \
        {250, 190, 212, 255}, /* pink */                                                           \
        {205, 180, 255, 255}, /* lavender */                                                       \
        {150, 150, 20, 255},  /* olive */                                                          \
        {170, 255, 195, 255}, /* mint */                                                           \
        {255, 216, 177, 255}, /* apricot */                                                        \
        {190, 50, 50, 255},   /* maroon */                                                         \
        {110, 110, 220, 255}, /* navy */                                                           \
        {255, 250, 200, 255}, /* beige */                                                          \
        {169, 169, 169, 255}, /* grey */                                                           \
    }

/* Chart lines: measured ones cool (blue, green), the prediction warm (the
 * theme's accent), so "measured versus model" reads at a glance; on light
 * paper the colours are darker to keep their contrast. */
static const rd_theme themes[RD_THEME_COUNT] = {
    [RD_THEME_DARK] = {
        .name = "dark",
        .bg = {22, 24, 30, 255},
        .panel = {31, 34, 43, 255},
        .card = {40, 44, 56, 255},
        .edge = {84, 92, 112, 255},
        .text = {232, 234, 240, 255},
        .dim = {156, 162, 178, 255},
        .accent = {255, 200, 70, 255},
        .link = {92, 100, 124, 255},
        .empty = {27, 29, 37, 255},
        .flash = {255, 255, 255, 255},
        .warn = {255, 110, 90, 255},
        .band_a = {52, 62, 92, 255},
        .band_b = {72, 56, 88, 255},
        .text_scale = 1.0f,
        .line = 1.5f,
        RANKS,
        .series = {{90, 160, 255, 255}, {80, 200, 120, 255}, {255, 200, 70, 255}},
    },
    [RD_THEME_LIGHT] = {
        .name = "light",
        .bg = {245, 246, 248, 255},
        .panel = {232, 235, 240, 255},
        .card = {255, 255, 255, 255},
        .edge = {170, 176, 190, 255},
        .text = {22, 24, 30, 255},
        .dim = {92, 98, 112, 255},
        .accent = {196, 100, 0, 255},
        .link = {160, 168, 186, 255},
        .empty = {238, 240, 244, 255},
        .flash = {255, 220, 60, 255},
        .warn = {200, 40, 30, 255},
        .band_a = {200, 214, 240, 255},
        .band_b = {232, 206, 232, 255},
        .text_scale = 1.0f,
        .line = 1.5f,
        RANKS,
        .series = {{25, 95, 200, 255}, {20, 130, 60, 255}, {196, 100, 0, 255}},
    },
    [RD_THEME_PROJECTOR] = {
        .name = "projector",
        .bg = {0, 0, 0, 255},
        .panel = {16, 16, 16, 255},
        .card = {24, 24, 24, 255},
        .edge = {255, 255, 255, 255},
        .text = {255, 255, 255, 255},
        .dim = {224, 224, 224, 255},
        .accent = {255, 236, 0, 255},
        .link = {210, 210, 210, 255},
        .empty = {0, 0, 0, 255},
        .flash = {255, 255, 255, 255},
        .warn = {255, 80, 60, 255},
        .band_a = {48, 48, 48, 255},
        .band_b = {88, 88, 88, 255},
        .text_scale = 1.5f,
        .line = 3.0f,
        RANKS,
        .series = {{80, 170, 255, 255}, {0, 230, 120, 255}, {255, 236, 0, 255}},
    },
};

/* clang-format on */

static SDL_Color hsv(double h, double s, double v)
{
    h = fmod(h, 360.0);
    double c = v * s, x = c * (1 - fabs(fmod(h / 60.0, 2) - 1)), m = v - c;
    double r = 0, g = 0, b = 0;
    if (h < 60)
        r = c, g = x;
    else if (h < 120)
        r = x, g = c;
    else if (h < 180)
        g = c, b = x;
    else if (h < 240)
        g = x, b = c;
    else if (h < 300)
        r = x, b = c;
    else
        r = c, b = x;
    return (SDL_Color){(Uint8)lround((r + m) * 255), (Uint8)lround((g + m) * 255),
                       (Uint8)lround((b + m) * 255), 255};
}

SDL_Color rd_theme_rank_color(const rd_theme *th, int rank)
{
    if (rank < 0)
        rank = 0;
    if (rank < th->nranks)
        return th->ranks[rank];
    double v = (rank & 1) ? 0.78 : 0.95;
    return hsv(20.0 + 137.50776 * rank, 0.62, v);
}

const rd_theme *rd__theme_builtin(rd_theme_id id)
{
    return &themes[(unsigned)id < RD_THEME_COUNT ? id : RD_THEME_DARK];
}

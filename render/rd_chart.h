/*
 * rd_chart.h: a bandwidth-versus-size chart (prefix rd_chart), the picture
 * `collviz show` draws from a `collviz bench --json` result, nccl-tests'
 * output, or NCCL's tuning table (its lines renamed, crossovers marked).
 *
 * The x axis is the message size in bytes on a log scale (labels 8 B,
 * 1 KiB, 1 MiB, 1 GiB), the y axis GB/s, linear or log. Three series share
 * it: measured busbw and algbw (solid lines with point markers) and the
 * cost model's predicted busbw (dashed, diamonds). The caller supplies the
 * numbers and the words; the chart only places and draws them, onto any
 * SDL_Renderer (a window's, or a software renderer on a surface for PNG),
 * in the renderer's themes, and remembers where each point went so a
 * mouse position can be mapped back to a row.
 */
#ifndef RD_CHART_H
#define RD_CHART_H

#include <stdbool.h>
#include <stddef.h>

#include "render.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { RD_SERIES_BUSBW, RD_SERIES_ALGBW, RD_SERIES_MODEL, RD_SERIES_COUNT } rd_series;
typedef enum { RD_SCALE_LINEAR, RD_SCALE_LOG } rd_chart_scale;

typedef struct {
    double size;                  /* bytes, > 0 */
    double gbps[RD_SERIES_COUNT]; /* GB/s; negative = no value (not drawn) */
    bool wrong;                   /* the row failed verification: warning ring */
} rd_chart_point;

/* A vertical line at a size, labelled at the top of the plot (where NCCL
 * changes its choice of algorithm or protocol, say). */
typedef struct {
    double size;
    const char *label;
} rd_chart_mark;

typedef struct {
    const char *title;       /* op, algorithm, ranks, backend, dtype */
    const char *subtitle;    /* dim line under it; may be NULL */
    const char *model_label; /* legend text of the model: its link, or why absent */
    bool have_model;         /* draw RD_SERIES_MODEL */
    int npoints;             /* points in increasing size */
    const rd_chart_point *points;
    rd_theme_id theme;
    rd_chart_scale yscale;
    float dpi_scale;       /* output pixels per window unit; 0 = 1 */
    int hover;             /* point whose tooltip is shown, -1 = none */
    rd_series hover_series;
    const char *tooltip;   /* lines separated by '\n', next to the hovered point */
    const char *footer;    /* key hints along the bottom (window), or NULL */
    const char *message;   /* a notice at the bottom right ("saved ..."), or NULL */
    /* Optional, zero for a bench result's chart: */
    const char *labels[RD_SERIES_COUNT]; /* legend words of a series (NULL: "busbw
                                            (measured)", "algbw (measured)", model_label) */
    const char *y_title;   /* the value axis's title (NULL: "GB/s") */
    int nmarks;
    const rd_chart_mark *marks;
} rd_chart_data;

typedef struct rd_chart rd_chart;

rd_chart *rd_chart_create(SDL_Renderer *r, const rd_font_paths *fonts, char *err, size_t errlen);
void rd_chart_destroy(rd_chart *c); /* accepts NULL */
/* Draws the whole chart onto the renderer's output (not presented). */
void rd_chart_draw(rd_chart *c, const rd_chart_data *d);
/* Where the last drawing put point i of series s; false when it was not
 * drawn (no value, or not positive on a log axis). */
bool rd_chart_point_xy(const rd_chart *c, int i, rd_series s, int *x, int *y);
/* The plotting area of the last drawing. */
SDL_Rect rd_chart_plot_rect(const rd_chart *c);
/* The point nearest to (x, y) within a marker's reach in the last drawing,
 * or -1; *series says which line it is on. */
int rd_chart_hit(const rd_chart *c, int x, int y, rd_series *series);

/* The colour a series is drawn in under a theme (legend, tests). */
SDL_Color rd_chart_series_color(rd_theme_id theme, rd_series s);
/* Sizes as the x axis labels them: "8 B", "1 KiB", "64 MiB", "1 GiB";
 * sizes between powers of two get three significant digits ("1.5 KiB"). */
void rd_chart_fmt_size(double bytes, char *out, size_t outlen);
/* Log when one drawn series peaks more than 20x above another (a model of
 * NVLink over a CPU measurement would flatten the measured lines against
 * the axis); linear otherwise, the usual picture of a bandwidth curve. */
rd_chart_scale rd_chart_auto_scale(const rd_chart_data *d);

#ifdef __cplusplus
}
#endif

#endif /* RD_CHART_H */

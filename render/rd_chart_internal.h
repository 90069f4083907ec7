/*
 * rd_chart_internal.h: what rd_chart.c and rd_chart_axes.c share (prefix
 * rd__chart): sizes derived from the output and theme, and the axes'
 * ranges and placement. Not part of the public interface in rd_chart.h.
 */
#ifndef RD_CHART_INTERNAL_H
#define RD_CHART_INTERNAL_H

#include "rd_chart.h"
#include "rd_internal.h"

typedef struct {
    int x, y;
    bool drawn;
} rd_chart_pos;

struct rd_chart {
    SDL_Renderer *r;
    rd_text *text;
    SDL_Rect plot;      /* last drawing's plotting area */
    rd_chart_pos *pos;  /* npoints x RD_SERIES_COUNT, from the last drawing */
    int n, cap;
    float hit_r;        /* how far from a marker the mouse still picks it */
};

/* Pixel sizes for one drawing. */
typedef struct {
    float ui;                      /* scale: dpi x window size x 1280x800 reference */
    int px_small, px_text, px_big; /* text sizes */
    int pad;
    float line_w, marker, dash, gap;
    SDL_Color plot_bg, grid;
} rd_chart_metrics;

void rd__chart_metrics(const rd_chart_data *d, int w, int h, rd_chart_metrics *m);

#define RD_CHART_MAX_TICKS 64

typedef struct {
    SDL_Rect plot;
    int title_y;      /* top of the y axis title's row */
    int inset;        /* pixels kept free inside the plot's edges for markers */
    double x0, x1;    /* log2 of the size range */
    double y0, y1;    /* GB/s, or log10 of GB/s when ylog */
    bool ylog;
    int nx, ny;       /* labelled ticks */
    double xt[RD_CHART_MAX_TICKS], yt[RD_CHART_MAX_TICKS]; /* log2 size; GB/s */
    int nminor;       /* unlabelled x ticks (every power of two) */
    double xminor[RD_CHART_MAX_TICKS];
    int ydecimals;    /* linear axis: digits after the point */
} rd_chart_axes;

/* Ranges, ticks and the plot rectangle below `top` (labels measured so the
 * plot leaves room for them). */
void rd__chart_axes(rd_chart *c, const rd_chart_data *d, const rd_chart_metrics *m, int w, int h,
                    int top, rd_chart_axes *ax);
/* Grid, axis lines, tick labels and the axis titles. */
void rd__chart_draw_axes(rd_chart *c, const rd_chart_data *d, const rd_chart_axes *ax,
                         const rd_chart_metrics *m);
float rd__chart_map_x(const rd_chart_axes *ax, double size);
float rd__chart_map_y(const rd_chart_axes *ax, double gbps);

#endif /* RD_CHART_INTERNAL_H */

/*
 * rd_chart_axes.c: the chart's sizes, ranges, ticks and axes.
 *
 * The x axis runs between the powers of two around the smallest and the
 * largest size; labels go on powers of two spaced 1, 2, 5 or 10 doublings
 * apart (10 doublings apart is B, KiB, MiB, GiB), the first spacing whose
 * measured labels do not touch, with a small tick at every other power of
 * two. The y axis is 0 to a round number above the peak in steps of 1, 2
 * or 5 x 10^k, or whole decades on a log axis (with 2 and 5 between them
 * when it spans two decades or less).
 */
#include "rd_chart_internal.h"

#include <math.h>
#include <string.h>

void rd_chart_fmt_size(double bytes, char *out, size_t outlen)
{
    static const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    int u = 0;
    while (bytes >= 1024 && u < 5) {
        bytes /= 1024;
        u++;
    }
    if (bytes == floor(bytes))
        snprintf(out, outlen, "%.0f %s", bytes, units[u]);
    else
        snprintf(out, outlen, "%.3g %s", bytes, units[u]);
}

static double series_peak(const rd_chart_data *d, int s)
{
    double peak = 0;
    for (int i = 0; i < d->npoints; i++)
        peak = d->points[i].gbps[s] > peak ? d->points[i].gbps[s] : peak;
    return peak;
}

rd_chart_scale rd_chart_auto_scale(const rd_chart_data *d)
{
    double lo = INFINITY, hi = 0;
    for (int s = 0; s < RD_SERIES_COUNT; s++) {
        if (s == RD_SERIES_MODEL && !d->have_model)
            continue;
        double p = series_peak(d, s);
        if (p <= 0)
            continue;
        lo = p < lo ? p : lo;
        hi = p > hi ? p : hi;
    }
    return hi > 0 && hi / lo > 20 ? RD_SCALE_LOG : RD_SCALE_LINEAR;
}

void rd__chart_metrics(const rd_chart_data *d, int w, int h, rd_chart_metrics *m)
{
    const rd_theme *th = rd_theme_get(d->theme);
    float dpi = d->dpi_scale > 0.25f ? d->dpi_scale : 1.0f;
    float fit = fminf(w / dpi / 1280.0f, h / dpi / 800.0f);
    m->ui = dpi * fmaxf(0.6f, fminf(fit, 2.0f));
    float ts = th->text_scale;
    m->px_small = (int)lroundf(13 * m->ui * ts);
    m->px_text = (int)lroundf(15 * m->ui * ts);
    m->px_big = (int)lroundf(20 * m->ui * ts);
    if (w < 700 || h < 450) { /* small windows: smaller text, so labels still fit */
        float k = fminf(w / 700.0f, h / 450.0f);
        m->px_small = (int)fmaxf(8, m->px_small * k);
        m->px_text = (int)fmaxf(8, m->px_text * k);
        m->px_big = (int)fmaxf(9, m->px_big * k);
    }
    m->pad = (int)fmaxf(4, lroundf(12 * m->ui));
    m->line_w = th->line * m->ui * 1.5f;
    m->marker = fmaxf(3.5f, (3.0f + th->line) * m->ui);
    m->dash = 10 * m->ui * (th->line > 2 ? 1.4f : 1.0f);
    m->gap = 6 * m->ui * (th->line > 2 ? 1.4f : 1.0f);
    m->plot_bg = th->panel;
    m->grid = rd__mix(th->panel, th->edge, 0.35f);
}

float rd__chart_map_x(const rd_chart_axes *ax, double size)
{
    double f = (log2(size) - ax->x0) / (ax->x1 - ax->x0);
    return (float)(ax->plot.x + ax->inset + f * (ax->plot.w - 2 * ax->inset));
}

float rd__chart_map_y(const rd_chart_axes *ax, double v)
{
    double f = ax->ylog ? (log10(v) - ax->y0) / (ax->y1 - ax->y0)
                        : (v - ax->y0) / (ax->y1 - ax->y0);
    return (float)(ax->plot.y + ax->plot.h - f * ax->plot.h);
}

static void fmt_gbps(const rd_chart_axes *ax, double v, char *out, size_t outlen)
{
    int dec = ax->ydecimals;
    if (ax->ylog)
        dec = v >= 1 ? 0 : (int)-floor(log10(v) + 1e-9);
    snprintf(out, outlen, "%.*f", dec, v);
}

/* y ticks for a plot of height ph: linear 1-2-5 steps, or decades. */
static void y_ticks(const rd_chart_data *d, rd_chart_axes *ax, int ph, int px)
{
    double hi = 0, lo = INFINITY;
    for (int i = 0; i < d->npoints; i++)
        for (int s = 0; s < RD_SERIES_COUNT; s++) {
            double v = d->points[i].gbps[s];
            if ((s == RD_SERIES_MODEL && !d->have_model) || !(v > 0) || !isfinite(v))
                continue;
            hi = v > hi ? v : hi;
            lo = v < lo ? v : lo;
        }
    int want = (int)fmax(2, fmin(8, ph / (px * 2.6)));
    ax->ny = 0;
    if (ax->ylog) {
        if (!(hi > 0))
            hi = lo = 1;
        ax->y0 = floor(log10(lo));
        ax->y1 = ceil(log10(hi));
        if (ax->y1 <= ax->y0)
            ax->y1 = ax->y0 + 1;
        int decades = (int)(ax->y1 - ax->y0), every = 1;
        while (decades / every + 1 > want && every < decades)
            every++;
        for (int e = (int)ax->y0; e <= (int)ax->y1 && ax->ny < RD_CHART_MAX_TICKS; e++) {
            if ((e - (int)ax->y0) % every == 0)
                ax->yt[ax->ny++] = pow(10, e);
            /* Two decades or less: 2 and 5 between them, or the axis would
             * carry only two or three numbers. */
            if (decades <= 2 && e < (int)ax->y1 && 3 * decades + 1 <= want + 2)
                for (int k = 0; k < 2 && ax->ny < RD_CHART_MAX_TICKS; k++)
                    ax->yt[ax->ny++] = (k ? 5 : 2) * pow(10, e);
        }
        return;
    }
    if (!(hi > 0))
        hi = 1;
    double raw = hi * 1.05 / want, mag = pow(10, floor(log10(raw))), norm = raw / mag;
    double step = (norm <= 1 ? 1 : norm <= 2 ? 2 : norm <= 5 ? 5 : 10) * mag;
    ax->y0 = 0;
    ax->y1 = ceil(hi * 1.05 / step) * step;
    ax->ydecimals = step >= 1 ? 0 : (int)-floor(log10(step) + 1e-9);
    for (int k = 0; k * step <= ax->y1 * (1 + 1e-9) && ax->ny < RD_CHART_MAX_TICKS; k++)
        ax->yt[ax->ny++] = k * step;
}

/* A power of two that became labelled is no longer a minor tick. */
static void drop_minor(rd_chart_axes *ax, double e)
{
    int k = 0;
    for (int i = 0; i < ax->nminor; i++)
        if (ax->xminor[i] != e)
            ax->xminor[k++] = ax->xminor[i];
    ax->nminor = k;
}

/* The x range: the powers of two around the smallest and the largest
 * size (a little room either side of one size). */
static void x_range(const rd_chart_data *d, rd_chart_axes *ax)
{
    double smin = INFINITY, smax = 0;
    for (int i = 0; i < d->npoints; i++) {
        smin = d->points[i].size < smin ? d->points[i].size : smin;
        smax = d->points[i].size > smax ? d->points[i].size : smax;
    }
    if (!(smax > 0))
        smin = smax = 1024;
    smin = smin < 1 ? 1 : smin;
    ax->x0 = floor(log2(smin));
    ax->x1 = ceil(log2(smax));
    if (ax->x1 - ax->x0 < 2) { /* one size: a little room either side */
        ax->x0 = ax->x0 > 0 ? ax->x0 - 1 : 0;
        ax->x1 = ax->x0 + 2;
    }
    ax->x1 = fmin(ax->x1, ax->x0 + RD_CHART_MAX_TICKS - 1);
}

/* The width of the widest label of a size on the x axis. */
static int x_label_w(rd_chart *c, const rd_chart_axes *ax, int px)
{
    char s[48];
    int xw = 0;
    for (double e = ax->x0; e <= ax->x1; e++) {
        int tw = 0;
        rd_chart_fmt_size(pow(2, e), s, sizeof s);
        rd_text_measure(c->text, s, px, &tw, NULL);
        xw = tw > xw ? tw : xw;
    }
    return xw;
}

/* The plot below top, its left edge right of the widest y label. */
static void plot_rect(rd_chart *c, const rd_chart_data *d, const rd_chart_metrics *m, int w, int h,
                      int top, int xw, rd_chart_axes *ax)
{
    int tick = m->pad / 2, label_h = (int)(m->px_small * 1.4f);
    int bottom = h - m->pad - (d->footer || d->message ? (int)(m->px_small * 1.6f) : 0) -
                 label_h - label_h - tick;
    /* The y title's row, then half a label so the top tick's label clears it. */
    ax->title_y = top;
    ax->plot.y = top + label_h + label_h / 2;
    ax->plot.h = bottom - ax->plot.y;
    if (ax->plot.h < 20)
        ax->plot.h = 20;
    y_ticks(d, ax, ax->plot.h, m->px_small);
    int yw = 0;
    char s[48];
    for (int k = 0; k < ax->ny; k++) {
        int tw = 0;
        fmt_gbps(ax, ax->yt[k], s, sizeof s);
        rd_text_measure(c->text, s, m->px_small, &tw, NULL);
        yw = tw > yw ? tw : yw;
    }
    ax->plot.x = m->pad + yw + m->pad / 2 + tick;
    ax->plot.w = w - ax->plot.x - (m->pad > xw / 2 ? m->pad : xw / 2 + 2);
    if (ax->plot.w < 20)
        ax->plot.w = 20;
}

/* Whether a label at the range's end e clears the labelled tick next to
 * it at `next`, per pixels a doubling. */
static bool end_clears(rd_chart *c, int px, double per, double e, double next)
{
    char s[48];
    int wa, wb;
    rd_chart_fmt_size(pow(2, e), s, sizeof s);
    rd_text_measure(c->text, s, px, &wa, NULL);
    rd_chart_fmt_size(pow(2, next), s, sizeof s);
    rd_text_measure(c->text, s, px, &wb, NULL);
    return per * fabs(e - next) >= (wa + wb) / 2.0 + 2 * px;
}

/* The range's ends get a label too where it clears its neighbour, so the
 * axis says where it starts and stops (8 B .. 1 GiB). */
static void end_labels(rd_chart *c, const rd_chart_metrics *m, double per, rd_chart_axes *ax)
{
    if (ax->xt[0] > ax->x0 && end_clears(c, m->px_small, per, ax->x0, ax->xt[0]) &&
        ax->nx < RD_CHART_MAX_TICKS) {
        memmove(ax->xt + 1, ax->xt, (size_t)ax->nx * sizeof *ax->xt);
        ax->xt[0] = ax->x0;
        ax->nx++;
        drop_minor(ax, ax->x0);
    }
    double last = ax->xt[ax->nx - 1];
    if (last < ax->x1 && ax->nx < RD_CHART_MAX_TICKS &&
        end_clears(c, m->px_small, per, ax->x1, last)) {
        ax->xt[ax->nx++] = ax->x1;
        drop_minor(ax, ax->x1);
    }
}

void rd__chart_axes(rd_chart *c, const rd_chart_data *d, const rd_chart_metrics *m, int w, int h,
                    int top, rd_chart_axes *ax)
{
    memset(ax, 0, sizeof *ax);
    ax->ylog = d->yscale == RD_SCALE_LOG;
    x_range(d, ax);
    int xw = x_label_w(c, ax, m->px_small);
    plot_rect(c, d, m, w, h, top, xw, ax);
    ax->inset = (int)(m->marker * 2 + 2);
    double per = (ax->plot.w - 2 * ax->inset) / (ax->x1 - ax->x0); /* pixels per doubling */
    static const int strides[] = {1, 2, 5, 10};
    int stride = 10;
    for (int k = 0; k < 4; k++)
        if (per * strides[k] >= xw + m->px_small) {
            stride = strides[k];
            break;
        }
    for (int e = (int)ax->x0; e <= (int)ax->x1; e++) {
        if (e % stride == 0)
            ax->xt[ax->nx++] = e;
        else if (per >= 3)
            ax->xminor[ax->nminor++] = e;
    }
    if (ax->nx == 0) { /* a short range between labelled strides: label its ends */
        ax->xt[ax->nx++] = ax->x0;
        ax->xt[ax->nx++] = ax->x1;
        return;
    }
    end_labels(c, m, per, ax);
}

void rd__chart_draw_axes(rd_chart *c, const rd_chart_data *d, const rd_chart_axes *ax,
                         const rd_chart_metrics *m)
{
    const rd_theme *th = rd_theme_get(d->theme);
    SDL_Rect p = ax->plot;
    rd__fill(c->r, p, m->plot_bg);
    int gw = m->ui >= 1.5f ? 2 : 1, tick = m->pad / 2, lh = (int)(m->px_small * 1.4f);
    char s[64];
    for (int k = 0; k < ax->ny; k++) {
        int y = (int)lroundf(rd__chart_map_y(ax, ax->yt[k]));
        rd__fill(c->r, (SDL_Rect){p.x, y - gw / 2, p.w, gw}, m->grid);
        rd__fill(c->r, (SDL_Rect){p.x - tick, y - gw / 2, tick, gw}, th->dim);
        fmt_gbps(ax, ax->yt[k], s, sizeof s);
        rd_text_draw_in(c->text, s, m->px_small, th->dim,
                        (SDL_Rect){m->pad / 2, y - lh / 2, p.x - tick - m->pad / 2 - m->pad / 2, lh},
                        RD_ALIGN_RIGHT | RD_ALIGN_FIT);
    }
    int bottom = p.y + p.h;
    for (int k = 0; k < ax->nx; k++) {
        int x = (int)lroundf(rd__chart_map_x(ax, pow(2, ax->xt[k])));
        rd__fill(c->r, (SDL_Rect){x - gw / 2, p.y, gw, p.h}, m->grid);
        rd__fill(c->r, (SDL_Rect){x - gw / 2, bottom, gw, tick}, th->dim);
        rd_chart_fmt_size(pow(2, ax->xt[k]), s, sizeof s);
        int tw = 0;
        rd_text_measure(c->text, s, m->px_small, &tw, NULL);
        rd_text_draw_in(c->text, s, m->px_small, th->dim,
                        (SDL_Rect){x - tw / 2 - 2, bottom + tick, tw + 4, lh}, RD_ALIGN_CENTER);
    }
    for (int k = 0; k < ax->nminor; k++) {
        int x = (int)lroundf(rd__chart_map_x(ax, pow(2, ax->xminor[k])));
        rd__fill(c->r, (SDL_Rect){x - gw / 2, bottom - tick, gw, tick}, th->edge);
    }
    rd__frame(c->r, p, gw, th->edge);
    char title[160];
    snprintf(title, sizeof title, "%s%s", d->y_title ? d->y_title : "GB/s",
             ax->ylog ? " (log scale)" : "");
    rd_text_draw_in(c->text, title, m->px_small, th->dim,
                    (SDL_Rect){m->pad, ax->title_y, p.w + p.x - m->pad, lh}, RD_ALIGN_LEFT);
    rd_text_draw_in(c->text, "message size (bytes, log scale)", m->px_small, th->dim,
                    (SDL_Rect){p.x, bottom + tick + lh, p.w, lh}, RD_ALIGN_CENTER);
}

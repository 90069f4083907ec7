/*
 * rd_chart.c: draws the bandwidth-versus-size chart of rd_chart.h.
 *
 * Layout runs top to bottom: title, subtitle, a legend that wraps onto more
 * rows rather than shrinking, the plot, x tick labels and the x axis title,
 * and a footer of key hints in the window. Text sizes follow the window as
 * the stage's do (1280x800 is the reference, projector text is 1.5x), and
 * tick labels are spaced by measuring them, so nothing overlaps from
 * 320x240 to 4K. Axis ticks and placement live in rd_chart_axes.c.
 */
#include "rd_chart_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

rd_chart *rd_chart_create(SDL_Renderer *r, const rd_font_paths *fonts, char *err, size_t errlen)
{
    rd_chart *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    c->r = r;
    c->text = rd_text_create(r, fonts, err, errlen);
    if (!c->text)
        goto fail;
    return c;
fail:
    rd_chart_destroy(c);
    return NULL;
}

void rd_chart_destroy(rd_chart *c)
{
    if (!c)
        return;
    rd_text_destroy(c->text);
    free(c->pos);
    free(c);
}

SDL_Color rd_chart_series_color(rd_theme_id theme, rd_series s)
{
    _Static_assert(RD_SERIES_COUNT == RD_THEME_SERIES, "a theme has a colour per series");
    if ((unsigned)s >= RD_SERIES_COUNT)
        s = RD_SERIES_BUSBW;
    return rd_theme_get(theme)->series[s];
}

/* ------------------------------------------------------------- primitives */

/* A line of even thickness. SDL's software renderer truncates geometry
 * vertices to whole pixels, so a thin quad (rd__line) comes out one to
 * three pixels wide depending on its angle; parallel one-pixel lines,
 * stacked across the line's minor axis, keep every segment alike. */
static void thick_line(SDL_Renderer *r, float x0, float y0, float x1, float y1, float width,
                       SDL_Color c)
{
    float dx = fabsf(x1 - x0), dy = fabsf(y1 - y0), len = sqrtf(dx * dx + dy * dy);
    if (len < 0.01f)
        return;
    bool flat = dx >= dy;
    /* Stacked along y (flat lines) or x (steep ones): the perpendicular
     * thickness is the stack's height times the cosine of the slope. */
    int k = (int)lroundf(width * len / (flat ? dx : dy));
    k = k < 1 ? 1 : k;
    SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_NONE);
    SDL_SetRenderDrawColor(r, c.r, c.g, c.b, 255);
    for (int i = 0; i < k; i++) {
        float o = (float)i - (k - 1) / 2.0f;
        if (flat)
            SDL_RenderDrawLineF(r, x0, y0 + o, x1, y1 + o);
        else
            SDL_RenderDrawLineF(r, x0 + o, y0, x1 + o, y1);
    }
}

/* Filled shapes as rows of pixels around a whole-pixel centre, for the
 * same reason as thick_line: geometry with truncated vertices turns a
 * 3-pixel disc into a lopsided blob. half(dy) is the half width of row dy. */
static void span_fill(SDL_Renderer *r, float fx, float fy, float rad, int shape, SDL_Color c)
{
    int cx = (int)lroundf(fx), cy = (int)lroundf(fy), n = (int)ceilf(rad);
    SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_NONE);
    SDL_SetRenderDrawColor(r, c.r, c.g, c.b, 255);
    for (int dy = -n; dy <= n; dy++) {
        float hw;
        if (shape == 0) { /* disc */
            float t = rad * rad - (float)(dy * dy);
            if (t < 0)
                continue;
            hw = sqrtf(t);
        } else if (shape == 1) { /* square */
            hw = rad;
        } else { /* diamond */
            hw = rad - fabsf((float)dy);
            if (hw < 0)
                continue;
        }
        int h = (int)floorf(hw + 0.35f);
        SDL_RenderFillRect(r, &(SDL_Rect){cx - h, cy + dy, 2 * h + 1, 1});
    }
}

static void disc(SDL_Renderer *r, float x, float y, float rad, SDL_Color c)
{
    span_fill(r, x, y, rad, 0, c);
}

/* Markers differ in shape as well as colour, for readers who cannot tell
 * the colours apart and for black-and-white printouts. */
static void marker(SDL_Renderer *r, rd_series s, float x, float y, float rad, SDL_Color c)
{
    if (s == RD_SERIES_BUSBW)
        span_fill(r, x, y, rad, 0, c);
    else if (s == RD_SERIES_ALGBW)
        span_fill(r, x, y, rad * 0.85f, 1, c);
    else
        span_fill(r, x, y, rad * 1.25f, 2, c);
}

/* A dashed polyline whose dash pattern runs on across the vertices. */
static void dashed(SDL_Renderer *r, const SDL_FPoint *p, int n, float width, float dash,
                   float gap, SDL_Color c)
{
    float phase = 0; /* distance into the current dash+gap period */
    for (int i = 1; i < n; i++) {
        float dx = p[i].x - p[i - 1].x, dy = p[i].y - p[i - 1].y;
        float len = sqrtf(dx * dx + dy * dy), at = 0;
        if (len < 0.01f)
            continue;
        while (at < len) {
            float left = phase < dash ? dash - phase : dash + gap - phase;
            float step = fminf(left, len - at);
            if (phase < dash)
                thick_line(r, p[i - 1].x + dx * at / len, p[i - 1].y + dy * at / len,
                         p[i - 1].x + dx * (at + step) / len, p[i - 1].y + dy * (at + step) / len,
                         width, c);
            at += step;
            phase = fmodf(phase + step, dash + gap);
        }
    }
}

/* ----------------------------------------------------------------- pieces */

static int draw_legend(rd_chart *c, const rd_chart_data *d, const rd_theme *th, int x0,
                       int y0, int w, const rd_chart_metrics *m)
{
    const char *labels[RD_SERIES_COUNT + 1] = {"busbw (measured)", "algbw (measured)",
                                               d->model_label ? d->model_label : "model"};
    for (int i = 0; i < RD_SERIES_COUNT; i++)
        if (d->labels[i])
            labels[i] = d->labels[i];
    bool any_wrong = false;
    for (int i = 0; i < d->npoints; i++)
        any_wrong |= d->points[i].wrong;
    int n = RD_SERIES_COUNT + any_wrong;
    labels[RD_SERIES_COUNT] = "failed verification";
    int x = x0, y = y0, row_h = (int)(m->px_text * 1.5f), sample = (int)(30 * m->ui);
    int gap = (int)(22 * m->ui);
    for (int i = 0; i < n; i++) {
        bool absent = i == RD_SERIES_MODEL && !d->have_model;
        int tw = 0;
        rd_text_measure(c->text, labels[i], m->px_text, &tw, NULL);
        int ew = (absent ? 0 : sample + m->pad / 2) + tw;
        if (x > x0 && x + ew > x0 + w) { /* wrap rather than run off the edge */
            x = x0;
            y += row_h;
        }
        float cy = (float)y + row_h / 2.0f;
        SDL_Color col = i < RD_SERIES_COUNT ? rd_chart_series_color(d->theme, (rd_series)i)
                                            : th->warn;
        if (i == RD_SERIES_MODEL && !absent) {
            SDL_FPoint seg[2] = {{(float)x, cy}, {(float)(x + sample), cy}};
            dashed(c->r, seg, 2, m->line_w, m->dash, m->gap, col);
        } else if (i < RD_SERIES_COUNT && !absent) {
            thick_line(c->r, (float)x, cy, (float)(x + sample), cy, m->line_w, col);
        }
        if (i == RD_SERIES_COUNT) {
            disc(c->r, x + sample / 2.0f, cy, m->marker * 1.8f, col);
            disc(c->r, x + sample / 2.0f, cy, m->marker * 1.8f - m->line_w, th->bg);
        } else if (!absent) {
            marker(c->r, (rd_series)i, x + sample / 2.0f, cy, m->marker, col);
        }
        int tx = x + (absent ? 0 : sample + m->pad / 2);
        rd_text_draw_in(c->text, labels[i], m->px_text, absent ? th->dim : th->text,
                        (SDL_Rect){tx, y, x0 + w - tx, row_h}, RD_ALIGN_LEFT);
        x += ew + gap;
    }
    return y + row_h;
}

static void draw_series(rd_chart *c, const rd_chart_data *d, const rd_chart_axes *ax,
                        const rd_chart_metrics *m, rd_series s, SDL_FPoint *pts)
{
    SDL_Color col = rd_chart_series_color(d->theme, s);
    /* A value the axis cannot show (none, or not positive on a log axis)
     * breaks the line instead of dropping it to the floor; but a size the
     * model was not priced at (-1: show prices a sample of a long file's
     * sizes) is skipped, and its line runs on through the sizes priced. */
    int run = 0;
    for (int i = 0; i <= d->npoints; i++) {
        int x, y;
        bool ok = i < d->npoints && rd_chart_point_xy(c, i, s, &x, &y);
        if (ok) {
            pts[run++] = (SDL_FPoint){(float)x, (float)y};
            continue;
        }
        if (i < d->npoints && s == RD_SERIES_MODEL && d->points[i].gbps[s] < 0)
            continue;
        if (s == RD_SERIES_MODEL)
            dashed(c->r, pts, run, m->line_w * 0.85f, m->dash, m->gap, col);
        else
            for (int k = 1; k < run; k++)
                thick_line(c->r, pts[k - 1].x, pts[k - 1].y, pts[k].x, pts[k].y, m->line_w, col);
        run = 0;
    }
    /* Markers only where they stand apart: thousands of rows would bury
     * the line under their rings (each ring is painted in the plot's
     * colour), so a dense series is drawn as its line alone. */
    int drawn = 0;
    for (int i = 0; i < d->npoints; i++)
        drawn += c->pos[i * RD_SERIES_COUNT + s].drawn;
    if (drawn > 1 && (float)ax->plot.w / (float)drawn < m->marker * 3.0f)
        return;
    for (int i = 0; i < d->npoints; i++) {
        int x, y;
        if (!rd_chart_point_xy(c, i, s, &x, &y))
            continue;
        float rad = m->marker * (s == RD_SERIES_MODEL ? 0.85f : 1.0f);
        /* A ring of the plot's colour separates markers that touch. */
        marker(c->r, s, (float)x, (float)y, rad + m->line_w * 0.7f, m->plot_bg);
        marker(c->r, s, (float)x, (float)y, rad, col);
    }
}

/* The marks: a dashed vertical line each, its label at the top of the
 * plot beside it (left of it near the right edge), rows staggered so that
 * labels of close marks do not overlap. */
static void draw_marks(rd_chart *c, const rd_chart_data *d, const rd_chart_axes *ax,
                       const rd_chart_metrics *m, const rd_theme *th)
{
    SDL_Rect p = ax->plot;
    int lh = (int)(m->px_small * 1.4f), prev_right = -100000, row = 0;
    for (int k = 0; k < d->nmarks; k++) {
        float x = rd__chart_map_x(ax, d->marks[k].size);
        if (x < p.x || x > p.x + p.w)
            continue;
        SDL_FPoint seg[2] = {{x, (float)p.y}, {x, (float)(p.y + p.h)}};
        dashed(c->r, seg, 2, fmaxf(1.0f, m->line_w * 0.5f), m->dash * 0.6f, m->gap, th->dim);
        if (!d->marks[k].label)
            continue;
        int tw = 0;
        rd_text_measure(c->text, d->marks[k].label, m->px_small, &tw, NULL);
        int tx = (int)x + m->pad / 3;
        if (tx + tw > p.x + p.w - 2)
            tx = (int)x - m->pad / 3 - tw;
        row = tx < prev_right + m->pad / 2 ? (row + 1) % 3 : 0;
        prev_right = tx + tw;
        SDL_Rect box = {tx, p.y + m->pad / 3 + row * lh, tw + 2, lh};
        rd__fill(c->r, (SDL_Rect){box.x - 2, box.y, box.w + 2, box.h}, m->plot_bg);
        rd_text_draw_in(c->text, d->marks[k].label, m->px_small, th->text, box, RD_ALIGN_LEFT);
    }
}

static void draw_tooltip(rd_chart *c, const rd_chart_data *d, const rd_theme *th,
                         const rd_chart_metrics *m, int w, int h)
{
    int px, py;
    if (!d->tooltip || d->hover < 0 || !rd_chart_point_xy(c, d->hover, d->hover_series, &px, &py))
        return;
    SDL_Color col = rd_chart_series_color(d->theme, d->hover_series);
    disc(c->r, (float)px, (float)py, m->marker * 2.0f, th->text);
    marker(c->r, d->hover_series, (float)px, (float)py, m->marker * 1.4f, col);
    enum { MAX_LINES = 12 };
    char lines[MAX_LINES][160];
    int n = 0, lw = 0, lh = (int)(m->px_text * 1.4f);
    for (const char *s = d->tooltip; *s && n < MAX_LINES; n++) {
        const char *e = strchr(s, '\n');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        snprintf(lines[n], sizeof lines[n], "%.*s", (int)(len < 159 ? len : 159), s);
        int tw = 0;
        rd_text_measure(c->text, lines[n], m->px_text, &tw, NULL);
        lw = tw > lw ? tw : lw;
        s += len + (e != NULL);
    }
    int bw = lw + 2 * m->pad, bh = n * lh + m->pad * 3 / 2;
    bw = bw > w - 4 ? w - 4 : bw;
    int x = px + m->pad * 2, y = py - bh - m->pad;
    if (x + bw > w - 2)
        x = px - bw - m->pad * 2;
    if (y < 2)
        y = py + m->pad * 2;
    x = x < 2 ? 2 : x;
    y = y + bh > h - 2 ? h - 2 - bh : y;
    SDL_Rect box = {x, y, bw, bh};
    rd__fill(c->r, box, th->panel);
    rd__frame(c->r, box, m->line_w > 2 ? 2 : 1, col);
    for (int i = 0; i < n; i++)
        rd_text_draw_in(c->text, lines[i], m->px_text, i == 0 ? col : th->text,
                        (SDL_Rect){x + m->pad, y + m->pad * 3 / 4 + i * lh, bw - 2 * m->pad, lh},
                        RD_ALIGN_LEFT);
}

/* ------------------------------------------------------------------- draw */

void rd_chart_draw(rd_chart *c, const rd_chart_data *d)
{
    int w = 1, h = 1;
    SDL_GetRendererOutputSize(c->r, &w, &h);
    const rd_theme *th = rd_theme_get(d->theme);
    rd_chart_metrics m;
    rd__chart_metrics(d, w, h, &m);
    SDL_FPoint *pts = NULL;
    if (d->npoints > c->cap) {
        free(c->pos);
        c->pos = calloc((size_t)d->npoints * RD_SERIES_COUNT, sizeof *c->pos);
        c->cap = c->pos ? d->npoints : 0;
    }
    c->n = c->pos ? d->npoints : 0;
    c->hit_r = fmaxf(m.marker * 3.0f, 14 * m.ui);
    SDL_SetRenderDrawBlendMode(c->r, SDL_BLENDMODE_NONE);
    SDL_SetRenderDrawColor(c->r, th->bg.r, th->bg.g, th->bg.b, 255);
    SDL_RenderClear(c->r);

    int y = m.pad;
    rd_text_draw_in(c->text, d->title, m.px_big, th->text,
                    (SDL_Rect){m.pad, y, w - 2 * m.pad, (int)(m.px_big * 1.35f)}, RD_ALIGN_LEFT);
    y += (int)(m.px_big * 1.35f);
    if (d->subtitle) {
        rd_text_draw_in(c->text, d->subtitle, m.px_small, th->dim,
                        (SDL_Rect){m.pad, y, w - 2 * m.pad, (int)(m.px_small * 1.45f)},
                        RD_ALIGN_LEFT);
        y += (int)(m.px_small * 1.45f);
    }
    y = draw_legend(c, d, th, m.pad, y + m.pad / 2, w - 2 * m.pad, &m);

    rd_chart_axes ax;
    rd__chart_axes(c, d, &m, w, h, y + m.pad / 2, &ax);
    c->plot = ax.plot;
    rd__chart_draw_axes(c, d, &ax, &m);
    for (int i = 0; i < c->n; i++)
        for (int s = 0; s < RD_SERIES_COUNT; s++) {
            double v = d->points[i].gbps[s];
            bool shown = (s != RD_SERIES_MODEL || d->have_model) && v >= 0 &&
                         (!ax.ylog || v > 0);
            rd_chart_pos *p = &c->pos[i * RD_SERIES_COUNT + s];
            p->drawn = shown;
            p->x = (int)lroundf(rd__chart_map_x(&ax, d->points[i].size));
            p->y = shown ? (int)lroundf(rd__chart_map_y(&ax, v)) : 0;
        }
    draw_marks(c, d, &ax, &m, th);
    pts = c->n ? malloc((size_t)c->n * sizeof *pts) : NULL;
    if (pts) {
        static const rd_series order[] = {RD_SERIES_MODEL, RD_SERIES_ALGBW, RD_SERIES_BUSBW};
        for (int k = 0; k < 3; k++)
            draw_series(c, d, &ax, &m, order[k], pts);
    }
    free(pts);
    for (int i = 0; i < c->n; i++) {
        int px, py;
        if (d->points[i].wrong && rd_chart_point_xy(c, i, RD_SERIES_BUSBW, &px, &py)) {
            disc(c->r, (float)px, (float)py, m.marker * 1.9f, th->warn);
            disc(c->r, (float)px, (float)py, m.marker * 1.9f - m.line_w, m.plot_bg);
            marker(c->r, RD_SERIES_BUSBW, (float)px, (float)py, m.marker,
                   rd_chart_series_color(d->theme, RD_SERIES_BUSBW));
        }
    }
    int fh = (int)(m.px_small * 1.6f);
    if (d->footer)
        rd_text_draw_in(c->text, d->footer, m.px_small, th->dim,
                        (SDL_Rect){m.pad, h - fh - m.pad / 2, w - 2 * m.pad, fh}, RD_ALIGN_LEFT);
    if (d->message)
        rd_text_draw_in(c->text, d->message, m.px_small, th->accent,
                        (SDL_Rect){m.pad, h - fh - m.pad / 2, w - 2 * m.pad, fh}, RD_ALIGN_RIGHT);
    draw_tooltip(c, d, th, &m, w, h);
}

bool rd_chart_point_xy(const rd_chart *c, int i, rd_series s, int *x, int *y)
{
    if (!c || i < 0 || i >= c->n || (unsigned)s >= RD_SERIES_COUNT)
        return false;
    const rd_chart_pos *p = &c->pos[i * RD_SERIES_COUNT + s];
    if (!p->drawn)
        return false;
    *x = p->x;
    *y = p->y;
    return true;
}

SDL_Rect rd_chart_plot_rect(const rd_chart *c) { return c->plot; }

int rd_chart_hit(const rd_chart *c, int x, int y, rd_series *series)
{
    int best = -1;
    float best_d = c->hit_r * c->hit_r;
    /* Measured points win ties over the model: busbw is checked last and
     * the comparison is <=, so where markers coincide the measurement shows. */
    static const rd_series order[] = {RD_SERIES_MODEL, RD_SERIES_ALGBW, RD_SERIES_BUSBW};
    for (int i = 0; i < c->n; i++)
        for (int k = 0; k < 3; k++) {
            const rd_chart_pos *p = &c->pos[i * RD_SERIES_COUNT + order[k]];
            if (!p->drawn)
                continue;
            float dx = (float)(p->x - x), dy = (float)(p->y - y), dd = dx * dx + dy * dy;
            if (dd <= best_d) {
                best_d = dd;
                best = i;
                if (series)
                    *series = order[k];
            }
        }
    return best;
}

/*
 * rd_timeline_layout.c: where a lesson's step timeline goes, and which of
 * its communication is exposed. Rectangles and times only, nothing drawn
 * (rd_timeline.c draws them): the lanes' names on the left, the lanes with
 * their blocks placed by start and duration on one time axis, the axis'
 * ticks at round values under them, and the legend at the bottom. A comm
 * block counts as hidden where some compute block runs at the same time,
 * on any lane, and as exposed everywhere else; tests check both.
 */
#include "rd_internal.h"

#include <math.h>

/* About five ticks at 1, 2 or 5 times a power of ten. */
static void place_ticks(rd_steptl_geom *g)
{
    double span = g->t1 - g->t0, raw = span / 5;
    if (!(raw > 0)) {
        g->nticks = 1;
        g->tick[0] = g->t0;
        return;
    }
    double mag = pow(10, floor(log10(raw))), step = mag;
    if (step < raw)
        step = 2 * mag;
    if (step < raw)
        step = 5 * mag;
    if (step < raw)
        step = 10 * mag;
    g->nticks = 0;
    for (int k = 0; g->nticks < RD_STEPTL_MAX_TICKS; k++) {
        double t = k * step;
        if (t > g->t1 + 1e-9 * span)
            break;
        g->tick[g->nticks++] = t;
    }
}

float rd__steptl_lane_px(int nl) { return nl <= 3 ? 2.9f : 2.2f; }

int rd_steptl_x(const rd_steptl_geom *g, double t)
{
    double span = g->t1 - g->t0;
    if (!(span > 0))
        return g->plot.x;
    return g->plot.x + (int)lround((t - g->t0) * g->plot.w / span);
}

static double steptl_end(const rd_steptl *d)
{
    double end = 0;
    for (int i = 0; i < d->nblocks && i < RD_STEPTL_MAX_BLOCKS; i++)
        end = fmax(end, d->blocks[i].start + d->blocks[i].dur);
    for (int i = 0; i < d->nmarkers && i < RD_STEPTL_MAX_MARKERS; i++)
        end = fmax(end, d->markers[i].at);
    return end;
}

void rd_steptl_place(const rd_steptl *d, SDL_Rect area, int label_w, int px, rd_steptl_geom *g)
{
    *g = (rd_steptl_geom){0};
    int nl = d->nlanes < 1 ? 1 : d->nlanes > RD_STEPTL_MAX_LANES ? RD_STEPTL_MAX_LANES : d->nlanes;
    int top = (int)(px * 1.4), axis = (int)(px * 1.5), legend = (int)(px * 1.5);
    int gap = px / 2 > 2 ? px / 2 : 2;
    int lane_h = (area.h - top - axis - legend) / nl;
    if (lane_h > px * 3.0)
        lane_h = (int)(px * 3.0);
    if (label_w > area.w / 3)
        label_w = area.w / 3;
    int right = px * 3 / 2; /* the last tick's label is centred on the plot's end */
    g->names = rd__rect(area.x, area.y + top, label_w, lane_h * nl);
    g->plot = rd__rect(area.x + label_w + gap, area.y + top, area.w - label_w - gap - right,
                       lane_h * nl);
    for (int l = 0; l < nl; l++)
        g->lane[l] = rd__rect(g->plot.x, g->plot.y + l * lane_h, g->plot.w, lane_h);
    g->axis = rd__rect(g->plot.x, g->plot.y + g->plot.h, g->plot.w, axis);
    g->legend = rd__rect(area.x, g->axis.y + axis, area.w, legend);
    g->t0 = 0;
    g->t1 = steptl_end(d);
    place_ticks(g);
    int inset = lane_h / 10 > 1 ? lane_h / 10 : 1;
    for (int i = 0; i < d->nblocks && i < RD_STEPTL_MAX_BLOCKS; i++) {
        const rd_steptl_block *b = &d->blocks[i];
        if (b->lane < 0 || b->lane >= nl)
            continue;
        int x0 = rd_steptl_x(g, b->start), x1 = rd_steptl_x(g, b->start + b->dur);
        SDL_Rect ln = g->lane[b->lane];
        g->block[i] = rd__rect(x0, ln.y + inset, x1 - x0 > 1 ? x1 - x0 : 1, ln.h - 2 * inset);
    }
}

double rd_steptl_exposed(const rd_steptl *d, int b, double (*seg)[2], int maxseg, int *nseg)
{
    if (nseg)
        *nseg = 0;
    if (b < 0 || b >= d->nblocks || d->blocks[b].kind != RD_SPAN_COMM)
        return 0;
    double s = d->blocks[b].start, e = s + d->blocks[b].dur, exposed = 0;
    /* Walk from s to e: at each point, the compute block covering it (the
     * one reaching furthest) moves the walk to its end; an uncovered
     * stretch runs to the next compute block's start. */
    double at = s;
    while (at < e) {
        double cover = at, next = e;
        for (int i = 0; i < d->nblocks && i < RD_STEPTL_MAX_BLOCKS; i++) {
            const rd_steptl_block *c = &d->blocks[i];
            if (c->kind != RD_SPAN_COMPUTE || c->dur <= 0)
                continue;
            if (c->start <= at && c->start + c->dur > cover)
                cover = c->start + c->dur;
            else if (c->start > at && c->start < next)
                next = c->start;
        }
        if (cover > at) {
            at = cover;
            continue;
        }
        exposed += next - at;
        if (seg && nseg && *nseg < maxseg) {
            seg[*nseg][0] = at;
            seg[*nseg][1] = next;
            (*nseg)++;
        }
        at = next;
    }
    return exposed;
}

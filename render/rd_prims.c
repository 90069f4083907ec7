/*
 * rd_prims.c: drawing primitives SDL2 lacks (thick lines, discs, arrow
 * heads) built on SDL_RenderGeometry, which every SDL2 renderer including
 * the software one implements; text drawn in a box that records the box for
 * the layout tests; colours mixed from the theme's; and number formatting
 * for the header. The bottom of the drawing: everything else draws
 * through these.
 */
#include "rd_internal.h"

#include <math.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

static SDL_Vertex vtx(float x, float y, SDL_Color c)
{
    return (SDL_Vertex){{x, y}, c, {0, 0}};
}

void rd__line(SDL_Renderer *r, float x0, float y0, float x1, float y1, float width, SDL_Color c)
{
    float dx = x1 - x0, dy = y1 - y0;
    float len = sqrtf(dx * dx + dy * dy);
    if (len < 0.01f)
        return;
    if (width <= 1.01f) {
        SDL_SetRenderDrawColor(r, c.r, c.g, c.b, c.a);
        SDL_RenderDrawLineF(r, x0, y0, x1, y1);
        return;
    }
    float nx = -dy / len * width / 2, ny = dx / len * width / 2;
    SDL_Vertex v[4] = {vtx(x0 + nx, y0 + ny, c), vtx(x1 + nx, y1 + ny, c),
                       vtx(x1 - nx, y1 - ny, c), vtx(x0 - nx, y0 - ny, c)};
    static const int idx[6] = {0, 1, 2, 0, 2, 3};
    SDL_RenderGeometry(r, NULL, v, 4, idx, 6);
}

void rd__disc(SDL_Renderer *r, float cx, float cy, float radius, SDL_Color c)
{
    enum { SEG = 16 };
    SDL_Vertex v[SEG + 1];
    int idx[SEG * 3];
    v[0] = vtx(cx, cy, c);
    for (int i = 0; i < SEG; i++) {
        float a = (float)(2 * M_PI * i / SEG);
        v[i + 1] = vtx(cx + radius * cosf(a), cy + radius * sinf(a), c);
        idx[i * 3] = 0;
        idx[i * 3 + 1] = i + 1;
        idx[i * 3 + 2] = (i + 1) % SEG + 1;
    }
    SDL_RenderGeometry(r, NULL, v, SEG + 1, idx, SEG * 3);
}

void rd__arrowhead(SDL_Renderer *r, float x0, float y0, float x1, float y1, float size,
                   SDL_Color c)
{
    float dx = x1 - x0, dy = y1 - y0;
    float len = sqrtf(dx * dx + dy * dy);
    if (len < 0.01f)
        return;
    dx /= len;
    dy /= len;
    SDL_Vertex v[3] = {vtx(x1, y1, c),
                       vtx(x1 - dx * size - dy * size * 0.55f, y1 - dy * size + dx * size * 0.55f, c),
                       vtx(x1 - dx * size + dy * size * 0.55f, y1 - dy * size - dx * size * 0.55f, c)};
    SDL_RenderGeometry(r, NULL, v, 3, NULL, 0);
}

void rd__fill(SDL_Renderer *r, SDL_Rect rc, SDL_Color c)
{
    if (rc.w <= 0 || rc.h <= 0)
        return;
    SDL_SetRenderDrawBlendMode(r, c.a == 255 ? SDL_BLENDMODE_NONE : SDL_BLENDMODE_BLEND);
    SDL_SetRenderDrawColor(r, c.r, c.g, c.b, c.a);
    SDL_RenderFillRect(r, &rc);
}

void rd__frame(SDL_Renderer *r, SDL_Rect rc, int width, SDL_Color c)
{
    if (rc.w <= 0 || rc.h <= 0)
        return;
    if (width < 1)
        width = 1;
    if (width * 2 >= rc.w || width * 2 >= rc.h) {
        rd__fill(r, rc, c);
        return;
    }
    rd__fill(r, (SDL_Rect){rc.x, rc.y, rc.w, width}, c);
    rd__fill(r, (SDL_Rect){rc.x, rc.y + rc.h - width, rc.w, width}, c);
    rd__fill(r, (SDL_Rect){rc.x, rc.y + width, width, rc.h - 2 * width}, c);
    rd__fill(r, (SDL_Rect){rc.x + rc.w - width, rc.y + width, width, rc.h - 2 * width}, c);
}

SDL_Color rd__mix(SDL_Color a, SDL_Color b, float t)
{
    if (t < 0)
        t = 0;
    if (t > 1)
        t = 1;
    return (SDL_Color){(Uint8)(a.r + (b.r - a.r) * t), (Uint8)(a.g + (b.g - a.g) * t),
                       (Uint8)(a.b + (b.b - a.b) * t), 255};
}

SDL_Color rd__node_shade(const rd_theme *th, int node)
{
    return node % 2 ? rd__mix(th->bg, th->accent, 0.14f) : rd__mix(th->bg, th->link, 0.30f);
}

void rd__box(rd_ctx *c, SDL_Rect r, int kind, int layer, const char *label)
{
    if (!c->debug || c->nboxes >= RD_MAX_BOXES || r.w <= 0 || r.h <= 0)
        return;
    rd_box *b = &c->boxes[c->nboxes++];
    b->cut = false;
    b->r = r;
    b->kind = kind;
    b->layer = layer;
    snprintf(b->text, sizeof b->text, "%s", label ? label : "");
}

SDL_Rect rd__text(rd_ctx *c, const char *s, int px, SDL_Color col, SDL_Rect box, int align,
                  int layer)
{
    SDL_Rect r = rd_text_draw_in(c->text, s, px, col, box, align);
    rd__box(c, r, 0, layer, s);
    if (c->debug && c->nboxes > 0 && r.w > 0 && !(align & RD_ALIGN_FIT)) {
        int w = 0;
        rd_text_measure(c->text, s, px, &w, NULL);
        c->boxes[c->nboxes - 1].cut = w > box.w;
    }
    return r;
}

void rd__fmt_bytes(double b, char *out, size_t outlen)
{
    static const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (b >= 1024 && u < 4) {
        b /= 1024;
        u++;
    }
    if (u == 0)
        snprintf(out, outlen, "%.0f B", b);
    else
        snprintf(out, outlen, "%.*f %s", b < 10 ? 2 : b < 100 ? 1 : 0, b, units[u]);
}

void rd__fmt_seconds(double s, char *out, size_t outlen)
{
    if (!(s >= 0) || s == 0)
        snprintf(out, outlen, "-");
    else if (s < 1e-6)
        snprintf(out, outlen, "%.0f ns", s * 1e9);
    else if (s < 1e-3)
        snprintf(out, outlen, "%.*f \xC2\xB5s", s < 1e-5 ? 2 : 1, s * 1e6);
    else if (s < 1)
        snprintf(out, outlen, "%.*f ms", s < 1e-2 ? 2 : 1, s * 1e3);
    else
        snprintf(out, outlen, "%.2f s", s);
}
